"""What the LangChain and LlamaIndex adapters share: a chunk's metadata, and
a document's text as the lines the chunker reads."""

from __future__ import annotations

import io
import os
from typing import Any, Dict, Iterable, Iterator, Optional, Union

from ..core.chunk import Chunk
from ..core.errors import InputError
from ..drivers.counting import counting_chunker
from ..drivers.lines import chunk_lines
from ..drivers.pdf import SIGNATURE, chunk_pdf, is_pdf
from ..drivers.stream import chunk_stream

Source = Union[str, "os.PathLike[str]", Iterable[str]]


def metadata(chunk: Chunk, source: Optional[str]) -> Dict[str, Any]:
    """Every field of ``chunk`` but its text (which is the content), and ``source``.

    >>> c = Chunk(id="4.2", clause="4.2", heading_path="Exclusions", text="We do not pay.", words=4,
    ...           tokens=6, real_tokens=None, citation=None, lines=(5, 6), pages=(1, 1), oversize=False)
    >>> metadata(c, "policy.txt")["lines"], metadata(c, None)["source"]
    ([5, 6], None)
    """
    fields = chunk.to_dict()
    del fields["text"]
    fields["source"] = source
    return fields


def text_chunks(text: str, options: Dict[str, Any]) -> Iterator[Chunk]:
    """Chunk a document's whole text, held in memory, as its lines (split at
    ``\\n`` only: a form feed turns the page, it does not end a line)."""
    return chunk_lines(io.StringIO(text), **options)


def source_chunks(source: Source, options: Dict[str, Any], pdf_options: Dict[str, Any]) -> Iterator[Chunk]:
    """Chunk a file (a PDF, known by its signature, or text) or an iterable of
    lines, lazily. A ``str`` is a path."""
    if not isinstance(source, (str, os.PathLike)):
        yield from chunk_lines(source, **options)
        return
    try:
        with open(source, "rb") as f:
            head = f.read(len(SIGNATURE))
            if not is_pdf(head):
                f.seek(0)
                chunker = counting_chunker(**options)
                for batch in chunk_stream(chunker, f):
                    yield from batch
                return
    except OSError as err:
        raise InputError(f"cannot read {os.fspath(source)}: {err.strerror}") from None
    yield from chunk_pdf(source, **pdf_options, **options)

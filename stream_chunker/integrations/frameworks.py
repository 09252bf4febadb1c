"""What the LangChain and LlamaIndex adapters share: a chunk's metadata, and
a document's text as the lines the chunker reads."""

from __future__ import annotations

import io
import os
from typing import Any, Callable, Dict, Iterable, Iterator, NamedTuple, Optional, Union

from ..core.chunk import Chunk
from ..drivers.document import Document, Reading
from ..engine.options import Options

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


class Chunking(NamedTuple):
    """An adapter's keywords -- those of :func:`stream_chunker.chunk_lines` -- sorted out."""

    options: Options
    """The chunker's, checked."""
    count_worker: bool = True
    on_diagnostic: Optional[Callable[[Dict[str, Any]], None]] = None


def chunking(keywords: Dict[str, Any]) -> Chunking:
    """The options an adapter's keywords name, checked once for every document it reads."""
    keywords = dict(keywords)
    count_worker = keywords.pop("count_worker", True)
    on_diagnostic = keywords.pop("on_diagnostic", None)
    return Chunking(Options.of(**keywords), count_worker, on_diagnostic)


def text_chunks(text: str, how: Chunking) -> Iterator[Chunk]:
    """Chunk a document's whole text, held in memory, as its lines (split at
    ``\n`` only: a form feed turns the page, it does not end a line)."""
    return source_chunks(io.StringIO(text), how, Reading())


def source_chunks(source: Source, how: Chunking, reading: Reading) -> Iterator[Chunk]:
    """Chunk a file (a PDF, known by its signature, or text) or an iterable of
    lines, lazily. A ``str`` is a path."""
    with Document(source, how.options, reading=reading, count_worker=how.count_worker,
                  on_diagnostic=how.on_diagnostic) as document:
        for batch in document.batches():
            yield from batch

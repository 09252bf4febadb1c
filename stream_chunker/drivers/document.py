"""One document into chunks: the one path that the command line, ``chunk_files``,
Dask, the framework adapters, ``chunk_lines`` and ``chunk_pdf`` all take.

A document is a file named by its path -- a PDF, known by its signature, or
text --, a byte stream (stdin), or lines (any iterable of them, or a text file
open for reading). :class:`Document` decides which once, makes the document's
``Chunker`` (with the counting process beside it where that pays, see
``drivers.counting``), and feeds it as its kind is fed: a PDF a page at a time
(``drivers.pdf``), bytes a block at a time (``drivers.stream``), lines in
blocks or one at a time (``drivers.lines``).

>>> with Document(["1 Cover", "We cover the house."], Options.of(real_tokens=False)) as doc:
...     [chunk.text for batch in doc.batches() for chunk in batch], doc.report["chunks"]
(['We cover the house.'], 1)
"""

from __future__ import annotations

import io
import os
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Dict, Iterable, Iterator, List, Optional, Union

from ..core.chunk import Chunk
from ..core.errors import InputError
from ..core.tokens import DEFAULT_ENCODING
from ..engine.chunker import Chunker
from ..engine.options import Options
from .counting import counting_chunker
from .lines import line_batches, line_texts
from .pdf import HEADER_WINDOW, SIGNATURE, Page, is_pdf, not_a_pdf, pdf_batches
from .stream import chunk_stream, text_encoding

STDIN = "-"
"""The name that means stdin, where documents are named (the command line, ``chunk_files``)."""

PathLike = Union[str, "os.PathLike[str]"]
Source = Union[PathLike, BinaryIO, Iterable[str]]
"""A path (a ``str`` is always a path), a byte stream, or lines."""


@dataclass(frozen=True)
class Reading:
    """How a document's bytes are read, beside the chunker's options."""

    strict: bool = False
    """Invalid UTF-8 or a NUL byte is an :class:`InputError` (else replaced, or dropped, and noted)."""
    pdf_backend: str = "pdfium"
    """Which backend reads a PDF's text (``drivers.pdf.BACKENDS``)."""
    password: Optional[str] = None
    """The password of an encrypted PDF."""
    layout: bool = False
    """``pdftotext``'s ``-layout`` mode."""
    input_encoding: str = "utf-8"
    """The encoding of text input (``drivers.stream.text_encoding`` checks it)."""

    def __post_init__(self) -> None:
        text_encoding(self.input_encoding)


def source_of(name: str) -> Source:
    """The document a name names: stdin's bytes for ``-``, else the path."""
    return sys.stdin.buffer if name == STDIN else name


def open_file(path: str) -> BinaryIO:
    """The bytes of the file at ``path``."""
    try:
        return open(path, "rb")
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror}") from None


def is_pdf_file(stream: BinaryIO, name: str) -> bool:
    """A PDF is known by its signature, whatever its name; but a file named
    ``.pdf`` without one (a saved error page?) is refused rather than chunked as text."""
    try:
        head = os.pread(stream.fileno(), HEADER_WINDOW + len(SIGNATURE), 0)
    except OSError:  # a pipe: PDFs need random access, so it is read as text (where a PDF is refused)
        return False
    if is_pdf(head):
        return True
    if name.lower().endswith(".pdf"):
        raise InputError(not_a_pdf(head))
    return False


class Document:
    """One document, chunked a batch at a time by :meth:`batches`; its
    ``report`` is complete once they are all out. A file it opens is closed
    on leaving its ``with`` (or by :meth:`close`); a stream given stays open.

    Opening a path that cannot be read raises :class:`InputError` at once;
    whether it is a PDF is found when first asked (``is_pdf``, or by
    ``batches``), and a file named ``.pdf`` that is not one is refused then.
    ``pdf=True`` takes a path for a PDF without looking (``chunk_pdf``).
    """

    def __init__(self, source: Source, options: Options, *, reading: Reading = Reading(),
                 count_worker: bool = True, on_diagnostic: Optional[Callable[[Dict[str, Any]], None]] = None,
                 pdf: Optional[bool] = None) -> None:
        self._stack = ExitStack()
        self._reading = reading
        self._pdf = pdf
        self.path: Optional[str] = None
        """The document's path, when it was named by one."""
        self._stream: Optional[BinaryIO] = None
        self._texts: Optional[Iterator[str]] = None
        live = False
        if isinstance(source, (str, os.PathLike)):
            self.path = os.fspath(source)
            if not pdf:
                self._stream = self._stack.enter_context(open_file(self.path))
        elif isinstance(source, (io.BufferedIOBase, io.RawIOBase)):
            self._stream, self._pdf = source, False  # stdin: PDFs need random access
        else:
            self._texts, whole = line_texts(source)  # type: ignore[arg-type]
            self._pdf = False
            live = not whole  # its counts are taken here, lest a chunk wait for input not yet come
        self.chunker: Chunker = counting_chunker(options, count_worker=count_worker and not live,
                                                 on_diagnostic=on_diagnostic)

    def __enter__(self) -> "Document":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self._stack.close()

    @property
    def is_pdf(self) -> bool:
        """Whether it is read as a PDF."""
        if self._pdf is None:
            assert self._stream is not None and self.path is not None
            self._pdf = is_pdf_file(self._stream, self.path)
        return self._pdf

    @property
    def size(self) -> Optional[int]:
        """Its bytes on disk, for a file opened here (None for a stream, lines, or ``pdf=True``)."""
        if self.path is None or self._stream is None:
            return None
        return os.fstat(self._stream.fileno()).st_size

    @property
    def report(self) -> Dict[str, Any]:
        """The chunker's end-of-run report."""
        return self.chunker.report

    def batches(self, *, progress: Optional[Callable[[int], None]] = None,
                pages: Optional[Callable[[Page], None]] = None) -> Iterator[List[Chunk]]:
        """The chunks, a batch at a time: a PDF's page by page (``pages`` is
        told of each), text's a block at a time (``progress`` is told of its bytes)."""
        if self._texts is not None:
            yield from line_batches(self.chunker, self._texts)
        elif self.is_pdf:
            assert self.path is not None
            reading = self._reading
            yield from pdf_batches(self.chunker, self.path, backend=reading.pdf_backend, password=reading.password,
                                   layout=reading.layout, progress=pages)
        else:
            assert self._stream is not None
            yield from chunk_stream(self.chunker, self._stream, strict=self._reading.strict, progress=progress,
                                    encoding=self._reading.input_encoding)


def chunk_lines(
    lines: Iterable[str],
    *,
    profile: str = "policy",
    max_tokens: Optional[int] = None,
    max_chars: Optional[int] = None,
    cap_by: str = "estimate",
    encoding: str = DEFAULT_ENCODING,
    real_tokens: bool = True,
    count_worker: bool = True,
    on_diagnostic: Optional[Callable[[Dict[str, Any]], None]] = None,
    **profile_options: Any,
) -> Iterator[Chunk]:
    """Chunk a document given as an iterable of lines, lazily.

    Each item is one line, with or without its newline; an open text file is
    read in blocks. A ``str`` is the whole text of one document (not lines of
    one character each); ``bytes`` and a path raise :class:`TypeError` (decode
    the bytes, or open the file, or use :func:`stream_chunker.chunk_files`).
    Without a cap the
    profile's default applies (policy: 400 estimated tokens; statute: 900
    characters). With ``count_worker``, the real token counts of a source read
    in blocks are taken mostly by a counting process beside this one, on
    another core (see ``drivers.counting``): the chunks and their counts are the same.
    ``on_diagnostic`` is told of each diagnostic, as the ``Chunker``'s is.

    >>> doc = ["4 Exclusions", "4.1 Wear and tear", "We do not cover gradual deterioration."]
    >>> [(c.id, c.heading_path, c.tokens) for c in chunk_lines(doc, real_tokens=False)]
    [('4.1', 'Exclusions > Wear and tear', 8)]
    """
    if isinstance(lines, (bytes, bytearray, os.PathLike)):
        raise TypeError(f"chunk_lines takes lines or a text, not {type(lines).__name__}: decode bytes first; "
                        "for a file, give chunk_lines(open(path)) or chunk_files([path])")
    if isinstance(lines, str):
        lines = io.StringIO(lines)  # the text of one document, read as a file is
    options = Options.of(profile=profile, max_tokens=max_tokens, max_chars=max_chars, cap_by=cap_by,
                         encoding=encoding, real_tokens=real_tokens, **profile_options)
    for batch in Document(lines, options, count_worker=count_worker, on_diagnostic=on_diagnostic).batches():
        yield from batch


def chunk_pdf(path: PathLike, *, backend: str = "pdfium", password: Optional[str] = None, layout: bool = False,
              progress: Optional[Callable[[Page], None]] = None, count_worker: bool = True,
              on_diagnostic: Optional[Callable[[Dict[str, Any]], None]] = None, **options: Any) -> Iterator[Chunk]:
    """Chunk the PDF at ``path`` lazily, a page at a time.

    ``options`` are those of :func:`stream_chunker.chunk_lines`; as there,
    real token counts are taken mostly by a counting process on another core
    unless ``count_worker=False``. ``on_diagnostic`` is told of each
    diagnostic, as the ``Chunker``'s is. ``progress`` is called with each
    page once it is read. Raises :class:`InputError` when the PDF cannot be
    read or no page has text.
    """
    reading = Reading(pdf_backend=backend, password=password, layout=layout)
    document = Document(path, Options.of(**options), reading=reading, count_worker=count_worker,
                        on_diagnostic=on_diagnostic, pdf=True)
    for batch in document.batches(pages=progress):
        yield from batch

"""LangChain adapters (the ``[langchain]`` extra).

- :class:`StreamChunkerLoader` streams chunk ``Document`` objects from a text
  file, a PDF or an iterable of lines: ``lazy_load()`` hands each on as soon
  as it is decided, so a long document is never held whole.
- :class:`StreamChunkerSplitter` turns ``Document`` objects that each hold a
  whole document's text into chunk ``Document`` objects, where a text
  splitter would go.

A chunk ``Document``'s content is the chunk's text; its metadata holds every
other field of the chunk (``id``, ``clause``, ``heading_path``, ``words``,
``tokens``, ``real_tokens``, ``citation``, ``lines``, ``pages``,
``oversize``) and ``source``. Its ``id`` is ``"{source}:{chunk id}"``: chunk
ids are unique within a document only, so the source keeps them apart in a
store that holds many. The splitter's input Documents that share a source
(a loader's one Document per page) add their page, ``"{source}:p{page}:{chunk
id}"``, and those without a source their place in the input, ``"#3:{chunk
id}"``; a key that comes again gets ``~2``, so ids are unique in one call.

>>> from stream_chunker.langchain import StreamChunkerLoader
>>> docs = StreamChunkerLoader(["1 Cover", "We cover the house."], source="policy", real_tokens=False).load()
>>> docs[0].page_content, docs[0].id, docs[0].metadata["heading_path"]
('We cover the house.', 'policy:1', 'Cover')
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import BaseDocumentTransformer, Document

from ..core.chunk import Chunk
from ..drivers.document import Reading
from .frameworks import Source, chunking, metadata, source_chunks, text_chunks

__all__ = ["StreamChunkerLoader", "StreamChunkerSplitter"]


def _document(chunk: Chunk, source: Optional[str], inherited: Dict[str, Any], key: Optional[str]) -> Document:
    return Document(page_content=chunk.text, metadata={**inherited, **metadata(chunk, source)},
                    id=f"{key}:{chunk.id}" if key else chunk.id)


def _key(source: Optional[str], page: Any, number: int, keys: Dict[str, int]) -> str:
    """What keeps one input document's chunk ids apart from another's: its source
    and page (a loader gives a Document a page), or its place in the input when it
    has no source; a key seen before gets ``~2``, ``~3``."""
    key = str(source) if source else f"#{number + 1}"
    if page is not None:
        key = f"{key}:p{page}"
    keys[key] = keys.get(key, 0) + 1
    return key if keys[key] == 1 else f"{key}~{keys[key]}"


class StreamChunkerLoader(BaseLoader):
    """Chunk ``Document`` objects from a file or lines, lazily.

    ``file_or_lines`` is a path (a ``str`` is always a path) to a PDF -- known
    by its ``%PDF-`` signature -- or a UTF-8 text file, or any iterable of
    lines. ``source`` names it in the metadata and ids (default: the path).
    ``pdf_backend``, ``password`` and ``layout`` are those of
    :func:`stream_chunker.pdf.chunk_pdf`; ``options`` those of
    :func:`stream_chunker.chunk_lines`.
    """

    def __init__(self, file_or_lines: Source, *, source: Optional[str] = None, pdf_backend: str = "pdfium",
                 password: Optional[str] = None, layout: bool = False, **options: Any) -> None:
        self.file_or_lines = file_or_lines
        if source is None and isinstance(file_or_lines, (str, os.PathLike)):
            source = os.fspath(file_or_lines)
        self.source = source
        self.reading = Reading(pdf_backend=pdf_backend, password=password, layout=layout)
        self.options = options

    def lazy_load(self) -> Iterator[Document]:
        """Each chunk as a ``Document``, as soon as it is decided."""
        for chunk in source_chunks(self.file_or_lines, chunking(self.options), self.reading):
            yield _document(chunk, self.source, {}, self.source)


class StreamChunkerSplitter(BaseDocumentTransformer):
    """Split ``Document`` objects into chunk ``Document`` objects.

    Each input ``Document`` is one whole document (its text as ``pdftotext``
    prints it, or any text with line ends); each is chunked on its own, and
    its chunks keep its metadata, under the chunk's own fields. ``source`` is
    its ``source`` metadata, or its ``id``. ``options`` are those of
    :func:`stream_chunker.chunk_lines`.
    """

    def __init__(self, **options: Any) -> None:
        self.options = options

    def split_documents(self, documents: Iterable[Document]) -> List[Document]:
        """The chunks of every document, in order (a text splitter's name for it)."""
        out = []
        how = chunking(self.options)
        keys: Dict[str, int] = {}
        for number, document in enumerate(documents):
            source = document.metadata.get("source", document.id)
            key = _key(source, document.metadata.get("page"), number, keys)
            out += [_document(chunk, source, document.metadata, key)
                    for chunk in text_chunks(document.page_content, how)]
        return out

    def transform_documents(self, documents: Sequence[Document], **kwargs: Any) -> Sequence[Document]:
        """As :meth:`split_documents`."""
        return self.split_documents(documents)

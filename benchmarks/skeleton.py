"""A floor for the speed of a structure-aware chunker written in Python.

It does the least that cutting a document by its numbered sections asks of a
Python line loop: find the lines that start with a digit, take those shaped
like ``4.2 Title`` as headings (shape only: no sequence rule, no contents list,
no sibling form), part the text between them into paragraphs at blank lines,
join each paragraph's lines with single spaces, count its words, pack
paragraphs under the estimate cap and make a :class:`stream_chunker.Chunk` of
each, numbered ``4.2#1``, ``4.2#2``. It keeps no line numbers or pages, removes
no page furniture, and gives no diagnostics or report.

``stream_chunker`` does all of that too, so its estimate mode cannot be faster
than this on the same machine; the benchmark shows how far apart they are.
Its chunks are not the same as ``stream_chunker``'s and are not meant to be.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice

from stream_chunker import Chunk

_DIGIT_LINE = re.compile(r"\n(?=[ \t]*\d)")
_HEADING = re.compile(r"[ \t]*(\d+(?:\.\d+)*)\.?[ \t]+([A-Z][^\n]*)")


class _Packer:
    def __init__(self, max_tokens: int) -> None:
        self.max_tokens = max_tokens
        self.chunks: list[Chunk] = []
        self.clause, self.path, self.made = "front", "", 0
        self.texts: list[str] = []
        self.words = 0

    def section(self, clause: str, path: str) -> None:
        self.flush()
        self.clause, self.path, self.made = clause, path, 0

    def paragraphs(self, text: str) -> None:
        for part in text.split("\n\n"):
            paragraph = part.strip().replace("\n", " ")
            if not paragraph:
                continue
            if paragraph.isprintable() and "  " not in paragraph:
                count = paragraph.count(" ") + 1
            else:
                split = paragraph.split()
                paragraph, count = " ".join(split), len(split)
            if self.texts and (4 * (self.words + count) + 2) // 3 > self.max_tokens:
                self.flush()
            self.texts.append(paragraph)
            self.words += count

    def flush(self) -> None:
        if self.texts:
            self.made += 1
            words = self.words
            self.chunks.append(Chunk(f"{self.clause}#{self.made}", self.clause, self.path, "\n".join(self.texts),
                                     words, (4 * words + 2) // 3, None, None, (0, 0), (0, 0), False))
            self.texts, self.words = [], 0


def skeleton_chunks(lines: Iterable[str], max_tokens: int, block_lines: int = 1024) -> list[Chunk]:
    """Chunks of ``lines`` (each ending in a newline), under ``max_tokens`` estimated tokens."""
    packer = _Packer(max_tokens)
    items = iter(lines)
    while block := "".join(islice(items, block_lines)):
        block = "\n" + block
        pos = 0
        for found in _DIGIT_LINE.finditer(block):
            start = found.start() + 1
            heading = _HEADING.match(block, start, block.find("\n", start))
            if heading is not None:
                packer.paragraphs(block[pos:start])
                packer.section(heading[1], heading[2].strip())
                pos = heading.end() + 1
        packer.paragraphs(block[pos:])
    packer.flush()
    return packer.chunks

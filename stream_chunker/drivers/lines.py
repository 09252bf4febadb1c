"""Lines in: a Chunker driven over an iterable of lines (``chunk_lines``, in
``drivers.document``, is the public way in).

A source whose lines are all there already -- a list or tuple, a text file on
disk -- is fed in blocks of lines, and its real token counts are taken mostly
by the counting process (see ``drivers.counting``). Any other iterable may be live (a
generator reading a socket, a pipe): its lines are fed one at a time, and each
chunk is yielded as soon as it is decided, with its count taken here, so that
nothing waits for input that has not come.
"""

from __future__ import annotations

import io
import os
import stat
from itertools import islice, repeat
from typing import Any, Iterable, Iterator, List, Optional, Tuple

from ..core.chunk import Chunk
from ..engine.chunker import Chunker

BLOCK_LINES = 1024
"""Lines joined into one block: enough to make the per-block work vanish, few
enough to keep every string made of them small."""

BLOCK_CHARS = 1 << 15
"""Characters read at a time from a text file on disk."""


def line_of(item: str) -> str:
    r"""One item of a source of lines, with exactly one ``\n`` line end.

    >>> line_of("a"), line_of("a\r\n"), line_of("a\r"), line_of("")
    ('a\n', 'a\r\n', 'a\n', '\n')
    """
    if item.endswith("\n"):
        return item
    return item[:-1] + "\n" if item.endswith("\r") else item + "\n"


def blocks(lines: Iterable[str]) -> Iterator[str]:
    r"""Blocks of complete lines from items that are each one line, with or
    without a line end.

    >>> list(blocks(["a", "b\n", "", "c\r\n", "d\r"])), list(blocks(["a\n", "b\n", "c"]))
    (['a\nb\n\nc\r\nd\n'], ['a\nb\nc\n'])
    """
    items = iter(lines)
    while True:
        batch = list(islice(items, BLOCK_LINES))
        if not batch:
            return
        if batch[0][-1:] == "\n":  # lines read from a file keep their line ends
            joined = "".join(batch)
            if "\r" not in joined and all(map(str.endswith, batch, repeat("\n"))):
                yield joined
                continue
        else:  # lines split from a text have none
            joined = "\n".join(batch)
            if joined.count("\n") == len(batch) - 1 and "\r" not in joined:
                yield joined + "\n"
                continue
        yield "".join(map(line_of, batch))


def _file_blocks(source: Any) -> Optional[Iterator[str]]:
    """Blocks of a text file on disk or in memory, which never keeps a reader
    waiting; None for anything else."""
    if not isinstance(source, io.TextIOBase):
        return None
    if isinstance(source, io.StringIO):
        return iter(lambda: source.read(BLOCK_CHARS), "")
    try:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            return None
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    return iter(lambda: source.read(BLOCK_CHARS), "")


def line_texts(lines: Iterable[str]) -> Tuple[Iterator[str], bool]:
    """What to feed a chunker for a source of lines, and whether the source is
    all there already: a text file is read in blocks of characters, a list or
    tuple joined in blocks of lines, anything else (perhaps live) taken a line
    at a time."""
    source: Optional[Iterator[str]] = _file_blocks(lines)
    if source is None and isinstance(lines, (list, tuple)):
        source = blocks(lines)
    if source is None:
        return map(line_of, lines), False
    return source, True


def line_batches(chunker: Chunker, texts: Iterable[str]) -> Iterator[List[Chunk]]:
    """Feed ``texts`` to ``chunker``; yield the chunks each decided, and last
    those of ``chunker.close()``."""
    for text in texts:
        chunks = chunker.feed(text)
        if chunks:
            yield chunks
    yield chunker.close()

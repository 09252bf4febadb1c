"""``chunk_lines``: a Chunker driven over an iterable of lines.

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
from typing import Any, Iterable, Iterator, Optional

from ..core.chunk import Chunk
from ..core.tokens import DEFAULT_ENCODING
from .counting import counting_chunker

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
    **profile_options: Any,
) -> Iterator[Chunk]:
    """Chunk a document given as an iterable of lines, lazily.

    Each item is one line, with or without its newline. Without a cap the
    profile's default applies (policy: 400 estimated tokens; statute: 900
    characters). With ``count_worker``, the real token counts of a source read
    in blocks are taken mostly by a counting process beside this one, on
    another core (see ``drivers.counting``): the chunks and their counts are the same.

    >>> doc = ["4 Exclusions", "4.1 Wear and tear", "We do not cover gradual deterioration."]
    >>> [(c.id, c.heading_path, c.tokens) for c in chunk_lines(doc, real_tokens=False)]
    [('4.1', 'Exclusions > Wear and tear', 8)]
    """
    source: Optional[Iterator[str]] = _file_blocks(lines)
    if source is None and isinstance(lines, (list, tuple)):
        source = blocks(lines)
    chunker = counting_chunker(profile=profile, max_tokens=max_tokens, max_chars=max_chars, cap_by=cap_by,
                               encoding=encoding, real_tokens=real_tokens, count_worker=count_worker and source is not None,
                               **profile_options)
    for text in source if source is not None else map(line_of, lines):
        yield from chunker.feed(text)
    yield from chunker.close()


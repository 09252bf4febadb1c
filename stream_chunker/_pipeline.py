"""Driving a Chunker over an iterable of lines, a block of lines at a time."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Iterable, Iterator, List

from ._chunk import Chunk

if TYPE_CHECKING:
    from ._chunker import Chunker

BLOCK_LINES = 512
"""Lines joined into one block for the scanner: enough to make its per-block
work vanish, few enough to keep a block small."""


def blocks(lines: Iterable[str]) -> Iterator[str]:
    """Blocks of complete ``\n``-terminated lines from items that are each one
    line, with or without a line end.

    >>> list(blocks(["a", "b\\n", "", "c\\r\\n"]))
    ['a\\nb\\n\\nc\\n']
    """
    from ._chunker import normalise

    items = iter(lines)
    while True:
        batch = list(islice(items, BLOCK_LINES))
        if not batch:
            return
        yield _join(batch, normalise)


def _join(batch: List[str], normalise) -> str:  # type: ignore[no-untyped-def]
    joined = "\n".join(batch)
    if joined.count("\n") == len(batch) - 1 and "\r" not in joined:
        return joined + "\n"  # no item carried a line end of its own
    return "".join(normalise(item) if item.endswith("\n") else normalise(item) + "\n" for item in batch)


def run(chunker: "Chunker", lines: Iterable[str]) -> Iterator[Chunk]:
    for block in blocks(lines):
        chunker._feed_text(block)
        if chunker._out:
            yield from chunker._finish(chunker._drain())
    yield from chunker.close()

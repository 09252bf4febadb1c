"""Driving a Chunker over an iterable of lines, a block of lines at a time.

Real token counts are taken as chunks are decided, by ``_counting``: for a long
document mostly by a counting process. A worker *thread* was built and measured
first, and dropped: on the synthetic manual it ran at 3.5 MB/s against 4.0 MB/s
for the plain loop, and tiktoken's own ``encode_ordinary_batch`` in the worker
at 3.3 -- the GIL handoffs cost more than the overlap gained. Measured again
once the chunker was faster (chunk texts queued to a worker in batches of 1, 16
or 64, with switch intervals of 5, 1 and 0.2 ms): 123-158 ms against 108 ms on
one thread; one encode call per block (the block's chunks joined by " \n",
which cl100k_base always cuts into pieces of its own, so that the counts come
apart exactly at that token) 145-159 ms against 123-129 ms, because the worker
waits for the GIL after every call. Two threads that both encode finish only
1.3-1.4 times sooner than one on this 2-vCPU machine, where two processes
each run at nearly full speed.
"""

from __future__ import annotations

from itertools import islice, repeat
from typing import TYPE_CHECKING, Iterable, Iterator

from ._chunk import Chunk

if TYPE_CHECKING:
    from ._chunker import Chunker

BLOCK_LINES = 1024
"""Lines joined into one block for the scanner: enough to make its per-block
work vanish, few enough to keep every string it makes small."""


def blocks(lines: Iterable[str]) -> Iterator[str]:
    r"""Blocks of complete ``\n``-terminated lines from items that are each one
    line, with or without a line end.

    >>> list(blocks(["a", "b\n", "", "c\r\n", "d\r"])), list(blocks(["a\n", "b\n", "c"]))
    (['a\nb\n\nc\nd\n'], ['a\nb\nc\n'])
    """
    from ._chunker import complete_lines

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
        yield "".join(complete_lines(item) for item in batch)


def run(chunker: "Chunker", lines: Iterable[str]) -> Iterator[Chunk]:
    """Chunk an iterable of lines."""
    for block in blocks(lines):
        chunker._feed_text(block)
        yield from chunker._ready()
    yield from chunker.close()

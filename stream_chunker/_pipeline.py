"""Driving a Chunker over a stream, with real token counts on the second core.

The line-reading machine holds the GIL; tiktoken's encoder releases it. So the
chunks decided from one batch of input are encoded in a worker thread while the
main thread reads the next batch, and they leave in order once counted: two
batches in flight at most, so memory stays bounded. (tiktoken's own
``encode_ordinary_batch`` spreads texts over a thread pool of its own; on chunks
of a few hundred tokens a plain loop in one worker was faster when measured.)
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, List, Optional, Tuple

from ._chunk import Chunk

if TYPE_CHECKING:
    from ._chunker import Chunker

BLOCK_LINES = 1024
"""Lines joined into one block for the scanner: enough to make its per-block
work vanish, few enough to keep a block small."""


def blocks(lines: Iterable[str]) -> Iterator[str]:
    r"""Blocks of complete ``\n``-terminated lines from items that are each one
    line, with or without a line end.

    >>> list(blocks(["a", "b\n", "", "c\r\n"]))
    ['a\nb\n\nc\n']
    """
    from ._chunker import normalise

    items = iter(lines)
    while True:
        batch = list(islice(items, BLOCK_LINES))
        if not batch:
            return
        joined = "\n".join(batch)
        if joined.count("\n") == len(batch) - 1 and "\r" not in joined:
            yield joined + "\n"  # no item carried a line end of its own
        else:
            yield "".join(normalise(item) if item.endswith("\n") else normalise(item) + "\n" for item in batch)


def _lengths(encode: Callable[[str], List[int]], texts: List[str]) -> List[int]:
    return [len(encode(text)) for text in texts]


class Counting:
    """Gives batches of draft chunks their real token counts on a worker thread,
    one batch behind: ``submit`` returns the batch before it, counted;
    ``flush`` the one still in flight. Without real counting both are direct."""

    def __init__(self, chunker: "Chunker") -> None:
        self._chunker = chunker
        self._encode = chunker._encode
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream-chunker-tokens") \
            if self._encode is not None else None
        self._pending: Optional[Tuple[List[Chunk], "Future[List[int]]"]] = None

    def submit(self, batch: List[Chunk]) -> List[Chunk]:
        if self._pool is None:
            return self._chunker._finish(batch)
        if not batch:
            return []
        todo = [c.text for c in batch if c.real_tokens is None]
        future = self._pool.submit(_lengths, self._encode, todo)  # type: ignore[arg-type]
        done = self.flush()
        self._pending = (batch, future)
        return done

    @property
    def pending(self) -> bool:
        return self._pending is not None

    def flush(self) -> List[Chunk]:
        pending, self._pending = self._pending, None
        if pending is None:
            return []
        return self._chunker._finish(pending[0], pending[1].result())

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


def run(chunker: "Chunker", lines: Iterable[str]) -> Iterator[Chunk]:
    """Chunk an iterable of lines. With real counts the chunks of one block of
    lines leave while the next block is read."""
    counting = Counting(chunker)
    try:
        for block in blocks(lines):
            chunker._feed_text(block)
            yield from counting.submit(chunker._drain())
        yield from counting.submit(chunker._close())
        yield from counting.flush()
    finally:
        counting.close()

"""Real token counts for chunks, handed on in order: counted in this process,
or, once a document proves long, mostly in a worker process beside it.

Why a process: tiktoken's encoder gives up the GIL for only part of its work,
and on this project's 2-vCPU machine a worker *thread* that encoded chunks made
the whole run slower, not faster (see ``_pipeline``), while two *processes*
encoding side by side each ran at nearly full speed (75-91 ms a pass alone,
87 and 100 ms together). A forked worker starts in milliseconds and inherits
the loaded encoding, so nothing is loaded twice and nothing is downloaded.

How the work is shared: chunks go to the worker in one batch per call of
:meth:`Counts.settle` (a block of input), as long as the characters it has in
hand stay within ``BACKLOG``; past that, this process counts the next chunks
itself. The pipe to the worker is made big enough for that backlog, so a send
never blocks: neither side waits for the other while both have work, and
neither runs far ahead (at most ``MAX_WAITING`` chunks wait for their counts).
Chunks leave in their order, each with its exact count, whoever counted it.

When there is no worker: the sans-IO ``Chunker`` asks for none (its ``feed``
returns the chunks its text completed, counted); ``cap_by="real"`` counts while
packing; a document shorter than ``WORKER_AFTER`` characters of chunk text is
over before a worker would pay; and a worker is forked only on Linux and only
while this process runs no other thread (forking a threaded process can leave
the child holding a lock no thread will release). A worker that dies is noted
as a diagnostic and its chunks are counted here: no count is ever lost.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from collections import deque
from typing import Any, Callable, Deque, List, Optional, Tuple

from ._chunk import Chunk

WORKER_AFTER = 32 * 1024
"""Characters of chunk text counted in this process before a worker is forked."""

BACKLOG = 64 * 1024
"""Characters sent to the worker and not yet counted, at most: past it this
process counts the next chunks itself."""

SPIN = 0.05
"""Seconds either process polls for the other's next message before it sleeps."""

PIPE_BYTES = 1 << 20
"""The buffer asked for the pipe to the worker (Linux lets anyone have 1 MiB)."""

MAX_WAITING = 512
"""Chunks waiting for their counts at most; beyond it this process waits for
the worker (memory stays bounded whatever the document's length)."""


def _set_count(chunk: Chunk, count: int) -> None:
    # A draft belongs to the chunker until it is handed on: its count is set in
    # place (dataclasses.replace costs more than many a chunk's whole making).
    object.__setattr__(chunk, "real_tokens", count)


def can_fork() -> bool:
    """Whether a worker may be forked here and now."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and threading.active_count() == 1


def _serve(texts: Any, counts: Any, encode: Callable[[str], List[int]]) -> None:
    """The worker: a batch of texts in, their token counts out, until told to stop."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # The fork copied every open file of the parent. Held here, a pipe's write
    # end would keep its reader from ever seeing the end of its input (stdout
    # too: the next command of a shell pipeline would wait for this process),
    # so all go but this worker's two pipes.
    keep = {texts.fileno(), counts.fileno()}
    null = os.open(os.devnull, os.O_RDWR)
    for std in (0, 1, 2):
        if std not in keep:
            os.dup2(null, std)
    start = 3
    for fd in sorted(keep) + [max(start, os.sysconf("SC_OPEN_MAX"))]:
        if fd >= start:
            os.closerange(start, fd)
            start = fd + 1
    try:
        while True:
            _await(texts)
            batch = texts.recv()
            if batch is None:
                break
            counts.send([len(encode(text)) for text in batch])
    except (EOFError, OSError):  # the parent went away
        pass
    # Leave without flushing anything inherited from the parent (its output
    # buffers were flushed before the fork, but files of its own were not).
    os._exit(0)


def _await(pipe: Any) -> None:
    """Wait until ``pipe`` has something to read: busily for up to ``SPIN``
    seconds, then asleep. Waking a process asleep on a pipe cost the writer up
    to 5 ms on this project's virtual machine (median 0.03 ms, 90th percentile
    4.9 ms, for a 48 KB write every 5 ms to a reader that slept in between;
    0.04 ms at the 90th percentile when the reader polled instead), which
    would eat the overlap: the wait between two batches is a millisecond or
    two, so polling through it costs little."""
    deadline = time.perf_counter() + SPIN
    while not pipe.poll(0):
        if time.perf_counter() > deadline:
            pipe.poll(None)
            return


def _wide_pipe(context: Any) -> Tuple[Any, Any, int]:
    """A one-way pipe (reader, writer) and how many characters of text may be
    in it unread: its buffer is widened to ``PIPE_BYTES`` where the system
    allows, so that ``BACKLOG`` characters fit and a send never blocks."""
    reader, writer = context.Pipe(duplex=False)
    size = 64 * 1024  # Linux's default
    try:
        import fcntl

        size = fcntl.fcntl(writer.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass
    # UTF-8 takes up to 4 bytes a character (and pickling adds a little).
    return reader, writer, min(BACKLOG, size // 5)


def _stop(texts: Any, counts: Any, process: Any) -> None:
    try:
        texts.send(None)
    except (OSError, ValueError):
        pass
    texts.close()
    counts.close()
    process.join(timeout=5)
    if process.is_alive():
        process.kill()
        process.join()


class Counts:
    """Gives chunks their real token counts and hands them on in order."""

    def __init__(self, encode: Callable[[str], List[int]], worker: bool,
                 diagnose: Callable[..., None]) -> None:
        self._encode = encode
        self._worker_wanted = worker
        self._diagnose = diagnose
        self._counted_here = 0  # characters counted in this process before any worker
        self._texts: Any = None  # the pipe to the worker (None: no worker)
        self._counts: Any = None  # the pipe back
        self._backlog = 0
        self._process: Any = None
        self._stopper: "Optional[weakref.finalize[Any, Any]]" = None
        self._waiting: Deque[Chunk] = deque()  # chunks not yet handed on, in order
        self._flights: Deque[List[Chunk]] = deque()  # batches sent, oldest first
        self._in_hand = 0  # characters sent and not yet counted
        self.worker_used = False

    @property
    def waiting(self) -> bool:
        """Some chunks wait for counts from the worker."""
        return bool(self._waiting)

    def settle(self, drafts: List[Chunk], wait: bool = False) -> List[Chunk]:
        """Count ``drafts`` (or send them to be counted) and return the chunks,
        of these and earlier ones, whose turn has come with their counts;
        ``wait`` waits for every count still out."""
        encode = self._encode
        batch: List[Chunk] = []
        for chunk in drafts:
            if chunk.real_tokens is None:
                if self._texts is None and self._worker_wanted and self._counted_here >= WORKER_AFTER:
                    self._start()
                size = len(chunk.text)
                if self._texts is not None and not wait:
                    if self._in_hand + size > self._backlog and self._flights:
                        self._receive(block=False, every=False)  # the backlog as it is now
                    if self._in_hand + size <= self._backlog:
                        batch.append(chunk)
                        self._in_hand += size
                        self._waiting.append(chunk)
                        continue
                _set_count(chunk, len(encode(chunk.text)))
                if self._texts is None:
                    self._counted_here += size
            self._waiting.append(chunk)
        if batch:
            self._send(batch)
        if self._flights:
            self._receive(block=wait or len(self._waiting) > MAX_WAITING, every=wait)
        return self._hand_on()

    def stop(self) -> None:
        """Stop the worker, if one was started (counts still out are dropped:
        after ``settle(..., wait=True)`` there are none)."""
        self._flights.clear()
        if self._stopper is not None:
            self._stopper()
            self._stopper = None
            self._texts = None

    # -- the worker ----------------------------------------------------------
    def _start(self) -> None:
        self._worker_wanted = False  # one try: if it cannot start, count here
        if not can_fork():
            return
        import multiprocessing

        context = multiprocessing.get_context("fork")
        texts_in, texts_out, self._backlog = _wide_pipe(context)
        counts_in, counts_out = context.Pipe(duplex=False)
        process = context.Process(target=_serve, args=(texts_in, counts_out, self._encode),
                                  name="stream-chunker-counts", daemon=True)
        process.start()
        texts_in.close()
        counts_out.close()
        self._texts, self._counts, self._process = texts_out, counts_in, process
        self.worker_used = True
        # A chunker dropped half-way must not leave its worker behind.
        self._stopper = weakref.finalize(self, _stop, texts_out, counts_in, process)

    def _send(self, batch: List[Chunk]) -> None:
        try:
            self._texts.send([chunk.text for chunk in batch])
        except (OSError, ValueError):
            self._lost()
            for chunk in batch:
                _set_count(chunk, len(self._encode(chunk.text)))
            return
        self._flights.append(batch)

    def _receive(self, block: bool, every: bool) -> None:
        """Take in the counts that have come back; with ``block``, wait for the
        oldest batch (``every``: for all of them)."""
        pipe = self._counts
        try:
            while self._flights and (block or pipe.poll()):
                if block:
                    _await(pipe)
                counts = pipe.recv()
                batch = self._flights.popleft()
                for chunk, count in zip(batch, counts):
                    _set_count(chunk, count)
                    self._in_hand -= len(chunk.text)
                block = every
        except (EOFError, OSError):
            self._lost()

    def _lost(self) -> None:
        """The worker died: count what it held here, and go on without it."""
        self._diagnose("count_worker_lost", self._waiting[0].lines[0] if self._waiting else 0)
        for batch in self._flights:
            for chunk in batch:
                _set_count(chunk, len(self._encode(chunk.text)))
        self._flights.clear()
        self._in_hand = 0
        if self._stopper is not None:
            self._stopper()
            self._stopper = None
        self._texts = None

    def _hand_on(self) -> List[Chunk]:
        waiting = self._waiting
        out = []
        while waiting and waiting[0].real_tokens is not None:
            out.append(waiting.popleft())
        return out

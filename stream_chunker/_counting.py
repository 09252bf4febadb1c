"""Real token counts for chunks, handed on in order: counted in this process,
or, once a document proves long, mostly by a counting process beside it.

Why a process: tiktoken's encoder gives up the GIL for only part of its work,
and on this project's 2-vCPU machine a worker *thread* that encoded chunks made
the whole run slower, not faster (see ``_pipeline``), while two *processes*
encoding side by side each ran at nearly full speed (75-91 ms a pass alone,
87 and 100 ms together).

Why a fresh interpreter and not a fork: a fork would start in milliseconds with
the encoding already loaded, and was built first, but every page the chunker
then wrote to (a reference count is a write) had to be copied away from the
child -- 20-50 ms more CPU time on the manual --, a fork copies whatever locks
other threads of the caller hold, and it inherits every open file. So the
counting process is started once per interpreter and encoding, with
``sys.executable``, and shared by every chunker after it; it loads the encoding
itself (half a second, while this process goes on counting on its own) and
stops when this interpreter exits, or when it sees its input close.

How the work is shared: chunks go to the counting process in one batch per
call of :meth:`Counts.settle` (a block of input), as long as the characters a
chunker has sent and not had back stay within ``BACKLOG``; past that, this
process counts the next chunks itself. The pipe is made big enough for that
backlog, so a send never blocks: neither side waits for the other while both
have work, and neither runs far ahead (at most ``MAX_WAITING`` chunks of a
chunker wait for their counts). Chunks leave in their order, each with its
exact count, whoever counted it.

When there is none: the sans-IO ``Chunker`` asks for none (its ``feed``
returns the chunks its text completed, counted); ``cap_by="real"`` counts while
packing; the process is started only once a document has made ``WORKER_AFTER``
characters of chunks (short documents are over before it would pay), and only
on POSIX systems. If it cannot start or dies, a ``count_worker_lost``
diagnostic is noted, what it held is counted here, and no other is started.
"""

from __future__ import annotations

import atexit
import os
import select
import subprocess
import sys
import threading
import time
from array import array
from collections import deque
from typing import Callable, Deque, Dict, List, Optional, Set, Tuple

from ._chunk import Chunk

WORKER_AFTER = 32 * 1024
"""Characters of chunk text a document makes before the counting process is
started (once started, it serves every later document from its first chunk)."""

BACKLOG = 64 * 1024
"""Characters a chunker has sent to be counted and not had back, at most: past
it this process counts the next chunks itself."""

MAX_WAITING = 512
"""Chunks of one chunker waiting for their counts at most; beyond it the
chunker waits for them (memory stays bounded whatever the document's length)."""

SPIN = 0.05
"""Seconds either side polls for the other's next message before it sleeps."""

PIPE_BYTES = 1 << 20
"""The buffer asked for the pipe to the counting process (Linux lets anyone
have 1 MiB)."""

_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
Encode = Callable[[str], List[int]]


def _set_count(chunk: Chunk, count: int) -> None:
    # A draft belongs to the chunker until it is handed on: its count is set in
    # place (dataclasses.replace costs more than many a chunk's whole making).
    object.__setattr__(chunk, "real_tokens", count)


# Messages on the pipes: an 8-byte length, then the bytes. Texts go as "T" and
# one UTF-8 string joined by NUL (an empty message says stop), which no chunk holds (the scanner drops NUL
# bytes, and reports them); "surrogatepass" carries any Python string there and
# back unchanged. Counts come back as an array of unsigned ints. (The pickling
# and polling of ``multiprocessing.connection`` cost three times as much.)


def _readable(fd: int) -> bool:
    return bool(select.select([fd], [], [], 0)[0])


def _await(fd: int) -> None:
    """Wait until ``fd`` has something to read: busily for up to ``SPIN``
    seconds, then asleep. Waking a process asleep on a pipe cost the writer up
    to 5 ms on this project's virtual machine (median 0.03 ms, 90th percentile
    4.9 ms, for a 48 KB write every 5 ms to a reader that slept in between;
    0.04 ms at the 90th percentile when the reader polled instead), which
    would eat the overlap: the wait between two batches is a millisecond or
    two, so polling through it costs little."""
    deadline = time.perf_counter() + SPIN
    while not _readable(fd):
        if time.perf_counter() > deadline:
            select.select([fd], [], [])
            return


def _write(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _read(fd: int) -> bytes:
    """One message; EOFError when the pipe closes first."""
    header = _read_exactly(fd, 8)
    return _read_exactly(fd, int.from_bytes(header, "little"))


def _read_exactly(fd: int, n: int) -> bytes:
    parts = []
    while n:
        part = os.read(fd, n)
        if not part:
            raise EOFError
        parts.append(part)
        n -= len(part)
    return b"".join(parts)


def serve() -> None:
    """The counting process (``python -c ... ENCODING``): batches of texts on
    stdin, their token counts on stdout, until stdin closes or sends nothing."""
    import signal

    from ._tokens import load_encoding

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    sys.stdout = sys.stderr  # stdout is the pipe: nothing else may write there
    encode = load_encoding(sys.argv[1]).encode_ordinary
    try:
        while True:
            _await(0)
            batch = _read(0)
            if not batch:
                break
            texts = batch[1:].decode("utf-8", "surrogatepass").split("\0")
            _write(1, array("I", [len(encode(text)) for text in texts]).tobytes())
    except (EOFError, OSError):  # the parent went away
        pass


class _Worker:
    """The counting process for one encoding, shared by every chunker of this
    interpreter. Its batches come back in the order they were sent."""

    def __init__(self, encoding: str, encode: Encode) -> None:
        self.encoding = encoding
        self.encode = encode  # to count here what it held, should it die
        self.pid = os.getpid()
        self.alive = True
        self.ready = False  # it has answered once: its encoding is loaded
        self.lock = threading.Lock()  # chunkers on several threads share it
        self.flights: Deque[Tuple["Counts", List[Chunk]]] = deque()
        # Characters sent and not had back, of every chunker: kept within the
        # pipe's capacity, so that a send never blocks (a send blocked while
        # this process does not read the counts would wait forever).
        self.in_hand = 0
        texts_in, texts_out = os.pipe()
        counts_in, counts_out = os.pipe()
        try:
            size = 64 * 1024  # Linux's default
            try:
                import fcntl

                size = fcntl.fcntl(texts_out, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
            except (ImportError, AttributeError, OSError):
                pass
            # UTF-8 takes up to 4 bytes a character, a NUL parts two texts,
            # and each batch has a header.
            self.capacity = size // 6  # characters the pipe surely holds
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [_PACKAGE_PARENT, env.get("PYTHONPATH")]))
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from stream_chunker._counting import serve; serve()", encoding],
                stdin=texts_in, stdout=counts_out, stderr=subprocess.DEVNULL, env=env,
                start_new_session=True)  # a terminal's Ctrl-C goes to the parent alone
        except BaseException:
            for fd in (texts_in, texts_out, counts_in, counts_out):
                os.close(fd)
            raise
        os.close(texts_in)
        os.close(counts_out)
        self.texts, self.counts = texts_out, counts_in

    def send(self, owner: "Counts", batch: List[Chunk]) -> None:
        texts = [chunk.text for chunk in batch]
        with self.lock:
            if self.alive:
                try:
                    _write(self.texts, b"T" + "\0".join(texts).encode("utf-8", "surrogatepass"))
                except OSError:
                    self._die()
                else:
                    self.flights.append((owner, batch))
                    self.in_hand += sum(map(len, texts))
                    owner.batches_out += 1
                    return
        for chunk in batch:
            _set_count(chunk, len(self.encode(chunk.text)))

    def receive(self, until: Optional[Callable[[], bool]] = None) -> None:
        """Take in the counts that have come back; with ``until``, wait for
        more until it holds."""
        with self.lock:
            try:
                while self.flights:
                    if until is None or until():
                        if not _readable(self.counts):
                            return
                    else:
                        _await(self.counts)
                    counts = array("I")
                    counts.frombytes(_read(self.counts))
                    self.ready = True
                    owner, batch = self.flights.popleft()
                    for chunk, count in zip(batch, counts):
                        _set_count(chunk, count)
                    self._returned(owner, batch)
            except (EOFError, OSError):
                self._die()

    def _die(self) -> None:
        """It is gone (or would not start): count here what it held."""
        self.alive = False
        _BROKEN.add(self.encoding)  # none is started again
        while self.flights:
            owner, batch = self.flights.popleft()
            for chunk in batch:
                _set_count(chunk, len(self.encode(chunk.text)))
            self._returned(owner, batch)
        self.stop()

    def _returned(self, owner: "Counts", batch: List[Chunk]) -> None:
        self.in_hand -= sum(len(chunk.text) for chunk in batch)
        owner.batches_out -= 1

    def stop(self) -> None:
        try:
            _write(self.texts, b"")
        except OSError:
            pass
        os.close(self.texts)
        os.close(self.counts)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_WORKERS: Dict[str, _Worker] = {}
_BROKEN: Set[str] = set()  # encodings whose counting process failed
_REGISTRY_LOCK = threading.Lock()


def _worker(encoding: str, encode: Encode, start: bool) -> Optional[_Worker]:
    """The counting process for ``encoding``; started if ``start`` and none runs."""
    with _REGISTRY_LOCK:
        worker = _WORKERS.get(encoding)
        if worker is not None and (worker.pid != os.getpid() or not worker.alive):
            # Dead, or inherited through a fork of this interpreter (its pipes
            # are the parent's to use): not ours to use.
            del _WORKERS[encoding]
            worker = None
        if worker is None and start and os.name == "posix" and encoding not in _BROKEN:
            try:
                worker = _WORKERS[encoding] = _Worker(encoding, encode)
            except OSError:
                _BROKEN.add(encoding)
        return worker


@atexit.register
def _stop_all() -> None:
    for worker in list(_WORKERS.values()):
        if worker.pid == os.getpid() and worker.alive:
            worker.stop()
    _WORKERS.clear()


class Counts:
    """Gives one chunker's chunks their real token counts and hands them on in order."""

    def __init__(self, encode: Encode, encoding: str, use_worker: bool, diagnose: Callable[..., None]) -> None:
        self._encode = encode
        self._encoding = encoding
        self._use_worker = use_worker
        self._diagnose = diagnose
        self._counted_here = 0  # characters counted here while no worker was used
        self._worker: Optional[_Worker] = None
        self._waiting: Deque[Chunk] = deque()  # chunks not yet handed on, in order
        self.batches_out = 0  # batches sent and not had back (kept under the worker's lock)
        self.worker_used = False

    @property
    def waiting(self) -> bool:
        """Some chunks wait for their counts."""
        return bool(self._waiting)

    def settle(self, drafts: List[Chunk], wait: bool = False) -> List[Chunk]:
        """Count ``drafts`` (or send them to be counted) and return the chunks,
        of these and earlier ones, whose turn has come with their counts;
        ``wait`` waits for every count still out."""
        encode = self._encode
        worker = self._worker
        batch: List[Chunk] = []
        batched = 0  # characters in ``batch``
        for chunk in drafts:
            if chunk.real_tokens is None:
                size = len(chunk.text)
                if worker is None and self._use_worker:
                    worker = self._take_worker()
                if worker is not None and not wait:
                    backlog = min(BACKLOG, worker.capacity)
                    if worker.in_hand + batched + size > backlog and worker.flights:
                        worker.receive()  # the backlog as it is now
                    if worker.in_hand + batched + size <= backlog:
                        batch.append(chunk)
                        batched += size
                        self._waiting.append(chunk)
                        continue
                _set_count(chunk, len(encode(chunk.text)))
                if worker is None:
                    self._counted_here += size
            self._waiting.append(chunk)
        if worker is not None:
            if batch:
                worker.send(self, batch)
            if self.batches_out:
                if wait and not worker.ready:
                    # Still loading its encoding: counting here is sooner. (Its
                    # counts, when they come, are the same numbers again.)
                    for chunk in self._waiting:
                        if chunk.real_tokens is None:
                            _set_count(chunk, len(encode(chunk.text)))
                elif wait:
                    worker.receive(until=lambda: not self.batches_out)
                elif len(self._waiting) > MAX_WAITING:
                    worker.receive(until=lambda: self._waiting[0].real_tokens is not None)
                else:
                    worker.receive()
            if not worker.alive:
                self._diagnose("count_worker_lost", self._waiting[0].lines[0] if self._waiting else 0)
                self._worker = None
                self._use_worker = False
        return self._hand_on()

    def _take_worker(self) -> Optional[_Worker]:
        """The counting process, once this document has made enough chunks to
        start one (or one runs already)."""
        worker = _worker(self._encoding, self._encode, start=self._counted_here >= WORKER_AFTER)
        if worker is not None:
            self._worker = worker
            self.worker_used = True
        return worker

    def _hand_on(self) -> List[Chunk]:
        waiting = self._waiting
        out = []
        while waiting and waiting[0].real_tokens is not None:
            out.append(waiting.popleft())
        return out

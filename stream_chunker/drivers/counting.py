"""Real token counts for chunks, handed on in order: counted in this process,
or, once a document proves long, mostly by a counting process beside it.

Why so branched: ``Counts.settle`` (cyclomatic complexity 22) is where the
two counters meet -- a chunk sent, counted here or waited for, the counting
process loading, alive or gone -- and those choices in one place are what keep
the chunks in order with their counts.

Why a process: tiktoken's encoder gives up the GIL for only part of its work,
and on this project's 2-vCPU machine a worker *thread* that encoded chunks made
the whole run slower, not faster (measured before the engine became stages), while two *processes*
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
call of :meth:`Counts.settle` (a block of input), as long as the characters
sent and not had back stay within ``BACKLOG`` and what its socket was measured
to hold; the rest this process counts itself. So a send never blocks: neither
side waits for the other while both have work, and neither runs far ahead (at
most ``MAX_WAITING`` chunks of a chunker wait for their counts). Chunks leave
in their order, each with its exact count, whoever counted it. While the
counting process still loads its encoding, nothing waits for it: what a
chunker would wait for, it counts itself (the late answers are the same
numbers).

What could put the two sides out of step ends the counting process instead:
an exception -- Ctrl-C, a signal handler's -- in the middle of a send or a
receive, a reply that does not fit its batch, no reply within
``REPLY_LIMIT`` seconds. A fork of this interpreter forgets the counting
process (the child's chunkers count for themselves, or start their own), so
only its starter ever talks to it. Sends with ``MSG_NOSIGNAL`` (Linux) make a
dead counting process an error to handle, not a SIGPIPE that kills this one.

When there is none: the sans-IO ``Chunker`` asks for none (its ``feed``
returns the chunks its text completed, counted); ``cap_by="real"`` counts while
packing; the process is started only once a document has made ``WORKER_AFTER``
characters of chunks (short documents are over before it would pay), and only
on POSIX systems. If it cannot start or dies, a ``count_worker_lost``
diagnostic is noted, what it held is counted here, and no other is started
for that encoding. It runs ``sys.executable -c``, with the package's own folder
first on its path; flags such as ``-I`` or ``-X`` of this interpreter are not
passed on, and its stderr goes nowhere (the diagnostic gives its exit status).

Why one module of this length: the counting process, the channel to it and
the chunker's side of the exchange are one protocol; each part makes sense
only with the others, and every rule of the exchange is in one place.
"""

from __future__ import annotations

import atexit
import os
import select
import socket
import subprocess
import sys
import threading
import time
from array import array
from collections import deque
from typing import Any, Callable, Deque, Dict, List, Optional, Tuple

from ..core.chunk import Chunk, with_real_tokens
from ..core.tokens import load_encoding
from ..engine.chunker import Chunker
from ..engine.options import Options

WORKER_AFTER = 32 * 1024
"""Characters of chunk text a document makes before the counting process is
started (once started, it serves every later document from its first chunk)."""

BACKLOG = 64 * 1024
"""Characters sent to be counted and not had back, at most: past it this
process counts the next chunks itself."""

MAX_WAITING = 512
"""Chunks of one chunker waiting for their counts at most; beyond it the
chunker waits for them (memory stays bounded whatever the document's length)."""

SPIN = 0.05
"""Seconds either side polls for the other's next message before it sleeps."""

REPLY_LIMIT = 60.0
"""Seconds this process waits for a reply it needs before it gives the
counting process up."""

PEAK_TRIES = 20
"""Reads of a counting process's peak RSS while it shows none (10 ms apart)."""
MIN_PEAK_KIB = 1024
"""A high-water mark below this is a process in the middle of its exec (``VmHWM: 4 kB``,
which rounds to 0.0 MiB), not yet the interpreter it runs: no Python runs in 1 MiB."""

SOCKET_BYTES = 1 << 20
"""The buffer asked for on each side of the socket (the system may give less;
what it holds is measured)."""

_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The folder that holds the package (this module is in ``stream_chunker/drivers/``)."""
_NO_SIGPIPE = getattr(socket, "MSG_NOSIGNAL", 0)
Encode = Callable[[str], List[int]]


class _Draft:
    """A chunk waiting for its count."""

    __slots__ = ("chunk", "count")

    def __init__(self, chunk: Chunk) -> None:
        self.chunk = chunk
        self.count: Optional[int] = chunk.real_tokens


def _set_count(draft: _Draft, count: int) -> None:
    draft.count = count


class _Channel:
    """Messages over a stream socket: an 8-byte length, then the bytes. Texts
    go as "T" and one UTF-8 string joined by NUL, which no chunk holds (the
    scanner drops NUL bytes, and reports them); "surrogatepass" carries any
    Python string there and back unchanged. Counts come back as an array of
    unsigned ints; an empty message says stop. (The pickling and polling of
    ``multiprocessing.connection`` cost three times as much.)"""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._poll = select.poll()  # unlike select.select, any descriptor number
        self._poll.register(sock, select.POLLIN)

    def readable(self, seconds: Optional[float] = 0) -> bool:
        return bool(self._poll.poll(None if seconds is None else seconds * 1000))

    def wait(self, limit: Optional[float]) -> bool:
        """Wait until there is something to read: busily for up to ``SPIN``
        seconds, then asleep, ``limit`` seconds in all (None: no limit).
        Waking a process asleep on a pipe cost the writer up to 5 ms on this
        project's virtual machine (median 0.03 ms, 90th percentile 4.9 ms, for
        a 48 KB write every 5 ms to a reader that slept in between; 0.04 ms
        at the 90th percentile when the reader polled instead), which would
        eat the overlap: the wait between two batches is a millisecond or two,
        so polling through it costs little."""
        start = time.perf_counter()
        while not self.readable():
            spent = time.perf_counter() - start
            if spent > SPIN:
                return self.readable(None if limit is None else max(0.0, limit - spent))
        return True

    def write(self, data: bytes) -> None:
        self.sock.sendall(len(data).to_bytes(8, "little") + data, _NO_SIGPIPE)

    def read(self) -> bytes:
        """One message; EOFError when the other side has gone."""
        return self._exactly(int.from_bytes(self._exactly(8), "little"))

    def _exactly(self, n: int) -> bytes:
        parts = []
        while n:
            part = self.sock.recv(min(n, 1 << 20))
            if not part:
                raise EOFError
            parts.append(part)
            n -= len(part)
        return b"".join(parts)


def serve() -> None:
    """The counting process (``python -c ... PACKAGE_FOLDER ENCODING``, the
    socket on stdin): batches of texts in, their token counts out, until the
    socket closes or says stop."""
    import signal

    from ..core.tokens import load_encoding

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    channel = _Channel(socket.socket(fileno=0))
    encode = load_encoding(sys.argv[2]).encode_ordinary
    try:
        while True:
            channel.wait(None)
            batch = channel.read()
            if not batch:
                break
            texts = batch[1:].decode("utf-8", "surrogatepass").split("\0")
            channel.write(array("I", [len(encode(text)) for text in texts]).tobytes())
    except (EOFError, OSError):  # the parent went away
        pass


def _measured_capacity(mine: socket.socket, theirs: socket.socket) -> int:
    """Bytes ``mine`` can send before a send would block, with nobody reading."""
    for sock, option in ((mine, socket.SO_SNDBUF), (theirs, socket.SO_RCVBUF)):
        try:
            sock.setsockopt(socket.SOL_SOCKET, option, SOCKET_BYTES)
        except OSError:
            pass
    mine.setblocking(False)
    sent = 0
    try:
        while True:
            sent += mine.send(bytes(4096))
    except (BlockingIOError, InterruptedError):
        pass
    finally:
        mine.setblocking(True)
    left = sent
    while left:  # take it all back out
        left -= len(theirs.recv(left))
    return sent


class _Worker:
    """The counting process for one encoding, shared by every chunker of this
    interpreter. Its batches come back in the order they were sent; all that
    touches the socket or the record of batches holds ``lock``."""

    def __init__(self, encoding: str, encode: Encode) -> None:
        self.encoding = encoding
        self.encode = encode  # to count here what it held, should it die
        self.alive = True
        self.lost = False  # it died (rather than being left behind by a fork)
        self.ready = False  # it has answered once: its encoding is loaded
        self._peak: Optional[float] = None  # its peak RSS when last read (a process that is gone has none to read)
        self.lock = threading.Lock()  # chunkers on several threads share it
        self.flights: Deque[Tuple["Counts", List[_Draft], int]] = deque()  # and its characters
        self.in_hand = 0  # characters sent and not had back, of every chunker
        mine, theirs = socket.socketpair()
        try:
            # The replies are 4 bytes a text, and a text has at least one
            # character, so that the counts always fit on the way back too:
            # UTF-8 takes up to 4 bytes a character, a NUL parts two texts.
            self.capacity = (_measured_capacity(mine, theirs) - 64) // 5
            program = "import sys; sys.path[0] = sys.argv[1]; from stream_chunker.drivers.counting import serve; serve()"
            self.process = subprocess.Popen(
                [sys.executable, "-c", program, _PACKAGE_PARENT, encoding],
                stdin=theirs.fileno(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True)  # a terminal's Ctrl-C goes to this process alone
        except BaseException:
            mine.close()
            theirs.close()
            raise
        theirs.close()
        self.channel = _Channel(mine)

    def send(self, owner: "Counts", texts: List[_Draft]) -> List[_Draft]:
        """Send as many of ``texts``' chunks as the backlog allows; return the rest."""
        with self.lock:
            if not self.alive:
                return texts
            room = min(BACKLOG, self.capacity) - self.in_hand
            size = taken = 0
            for draft in texts:
                if size + len(draft.chunk.text) > room:
                    break
                size += len(draft.chunk.text)
                taken += 1
            if not taken:
                return texts
            batch = texts[:taken]
            try:
                self.channel.write(b"T" + "\0".join([d.chunk.text for d in batch]).encode("utf-8", "surrogatepass"))
            except BaseException as err:
                self._die(err)
                return texts
            self.flights.append((owner, batch, size))
            self.in_hand += size
            owner.batches_out += 1
            return texts[taken:]

    def receive(self, until: Optional[Callable[[], bool]] = None) -> None:
        """Take in the counts that have come back; with ``until``, wait for
        more until it holds."""
        with self.lock:
            try:
                while self.flights and self.alive:
                    if until is None or until():
                        if not self.channel.readable():
                            return
                    elif not self.channel.wait(REPLY_LIMIT):
                        raise TimeoutError("no reply")
                    counts = array("I")
                    counts.frombytes(self.channel.read())
                    owner, batch, size = self.flights.popleft()
                    if len(counts) != len(batch):
                        raise ValueError("a reply that does not fit its batch")
                    for chunk, count in zip(batch, counts):
                        _set_count(chunk, count)
                    if not self.ready:
                        self.peak_rss_mib()  # (read once it has loaded its encoding: most of what it will hold)
                    self.ready = True
                    self.in_hand -= size
                    owner.batches_out -= 1
            except BaseException as err:
                self._die(err)

    def _die(self, err: BaseException) -> None:
        """Something went wrong in an exchange: count here what it held, and
        end it (none is started again). An exception that is not an error --
        Ctrl-C, an exit -- goes on up once that is done: the exchange it cut
        short may have left the stream out of step."""
        self.lost = True
        _BROKEN.setdefault(self.encoding, f"it stopped answering ({type(err).__name__})")
        self._end()
        while self.flights:
            owner, batch, _ = self.flights.popleft()
            for draft in batch:
                _set_count(draft, len(self.encode(draft.chunk.text)))
            owner.batches_out -= 1
        self.in_hand = 0
        if not isinstance(err, Exception):
            raise err

    def stop(self) -> None:
        """End it (at exit). A thread may hold the lock while it waits for a
        reply: then the process is ended without it, which that thread sees."""
        if self.lock.acquire(timeout=1):
            try:
                self._end()
            finally:
                self.lock.release()
        else:
            self.process.kill()

    def forget(self) -> None:
        """In the child of a fork: let go of the parent's counting process."""
        self.alive = False
        self.lock = threading.Lock()  # the fork may have copied it held
        self.channel.sock.close()  # this process's copy only

    def peak_rss_mib(self) -> Optional[float]:
        """Its peak RSS so far, from ``/proc`` (the kernel's high-water mark;
        its own ``ru_maxrss`` would count this process's size at the fork
        before the exec), or as last read there once it has exited (a
        process that has exited has none); None where it was never read."""
        for _ in range(PEAK_TRIES):
            try:
                with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
                    for line in status:
                        if line.startswith("VmHWM:") and int(line.split()[1]) >= MIN_PEAK_KIB:
                            self._peak = max(self._peak or 0.0, round(int(line.split()[1]) / 1024, 1))
                            return self._peak
            except (OSError, ValueError):
                pass
            if self.process.poll() is not None:
                break
            # (no memory to show, or a few kB of it: it is in the middle of its exec, its new image
            # not yet mapped, as a loaded machine may keep it a while)
            time.sleep(0.01)
        return self._peak

    def _end(self) -> None:
        if not self.alive:
            return
        global _ENDED_PEAK
        _ENDED_PEAK = max(filter(None, (_ENDED_PEAK, self.peak_rss_mib())), default=None)
        self.alive = False
        try:
            self.channel.write(b"")
        except OSError:
            pass
        self.channel.sock.close()
        if not self.ready:
            # Still loading its encoding: it has counted nothing anyone waits
            # for, and would take up to half a second more to see the close.
            self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_WORKERS: Dict[str, _Worker] = {}
_BROKEN: Dict[str, str] = {}  # encodings whose counting process failed, and why
_ENDED_PEAK: Optional[float] = None  # the largest peak RSS of those that ended
_REGISTRY_LOCK = threading.Lock()


def _worker(encoding: str, encode: Encode, start: bool) -> Optional[_Worker]:
    """The counting process for ``encoding``; started if ``start`` and none runs."""
    with _REGISTRY_LOCK:
        worker = _WORKERS.get(encoding)
        if worker is not None and not worker.alive:
            del _WORKERS[encoding]
            worker = None
        if worker is None and start and os.name == "posix" and encoding not in _BROKEN:
            try:
                worker = _WORKERS[encoding] = _Worker(encoding, encode)
            except Exception as err:  # no executable, no sockets, ...
                _BROKEN[encoding] = f"it could not start ({type(err).__name__}: {err})"
        return worker


def _forget_all() -> None:
    global _REGISTRY_LOCK
    _REGISTRY_LOCK = threading.Lock()
    for worker in _WORKERS.values():
        worker.forget()
    _WORKERS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_all)


@atexit.register
def _stop_all() -> None:
    for worker in list(_WORKERS.values()):
        worker.stop()
    _WORKERS.clear()


def peak_rss_mib() -> Optional[float]:
    """The largest peak RSS of this interpreter's counting processes, those
    that run and those that ended (MiB); None when none ran, or where it
    cannot be read."""
    peaks = [worker.peak_rss_mib() for worker in list(_WORKERS.values())] + [_ENDED_PEAK]
    return max(filter(None, peaks), default=None)


class Counts:
    """Gives one chunker's chunks their real token counts and hands them on in
    order: the ``counter`` a driver passes to its ``Chunker``."""

    def __init__(self, encoding: str, use_worker: bool = True) -> None:
        self._encode = load_encoding(encoding).encode_ordinary
        self._encoding = encoding
        self._use_worker = use_worker
        self._diagnose: Callable[..., None] = lambda *args, **kwargs: None
        self._counted_here = 0  # characters counted here while no worker was used
        self._worker: Optional[_Worker] = None
        self._waiting: Deque[_Draft] = deque()  # chunks not yet handed on, in order
        self.batches_out = 0  # batches sent and not had back (changed under the worker's lock)
        self.worker_used = False

    def attach(self, diagnose: Callable[..., None]) -> None:
        """Where this counter's diagnostics go: its chunker's."""
        self._diagnose = diagnose

    @property
    def waiting(self) -> bool:
        """Some chunks wait for their counts."""
        return bool(self._waiting)

    def report(self) -> Dict[str, Any]:
        return {"count_worker": self.worker_used}

    def settle(self, chunks: List[Chunk], wait: bool = False) -> List[Chunk]:
        """Count ``chunks`` (or send them to be counted) and return the chunks,
        of these and earlier ones, whose turn has come with their counts;
        ``wait`` waits for every count still out."""
        drafts = [_Draft(chunk) for chunk in chunks]
        self._waiting.extend(drafts)
        todo = [draft for draft in drafts if draft.count is None]
        worker = self._worker
        if worker is None and self._use_worker and todo:
            worker = self._take_worker()
        if worker is not None and todo and not wait:
            if worker.flights:
                worker.receive()  # the backlog as it is now
            todo = worker.send(self, todo)
        encode = self._encode
        for draft in todo:
            _set_count(draft, len(encode(draft.chunk.text)))
            if worker is None:
                self._counted_here += len(draft.chunk.text)
        if worker is not None and self.batches_out:
            if not worker.ready and (wait or len(self._waiting) > MAX_WAITING):
                # Still loading: counting here is sooner. What came back is
                # taken first, so that a counting process that died is known
                # (and reported) however soon the document ends.
                worker.receive()
                self._count_the_rest()
            elif wait:
                worker.receive(until=lambda: not self.batches_out)
            elif len(self._waiting) > MAX_WAITING:
                worker.receive(until=lambda: self._waiting[0].count is not None)
            else:
                worker.receive()
        if worker is not None and not worker.alive:
            self._let_go(worker)
        return self._hand_on()

    def _take_worker(self) -> Optional[_Worker]:
        """The counting process, once this document has made enough chunks to
        start one (or one runs already)."""
        start = self._counted_here >= WORKER_AFTER
        worker = _worker(self._encoding, self._encode, start=start)
        if worker is not None:
            self._worker = worker
            self.worker_used = True
        elif start and self._encoding in _BROKEN:
            self._use_worker = False
            self._diagnose("count_worker_lost", self._first_line(), reason=_BROKEN[self._encoding])
        return worker

    def _let_go(self, worker: _Worker) -> None:
        """The counting process is gone (died, or left behind by a fork)."""
        self._count_the_rest()
        self._worker = None
        self._use_worker = False
        if worker.lost:
            self._diagnose("count_worker_lost", self._first_line(), exit=worker.process.poll())

    def _count_the_rest(self) -> None:
        # A chunk counted here may be counted again by a late reply: the same number.
        for draft in self._waiting:
            if draft.count is None:
                _set_count(draft, len(self._encode(draft.chunk.text)))

    def _first_line(self) -> int:
        return self._waiting[0].chunk.lines[0] if self._waiting else 0

    def _hand_on(self) -> List[Chunk]:
        waiting = self._waiting
        out = []
        while waiting and waiting[0].count is not None:
            draft = waiting.popleft()
            out.append(draft.chunk if draft.chunk.real_tokens is not None
                       else with_real_tokens(draft.chunk, draft.count))  # type: ignore[arg-type]
        return out


def counting_chunker(options: Options, *, count_worker: bool = True,
                     on_diagnostic: Optional[Callable[[Dict[str, Any]], None]] = None) -> Chunker:
    """A ``Chunker`` whose real token counts the counting process takes, where
    it can: real counts on, ``cap_by`` not ``"real"`` (packing needs each count
    at once), and ``count_worker``. Made by ``drivers.document`` for every document."""
    use = count_worker and options.real_tokens and options.cap_by != "real"
    return Chunker(options, counter=Counts(options.encoding) if use else None, on_diagnostic=on_diagnostic)

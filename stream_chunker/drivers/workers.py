"""Many documents on every core: each document chunked whole by one worker
process, the chunks handed back document by document in input order.

Order and bounded memory. A worker writes each document's chunks, as JSON
lines, to a spill file of its own in a temporary directory, flushed after
every block of input, and the parent hands on the file of the document whose
turn it is while it grows (it reads whole lines only; a JSON line holds no
raw newline), then deletes it. So the first document's chunks flow while the
others are chunked, each document's chunks stay together and in order, and a
document that finishes before its turn waits on disk, not in memory: the
parent holds one block of one file, whatever the documents' sizes or the
order in which they finish.

Why spill files rather than backpressure (workers handing chunks over a
bounded pipe and waiting while it is full): a worker that had finished a
document would then sit idle until every document before it was out, so one
long document early in the input would leave all workers but one waiting
behind it. With spill files a worker goes straight on to the next document.
What bounds the disk is the window: at most ``AHEAD`` documents a worker are
handed out beyond the one whose turn it is, and none while the spill files of
the documents waiting for their turn hold ``SPILL_BOUND`` bytes or more;
past that the parent hands out the next document only when the reader has
taken one (and one at least, so the run goes on), so a reader that does not
keep up (a slow pipe) holds the workers back instead of filling the disk.
The spill never holds more than ``SPILL_BOUND`` plus what the documents
handed out before it was reached write (at most ``AHEAD`` a worker). The
window's cost is measured in ``benchmarks/corpus.py``.

Stopping. Signals are the parent's to act on. A terminal's Ctrl-C and
``timeout``'s SIGTERM go to the whole process group: so every process the
parent starts -- multiprocessing's resource tracker, the fork server, a
worker -- starts with them blocked; the first two keep them so (a fork
server killed by one took a starting worker with it, and the parent ended in
a traceback), and a worker leaves the group before it unblocks them.
Whatever ends the parent's run -- its end, a signal, a closed output pipe,
an error, a consumer that stops reading -- closes the workers' ``lifeline``,
whose end each worker watches and ends at, cancels the documents not yet
begun, and waits for the workers to end, so none is left behind (why not the
pool's own stop: :meth:`InOrder.close`). Then the spill directory is deleted
whole. A parent killed outright closes the lifeline by its death: its workers
end the same way, and the spill directory stays in ``$TMPDIR``.

Why processes started by a fork server (``spawn`` where there is none): a
worker forked from the parent would inherit its threads' locks and open
files; one started fresh imports the package each time. The fork server
imports the package once and forks clean workers from itself.

Why one module of this length: the workers, their spill files and the
parent's reading of them in turn are one protocol -- who writes what where,
when it may be read, deleted, or given up -- and each part makes sense only
with the others.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.connection
import os
import shutil
import signal
import tempfile
import threading
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager, nullcontext
from typing import Any, Callable, ContextManager, Deque, Iterable, Iterator, List, Optional, Tuple, Union

from ..core.chunk import Chunk
from ..core.errors import ChunkerError, ConfigError, InputError, OutputError
from ..engine.options import Options
from .document import STDIN, Reading
from .documents import DEFAULT_GLOBS, Job, Outcome, chunk_document, chunk_of, chunks_of, documents, jobs_for

AHEAD = 8
"""Documents handed out to each worker beyond the one whose turn it is."""

SPILL_BOUND = 64 << 20
"""Bytes the documents waiting for their turn may hold in their spill files
before no more documents are handed out (see the module: what bounds the disk)."""

POLL_SECONDS = 0.02
"""How long the parent waits for the document whose turn it is to grow."""

READ_SIZE = 1 << 20
"""Bytes of a spill file read at a time."""

PathLike = Union[str, "os.PathLike[str]"]


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_count(jobs: Optional[int]) -> int:
    """``jobs`` checked, or the usable cores when it is None."""
    if jobs is None:
        return usable_cores()
    if jobs < 1:
        raise ConfigError(f"--jobs (jobs=) must be 1 or more, not {jobs}")
    return jobs


def counts_apart(count_worker: Optional[bool], workers: int) -> bool:
    """Whether a document's real tokens go to a counting process of its own
    (``count_worker`` None: decide). A counting process uses a second core;
    with as many workers as cores there is none to spare, and the workers
    count in-process (``benchmarks/CORPUS_RESULTS.md`` has the figures)."""
    if count_worker is not None:
        return count_worker
    return workers == 1 or 2 * workers <= usable_cores()


# -- the workers ------------------------------------------------------------------

_PARENTS_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGPIPE}
"""Blocked while a process starts (see the module's docstring, Stopping).
SIGPIPE too: a new interpreter ignores it only once it has started."""


@contextmanager
def _parents_signals_blocked() -> Iterator[None]:
    """A context in which this thread's ``_PARENTS_SIGNALS`` wait; a process
    started meanwhile -- the fork server, a worker -- inherits the mask, over
    its fork and its exec."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: no process groups either
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _PARENTS_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _start_worker(lifeline: Any, alive: Any) -> None:
    if hasattr(os, "setpgid"):
        os.setpgid(0, 0)  # out of the parent's process group, which signals reach whole
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM stays deadly when sent to this process alone: the pool ends
    # its workers so when one has died.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _PARENTS_SIGNALS)
    threading.Thread(target=_outlive_no_parent, args=(lifeline, alive), daemon=True).start()


def _outlive_no_parent(lifeline: Any, alive: Any) -> None:
    """End this worker when the parent closes ``lifeline``, or is gone,
    however it went (killed, out of memory): only the parent holds its other
    end, so a read ends then. Without it a worker would wait for work
    forever, and keep the fork server alive with it. ``alive`` is held open
    here until then, for the parent to see the end of the last worker."""
    try:
        lifeline.recv()
    except (EOFError, OSError):
        pass
    os._exit(1)


def _work(job: Job, chunks_path: str, diagnostics_path: str) -> Outcome:
    try:
        with ExitStack() as stack:
            out = stack.enter_context(open(chunks_path, "w", encoding="utf-8"))
            diagnostics = stack.enter_context(open(diagnostics_path, "w", encoding="utf-8")) if job.diagnostics else None

            def write(text: str) -> None:
                out.write(text)
                out.flush()  # for the parent, who hands it on while it grows

            return chunk_document(job, write, diagnostics.write if diagnostics is not None else None)
    except OSError as err:  # reading fails as InputError: this is a spill file, $TMPDIR full, and no document can go on
        raise OutputError.of(f"a spill file in {os.path.dirname(os.path.dirname(chunks_path))} ($TMPDIR)", err) from None


def _context() -> Any:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


class Run:
    """One document of an :class:`InOrder` run, when its turn has come.

    A *local* one (stdin, whose bytes only the parent can read, or a document
    that fails before it is read) is the caller's to chunk, with
    :func:`chunk_document`; the others were chunked by a worker, and are read
    with :meth:`chunk_texts`, :meth:`outcome`, :meth:`diagnostic_texts`."""

    def __init__(self, job: Job, future: Optional["Future[Outcome]"], spill: str) -> None:
        self.job = job
        self.future = future
        self.chunks_path = os.path.join(spill, f"{job.index}.jsonl")
        self.diagnostics_path = os.path.join(spill, f"{job.index}.diagnostics.jsonl")

    @property
    def local(self) -> bool:
        return self.future is None

    def chunk_texts(self) -> Iterator[str]:
        """The document's JSON lines, a block of whole lines at a time, as
        the worker writes them; ends when the worker is done."""
        assert self.future is not None
        carry = b""
        with ExitStack() as stack:
            spill = None
            while True:
                done = self.future.done()  # before the read: a read after it gets all there is
                if spill is None:
                    try:
                        spill = stack.enter_context(open(self.chunks_path, "rb"))
                    except FileNotFoundError:  # not begun yet
                        if done:
                            return
                        wait([self.future], timeout=POLL_SECONDS)
                        continue
                data = spill.read(READ_SIZE)
                if data:
                    data, carry = carry + data, b""
                    end = data.rfind(b"\n") + 1
                    data, carry = data[:end], data[end:]
                    if data:
                        yield data.decode("utf-8")
                elif done:
                    return  # a piece of a line left in carry is dropped: only whole lines go out
                else:
                    wait([self.future], timeout=POLL_SECONDS)

    def outcome(self) -> Outcome:
        assert self.future is not None
        try:
            return self.future.result()
        except BrokenProcessPool:
            # Not retried: what killed one worker (its memory) may well kill the next, and a
            # stop that loses nothing else is clearer than a run that goes on around a gap.
            raise ChunkerError(f"{self.job.name}: a worker process died before this document was done "
                               "(out of memory? killed?); the documents from here on are not chunked") from None

    def diagnostic_texts(self) -> Iterator[str]:
        """The document's diagnostics as JSON lines, once it is done."""
        try:
            with open(self.diagnostics_path, encoding="utf-8") as f:
                yield from iter(lambda: f.read(READ_SIZE), "")
        except FileNotFoundError:
            return

    def discard(self) -> None:
        for path in (self.chunks_path, self.diagnostics_path):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


class InOrder:
    """Documents chunked by ``workers`` processes and handed back in order.

    What must not be cut short is done in the context ``starting`` makes --
    a process started, the spill directory made and remembered --: the
    command line holds its signals there, since a worker whose start is cut
    short does not know it, reads its arguments after this process has
    deleted their semaphores, and ends in a traceback (see :meth:`close`),
    and a directory made but not remembered would be left behind.

    >>> with InOrder(2) as pool:                       # doctest: +SKIP
    ...     for run in pool.runs(jobs):
    ...         ...
    """

    def __init__(self, workers: int, starting: Callable[[], ContextManager[object]] = nullcontext) -> None:
        self.workers = workers
        self._starting = starting
        self._context = _context()
        lifeline, self._lifeline = self._context.Pipe(duplex=False)
        # Ends (EOF) once no worker holds ``alive`` open: once they have all ended, even
        # with the fork server, which the pool asks how they ended, dead.
        self._all_ended, self._alive = self._context.Pipe(duplex=False)
        with self._starting_processes():  # its queues' semaphores may start the resource tracker
            self._pool = ProcessPoolExecutor(workers, mp_context=self._context, initializer=_start_worker,
                                             initargs=(lifeline, self._alive))
        # Made by :meth:`runs`, once the caller is sure to call :meth:`close`
        # (a stop between this constructor and its ``with`` would leave it).
        self._spill: Optional[str] = None
        self._issued: List["Future[Outcome]"] = []  # the futures handed out and not yet seen done

    def __enter__(self) -> "InOrder":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """End the workers, wait for them, and delete what they spilled.

        The workers end at the close of their lifeline, not by the pool's
        own stop: that hands each worker a last job to end on through a
        queue whose lock an idle worker holds while it waits, and a worker
        killed meanwhile with it leaves the others waiting for it, and the
        pool for them, for ever. Every worker started is waited for before
        the pool lets go of its queues: one started just before a stop may
        still be reading them, its arguments, from the fork server, and
        would find their semaphores deleted and end in a traceback."""
        for future in self._issued:  # (first: the wait below may be cut short too)
            _let_go(future)
        self._lifeline.close()
        self._alive.close()
        try:
            multiprocessing.connection.wait([self._all_ended])
            self._pool.shutdown(wait=True, cancel_futures=True)
        finally:
            if self._spill is not None:
                shutil.rmtree(self._spill, ignore_errors=True)

    @contextmanager
    def _starting_processes(self) -> Iterator[None]:
        with self._starting(), _parents_signals_blocked():
            yield

    def _start_workers(self) -> None:
        """Every worker started now, before the pool has a thread of its own.

        Python 3.11's pool starts a worker in ``submit`` when none is idle,
        while its thread may be handling a dead worker without the lock
        ``submit`` holds: the thread stops the workers it knows of, then waits
        for every one it has, and a worker started in between is waited for
        unstopped -- it waits for work, and the run for it, for ever (3.12's
        thread takes the lock). Nor does a thread already waiting see the
        death of a worker started since. Started here, every worker is known
        to that thread from its first look, and a death while they start is
        this call's to tell."""
        try:
            for _ in range(self.workers):
                self._pool._adjust_process_count()
        except (EOFError, ConnectionRefusedError):  # no pid came, or no socket listens: the fork server is gone
            raise ChunkerError("cannot start the worker processes: the fork server died (killed?); "
                               "--jobs 1 needs none") from None
        except (BrokenPipeError, ConnectionResetError):
            # The pipe that brings a new worker its arguments was closed at the other end: the
            # worker died, or the fork server before it forked one; nothing here tells which.
            raise ChunkerError("cannot start the worker processes: a worker or the fork server died as they "
                               "started (out of memory? killed?); --jobs 1 needs none") from None
        except OSError as err:  # a $TMPDIR too long for the fork server's socket, ...
            raise ChunkerError(f"cannot start the worker processes: {err} (the fork server's socket goes in "
                               f"$TMPDIR, {tempfile.gettempdir()}; --jobs 1 needs none)") from None

    def _submit(self, job: Job, run: Run) -> "Future[Outcome]":
        try:
            future = self._pool.submit(_work, job, run.chunks_path, run.diagnostics_path)
            self._issued = [issued for issued in self._issued if not issued.done()]
            self._issued.append(future)
            # Python 3.11's pool fails its jobs without the lock ``submit`` holds: a job
            # taken as a dead worker broke it may be left pending for ever.
            if not self._pool._broken:
                return future
        except BrokenProcessPool:
            pass
        lost: "Future[Outcome]" = Future()  # the document's turn says so, after the documents before it
        lost.set_exception(BrokenProcessPool())
        return lost

    def runs(self, jobs: Iterable[Job]) -> Iterator[Run]:
        """Each job's :class:`Run` in order, once it is the job's turn; the
        caller reads it before asking for the next (its spill files are
        deleted then)."""
        todo = iter(jobs)
        pending: Deque[Run] = deque()
        with self._starting():
            try:
                spill = self._spill = tempfile.mkdtemp(prefix="stream-chunker-")
            except OSError as err:
                raise OutputError.of(f"a spill directory in {tempfile.gettempdir()} ($TMPDIR)", err) from None
        with self._starting_processes():
            self._start_workers()

        def hand_out() -> None:
            if pending and _spilled(pending) >= SPILL_BOUND:
                return  # (the reader is behind: the workers wait for it)
            while len(pending) < self.workers * AHEAD:
                job = next(todo, None)
                if job is None:
                    return
                local = job.name == STDIN or job.problem is not None
                run = Run(job, None, spill)
                if not local:
                    with self._starting_processes():  # the first starts the pool's thread
                        run.future = self._submit(job, run)
                pending.append(run)

        hand_out()
        while pending:
            run = pending.popleft()
            hand_out()
            yield run
            run.discard()


def _let_go(future: "Future[Outcome]") -> None:
    """Release ``future``'s lock if this thread holds it still. A Ctrl-C that
    lands after ``wait`` took the lock and before the ``with`` that would let
    it go (CPython runs a signal's handler between any two bytecodes) leaves
    it held: the pool's thread, failing the futures of the workers that
    ended, then waits for it for ever, and :meth:`InOrder.close` for that
    thread. (A private call: the pool offers no other way to see it.)"""
    condition: Any = future._condition
    while condition._is_owned():
        condition.release()


def _spilled(runs: Iterable[Run]) -> int:
    """The bytes the runs' spill files hold so far."""
    total = 0
    for run in runs:
        if run.future is not None:
            try:
                total += os.path.getsize(run.chunks_path)
            except OSError:  # not begun yet
                pass
    return total


# -- the library's generator ----------------------------------------------------------


def chunk_files(paths: Union[PathLike, Iterable[PathLike]], *, jobs: Optional[int] = None, glob: Iterable[str] = DEFAULT_GLOBS,
                on_failure: Optional[Callable[[str, str], None]] = None, strict: bool = False,
                pdf_backend: str = "pdfium", password: Optional[str] = None, layout: bool = False,
                count_worker: Optional[bool] = None, **options: Any) -> Iterator[Tuple[str, Chunk]]:
    r"""Chunk many documents on ``jobs`` worker processes (default: every
    usable core); yields ``(doc, chunk)`` pairs, each document's chunks
    together and in order, documents in the order of ``paths``, as the
    command line writes them.

    ``paths`` are files (a PDF, known by its signature, or UTF-8 text),
    directories -- their files whose names match one of the ``glob``
    patterns, at any depth, in sorted order -- and ``-`` for stdin; ``doc``
    is the file's path. A single ``str`` or ``Path`` is one path, not a list
    of its characters. A document that cannot be chunked (binary, unreadable,
    invalid under ``strict``) raises :class:`InputError` naming it, once the
    documents before it are out (a document's chunks up to where it failed
    come first); with ``on_failure``, it is called with the document and the
    reason instead, and the others go on. ``options`` are those of
    :func:`stream_chunker.chunk_lines`; ``count_worker`` None lets each
    worker count real tokens in a counting process of its own only when
    there are cores to spare for them. Stopping the generator early stops the
    workers.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "home.txt").write_text("1 Cover\nWe cover the house.\n")
    >>> _ = (folder / "motor.txt").write_text("1 Cover\nWe cover the car.\n")
    >>> [(pathlib.Path(doc).name, chunk.id, chunk.text)
    ...  for doc, chunk in chunk_files([folder], jobs=2, real_tokens=False)]
    [('home.txt', '1', 'We cover the house.'), ('motor.txt', '1', 'We cover the car.')]
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]  # one path, not the characters of one
    workers = worker_count(jobs)
    checked = Options.of(**options)
    reading = Reading(strict=strict, pdf_backend=pdf_backend, password=password, layout=layout)
    todo = jobs_for(documents([os.fspath(p) for p in paths], tuple(glob)), checked, reading,
                    count_worker=counts_apart(count_worker, workers), labelled=False)

    def here(job: Job) -> Iterator[Tuple[str, Chunk]]:
        try:
            for _, batch in chunks_of(job):
                for chunk in batch:
                    yield job.name, chunk
        except InputError as err:
            failed(job.name, str(err))

    def failed(name: str, reason: str) -> None:
        if on_failure is None:
            raise InputError(f"{name}: {reason}")
        on_failure(name, reason)

    if workers == 1:
        for job in todo:
            yield from here(job)
        return
    with InOrder(workers) as pool:
        for run in pool.runs(todo):
            if run.local:
                yield from here(run.job)
                continue
            for text in run.chunk_texts():
                for line in text[:-1].split("\n"):  # whole lines; not splitlines: U+2028 may be in a chunk
                    yield run.job.name, chunk_of(json.loads(line))
            outcome = run.outcome()
            if outcome.error is not None:
                failed(run.job.name, outcome.error)

"""Faults injected into real runs of the command line (issue 17): writes that
fail (a full device, a file over its size limit, a full tmpfs, a reader that
closes the pipe), signals at random moments from the command's first
instruction to its exit, a counting process and a worker killed.

Every run is checked alike (:func:`check`): its exit status is one the
docs/command-line.md gives for what happened, stderr holds no traceback (for a stop, it
holds nothing; for a failed write, one line that names the output), stdout
holds only complete JSON lines -- the first lines of what an undisturbed run
writes, byte for byte --, and nothing of the run is left behind: no process
(each run marks its environment, which every process it starts inherits,
and ``/proc`` is searched for the mark) and nothing in its ``$TMPDIR``.

A signal's moment is a seeded random delay after the run has taken its
signals (its SIGTERM and SIGPIPE handlers show in ``/proc/PID/status``), over
as long as an undisturbed run of the same setup took here, so that the
moments fall on the imports, the chunking, the writing and the exit alike.
Before that instant the interpreter is still starting, and a signal does
what it does to any Python program. The runs go two or three at a time: the
moments are delays, not points in the program, and a busier machine only
moves where they fall.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import pytest

from benchmarks.synthetic import generate
from stream_chunker.cli import (EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT_FAILED, EXIT_PIPE_CLOSED,
                                EXIT_TERMINATED, EXIT_USAGE, main)

from .test_cli import CHILD_TIMEOUT, FIELDS
from .test_corpus_run import many_pages  # noqa: F401 (a fixture: documents that keep two workers busy)

ROOT = Path(__file__).resolve().parents[1]
MARK = "STREAM_CHUNKER_FAULT_RUN"
# A signal, over the setups below: 17 each; fewer where CI runs the suite a
# second time, against the compiled build (.ci/run), as hypothesis has fewer examples.
MOMENTS = 3 * int(os.environ.get("STREAM_CHUNKER_FAULT_MOMENTS", "17"))
PARALLEL = 3
SIGNALS = {signal.SIGINT: EXIT_INTERRUPTED, signal.SIGTERM: EXIT_TERMINATED, signal.SIGPIPE: EXIT_PIPE_CLOSED}
TRACES = (b"Traceback", b"Exception ignored", b"Fatal Python error", b"Warning", b"leaked")

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(),
                                reason="finds a run's processes and signal handlers in /proc")


# -- a run and what it leaves behind ---------------------------------------------------


@dataclass
class Run:
    argv: Sequence[str]
    status: int
    out: bytes
    err: bytes
    leftovers: List[str]
    """Processes of the run still alive after it, and files in its $TMPDIR."""


class Child:
    """One run of the command line in a child process of its own, with its
    own ``$TMPDIR`` and a mark in its environment."""

    def __init__(self, argv: Sequence[str], stdout: object = subprocess.PIPE, stderr: object = subprocess.PIPE,
                 preexec: Optional[Callable[[], None]] = None, tmpdir: Optional[Path] = None,
                 stdin: object = subprocess.DEVNULL) -> None:
        self.argv = list(argv)
        self.token = uuid.uuid4().hex
        # Short: the fork server's socket goes in it, and a socket's path has at most 107 bytes.
        self.tmpdir = tmpdir or Path(tempfile.mkdtemp(prefix="fault-"))
        self._own_tmpdir = tmpdir is None
        environ = {**os.environ, MARK: self.token, "TMPDIR": str(self.tmpdir)}
        # A session of its own, as a shell's job has: a signal can go to its whole process group.
        self.proc = subprocess.Popen([sys.executable, "-m", "stream_chunker", *self.argv], stdin=stdin,
                                     stdout=stdout, stderr=stderr, env=environ, preexec_fn=preexec,
                                     start_new_session=True)

    def wait_for_signals(self) -> None:
        """Until the run has taken its signals (or ended)."""
        taken = (1 << (signal.SIGTERM - 1)) | (1 << (signal.SIGPIPE - 1))
        while self.proc.poll() is None:
            caught = _status_field(self.proc.pid, "SigCgt")
            if caught is not None and int(caught, 16) & taken == taken:
                return
            time.sleep(0.0005)

    def processes(self, *words: str) -> List[int]:
        """The run's processes alive now (this one's children too), whose
        command line holds every one of ``words``."""
        needle = f"\0{MARK}={self.token}\0".encode()
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if needle not in b"\0" + (entry / "environ").read_bytes() + b"\0":
                    continue
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
                if _status_field(int(entry.name), "State") in (None, "Z", "X"):
                    continue
            except OSError:  # gone meanwhile, or not ours to read
                continue
            if all(word in command for word in words):
                found.append(int(entry.name))
        return found

    def finish(self, out: bytes = b"") -> Run:
        """Read the run to its end and see what it left."""
        rest, err = self.proc.communicate(timeout=CHILD_TIMEOUT)
        deadline = time.monotonic() + CHILD_TIMEOUT  # only there to turn a hang into a failure
        while True:
            leftovers = [f"process {pid}" for pid in self.processes()]
            leftovers += [f"file {path.name}{_what_it_is(path)}" for path in self.tmpdir.iterdir()]
            if not leftovers or time.monotonic() > deadline:
                break
            time.sleep(0.02)  # a worker or a fork server sees its parent gone a moment later
        if self._own_tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
        return Run(self.argv, self.proc.returncode, out + (rest or b""), err or b"", leftovers)


def _what_it_is(path: Path) -> str:
    """What a file left behind is, to tell who made it: a rare leftover after
    SIGINT with workers carries none of this tool's prefixes."""
    try:
        if path.is_dir():
            return f" (a directory of {sorted(p.name for p in path.iterdir())[:5]})"
        head = path.read_bytes()[:32] if path.is_file() else b""
        return f" ({path.stat().st_size} bytes: {head!r})"
    except OSError:
        return " (gone)"


def _status_field(pid: int, name: str) -> Optional[str]:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(name + ":"):
                return line.split()[1]
    except OSError:
        return None
    return None


def check(run: Run, statuses: Sequence[int], whole: Optional[bytes], message: Optional[str] = "") -> None:
    """What every run must show (see the module's docstring). ``whole`` is
    what an undisturbed run writes; ``message`` the one line stderr must
    hold (None: any line without a traceback)."""
    said = run.err.decode("utf-8", "replace")
    context = f"{run.argv}: status {run.status}, stderr {said!r}"
    assert run.status in statuses, context
    assert not any(trace in run.err for trace in TRACES), context
    if message is not None:
        assert said == (f"stream-chunker: {message}\n" if message else ""), context
    assert run.out == b"" or run.out.endswith(b"\n"), f"{context}: stdout ends in half a line"
    lines = [json.loads(line) for line in run.out.splitlines()]
    assert all(FIELDS <= set(chunk) for chunk in lines), context
    if whole is not None:
        assert whole.startswith(run.out), f"{context}: stdout is not what an undisturbed run writes"
        if run.status == EXIT_OK:
            assert run.out == whole, f"{context}: a run that ends well writes everything"
    assert run.leftovers == [], f"{context}: left behind {run.leftovers}"


# -- the setups -----------------------------------------------------------------------


@dataclass
class Setup:
    argv: List[str]
    whole: bytes
    """What an undisturbed run writes."""
    seconds: float
    """How long an undisturbed run took here, from taking its signals to its end."""


@pytest.fixture(scope="module", autouse=True)
def sigint_at_its_default() -> Iterator[None]:
    """A run started from a shell's background job inherits SIGINT ignored,
    and would ignore it too: give the children Python's own handling of it."""
    previous = signal.getsignal(signal.SIGINT)
    if previous == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    (root / "wording.txt").write_text(generate(pages=60, seed=17), encoding="utf-8")  # starts a counting process
    (root / "folder").mkdir()
    for i in range(4):
        (root / "folder" / f"{i}.txt").write_text(generate(pages=25, seed=i), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def setups(docs: Path) -> Dict[str, Setup]:
    """One document estimated; the same with real counts, which start a
    counting process; four documents on two worker processes."""
    wording, folder = str(docs / "wording.txt"), str(docs / "folder")
    return {name: undisturbed(argv) for name, argv in {
        "estimate": ["--no-real-tokens", wording], "real-counts": [wording],
        "jobs": ["--no-real-tokens", "--jobs", "2", folder]}.items()}


def undisturbed(argv: List[str]) -> Setup:
    child = Child(argv)
    child.wait_for_signals()
    started = time.perf_counter()
    run = child.finish()
    check(run, [EXIT_OK], None)
    return Setup(argv, run.out, time.perf_counter() - started)


# -- signals at any moment -------------------------------------------------------------------


def signal_at(signum: int, seed: int, setup: Setup) -> Run:
    """The signal to the run alone, as ``kill`` sends it, or to its whole
    process group, as a terminal's Ctrl-C and ``timeout`` do: to the fork
    server and the workers too."""
    rng = random.Random(f"{signal.Signals(signum).name} {seed}")
    delay = 0.0 if seed < len(SETUP_NAMES) else rng.uniform(0, 1.2 * setup.seconds)  # the first: at once
    to_group = rng.random() < 0.5
    child = Child(setup.argv)
    child.wait_for_signals()
    time.sleep(delay)
    send = partial(os.killpg, child.proc.pid) if to_group else child.proc.send_signal
    return disturbed(child, lambda: send(signum), f"{signal.Signals(signum).name} to the "
                     f"{'group' if to_group else 'process'} after {delay:.3f} s, seed {seed}")


def disturbed(child: Child, disturb: Callable[[], None], what: str, out: bytes = b"") -> Run:
    """The run after ``disturb`` (a signal sent, a process killed), which
    changes nothing once the run is over; ``what`` says what it did, ``out``
    is what was read of its stdout before."""
    try:
        disturb()
    except ProcessLookupError:  # over already
        pass
    run = child.finish(out)
    run.argv = [*child.argv, f"({what})"]
    return run


SETUP_NAMES = ("estimate", "real-counts", "jobs")


@pytest.mark.parametrize("signum", list(SIGNALS), ids=[s.name for s in SIGNALS])
def test_a_signal_at_any_moment_stops_the_run_cleanly(signum, setups):
    """Stopped, a run has the signal's status (a shell shows a process the
    signal ended outright, in the last instant of its exit, with the same
    number); one that the signal reached once it was over has the run's."""
    def one(seed: int) -> Tuple[Run, Setup]:
        setup = setups[SETUP_NAMES[seed % len(SETUP_NAMES)]]
        return signal_at(signum, seed, setup), setup

    with ThreadPoolExecutor(PARALLEL) as pool:
        runs = list(pool.map(one, range(MOMENTS)))
    for run, setup in runs:
        check(run, [SIGNALS[signum], -signum, EXIT_OK], setup.whole)
    stopped = sum(run.status != EXIT_OK for run, _ in runs)
    assert stopped > MOMENTS // 2  # the moments fall mostly while the runs go on


def test_a_stop_while_python_finds_its_temporary_directory_leaves_nothing(docs, tmp_path, monkeypatch):
    """Python finds $TMPDIR's directory by making a file there and deleting
    it: a stop in between once left that file (with a name of eight random
    letters) behind. Here the stop comes at that very moment, every time."""
    def found_with_a_stop_between() -> str:
        probe = tmp_path / "abcd1234"
        probe.write_bytes(b"blat")
        os.kill(os.getpid(), signal.SIGINT)  # its handler runs at the next instruction
        probe.unlink()
        return str(tmp_path)

    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr(tempfile, "_get_default_tempdir", found_with_a_stop_between)
    assert main(["--no-real-tokens", "--jobs", "1", str(docs / "folder")]) == EXIT_INTERRUPTED
    assert list(tmp_path.iterdir()) == []


# -- writes that fail ---------------------------------------------------------------------


@pytest.mark.parametrize("argv, output, name", [
    (["--no-real-tokens", "{wording}"], "stdout", "stdout"),
    (["--no-real-tokens", "--jobs", "2", "{folder}"], "stdout", "stdout"),
    (["--no-real-tokens", "--report", "/dev/full", "{wording}"], None, "--report /dev/full"),
    (["--no-real-tokens", "--diagnostics", "/dev/full", "{wording}"], None, "--diagnostics /dev/full"),
    (["--no-real-tokens", "--jobs", "2", "--report", "/dev/full", "{folder}"], None, "--report /dev/full"),
    (["--fsm"], "stdout", "stdout"),
    (["--help"], "stdout", "stdout"),
    (["--version"], "stdout", "stdout"),
    (["--no-real-tokens", "--stats", "{wording}"], "stderr", None),
], ids=["stdout", "stdout-jobs", "report", "diagnostics", "report-jobs", "fsm", "help", "version", "stats"])
def test_a_full_device_ends_the_run_with_its_name(argv, output, name, docs):
    """``> /dev/full``: every write fails at once. With stderr there, nobody
    can be told, but the status says it."""
    argv = [a.format(wording=docs / "wording.txt", folder=docs / "folder") for a in argv]
    with open("/dev/full", "wb") as full:
        run = Child(argv, stdout=full if output == "stdout" else subprocess.PIPE,
                    stderr=full if output == "stderr" else subprocess.PIPE).finish()
    check(run, [EXIT_OUTPUT_FAILED], None, None if name is None else f"cannot write {name}: No space left on device")


@pytest.mark.parametrize("seed", range(6))
def test_a_file_over_its_size_limit_keeps_only_whole_lines(seed, setups, tmp_path):
    """Writes fail after N bytes (RLIMIT_FSIZE, any N): stdout is a file cut
    back to its last complete line, and the message names what failed --
    stdout, or with workers a spill file, which reach the limit first when
    one document's lines are more than it."""
    name = SETUP_NAMES[seed % len(SETUP_NAMES)]
    setup = setups[name]
    limit = random.Random(seed).randrange(1, len(setup.whole))
    path = tmp_path / "chunks.jsonl"
    with open(path, "wb") as out:
        run = Child(setup.argv, stdout=out,
                    preexec=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))).finish()
    run.out = path.read_bytes()
    check(run, [EXIT_OUTPUT_FAILED], setup.whole, None)
    assert len(run.out) <= limit
    assert re.fullmatch(r"stream-chunker: cannot write (stdout|a spill file in \S+ \(\$TMPDIR\)): File too large\n",
                        run.err.decode()), run.err


@pytest.fixture
def full_tmpfs(short_tmp: Path) -> Iterator[Path]:
    """A tmpfs of 16 KiB, mounted for the test (root, or CAP_SYS_ADMIN), on a
    path short enough for the workers' socket."""
    mount = short_tmp
    try:
        made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)], capture_output=True)
    except FileNotFoundError:
        pytest.skip("no mount command here to make a tiny tmpfs")
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (it needs root or CAP_SYS_ADMIN): {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.parametrize("where", ["stdout", "diagnostics", "spill"])
def test_a_full_filesystem_ends_the_run_with_its_name(where, full_tmpfs, setups, docs):
    """A file on a full tmpfs: stdout, the diagnostics, or $TMPDIR, where
    the workers spill."""
    setup = setups["jobs" if where == "spill" else "estimate"]
    argv = setup.argv
    if where == "diagnostics":
        argv = ["--diagnostics", str(full_tmpfs / "why.jsonl"), *argv]
    if where == "stdout":
        with open(full_tmpfs / "chunks.jsonl", "wb") as out:
            run = Child(argv, stdout=out).finish()
        run.out = (full_tmpfs / "chunks.jsonl").read_bytes()
    else:
        run = Child(argv, tmpdir=full_tmpfs if where == "spill" else None).finish()
    name = {"stdout": "stdout", "diagnostics": f"--diagnostics {full_tmpfs / 'why.jsonl'}",
            "spill": f"a spill file in {full_tmpfs} ($TMPDIR)"}[where]
    check(run, [EXIT_OUTPUT_FAILED], setup.whole, f"cannot write {name}: No space left on device")
    if where == "diagnostics":
        written = (full_tmpfs / "why.jsonl").read_bytes()
        assert written.endswith(b"\n") and all(json.loads(line)["kind"] for line in written.splitlines())


@pytest.mark.parametrize("seed", range(6))
def test_a_reader_that_closes_the_pipe_after_some_lines(seed, setups):
    """``| head -n K`` for a random K: the lines read are whole, the status
    141, stderr empty. K stays in the first half, so that what is left is
    more than the pipe holds and the run must still be writing."""
    setup = setups[SETUP_NAMES[seed % len(SETUP_NAMES)]]
    wanted = random.Random(seed).randrange(0, setup.whole.count(b"\n") // 2)
    child = Child(setup.argv)
    assert child.proc.stdout is not None
    read = b"".join(child.proc.stdout.readline() for _ in range(wanted))
    child.proc.stdout.close()
    check(child.finish(read), [EXIT_PIPE_CLOSED], setup.whole)


HEAD_BYTES = 16 << 10
"""Output read before the counting process is looked for: with the pipe's 64 KiB,
the chunks of some 60,000 characters of text, past the 32,768 counted here
before one starts (a little more, and it would have caught up by the kill)."""


def test_a_killed_counting_process_costs_nothing(many_pages):
    """Killed outright, the counting process's chunks are counted here: the
    same output, status 0, and the report says it was lost. The run is held
    by its full stdout pipe until the kill, with most of a 200-page document
    still to count (with a short one it may have finished its counting by
    then, and then nothing is lost, nor reported). The first output is read
    first: the counting process starts once the document has made enough
    chunks, and a pipe filled before then would hold the run without one."""
    argv = [str(many_pages / "0.txt")]
    whole = Child(argv).finish().out
    child = Child(["--stats", *argv])
    assert child.proc.stdout is not None
    head = b""
    while len(head) < HEAD_BYTES:  # (from the pipe itself: the rest is read from it too)
        piece = os.read(child.proc.stdout.fileno(), HEAD_BYTES - len(head))
        if not piece:
            break
        head += piece
    counting = _one_of(child, "drivers.counting import serve")
    os.kill(counting, signal.SIGKILL)
    run = child.finish(head)
    check(run, [EXIT_OK], whole, None)
    assert json.loads(run.err)["diagnostics"]["count_worker_lost"] == 1


KILLS = 12  # moments a process is killed, over a run
AT_BIRTH = 3  # the first of them: as the process appears
DIED = (r"\S+: a worker process died before this document was done \(out of memory\? killed\?\); the documents "
        r"from here on are not chunked")
AS_THEY_STARTED = (r"cannot start the worker processes: a worker or the fork server died as they started \(out of "
                   r"memory\? killed\?\); --jobs 1 needs none")
SERVER_DIED = r"cannot start the worker processes: the fork server died \(killed\?\); --jobs 1 needs none"
KILLED = {True: f"{DIED}|{AS_THEY_STARTED}", False: f"{DIED}|{AS_THEY_STARTED}|{SERVER_DIED}"}
"""What the run may truthfully say, for a worker killed and for the fork server."""


@pytest.fixture(scope="module")
def many_pages_run(many_pages: Path) -> Setup:
    """Eight long documents on two workers: a kill falls on their work."""
    return undisturbed(["--no-real-tokens", "--jobs", "2", str(many_pages)])


@pytest.mark.parametrize("worker", [True, False], ids=["worker", "fork-server"])
def test_a_killed_worker_ends_the_run_with_a_message(worker, many_pages_run):
    """A worker killed outright (the out-of-memory killer, an operator) ends
    the run: not retried, since what killed one may kill the next; the
    message names the document whose turn it was, or says the workers were
    starting. So does the fork server killed, which its workers' ends are
    tied to; killed before it started the workers, it is named instead. The
    moments are seeded delays after the process appears, the first ones
    none: a worker killed at its birth dies while the workers start, the
    window where the pool once waited for ever. One killed after its work
    was done costs nothing: the run ends well."""
    setup = many_pages_run

    def one(seed: int) -> Run:
        delay = 0.0 if seed < AT_BIRTH else random.Random(f"kill {worker} {seed}").uniform(0, setup.seconds)
        child = Child(setup.argv)
        server = _one_of(child, "forkserver")
        if delay == 0:
            victim: Optional[int] = _workers(child, server)[0] if worker else server
        else:
            time.sleep(delay)
            # Among the run's processes alive now, not by a number that may be another's by now.
            victim = next((pid for pid in child.processes("forkserver") if (pid != server) == worker), None)

        def kill() -> None:
            if victim is not None:  # None: none of them left, the run is over
                os.kill(victim, signal.SIGKILL)

        return disturbed(child, kill, f"{'a worker' if worker else 'the fork server'} killed after {delay:.3f} s, "
                                      f"seed {seed}")

    with ThreadPoolExecutor(PARALLEL) as pool:
        runs = list(pool.map(one, range(KILLS)))
    for seed, run in enumerate(runs):
        check(run, [EXIT_BAD_INPUT] if seed < AT_BIRTH else [EXIT_BAD_INPUT, EXIT_OK], setup.whole, None)
        if run.status == EXIT_BAD_INPUT:
            assert re.fullmatch(rf"stream-chunker: ({KILLED[worker]})\n", run.err.decode()), run


def test_a_worker_killed_as_the_run_ends_costs_nothing(setups):
    """Killed once every line is out, as the command line ends the others,
    a worker costs nothing: the run ends well, or names the last document
    when the worker had not yet said it was done with it. Python 3.11's pool
    ends its workers by handing each a last job through a queue whose lock
    an idle worker holds while it waits: killed with it, it left the others
    waiting for it, and the run for them, for ever (4 runs in 40 here)."""
    setup = setups["jobs"]

    def one(seed: int) -> Run:
        child = Child(setup.argv)
        assert child.proc.stdout is not None
        victim = random.Random(seed).choice(_workers(child, _one_of(child, "forkserver"), 2))
        read = b""
        while len(read) < len(setup.whole) and (block := child.proc.stdout.read1(1 << 16)):
            read += block
        return disturbed(child, lambda: os.kill(victim, signal.SIGKILL), f"a worker killed at the end, seed {seed}",
                         read)

    with ThreadPoolExecutor(PARALLEL) as pool:
        runs = list(pool.map(one, range(KILLS)))
    for run in runs:
        check(run, [EXIT_OK, EXIT_BAD_INPUT], setup.whole, None)
        assert run.status == EXIT_OK or re.fullmatch(f"stream-chunker: {DIED}\n", run.err.decode()), run


def _one_of(child: Child, word: str, worker: bool = False) -> int:
    """A process of the run whose command line holds ``word`` (``worker``: a
    child of one, as pool workers are of the fork server), once there is one."""
    deadline = time.monotonic() + CHILD_TIMEOUT  # only there to turn a hang into a failure
    while time.monotonic() < deadline:
        for pid in child.processes(word):
            if (_status_field(pid, "PPid") != str(child.proc.pid)) == worker:
                return pid
        time.sleep(0.01)
    raise AssertionError(f"no process with {word!r} came")


def _workers(child: Child, server: int, count: int = 1) -> List[int]:
    """The first ``count`` workers the fork server starts, the moment they
    appear (a scan of /proc, where the kernel lists no children, is slower)."""
    children = Path(f"/proc/{server}/task/{server}/children")
    deadline = time.monotonic() + CHILD_TIMEOUT  # only there to turn a hang into a failure
    while time.monotonic() < deadline:
        try:
            born = [int(pid) for pid in children.read_text().split()]
        except OSError:  # not listed here, or the fork server gone
            born = [pid for pid in child.processes("forkserver") if pid != server]
        if len(born) >= count:
            return born[:count]
        time.sleep(0.0005)
    raise AssertionError(f"the fork server started fewer than {count} workers")


def test_a_worker_that_dies_as_it_starts_is_named_so(many_pages, monkeypatch, capsys):
    """Its end of the pipe that brings a new worker its arguments goes with
    it, and the write fails (EPIPE) -- as it does when the fork server dies
    before it forks the worker: the message says it was one of the two, not
    the fork server's socket in $TMPDIR."""
    def dies(self: ProcessPoolExecutor) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(ProcessPoolExecutor, "_adjust_process_count", dies)
    assert main(["--no-real-tokens", "--jobs", "2", str(many_pages)]) == EXIT_BAD_INPUT
    assert re.fullmatch(f"stream-chunker: {AS_THEY_STARTED}\n", capsys.readouterr().err)


def test_a_temporary_directory_too_long_for_the_workers_socket(docs):
    """Found by these tests: the fork server's socket goes in $TMPDIR, and a
    path that long is refused with a traceback, not a message."""
    deep = Path(tempfile.mkdtemp(prefix="fault-")) / ("x" * 100)
    deep.mkdir()
    run = Child(["--no-real-tokens", "--jobs", "2", str(docs / "folder")], tmpdir=deep).finish()
    shutil.rmtree(deep.parent)
    check(run, [EXIT_BAD_INPUT], None, None)
    assert run.err.decode().startswith("stream-chunker: cannot start the worker processes: AF_UNIX path too long")


# -- the exit statuses of docs/command-line.md ----------------------------------------------------------------


def _stopped_while_reading(signum: int) -> Callable[[], Run]:
    def run() -> Run:
        child = Child(["--no-real-tokens"], stdin=subprocess.PIPE)
        child.wait_for_signals()
        child.proc.send_signal(signum)
        return child.finish()
    return run


def _with(*argv: str) -> Callable[[], Run]:
    return lambda: Child(argv).finish()


def _to_a_full_device() -> Run:
    with open("/dev/full", "wb") as full:
        return Child(["--version"], stdout=full).finish()


def _pipe_closed() -> Run:
    child = Child(["--no-real-tokens", str(ROOT / "examples" / "policy-wording.txt")])
    assert child.proc.stdout is not None
    child.proc.stdout.close()
    return child.finish()


# A run for each row of the table of exit statuses (docs/command-line.md), in its order.
STATUS_EXAMPLES: Dict[int, Callable[[], Run]] = {
    EXIT_OK: _with("--no-real-tokens", str(ROOT / "examples" / "policy-wording.txt")),
    EXIT_BAD_INPUT: _with("--no-real-tokens", "no/such/file.txt"),
    EXIT_USAGE: _with("--max-tokens", "0"),
    EXIT_OUTPUT_FAILED: _to_a_full_device,
    EXIT_INTERRUPTED: _stopped_while_reading(signal.SIGINT),
    EXIT_PIPE_CLOSED: _pipe_closed,
    EXIT_TERMINATED: _stopped_while_reading(signal.SIGTERM),
}


def _readme_statuses() -> List[Tuple[int, str]]:
    doc = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
    section = doc.split("**Exit status**", 1)[1].split("\n\n", 1)[1].split("\n\n", 1)[0]
    return [(int(status), when) for status, when in re.findall(r"^\| (\d+) \| (.+) \|$", section, re.M)]


def test_the_readme_gives_the_statuses_these_tests_check(capsys):
    assert [status for status, _ in _readme_statuses()] == list(STATUS_EXAMPLES)
    assert main(["--help"]) == EXIT_OK
    listed = capsys.readouterr().out.split("exit status:", 1)[1].strip()
    assert [int(n) for n in re.findall(r"(?:^|, )(\d+) ", listed.replace("\n", " "))] == list(STATUS_EXAMPLES)


@pytest.mark.parametrize("status", list(STATUS_EXAMPLES))
def test_each_status_of_the_readme_is_what_such_a_run_gives(status):
    run = STATUS_EXAMPLES[status]()
    check(run, [status], None, None)

"""Real token counts taken by the counting process: the same chunks, the same
counts, in the same order, as when this process counts them all."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
from typing import Iterable, Iterator, List, Optional, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import Chunker, chunk_lines
from stream_chunker.core.chunk import Chunk
from stream_chunker.core.tokens import load_encoding
from stream_chunker.drivers import counting as _counting
from stream_chunker.drivers.lines import blocks
from stream_chunker.drivers.stream import chunk_stream

from .test_properties import documents

ENC = load_encoding("cl100k_base")

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the counting process runs on POSIX systems")


@pytest.fixture(autouse=True)
def fresh_workers() -> Iterator[None]:
    """Each test starts with no counting process, and none left broken."""
    _counting._stop_all()
    _counting._BROKEN.clear()
    yield
    _counting._stop_all()
    _counting._BROKEN.clear()


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """A counting process from the first chunk on, and a backlog so small that
    both processes count: the case where order could go wrong."""
    monkeypatch.setattr(_counting, "WORKER_AFTER", 0)
    monkeypatch.setattr(_counting, "BACKLOG", 600)  # two of paged()'s chunks: a larger one is counted here
    monkeypatch.setattr(_counting, "MAX_WAITING", 5)


def warm_worker() -> _counting._Worker:
    """Start the counting process and wait until its encoding is loaded (it
    says so by answering a first batch)."""
    worker = _counting._worker("cl100k_base", ENC.encode_ordinary, start=True)
    assert worker is not None
    # A document before may have left batches in flight, the backlog full: take them in
    # first, or the probe would find no room and never be sent.
    worker.receive(until=lambda: not worker.flights)
    probe = _counting._Draft(Chunk("1", "1", "", "hello <|endoftext|>", 2, 3, None, None, (1, 1), (1, 1), False))
    worker.send(_counting.Counts("cl100k_base"), [probe])
    worker.receive(until=lambda: probe.count is not None)
    assert worker.ready and probe.count == len(ENC.encode_ordinary(probe.chunk.text))
    return worker


def with_counter(**options: object) -> Tuple[Chunker, _counting.Counts]:
    """A chunker whose real counts the counting process may take, and its counter."""
    counts = _counting.Counts("cl100k_base")
    return Chunker(counter=counts, **options), counts  # type: ignore[arg-type]


def run(chunker: Chunker, lines: Iterable[str]) -> Iterator[Chunk]:
    """The chunks of ``lines``, fed in blocks as ``chunk_lines`` feeds a list."""
    for block in blocks(lines):
        yield from chunker.feed(block)
    yield from chunker.close()


def chunked(lines: List[str], worker: bool, **options: object) -> Tuple[list, dict, Optional[_counting.Counts]]:
    """The chunks as dicts, the report but for whether a worker counted, and the counter."""
    chunker, counts = with_counter(**options) if worker else (Chunker(**options), None)  # type: ignore[arg-type]
    chunks = [chunk.to_dict() for chunk in run(chunker, lines)]
    report = chunker.report
    assert report["tokens"].pop("count_worker") == (counts is not None and counts.worker_used)
    return chunks, report, counts


def paged(sections: int) -> List[str]:
    lines = []
    for n in range(1, sections + 1):
        lines += [f"{n} Section {n}", f"Text of section {n}, which a \u00a7 {n}(a) cites.", "",
                  "Another paragraph <|endoftext|> with words " * (n % 7 + 1), ""]
        if n % 10 == 0:
            lines += ["Acme Home Policy", f"Page {n // 10}", "\f"]
    return lines


def test_the_worker_gives_the_same_chunks_and_counts(eager):
    warm_worker()
    lines = paged(300)
    with_worker, report_w, counts = chunked(lines, True, max_tokens=60)
    alone, report_a, _ = chunked(lines, False, max_tokens=60)
    assert counts.worker_used
    assert with_worker == alone
    assert report_w == report_a
    assert all(c["real_tokens"] == len(ENC.encode_ordinary(c["text"])) for c in with_worker)


def test_both_processes_count_when_the_worker_has_enough_in_hand(eager):
    warm_worker()
    counted_here = []
    encode = ENC.encode_ordinary

    def spy(text: str) -> List[int]:
        counted_here.append(text)
        return encode(text)

    chunker, counts = with_counter(max_tokens=60)
    counts._encode = spy  # what this process counts (the worker has its own encoder)
    chunks = list(run(chunker, paged(300)))
    assert counts.worker_used
    assert 0 < len(counted_here) < len(chunks)
    assert [c.real_tokens for c in chunks] == [len(encode(c.text)) for c in chunks]


@settings(max_examples=25)
@given(documents(), st.integers(4, 80))
def test_worker_or_not_the_chunks_are_the_same(doc, cap):
    # Set by hand: function-scoped fixtures are not reset between examples.
    saved = _counting.WORKER_AFTER, _counting.BACKLOG, _counting.MAX_WAITING
    _counting.WORKER_AFTER, _counting.BACKLOG, _counting.MAX_WAITING = 0, 50, 3
    try:
        with_worker, report_w, _ = chunked(doc.lines, True, max_tokens=cap)
    finally:
        _counting.WORKER_AFTER, _counting.BACKLOG, _counting.MAX_WAITING = saved
    alone, report_a, _ = chunked(doc.lines, False, max_tokens=cap)
    assert with_worker == alone and report_w == report_a


def test_corpus_counts_match_with_the_worker(corpus):
    lines = corpus("rfc2616.txt")
    with_worker, _, counts = chunked(lines, True)
    alone, _, _ = chunked(lines, False)
    assert counts.worker_used  # the RFC is long enough to start one
    assert with_worker == alone


def test_unusual_text_crosses_to_the_worker_unchanged(eager):
    warm_worker()
    lines = ["1 Cover", "Lone surrogate \ud800 here, \U0001f600, <|endoftext|>, \u00a7 4.2, tabs\tand\u00a0spaces.",
             "", "2 Excess", "\u202e\u200bzero width and bidi; caf\u00e9 \u2014 \u201cquoted\u201d"]
    with_worker, _, counts = chunked(lines * 20, True, max_tokens=30)
    assert counts.worker_used
    assert with_worker == chunked(lines * 20, False, max_tokens=30)[0]


def test_a_worker_that_dies_costs_no_count(eager):
    worker = warm_worker()
    chunker, _ = with_counter(max_tokens=60)
    out = run(chunker, paged(300))
    chunks = [next(out) for _ in range(3)]
    worker.process.kill()
    worker.process.wait()
    chunks += list(out)
    assert [c.to_dict() for c in chunks] == chunked(paged(300), False, max_tokens=60)[0]
    assert chunker.report["diagnostics"]["count_worker_lost"] == 1
    # None is started again for that encoding: it may fail the same way.
    assert not _counting.Counts("cl100k_base")._take_worker()


def test_chunkers_on_two_threads_share_the_worker(eager):
    warm_worker()
    results = {}

    def work(name: str, sections: int) -> None:
        results[name] = chunked(paged(sections), True, max_tokens=60)[0]

    threads = [threading.Thread(target=work, args=(f"t{n}", 150 + 40 * n)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for n in range(3):
        assert results[f"t{n}"] == chunked(paged(150 + 40 * n), False, max_tokens=60)[0]


def test_no_worker_when_packing_counts_real_tokens(eager):
    chunker, counts = with_counter(cap_by="real", max_tokens=60)
    chunks = list(run(chunker, paged(100)))
    assert not counts.worker_used and chunks


def test_the_sans_io_chunker_counts_everything_itself(eager):
    chunker = Chunker(max_tokens=60)
    chunks = chunker.feed("\n".join(paged(300)))
    assert chunks and all(c.real_tokens is not None for c in chunks)
    assert not _counting._WORKERS


def test_a_short_document_starts_no_worker():
    chunks = list(chunk_lines(paged(20)))
    assert sum(len(c.text) for c in chunks) < _counting.WORKER_AFTER
    assert not _counting._WORKERS


def test_a_long_document_starts_one_that_later_documents_use():
    lines = paged(3000)
    chunks = list(chunk_lines(lines))
    assert [c.real_tokens for c in chunks] == [len(ENC.encode_ordinary(c.text)) for c in chunks]
    worker = _counting._WORKERS["cl100k_base"]
    assert worker.alive
    assert warm_worker() is worker  # the same process, once it has loaded its encoding
    short, counts = with_counter()
    list(run(short, paged(20)))
    assert counts.worker_used  # from its first chunk


def test_a_counting_process_still_loading_is_not_waited_for_at_the_end():
    """A document that ends before its counting process has loaded its
    encoding needs nothing from it: the end kills it rather than waiting up to
    half a second for it to see its input close. One that has answered sees
    the close and leaves of itself."""
    _counting._stop_all()
    loading = _counting._worker("cl100k_base", ENC.encode_ordinary, start=True)
    assert loading is not None and not loading.ready
    _counting._stop_all()
    assert loading.process.returncode == -signal.SIGKILL
    answered = warm_worker()
    _counting._stop_all()
    assert answered.process.returncode == 0


def test_a_counting_process_that_dies_while_loading_is_reported(eager):
    """However soon the document ends after it: the end takes what came back
    before counting the rest here, and so learns of the death."""
    _counting._stop_all()
    chunker, counts = with_counter()
    chunks = list(chunker.feed("\n".join(paged(60)) + "\n"))
    worker = _counting._WORKERS["cl100k_base"]
    assert counts.batches_out and not worker.ready
    worker.process.kill()
    worker.process.wait()
    chunks += chunker.close()
    assert [c.real_tokens for c in chunks] == [len(ENC.encode_ordinary(c.text)) for c in chunks]
    assert chunker.report["diagnostics"]["count_worker_lost"] == 1


def test_an_abandoned_chunker_does_not_disturb_the_next(eager):
    warm_worker()
    out = run(with_counter(max_tokens=60)[0], paged(300))
    next(out)
    del out  # its batches may still be out
    assert chunked(paged(250), True, max_tokens=60)[0] == chunked(paged(250), False, max_tokens=60)[0]


def test_a_fork_in_the_middle_of_a_document_leaves_both_sides_exact(eager, monkeypatch):
    """A fork copies a chunker with batches out: the child must not read the
    parent's replies, nor the parent lose them."""
    monkeypatch.setattr(_counting, "MAX_WAITING", 100_000)  # nothing waits: the worker is paused
    worker = warm_worker()
    lines = paged(300)
    expected = chunked(lines, False, max_tokens=60)[0]
    text = "\n".join(lines) + "\n"
    half = text.index("\n", len(text) // 2) + 1
    chunker, counts = with_counter(max_tokens=60)
    os.kill(worker.process.pid, signal.SIGSTOP)  # its replies cannot come before the fork
    try:
        head = chunker.feed(text[:half])
        assert counts.batches_out
        pid = os.fork()
        if pid == 0:  # the child: its own counting process, or none, never the parent's
            ok = False
            try:
                got = head + chunker.feed(text[half:]) + chunker.close()
                ok = [c.to_dict() for c in got] == expected and not worker.alive
                ok = ok and _counting._WORKERS.get("cl100k_base") is not worker
                _counting._stop_all()
            finally:
                os._exit(0 if ok else 1)
    finally:
        os.kill(worker.process.pid, signal.SIGCONT)
    got = head + chunker.feed(text[half:]) + chunker.close()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert [c.to_dict() for c in got] == expected
    assert worker.alive and chunked(lines, True, max_tokens=60)[0] == expected


def run_script(tmp_path, source: str) -> str:
    """Run ``source`` in a fresh interpreter from the repository's root; its stdout."""
    script = tmp_path / "run.py"
    script.write_text(source, encoding="utf-8")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # This interpreter's path, in its order: the child imports the build under
    # test (the checkout's sources, or the installed compiled build before them).
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=root, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, (done.returncode, done.stderr)
    return done.stdout


def test_the_worker_ends_with_the_interpreter(tmp_path):
    pid = int(run_script(tmp_path,
                         "from stream_chunker import chunk_lines\n"
                         "from stream_chunker.drivers import counting as _counting\n"
                         "from tests.test_counting import paged\n"
                         "chunks = list(chunk_lines(paged(3000)))\n"
                         "print(_counting._WORKERS['cl100k_base'].process.pid)\n"))
    with pytest.raises(ProcessLookupError):  # stopped and reaped before the interpreter left
        os.kill(pid, 0)


def test_chunks_waiting_for_counts_reach_a_live_pipe_before_more_input(eager):
    """Chunks must not wait for their counts while the input waits for the
    reader of those chunks (a pipe in both directions)."""
    warm_worker()
    read_end, write_end = os.pipe()
    text = "\n".join(paged(60)) + "\n"
    assert len(text) < 60_000  # fits in the pipe: the write does not block
    os.write(write_end, text.encode())
    chunker, counts = with_counter(max_tokens=60)
    with io.open(read_end, "rb") as stream:

        def hang(signum: int, frame: object) -> None:
            raise TimeoutError("chunks waited for input that was never going to come")

        old = signal.signal(signal.SIGALRM, hang)
        signal.alarm(30)
        try:
            blocks: Iterator[list] = chunk_stream(chunker, stream)
            got: list = []
            while not got:
                got = next(blocks)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        assert counts.worker_used
        assert all(c.real_tokens == len(ENC.encode_ordinary(c.text)) for c in got)
        os.close(write_end)
        rest = [c for block in blocks for c in block]
    expected, _, _ = chunked(text.split("\n")[:-1], False, max_tokens=60)
    assert [c.to_dict() for c in got + rest] == expected


def test_an_interrupt_in_the_middle_of_a_send_costs_no_count(eager, monkeypatch):
    """Ctrl-C (or a signal handler's exception) between writing a batch and
    recording it would put replies and batches out of step for every later
    document: the counting process is ended instead."""
    warm_worker()
    real_write = _counting._Channel.write
    calls = []

    def write_then_interrupt(self: _counting._Channel, data: bytes) -> None:
        real_write(self, data)
        calls.append(data)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(_counting._Channel, "write", write_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        list(run(with_counter(max_tokens=60)[0], paged(3000)))
    monkeypatch.setattr(_counting._Channel, "write", real_write)
    with_worker, report, _ = chunked(paged(250), True, max_tokens=60)
    assert with_worker == chunked(paged(250), False, max_tokens=60)[0]


def executable(tmp_path, monkeypatch, script: str) -> None:
    """Make the counting process some other program."""
    path = tmp_path / "python"
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(path))


@pytest.mark.parametrize("script", ["exec cat > /dev/null", "exec cat", "exit 3"],
                         ids=["never answers", "answers nonsense", "exits at once"])
def test_a_counting_process_that_misbehaves_costs_no_count(eager, tmp_path, monkeypatch, script):
    executable(tmp_path, monkeypatch, script)
    # Nothing may wait for a process that has not answered yet: were anything
    # to, this test would hang (and the alarm end it) rather than pass late.
    monkeypatch.setattr(_counting, "REPLY_LIMIT", 3600.0)

    def hang(signum: int, frame: object) -> None:
        raise TimeoutError("waited for a counting process that never answered")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(60)
    try:
        lines = paged(300)
        got, _, _ = chunked(lines, True, max_tokens=60)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert got == chunked(lines, False, max_tokens=60)[0]


def test_a_counting_process_that_cannot_start_is_reported(eager, monkeypatch):
    monkeypatch.setattr(sys, "executable", "")
    got, report, counts = chunked(paged(100), True, max_tokens=60)
    assert got == chunked(paged(100), False, max_tokens=60)[0]
    assert report["diagnostics"]["count_worker_lost"] == 1 and not counts.worker_used


def test_many_open_files_are_no_obstacle(eager):
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if max(soft, hard if hard != resource.RLIM_INFINITY else 4096) < 1200:
        pytest.skip("fewer than 1200 open files allowed here")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]  # the next ones are past 1024
    try:
        got, _, counts = chunked(paged(300), True, max_tokens=60)
        assert counts.worker_used
        assert got == chunked(paged(300), False, max_tokens=60)[0]
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_dead_counting_process_is_no_sigpipe(tmp_path):
    """With SIGPIPE at its default (as many programs set it), writing to a dead
    counting process must be an error to handle, not the end of this one."""
    out = run_script(tmp_path,
                     "import signal\n"
                     "signal.signal(signal.SIGPIPE, signal.SIG_DFL)\n"
                     "from stream_chunker.drivers import counting as _counting\n"
                     "from tests.test_counting import paged, run, warm_worker, with_counter\n"
                     "_counting.WORKER_AFTER = 0\n"
                     "worker = warm_worker()\n"
                     "worker.process.kill(); worker.process.wait()\n"
                     "chunker, _ = with_counter(max_tokens=60)\n"
                     "chunks = list(run(chunker, paged(300)))\n"
                     "print(len(chunks), chunker.report['diagnostics'].get('count_worker_lost'))\n")
    count, lost = out.split()
    assert int(count) > 100 and lost == "1"


def test_a_counting_process_in_the_middle_of_its_exec_is_read_again(monkeypatch):
    """``VmHWM: 4 kB`` is the new image of a process in its exec, not the
    interpreter's peak: it is read again, not reported as 0.0 MiB (a peak
    the report then drops as none)."""
    counting = _counting
    reads = iter(["Name:\tpython\nVmHWM:\t       4 kB\n", "Name:\tpython\nVmHWM:\t    9216 kB\n"])
    monkeypatch.setattr(counting, "open", lambda *args, **kwargs: io.StringIO(next(reads)), raising=False)
    monkeypatch.setattr(counting.time, "sleep", lambda seconds: None)
    worker = counting._Worker.__new__(counting._Worker)
    worker.process = type("Process", (), {"pid": 1, "poll": lambda self: None})()
    worker._peak = None
    assert worker.peak_rss_mib() == 9.0


@given(st.text(alphabet="ab \t\n\r\x0b\x0c\x1c\x1f\u00a0\u00e9\u2003", max_size=20))
def test_a_paragraph_is_single_spaced_as_split_and_joined(text):
    # single_spaced keeps text as it is when it finds no white space but single
    # spaces (ASCII text searched per character, other text by isprintable).
    from stream_chunker.core.text import single_spaced

    words = text.split()
    assert single_spaced(text) == (" ".join(words), len(words))

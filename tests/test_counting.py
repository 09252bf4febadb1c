"""Real token counts taken by a worker process: the same chunks, the same counts,
in the same order, as when this process counts them all."""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
from typing import Iterator, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import Chunker, chunk_lines
from stream_chunker import _counting
from stream_chunker._input import chunk_stream
from stream_chunker._pipeline import run
from stream_chunker._tokens import load_encoding

from .test_properties import documents

ENC = load_encoding("cl100k_base")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a count worker is forked only on Linux")


@pytest.fixture(autouse=True)
def no_other_threads() -> None:
    """A worker is forked only while no other thread runs: let threads that
    earlier tests left behind (pipe readers) finish first."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread():
            thread.join(timeout=10)


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker from the first chunk on, and a backlog so small that both
    processes count: the case where order could go wrong."""
    monkeypatch.setattr(_counting, "WORKER_AFTER", 0)
    monkeypatch.setattr(_counting, "BACKLOG", 300)
    monkeypatch.setattr(_counting, "MAX_WAITING", 5)


def chunked(lines: List[str], worker: bool, **options: object) -> Tuple[list, dict, Chunker]:
    """The chunks as dicts, the report but for whether a worker counted, and the chunker."""
    chunker = Chunker(count_worker=worker, **options)  # type: ignore[arg-type]
    chunks = [chunk.to_dict() for chunk in run(chunker, lines)]
    report = chunker.report
    assert report["tokens"].pop("count_worker") == chunker._counts.worker_used
    return chunks, report, chunker


def paged(sections: int) -> List[str]:
    lines = []
    for n in range(1, sections + 1):
        lines += [f"{n} Section {n}", f"Text of section {n}, which a \u00a7 {n}(a) cites.", "",
                  "Another paragraph <|endoftext|> with words " * (n % 7 + 1), ""]
        if n % 10 == 0:
            lines += ["Acme Home Policy", f"Page {n // 10}", "\f"]
    return lines


def test_the_worker_gives_the_same_chunks_and_counts(eager):
    lines = paged(300)
    with_worker, report_w, chunker = chunked(lines, True, max_tokens=60)
    alone, report_a, _ = chunked(lines, False, max_tokens=60)
    assert chunker._counts.worker_used
    assert with_worker == alone
    assert report_w == report_a
    assert all(c["real_tokens"] == len(ENC.encode_ordinary(c["text"])) for c in with_worker)


def test_both_processes_count_when_the_worker_falls_behind(eager, monkeypatch):
    counted_here = []
    encode = ENC.encode_ordinary

    def spy(text: str) -> List[int]:
        counted_here.append(text)
        return encode(text)

    chunker = Chunker(count_worker=True, max_tokens=60)
    chunker._counts._encode = spy  # the worker is forked with this process's encoder
    chunks = list(run(chunker, paged(300)))
    assert chunker._counts.worker_used
    # Some chunks were counted here, and fewer than all of them.
    assert 0 < len(counted_here) < len(chunks)
    assert [c.real_tokens for c in chunks] == [len(encode(c.text)) for c in chunks]


@settings(max_examples=25)
@given(documents(), st.integers(4, 80))
def test_worker_or_not_the_chunks_are_the_same(doc, cap):
    # The eager settings are set by hand: function-scoped fixtures do not reset between examples.
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
    with_worker, _, chunker = chunked(lines, True)
    alone, _, _ = chunked(lines, False)
    assert chunker._counts.worker_used  # the RFC is long enough without help
    assert with_worker == alone


def test_a_worker_that_dies_costs_no_count(eager):
    chunker = Chunker(count_worker=True, max_tokens=60)
    out = run(chunker, paged(300))
    chunks = [next(out) for _ in range(3)]
    process = chunker._counts._process
    assert process is not None and process.is_alive()
    os.kill(process.pid, signal.SIGKILL)
    process.join()
    chunks += list(out)
    assert [c.to_dict() for c in chunks] == chunked(paged(300), False, max_tokens=60)[0]
    assert chunker.report["diagnostics"]["count_worker_lost"] == 1


def test_no_worker_while_another_thread_runs():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        chunker = Chunker(count_worker=True)
        list(run(chunker, paged(2000)))
    finally:
        stop.set()
        thread.join()
    assert not chunker._counts.worker_used


def test_no_worker_when_packing_counts_real_tokens(eager):
    chunker = Chunker(count_worker=True, cap_by="real", max_tokens=60)
    chunks = list(run(chunker, paged(100)))
    assert not chunker._counts.worker_used and chunks


def test_the_sans_io_chunker_counts_everything_itself(eager):
    chunker = Chunker(max_tokens=60)
    chunks = chunker.feed("\n".join(paged(300)))
    assert not chunker._counts.worker_used
    assert chunks and all(c.real_tokens is not None for c in chunks)


def test_chunk_lines_uses_a_worker_for_a_long_document():
    lines = paged(3000)
    assert sum(len(line) for line in lines) > 4 * _counting.WORKER_AFTER
    started = []
    real_start = _counting.Counts._start

    def start(self: _counting.Counts) -> None:
        real_start(self)
        started.append(self.worker_used)

    _counting.Counts._start = start  # type: ignore[method-assign]
    try:
        chunks = list(chunk_lines(lines))
    finally:
        _counting.Counts._start = real_start  # type: ignore[method-assign]
    assert started == [True]
    assert [c.real_tokens for c in chunks] == [len(ENC.encode_ordinary(c.text)) for c in chunks]


def test_the_worker_stops_with_the_chunker(eager):
    chunker = Chunker(count_worker=True, max_tokens=60)
    list(run(chunker, paged(300)))
    process = chunker._counts._process
    assert process is not None and not process.is_alive() and process.exitcode == 0


def test_an_abandoned_generator_leaves_no_worker(eager):
    chunker = Chunker(count_worker=True, max_tokens=60)
    out = run(chunker, paged(300))
    next(out)
    process = chunker._counts._process
    assert process is not None and process.is_alive()
    out.close()
    process.join(timeout=10)
    assert not process.is_alive()


def test_chunks_waiting_for_counts_reach_a_live_pipe_before_more_input(eager):
    """The worker must not hold chunks back while the input waits for the
    reader of those chunks (a pipe in both directions)."""
    read_end, write_end = os.pipe()
    text = "\n".join(paged(60)) + "\n"
    assert len(text) < 60_000  # fits in the pipe: the write does not block
    os.write(write_end, text.encode())
    chunker = Chunker(count_worker=True, max_tokens=60)
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
        assert chunker._counts.worker_used
        assert all(c.real_tokens == len(ENC.encode_ordinary(c.text)) for c in got)
        os.close(write_end)
        rest = [c for block in blocks for c in block]
    expected, _, _ = chunked(text.split("\n")[:-1], False, max_tokens=60)
    assert [c.to_dict() for c in got + rest] == expected

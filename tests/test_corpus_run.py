"""Many documents at once (issue 16): ``--jobs``, directories, ``--glob``,
stdin among files, failures a document at a time, the run's report,
``chunk_files``, and the spill files that keep memory bounded.

The mixed corpus is the shared corpus's texts when they are there, and
always generated wordings of a few sizes, a PDF, a nested folder and files
that the default glob leaves out.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from itertools import groupby
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.synthetic import generate
from stream_chunker import InputError, chunk_files
from stream_chunker.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_PIPE_CLOSED, EXIT_USAGE
from stream_chunker.drivers.documents import Job, documents, jobs_for
from stream_chunker.engine.options import Options
from stream_chunker.drivers.workers import AHEAD, InOrder

from .conftest import CORPUS
from .test_cli import (CHILD_TIMEOUT, EXAMPLE_TEXT, FAST, FIELDS, MOTOR_TEXT, PNG_BYTES, json_lines, popen,
                       readline_within, run_main, write)

CORPUS_TEXTS = ["rfc2616.txt", "uslm-user-guide.txt", "usc-title27.txt", "dc-code-31-24.txt",
                "insurance/sfip-dwelling-2021.txt", "insurance/sfip-general-property-2021.txt"]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of documents of mixed sizes and kinds, nested."""
    root = tmp_path_factory.mktemp("mixed")
    (root / "b-nested" / "deeper").mkdir(parents=True)
    for i, pages in enumerate((3, 9, 30, 120)):
        (root / f"gen-{pages:03d}.txt").write_text(generate(pages=pages, seed=i), encoding="utf-8")
    (root / "b-nested" / "home.txt").write_text(EXAMPLE_TEXT, encoding="utf-8")
    (root / "b-nested" / "deeper" / "motor.txt").write_text(MOTOR_TEXT, encoding="utf-8")
    (root / "b-nested.txt").write_text(generate(pages=5, seed=9), encoding="utf-8")  # sorts before b-nested/
    (root / "notes.md").write_text("1 Not chunked\nThe default glob leaves this out.\n", encoding="utf-8")
    for name in CORPUS_TEXTS:
        if (CORPUS / name).exists():
            shutil.copy(CORPUS / name, root / ("corpus-" + Path(name).name))
    try:
        from benchmarks.pdf import write_pdf

        write_pdf(root / "b-nested" / "printed.pdf", pages=3, seed=4)
    except ImportError:  # fpdf2 is in the [test] extra; without it the PDF is left out
        pass
    return root


def relative_docs(chunks: List[dict], root: Path) -> List[str]:
    """The documents of ``chunks`` in the order they first appear, relative to ``root``."""
    return [os.path.relpath(doc, root) for doc, _ in groupby(c["doc"] for c in chunks)]


def files_under(root: Path, *suffixes: str) -> List[str]:
    """Every file under ``root`` with one of ``suffixes``, relative, as sorted paths sort."""
    found = [os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs]
    return sorted(f for f in found if f.endswith(suffixes))


# -- the command line ------------------------------------------------------------


@pytest.mark.parametrize("counts", [[FAST], []], ids=["estimate", "real-tokens"])
def test_jobs_2_writes_exactly_what_jobs_1_writes(mixed, counts, capsys, monkeypatch):
    argv = [*counts, "--glob", "*.txt", "--glob", "*.pdf", str(mixed)]
    code1, serial, _ = run_main(["--jobs", "1", *argv], capsys, monkeypatch)
    code2, parallel, _ = run_main(["--jobs", "2", *argv], capsys, monkeypatch)
    assert code1 == code2 == EXIT_OK
    assert parallel == serial
    assert len(json_lines(parallel)) > 100


def test_with_workers_the_command_line_loads_no_encoding_of_its_own(tmp_path, capsys, monkeypatch):
    """The workers count real tokens; the command line only checks the name
    of the bundled encoding, and an unknown one still ends the run at once."""
    import stream_chunker.engine.chunker

    def refuse(name: str) -> None:
        raise AssertionError(f"the command line loaded {name}")

    monkeypatch.setattr(stream_chunker.engine.chunker, "load_encoding", refuse)
    docs = [write(tmp_path / f"{n}.txt", EXAMPLE_TEXT) for n in "ab"]
    code, out, _ = run_main(["--jobs", "2", *map(str, docs)], capsys, monkeypatch)
    assert code == EXIT_OK and all(c["real_tokens"] for c in json_lines(out))
    code, _, err = run_main(["--jobs", "2", "--encoding", "nope", *map(str, docs)], capsys, monkeypatch)
    assert code == EXIT_USAGE and "unknown encoding 'nope'" in err
    assert all(chunk.real_tokens for _, chunk in chunk_files(docs, jobs=2))  # the library's too


def test_with_workers_an_option_is_checked_before_any_worker_starts(tmp_path, capsys, monkeypatch):
    """cap_by="real" with a profile that cannot cap by it is refused as with
    one process: at once, nothing handed to a worker."""
    docs = [write(tmp_path / f"{n}.txt", EXAMPLE_TEXT) for n in "ab"]
    monkeypatch.setattr(InOrder, "runs", lambda *args: pytest.fail("a worker was asked to start"))
    code, out, err = run_main(["--jobs", "2", "--profile", "statute", "--cap-by", "real", *map(str, docs)],
                              capsys, monkeypatch)
    assert (code, out) == (EXIT_USAGE, "") and "cap_by" in err


def test_each_document_is_whole_contiguous_and_in_sorted_order(mixed, capsys, monkeypatch):
    code, out, _ = run_main([FAST, "--jobs", "2", str(mixed)], capsys, monkeypatch)
    assert code == EXIT_OK
    chunks = json_lines(out)
    order = relative_docs(chunks, mixed)
    assert order == files_under(mixed, ".txt")  # each document once: its chunks are contiguous
    assert order.index("b-nested.txt") < order.index("b-nested/home.txt")
    assert all(set(c) == FIELDS | {"doc"} for c in chunks)
    for doc in (mixed / "gen-030.txt", mixed / "b-nested" / "home.txt"):
        _, alone, _ = run_main([FAST, str(doc)], capsys, monkeypatch)
        assert [{k: v for k, v in c.items() if k != "doc"} for c in chunks if c["doc"] == str(doc)] == \
            json_lines(alone)


def test_globs_pick_the_files_of_a_directory(mixed, capsys, monkeypatch):
    code, out, _ = run_main([FAST, "--glob", "*.md", "--glob", "gen-00?.txt", str(mixed)], capsys, monkeypatch)
    assert code == EXIT_OK
    assert relative_docs(json_lines(out), mixed) == ["gen-003.txt", "gen-009.txt", "notes.md"]


def test_stdin_among_files_keeps_its_place(tmp_path, capsys, monkeypatch):
    a = write(tmp_path / "a.txt", EXAMPLE_TEXT)
    b = write(tmp_path / "b.txt", generate(pages=4, seed=1))
    code, out, _ = run_main([FAST, "--jobs", "2", str(a), "-", str(b)], capsys, monkeypatch,
                            stdin=MOTOR_TEXT.encode())
    assert code == EXIT_OK
    chunks = json_lines(out)
    assert [doc for doc, _ in groupby(c["doc"] for c in chunks)] == [str(a), "-", str(b)]
    assert [c["id"] for c in chunks if c["doc"] == "-"] == ["1.1", "1.1.1", "2"]


def test_one_directory_of_one_file_still_names_the_document(tmp_path, capsys, monkeypatch):
    write(tmp_path / "only.txt", EXAMPLE_TEXT)
    code, out, _ = run_main([FAST, str(tmp_path)], capsys, monkeypatch)
    assert code == EXIT_OK
    assert {c["doc"] for c in json_lines(out)} == {str(tmp_path / "only.txt")}


def _with_failures(root: Path) -> Tuple[List[Path], Dict[str, str]]:
    """Good documents with failing ones between them, and what each failure says."""
    good = [write(root / f"good-{i}.txt", generate(pages=3 + 5 * i, seed=i)) for i in range(3)]
    binary = write(root / "binary.txt", PNG_BYTES)
    invalid = write(root / "invalid.txt", "1 Cover\nWe cover the caf\xe9.\n".encode("latin-1"))
    empty = root / "empty-folder"
    empty.mkdir()
    inputs = [good[0], binary, good[1], root / "missing.txt", invalid, empty, good[2]]
    reasons = {str(binary): "binary input refused", str(root / "missing.txt"): "No such file",
               str(invalid): "invalid UTF-8", str(empty): "no file in this directory matches *.txt"}
    return inputs, reasons


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_failing_documents_leave_the_others_whole(tmp_path, jobs, capsys, monkeypatch):
    inputs, reasons = _with_failures(tmp_path)
    report_path = tmp_path / "run.json"
    code, out, err = run_main([FAST, "--strict", "--jobs", jobs, "--report", str(report_path),
                               *map(str, inputs)], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT
    for name, reason in reasons.items():
        assert any(line.startswith(f"stream-chunker: {name}: ") and reason in line for line in err.splitlines())
    assert "Traceback" not in err
    good = [p for p in inputs if str(p) not in reasons]
    _, expected, _ = run_main([FAST, "--strict", "--jobs", jobs, *map(str, good)], capsys, monkeypatch)
    assert out == expected
    report = json.loads(report_path.read_text("utf-8"))
    assert [d["doc"] for d in report["documents"]] == [str(p) for p in inputs]
    assert {d["doc"]: d["error"] for d in report["documents"] if "error" in d}.keys() == reasons.keys()
    assert (report["totals"]["documents"], report["totals"]["failed"]) == (7, 4)
    assert report["totals"]["chunks"] == len(json_lines(out))


def test_the_report_has_an_entry_a_document_and_the_totals(mixed, capsys, monkeypatch, tmp_path):
    report_path = tmp_path / "run.json"
    code, out, err = run_main([FAST, "--jobs", "2", "--stats", "--report", str(report_path), str(mixed)],
                              capsys, monkeypatch)
    assert code == EXIT_OK
    # The two codes in the folder are chunked as wordings (the default), and said to read like codes;
    # the FEMA forms, as default-mode pdftotext prints them, to have their labels out of order.
    lines = [line for line in err.splitlines() if line.startswith("stream-chunker: ")]
    # (how many labels is the reading's business, not this test's: N stands for the count)
    notes = {(os.path.basename(line.split(": ")[1]), re.sub(r"^\d+ ", "N ", line.split(": ", 2)[2].split(" (")[0]))
             for line in lines}
    assert sorted(notes) == [note for note in [
        ("corpus-dc-code-31-24.txt", "this reads like --profile statute"),
        ("corpus-sfip-dwelling-2021.txt", "N outline labels came out of sequence: if this is text from a "
                                          "two-column PDF, give the PDF itself or `pdftotext -raw`"),
        ("corpus-sfip-general-property-2021.txt", "N outline labels came out of sequence: if this is text "
                                                  "from a two-column PDF, give the PDF itself or `pdftotext -raw`"),
        ("corpus-usc-title27.txt", "this reads like --profile statute")]
        if (mixed / note[0]).exists()]  # the corpus texts, where ../shared/corpus is there to copy
    report = json.loads(err.split("\n", len(lines))[-1])
    assert report == json.loads(report_path.read_text("utf-8"))
    assert report.keys() == {"documents", "totals", "elapsed_s", "peak_rss_mib", "count_worker_peak_rss_mib"}
    docs = files_under(mixed, ".txt")
    assert [os.path.relpath(d["doc"], mixed) for d in report["documents"]] == docs
    chunks = json_lines(out)
    assert [d["chunks"] for d in report["documents"]] == [
        sum(1 for c in chunks if c["doc"] == d["doc"]) for d in report["documents"]]
    totals = report["totals"]
    assert (totals["documents"], totals["failed"], totals["chunks"]) == (len(docs), 0, len(chunks))
    assert totals["bytes"] == sum((mixed / d).stat().st_size for d in docs)
    assert totals["worker_peak_rss_mib"] > 0 and totals["documents_per_s"] > 0 and totals["mb_per_s"] > 0


def test_diagnostics_of_many_documents_are_the_same_on_any_number_of_jobs(mixed, capsys, monkeypatch, tmp_path):
    written = []
    for jobs in ("1", "2"):
        path = tmp_path / f"why-{jobs}.jsonl"
        code, _, _ = run_main([FAST, "--jobs", jobs, "--diagnostics", str(path), str(mixed)], capsys, monkeypatch)
        assert code == EXIT_OK
        written.append(path.read_text("utf-8"))
    assert written[0] == written[1]
    assert {e["doc"] for e in json_lines(written[0])} >= {str(mixed / "gen-120.txt")}


def test_jobs_below_one_is_a_usage_error(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "a.txt", EXAMPLE_TEXT)
    code, out, err = run_main([FAST, "--jobs", "0", str(path), str(path)], capsys, monkeypatch)
    assert code == EXIT_USAGE and out == "" and "--jobs" in err


def test_a_bar_of_documents_on_a_terminal(tmp_path, capsys, monkeypatch):
    write(tmp_path / "a.txt", EXAMPLE_TEXT)
    write(tmp_path / "b.txt", PNG_BYTES)
    write(tmp_path / "c.txt", MOTOR_TEXT)
    code, out, err = run_main([FAST, "--progress", str(tmp_path)], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT
    assert "documents" in err and "doc" in err
    assert f"stream-chunker: {tmp_path / 'b.txt'}: line 1: binary input refused" in err  # above the bar
    assert [c["id"] for c in json_lines(out)] == ["4.1", "4.2", "5.1", "1.1", "1.1.1", "2"]  # nothing else


@settings(max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "60")) // 4)
@given(st.lists(st.tuples(st.integers(3, 8), st.booleans()), min_size=1, max_size=7), st.integers(1, 3))
def test_any_documents_any_failures_any_jobs(docs, jobs):
    """Each good document's chunks, whole and in input order, whichever fail:
    what one process makes of the good ones alone."""
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i, (pages, fails) in enumerate(docs):
            path = Path(folder) / f"{i}.txt"
            path.write_bytes(PNG_BYTES if fails else generate(pages=pages, seed=pages).encode())
            paths.append(str(path))
        failed: List[str] = []
        got = [(doc, chunk.to_dict()) for doc, chunk in chunk_files(
            paths, jobs=jobs, real_tokens=False, on_failure=lambda doc, reason: failed.append(doc))]
        good = [p for p, (_, fails) in zip(paths, docs) if not fails]
        expected = [(doc, chunk.to_dict()) for doc, chunk in chunk_files(good, jobs=1, real_tokens=False)]
    assert failed == [p for p, (_, fails) in zip(paths, docs) if fails]
    assert got == expected
    assert [doc for doc, _ in groupby(doc for doc, _ in got)] == good  # each one whole, in order


# -- directories -------------------------------------------------------------------


NAMES = st.text(alphabet="ab-._0", min_size=1, max_size=4).filter(lambda n: n not in (".", ".."))


@given(st.lists(st.tuples(st.lists(NAMES, max_size=3), NAMES), max_size=12))
def test_a_directory_is_walked_in_the_order_its_paths_sort(tree):
    with tempfile.TemporaryDirectory() as root:
        made = set()
        for folders, name in tree:
            path = os.path.join(root, *folders, name + ".txt")
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                Path(path).touch()
            except (FileExistsError, NotADirectoryError, IsADirectoryError):
                continue  # a name already taken by a file or a folder
            made.add(os.path.relpath(path, root))
        found = [os.path.relpath(p, root) for p, problem in documents([root]) if problem is None]
    if made:
        assert found == sorted(made)
    else:
        assert found == []


# -- the library ----------------------------------------------------------------


def test_chunk_files_gives_what_the_command_line_writes(mixed, capsys, monkeypatch):
    _, out, _ = run_main([FAST, "--jobs", "1", str(mixed)], capsys, monkeypatch)
    pairs = [{"doc": doc, **chunk.to_dict()} for doc, chunk in chunk_files([mixed], jobs=2, real_tokens=False)]
    assert pairs == json_lines(out)


def test_chunk_files_raises_at_a_failing_document_after_the_ones_before(tmp_path):
    a = write(tmp_path / "a.txt", EXAMPLE_TEXT)
    bad = write(tmp_path / "bad.txt", PNG_BYTES)
    got: List[str] = []
    with pytest.raises(InputError, match=f"{bad}: line 1: binary input refused"):
        for doc, _ in chunk_files([a, bad, a], jobs=2, real_tokens=False):
            got.append(doc)
    assert got == [str(a)] * 3


# -- spill files and the window -----------------------------------------------------


class Pulled:
    """The jobs of ``paths``, counting those the pool has taken."""

    def __init__(self, paths: List[str]) -> None:
        self.paths, self.count = paths, 0

    def jobs(self) -> Iterator[Job]:
        for job in jobs_for(((p, None) for p in self.paths), Options.of(real_tokens=False), labelled=True):
            self.count += 1
            yield job


def test_documents_done_early_wait_on_disk_and_go_once_handed_on(tmp_path):
    """While the first, long document is read, a later one is chunked into
    its spill file, and waits there; each file goes once its document is
    handed on; no more documents are handed out than the window; the first
    document's chunks flow before the last document is even handed out."""
    big = write(tmp_path / "big.txt", generate(pages=400, seed=1))
    small = write(tmp_path / "small.txt", generate(pages=3, seed=2))
    paths = [str(big)] + [str(small)] * (2 * AHEAD + 20)
    pulled = Pulled(paths)

    with InOrder(2) as pool:
        runs = pool.runs(pulled.jobs())
        head = next(runs)
        spill = pool._spill  # made as the first run is handed out
        assert spill is not None
        texts = head.chunk_texts()
        next(texts)
        assert pulled.count == 1 + 2 * AHEAD < len(paths)  # the window, and the first chunks are out
        for _ in texts:
            pass
        assert head.outcome().error is None
        second = next(runs)  # hands the head on
        assert not os.path.exists(head.chunks_path)
        assert second.future is not None
        second.future.result()  # done before its turn came: on disk, whole
        assert Path(second.chunks_path).read_text("utf-8").count("\n") == second.future.result().chunks > 0
        assert "".join(second.chunk_texts()) == Path(second.chunks_path).read_text("utf-8")
        for run in runs:
            assert not os.path.exists(second.chunks_path)
            second = run
            for _ in run.chunk_texts():
                pass
    assert not os.path.exists(spill)


def test_a_stop_that_left_a_document_s_lock_held_still_ends_the_pool(tmp_path):
    """A Ctrl-C may land after the reader took a pending document's lock to
    wait for it and before anything could let it go: the pool still ends
    (its thread fails that document's future, which needs the lock), where
    it used to wait for ever."""
    big = write(tmp_path / "big.txt", generate(pages=400, seed=1))
    small = write(tmp_path / "small.txt", generate(pages=3, seed=2))
    ended = threading.Event()

    def stopped_while_waiting() -> None:
        pool = InOrder(2)
        head = next(pool.runs(Pulled([str(big), str(small)]).jobs()))
        assert head.future is not None and not head.future.done()
        head.future._condition.acquire()  # (as the stop left it: held by this thread)
        pool.close()
        ended.set()

    threading.Thread(target=stopped_while_waiting, daemon=True).start()
    assert ended.wait(CHILD_TIMEOUT), "the pool waited for ever for a lock its reader held"


def test_a_reader_that_falls_behind_holds_the_workers_back_by_the_spills_bytes(tmp_path, monkeypatch):
    """Once the documents waiting for their turn hold ``SPILL_BOUND`` bytes on
    disk, no more are handed out while the reader is behind (here a bound of
    one byte: one more at a time, when the reader has taken all); every
    document still comes out, in order."""
    from stream_chunker.drivers import workers

    monkeypatch.setattr(workers, "SPILL_BOUND", 1)
    small = write(tmp_path / "small.txt", generate(pages=3, seed=2))
    paths = [str(small)] * (2 * AHEAD + 6)
    pulled = Pulled(paths)

    with InOrder(2) as pool:
        runs = pool.runs(pulled.jobs())
        head = next(runs)
        assert pulled.count == 1 + 2 * AHEAD  # the window, before anything is spilled
        for _ in head.chunk_texts():
            pass
        def written() -> int:  # documents after the head with chunks in their spill files
            return sum(1 for p in Path(pool._spill or "").glob("*.jsonl")
                       if str(p) != head.chunks_path and p.stat().st_size)

        deadline = time.monotonic() + 60
        while written() < 2 * AHEAD and time.monotonic() < deadline:
            time.sleep(0.05)  # (until the documents handed out have all written some: the second is taken next)
        second = next(runs)  # the reader takes one: the others are on disk, so none is handed out
        assert pulled.count == 1 + 2 * AHEAD
        count = 2
        for _ in second.chunk_texts():
            pass
        for run in runs:
            for _ in run.chunk_texts():
                pass
            count += 1
        assert count == len(paths) == pulled.count


def test_stopping_early_stops_the_workers_and_deletes_the_spill(tmp_path, monkeypatch):
    paths = [write(tmp_path / f"{i}.txt", generate(pages=60, seed=i)) for i in range(12)]
    made: List[str] = []  # this run's spill: another test process may spill in the same folder

    def mkdtemp(*args: object, **kwargs: object) -> str:
        made.append(real_mkdtemp(*args, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    real_mkdtemp = tempfile.mkdtemp
    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp)
    files = chunk_files(paths, jobs=2, real_tokens=False)
    next(files)
    spills = {Path(folder) for folder in made if Path(folder).name.startswith("stream-chunker-")}
    workers = _workers()
    assert spills and len(workers) == 2
    files.close()
    assert not any(p.exists() for p in spills)
    assert _still_running(workers) == []


# -- Ctrl-C and a closed pipe, in a child process ---------------------------------------------


def _descendants(pid: int) -> List[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            for task in os.listdir(f"/proc/{parent}/task"):
                children = Path(f"/proc/{parent}/task/{task}/children").read_text().split()
                found += map(int, children)
                todo += map(int, children)
        except OSError:
            continue
    return found


def _workers() -> List[int]:
    """The worker processes of this one's pools: the fork server's children
    (the fork server and the resource tracker live as long as this process)."""
    workers = []
    for pid in _descendants(os.getpid()):
        try:
            parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:  # gone meanwhile
            continue
        if parent != os.getpid():
            workers.append(pid)
    return workers


def _still_running(pids: List[int]) -> List[int]:
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


@pytest.fixture(scope="module")
def many_pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough output to fill a pipe many times over."""
    root = tmp_path_factory.mktemp("many")
    for i in range(8):
        (root / f"{i}.txt").write_text(generate(pages=200, seed=i), encoding="utf-8")
    return root


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")


@needs_proc
@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_stops_the_workers_and_leaves_whole_lines(many_pages, attempt):
    proc = popen(FAST, "--jobs", "2", str(many_pages))
    assert proc.stdout is not None and proc.stderr is not None
    first = readline_within(proc.stdout, CHILD_TIMEOUT)
    assert first
    time.sleep(0.1 * attempt)
    workers = _descendants(proc.pid)
    assert len(workers) >= 2  # the fork server and its workers at least
    proc.send_signal(signal.SIGINT)
    out: List[bytes] = []  # (read within a bound: a stop that hangs fails here, not the whole test run)
    reader = threading.Thread(target=lambda: out.extend((proc.stdout.read(), proc.stderr.read())), daemon=True)
    reader.start()
    reader.join(CHILD_TIMEOUT)
    if reader.is_alive():
        proc.kill()
        pytest.fail("the run stopped by Ctrl-C did not end: its pipes stayed open")
    rest, err = out
    assert proc.wait(timeout=CHILD_TIMEOUT) == EXIT_INTERRUPTED
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    chunks = json_lines((first + rest).decode())
    assert chunks and all(set(c) == FIELDS | {"doc"} for c in chunks)
    time.sleep(0.5)  # the fork server ends when it sees its parent gone
    assert _still_running(workers) == []


@needs_proc
def test_a_closed_pipe_stops_the_workers_quietly(many_pages):
    proc = popen(FAST, "--jobs", "2", str(many_pages))
    assert proc.stdout is not None and proc.stderr is not None
    first = readline_within(proc.stdout, CHILD_TIMEOUT)
    workers = _descendants(proc.pid)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=CHILD_TIMEOUT) == EXIT_PIPE_CLOSED
    assert err == b""
    assert set(json.loads(first)) == FIELDS | {"doc"}
    time.sleep(0.5)
    assert _still_running(workers) == []


@needs_proc
def test_workers_end_when_their_parent_is_killed(many_pages, short_tmp):
    """Killed outright, the command line cleans nothing up: its workers see
    it gone and end, and the fork server with them."""
    spill = short_tmp
    proc = subprocess.Popen([sys.executable, "-m", "stream_chunker", FAST, "--jobs", "2", str(many_pages)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, "TMPDIR": str(spill)})
    assert proc.stdout is not None
    assert readline_within(proc.stdout, CHILD_TIMEOUT)
    workers = _descendants(proc.pid)
    proc.kill()
    proc.wait(timeout=CHILD_TIMEOUT)
    deadline = time.monotonic() + CHILD_TIMEOUT  # only there to turn a hang into a failure
    while _still_running(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _still_running(workers) == []


def test_the_command_line_in_a_shell_pipeline_with_jobs(many_pages, tmp_path):
    script = (f'"{sys.executable}" -m stream_chunker {FAST} --jobs 2 "{many_pages}" 2>"{tmp_path / "err"}" '
              '| head -n 3; echo "status ${PIPESTATUS[0]}"')
    proc = subprocess.run(["bash", "-c", script], capture_output=True, timeout=CHILD_TIMEOUT)
    *lines, status = proc.stdout.decode().splitlines()
    assert [json.loads(line)["doc"] for line in lines] == [str(many_pages / "0.txt")] * 3
    assert status == f"status {EXIT_PIPE_CLOSED}"
    assert (tmp_path / "err").read_bytes() == b""

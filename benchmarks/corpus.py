"""Many documents: documents/s and MB/s of ``--jobs 1``, ``--jobs 2`` and a
Dask LocalCluster of two workers over one corpus, in one run, with the peak
RSS of every worker.

    python -m benchmarks.corpus             # about 10 minutes on 2 idle cores
    python -m benchmarks.corpus --quick     # 60 documents, one round: about 2 minutes

The corpus: ``--documents`` generated policy wordings (``benchmarks/synthetic.py``)
whose page counts are drawn log-uniformly from 5 to 400 (seeded: the same
corpus every run), plus every text of ``../shared/corpus`` when it is there.
It is measured as a user runs it:

- the command line, ``stream-chunker [--jobs N] CORPUS > /dev/null``, a fresh
  process per run, timed from start to exit (pool start-up included), its
  own peak RSS from ``os.wait4``, and its workers' and counting processes'
  from ``/proc/PID/status`` (``VmHWM``), polled every 10 ms; also the most
  disk its spill files held at once;
- Dask: ``chunk_bag(paths)`` on a fresh ``LocalCluster(n_workers=2,
  threads_per_worker=1)``, each record turned into its JSON line as the
  command line does (only their lengths come back), timed from submission to
  the result, the cluster's start excluded; each worker's peak RSS is its
  ``ru_maxrss``.

Each setting runs once a round, ``--rounds`` rounds, and the fastest round
counts (the machine is shared: a slow round is other work, not ours); how
much CPU other processes took during every run is printed beside it. Then a
run of ``--jobs 2`` over small documents only and over large ones only shows
whether a worker's memory follows the size of its documents. The figures go to
``benchmarks/CORPUS_RESULTS.md``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from benchmarks.peak_rss import high_water_kib
from benchmarks.run import machine
from benchmarks.synthetic import generate

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "CORPUS_RESULTS.md"
SHARED = REPO.parent / "shared" / "corpus"
PACKAGES = ("stream-chunker", "tiktoken", "dask", "distributed", "pyarrow")
POLL_SECONDS = 0.01
PAGES = (5, 400)
#: The issue's targets on two cores.
TARGET_JOBS = 1.8
TARGET_DASK = 1.6
#: Runs over two one-line documents: what a run costs before its first document.
STARTUP = ("start-up: --jobs 1 on 2 one-line documents", "start-up: --jobs 2 on 2 one-line documents")


@dataclass
class Run:
    """One measured run."""

    label: str
    seconds: float
    documents: int
    bytes: int
    parent_mib: float
    workers_mib: List[float]
    """Peak RSS of each process that chunked documents (for ``--jobs 1``: the command line itself)."""
    counting_mib: List[float] = field(default_factory=list)
    """Peak RSS of each counting process."""
    spill_mib: float = 0.0
    others_cpu_s: float = 0.0
    """CPU seconds other processes of the machine took meanwhile."""

    @property
    def docs_per_s(self) -> float:
        return self.documents / self.seconds

    @property
    def mb_per_s(self) -> float:
        return self.bytes / 1e6 / self.seconds


# -- the corpus ------------------------------------------------------------------


def build_corpus(folder: Path, documents: int, seed: int = 2026) -> List[Path]:
    """``documents`` generated wordings and the shared corpus's texts, in ``folder``."""
    draw = random.Random(seed)
    low, high = math.log(PAGES[0]), math.log(PAGES[1])
    paths = []
    for i in range(documents):
        pages = round(math.exp(draw.uniform(low, high)))
        path = folder / f"wording-{i:04d}-{pages:03d}p.txt"
        path.write_text(generate(pages=pages, seed=seed + i), encoding="utf-8")
        paths.append(path)
    if SHARED.is_dir():
        for text in sorted(SHARED.rglob("*.txt")):
            if not text.name.endswith((".expected.txt",)):
                paths.append(Path(shutil.copy(text, folder / f"shared-{text.name}")))
    return paths


def uniform_corpus(folder: Path, pages: int, documents: int) -> Path:
    folder.mkdir()
    for i in range(documents):
        (folder / f"{i:03d}.txt").write_text(generate(pages=pages, seed=i), encoding="utf-8")
    return folder


# -- watching processes ----------------------------------------------------------------


def descendants(pid: int) -> List[int]:
    """The living processes below ``pid``, whichever thread started them (a
    Dask nanny starts its worker from its event loop's thread)."""
    found: List[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = [int(c) for c in Path(f"/proc/{parent}/task/{task}/children").read_text().split()]
            except OSError:
                continue
            found += children
            todo += children
    return found


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class Watch:
    """Polls, while a run lasts, the peak RSS of every process below ``root``
    (``VmHWM``), the disk held by spill files under ``spill_dir``, and the
    CPU time of every process not below this one."""

    def __init__(self, root: int, spill_dir: Optional[Path] = None) -> None:
        self.root = root
        self.spill_dir = spill_dir
        self.peaks: Dict[int, int] = {}
        self.kinds: Dict[int, str] = {}
        self.commands: Dict[int, str] = {}
        self.spill_peak = 0
        self.root_peak = 0
        self._others_before = self._others()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _others(self) -> Dict[int, float]:
        ours = {os.getpid(), *descendants(os.getpid())}
        return {int(p): _cpu_seconds(int(p)) for p in os.listdir("/proc") if p.isdigit() and int(p) not in ours}

    def _poll(self) -> None:
        while not self._stop.is_set():
            kib = high_water_kib(self.root)  # exec starts a fresh high-water mark, unlike ru_maxrss
            if kib is not None:
                self.root_peak = max(kib, self.root_peak)
            for pid in descendants(self.root):
                kib = high_water_kib(pid)
                if kib is None:
                    continue
                command = _cmdline(pid)
                if self.commands.get(pid) != command:  # forked, then exec'd: only what came after is its own
                    self.commands[pid], self.kinds[pid], self.peaks[pid] = command, _kind(pid), kib
                self.peaks[pid] = max(kib, self.peaks[pid])
            if self.spill_dir is not None:
                self.spill_peak = max(self.spill_peak, sum(
                    f.stat().st_size for f in self.spill_dir.glob("stream-chunker-*/*") if f.exists()))
            self._stop.wait(POLL_SECONDS)

    def stop(self) -> float:
        """Stop polling; the CPU seconds other processes took meanwhile."""
        self._stop.set()
        self._thread.join()
        after = self._others()
        return sum(max(0.0, seconds - self._others_before.get(pid, 0.0)) for pid, seconds in after.items()
                   if pid in self._others_before)

    def of_kind(self, kind: str) -> List[float]:
        return sorted(round(kib / 1024, 1) for pid, kib in self.peaks.items() if self.kinds.get(pid) == kind)


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


def _kind(pid: int) -> str:
    """What a process below a run is: a counting process, multiprocessing's
    helpers, or a worker (a fork server's child, a Dask worker)."""
    command = _cmdline(pid)
    if "stream_chunker.drivers.counting" in command:
        return "counting"
    if "resource_tracker" in command or "distributed.cli" in command or "nanny" in command:
        return "helper"
    if "multiprocessing.forkserver" in command and "multiprocessing.forkserver" not in _cmdline(_parent(pid)):
        return "helper"  # the fork server itself
    return "worker"


# -- the runs -------------------------------------------------------------------------


def cli_run(label: str, corpus: Path, flags: Sequence[str], scratch: Path) -> Run:
    """``stream-chunker FLAGS CORPUS > /dev/null`` in a fresh process."""
    report = scratch / "report.json"
    spill = scratch / "spill"
    spill.mkdir(exist_ok=True)
    argv = [sys.executable, "-m", "stream_chunker", *flags, "--report", str(report), str(corpus)]
    print("  $", " ".join(argv[1:]), flush=True)
    start = time.perf_counter()
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.Popen(argv, stdout=devnull, env={**os.environ, "TMPDIR": str(spill)})
    watch = Watch(proc.pid, spill)
    # Not os.wait4's ru_maxrss: it counts this process's memory up to the exec.
    status = proc.wait()
    seconds = time.perf_counter() - start
    others = watch.stop()
    if status != 0:
        raise SystemExit(f"{label}: exit status {status}")
    totals = json.loads(report.read_text("utf-8"))["totals"]
    parent = round(watch.root_peak / 1024, 1)
    workers = watch.of_kind("worker") or [parent]  # --jobs 1: the command line chunks
    return Run(label, seconds, totals["documents"], totals["bytes"], parent, workers, watch.of_kind("counting"),
               round(watch.spill_peak / 2**20, 1), others)


def _peak_kib() -> int:
    """A Dask worker's high-water mark (its ru_maxrss would count the
    process it was spawned from, up to the exec)."""
    status = Path("/proc/self/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))


def dask_run(label: str, paths: List[str], options: Dict[str, Any], per_task: int = 1) -> Run:
    """``chunk_bag(paths)`` on a fresh LocalCluster of two worker processes
    (``per_task`` > 1: a bag of the paths, that many a partition)."""
    import dask.bag as db
    from dask.distributed import Client, LocalCluster

    from stream_chunker.dask import chunk_bag

    given = "paths" if per_task == 1 else f"db.from_sequence(paths, partition_size={per_task})"
    print(f"  dask: chunk_bag({given}, {', '.join(f'{k}={v!r}' for k, v in options.items())})"
          ".map(json line).sum().compute() on LocalCluster(n_workers=2, threads_per_worker=1)", flush=True)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.wait_for_workers(2)
        watch = Watch(os.getpid())
        start = time.perf_counter()
        source = paths if per_task == 1 else db.from_sequence(paths, partition_size=per_task)
        lengths = chunk_bag(source, **options).map(
            lambda record: len(json.dumps(record, ensure_ascii=False)) + 1).sum().compute()
        seconds = time.perf_counter() - start
        others = watch.stop()
        workers = sorted(round(kib / 1024, 1) for kib in client.run(_peak_kib).values())
    assert lengths > 0
    size = sum(os.path.getsize(p) for p in paths)
    return Run(label, seconds, len(paths), size, 0.0, workers, watch.of_kind("counting"), 0.0, others)


Setting = Tuple[str, Callable[[], Run]]


def settings(corpus: Path, paths: List[str], scratch: Path) -> List[Tuple[str, List[Setting]]]:
    tiny = scratch / "tiny"
    tiny.mkdir(exist_ok=True)
    for name in ("a.txt", "b.txt"):
        (tiny / name).write_text("1 Cover\nWe cover the house.\n", encoding="utf-8")

    def cli(label: str, *flags: str, folder: Path = corpus) -> Setting:
        return label, lambda: cli_run(label, folder, flags, scratch)

    def dask(label: str, per_task: int = 1, **options: Any) -> Setting:
        return label, lambda: dask_run(label, paths, options, per_task)

    return [
        ("estimate only (--no-real-tokens)", [
            cli("--jobs 1", "--no-real-tokens", "--jobs", "1"),
            cli("--jobs 2", "--no-real-tokens", "--jobs", "2"),
            dask("Dask, 2 workers", real_tokens=False),
            dask("Dask, 2 workers, 16 documents a task", 16, real_tokens=False),
            cli(STARTUP[0], "--no-real-tokens", "--jobs", "1", folder=tiny),
            cli(STARTUP[1], "--no-real-tokens", "--jobs", "2", folder=tiny),
        ]),
        ("real counts (cl100k_base)", [
            cli("--jobs 1 (counting process)", "--jobs", "1"),
            cli("--jobs 1 --no-count-worker", "--jobs", "1", "--no-count-worker"),
            cli("--jobs 2 (workers count in-process: the default)", "--jobs", "2"),
            cli("--jobs 2 --count-worker (a counting process a worker)", "--jobs", "2", "--count-worker"),
            dask("Dask, 2 workers (count in-process: the default)"),
            dask("Dask, 2 workers, count_worker=True", count_worker=True),
            dask("Dask, 2 workers, 16 documents a task", 16),
        ]),
    ]


# -- the report ---------------------------------------------------------------------------


def _mib(values: Sequence[float]) -> str:
    return " / ".join(f"{v:.1f}" for v in values) if values else "–"


def table(runs: Dict[str, List[Run]], baseline: str) -> Tuple[List[str], Dict[str, Run]]:
    best = {label: min(rounds, key=lambda r: r.seconds) for label, rounds in runs.items()}
    lines = ["| setting | documents/s | MB/s | × `--jobs 1` | seconds (rounds) | other processes' CPU s, best round | "
             "peak RSS of each worker, MiB | counting processes, MiB | command line, MiB | spill files at most, MiB |",
             "| --- | ---: | ---: | ---: | --- | ---: | --- | --- | ---: | ---: |"]
    for label, run in best.items():
        rounds = ", ".join(f"{r.seconds:.2f}" for r in runs[label])
        lines.append(f"| {label} | {run.docs_per_s:.1f} | {run.mb_per_s:.2f} | "
                     f"{best[baseline].seconds / run.seconds:.2f} | {rounds} | {run.others_cpu_s:.1f} | "
                     f"{_mib(run.workers_mib)} | {_mib(run.counting_mib)} | "
                     f"{run.parent_mib or '–'} | {run.spill_mib if run.parent_mib else '–'} |")
    return lines, best


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.corpus", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=200, help="generated wordings (default 200)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every setting (default 3)")
    parser.add_argument("--quick", action="store_true", help="60 documents, one round, no size runs")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where the figures go")
    args = parser.parse_args(argv)
    if args.quick:
        args.documents, args.rounds = 60, 1
    started = time.perf_counter()
    command = "python -m benchmarks.corpus " + " ".join(argv if argv is not None else sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="corpus-bench-") as tmp:
        scratch = Path(tmp)
        corpus = scratch / "corpus"
        corpus.mkdir()
        paths = [str(p) for p in build_corpus(corpus, args.documents)]
        size = sum(os.path.getsize(p) for p in paths)
        pages = [int(p.rsplit("-", 1)[1][:-5]) for p in paths if "wording-" in p]
        print(f"corpus: {len(paths)} documents, {size / 1e6:.1f} MB "
              f"({args.documents} generated, {PAGES[0]}-{PAGES[1]} pages, median {statistics.median(pages)}; "
              f"{len(paths) - args.documents} from the shared corpus)", flush=True)
        groups = settings(corpus, sorted(paths), scratch)
        results: Dict[str, Dict[str, List[Run]]] = {name: {label: [] for label, _ in group} for name, group in groups}
        for round_ in range(args.rounds):
            print(f"round {round_ + 1} of {args.rounds}", flush=True)
            for name, group in groups:
                for label, measure in group:
                    run = measure()
                    results[name][label].append(run)
                    print(f"    {run.seconds:.2f} s, {run.docs_per_s:.1f} documents/s, {run.mb_per_s:.2f} MB/s, "
                          f"workers {_mib(run.workers_mib)} MiB, others took {run.others_cpu_s:.1f} CPU s",
                          flush=True)
        sizes: List[Tuple[str, Run, Run]] = []
        if not args.quick:
            print("worker memory against document size", flush=True)
            small = uniform_corpus(scratch / "small", PAGES[0], 40)
            large = uniform_corpus(scratch / "large", PAGES[1], 10)
            huge = uniform_corpus(scratch / "huge", 4000, 2)
            for flags, name in (([ "--no-real-tokens"], "estimate"), ([], "real counts")):
                for folder, what in ((small, f"40 × {PAGES[0]} pages"), (large, f"10 × {PAGES[1]} pages"),
                                     (huge, "2 × 4,000 pages")):
                    run = cli_run(f"--jobs 2, {name}, {what}", folder, [*flags, "--jobs", "2"], scratch)
                    dask = dask_run(f"Dask, {name}, {what}", sorted(str(p) for p in folder.iterdir()),
                                    {"real_tokens": False} if flags else {})
                    sizes.append((f"{name}, {what}", run, dask))
    minutes = (time.perf_counter() - started) / 60
    write_results(args, command, len(paths), size, pages, results, sizes, minutes)
    return 0


def write_results(args: argparse.Namespace, command: str, documents: int, size: int, pages: List[int],
                  results: Dict[str, Dict[str, List[Run]]], sizes: List[Tuple[str, Run, Run]],
                  minutes: float) -> None:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Many documents: `--jobs` and Dask", "",
           f"Produced by `{command.strip()}` on {now} in {minutes:.1f} minutes.", ""]
    out += [f"- {line}" for line in machine(PACKAGES)]
    # On a machine that other sessions share, the scheduler gives each session's
    # group of processes an equal share (autogroups): two workers get no more
    # than one would. Raising this session's group (as root, `echo -10 >
    # /proc/PID/autogroup`) gives the runs most of both cores; the table says
    # what the others still took.
    group = Path("/proc/self/autogroup")
    out.append(f"- Niceness of the runs: {os.nice(0)}; scheduler group: "
               f"{group.read_text().strip() if group.exists() else 'none'}")
    out += ["", f"Corpus: {documents} documents, {size / 1e6:.1f} MB: {args.documents} generated policy wordings "
            f"(`benchmarks/synthetic.py`, {PAGES[0]} to {PAGES[1]} pages drawn log-uniformly, median "
            f"{statistics.median(pages):.0f}), and {documents - args.documents} texts of `../shared/corpus`. "
            "Settings run in rounds, each once a round; the fastest of "
            f"{args.rounds} rounds counts, and the table gives every round's time and the CPU seconds that "
            "other processes of the machine took during the counted one (the machine is shared). "
            "The command line is timed from start to exit, its pool's start included, JSON Lines to "
            "/dev/null; Dask from submission to result on a cluster already up, every record turned into its "
            "JSON line on its worker. MB = 10^6 bytes.", ""]
    targets = []
    for name, runs in results.items():
        baseline = next(label for label in runs if label.startswith("--jobs 1"))
        lines, best = table(runs, baseline)
        out += [f"## {name}", "", *lines, ""]
        jobs2 = next(label for label in runs if label.startswith("--jobs 2"))
        dask = next(label for label in runs if label.startswith("Dask"))
        for label, target in ((jobs2, TARGET_JOBS), (dask, TARGET_DASK)):
            ratio = best[baseline].seconds / best[label].seconds
            targets.append(f"| {name}: {label} ≥ {target}× `{baseline}` | {ratio:.2f}× | "
                           f"{'yes' if ratio >= target else '**no**'} |")
    estimate = next(iter(results.values()))
    fixed = [min(r.seconds for r in estimate[label]) for label in STARTUP]
    serial, parallel = (min(r.seconds for r in estimate[label]) for label in ("--jobs 1", "--jobs 2"))
    targets.append(f"| (estimate only, start-up taken out: (`--jobs 1` − {fixed[0]:.2f} s) ÷ (`--jobs 2` − "
                   f"{fixed[1]:.2f} s), the rate over a long corpus) | {(serial - fixed[0]) / (parallel - fixed[1]):.2f}× | |")
    out += ["## Targets", "", "| target | measured | met |", "| --- | --- | --- |", *targets, ""]
    if sizes:
        out += ["## Worker memory against document size (`--jobs 2`, and Dask)", "",
                "| documents | `--jobs 2` workers, MiB | counting processes, MiB | Dask workers, MiB |",
                "| --- | --- | --- | --- |"]
        out += [f"| {what} | {_mib(run.workers_mib)} | {_mib(run.counting_mib)} | {_mib(dask.workers_mib)} |"
                for what, run, dask in sizes]
        out.append("")
    args.output.write_text("\n".join(out), encoding="utf-8")
    print("\n".join(out))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    sys.exit(main())

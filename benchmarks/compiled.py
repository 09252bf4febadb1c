"""The two builds side by side in one run: the pure-Python package and the
compiled one (README: *A compiled build*), on the synthetic manual at 1x.

    python -m benchmarks.compiled --compiled .venv-compiled/bin/python

Throughput of estimate mode and of real-count mode in each build, beside
tiktoken alone on the same paragraphs and LangChain's ``TokenTextSplitter`` (the
fastest peer), every worker timed once a round as ``benchmarks.run`` takes
them; the command line of each build on the manual at 20x beside tiktoken alone,
as ``benchmarks.run`` measures it; and, when valgrind is installed, the
instructions of one estimate-mode run of each build. It prints a Markdown
report (``benchmarks/COMPILED_RESULTS.md`` holds one).

The pure build and the peers run under this interpreter (the checkout's
sources). The compiled build runs under ``--compiled`` with ``PYTHONSAFEPATH=1``,
so that its installed modules are imported rather than the checkout's sources,
which the current folder would otherwise put first; its venv must find
``benchmarks`` after them, through a ``.pth`` file as ``.ci/run`` writes one.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.run import (CLI_COPIES, ESTIMATE, REAL, REPO, THIS_BUILD, Build, CommandLine, Settings, Speed, _Served,
                            command_line_table, machine, measure_command_line, measure_instructions, table)
from benchmarks.synthetic import write_copies
from benchmarks.worker import TOOLS

OURS = (ESTIMATE, REAL)
PEERS = ("tiktoken", "langchain-token")
TIMEOUT = 300.0
PACKAGES = ("stream-chunker", "mypy", "transitions", "tiktoken", "langchain-text-splitters")


def _check(name: str, build: Build, compiled: bool) -> None:
    """Refuse to measure a build under the other one's name."""
    done = subprocess.run([build[0], "-c", "import stream_chunker; print(stream_chunker.__compiled__)"], cwd=REPO,
                          capture_output=True, text=True, env={**os.environ, **build[1]}, check=False)
    if done.stdout.strip() != str(compiled):
        raise SystemExit(f"the {name} build's interpreter {build[0]} does not load that build "
                         f"(__compiled__: {done.stdout.strip() or done.stderr.strip()})")


def _ratio(ours: Speed, theirs: Speed) -> str:
    return f"{ours.mbps / theirs.mbps:.2f}×" if ours.mbps and theirs.mbps else "—"


def throughput_table(speeds: dict[tuple[str, str], Speed]) -> str:
    """Every build's and peer's MB/s, and ours over each peer."""
    tiktoken, langchain = (speeds["peer", tool] for tool in PEERS)
    rows = [[name, TOOLS[tool].label, f"{speed.mbps:,.2f}" if speed.mbps else speed.error or "", speed.spread,
             *([""] * 2 if name == "peer" else [_ratio(speed, tiktoken), _ratio(speed, langchain)])]
            for (name, tool), speed in speeds.items()]
    return table(["build", "", "MB/s, median", "min–max", "÷ tiktoken alone", "÷ LangChain TokenTextSplitter"],
                 rows, "llrrrr")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compiled", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compiled", required=True, help="the compiled build's python, e.g. .venv-compiled/bin/python")
    parser.add_argument("--repeats", type=int, default=11, help="timed runs of every worker, in rounds (default 11)")
    args = parser.parse_args(argv)
    builds: dict[str, Build] = {"pure Python": THIS_BUILD, "compiled": (args.compiled, {"PYTHONSAFEPATH": "1"})}
    for name, build in builds.items():
        _check(name, build, build is not THIS_BUILD)
    started = datetime.datetime.now(datetime.timezone.utc)
    with tempfile.TemporaryDirectory(prefix="stream-chunker-compiled-") as folder:
        manual = Path(folder) / "manual-1x.txt"
        write_copies(manual)
        served = {(name, tool): _Served(tool, manual, TIMEOUT, build)
                  for name, build in builds.items() for tool in OURS}
        served.update({("peer", tool): _Served(tool, manual, TIMEOUT) for tool in PEERS})
        for round_ in range(args.repeats):
            print(f"# round {round_ + 1} of {args.repeats}", flush=True)
            for worker in served.values():
                worker.run_once()
        speeds = {key: worker.finish() for key, worker in served.items()}
        big = Path(folder) / f"manual-{CLI_COPIES}x.txt"
        write_copies(big, CLI_COPIES)
        settings = Settings(copies=(CLI_COPIES,), repeats=args.repeats, timeout=TIMEOUT, instructions=False)
        command_lines: dict[str, CommandLine] = {name: measure_command_line(big, settings, build)
                                                 for name, build in builds.items()}
        counted = ({name: measure_instructions(ESTIMATE, manual, TIMEOUT, build) for name, build in builds.items()}
                   if shutil.which("valgrind") else {})
    sections = [f"Throughput at 1× ({args.repeats} rounds):", throughput_table(speeds)]
    if counted:
        sections += ["Instructions of one estimate-mode run at 1× (callgrind):",
                     table(["build", "M instructions"], [[name, f"{millions:,.1f}" if millions else "valgrind failed"]
                                                         for name, (_, millions) in counted.items()], "lr")]
    for name, command_line in command_lines.items():
        sections += [f"The command line of the {name} build at {CLI_COPIES}× (whole processes, output to /dev/null):",
                     command_line_table(command_line)]
    command = shlex.join(["python", "-m", "benchmarks.compiled", *(sys.argv[1:] if argv is None else argv)])
    commands = [speed.command for speed in speeds.values()] + [shown for shown, _ in counted.values()]
    commands += [speed.command for command_line in command_lines.values() for speed in command_line.values()]
    report = [f"Produced by `{command}` on {started:%Y-%m-%d %H:%M} UTC.",
              "\n".join(f"- {line}" for line in machine(PACKAGES)), *sections,
              "Commands:\n\n" + "\n".join(f"    {shown}" for shown in commands)]
    print("\n" + "\n\n".join(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

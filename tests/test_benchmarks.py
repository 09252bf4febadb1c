"""The arithmetic the benchmark report draws its conclusions from."""

from __future__ import annotations

import io
import re

from benchmarks.run import ESTIMATE, REAL, Speed, limits_table, targets_table
from benchmarks.skeleton import skeleton_chunks
from benchmarks.synthetic import generate
from benchmarks.worker import TOOLS


def _speeds(**rates: float) -> dict:
    return {key: Speed("", None, rates.get(key, 1.0)) for key in TOOLS}


def _row(table: str, start: str) -> str:
    return next(line for line in table.splitlines() if line.startswith(f"| {start}"))


def test_two_core_bound_and_what_the_chunker_would_need():
    # Chunker 10 MB/s (100 ms a MB), counting 25 MB/s (40 ms): at best 70 ms a MB.
    table = limits_table(_speeds(**{ESTIMATE: 10.0, REAL: 9.0, "tiktoken-chunks": 25.0, "tiktoken": 12.5,
                                    "langchain-token": 20.0, "skeleton": 50.0}))
    assert _row(table, "real-count mode at best").endswith("| 14.3 |")  # 2 / (1/10 + 1/25)
    # For 12.5 MB/s (80 ms a MB, two cores: 160 ms) the chunker may take 120 ms: 8.3 MB/s.
    assert re.search(r"\| 8\.3 MB/s \(0\.83× its speed now\) \|$", _row(table, "the chunker alone would need, for real counts ≥"))
    # For 20 MB/s (100 ms on two cores, 40 of them counting): 16.7 MB/s.
    assert "16.7 MB/s (1.67×" in _row(table, "the chunker alone would need, for real counts >")


def test_a_goal_the_counting_alone_cannot_meet_is_out_of_reach():
    table = limits_table(_speeds(**{ESTIMATE: 10.0, "tiktoken-chunks": 5.0, "tiktoken": 12.0}))
    assert "out of reach on two cores" in _row(table, "the chunker alone would need, for real counts ≥")


def test_the_speed_targets_are_ratios_within_one_run():
    speeds = _speeds(**{ESTIMATE: 12.0, REAL: 10.0, "tiktoken": 10.0, "langchain-token": 8.5})
    counted = {ESTIMATE: ("valgrind ...", 301.0)}
    command_line = {"tiktoken": Speed("", None, 10.0), "estimate": Speed("", None, 10.0),
                    "real counts": Speed("", None, 7.9)}
    table = targets_table(speeds, {}, {"manual": {}}, counted, command_line)
    assert _row(table, "estimate mode ≥ 1.5× the fastest peer").endswith("| **no** |")  # 12 / 8.5 = 1.41
    assert "1.41× (12.0 vs 8.5 MB/s" in _row(table, "estimate mode")
    assert _row(table, "real-count mode ≥ 1.0× tiktoken alone").endswith("| yes |")  # level counts
    assert _row(table, "at most 300 M instructions").endswith("| 301 M | **no** |")
    assert _row(table, "command line at 20×, estimate").endswith("| yes |")
    assert _row(table, "command line at 20×, real counts").endswith("| **no** |")  # 0.79 < 0.8


def test_the_skeleton_packs_under_the_cap_and_keeps_every_word():
    lines = list(io.StringIO(generate(pages=20), newline=""))  # split at line ends only, not at form feeds
    chunks = skeleton_chunks(lines, max_tokens=120)
    assert all(c.tokens <= 120 or "\n" not in c.text for c in chunks)
    heading = re.compile(r"[ \t]*\d+(?:\.\d+)*\.?[ \t]+[A-Z]")
    headings = [line for line in lines if heading.match(line)]
    body = sum(len(line.split()) for line in lines) - sum(len(line.split()) for line in headings)
    assert len(headings) > 10 and len(chunks) > 10
    assert sum(c.words for c in chunks) == body

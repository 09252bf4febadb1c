"""PDFs in directly (issue 15): ``stream_chunker.pdf`` and ``stream-chunker FILE.pdf``.

On the real SFIP forms (``../shared/corpus/insurance``): no running footer in
any chunk, pages as the PDF numbers them, and as many outline rows as the
``pdftotext`` text gives. On PDFs made here with fpdf2: the synthetic manual
(``benchmarks/pdf.py`` prints it as a PDF, 340 pages among them) comes back as
the same chunks as its text; and every PDF that goes wrong -- encrypted,
truncated, scanned, not a PDF at all -- ends with its message and exit status,
never a traceback.
"""

from __future__ import annotations

import functools
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import Chunk, Chunker, ConfigError, chunk_lines
from stream_chunker.drivers.stream import chunk_stream

from .outline_rows import INSURANCE, cited_path, expected_rows, outline_rows_found, rows_in_chunks, squash
from .test_cli import FAST, json_lines, run_main

pytest.importorskip("pypdfium2", reason="the PDF path needs pypdfium2: pip install -e '.[pdf]'")
fpdf = pytest.importorskip("fpdf", reason="fpdf2 makes the test PDFs: pip install -e '.[test]'")

from benchmarks.pdf import write_pdf  # noqa: E402  (needs fpdf2)
from stream_chunker.pdf import Page, chunk_pdf, pdf_batches, pdf_pages  # noqa: E402

PDFTOTEXT = shutil.which("pdftotext")
needs_pdftotext = pytest.mark.skipif(
    PDFTOTEXT is None, reason="pdftotext not found: install poppler-utils (apt-get install poppler-utils)")
BACKENDS = ["pdfium", pytest.param("pdftotext", marks=needs_pdftotext)]
TIMEOUT = 120  # seconds; only there to turn a hang into a failure

#: The two SFIP forms and their numbered pages (the cover and a blank page come first).
FORMS = {"sfip-dwelling-2021": 30, "sfip-general-property-2021": 27}
FOOTER = re.compile(r"NFIP (?:DWELLING|GENERAL PROPERTY) FORM SFIP|PAGE \d+ OF \d+")
PAGE_NUMBER = re.compile(r"PAGE (\d+) OF \d+")


@functools.lru_cache(maxsize=None)
def chunked(pdf: Path, backend: str = "pdfium", layout: bool = False) -> Tuple[Tuple[Chunk, ...], Tuple[dict, ...]]:
    """The chunks of a PDF and the diagnostics noted on the way."""
    diagnostics: List[dict] = []
    chunks = tuple(chunk_pdf(pdf, backend=backend, layout=layout, real_tokens=False,
                             on_diagnostic=diagnostics.append))
    return chunks, tuple(diagnostics)


@pytest.fixture(params=sorted(FORMS))
def form(request: pytest.FixtureRequest) -> str:
    if not (INSURANCE / f"{request.param}.pdf").is_file():
        pytest.skip(f"the SFIP forms are absent from {INSURANCE} (../shared/corpus beside the repository)")
    return str(request.param)


# -- the real SFIP forms -----------------------------------------------------

def test_no_running_footer_in_any_chunk(form):
    chunks, diagnostics = chunked(INSURANCE / f"{form}.pdf")
    assert chunks
    leaked = [c.id for c in chunks if FOOTER.search(c.text)]
    assert not leaked, f"the running footer is in chunks {leaked}"
    # ... because it was taken out on every numbered page, as furniture.
    numbered = {int(m.group(1)) for d in diagnostics if d["kind"] == "furniture"
                for m in [PAGE_NUMBER.search(d["text"])] if m}
    assert numbered == set(range(1, FORMS[form] + 1))


@needs_pdftotext
def test_pages_of_chunks_are_the_pages_of_the_pdf(form):
    """Lines that occur once in the form, read from pdftotext's own text of
    each page, are in a chunk whose pages hold that page."""
    pdf = INSURANCE / f"{form}.pdf"
    printed = subprocess.run([PDFTOTEXT, str(pdf), "-"], capture_output=True, check=True,
                             timeout=TIMEOUT).stdout.decode("utf-8").split("\f")
    whole = squash(" ".join(printed))
    probes = [(number, squash(line)) for number, page in enumerate(printed, start=1)
              for line in page.split("\n")
              if len(line.split()) >= 6 and not FOOTER.search(line) and "\xad" not in line
              and not line.rstrip().endswith("-") and whole.count(squash(line)) == 1]
    chunks, _ = chunked(pdf)
    found = 0
    for number, probe in probes:
        holders = [c for c in chunks if probe in squash(c.text)]
        if len(holders) == 1:  # (a line the other column interleaves with in pdftotext may be twice)
            found += 1
            assert holders[0].pages[0] <= number <= holders[0].pages[1], (probe, holders[0].id, holders[0].pages)
    assert len({number for number, _ in probes}) == FORMS[form]  # every numbered page probed
    assert found >= 0.9 * len(probes)  # the rest: lines the two extractors break differently


def test_outline_score_counts_a_row_by_each_rule():
    def chunk(clause: Optional[str], text: str) -> Chunk:
        return Chunk(id=clause or "front", clause=clause, heading_path="", text=text, words=len(text.split()),
                     tokens=0, real_tokens=None, citation=None, lines=(1, 1), pages=(1, 1), oversize=False)

    rows = [(("III",), "III.", "PROPERTY INSURED"), (("III", "A"), "A.", "Coverage A"),
            (("III", "A", "1"), "1.", "The dwelling"), (("III", "A", "2"), "2.", "Additions and"),
            (("III", "B", "(1)"), "(1)", "Only while")]
    chunks = [chunk("III.A.1", "The dwelling at the described location"),  # by its path; and below A and III
              chunk("III.A", "Coverage A\n2. Additions and extensions"),   # 2 held by its parent
              chunk(None, "(1) Only while such work is in progress")]      # not cited: not found
    assert outline_rows_found(rows, chunks) == 4
    assert rows_in_chunks(rows, chunks) == 2  # "2. Additions and", "(1) Only while"
    assert cited_path("III.C.2.a(1)(a)(i)") == cited_path("III.C.2.a.(1).(a).(i)") == \
        ("III", "C", "2", "a", "(1)", "(a)", "(i)")


def test_finds_as_many_outline_rows_as_the_pdftotext_text(form):
    """The PDF path keeps what the pdftotext text gives the chunker, within 2 %
    of the rows of ``expected.tsv``: the rows found by their citation, and the
    rows whose label and first words reach a chunk (``test_outline`` holds the
    PDF path to 95 %)."""
    rows = expected_rows(form)
    text = (INSURANCE / f"{form}.txt").read_text(encoding="utf-8").split("\n")
    from_text = list(chunk_lines(text, real_tokens=False))
    from_pdf, _ = chunked(INSURANCE / f"{form}.pdf")
    margin = 0.02 * len(rows)
    assert outline_rows_found(rows, from_pdf) >= outline_rows_found(rows, from_text) - margin
    assert rows_in_chunks(rows, from_pdf) >= rows_in_chunks(rows, from_text) - margin


@needs_pdftotext
@pytest.mark.parametrize("layout", [False, True], ids=["raw", "layout"])
def test_pdftotext_backend_gives_the_chunks_of_the_pdftotext_pipe(form, layout):
    """``--pdf-backend pdftotext`` is ``pdftotext -raw FILE - | stream-chunker``
    (``-layout`` with ``--layout``), page by page: -raw, as the default mode
    prints a two-column page's blocks out of order."""
    pdf = INSURANCE / f"{form}.pdf"
    chunker = Chunker(real_tokens=False)
    args = [PDFTOTEXT, "-layout" if layout else "-raw", str(pdf), "-"]
    with subprocess.Popen(args, stdout=subprocess.PIPE) as extract:
        assert extract.stdout is not None
        piped = [c for batch in chunk_stream(chunker, extract.stdout) for c in batch]
    chunks, _ = chunked(pdf, "pdftotext", layout)
    assert list(chunks) == piped


# -- the synthetic manual as a PDF -------------------------------------------

@settings(max_examples=10)  # each example writes and reads a PDF
@given(pages=st.integers(min_value=3, max_value=14), seed=st.integers(min_value=0, max_value=10_000))
def test_the_manual_as_a_pdf_gives_the_chunks_of_its_text(pages, seed):
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "manual.pdf"
        text = write_pdf(pdf, pages, seed)
        from_pdf = [c.to_dict() for c in chunk_pdf(pdf, real_tokens=False)]
    assert from_pdf == [c.to_dict() for c in chunk_lines(io.StringIO(text), real_tokens=False)]


@pytest.fixture(scope="module")
def manual_340(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, str]:
    path = tmp_path_factory.mktemp("manual") / "manual-340.pdf"
    return path, write_pdf(path, 340)


def test_a_340_page_pdf_gives_the_chunks_of_its_text(manual_340):
    path, text = manual_340
    diagnostics: List[dict] = []
    chunker = Chunker(real_tokens=False, on_diagnostic=diagnostics.append)
    chunks = [c for batch in pdf_batches(chunker, path) for c in batch]
    assert [c.to_dict() for c in chunks] == [c.to_dict() for c in chunk_lines(io.StringIO(text), real_tokens=False)]
    assert chunker.report["pages"] == 340 and chunks[-1].pages[1] == 340
    header = text.split("\n", 1)[0]
    furniture = [d["text"] for d in diagnostics if d["kind"] == "furniture"]
    assert furniture.count(header) == 340
    assert sum(bool(re.fullmatch(r"Page \d+ of 340", line)) for line in furniture) == 340
    assert not any(header in c.text or re.search(r"Page \d+ of 340", c.text) for c in chunks)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pdf_is_read_a_page_at_a_time(manual_340, backend):
    """The first chunk comes out after a few of the 340 pages are read."""
    path, _ = manual_340
    pages_read: List[Page] = []
    chunks = chunk_pdf(path, backend=backend, real_tokens=False, progress=pages_read.append)
    assert next(chunks).id == "front"
    assert 1 <= len(pages_read) <= 5
    assert [page.number for page in pages_read] == list(range(1, len(pages_read) + 1))
    assert all(page.count == (340 if backend == "pdfium" else None) for page in pages_read)
    chunks.close()


def test_pdfium_line_ends_and_hyphen_marks_do_not_reach_chunks(form):
    """PDFium ends lines with "\r\n" and marks a word it joined at a line-end
    hyphen with U+FFFE; the chunks have neither, and the word whole."""
    chunks, _ = chunked(INSURANCE / f"{form}.pdf")
    assert not any("\r" in c.text or "\ufffe" in c.text for c in chunks)
    assert any("base flood elevation" in squash(c.text) for c in chunks)


# -- PDFs that go wrong --------------------------------------------------------

PASSWORD = "s3cret"
PAGE_TEXTS = {1: "1 Cover\nWe cover the house against storm and flood.",
              3: "2 Claims\nTell us about a claim as soon as you can."}


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of small PDFs, each with something the matter."""
    from PIL import Image, ImageDraw

    folder = tmp_path_factory.mktemp("pdfs")
    scan = io.BytesIO()
    image = Image.new("L", (400, 200), 255)
    ImageDraw.Draw(image).rectangle((40, 40, 360, 160), fill=0)  # what a scanner sees: pixels, no text
    image.save(scan, "PNG")

    def write(name: str, pages: Sequence[str], password: Optional[str] = None) -> bytes:
        pdf = fpdf.FPDF()
        pdf.set_font("Helvetica", size=12)
        if password is not None:
            pdf.set_encryption(owner_password="owner", user_password=password)
        for page in pages:
            pdf.add_page()
            if page == "scan":
                pdf.image(scan, x=20, y=20, w=160)
            elif page:
                pdf.multi_cell(0, 6, page)
        data = bytes(pdf.output())
        (folder / name).write_bytes(data)
        return data

    text_pages = [PAGE_TEXTS[1], "", PAGE_TEXTS[3]]
    whole = write("plain.pdf", text_pages)
    (folder / "truncated.pdf").write_bytes(whole[: len(whole) // 2])
    write("encrypted.pdf", text_pages, PASSWORD)
    write("scanned-page.pdf", [PAGE_TEXTS[1], "scan", PAGE_TEXTS[3]])
    write("scanned.pdf", ["scan", "scan"])
    (folder / "not-a.pdf").write_text("<!DOCTYPE html><html><body>404 Not Found</body></html>\n")
    return folder


FAILURES = [
    # file, options, exit status, what the message must say
    ("encrypted.pdf", [], 1, ["encrypted", "--password"]),
    ("encrypted.pdf", ["--password", "wrong"], 1, ["--password", "does not open"]),
    ("truncated.pdf", [], 1, ["damaged or truncated"]),
    ("scanned.pdf", [], 1, ["no page of this PDF has a text layer", "OCR"]),
    ("not-a.pdf", [], 1, ["not a PDF", "%PDF-"]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, options, status, says", FAILURES,
                         ids=["encrypted", "wrong-password", "truncated", "all-scanned", "not-a-pdf"])
def test_a_pdf_that_goes_wrong_ends_with_its_message_and_status(pdfs, backend, name, options, status, says,
                                                                 capsys, monkeypatch):
    code, out, err = run_main([FAST, "--pdf-backend", backend, *options, str(pdfs / name)], capsys, monkeypatch)
    assert (code, out) == (status, "")
    assert err.startswith(f"stream-chunker: {pdfs / name}: ") and len(err.splitlines()) == 1  # no traceback
    for words in says:
        assert words in err


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_encrypted_pdf_opens_with_its_password(pdfs, backend, capsys, monkeypatch):
    code, out, err = run_main([FAST, "--pdf-backend", backend, "--password", PASSWORD, str(pdfs / "encrypted.pdf")],
                              capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert [(c["id"], squash(c["text"]), c["pages"]) for c in json_lines(out)] == [
        ("1", "We cover the house against storm and flood.", [1, 1]),
        ("2", "Tell us about a claim as soon as you can.", [3, 3])]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_page_with_no_text_layer_is_noted_and_the_rest_chunked(pdfs, backend, tmp_path, capsys, monkeypatch):
    why, report = tmp_path / "why.jsonl", tmp_path / "report.json"
    code, out, err = run_main([FAST, "--pdf-backend", backend, "--diagnostics", str(why), "--report", str(report),
                               str(pdfs / "scanned-page.pdf")], capsys, monkeypatch)
    assert code == 0
    chunks = json_lines(out)
    assert [(c["id"], c["pages"]) for c in chunks] == [("1", [1, 1]), ("2", [3, 3])]
    (event,) = [e for e in json_lines(why.read_text("utf-8")) if e["kind"] == "no_text_layer"]
    assert event["page"] == 2 and chunks[0]["lines"][1] < event["line"] <= chunks[1]["lines"][0]
    assert json.loads(report.read_text("utf-8"))["diagnostics"]["no_text_layer"] == 1
    assert "1 page(s) with no text layer" in err and "OCR" in err


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_blank_page_is_not_a_scan(pdfs, backend):
    chunks, diagnostics = chunked(pdfs / "plain.pdf", backend)
    assert [(c.id, c.pages) for c in chunks] == [("1", (1, 1)), ("2", (3, 3))]
    assert not [d for d in diagnostics if d["kind"] == "no_text_layer"]


@needs_pdftotext
def test_without_pdfimages_pdftotext_cannot_tell_a_blank_page_from_a_scan(pdfs, tmp_path, monkeypatch):
    (tmp_path / "pdftotext").symlink_to(PDFTOTEXT)
    monkeypatch.setenv("PATH", str(tmp_path))  # pdftotext, and no pdfimages
    diagnostics: List[dict] = []
    chunks = list(chunk_pdf(pdfs / "plain.pdf", backend="pdftotext", real_tokens=False,
                            on_diagnostic=diagnostics.append))
    assert [(c.id, c.pages) for c in chunks] == [("1", (1, 1)), ("2", (3, 3))]
    assert [d["page"] for d in diagnostics if d["kind"] == "no_text_layer"] == [2]


def test_layout_is_a_mode_of_pdftotext_only(pdfs, capsys, monkeypatch):
    code, out, err = run_main([FAST, "--layout", str(pdfs / "plain.pdf")], capsys, monkeypatch)
    assert (code, out) == (2, "") and "pdftotext" in err
    with pytest.raises(ConfigError):
        pdf_pages(pdfs / "plain.pdf", backend="xpdf")


def test_without_pypdfium2_the_message_says_how_to_install_it(pdfs, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pypdfium2", None)  # what an import of a missing package meets
    code, out, err = run_main([FAST, str(pdfs / "plain.pdf")], capsys, monkeypatch)
    assert (code, out) == (1, "")
    assert "pip install pypdfium2 (the [pdf] extra)" in err


def test_without_pdftotext_the_message_says_how_to_install_it(pdfs, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(pdfs))  # no pdftotext there
    code, out, err = run_main([FAST, "--pdf-backend", "pdftotext", str(pdfs / "plain.pdf")], capsys, monkeypatch)
    assert (code, out) == (1, "")
    assert "poppler-utils" in err


def test_a_bar_of_pages_on_request(pdfs, capsys, monkeypatch):
    code, out, err = run_main([FAST, "--progress", str(pdfs / "plain.pdf")], capsys, monkeypatch)
    assert code == 0 and len(json_lines(out)) == 2
    assert "page/s" in err and "B/s" not in err


def test_a_side_heading_in_a_column_of_its_own_heads_its_text(tmp_path):
    """``When we will pay`` in a left column, its text beside it in the
    body's face: the column sets it apart (a hanging term), again in every
    section; a table's row, with more than one column and figures, is not."""
    pdf = fpdf.FPDF()
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    pdf.multi_cell(0, 5, "This wording and your schedule make up your contract with us. " * 40,
                   new_x="LMARGIN", new_y="NEXT")
    for number, cover in ((1, "ACCIDENTAL DEATH"), (2, "MEDICAL EXPENSES")):
        pdf.ln(4)
        pdf.set_font("Helvetica", "B", 10)
        pdf.cell(0, 6, f"SECTION {number} - {cover}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 10)
        for label, text in (("When we will pay", f"If you suffer an injury on a trip we pay benefit {number}."),
                            ("What we will pay", f"We pay the sum insured for section {number} in full.")):
            y = pdf.get_y()
            pdf.set_xy(10, y)
            pdf.cell(40, 5, label)
            pdf.set_xy(60, y)
            pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
        y = pdf.get_y()
        for x, cell in ((10, "Loss of one eye"), (60, "50% of the sum"), (110, "100% of the sum")):
            pdf.set_xy(x, y)
            pdf.cell(40, 5, cell)
        pdf.ln(5)
    path = tmp_path / "side-headings.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    found = {(c.clause, c.heading_path.split(" > ")[-1]) for c in chunks if "trip" in c.text or "full" in c.text}
    assert found == {("1", "When we will pay"), ("1", "What we will pay"),
                     ("2", "When we will pay"), ("2", "What we will pay")}
    assert not any(c.heading_path.endswith("Loss of one eye") for c in chunks)


def test_a_term_in_bold_between_quotes_heads_its_definition(tmp_path):
    """``"Data" means …``: the term alone is bold, its quotes are not."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    pdf.multi_cell(0, 5, "This wording and your schedule make up your contract with us. " * 40,
                   new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "B", 12)
    pdf.cell(0, 8, "DEFINITIONS", new_x="LMARGIN", new_y="NEXT")
    for term, meaning in (("Data", "information or concepts in any form."), ("Spouse", "the person you live with.")):
        pdf.set_font("Helvetica", "", 10)
        pdf.write(5, '"')
        pdf.set_font("Helvetica", "B", 10)
        pdf.write(5, term)
        pdf.set_font("Helvetica", "", 10)
        pdf.write(5, f'" means {meaning}')
        pdf.ln(6)
    path = tmp_path / "quoted-terms.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    assert [c.heading_path for c in chunks if "means" in c.text] == ["DEFINITIONS > Data", "DEFINITIONS > Spouse"]


DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
LIGHT_FACE, REGULAR_FACE = DEJAVU / "DejaVuSans-ExtraLight.ttf", DEJAVU / "DejaVuSans.ttf"
DEFINITIONS = (("accidental", ", ", "accident", "means a sudden and unexpected event."),
               ("flood", "", "", "means water escaped from a river or a lake."),
               ("we", " or ", "us", "means the insurer named in your schedule."))


@pytest.mark.skipif(not (LIGHT_FACE.exists() and REGULAR_FACE.exists()),
                    reason="needs the DejaVu Sans faces (Debian fonts-dejavu-core and fonts-dejavu-extra)")
def test_a_light_body_makes_its_regular_weight_the_emphasis(tmp_path):
    """A wording set in a light face marks its terms in the regular one, not in
    bold; its terms are in lower case, and some have two names (``accidental,
    accident``), joined in the light face."""
    pdf = fpdf.FPDF()
    pdf.add_font("Light", "", str(LIGHT_FACE))
    pdf.add_font("Regular", "", str(REGULAR_FACE))
    pdf.add_page()
    pdf.set_font("Light", "", 10)
    pdf.multi_cell(0, 5, "This wording and your schedule make up your contract with us. " * 30,
                   new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Regular", "", 16)
    pdf.cell(0, 9, "Definitions", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Light", "", 10)
    pdf.multi_cell(0, 5, "Some words have special meanings in this wording.", new_x="LMARGIN", new_y="NEXT")
    for first, joiner, second, meaning in DEFINITIONS:
        pdf.set_font("Regular", "", 10)
        pdf.write(5, first)
        if second:
            pdf.set_font("Light", "", 10)
            pdf.write(5, joiner)
            pdf.set_font("Regular", "", 10)
            pdf.write(5, second)
        pdf.set_font("Light", "", 10)
        pdf.write(5, f" {meaning}")
        pdf.ln(7)
    path = tmp_path / "light-body.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    assert [c.heading_path for c in chunks if "means" in c.text] == [
        "Definitions > accidental, accident", "Definitions > flood", "Definitions > we or us"]


def test_a_title_set_large_with_wide_leading_is_one_block(tmp_path):
    """A heading in large type wrapped onto a second line is set with a leading
    as much larger as its type (its lines 1.6 sizes apart): no paragraph break
    parts its lines, and it is one heading, not two."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    pdf.multi_cell(0, 5, "This wording and your schedule make up your contract with us. " * 20,
                   new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    for title, text in (("Section II - Family Liability And Guest Medical", "We pay for harm you cause to others."),
                        ("Section III - Optional Protection Of Your Home And", "We pay for the options you choose.")):
        pdf.set_font("Helvetica", "B", 16)
        pdf.multi_cell(0, 9.2, f"{title}\nProtection", new_x="LMARGIN", new_y="NEXT")  # (26 points apart)
        pdf.set_font("Helvetica", "", 10)
        pdf.multi_cell(0, 5, f"{text} " * 6, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
    path = tmp_path / "wide-leading.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    assert [c.heading_path for c in chunks if "We pay" in c.text] == [
        "Family Liability And Guest Medical Protection", "Optional Protection Of Your Home And Protection"]


def test_a_page_title_drawn_after_its_body_and_before_a_slug_is_read_first(tmp_path):
    """Some booklets and forms draw each page's title (and a line under it) after
    the page's text, a running header first and a printer's slug below the page
    last: the title still heads the page."""
    pdf = fpdf.FPDF()
    for title, text in (("Buildings conditions", "You must keep the buildings in good repair."),
                        ("Contents conditions", "You must keep the contents in good repair.")):
        pdf.add_page()
        pdf.set_font("Helvetica", "", 8)
        pdf.text(20, 10, f"Agency Code 06-0883-00 Policy Number 54-835-{pdf.page_no()}")  # drawn first, at the top
        pdf.set_font("Helvetica", "", 10)
        for n in range(12):
            pdf.text(20, 60 + 6 * n, f"{text} Line {n + 1} of the conditions of this section.")
        pdf.set_font("Helvetica", "B", 20)
        pdf.text(20, 30, title)
        pdf.set_font("Helvetica", "", 10)
        pdf.text(20, 40, "This endorsement modifies the insurance under the policy.")  # under the title, drawn last
        pdf.set_font("Helvetica", "", 6)
        pdf.text(20, 290, f"AV1122350_BHHHG15133_0724.indd {pdf.page_no()}")
    path = tmp_path / "titles-drawn-last.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    assert [c.heading_path for c in chunks if "good repair" in c.text] == ["Buildings conditions", "Contents conditions"]


def test_a_bullet_set_small_in_a_symbol_font_keeps_its_item_in_one_paragraph(tmp_path):
    """A bullet from a symbol font, set smaller than the text and raised (as
    UK booklets set their squares), has a box of its own glyph's height: the
    line it starts still sits on its text's baseline, and the item's next line
    goes on its paragraph."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 9)
    for n in range(30):
        pdf.text(20, 20 + 4 * n, f"We will help you with your claim as quickly as we can, line {n + 1}.")
    pdf.set_font("Helvetica", "B", 12)
    pdf.text(20, 146, "What you must do after")
    pdf.text(20, 151, "making your claim")
    y = 157
    for first, second in (("If we ask, you must send us written", "details of your claim within 30 days."),
                          ("Provide us with full details in writing", "as soon as possible.")):
        pdf.set_font("ZapfDingbats", "", 4)
        pdf.text(20, y - 1, "n")
        pdf.set_font("Helvetica", "", 9)
        pdf.text(23, y, first)
        pdf.text(23, y + 4, second)
        y += 8
    path = tmp_path / "bullets.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    (items,) = [c for c in chunks if "If we ask" in c.text]
    assert items.heading_path == "What you must do after making your claim"
    assert "Provide us with full details in writing as soon as possible." in items.text


def test_a_page_title_drawn_last_under_a_tab_and_over_a_page_number_drawn_first(tmp_path):
    """A booklet's page drawn as its number at the foot, the section's name on
    its tab at the top in small type, the body, and last the page's title
    between the tab and the body: the title heads the body."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 7)
    pdf.text(100, 290, "Page 33")
    pdf.text(150, 12, "Losses we don't cover")
    pdf.set_font("Helvetica", "", 10)
    for n in range(14):
        pdf.text(20, 50 + 6 * n, f"We won't cover loss or damage of the kind this line names, number {n + 1}.")
    pdf.set_font("Helvetica", "B", 20)
    pdf.text(20, 35, "Losses we don't cover")
    path = tmp_path / "title-under-a-tab.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    assert {c.heading_path for c in chunks if "number 1." in c.text or "number 14." in c.text} == {
        "Losses we don't cover"}


def test_a_title_drawn_last_in_a_column_of_its_own_heads_the_body_beside_it(tmp_path):
    """A booklet's page draws its two-line running header, then the section's
    two columns, and last its title in large type in a narrow column of its
    own to their left, level with their top: the title is read after the
    header and before the body, so it heads the section."""
    header = ("Business Travel Insurance", "Policy Wording and Product Disclosure Statement")
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 8)
    for n, words in enumerate(header):
        pdf.text(75, 12 + 4 * n, words)
    pdf.set_font("Helvetica", "", 9)
    for column, x in ((0, 75), (1, 140)):
        for n in range(30):
            pdf.text(x, 100 + 5 * n, f"Cover {column + 1}, line {n + 1}: we pay it.")
    pdf.set_font("Helvetica", "", 20)
    for n, words in enumerate(("Section 12 -", "Political and", "Natural Disaster", "Evacuation")):
        pdf.text(12, 100 + 9 * n, words)
    path = tmp_path / "title-beside.pdf"
    pdf.output(str(path))
    (page,) = pdf_pages(path)
    lines = [line for line in page.text.split("\n") if line.strip()]
    assert lines[:6] == [*header, "Section 12 -", "Political and", "Natural Disaster", "Evacuation"]
    chunks, _ = chunked(path)
    assert {c.heading_path for c in chunks if "Cover 2, line 30" in c.text} == {
        "Political and Natural Disaster Evacuation"}


def test_a_section_title_printed_again_atop_its_second_page_is_its_running_header(tmp_path):
    """Each section of a booklet runs over two pages: its title set large atop
    the first, printed again in small type atop the second. Seen once, not at
    the three page edges a running header needs, the copy is still furniture:
    it echoes the title just kept, in a smaller style."""
    pdf = fpdf.FPDF()
    titles = ("Claims conditions", "How we settle claims", "General exclusions")
    for title in titles:
        for half in ("first", "second"):
            pdf.add_page()
            if half == "first":
                pdf.set_font("Helvetica", "B", 18)
                pdf.text(20, 20, title)
            else:
                pdf.set_font("Helvetica", "", 8)
                pdf.text(20, 10, title)
            pdf.set_font("Helvetica", "", 10)
            for n in range(30):
                pdf.text(20, 35 + 6 * n, f"The {half} page of this section says what applies, line {n + 1}.")
    path = tmp_path / "running-titles.pdf"
    pdf.output(str(path))
    chunks, diagnostics = chunked(path)
    assert not [c.id for c in chunks if any(title in c.text for title in titles)]
    assert {c.heading_path for c in chunks} == set(titles)
    assert sorted(d["text"] for d in diagnostics if d["kind"] == "furniture" and d["text"] in titles) == sorted(titles)


EVENTS = (("1.", "Fire, excluding damage caused by", (("a.", "explosion resulting from fire"),
                                                     ("b.", "earthquake or subterranean fire"))),
          ("2.", "Storm, excluding damage caused by", (("a.", "flood whether resulting from storm"),
                                                      ("b.", "frost, subsidence or ground heave"))))


def _drawn_by_layer(path: Path, columns: bool = False) -> None:
    """A page of events drawn as some generators draw it: the sub-items' text
    at its indent, then their letters, then the items' text, then their
    numbers; with ``columns``, a second column of text beside it."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    rows, y = [], 30.0
    for number, text, subs in EVENTS:
        rows.append((y, 10, number, 18, text))
        for letter, sub in subs:
            y += 6
            rows.append((y, 18, letter, 25, sub))
        y += 9
    pdf.text(10, 20, "Events")
    for indent in (25, 18):  # the texts of one indent, then the labels before them
        for row_y, label_x, label, text_x, text in rows:
            if text_x == indent:
                pdf.text(text_x, row_y, text)
        for row_y, label_x, label, text_x, text in rows:
            if text_x == indent:
                pdf.text(label_x, row_y, label)
    if columns:
        for n in range(8):
            pdf.text(120, 30 + 6 * n, f"Right column line {n + 1} of the page.")
    pdf.output(str(path))


def test_a_page_drawn_by_layer_is_read_by_position(tmp_path):
    """Labels drawn after their text, far from it in the draw order, sit on
    its baseline a space away: the page is read top to bottom, each label
    joined to its text, so the outline is the one printed."""
    path = tmp_path / "by-layer.pdf"
    _drawn_by_layer(path)
    chunks, _ = chunked(path)
    text = " ".join(c.text for c in chunks)
    expected = [f"{label} {words}" for number, item, subs in EVENTS
                for label, words in ((number, item), *subs)]
    assert [text.find(line) for line in expected] == sorted(text.find(line) for line in expected)
    assert all(text.find(line) >= 0 for line in expected)
    assert {c.clause for c in chunks} >= {"1", "2"}


def _scaled_text_pdf(path: Path, runs: Sequence[Tuple[float, float, str]]) -> None:
    """A one-page PDF that draws each run ``(x, y, text)`` as its own text
    object in Helvetica at 50 points scaled by 0.2, as some generators do."""
    content = b"".join(b"BT /F1 50 Tf 0.2 0 0 0.2 %.1f %.1f Tm (%s) Tj ET\n" % (x, y, text.encode("latin-1"))
                       for x, y, text in runs)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>"
               b" /Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    table = b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"xref\n0 %d\n0000000000 65535 f \n%strailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, table, len(objects) + 1, len(out))
    path.write_bytes(out)


def test_two_lines_pdfium_runs_together_are_read_apart(tmp_path):
    """PDFium may run a line on into the next (``autos. 4. Non-Owned Trailer
    Physical Damage``) where each word is a text object of its own, scaled:
    the line is cut where its characters move down a line and back to the
    margin, so item 4 opens on its own line and ``autos.`` ends item 3."""
    runs: List[Tuple[float, float, str]] = []
    y = 700.0
    for number, title in ((1, "Supplementary Payments"), (2, "Waiver of Deductible"), (3, "Deductible")):
        runs += [(72, y, f"{number}. "), (90, y, title)]
        for n in range(3):
            y -= 11
            runs.append((90, y, f"This item's text goes on over line {n + 1} of three for the "))
        y -= 11
        runs.append((90, y, "covered "))
        runs.append((120, y, "autos"))
        runs.append((141.6, y, ". "))
        y -= 11
    runs += [(72, y, "4. "), (90, y, "Non-Owned Trailer Physical Damage")]
    for n in range(3):
        y -= 11
        runs.append((90, y, f"Trailers you do not own are covered, line {n + 1} of three. "))
    path = tmp_path / "run-together.pdf"
    _scaled_text_pdf(path, runs)
    pages = list(pdf_pages(path))
    assert "autos . 4." not in pages[0].text and "\n4. Non-Owned Trailer Physical Damage\n" in pages[0].text
    chunks, _ = chunked(path)
    assert [c.clause for c in chunks] == ["1", "2", "3", "4"]
    assert chunks[2].text.endswith("covered autos.") and chunks[3].heading_path == "Non-Owned Trailer Physical Damage"


def test_text_set_on_its_side_stays_one_line(tmp_path):
    """A form's reference printed up or down the margin drops (or rises) a
    little at every character: no word of it starts a line of its own."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 9)
    for n in range(20):
        pdf.text(30, 30 + 5 * n, f"Body line {n + 1} of the policy wording, set in the body type.")
    for angle, x in ((90, 200), (-90, 10)):
        with pdf.rotation(angle, x, 150):
            pdf.set_font("Helvetica", "B", 8)
            pdf.text(x, 150, "Policy wording")
            pdf.set_font("Helvetica", "", 6)
            pdf.text(x + 22, 150, "ref ABC edition two thousand")
    path = tmp_path / "on-its-side.pdf"
    pdf.output(str(path))
    (page,) = pdf_pages(path)
    assert page.text.count("Policy wording ref ABC edition two thousand\n") == 2


def test_a_running_header_beside_the_page_title_is_read_apart_from_it(tmp_path):
    """``Section 1: Liability continued`` in small type at the page's top left,
    ``Section 2: Fire and theft`` in large bold on its baseline further right:
    PDFium gives one line of mixed styles, which is cut where the two pieces
    stand far apart in different sizes, so the title heads its section."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 7)
    pdf.text(15, 20, "Section 1: Liability continued")
    pdf.set_font("Helvetica", "B", 14)
    pdf.text(75, 20.5, "Section 2: Fire and theft")
    pdf.set_font("Helvetica", "", 9)
    for n in range(24):
        pdf.text(75, 30 + 5 * n, f"We will pay for loss or damage to your car by fire, line {n + 1}.")
    path = tmp_path / "header-beside-title.pdf"
    pdf.output(str(path))
    (page,) = pdf_pages(path)
    assert "Section 1: Liability continued\nSection 2: Fire and theft\n" in page.text
    chunks, _ = chunked(path)
    (last,) = [c for c in chunks if "line 24." in c.text]
    assert (last.clause, last.heading_path) == ("2", "Fire and theft")


def test_a_right_column_drawn_before_the_left_is_read_after_it(tmp_path):
    """A page that draws its right column, then its left, then its footer:
    the left column is read first, and the footer stays at the page's foot,
    so the definitions run 3.1 to 3.12 in order, each its own clause."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 12)
    pdf.text(15, 15, "3. DEFINITIONS")
    pdf.set_font("Helvetica", "", 9)
    for column, x in ((1, 110), (0, 15)):
        for n in range(6):
            y = 30 + 24 * n
            pdf.text(x, y, f"3.{6 * column + n + 1}. Term {6 * column + n + 1} means what this line and")
            pdf.text(x, y + 5, "the next two say of it, in full and at")
            pdf.text(x, y + 10, "length, for every insured person.")
    pdf.text(15, 285, "UIN : ABCD1234")
    path = tmp_path / "right-column-first.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    text = " ".join(c.text for c in chunks)
    assert text.find("Term 6 means") < text.find("Term 7 means") < text.find("Term 12 means")
    assert [c.clause for c in chunks if c.text.startswith("Term")] == [f"3.{n}" for n in range(1, 13)]


@pytest.mark.parametrize("right_top, left_top", [(30, 30), (30, 70)])
def test_columns_of_unequal_length_drawn_right_first_stay_whole(tmp_path, right_top, left_top):
    """A short right column drawn before a long left one (a section's last
    page), or a right column that starts higher (the left starts under a
    picture): each column is read whole, the left first -- a column that
    only ends lower or starts higher than the other is no header or footer."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 9)
    right_lines = 8 if right_top == left_top else 40
    for n in range(right_lines):
        pdf.text(110, right_top + 5 * n, f"R{n + 1} right column text goes on and on here")
    for n in range(30 if right_top == left_top else 36):
        pdf.text(15, left_top + 5 * n, f"L{n + 1} left column text goes on and on here")
    path = tmp_path / "uneven-columns.pdf"
    pdf.output(str(path))
    (page,) = pdf_pages(path)
    labels = [line.split()[0] for line in page.text.split("\n") if line.strip()]
    lefts = [label for label in labels if label.startswith("L")]
    assert labels == lefts + [f"R{n + 1}" for n in range(right_lines)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 400), st.integers(1, 200)), min_size=10, max_size=60))
def test_the_gutter_is_where_fewest_lines_run_across(pieces):
    """The page's gutter, counted by bisection, is the one a count of every
    line at every candidate finds: inside the middle half of the lines'
    width, at least five lines wholly each side, fewest lines across."""
    from stream_chunker.drivers.reading_order import COLUMN_LINES, GUTTER_ZONE, Span, _gutter

    spans = [Span(700 - 12 * n, 10, left, left + width) for n, (left, width) in enumerate(pieces)]
    low, high = min(s.left for s in spans), max(s.right for s in spans)
    counts = []
    for x in sorted({s.right for s in spans}):
        left, right = sum(s.right <= x for s in spans), sum(s.left >= x for s in spans)
        if low + GUTTER_ZONE[0] * (high - low) <= x <= low + GUTTER_ZONE[1] * (high - low) \
                and min(left, right) >= COLUMN_LINES:
            counts.append((len(spans) - left - right, x))
    assert _gutter(spans) == (min(counts)[1] if counts else None)  # (the leftmost of the fewest)


def test_a_page_with_two_columns_keeps_its_draw_order(tmp_path):
    """Beside a second column, a label on its text's baseline proves nothing
    about the columns' order: the page is left as drawn."""
    path = tmp_path / "by-layer-columns.pdf"
    _drawn_by_layer(path, columns=True)
    chunks, _ = chunked(path)
    text = " ".join(c.text for c in chunks)
    assert text.find("explosion resulting from fire") < text.find("Fire, excluding damage")
    assert text.find("Right column line 8") > text.find("Storm, excluding damage")


def test_a_title_centred_in_the_body_face_heads_the_example_under_its_item(tmp_path):
    """The Ontario owner's policy centres ``Example`` in the body's own face
    over each example of a rule: no size or weight sets it apart, its place
    does. It heads the example under the item it illustrates, and the items
    go on after it; a line set flush left alike stays text."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.text(20, 20, "Section 3 Liability Coverage")
    pdf.set_font("Helvetica", "", 10)
    y = 32
    for n in range(8):
        pdf.text(20, y, f"This coverage protects you when someone else is injured, line {n + 1} of the text.")
        y += 5
    paragraphs = (("3.1 How Much We Will Pay", "The most we will pay is the limit shown on the Certificate."),
                  ("Example", "Your policy has a limit of $1,000,000 and the claim is for more."),
                  ("3.2 Outside Ontario", "We will pay up to the limit the other province requires."),
                  ("Note", "This is a note set flush left, not centred over the text."))
    for head, text in paragraphs:
        y += 10
        measure = max(pdf.get_string_width(f"{text} Line {n + 1} of this paragraph of the policy.") for n in range(3))
        centred = head == "Example"  # (over the paragraph under it)
        pdf.set_font("Helvetica", "B" if head[0].isdigit() else "", 10)
        pdf.text(20 + (measure - pdf.get_string_width(head)) / 2 if centred else 20, y, head)
        pdf.set_font("Helvetica", "", 10)
        y += 10
        for n in range(3):
            pdf.text(20, y, f"{text} Line {n + 1} of this paragraph of the policy.")
            y += 5
    path = tmp_path / "centred-example.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    example = next(c for c in chunks if "limit of $1,000,000" in c.text)
    assert (example.clause, example.heading_path.split(" > ")[-2:]) == ("3.1", ["How Much We Will Pay", "Example"])
    assert next(c for c in chunks if "other province" in c.text).clause == "3.2"
    assert "Example" not in next(c for c in chunks if "other province" in c.text).heading_path
    assert "Note" in next(c for c in chunks if "set flush left" in c.text).text


def test_a_tab_set_on_its_side_in_the_margin_heads_nothing(tmp_path):
    """A booklet prints its sections' tabs upwards in the right margin of
    every other page, in bold (``Trauma``, ``Income &`` ⏎ ``Business``): set
    on its side, a line's style says nothing of a heading, and the glossary
    under ``Definitions`` stays there."""
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    for n in range(30):
        pdf.text(20, 20 + 6 * n, f"This booklet explains the cover you hold and how to claim, line {n + 1}.")
    for page, tab in enumerate(("Trauma", "Business")):
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 14)
        pdf.text(20, 20, "Definitions" if page == 0 else "More definitions")
        pdf.set_font("Helvetica", "", 10)
        for n in range(7):
            pdf.text(20, 32 + 6 * n, f"Term {page}x{n} means a word this policy uses with a meaning of its own here.")
        pdf.set_font("Helvetica", "B", 10)
        with pdf.rotation(90, 195, 150):  # (drawn between the page's halves: read between them)
            pdf.text(195, 150, tab)
        pdf.set_font("Helvetica", "", 10)
        for n in range(7, 14):
            pdf.text(20, 32 + 6 * n, f"Term {page}x{n} means a word this policy uses with a meaning of its own here.")
    path = tmp_path / "tabs.pdf"
    pdf.output(str(path))
    chunks, _ = chunked(path)
    assert not [c.heading_path for c in chunks if "Trauma" in c.heading_path or "Business" in c.heading_path]
    # (each term heads its definition, ``Term 0x3 means …``: a definitions list known by its text)
    assert {c.heading_path.split(" > ")[0] for c in chunks if "Term 0x" in c.text} == {"Definitions"}
    assert "Trauma" in " ".join(c.text for c in chunks)  # (its word kept, as text)

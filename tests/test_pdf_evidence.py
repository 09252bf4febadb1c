"""What a PDF's layout says beyond size and weight (SPEC §5c): a specimen's
stamp, a part's heading block, a heading in colour.

The first two are modelled on a US auto policy printed as a specimen: ``SAMPLE DOCUMENT``
stamped letter by letter across every page, a company name in large bold at
each page's top, general provisions under bold headings, then ``Part 1`` ⏎
``Automobile Liability Insurance`` ⏎ the coverages it holds, each part's own
bold headings under it, and ``Part 2`` alone over its title on a later page.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

import pytest

from stream_chunker import Chunk

pytest.importorskip("pypdfium2", reason="the PDF path needs pypdfium2: pip install -e '.[pdf]'")
fpdf = pytest.importorskip("fpdf", reason="fpdf2 makes the test PDFs: pip install -e '.[test]'")

from stream_chunker.pdf import chunk_pdf  # noqa: E402

BODY = ("We will pay damages an insured person is legally obligated to pay because of an accident "
        "arising out of the use of an insured auto, up to the limits shown on the declarations.")

Page = List[Tuple[float, str]]  # (size, text): 16 and 12 are bold, 10 the body


def _pages() -> List[Page]:
    general: Page = [(12, "When And Where The Policy Applies"), (10, "Where one. " + BODY), (10, "Where two. " + BODY),
                     (12, "Cancellation"), (10, "Cancel one. " + BODY), (10, "Cancel two. " + BODY)]
    part_1: Page = [(16, "Part 1"), (16, "Automobile Liability Insurance"), (16, "Bodily Injury - Coverage AA"),
                    (16, "Property Damage - Coverage BB"), (10, "Liability text one. " + BODY),
                    (12, "Insured Persons"), (10, "Insured persons one. " + BODY)]
    more_1: Page = [(12, "Exclusions"), (10, "Exclusions one. " + BODY), (10, "Exclusions two. " + BODY)]
    part_2: Page = [(16, "Part 2"), (16, "Automobile Medical Payments"), (10, "Medical text two. " + BODY),
                    (12, "Insured Persons"), (10, "Insured persons two. " + BODY)]
    return [general, part_1, more_1, part_2]


def _write(path: Path, stamp: bool) -> Path:
    pdf = fpdf.FPDF(unit="pt", format="letter")
    pdf.set_auto_page_break(False)
    for page in _pages():
        pdf.add_page()
        if stamp:  # (drawn first, as a printer's stamp is: read first by PDFium)
            pdf.set_font("Helvetica", "B", 36)
            for k, letter in enumerate("SAMPLE DOCUMENT"):
                if letter != " ":
                    pdf.text(60 + 29 * k, 120 + 43 * k, letter)
        pdf.set_font("Helvetica", "B", 16)
        pdf.text(72, 50, "Acme Insurance Company")
        y = 90.0
        for size, text in page:
            pdf.set_font("Helvetica", "B" if size > 10 else "", size)
            if size == 10:
                pdf.set_xy(72, y)
                pdf.multi_cell(460, 13, text)
                y = pdf.get_y() + 10
            else:
                pdf.text(72, y + size, text)
                y += size + (6 if size == 16 else 10)
        pdf.set_font("Helvetica", "", 9)
        pdf.text(280, 760, f"Page {pdf.page_no()}")
    pdf.output(str(path))
    return path


def _read(path: Path) -> Tuple[List[Chunk], List[dict]]:
    diagnostics: List[dict] = []
    chunks = list(chunk_pdf(path, real_tokens=False, on_diagnostic=diagnostics.append))
    return chunks, diagnostics


def _holding(chunks: List[Chunk], words: str) -> Chunk:
    return next(c for c in chunks if words in c.text)


def test_a_stamp_across_every_page_changes_nothing_but_the_furniture(tmp_path: Path) -> None:
    """Letter by letter on a slant, ``SAMPLE DOCUMENT`` is no column of
    one-letter headings and no stray letters in a paragraph: the chunks are
    those of the same pages unstamped, and the stamp is reported dropped as
    furniture, its letters as printed."""
    plain, plain_notes = _read(_write(tmp_path / "plain.pdf", stamp=False))
    stamped, notes = _read(_write(tmp_path / "stamped.pdf", stamp=True))
    assert [(c.text, c.heading_path, c.clause) for c in stamped] == [(c.text, c.heading_path, c.clause) for c in plain]
    furniture = [n["text"] for n in notes if n["kind"] == "furniture"]
    assert furniture.count("S A M P L E  D O C U M E N T") == len(_pages())
    assert len(furniture) == len([n for n in plain_notes if n["kind"] == "furniture"]) + len(_pages())


def test_a_part_alone_over_its_title_goes_on_after_the_headings_that_ended_the_last(tmp_path: Path) -> None:
    """``Part 1`` and its title and coverages, four lines in large bold, are
    the part's heading (longer than a title wraps over, but a part's word and
    number over lines that each read as a title); the bold headings after it
    are under it; and ``Part 2``, alone on its line over its title, opens the
    next part though headings without a number came between."""
    chunks, _ = _read(_write(tmp_path / "parts.pdf", stamp=True))
    one, two = _holding(chunks, "Insured persons one."), _holding(chunks, "Insured persons two.")
    assert "Automobile Liability Insurance" in one.heading_path and one.clause == "1"
    assert _holding(chunks, "Exclusions one.").clause == "1"
    assert "Automobile Medical Payments" in two.heading_path and two.clause == "2"
    assert _holding(chunks, "Medical text two.").clause == "2"
    assert "Cancellation" not in one.heading_path


QUESTIONS = [("Who is the insurer?", "The insurer is Acme Travel Limited, registered in Zurich under number 4711."),
             ("Who is the policyholder?", "The policyholder is the person named as such in the insurance policy."),
             ("What risks are insured?", "The insured risks are set out in the policy and in these terms of insurance.")]


def test_a_heading_in_the_body_face_stands_out_by_its_colour(tmp_path: Path) -> None:
    """A customer information page asks its questions in the body's size and
    weight, in blue, each a block of its own: each is a heading over its
    answer. A line in grey, or in black, in the same face is text (a
    signature), and so is a link's name in blue inside an address."""
    pdf = fpdf.FPDF(unit="pt", format="a4")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 11)
    pdf.set_text_color(0, 55, 129)
    pdf.text(60, 60, "Customer information")
    pdf.set_font("Helvetica", "", 8)
    y = 80.0
    for line, colour in (("Dear customer, you will find below the terms of your annual insurance.", (0, 0, 0)),
                         ("Acme Travel", (0, 0, 0)), ("Olaf Nink", (100, 100, 100))):
        pdf.set_text_color(*colour)
        pdf.text(60, y, line)
        y += 20
    for question, answer in QUESTIONS:
        pdf.set_text_color(23, 54, 93)
        pdf.text(60, y, question)
        pdf.set_text_color(0, 0, 0)
        y += 8  # (a block of its own: the answer starts a little lower than its lines follow each other)
        for n in range(4):
            y += 10
            pdf.text(60, y, f"{answer} Line {n + 1} of the answer, which goes on as answers do.")
        y += 20
    for line, colour in (("If you are not happy with our answer you may write to the", (0, 0, 0)),
                         ("Financial Ombudsman Service", (0, 81, 159)),  # (a link's name, inside the address)
                         ("Exchange Tower, London E14 9SR, who will look at your complaint.", (0, 0, 0))):
        pdf.set_text_color(*colour)
        pdf.text(60, y, line)
        y += 10
    path = tmp_path / "questions.pdf"
    pdf.output(str(path))
    chunks, _ = _read(path)
    for question, answer in QUESTIONS:
        assert _holding(chunks, answer).heading_path.split(" > ")[-1] == question
    assert "Olaf Nink" in _holding(chunks, "Acme Travel").text
    ombudsman = _holding(chunks, "Exchange Tower")
    assert "Financial Ombudsman Service" in ombudsman.text and ombudsman.heading_path.endswith(QUESTIONS[-1][0])


def _line(pdf: "fpdf.FPDF", y: float, text: str, colour: Tuple[int, int, int] = (0, 0, 0), size: int = 10,
          style: str = "") -> float:
    pdf.set_text_color(*colour)
    pdf.set_font("Helvetica", style, size)
    pdf.text(72, y + size, text)
    return y + size + 5


def _paragraph(pdf: "fpdf.FPDF", y: float, text: str) -> float:
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 10)
    pdf.set_xy(72, y)
    pdf.multi_cell(460, 13, text)
    return pdf.get_y() + 8


def test_colour_alone_sets_apart_only_a_block_of_its_own(tmp_path: Path) -> None:
    """A link's name in blue inside an address, and a table's ``Included`` in
    green and ``Not included`` in red, are lines in colour among lines in
    black: text of the section they are in, never headings over what follows."""
    pdf = fpdf.FPDF(unit="pt", format="a4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    y = _line(pdf, 60, "Section 1 Buildings", size=12, style="B")
    for n in range(4):  # (enough text for the body's style to be learned first)
        y = _paragraph(pdf, y, f"Cover {n}. " + BODY)
    y = _line(pdf, y, "Making a complaint", size=12, style="B")
    y = _paragraph(pdf, y, "If you are not happy with how we dealt with your complaint you may contact:")
    for text, colour in (("Financial Ombudsman Service", (0, 102, 204)), ("Exchange Tower, London E14 9SR", (0, 0, 0)),
                         ("Telephone 0800 023 4567", (0, 0, 0))):
        y = _line(pdf, y, text, colour)
    y = _paragraph(pdf, y + 6, "Complaint one. " + BODY)
    y = _line(pdf, y, "Your covers", size=12, style="B")
    y = _paragraph(pdf, y, "The table below shows the covers you have chosen and those you have not.")
    for text, colour in (("Buildings", (0, 0, 0)), ("Included", (0, 140, 0)), ("Accidental damage", (0, 0, 0)),
                         ("Not included", (200, 0, 0)), ("Contents", (0, 0, 0)), ("Included", (0, 140, 0))):
        y = _line(pdf, y, text, colour)
    _paragraph(pdf, y + 6, "Table one. " + BODY)
    path = tmp_path / "colours.pdf"
    pdf.output(str(path))
    chunks, _ = _read(path)
    assert _holding(chunks, "Exchange Tower").heading_path.endswith("> Making a complaint")
    assert _holding(chunks, "Complaint one.").heading_path.endswith("> Making a complaint")
    assert _holding(chunks, "Table one.").heading_path.endswith("> Your covers")
    assert "Not included" in _holding(chunks, "Accidental damage").text

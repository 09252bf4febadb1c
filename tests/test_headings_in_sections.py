"""Headings without a number inside decimal sections: ``2. DEFINITIONS``,
then ``Standard definitions`` over ``2.1``-``2.23`` and ``Specific
definitions`` over ``2.24``-``2.31`` (an Indian health wording's shape, and
many others'). The heading holds the section's numbers after it, until a
heading beside it or a number outside the section; and the numbers go on
after a heading that seemed to end their sections."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import chunk_lines

from .test_styled_headings import BIG, BOLD, COVER, body, read
from .test_text_titles import read_generated, the_chunk_of
from .test_word_balance import assert_balanced

DEFINITIONS = """1. PREAMBLE
This policy is a contract of insurance between you and us.
2. DEFINITIONS
The terms defined below have the meanings given to them.
Standard definitions
2.1. Accident means a sudden, unforeseen and involuntary event.
2.2. Hospital means any institution for in-patient care.
Specific definitions
2.3. Age means age of the insured person on last birthday.
2.4. Family means the proposer and the family members named.
3. COVERAGE
We pay the benefits below.
"""


def paths(chunks):
    return [(c.clause, c.heading_path) for c in chunks]


def test_a_heading_inside_a_section_holds_the_numbers_after_it() -> None:
    chunks = list(chunk_lines(DEFINITIONS, real_tokens=False))
    assert paths(chunks)[1:] == [
        ("2", "DEFINITIONS"),
        ("2.1", "DEFINITIONS > Standard definitions > Accident means a sudden"),
        ("2.2", "DEFINITIONS > Standard definitions > Hospital means any institution for in-patient care"),
        ("2.3", "DEFINITIONS > Specific definitions > Age means age of the insured person on last birthday"),
        ("2.4", "DEFINITIONS > Specific definitions > Family means the proposer and the family members named"),
        ("3", "COVERAGE"),
    ]  # (a heading beside it takes its place; the next section ends both)
    assert len({c.id for c in chunks}) == len(chunks)
    assert_balanced(DEFINITIONS)


def test_in_a_pdf_a_heading_set_in_bold_inside_a_section_does_the_same() -> None:
    pages = [COVER, [("1. PREAMBLE", BIG), body("This policy is a contract of insurance between you and us."),
                     ("2. DEFINITIONS", BIG), body("The terms defined below have the meanings given to them."),
                     ("Standard definitions", BOLD), body("2.1. Accident means a sudden, unforeseen event."),
                     body("2.2. Hospital means any institution for in-patient care."),
                     ("Specific definitions", BOLD), body("2.3. Age means age on last birthday."),
                     ("3. COVERAGE", BIG), body("We pay the benefits below.")]]
    found = [(c.clause, c.heading_path.split(" > ")[:2]) for c in read(pages) if c.clause]
    assert found[-4:] == [("2.1", ["DEFINITIONS", "Standard definitions"]), ("2.2", ["DEFINITIONS", "Standard definitions"]),
                          ("2.3", ["DEFINITIONS", "Specific definitions"]), ("3", ["COVERAGE"])]


def test_the_numbers_go_on_after_a_heading_that_ended_their_sections() -> None:
    text = ("1 Definitions\nThe words below have these meanings.\n1.1 Accident means a sudden event.\n"
            "General conditions\nThese conditions apply to the whole policy.\n"
            "2 Claims\nTell us at once about any claim.\n2.1 How to claim\nCall the number on your schedule.\n")
    assert paths(chunk_lines(text, real_tokens=False)) == [
        ("1", "Definitions"), ("1.1", "Definitions > Accident means a sudden event"),
        (None, "General conditions"), ("2", "Claims"), ("2.1", "Claims > How to claim")]


def test_a_heading_after_a_clause_goes_beside_it_in_its_section() -> None:
    # "2.2 Fraud means …" is a clause, no heading: "Exclusions" is inside 2, not inside 2.2.
    text = ("1 Cover\nWe pay for loss.\n2 Claims\nTell us at once.\n2.1 How to claim\nCall us first.\n"
            "2.2 Fraud means any dishonest act by you or anyone acting for you.\nExclusions\n"
            "We do not pay for wear and tear.\n2.3 Late claims\nWe may refuse a late claim.\n")
    found = paths(chunk_lines(text, real_tokens=False))
    assert ("2.3", "Claims > Exclusions > Late claims") in found
    assert (None, "Claims > Exclusions") in found


@settings(max_examples=30)
@given(st.lists(st.lists(st.integers(1, 3), min_size=1, max_size=3), min_size=1, max_size=4), st.integers(1, 5))
def test_generated_sections_with_headings_inside_keep_every_clause_at_its_path(sections, pieces: int) -> None:
    """Decimal sections, each with one to three headings without a number over
    a few clauses: every clause's chunk carries its section, its heading and
    its own number; ids are unique; no word is lost; the output is the same
    however the text is fed."""
    lines = ["This wording and your schedule are your contract."]
    expected = []
    for s, groups in enumerate(sections, start=1):
        lines += [f"{s}. SECTION NUMBER {s}", "The clauses below apply to this section."]
        clause = 0
        for g, count in enumerate(groups):
            heading = f"Group {'ABC'[g]} of section {s}"
            lines.append(heading)
            for _ in range(count):
                clause += 1
                lines.append(f"{s}.{clause}. Item{s}x{clause} means the thing described here.")
                expected.append((f"{s}.{clause}", f"SECTION NUMBER {s} > {heading}", f"Item{s}x{clause}"))
    chunks = read_generated(lines, pieces)
    for clause, path, word in expected:
        holder = the_chunk_of(chunks, word)
        assert holder.clause == clause and holder.heading_path.startswith(path), (clause, paths(chunks))


def test_a_heading_right_after_a_decimal_heading_goes_inside_it() -> None:
    pages = [COVER, [("4. EXCLUSIONS", BIG), body("We do not pay for the following."),
                     ("4.1. Standard Exclusions", BOLD), ("Exclusions specific to hospital expenses", BOLD),
                     body("We do not pay for any of these expenses."),
                     ("4.2. Specific exclusions", BOLD), body("We do not pay for war.")]]
    found = [(c.clause, c.heading_path) for c in read(pages) if c.clause]
    assert found == [("4", "EXCLUSIONS"),
                     ("4.1", "EXCLUSIONS > Standard Exclusions > Exclusions specific to hospital expenses"),
                     ("4.2", "EXCLUSIONS > Specific exclusions")]  # (set alike, it was 4.1's sibling, and 4.1 empty)


def test_a_list_under_a_heading_that_ended_the_sections_leaves_it_ended() -> None:
    # A table's header set like a heading, with its rows numbered: "3.2" goes on under "3", not under the header.
    pages = [COVER, [("3. COVERAGE", BIG), body("We pay the benefits below."),
                     ("3.1. Base Covers", BOLD), body("The covers listed below are built in."),
                     ("Loss Covered", BOLD), body("1. Loss of use of both ears."), body("2. Loss of a thumb."),
                     ("3.2. Optional Covers", BOLD), body("The covers below are optional.")]]
    found = [(c.clause, c.heading_path) for c in read(pages) if c.clause and c.clause.startswith("3")]
    assert found[-1] == ("3.2", "COVERAGE > Optional Covers")


def test_a_numbered_heading_set_alike_on_the_line_below_goes_on() -> None:
    """A long numbered title that wraps: the second line, set as the first
    is and right below it, is more of the title, not a heading inside it."""
    pages = [COVER, [("SECTION C) BENEFITS", BIG), body("We pay the benefits below in full."),
                     ("SECTION D) EXCLUSIONS APPLICABLE TO PART A", BIG), ("UNDER SECTION C) OF THE POLICY", BIG),
                     body("We do not pay for the following treatment."),
                     ("SECTION E) CONDITIONS THAT APPLY TO", BIG), ("EVERY SECTION", BIG),
                     body("You must tell us at once.")]]
    found = [(c.clause, c.heading_path) for c in read(pages) if c.clause]
    assert found == [("C", "BENEFITS"), ("D", "EXCLUSIONS APPLICABLE TO PART A UNDER SECTION C) OF THE POLICY"),
                     ("E", "CONDITIONS THAT APPLY TO EVERY SECTION")]


def test_a_clause_number_next_in_sequence_opens_after_a_line_cut_short() -> None:
    """``3.2.`` with its dot, next after ``3.1``, opens its clause though the
    line before stops mid-sentence (a list's last item without its full
    stop); a number of one part there is still text (``Cover lasts for`` ⏎
    ``3 Months after the loss``)."""
    text = ("3. COVERAGE\nWe pay the covers below.\n3.1. Base Covers: The covers below are built in and apply to all.\n"
            "i. If a claim is made in the year any bonus\nawarded shall be withdrawn\n"
            "3.2. Optional Covers: The covers listed below are optional benefits and shall apply if chosen\n"
            "Cover lasts for\n3 Months after the date of the loss of the car.\n")
    assert [c.clause for c in chunk_lines(text, real_tokens=False)] == ["3", "3.1", "3.2"]

"""Policy sets: where the document's own numbering starts again, a part opens;
every chunk after it carries the part's name, and ids stay unique."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import chunk_lines

from .test_headings_in_sections import paths
from .test_styled_headings import BIG, BOLD, COVER, body, chunk_with, read
from .test_text_titles import read_generated, the_chunk_of


def wording(title: str, subject: str) -> str:
    return (f"{title}\n1. Definitions\nIn this policy {subject} means the thing shown in the schedule.\n"
            f"2. Cover\nWe cover your {subject} against fire and theft.\n"
            f"3. Exclusions\nWe do not cover wear and tear of your {subject}.\n")


SET = ("This booklet holds your policies.\n1. Definitions\nIn this booklet the words below have these meanings.\n"
       "2. Cover\nWe cover what each policy below sets out.\n"
       + wording("HOUSEHOLD INSURANCE POLICY", "home") + wording("TRAVEL INSURANCE POLICY", "trip"))


def test_a_title_over_a_numbering_that_starts_again_names_a_part() -> None:
    chunks = list(chunk_lines(SET, real_tokens=False))
    assert chunk_with(chunks, "booklet the words").part is None
    home = chunk_with(chunks, "wear and tear of your home")
    assert (home.part, home.clause) == ("HOUSEHOLD INSURANCE POLICY", "3")
    assert chunk_with(chunks, "your home against").part == "HOUSEHOLD INSURANCE POLICY"
    assert chunk_with(chunks, "your trip against").part == "TRAVEL INSURANCE POLICY"
    assert len({c.id for c in chunks}) == len(chunks)


def test_the_title_may_stand_a_blank_line_above_the_restart() -> None:
    """``HOUSEHOLD INSURANCE POLICY`` ⏎ ⏎ ``1. Definitions``: the title is taken
    back from the paragraph the blank line ended, not left in the text before."""
    chunks = list(chunk_lines(SET.replace("\n", "\n\n"), real_tokens=False))
    assert chunk_with(chunks, "your home against").part == "HOUSEHOLD INSURANCE POLICY"
    assert not any("INSURANCE POLICY" in c.text for c in chunks), paths(chunks)


def test_a_restart_with_no_title_over_it_opens_no_part() -> None:
    """From a PDF, a first section number set apart by the layout starts the
    numbering again at the top (ids ``1~2``), but with no title over it there
    is no name for a part: it may as well be a table of the sections."""
    page = [("1 Definitions", BOLD), body("Home means your house and its garage."), ("", None),
            ("2 Cover", BOLD), body("We cover storm damage to the home."), ("", None),
            ("1 Definitions", BOLD), body("Trip means your journey abroad."), ("", None),
            ("2 Cover", BOLD), body("We cover cancellation of the trip.")]
    chunks = read([COVER, page])
    assert [(c.id, c.part) for c in chunks if c.id != "front"] == [
        ("1", None), ("2", None), ("1~2", None), ("2~2", None)], paths(chunks)


LISTS = ("Your home insurance.\nWhat is covered\n1. Storm damage to the home.\n2. Flood damage to the home.\n"
         "What is not covered\n1. Wear and tear of any kind.\n2. Gradual deterioration.\n"
         "GENERAL CONDITIONS\nThese apply to the whole policy.\n1. You must tell us at once.\n")
ITEMS = ("1. DEFINITIONS\nHome means your house.\n2. COVER\nWe cover storm damage.\n"
         "GENERAL CONDITIONS\nThese apply to the whole policy.\n1. You must tell us of any change at once.\n"
         "2. You must take care of your home.\n")


@pytest.mark.parametrize("text", [LISTS, ITEMS], ids=["lists-under-headings", "items-after-headings"])
def test_numbers_that_start_again_under_a_wording_s_headings_are_no_parts(text: str) -> None:
    """A list under each heading (``What is covered`` ⏎ ``1.``) never stood at
    the top alone; ``1. You must …`` under a title after ``1. DEFINITIONS``,
    ``2. COVER`` is a list of conditions, not a second wording (only a heading
    starts one again)."""
    chunks = list(chunk_lines(text, real_tokens=False))
    assert all(c.part is None for c in chunks), paths(chunks)


def test_the_report_counts_the_parts() -> None:
    from stream_chunker import Chunker
    chunker = Chunker(real_tokens=False)
    chunker.feed(SET)
    chunker.close()
    assert chunker.report["parts"] == 3


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(2, 4), min_size=1, max_size=4), st.booleans(), st.integers(1, 5))
def test_generated_policy_sets_keep_every_section_in_its_part(sizes, spaced: bool, pieces: int) -> None:
    """Wordings of two to four numbered sections each, one after another, a
    title over each after the first, with a blank line between all lines or
    none: every section's chunk carries its part and its number as printed,
    ids are unique, no word is lost, and the output is the same however fed."""
    lines = ["Read these wordings with your schedule."]
    expected = []
    for w, count in enumerate(sizes):
        if w:
            lines.append(f"WORDING NUMBER {w}")
        for s in range(1, count + 1):
            lines += [f"{s}. Section Title {s}", f"Word{w}x{s} is covered as this section sets out."]
            expected.append((f"WORDING NUMBER {w}" if w else None, str(s), f"Word{w}x{s}"))
    chunks = read_generated(lines, pieces, "\n\n" if spaced else "\n")
    for part, clause, word in expected:
        holder = the_chunk_of(chunks, word)
        assert (holder.part, holder.clause) == (part, clause), (word, paths(chunks))


def test_from_a_pdf_a_title_set_above_a_restart_names_the_part() -> None:
    page = [("MOTOR POLICY", BIG), ("", None), ("1 Definitions", BOLD), body("Car means the vehicle shown."),
            ("", None), ("2 Cover", BOLD), body("We cover fire and theft of the car."), ("", None),
            ("HOUSEHOLD POLICY", BIG), ("", None), ("1 Definitions", BOLD),
            body("Home means your house and its garage."), ("", None),
            ("2 Cover", BOLD), body("We cover storm damage to the home.")]
    chunks = read([COVER, page])
    assert chunk_with(chunks, "fire and theft").part is None
    storm = chunk_with(chunks, "storm damage")
    assert (storm.part, storm.clause, storm.heading_path) == ("HOUSEHOLD POLICY", "2", "HOUSEHOLD POLICY > Cover")

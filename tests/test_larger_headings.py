"""Headings set larger than the body, read as a reader reads large type: a
section's title set as a page's title (a word's label alone on its line, the
title wrapped over a few lines after it, the page's number printed after the
title: Chubb's ``Section 4 –`` ⏎ ``Medical,`` ⏎ ``Evacuation`` ⏎ ``and
Additional`` ⏎ ``Expenses``, in 20-point type), a long heading that leads
into its list with a colon -- and, set at any size, a title that stops on a
word that leads on and goes on on the next line."""

from __future__ import annotations

from typing import List, Sequence, Tuple

from stream_chunker.core.layout import Style, standing_out

from .test_styled_headings import BODY, BOLD, COVER, body, read

TITLE = Style(20.0, False)
FOOTER = Style(6.5, False)


def section(number: int, title: Sequence[str], page_number: bool = False) -> List[Tuple[str, object]]:
    """A page opening a section: its label alone, its title wrapped line by line, its text."""
    page: List[Tuple[str, object]] = [(f"Section {number} –", TITLE)] + [(line, TITLE) for line in title]
    if page_number:  # (drawn after the title, then the footer)
        page += [("", None), (f"{number}0", BODY), ("", None), ("Business Travel Policy Wording, published 2019", FOOTER)]
    cover = ["storm", "flood", "theft", "fire"][number % 4]  # (no line the same on every page: that is furniture)
    page += [("", None), (f"Cover for {cover}", BOLD), ("", None),
             body(f"We will pay the costs of {cover} that section {number} sets out in the schedule."),
             body(f"We will pay them for each person covered on a journey for {cover}."), ("", None)]
    return page


def titles(chunks: List) -> List[str]:
    return [c.heading_path.split(" > ")[0] for c in chunks if c.clause and c.clause.startswith(("1", "2", "3"))]


def test_a_title_set_larger_wraps_on_a_comma_a_word_of_lower_case_and_one_word_lines() -> None:
    # (Pages of text between: a line atop every page is furniture.)
    pages = [COVER, section(1, ["Personal Accident", "and Sickness"]), COVER,
             section(2, ["Medical,", "Evacuation", "and Additional", "Expenses"]), COVER,
             section(3, ["Alternative", "Employee/", "Resumption"])]
    chunks = read(pages)
    assert {c.clause.split("/")[0] for c in chunks if c.clause} == {"1", "2", "3"}
    assert set(titles(chunks)) == {"Personal Accident and Sickness", "Medical, Evacuation and Additional Expenses",
                                   "Alternative Employee/ Resumption"}
    assert all(" > Cover for " in c.heading_path for c in chunks if "costs of" in c.text)


def test_the_page_number_after_a_page_title_is_no_figure_under_it() -> None:
    lines = ["Policy Wording", "", "Section 13 –", "Search and", "Rescue Expenses", "", "50", "",
             "Business Travel Policy Wording, published 2019", "", "Extent of Cover", "We pay.", "We pay."]
    styles = [BODY, None, TITLE, TITLE, TITLE, None, BODY, None, FOOTER, None, BOLD, BODY, BODY]
    assert (2, 5, 20.0) in standing_out(lines, styles, Style(9.0, False))
    small = [BODY, None] + [Style(12.0, True)] * 3 + styles[5:]  # (a table's header over a figure: not a title)
    assert all(start != 2 for start, _, _ in standing_out(lines, small, Style(9.0, False)))
    pages = [COVER, section(1, ["Search and", "Rescue Expenses"], page_number=True)]
    chunks = read(pages)
    assert titles(chunks) and set(titles(chunks)) == {"Search and Rescue Expenses"}


def test_a_long_heading_set_larger_may_lead_into_its_list_with_a_colon() -> None:
    title = "Losses We Do Not Cover Under Coverages A, B and C:"  # (11 words: a sentence's length)
    lines = ["10. Manuscripts, including documents stored on electronic media.", "", title,
             "We do not cover loss to the property described in the coverages", "consisting of:", "We pay."]
    large = Style(12.0, True)
    assert (2, 3, 12.25) in standing_out(lines, [BODY, None, large, BODY, BODY, BODY], BODY)
    assert standing_out(lines, [BODY, None, BOLD, BODY, BODY, BODY], BODY) == []  # (in bold at the body's size: emphasis)


def test_a_title_that_stops_on_its_or_their_goes_on_on_the_next_line() -> None:
    """``(ii) Where this Policy is issued to a Corporate Body to cover its`` ⏎
    ``Employees``: no heading ends on a possessive; the run is one title."""
    from stream_chunker.core.layout import reads_as_heading

    assert not reads_as_heading("Where this Policy is issued to a Corporate Body to cover its", "Employees")
    assert not reads_as_heading("Cover for the Insured and their", "Family")
    assert reads_as_heading("Cover for the Insured and Family", "We pay for the family.")

"""A contents list on a page, known by its entries alone: lines that end in a
page number, one after another, the numbers never going back.

Many booklets print their contents with no dot leaders and no ``Contents``
title above them (Churchill's car booklet draws the title after the list):
``FAQs 3``, ``Glossary 4``, ``Section 1: Liability 11`` ... Read one at a time
each looks like a heading, and the body's sections then come a second time.
On a whole page the run is plain: :data:`MIN_ENTRIES` entries or more with no
other text between them, each a short title then a page number, the numbers
rising or equal. A table of amounts is not one: an amount has a currency
sign, a comma or a decimal point, and ``50%`` is no page number.
"""

from __future__ import annotations

import re
from typing import List, Sequence

MIN_ENTRIES = 4
"""Entries in a run, at least: three headings in a row may each end in a number."""
MAX_ENTRY_WORDS = 12
"""Words of an entry's title, at most: a sentence that ends in a number is text."""

_ENTRY = re.compile(r"(?P<title>.*[^\W\d_].*?)(?<![$£€¥₹#])\s+(?P<page>\d{1,3})")
"""A title with a letter in it, then a page number after a space (not an amount)."""
CONTENTS_TITLE = re.compile(r"(?:table\s+of\s+)?contents(?:\s+page)?", re.IGNORECASE)
"""A heading that opens a contents list whose entries may have no dot leader."""
_LEADER = re.compile(r"(?:\.[ \t]?){4,}[ \t]*(\d{0,4})[ \t]*$")
"""A dot leader at a line's end, and its page number if the line has it."""


def contents_entries(lines: Sequence[str]) -> List[int]:
    """The indexes of ``lines`` (a page's) that are entries of a contents list.

    >>> contents_entries(["Contents", "FAQs 3", "", "Glossary 4", "Making a claim 6", "Section 1: Liability 11", "Welcome"])
    [1, 3, 4, 5]
    >>> contents_entries(["Cancellation 500", "Baggage 250", "Delay 100", "Money 300"])  # the numbers go back
    []
    >>> contents_entries(["Page 2", "We pay up to 3", "of them."])
    []
    """
    out: List[int] = []
    run: List[int] = []
    last = -1
    for i, line in enumerate(lines):
        text = line.strip()
        if not text:
            continue
        m = _ENTRY.fullmatch(text) if text[-1].isdigit() else None  # (the pattern only where it may hold)
        page = int(m["page"]) if m is not None and len(m["title"].split()) <= MAX_ENTRY_WORDS else -1
        if page < 0 or page < last:
            if len(run) >= MIN_ENTRIES:
                out += run
            run, last = ([i], page) if page >= 0 else ([], -1)
            continue
        run.append(i)
        last = page
    if len(run) >= MIN_ENTRIES:
        out += run
    return out


def wrapped_entries(lines: Sequence[str]) -> List[int]:
    """The indexes of ``lines`` (a page's) that start an entry wrapped over two
    lines: no leader of their own, right above a line that ends in one and
    starts with a word (``PART C UNINSURED/UNDERINSURED`` ⏎ ``MOTORISTS
    COVERAGE ....... 6``). A label on such a line is the entry's, not a section's.

    Only on a contents page: ``MIN_ENTRIES`` lines or more end in a leader
    and a page number (a form's blanks to fill in, ``Name ......``, have none).

    >>> page = ["A .... 1", "B .... 2", "C .... 3", "PART C UNINSURED", "MOTORISTS COVERAGE ....... 6"]
    >>> wrapped_entries(page), wrapped_entries(page[2:])
    ([3], [])
    >>> wrapped_entries(page[:3] + ["PART C UNINSURED", "", "MOTORISTS ....... 6", "4.2 Escape of", "4.3 Theft ..... 7"])
    []
    """
    leaders = [_LEADER.search(line) if ".." in line or ". ." in line else None for line in lines]
    if sum(1 for m in leaders if m is not None and m.group(1)) < MIN_ENTRIES:
        return []
    return [i for i in range(len(lines) - 1)
            if leaders[i + 1] is not None and leaders[i] is None and lines[i].strip() and lines[i + 1][:1].isalpha()]

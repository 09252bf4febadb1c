"""Contents lists: what a contents entry looks like, and what the list is good for.

A numbered line that ends in a dot leader and a page number (``4.2 Escape of
water ..... 37``, also glued: ``Purpose......7``) is a contents entry, never a
heading and never chunk text. Entries are remembered, at most ``MAX_CONTENTS``:
the next entry vouches for a number that skips (RFC 2616 goes from 13 to
13.1.1) and, where its title matches, for a lower-case title or an odd form;
and the report names the listed sections never found.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, Final, List, Optional, Set, Tuple

from mypy_extensions import trait

from ...core.contents_page import CONTENTS_TITLE
from ...core.records import STYLED, Line
from ..labels import Number, parse_number

_NUM = r"\d{1,3}(?:\.\d{1,3}){0,9}"
# The number is optional: some extractions put it on a line of its own.
# "Purpose......7" glues the leader on; RFC 2616 even has "...Last-Modified
# Dates.89", one dot between a word and the page. Without a number the leader
# must be longer than an ellipsis ("from 1 ... 10"), and a single letter before
# one dot is a reference ("Annex A.2"). (A numbered line ending in an ellipsis
# and a number still reads as an entry: "1.1.3 http addresses ... 3" is one,
# and shape alone cannot tell them apart.)
ENTRY = re.compile(
    rf"(?:(?P<num>{_NUM})\.?\s+)?(?P<title>\S.*?)\s*(?(num)(?:\.\s?){{2,}}|(?:\.\s?){{4,}})\s*(?P<page>\d{{1,4}})$"
    rf"|(?P<gnum>{_NUM})\.?\s+(?P<gtitle>\S.*?[^\W\d_]{{2}})\.(?P<gpage>\d{{1,4}})$"
)
LEADER: Final = re.compile(r"\.[ \t]?\.(?:[ \t]?\.)*[ \t]*\d{1,4}[ \t]*$", re.MULTILINE)
"""A dot leader and page number at a line's end, wherever the line starts: the
scanner's look at lines whose start tells nothing."""
BARE_NUMBER = re.compile(rf"{_NUM}\.?$")
LISTED = re.compile(rf"(?:(?P<num>{_NUM})\.?\s+)?(?P<title>\S.*?)\s+(?P<page>\d{{1,4}})")
"""A line of such a list: a title and a page number, the section's number first
or none (``1. Key details about your policy 7``, ``- Sum insured 10``)."""


def may_be_entry(text: str) -> bool:
    """The cheap test before ``ENTRY``: an entry ends in a page number with a
    dot not far before it."""
    return text[-1] in "0123456789" and "." in text[-8:]


MAX_CONTENTS = 4096
"""Contents entries remembered; further entries are counted but not kept."""


class Contents:
    """One contents list: a bounded list of ``(number, title)`` in order, and
    how far the body has come through it."""

    def __init__(self) -> None:
        self.entries: List[Tuple[Number, str]] = []
        self.position: Dict[Number, int] = {}
        self.found: Set[Number] = set()
        self.last = -1  # position of the last heading the list vouched for
        self.overflow = 0

    def add(self, number: Number, title: str) -> None:
        if len(self.entries) >= MAX_CONTENTS:
            self.overflow += 1
            return
        self.position.setdefault(number, len(self.entries))
        self.entries.append((number, title))

    def next_entry(self) -> Optional[Tuple[Number, str]]:
        i = self.last + 1
        return self.entries[i] if i < len(self.entries) else None

    def reached(self, number: Number) -> None:
        i = self.position.get(number)
        if i is not None and i > self.last:
            self.last = i
            self.found.add(number)

    def missing(self) -> List[str]:
        return [".".join(map(str, n)) for n, _ in self.entries if n not in self.found]


@trait
class ReadsContents:
    """The reader's actions and conditions for contents lines, and the report's
    ``contents``, for a profile that reads them (mixed into the profile: a
    trait, the one kind of second base class that mypyc compiles)."""

    def __init__(self) -> None:
        self.contents = Contents()
        self._missing_before: List[str] = []  # missing entries of earlier contents lists
        self._listed_before = 0
        self._found_before = 0
        self._headings_since_contents = 0
        self._held_number: Optional[str] = None
        self.in_contents_list = False
        """A heading titled as a contents list (``Table of contents``) opened, and
        none since: a line that ends in a page number is one of its entries."""

    diagnose: Callable[..., None]  # the profile's diagnostic sink

    def count(self, key: str, n: int = 1) -> None:
        """The profile's counter (``BaseProfile.count``): a method here too, as
        compiled code calls a trait's methods through its own declarations."""
        raise NotImplementedError

    def add_contents(self, rec: Line) -> None:
        m = rec.match
        assert m is not None
        if self._headings_since_contents:
            self._close_contents()
        number = m["num"] or m["gnum"] or self._held_number
        title = m["title"] if m["title"] is not None else m["gtitle"]
        self._held_number = None
        self._note_contents_line(rec)
        if number:
            self.contents.add(parse_number(number), title)

    def listed(self, rec: Line) -> bool:
        """A line of the contents list just opened, with no dot leader: it stays
        text (under the list's heading), and its number vouches for the section
        when the body reaches it."""
        if not self.in_contents_list and not self.listed_on_page(rec):
            return False
        m = LISTED.fullmatch(rec.text)
        if m is None:  # (a label that starts an entry wrapped onto its leader's line: ``PART C UNINSURED/
            # UNDERINSURED``; a line the layout alone marks there titles the entries under it, ``Part 1 __ …``)
            return rec.cls != STYLED and self.starts_entry_on_page(rec)
        if m["num"]:
            self.contents.add(parse_number(m["num"]), m["title"])
        return True

    def listed_on_page(self, rec: Line) -> bool:
        """Line ``rec`` is an entry of a contents list its page shows, with no
        title over it, or the first line of one wrapped over two (the
        profile's layout knows; text alone is read in blocks that depend on
        how it is fed)."""
        return False

    def starts_entry_on_page(self, rec: Line) -> bool:
        """Line ``rec``, on a contents page, starts an entry wrapped onto the next line, its leader's."""
        return False

    def is_contents_number(self, rec: Line) -> bool:
        return BARE_NUMBER.match(rec.text) is not None

    def hold_contents_number(self, rec: Line) -> None:
        """A contents number printed on a line of its own; its title follows."""
        self._held_number = rec.text.rstrip(".")
        self._note_contents_line(rec)

    def _note_contents_line(self, rec: Line) -> None:
        self.count("contents_lines")
        self.diagnose("contents", rec.first, text=rec.text)

    def reach_section(self, number: Number) -> None:
        """A heading opened ``number``: the list has come that far."""
        self.contents.reached(number)
        self._headings_since_contents += 1

    def _close_contents(self) -> None:
        """A new contents list begins (documents concatenated): settle the old one."""
        self._listed_before += len(self.contents.entries)
        self._found_before += len(self.contents.found)
        self._missing_before = (self._missing_before + self.contents.missing())[:MAX_CONTENTS]
        self.contents = Contents()
        self._headings_since_contents = 0

    def contents_report(self) -> Dict[str, Any]:
        return {
            "listed": self._listed_before + len(self.contents.entries),
            "found": self._found_before + len(self.contents.found),
            "missing": self._missing_before + self.contents.missing(),
            "not_kept": self.contents.overflow,
        }


def same_title(a: str, b: str) -> bool:
    """Titles agree when one starts the other, ignoring case and spacing (a
    contents list may shorten a title; a body heading may wrap)."""
    a = " ".join(a.casefold().rstrip(" .").split())
    b = " ".join(b.casefold().rstrip(" .").split())
    return bool(a and b) and (a.startswith(b) or b.startswith(a))

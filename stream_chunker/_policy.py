"""The policy profile: documents cut by numbered sections (``4.2 Escape of water``).

A line is a heading when it has the *shape* of one -- a section number, then a
title whose first letter is a capital -- and its number is one the document can
have *next*: the first child of the current section or the next sibling of it
or of an ancestor. Numbers compare as tuples of integers, so 4.10 follows 4.9.
The contents list, when the document has one, vouches for numbers that skip
(RFC 2616 goes from 13 to 13.1.1) and for lower-case titles it lists; and a
heading must look like its siblings (trailing dot or not, title in capitals or
not), so a numbered list inside a clause ("4. Body Mass Index (BMI) is;") cannot
pass for the next section.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from functools import lru_cache
from typing import Any, Dict, List, Optional, Tuple

from ._layout import ParagraphLayout, Record, first_letter
from ._packing import Cap, Packer, Paragraph
from ._scan import special_lines

Number = Tuple[int, ...]

_NUM = r"\d{1,3}(?:\.\d{1,3})*"
# A contents entry: number (optional: some extractions put it on a line of its
# own), title, a dot leader, a page number. "Purpose......7" glues the leader on;
# RFC 2616 even has "...Last-Modified Dates.89", one dot between a word and the
# page. Without a number the leader must be longer than an ellipsis ("from
# 1 ... 10"), and a single letter before one dot is a reference ("Annex A.2").
# (A numbered line ending in an ellipsis and a number still reads as an entry:
# "1.1.3 http addresses ... 3" is one, and shape alone cannot tell them apart.)
CONTENTS = re.compile(
    rf"(?:(?P<num>{_NUM})\.?\s+)?(?P<title>\S.*?)\s*(?(num)(?:\.\s?){{2,}}|(?:\.\s?){{4,}})\s*(?P<page>\d{{1,4}})$"
    rf"|(?P<gnum>{_NUM})\.?\s+(?P<gtitle>\S.*?[^\W\d_]{{2}})\.(?P<gpage>\d{{1,4}})$"
)
HEADING = re.compile(
    rf"(?P<num>{_NUM})(?P<dot>\.?)(?:\s+(?P<title>\S.*)|(?P<glued>[A-Z]{{2,}}\b.*))$"
)
BARE_NUMBER = re.compile(rf"{_NUM}\.?$")
_CLAUSE_END = (".", ":", ";", ",")

_DIGITS = "0123456789"

MAX_CONTENTS = 4096
"""Contents entries remembered; further entries are counted but not kept."""

MAX_SECTION_IDS = 65536
"""Section numbers remembered to keep ids unique when a number comes again."""


@lru_cache(maxsize=1024)
def parse_number(text: str) -> Number:
    """``"4.10."`` -> ``(4, 10)``. Cached: each heading-shaped line is parsed
    more than once, and the same short numbers come back through a document.

    >>> parse_number("4.10.")
    (4, 10)
    """
    return tuple(map(int, text.rstrip(".").split(".")))


def next_numbers(current: Number) -> List[Number]:
    """The numbers a document can have after ``current``.

    >>> next_numbers((4, 2))
    [(4, 2, 1), (4, 3), (5,)]
    """
    out = [current + (1,)]
    for depth in range(len(current), 0, -1):
        out.append(current[: depth - 1] + (current[depth - 1] + 1,))
    return out


def _same_title(a: str, b: str) -> bool:
    """Titles agree when one starts the other, ignoring case and spacing (a
    contents list may shorten a title; a body heading may wrap)."""
    a = " ".join(a.casefold().rstrip(" .").split())
    b = " ".join(b.casefold().rstrip(" .").split())
    return bool(a and b) and (a.startswith(b) or b.startswith(a))


def short_title(text: str, max_words: int) -> str:
    """A heading-path title cut from a clause's own text: up to its first
    punctuation, at most ``max_words`` words.

    >>> short_title("Accident means a sudden, unforeseen and involuntary event.", 12)
    'Accident means a sudden'
    """
    head = re.split(r"[,.;:(]|\s[\u2013\u2014-]\s", text, maxsplit=1)[0]
    return " ".join(head.split()[:max_words]) or text[:80]


class _Contents:
    """The contents list: a bounded list of ``(number, title)`` in order."""

    def __init__(self) -> None:
        self.entries: List[Tuple[Number, str]] = []
        self.position: Dict[Number, int] = {}
        self.found: set[Number] = set()
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


class PolicyLayout(ParagraphLayout):
    """Numbered sections, packed paragraph by paragraph under a cap."""

    def __init__(self, *args: Any, cap: Cap, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.packer = Packer(cap, self.emit)
        self.packer.start("front", None, "")
        self.current: Optional[Number] = None
        self._next: List[Number] = []  # what may follow ``current``
        # The open path: [number, title, form of its children] per level.
        self.path: List[List[Any]] = []
        self.contents = _Contents()
        self._contents_done: List[str] = []  # missing entries of earlier contents lists
        self._listed = 0
        self._found_listed = 0
        self._headings_since_contents = 0
        self._held_number: Optional[str] = None
        self._ids: "OrderedDict[str, int]" = OrderedDict()
        self._title_is_text = False  # the open heading's text is also body text
        self._title_rec: Record = (0, 0, "", 0)
        self._root: List[Any] = [(), "", None]  # the frame above the top-level sections
        self._verdict_for: Optional[Record] = None
        self._last_verdict = ""

    RULES = (
        # A contents entry ends in a page number with a dot just before it.
        ("contents_line", lambda t: t[-1] in _DIGITS and "." in t[-8:], CONTENTS),
        ("heading_line", lambda t: t[0] in _DIGITS, HEADING),
    )
    SPECIAL = special_lines(r"\d")
    LEADER = re.compile(r"\.[ \t]?\.(?:[ \t]?\.)*[ \t]*\d{1,4}[ \t]*$", re.MULTILINE)

    # -- contents ------------------------------------------------------------
    def add_contents(self, rec: Record) -> None:
        m = rec[5]
        if self._headings_since_contents:
            self._close_contents()
        number = m["num"] or m["gnum"] or self._held_number
        title = m["title"] if m["title"] is not None else m["gtitle"]
        self._held_number = None
        self.count("contents_lines")
        self.diagnose("contents", rec[0], text=rec[2])
        if number:
            self.contents.add(parse_number(number), title)

    def is_contents_number(self, rec: Record) -> bool:
        return BARE_NUMBER.match(rec[2]) is not None

    def hold_contents_number(self, rec: Record) -> None:
        """A contents number printed on a line of its own; its title follows."""
        self._held_number = rec[2].rstrip(".")
        self.count("contents_lines")
        self.diagnose("contents", rec[0], text=rec[2])

    def _close_contents(self) -> None:
        """A new contents list begins (documents concatenated): settle the old one."""
        self._listed += len(self.contents.entries)
        self._found_listed += len(self.contents.found)
        self._contents_done = (self._contents_done + self.contents.missing())[:MAX_CONTENTS]
        self.contents = _Contents()
        self._headings_since_contents = 0

    # -- headings ------------------------------------------------------------
    def _verdict(self, m: "re.Match[str]") -> str:
        """Why the heading-shaped line in ``self.match`` is not a heading, or ``""``.

        The contents list's next entry lets its number skip ahead; when the
        title matches too, it also vouches for a lower-case title or a form
        unlike the siblings'.
        """
        number = parse_number(m["num"])
        title = m["title"] if m["title"] is not None else m["glued"]
        listed = self.contents.next_entry()
        listed_next = listed is not None and listed[0] == number
        vouched = listed_next and _same_title(title, listed[1])  # type: ignore[index]
        letter = first_letter(title)
        if not letter:
            return "no title"
        if not letter.isupper() and not vouched:
            return "lower-case title"
        if self.current is not None and not listed_next and number not in self._next:
            return "not next in sequence"
        form = self._parent_frame(number)[2]
        if form is not None and not vouched and form != (bool(m["dot"]), title.isupper()):
            return "form differs from its siblings"
        return ""

    def opens_section(self, rec: Record) -> bool:
        # Asked twice per line (by the reader, then by the trigger): remember.
        if rec is not self._verdict_for:
            self._verdict_for, self._last_verdict = rec, self._verdict(rec[5])
        return not self._last_verdict

    def reject_heading(self, rec: Record) -> None:
        self.count("headings_rejected")
        self.opens_section(rec)
        self.diagnose("rejected_heading", rec[0], text=rec[2], reason=self._last_verdict)

    def _parent_frame(self, number: Number) -> List[Any]:
        """The open frame that is ``number``'s nearest ancestor, or the root."""
        frame: List[Any]
        for frame in reversed(self.path):
            prefix: Number = frame[0]
            if prefix == number[: len(prefix)] and len(prefix) < len(number):
                return frame
        return self._root

    def open_section(self, rec: Record) -> None:
        m = rec[5]
        self.end_paragraph()
        number_text = m["num"]
        number = parse_number(number_text)
        title = (m["title"] if m["title"] is not None else m["glued"]).strip()
        form = (bool(m["dot"]), title.isupper())
        if self.current is not None and number not in self._next:
            self.diagnose("skipped_number", rec[0], number=number_text,
                          after=".".join(map(str, self.current)))
        parent = self._parent_frame(number)
        if parent[2] is None:
            parent[2] = form
        while self.path and not (self.path[-1][0] == number[: len(self.path[-1][0])]
                                 and len(self.path[-1][0]) < len(number)):
            self.path.pop()
        max_words = self.settings.max_title_words
        is_text = title.endswith(_CLAUSE_END) or len(title.split()) > max_words
        self.path.append([number, short_title(title, max_words) if is_text else title, None])
        self.current = number
        self._next = next_numbers(number)
        self.contents.reached(number)
        self._headings_since_contents += 1
        self.count("sections")
        self.packer.start(self._unique(number_text.rstrip(".")), number_text.rstrip("."),
                          " > ".join(frame[1] for frame in self.path))
        # Clause text on the number's line is body text as well as a title.
        self._title_is_text = is_text
        self._title_rec = (rec[0], rec[1], title, rec[0])
        if is_text:
            self.open_paragraph(self._title_rec)

    def continues_heading(self, rec: Record) -> bool:
        """At a heading: the line continues the heading's text when that text is
        a clause, or when the line starts in lower case (then it is a clause)."""
        return self._title_is_text or rec[2][:1].islower()

    def continue_heading(self, rec: Record) -> None:
        if not self._title_is_text:
            frame = self.path[-1]
            frame[1] = short_title(frame[1], self.settings.max_title_words)
            self.packer.retitle(" > ".join(f[1] for f in self.path))
            self.open_paragraph(self._title_rec)
            self._title_is_text = True
        self.continue_paragraph(rec)

    def _unique(self, number: str) -> str:
        seen = self._ids.get(number, 0) + 1
        self._ids[number] = seen
        self._ids.move_to_end(number)
        if len(self._ids) > MAX_SECTION_IDS:
            self._ids.popitem(last=False)
        return number if seen == 1 else f"{number}~{seen}"

    # -- labels (not a policy thing: a label-shaped line never comes here) ----
    def opens_label(self, rec: Record) -> bool:
        return False

    def follows_clause_end(self, rec: Record) -> bool:
        return False

    def open_label(self, rec: Record) -> None:
        raise AssertionError("the policy profile classifies no line as a label")

    def reject_label(self, rec: Record) -> None:
        raise AssertionError("the policy profile classifies no line as a label")

    # -- paragraphs and the end ----------------------------------------------
    def take_paragraph(self, paragraph: Paragraph) -> None:
        self.packer.add(paragraph)

    def finish(self) -> None:
        self.end_paragraph()
        self.packer.end()

    def report(self) -> Dict[str, Any]:
        listed = self._listed + len(self.contents.entries)
        found = self._found_listed + len(self.contents.found)
        return {
            "listed": listed,
            "found": found,
            "missing": self._contents_done + self.contents.missing(),
            "not_kept": self.contents.overflow,
        }

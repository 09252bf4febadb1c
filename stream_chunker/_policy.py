"""The policy profile: documents cut by numbered sections (``4.2 Escape of water``).

A line is a heading when it has the *shape* of one -- a section number, then a
title whose first letter is a capital -- and its number is one the document can
have *next* (see ``_labels``). The contents list, when the document has one,
vouches for numbers that skip (RFC 2616 goes from 13 to 13.1.1) and for
lower-case titles it lists (see ``_contents``); and a heading must look like
its siblings (trailing dot or not, title in capitals or not), so a numbered
list inside a clause ("4. Body Mass Index (BMI) is;") cannot pass for the next
section.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Pattern, Tuple

from ._contents import ENTRY, LEADER, ReadsContents, may_be_entry
from ._cutter import special_lines
from ._labels import Number, next_numbers, parse_number
from ._packing import Key, Packer, UniqueIds
from ._profile import ParagraphProfile, ProfileSpec, register
from ._records import CONTENTS, HEADING, Line, new
from ._text import first_letter, reads_as_sentence, short_title

HEADING_SHAPE = re.compile(
    r"(?P<num>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)(?:\s+(?P<title>\S.*)|(?P<glued>[A-Z]{2,}\b.*))$"
)

Form = Tuple[bool, bool]
"""How a heading looks: (trailing dot, title in capitals)."""


class _Frame:
    """An open section: its number, its title, and the form its children take."""

    __slots__ = ("number", "title", "children")

    def __init__(self, number: Number, title: str) -> None:
        self.number = number
        self.title = title
        self.children: Optional[Form] = None


def _same_title(a: str, b: str) -> bool:
    """Titles agree when one starts the other, ignoring case and spacing (a
    contents list may shorten a title; a body heading may wrap)."""
    a = " ".join(a.casefold().rstrip(" .").split())
    b = " ".join(b.casefold().rstrip(" .").split())
    return bool(a and b) and (a.startswith(b) or b.startswith(a))


def _title(m: "re.Match[str]") -> str:
    return m["title"] if m["title"] is not None else m["glued"]


def chunk_id(key: Key, n: int, only: bool) -> str:
    """``4.2`` for a section in one chunk, ``4.2#1``, ``4.2#2`` for one in several."""
    return key.base if only else f"{key.base}#{n}"


class PolicyProfile(ReadsContents, ParagraphProfile):
    """Numbered sections, packed paragraph by paragraph under a cap."""

    RULES = (
        (CONTENTS, may_be_entry, ENTRY),
        (HEADING, lambda t: t[0] in "0123456789", HEADING_SHAPE),
    )
    special = special_lines(r"\d")
    leader: Optional[Pattern[str]] = LEADER

    def __init__(self, *args: Any) -> None:
        ParagraphProfile.__init__(self, *args)
        ReadsContents.__init__(self)
        self.packer = Packer(self.cap, self.emit, "\n", chunk_id)
        self.packer.open(0, Key("front", None, "", None))
        self.current: Optional[Number] = None
        self._next: List[Number] = []  # what may follow ``current``
        self.path: List[_Frame] = []
        self._root = _Frame((), "")  # the frame above the top-level sections
        self._ids = UniqueIds()
        self._title_is_text = False  # the open heading's text is also body text
        self._title_at: Optional[Line] = None  # the open heading's line, and its title
        self._title = ""
        self._verdict = ""  # why the last heading-shaped line was refused, or ""

    # -- headings ------------------------------------------------------------
    def opens_section(self, rec: Line) -> bool:
        """Whether a heading-shaped line opens a section. The contents list's
        next entry lets its number skip ahead; when the title matches too, it
        also vouches for a lower-case title or a form unlike the siblings'."""
        m = rec.match
        assert m is not None
        number = parse_number(m["num"])
        title = _title(m)
        listed = self.contents.next_entry()
        listed_next = listed is not None and listed[0] == number
        vouched = listed_next and _same_title(title, listed[1])  # type: ignore[index]
        letter = first_letter(title)
        if not letter:
            self._verdict = "no title"
        elif not letter.isupper() and not vouched:
            self._verdict = "lower-case title"
        elif self.current is not None and not listed_next and number not in self._next:
            self._verdict = "not next in sequence"
        else:
            form = self._parent_frame(number).children
            differs = form is not None and not vouched and form != (bool(m["dot"]), title.isupper())
            self._verdict = "form differs from its siblings" if differs else ""
        return not self._verdict

    def reject_heading(self, rec: Line) -> None:
        self.count("headings_rejected")
        self.diagnose("rejected_heading", rec.first, text=rec.text, reason=self._verdict)

    def _parent_frame(self, number: Number) -> _Frame:
        """The open frame that is ``number``'s nearest ancestor, or the root."""
        for frame in reversed(self.path):
            prefix = frame.number
            if prefix == number[: len(prefix)] and len(prefix) < len(number):
                return frame
        return self._root

    def open_section(self, rec: Line) -> None:
        m = rec.match
        assert m is not None
        self.end_paragraph()
        number_text = m["num"]
        number = parse_number(number_text)
        title = _title(m).strip()
        if self.current is not None and number not in self._next:
            self.diagnose("skipped_number", rec.first, number=number_text,
                          after=".".join(map(str, self.current)))
        parent = self._parent_frame(number)
        if parent.children is None:
            parent.children = (bool(m["dot"]), title.isupper())
        while self.path and not (self.path[-1].number == number[: len(self.path[-1].number)]
                                 and len(self.path[-1].number) < len(number)):
            self.path.pop()
        max_words = self.settings.max_title_words
        is_text = reads_as_sentence(title, max_words)
        self.path.append(_Frame(number, short_title(title, max_words) if is_text else title))
        self.current = number
        self._next = next_numbers(number)
        self.reach_section(number)
        self.count("sections")
        clause = number_text.rstrip(".")
        self.packer.open(0, new(Key, (self._ids.unique(clause), clause, self._heading_path(), None, True)))
        # Clause text on the number's line is body text as well as a title.
        self._title_is_text = is_text
        self._title_at, self._title = rec, title
        if is_text:
            self._open_title_paragraph()

    def _heading_path(self) -> str:
        return " > ".join(frame.title for frame in self.path)

    def continues_heading(self, rec: Line) -> bool:
        """At a heading: the line continues the heading's text when that text is
        a clause, or when the line starts in lower case (then it is a clause)."""
        return self._title_is_text or rec.text[:1].islower()

    def continue_heading(self, rec: Line) -> None:
        if not self._title_is_text:
            frame = self.path[-1]
            frame.title = short_title(frame.title, self.settings.max_title_words)
            self.packer.retitle(self._heading_path())
            self._open_title_paragraph()
            self._title_is_text = True
        self.continue_paragraph(rec)

    def _open_title_paragraph(self) -> None:
        """The heading's text, as the first line of its section's body."""
        at = self._title_at
        assert at is not None
        self.open_paragraph(Line(at.first, at.page, self._title, at.first, HEADING))

    # -- paragraphs and the end ----------------------------------------------
    def take_paragraph(self, text: str, words: int, lines: Tuple[int, int], pages: Tuple[int, int],
                       cut: bool) -> None:
        self.packer.add(text, words, lines, pages, cut)

    def finish(self) -> None:
        self.end_paragraph()
        self.packer.close()

    def report(self) -> Dict[str, Any]:
        return {"contents": self.contents_report()}


register(ProfileSpec(
    name="policy",
    summary="numbered sections: 4.2 Escape of water (the default)",
    factory=PolicyProfile,
    default_cap=("estimate", 400),
))

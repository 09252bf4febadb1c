"""What the scanner hands the reader: one record per line that matters, or per
run of plain lines, each with its line class (the trigger it fires).

Blank lines make no record of their own: they only end paragraphs, and a
record's ``after_blank`` is all the reader needs to know of them.
"""

from __future__ import annotations

import re
from typing import List, NamedTuple, Optional, Tuple

BLANK = "blank_line"
TEXT = "text_line"
HEADING = "heading_line"
LABEL = "label_line"
CONTENTS = "contents_line"
PAGE_BREAK = "page_break"
STYLED = "styled_line"
"""A line no rule takes that a PDF's layout sets above the body (``core.layout``)."""
LINE_CLASSES: Tuple[str, ...] = (BLANK, TEXT, HEADING, LABEL, CONTENTS, PAGE_BREAK, STYLED)
"""The classes of line, which are the triggers of the reader's machine."""


class Line(NamedTuple):
    """One line, or a paragraph of plain lines, as the reader takes it."""

    first: int
    """Its first raw line number (from 1)."""
    page: int
    """The page it is on (1 plus the form feeds before it)."""
    text: str
    """The text, stripped; a paragraph of plain lines keeps the newlines between
    them; empty for a page break."""
    last: int
    """Its last raw line number."""
    cls: str
    """Its line class: ``TEXT`` for body text, or what the profile's rules made of it."""
    match: Optional["re.Match[str]"] = None
    """What the rule that named the class matched, if any."""
    after_blank: bool = False
    """Blank lines came just before it."""
    cut: bool = False
    """A piece of a line longer than the hard bound (see ``core.stages.splitter``)."""


class Span(NamedTuple):
    """A paragraph inside a run: lines ``first`` to ``last`` and their text."""

    first: int
    last: int
    text: str


class Run(NamedTuple):
    """Paragraphs of plain lines, each after blank lines, on one page: what
    ``blank_line`` then ``text_line``, over and over, would be."""

    page: int
    spans: List[Span]

    def lines(self) -> List[Line]:
        """The run as the ``text_line`` records it stands for."""
        return [Line(s.first, self.page, s.text, s.last, TEXT, None, True) for s in self.spans]


new = tuple.__new__
"""Records are made by the thousand a megabyte: where they are, ``new(Line,
(...))`` with every field skips the Python-level ``__new__`` that NamedTuple
gives a class, and costs half as much (1,400 instructions against 3,000)."""

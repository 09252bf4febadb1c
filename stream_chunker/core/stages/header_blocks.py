"""A page's header block below its zone: the lines a page opens with, alike page after page.

The zones (``core.stages.zones``) judge the first ``ZONE_LINES`` non-blank
lines of each page. Some wordings open every page with a longer block -- an
insurer's name, its address, a helpline, the product's name (Bajaj's six
lines, ``Issuing Office:`` ⏎ ``GLOBAL HEALTH CARE`` last) -- whose lines below
the zone stay in the text, break the numbering of the clause they fall in and
read as headings. A block goes whole: on a page whose first ``ZONE_LINES``
lines are all furniture, the lines below them, up to ``BLOCK_LINES``, are
furniture too for as long as each is the line at its place on the last
``RECURS_IN`` pages (the count a zone asks for) whose zone reads as this
page's, numbers masked: the first line that differs ends the block, and every
line after it is the page's. (Left and right pages may each have a block of
their own: Chubb's PDS, from ``pdftotext -raw``, opens a left page with the
running header, its number and the footer's lines, a right page with the
footer alone. A page is compared with the pages of its kind, not with the
page before it; nor with any page, which would take a heading that opens
every other page, ``What is not covered``, for a block's line.)

Learned as the text streams: the first pages with such a block keep the lines
below their zones, as nothing before them shows the block yet. The decision
depends on the text alone, line after line, whatever the blocks the text is
released in; what is kept is the last ``KEPT_BLOCKS`` blocks, at most
``BLOCK_LINES`` lines each, with their zones.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from typing import AbstractSet, Deque, List, Optional, Sequence, Tuple

from ..layout import ZONE_LINES
from .furniture import RECURS_IN, ZONES_APART, masked_form

BLOCK_LINES = 8
"""Non-blank lines a page's header block may hold, its zone's among them."""
KEPT_BLOCKS = ZONES_APART * RECURS_IN
"""Blocks kept to compare a page's with: ``RECURS_IN`` of each of two kinds
of page that alternate, as a zone's forms may (``ZONES_APART``)."""


class HeaderBlocks:
    """Finds the lines of header blocks below the zones, in released text."""

    def __init__(self) -> None:
        # Page by page: the zone's lines (numbers masked) and the lines below it.
        self._blocks: Deque[Tuple[Tuple[str, ...], Tuple[str, ...]]] = deque(maxlen=KEPT_BLOCKS)
        self._depth: Optional[int] = None  # non-blank lines read of the page top looked at, or None
        self._below: List[str] = []  # that page's lines below its zone so far
        self._whole = True  # every one of them so far is furniture
        self._zone: List[str] = []  # that page's zone lines, numbers masked
        self._alike: List[Tuple[str, ...]] = []  # the lines below the zone of the last pages with that zone

    @property
    def looking(self) -> bool:
        """A page top is being looked at: the next text goes on with it."""
        return self._depth is not None

    def furniture_in(self, text: str, furniture: AbstractSet[int], pages: Sequence[int]) -> List[int]:
        """The starts of the lines in ``text`` (complete lines, the next
        released) that are furniture as lines of a header block, given the
        keys of the zones' furniture in it and where its lines with a form
        feed start, in order."""
        out: List[int] = []
        if self._depth is not None:
            self._read_top(text, 0, furniture, out)
        keys = sorted(key for key in furniture if key >= 0)
        for k, start in enumerate(pages):
            # Too few furniture lines on a page for a block: most pages, no look
            # (but at the last, whose top may go on in the next text).
            if k + 1 < len(pages) and bisect_left(keys, pages[k + 1]) - bisect_left(keys, start) < ZONE_LINES:
                continue
            self._depth, self._below, self._whole, self._zone = 0, [], True, []
            line_end = text.index("\n", start)
            first = text[text.rfind("\f", start, line_end) + 1:line_end].strip()
            if first:
                self._take(start, first, furniture, out)
            self._read_top(text, line_end + 1, furniture, out)
        return out

    def _read_top(self, text: str, pos: int, furniture: AbstractSet[int], out: List[int]) -> None:
        """Lines from ``pos`` while a page top is looked at, up to the next page
        (a page with fewer lines) or the end of ``text`` (it goes on in the next)."""
        while self._depth is not None and pos < len(text):
            end = text.index("\n", pos)
            if "\f" in text[pos:end]:
                self._end_block()
                return
            line = text[pos:end].strip()
            if line:
                self._take(pos, line, furniture, out)
            pos = end + 1

    def _take(self, key: int, line: str, furniture: AbstractSet[int], out: List[int]) -> None:
        depth = self._depth
        assert depth is not None
        if depth < ZONE_LINES:
            if key not in furniture:
                self._depth = None  # (the zone's lines are not all furniture: no block)
                return
            self._zone.append(masked_form(line)[0])
            if depth + 1 == ZONE_LINES:  # (the zone read: the pages of its kind, once a page)
                zone = tuple(self._zone)
                self._alike = [below for kind, below in reversed(self._blocks) if kind == zone][:RECURS_IN]
        else:
            at = depth - ZONE_LINES
            alike = self._alike
            if self._whole and len(alike) == RECURS_IN and all(len(below) > at and below[at] == line for below in alike):
                out.append(key)
            else:
                self._whole = False
            self._below.append(line)
        self._depth = depth + 1
        if self._depth == BLOCK_LINES:
            self._end_block()

    def _end_block(self) -> None:
        if self._depth is not None and self._depth >= ZONE_LINES:
            self._blocks.append((tuple(self._zone), tuple(self._below)))
        self._depth = None

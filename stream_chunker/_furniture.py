"""Page furniture: running headers, footers and page numbers, found in one pass.

A printed page repeats its header and footer on every page; pdftotext writes a
form feed between pages. A line is furniture when it sits in the *zone* of a page
break -- among the last few non-blank lines before the break or the first few
after it -- and either its form ("RFC # HTTP/1.1 June #")
(whole numbers masked, so page numbers do not tell pages apart, while dotted
section numbers do) also occurs in the zone of a nearby page break (at most ``ZONES_AHEAD`` away: a
running header recurs page after page, while a section title that happens to
open two pages far apart does not make it furniture), or it has the shape of a
page number ("Page 3 of 25", "- 12 -", "[Page 12]", a bare number). Strong
page-number shapes are furniture anywhere, which covers text with no form feeds
at all. The start of the text counts as a first page break and its end as a
last one.

The first time a header appears nothing proves yet that it recurs, so a zone
line with a new form waits -- and every line after it, to keep the order --
until the zones of the next two page breaks have been seen (two, so headers that
alternate between left and right pages are caught): a lookahead of two pages,
capped at ``max_held`` records and ``max_held_chars`` characters -- past either,
what is pending is judged with what is known.

The scanner tells the filter which lines are bottom-zone candidates (it sees the
form feed ahead); the filter itself counts off the top zone after a break.
"""

from __future__ import annotations

import re
from collections import OrderedDict, deque
from typing import Callable, Deque, List, Sequence

ZONE_LINES = 3
"""Non-blank lines on each side of a page break that may be furniture."""

ZONES_AHEAD = 2
"""Zones a new form waits for before it is judged body text."""

MAX_FORMS = 512
"""Masked forms remembered; the least recently seen is forgotten first."""

# Page numbers are whole numbers; a dotted section number ("5.1") is part of a
# line's identity and stays.
_PAGE_DIGITS = re.compile(r"(?<![\d.])\d+(?![\d.]?\d)")
PAGE_NUMBER_ANYWHERE = re.compile(
    r"(?i)(?:\[\s*page\s+\d+(?:\s+of\s+\d+)?\s*\]|page\s+\d+(?:\s+of\s+\d+)?|[-\u2013\u2014]\s*\d+\s*[-\u2013\u2014])$"
)
# Masked forms (digits as "#") that read as a page number in a page's zone.
_PAGE_FORM = re.compile(r"(?i)(?:[ivxlc]{1,7}|#|.*(?:\[\s*page\s+#\s*\]|\bpage\s+#(?:\s+of\s+#)?))$")

# What is held: plain records as they are, and each furniture candidate as a
# small list (cheaper to make than an object): [record, status, form, zone].
_REC, _STATUS, _FORM, _ZONE = 0, 1, 2, 3
_BODY, _PENDING, _FURNITURE = 0, 1, 2


def page_number_line(text: str) -> bool:
    """True for a line that reads as a page number wherever it stands.

    >>> page_number_line("Page 3 of 25"), page_number_line("- 12 -"), page_number_line("12 days")
    (True, True, False)
    """
    return PAGE_NUMBER_ANYWHERE.match(text) is not None


def masked_form(text: str) -> str:
    """The line with whole numbers masked and spaces collapsed.

    >>> masked_form("Fielding, et al.   Standards Track   [Page 12]")
    'Fielding, et al. Standards Track [Page #]'
    >>> masked_form("5.1 CONCEPT"), masked_form("RFC 2616  HTTP/1.1  June 1999")
    ('5.1 CONCEPT', 'RFC # HTTP/1.1 June #')
    """
    return _PAGE_DIGITS.sub("#", " ".join(text.split()))


class FurnitureFilter:
    """Passes records on to ``emit`` in order, minus the furniture, which goes to
    ``drop``. A record is ``(first line, page, text, last line)``; blank lines
    have text ``""`` and page breaks text ``None``."""

    def __init__(self, emit: Callable[[Sequence], None], drop: Callable[[Sequence], None],
                 max_held: int = 400, max_held_chars: int = 64 * 1024) -> None:
        self._emit = emit
        self._drop = drop
        self._max_held = max_held
        self._max_held_chars = max_held_chars
        self._held_chars = 0
        self._held: Deque[list] = deque()
        self._zone = 0  # index of the latest page break
        self._pending: List[list] = []  # held items still undecided
        self._zone_forms: List[str] = []  # forms seen in the zone being collected
        self._next_forms: List[str] = []  # forms of bottom candidates of the break to come
        self._forms: "OrderedDict[str, List[int]]" = OrderedDict()  # form -> last zones it was seen in
        self.top_left = ZONE_LINES  # the start of the text is a page top too

    # -- input ---------------------------------------------------------------
    def line(self, rec: Sequence) -> None:
        """A single line that is no bottom-zone candidate (blank or not)."""
        text = rec[2]
        if text and self.top_left:
            self.top_left -= 1
            self._candidate(rec, self._zone, self._zone_forms)
            if not self.top_left:
                self._close_zone()
        elif PAGE_NUMBER_ANYWHERE.match(text):
            self._put([rec, _FURNITURE, "", 0])
        elif self._held:
            self._put(rec)
        else:
            self._emit(rec)

    def run(self, rec: Sequence) -> None:
        """Several plain body lines in one record: never furniture."""
        if self._held:
            self._put(rec)
        else:
            self._emit(rec)

    def bottom(self, rec: Sequence) -> None:
        """One of the last non-blank lines before a page break (or the end)."""
        self._candidate(rec, self._zone + 1, self._next_forms)

    def page_break(self, rec: Sequence) -> None:
        if self.top_left:  # a page too short to fill the top zone
            self._close_zone()
        self._zone += 1
        self._zone_forms, self._next_forms = self._next_forms, []
        self.top_left = ZONE_LINES
        if self._held:
            self._put(rec)
        else:
            self._emit(rec)

    def close(self) -> None:
        """End of input: the last lines are a page's foot -- if the text had
        pages at all; text without form feeds has only the patterns."""
        if self.top_left:
            self._close_zone()
        if self._zone:
            self._zone += 1
            self._zone_forms, self._next_forms = self._next_forms, []
            self._close_zone()
        self._resolve(everything=True)

    # -- zones ---------------------------------------------------------------
    def _candidate(self, rec: Sequence, zone: int, forms: List[str]) -> None:
        form = masked_form(rec[2])
        if _PAGE_FORM.match(form) or PAGE_NUMBER_ANYWHERE.match(rec[2]):
            self._put([rec, _FURNITURE, form, zone])
            return
        forms.append(form)
        if self._recurs(form, zone):
            self._put([rec, _FURNITURE, form, zone])
            return
        item = [rec, _PENDING, form, zone]
        self._pending.append(item)
        self._put(item)

    def _close_zone(self) -> None:
        """The latest break's zone is complete: count each of its forms once."""
        self.top_left = 0
        forms = self._forms
        zone = self._zone
        for form in set(self._zone_forms):
            seen = forms.get(form)
            if seen is None:
                forms[form] = [zone]
            else:
                seen.append(zone)
                del seen[:-ZONES_AHEAD - 1]
                forms.move_to_end(form)
        while len(forms) > MAX_FORMS:
            forms.popitem(last=False)
        self._zone_forms = []
        self._resolve(everything=False)

    def _resolve(self, everything: bool) -> None:
        """Decide pending lines: those proven to recur, those whose next zones
        have all been seen, or (at the end, or when too much is held) all."""
        if self._pending:
            horizon = self._zone - ZONES_AHEAD
            undecided = []
            for item in self._pending:
                if self._recurs(item[_FORM], item[_ZONE]):
                    item[_STATUS] = _FURNITURE
                elif everything or item[_ZONE] <= horizon:
                    item[_STATUS] = _BODY
                else:
                    undecided.append(item)
            self._pending = undecided
        self._release()

    def _recurs(self, form: str, zone: int) -> bool:
        """Whether ``form`` was seen in another zone near ``zone``."""
        for other in self._forms.get(form, ()):
            if other != zone and abs(other - zone) <= ZONES_AHEAD:
                return True
        return False

    # -- output --------------------------------------------------------------
    def _put(self, item: Sequence) -> None:
        """Hold a record (a tuple) or a candidate (a list) behind what is held."""
        self._held.append(item)
        text = item[2] if item.__class__ is tuple else item[_REC][2]
        if text:
            self._held_chars += len(text)
        if len(self._held) > self._max_held or self._held_chars > self._max_held_chars:
            self._resolve(everything=True)
        elif item.__class__ is list:
            self._release()

    def _release(self) -> None:
        held = self._held
        if not held:
            return
        while held:
            item = held[0]
            if item.__class__ is list:
                status = item[_STATUS]
                if status == _PENDING:
                    return
                held.popleft()
                if status == _FURNITURE:
                    self._drop(item[_REC])
                else:
                    self._emit(item[_REC])
            else:
                self._emit(held.popleft())
        if not held:
            self._held_chars = 0

"""Page furniture: running headers, footers and page numbers, found in one pass.

A printed page repeats its header and footer on every page; pdftotext writes a
form feed between pages. A line is furniture when it sits in the *zone* of a page
break -- among the last few non-blank lines before the break or the first few
after it -- and either its form ("RFC # HTTP/1.1 June #": whole numbers masked,
dotted section numbers kept) also occurs in the zone of a nearby page break (at
most ``ZONES_APART`` away: a running header recurs page after page, while a
title that opens two pages far apart does not make it furniture), with each
whole number the same or moved on with the pages (a page number), or it has the
shape of a page number ("Page 3 of 25", "- 12 -", "[Page 12]", a bare number). Strong
page-number shapes are furniture anywhere, which covers text with no form feeds
at all. The start of the text is the top of a first page, and, if the text had
pages, its end is the foot of the last.

The first time a header appears nothing proves yet that it recurs, so a zone is
judged only once the zones of the next ``ZONES_APART`` page breaks have been
seen: a lookahead of two pages (two, so headers that alternate between left and
right pages are caught), capped at ``MAX_LOOKAHEAD`` characters and
``MAX_LOOKAHEAD_LINES`` lines. The scanner holds that much text back and judges
the zones in it (see ``_scan``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

ZONE_LINES = 3
"""Non-blank lines on each side of a page break that may be furniture."""

ZONES_APART = 2
"""How far apart two zones may be for a form seen in both to count as recurring."""

MAX_LOOKAHEAD = 32 * 1024
"""Characters of text held back at most while zones wait to be judged."""

MAX_LOOKAHEAD_LINES = 200
"""Lines held back at most: two pages of pdftotext output are well under it, so
text with no form feeds is let go after this many lines."""

# Furniture wherever it stands: "Page 3 of 25", "[Page 12]", "- 12 -".
PAGE_NUMBER_ANYWHERE = re.compile(
    r"(?i)(?:\[\s*page\s+\d+(?:\s+of\s+\d+)?\s*\]|page\s+\d+(?:\s+of\s+\d+)?|[-\u2013\u2014]\s*\d+\s*[-\u2013\u2014])$"
)
# Forms (whole numbers as "#") that read as a page number in a page's zone:
# short ones whole, and the end of longer ones ("... Standards Track [Page #]").
_SHORT_PAGE_FORM = re.compile(r"(?i)(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})|#|[-\u2013\u2014] ?# ?[-\u2013\u2014]")
_PAGE_FORM_END = re.compile(r"(?i)(?:\[\s*page\s+#\s*\]|\bpage\s+#(?:\s+of\s+#)?)$")
# Page numbers are whole numbers; a dotted section number ("5.1") is part of a
# line's identity and stays. (The first digit comes first in the pattern so that
# the regex engine can skip ahead to digits; the look-behind then checks the
# character before it.)
_WHOLE_NUMBER = re.compile(r"(\d(?<![\d.]\d)\d*)(?![\d.]?\d)")


def masked_form(text: str) -> Tuple[str, Tuple[int, ...]]:
    """The line with whole numbers masked and spaces collapsed, and the numbers.

    >>> masked_form("Fielding, et al.   Standards Track   [Page 12]")
    ('Fielding, et al. Standards Track [Page #]', (12,))
    >>> masked_form("5.1 CONCEPT"), masked_form("RFC 2616  HTTP/1.1  June 1999")
    (('5.1 CONCEPT', ()), ('RFC # HTTP/1.1 June #', (2616, 1999)))
    """
    if "  " in text or not text.isprintable():
        text = " ".join(text.split())
    parts = _WHOLE_NUMBER.split(text)
    if len(parts) == 1:
        return text, ()
    return "#".join(parts[::2]), tuple(map(int, parts[1::2]))


@lru_cache(maxsize=256)
def line_form(text: str) -> Tuple[str, Tuple[int, ...]]:
    """A zone line's masked form, ``""`` if that reads as a page number, and the
    whole numbers it prints. Cached: running headers and footers come back on
    every page, and the cache is small, as a page's zone lines are few.

    >>> line_form("RFC 2616  HTTP/1.1  June 1999"), line_form("- 12 -"), line_form("xiv")
    (('RFC # HTTP/1.1 June #', (2616, 1999)), ('', (12,)), ('', ()))
    """
    form, numbers = masked_form(text)
    if len(form) <= 7 and _SHORT_PAGE_FORM.fullmatch(form):
        return "", numbers
    # "page # of #" is the longest ending that makes a page number.
    if form[-1:] in "#]" and "AGE" in form[-12:].upper() and _PAGE_FORM_END.search(form):
        return "", numbers
    return form, numbers


Occurrence = Tuple[int, int, Tuple[int, ...]]
"""Where a form was seen: line start in the text (-1 once passed on), page, and
the whole numbers the line printed."""

Forms = Dict[str, List[Occurrence]]


class Zone:
    """The lines that may be furniture around one page break."""

    __slots__ = ("index", "at", "lines", "forms", "complete")

    def __init__(self, index: int, at: Optional[int] = None) -> None:
        self.index = index
        self.at = at  # where the page edge is: its form feed's line, 0 at the start of the text, None at its end
        # (key, line start, page, form or "" for a page number, numbers); the key
        # is the line start, but for text before a form feed on the same line
        self.lines: List[Tuple[int, int, int, str, Tuple[int, ...]]] = []
        self.forms: Forms = {}
        self.complete = False

    def add(self, start: int, page: int, text: str, key: Optional[int] = None) -> None:
        form, numbers = line_form(text)
        key = start if key is None else key
        if form:
            self.forms.setdefault(form, []).append((key, page, numbers))
        self.lines.append((key, start, page, form, numbers))

    @property
    def starts(self) -> List[int]:
        """Starts of the zone's lines and of its page-break line: text held
        back for a zone must keep the break, or the zone is lost with it."""
        starts = [line[1] for line in self.lines]
        if self.at is not None:
            starts.append(self.at)
        return starts


def _same_furniture(numbers: Tuple[int, ...], other: Tuple[int, ...], pages_apart: int) -> bool:
    """Two lines of one form are the same furniture when each number they print
    is the same or has moved on with the pages (a page number); two headings
    ``1 Storm cover`` and ``4 Storm cover`` on facing pages are not."""
    return len(numbers) == len(other) and all(
        a == b or b - a == pages_apart for a, b in zip(numbers, other))


def judge(zone: Zone, forms: Dict[int, Forms]) -> List[int]:
    """The keys of the zone's lines that are furniture, given the forms of the
    zones around it by index. A short page can put one line in the zones of two
    breaks: a line does not recur by meeting itself."""
    near = [forms[i] for i in range(zone.index - ZONES_APART, zone.index + ZONES_APART + 1)
            if i != zone.index and i in forms]
    out = []
    for key, _, page, form, numbers in zone.lines:
        if not form or any(other != key and _same_furniture(numbers, nums, other_page - page)
                           for seen in near for other, other_page, nums in seen.get(form, ())):
            out.append(key)
    return out


def passed_on(forms: Forms) -> Forms:
    """Forms of a zone whose lines were passed on: in later text their starts
    mean nothing, but they are surely other lines."""
    return {form: [(-1, page, numbers) for _, page, numbers in seen] for form, seen in forms.items()}

"""Page furniture: running headers, footers and page numbers, found in one pass.

A printed page repeats its header and footer on every page; pdftotext writes a
form feed between pages. A line is furniture when it sits in the *zone* of a page
break -- among the last few non-blank lines before the break or the first few
after it -- and either its form ("RFC # HTTP/1.1 June #": whole numbers masked,
so page numbers do not tell pages apart, while dotted section numbers do) also
occurs in the zone of a nearby page break (at most ``ZONES_APART`` away: a
running header recurs page after page, while a section title that happens to
open two pages far apart does not make it furniture), or it has the shape of a
page number ("Page 3 of 25", "- 12 -", "[Page 12]", a bare number). Strong
page-number shapes are furniture anywhere, which covers text with no form feeds
at all. The start of the text is the top of a first page, and, if the text had
pages, its end is the foot of the last.

The first time a header appears nothing proves yet that it recurs, so a zone is
judged only once the zones of the next ``ZONES_APART`` page breaks have been
seen: a lookahead of two pages (two, so headers that alternate between left and
right pages are caught), capped at ``MAX_LOOKAHEAD`` characters. The scanner
holds that much text back and judges the zones in it (see ``_scan``).
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Set, Tuple

ZONE_LINES = 3
"""Non-blank lines on each side of a page break that may be furniture."""

ZONES_APART = 2
"""How far apart two zones may be for a form seen in both to count as recurring."""

MAX_LOOKAHEAD = 64 * 1024
"""Characters of text held back at most while zones wait to be judged."""

PAGE_NUMBER_ANYWHERE = re.compile(
    r"(?i)(?:\[\s*page\s+\d+(?:\s+of\s+\d+)?\s*\]|page\s+\d+(?:\s+of\s+\d+)?|[-\u2013\u2014]\s*\d+\s*[-\u2013\u2014])$"
)
# Forms (whole numbers as "#") that read as a page number in a page's zone.
_PAGE_FORM = re.compile(r"(?i)(?:[ivxlc]{1,7}|#|.*(?:\[\s*page\s+#\s*\]|\bpage\s+#(?:\s+of\s+#)?))$")
# Page numbers are whole numbers; a dotted section number ("5.1") is part of a
# line's identity and stays.
_PAGE_DIGITS = re.compile(r"(?<![\d.])\d+(?![\d.]?\d)")


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
    if "  " in text or not text.isprintable():
        text = " ".join(text.split())
    return _PAGE_DIGITS.sub("#", text)


Forms = Dict[str, Set[int]]
"""Masked forms and where they start: a short page can put one line in the zones
of two breaks, and a line does not recur by meeting itself."""


class Zone:
    """The lines that may be furniture around one page break."""

    __slots__ = ("index", "lines", "forms", "complete")

    def __init__(self, index: int) -> None:
        self.index = index
        self.lines: List[Tuple[int, str]] = []  # (line start in the text, form or "" for a page number)
        self.forms: Forms = {}
        self.complete = False

    def add(self, start: int, text: str) -> None:
        form = masked_form(text)
        if _PAGE_FORM.match(form) or PAGE_NUMBER_ANYWHERE.match(text):
            form = ""
        else:
            self.forms.setdefault(form, set()).add(start)
        self.lines.append((start, form))


def judge(zone: Zone, neighbours: Iterable[Tuple[int, Forms]]) -> List[int]:
    """The starts of the zone's lines that are furniture, given the forms of the
    zones around it as ``(index, forms)``."""
    near: Forms = {}
    for index, forms in neighbours:
        if index != zone.index and abs(index - zone.index) <= ZONES_APART:
            for form, starts in forms.items():
                near.setdefault(form, set()).update(starts)
    return [start for start, form in zone.lines if not form or near.get(form, set()) - {start}]


def passed_on(forms: Forms) -> Forms:
    """Forms of a zone whose lines were passed on: in later text their starts
    mean nothing, but they are surely other lines."""
    return {form: {-1} for form in forms}

"""Page furniture: running headers, footers and page numbers, found in one pass.

A printed page repeats its header and footer on every page; pdftotext writes a
form feed between pages. A line is furniture when it sits in the *zone* of a page
break -- among the last few non-blank lines before the break or the first few
after it -- and either its form ("RFC # HTTP/1.1 June #": whole numbers masked,
dotted section numbers kept) also occurs in the zone of a nearby page break (at
most ``ZONES_APART`` away: a running header recurs page after page, while a
title that opens two pages far apart does not make it furniture), with each
whole number the same or moved on with the pages (a page number), or it has the
shape of a page number ("Page 3 of 25", "- 12 -", "[Page 12]", a bare number), or it
begins or ends with the page's own number, whatever the words beside it, on a
page that prints no page number of its own (a book's running head, ``14The
buildings we insure`` then ``15The types of contents we insure``: the page number
glued to the page's topic, a form of its own on every page). Strong
page-number shapes are furniture anywhere, which covers text with no form feeds
at all. The start of the text is the top of a first page, and, if the text had
pages, its end is the foot of the last.

The first time a header appears nothing proves yet that it recurs, so a zone is
judged only once the zones of the next ``ZONES_APART`` page breaks have been
seen: a lookahead of two pages (two, so headers that alternate between left and
right pages are caught), capped at ``MAX_LOOKAHEAD`` characters and
``MAX_LOOKAHEAD_LINES`` lines. ``core.stages.zones`` holds that much text back and judges
the zones in it.

A heading's copies at a page's edge are furniture too, on their own evidence:
one carried over (``Cover continued``), a page's tab at its foot (the heading
it opened with, printed again), and a section's title that its later pages
repeat as their header (where the layout sets the first larger than the body,
that first stays: it is the heading).

Why one module of this length: every rule reads the same zone lines, filed by
form around the same page edges, and most ask what another found (a page's
printed number, a form already judged furniture); apart, each would need the
zones' filing and the others' findings handed to it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import AbstractSet, Callable, Dict, Iterable, List, NamedTuple, Optional, Set, Tuple

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
# A heading carried over to the next page, at its edge: ``Section 2: Fire and
# theft continued``, ``Exclusions (cont'd)``, ``Continued overleaf``. Booklets
# print one on every page a section spans, each naming its own section, so its
# form need not recur; at a page edge it is never the text's own words.
_CARRIED_OVER = re.compile(
    r"(?i)(?:^|[\s(\u2013\u2014-])(?:continued|cont['\u2019]d)\)?"
    r"(?: overleaf| on (?:the )?(?:next|following) page| from (?:the )?previous page)?$")


def masked_form(text: str) -> Tuple[str, Tuple[int, ...]]:
    """The line with whole numbers masked and spaces collapsed, and the numbers.

    >>> masked_form("Fielding, et al.   Standards Track   [Page 12]")
    ('Fielding, et al. Standards Track [Page #]', (12,))
    >>> masked_form("5.1 CONCEPT"), masked_form("RFC 2616  HTTP/1.1  June 1999")
    (('5.1 CONCEPT', ()), ('RFC # HTTP/1.1 June #', (2616, 1999)))
    >>> masked_form("# Premises 4")
    ('\uff03 Premises #', (4,))
    """
    if "  " in text or not text.isprintable():
        text = " ".join(text.split())
    if "#" in text:  # (a form's ``#`` is a number: one printed stands for itself, ``# Premises``)
        text = text.replace("#", "\uff03")
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


class ZoneLine(NamedTuple):
    """A line in the zone of a page edge, which may be furniture."""

    key: int
    """Its line start in the whole text (see ``core.stages.zones.before_form_feed`` for text before a form feed)."""
    start: int
    """Where its line starts in the whole text."""
    line: int
    """Its line number."""
    end: int
    """Where its line ends in the whole text."""
    page: int
    form: str
    """Its masked form, or ``""`` when it reads as a page number."""
    numbers: Tuple[int, ...]
    """The whole numbers it prints."""


def _same_furniture(numbers: Tuple[int, ...], other: Tuple[int, ...], pages_apart: int) -> bool:
    """Two lines of one form are the same furniture when each number they print
    is the same or has moved on with the pages (a page number); two headings
    ``1 Storm cover`` and ``4 Storm cover`` on facing pages are not."""
    return len(numbers) == len(other) and all(
        a == b or b - a == pages_apart for a, b in zip(numbers, other))


RECURS_IN = 2
"""Other page edges a line's form must be seen at, besides its own, to be
furniture: a running header recurs page after page, while two copies of one
text, or two short pages that both open with ``1 Definitions``, show a line
twice and lose no heading for it."""


NUMBER_FIRST, NUMBER_LAST, PAGE_NUMBER = "\0# ...", "... #\0", "\0#\0"
"""Keys under which a zone also files its lines that begin or end with a whole
number, whatever their words (a running head that prints the page number beside
the page's own topic has a form of its own on every page), and its page numbers."""


def page_number_ends(form: str) -> Tuple[str, ...]:
    """The keys of :data:`NUMBER_FIRST` / :data:`NUMBER_LAST` a line's form is filed under too."""
    return (NUMBER_FIRST,) * form.startswith("#") + (NUMBER_LAST,) * (form.endswith("#") and form != "#")


def filed_under(line: "ZoneLine") -> Tuple[str, ...]:
    """The keys a zone files a line under: its form and number ends, or :data:`PAGE_NUMBER`."""
    if line.form:
        return (line.form, *page_number_ends(line.form))
    return (PAGE_NUMBER,) if printed_page(line) is not None else ()


def printed_page(line: "ZoneLine") -> Optional[int]:
    """The number a page-number line prints: ``12`` of ``F 0011 Page 12 of 26``."""
    if line.form or not line.numbers:
        return None
    return line.numbers[-2] if len(line.numbers) > 1 else line.numbers[-1]


NO_TITLES: AbstractSet[Tuple[str, Tuple[int, ...]]] = frozenset()
"""No title kept at the page edges before: text without a layout."""


def unmarked(line: int) -> bool:
    """No line is set larger than the body: text without a layout."""
    return False


def furniture(lines: Iterable[ZoneLine], near: Iterable[Dict[str, List[ZoneLine]]],
              known: Iterable[int] = (), edge: int = 0, set_larger: Callable[[int], bool] = unmarked,
              titles: AbstractSet[Tuple[str, Tuple[int, ...]]] = NO_TITLES) -> List[int]:
    """The keys of the zone ``lines`` that are furniture, given the lines of the
    zones around it by form and the keys already judged furniture. A line is
    furniture when it reads as a page number, or as a heading carried over
    (``Cover continued``), or it is the last words of a page and repeats a
    line of the same page's top (a running foot: the heading the page opened
    with, printed again on its tab), or its form recurs at
    ``RECURS_IN`` other page edges, or at one whose line was furniture already
    (the last pages of a text, and headers that alternate left and right, see
    fewer edges after them). A short page can put one line in the zones of two
    breaks: a line does not recur by meeting itself. A section's title that
    its later pages print again as their running header is no furniture where
    it first stands: the layout sets it larger than the body there
    (``set_larger``, by line number), and not where it recurs. Where it
    recurs, not set larger, at the next page edge or the one after, it is
    the running header it has become even on one page (a section of two
    pages): ``titles`` are the forms and numbers of the titles kept at the
    edges judged before (``Section 2`` set large says nothing of ``Section 3``).

    >>> head = lambda key, page: ZoneLine(key, key, key, key, page, "Acme Policy", ())
    >>> number = ZoneLine(20, 20, 2, 21, 1, "", (3,))
    >>> furniture([head(10, 1), number], [{"Acme Policy": [head(90, 2)]}, {"Acme Policy": [head(170, 3)]}])
    [10, 20]
    >>> furniture([head(10, 1), number], [{"Acme Policy": [head(90, 2)]}])
    [20]
    >>> furniture([head(170, 3)], [{"Acme Policy": [head(90, 2)]}], known={90})
    [170]
    >>> furniture([head(170, 3)], [{"Acme Policy": [head(90, 2)]}], titles={("Acme Policy", ())})
    [170]
    """
    lines, near, known = list(lines), list(near), set(known)
    numbered = [other for forms in near for other in forms.get(PAGE_NUMBER, ())]
    numbered += [line for line in lines if not line.form and line.numbers and printed_page(line) is not None]
    filed = set().union(*near)  # (a line whose form is filed nowhere near and that has no number recurs as nothing)
    out = []
    for line in lines:
        form = line.form
        if not form or (form in filed or line.numbers) and (
                _recurs(line, near, known) and not (set_larger(line.line) and _title_run_on(line, near, set_larger))
                or _page_numbered(line, numbered, near, known)) \
                or form[-4:].lower() in _CARRIED_TAILS and _carried_over(form):
            out.append(line.key)
    if titles:
        out += [line.key for line in lines
                if (line.form, line.numbers) in titles and line.key not in out and not set_larger(line.line)]
    foot = _page_foot(lines, near, edge)
    if foot is not None and foot.key not in out:
        out = [line.key for line in lines if line.key in out or line is foot]
    return out


def _title_run_on(line: ZoneLine, near: List[Dict[str, List[ZoneLine]]], set_larger: Callable[[int], bool]) -> bool:
    """``line``, a section's title set larger than the body (the caller asks),
    recurs only on later pages, none set so: the running header it becomes."""
    others = [other for forms in near for other in forms.get(line.form, ()) if other.key != line.key]
    return all(other.page > line.page and not set_larger(other.line) for other in others)


def _page_foot(lines: List[ZoneLine], near: List[Dict[str, List[ZoneLine]]], edge: int) -> Optional[ZoneLine]:
    """The zone's last line with words before its page edge (the line ``edge``),
    where the same page opened with a line of its form: a typesetter never ends
    a page on a heading (its text would be on the next page), so the second is
    the page's tab, the page's heading printed again. (Asked of every page:
    written as plain loops, which cost a third of the same in comprehensions.)"""
    last: Optional[ZoneLine] = None
    for line in lines:  # (a zone lists the lines before its edge first, from the edge back: see ``zones``)
        if (line.line < edge or line.key < 0) and _LETTER.search(line.form) is not None:
            last = line
            break
    if last is None:
        return None
    form, page, at = last.form, last.page, last.line
    for other in lines:
        if other.form == form and other.page == page and other.line < at:
            return last
    for forms in near:
        others = forms.get(form)
        if others:
            for other in others:
                if other.page == page and other.line < at:
                    return last
    return None


def _carried_over(form: str) -> bool:
    """Whether a zone line is a heading carried over to the next page.

    >>> [_carried_over(f) for f in ("Section # Personal benefits continued", "Exclusions (cont'd)",
    ...                             "Continued overleaf", "the cover continued.", "discontinued")]
    [True, True, True, False, False]
    """
    return form[-4:].lower() in _CARRIED_TAILS and _CARRIED_OVER.search(form) is not None


_CARRIED_TAILS = frozenset(end[-4:] for end in ("continued", "continued)", "cont'd", "cont'd)", "cont\u2019d",
                                                "cont\u2019d)", "overleaf", "page"))
"""The last four letters of such a line, in lower case (``_CARRIED_OVER`` is asked only then:
most lines end otherwise, and a set is asked at once where a list of endings is walked)."""


def _recurs(line: ZoneLine, near: List[Dict[str, List[ZoneLine]]], known: Set[int]) -> bool:
    """Whether ``line``'s form is seen at ``RECURS_IN`` other page edges, or at
    one whose line is furniture already."""
    seen: Set[int] = set()  # lines, not zones: a short page puts one line in the zones of two edges
    for forms in near:
        for other in forms.get(line.form, ()):
            if other.key != line.key and _same_furniture(line.numbers, other.numbers, other.page - line.page):
                if other.key in known:
                    return True
                seen.add(other.key)
                if len(seen) >= RECURS_IN:
                    return True
    return False


_LETTER = re.compile(r"[^\W\d_]")


def _has_words(form: str) -> bool:
    return _LETTER.search(form) is not None


def _page_numbered(line: ZoneLine, numbered: List[ZoneLine], near: List[Dict[str, List[ZoneLine]]],
                   known: Set[int]) -> bool:
    """Whether the number that begins (or ends) ``line`` is its page's number, on
    a page that prints none of its own: the page numbers printed at the page
    edges around it give the offset (page 19 prints ``14``), or a line of this
    kind that was furniture already moved on with the pages (a running head has
    words: a bare ``2.`` judged furniture says nothing about ``5. Flood`` three
    pages on). A numbered heading atop a page that prints its page number
    elsewhere stays, whatever its number."""
    if not page_number_ends(line.form) or any(other.page == line.page for other in numbered):
        return False
    for key, at in zip((NUMBER_FIRST, NUMBER_LAST), (0, -1)):
        if key not in page_number_ends(line.form):
            continue
        if any(other.numbers and printed_page(other) == line.numbers[at] + other.page - line.page
               for other in numbered):
            return True
        if any(other.key in known and other.page != line.page and _has_words(other.form)
               and other.numbers[at] - line.numbers[at] == other.page - line.page
               for forms in near for other in forms.get(key, ())):
            return True
    return False

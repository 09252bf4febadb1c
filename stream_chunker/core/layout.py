"""What a PDF's layout says of its lines: which stand out from the body text,
and how far -- the strongest evidence of a heading that carries no number.

A driver that reads the layout (PDFium) tells the ``Layout`` how each line of
a page is set before it feeds the page's text: its ``Style``, the size and
weight of most of its characters. The layout learns the document's own body
style as it streams -- the style that sets the most characters so far -- and
marks the lines set *above* it: larger, or bold where the body is not. Each
such line gets a prominence (its size, a bold one a little more), so that a
profile can rank headings by the document's own hierarchy of styles rather
than by a list of words. Text without a layout (``pdftotext``, a pipe) has
only its own evidence: the lines that stand apart by their text alone, a
title between two sentences (``titles_alone``), are marked below any style
(and the policy profile has one line of hindsight before a list,
``PolicyProfile._list_title``).

Memory: one count per style seen (at most ``MAX_STYLES``), the run-in terms
marked and the titles alone in text with the line before each (at most
``MAX_TERMS`` of each) and the marks of the lines fed but not yet
read, which the zones hold back by a page or two.

Why one module of this length: a page's marks are decided together -- runs
set above the body, lines in capitals, run-in terms -- each asking of the
others (a term may follow a line that stands out, not a bold item) and of the
same tests of a heading's ending (``reads_as_heading``); apart, each would
need the others' reasons to be read.
"""

from __future__ import annotations

import re
from collections import deque
from typing import AbstractSet, Callable, Collection, Container, Deque, Dict, List, Mapping, NamedTuple, Optional, Sequence, Set, Tuple

from .contents_page import CONTENTS_TITLE, contents_entries, wrapped_entries
from .text import DASHES, leads_in, mostly_figures, title_case

_LINE_ENDS = re.compile(r"\r\n|\r|\n")

LARGER = 1.15
"""A line this many times the body's size, or more, stands out by size."""
BOLD_MIN = 0.9
"""A bold line where the body is not stands out if it is at least this many
times the body's size (a bold running header in small print does not)."""
MAX_STYLES = 64
"""Styles counted; beyond, the rarest is forgotten (a document sets its text in a handful)."""
ZONE_LINES = 3
"""Lines with text on each side of a page break that may be page furniture
(``core.stages.zones`` judges them): no heading is learned again among them."""
MAX_TERMS = 4096
"""Run-in terms remembered, so that a term seen again is not taken for a definition
(``Damage caused by …`` starting item after item); beyond, new terms are not remembered."""
LEARNING_CHARS = 1000
"""Characters counted before any line is marked: the first lines of a cover
page say little of the body's style. A third of a page of text: a cover
holds less, and a wording's first page of text more, whose headings are then
read (Churchill's ``Welcome to Churchill`` on page 2)."""


class Style(NamedTuple):
    size: float
    """The height of the characters' boxes, in points, to half a point."""
    bold: bool
    tinted: bool = False
    """Set in a colour, not black or a grey (``drivers.pdf.TINT``): a heading
    may stand out by its colour alone, in the body's size and weight."""


def prominence(style: Style, body: Style) -> Optional[float]:
    """How far ``style`` stands out from ``body`` (its size, and a quarter
    point more for bold, or an eighth for a colour where the body has none),
    or ``None`` when it does not.

    >>> body = Style(10.5, False)
    >>> prominence(Style(15.5, True), body), prominence(Style(10.5, True), body), prominence(Style(6.5, True), body)
    (15.75, 10.75, None)
    >>> prominence(Style(10.5, False), body) is None, prominence(Style(10.5, False, True), body)
    (True, 10.625)
    """
    bolder = style.bold and not body.bold
    tinted = style.tinted and not body.tinted
    if style.size >= LARGER * body.size or ((bolder or tinted) and style.size >= BOLD_MIN * body.size):
        return style.size + (0.25 if style.bold else TINTED if tinted else 0.0)
    return None


TINTED = 0.125
"""What a colour adds to a line's prominence where it is not bold: a coloured
line ranks above one of its size in black, below one in bold."""


RUN_IN = 0.0
"""The prominence of a line that starts with a run-in term: below any heading's,
so that terms are siblings of each other under the heading they are listed in."""
MAX_TERM_WORDS = 6
HANGING_TEXT_WORDS = 3
"""Words a hanging term's line goes on with, at least: a table's row has fewer, or figures."""


def run_in_terms(lines: Sequence[str], styles: Sequence[Optional[Style]],
                 leads: Sequence[int], headings: Container[int] = ()) -> List[Tuple[int, str]]:
    """The lines that start a paragraph with a term in bold and go on with its
    text (a definitions list: ``Hijack Any unlawful seizure …``), and the term:
    up to ``MAX_TERM_WORDS`` words with a capital first; the line before blank,
    or ending a sentence or clause, or one of ``headings`` (the lines that
    stand out: a table's header ``TERM MEANING``), or a list's item not set in
    bold (``(b) loss of or damage to property``). Elsewhere a bold word that starts a
    line is a defined term within a sentence (``Stock and other`` ⏎ ``Property …``).

    >>> run_in_terms(["Things we say.", "Hijack Any unlawful seizure", "of a plane."], [None] * 3, [0, 6, 0])
    [(1, 'Hijack')]
    >>> run_in_terms(["and the", "Hijack Any unlawful seizure"], [None] * 2, [0, 6])
    []
    >>> run_in_terms(["(b) loss of or damage to property", "Act of Terrorism Use of force"], [None] * 2, [0, 17])
    [(1, 'Act of Terrorism')]
    >>> run_in_terms(["Things we say.", '"Data" means information in any form.'], [None] * 2, [0, 6])
    [(1, 'Data')]
    >>> run_in_terms(["Things we say.", "flood means water", "cover of the", "home is what we give."], [None] * 4, [0, 5, 0, 4])
    [(1, 'flood')]

    A negative lead is a *hanging* term, in a column of its own beside its
    text (``When We will pay`` ⏎ ``When an Accident happens …``, see
    ``drivers.pdf``): its column sets it apart whatever the line before, but
    its text must be words, not a table's figures.

    >>> run_in_terms(["of Accident", "What We will pay We will pay the benefit"], [None] * 2, [0, -17])
    [(1, 'What We will pay')]
    >>> run_in_terms(["Things we say.", "Loss of one eye 50% 100%"], [None] * 2, [0, -16])
    []
    """
    out: List[Tuple[int, str]] = []
    for i, lead in enumerate(leads[:len(lines)]):
        if not lead:
            continue
        hanging = lead < 0
        lead = abs(lead)
        line = lines[i]
        term = line[:lead].strip().rstrip(":-\u2013\u2014 ").strip(QUOTES)
        after = line[lead:].lstrip(" \t")
        rest = after.lstrip(" \t:-\u2013\u2014")
        set_off = after[:1] in (":", "-", "\u2013", "\u2014")  # (``You: the person named``)
        if not term or len(term.split()) > MAX_TERM_WORDS or not any(ch.isalnum() for ch in rest):
            continue  # (no text after it: ``We;`` leads into a list, ``a)`` ``b)``)
        if not term[0].isupper() and not _DEFINES.match(rest):
            continue  # (a term in lower case is one where its definition says so: ``flood means …``)
        if rest.lstrip(", ")[:1].islower() and (term.split()[0] in _DETERMINERS or _LABELLED.fullmatch(term)) \
                and not set_off and not _DEFINES.match(rest):
            continue  # (a defined term that starts a sentence: **The Insurer** will not pay for, **We** may;
            # or a part named by its label: **SECTION I** describes the insurance on your property;
            # not one set off or defined: **You**: the person named, **We** means AXA)
        if hanging:
            if len(rest.split()) >= HANGING_TEXT_WORDS and not mostly_figures(rest) and not mostly_figures(term):
                out.append((i, term))
            continue
        before = lines[i - 1].strip() if i else ""
        set_before = styles[i - 1] if i else None
        if before and not before.endswith((".", ";", ":", ")", "?")) and not (
                i - 1 in headings and not _LIST_ITEM.match(before)
                or _LIST_ITEM.match(before) and not (set_before is not None and set_before.bold)
                and not leads_on_word(before)):
            continue  # (a bold item before it is a heading that wraps: ``a. Replacement Cost Loss`` ⏎ ``Settlement``;
            # an item's line that stops on ``the`` goes on with a term in use: ``… on behalf of the`` ⏎ **Insured Person**)
        out.append((i, term))
    return out


def _headings_again(lines: Sequence[str], styles: Sequence[Optional[Style]], body: Style,
                    seen: Mapping[str, float], marked: Container[int]) -> List[int]:
    """The lines in the body's own style that print a heading again which the
    layout marked before, word for word, alone between blank lines (Barclays
    sets `Special Conditions relating to claims` in bold in every section but
    one): the document's own headings, whatever the typesetter did this time.
    Not among the page's first or last ``ZONE_LINES`` lines with text, where
    a section's title printed again is its running header (AXA's).

    >>> body, bold = Style(9.0, False), Style(9.0, True)
    >>> page = ["Page 4", "We pay.", "We pay.", "", "What is covered", "", "We pay.", "We pay.", "We pay.", "Page 4"]
    >>> _headings_again(page, [body] * 10, body, {"what is covered": 9.25}, ())
    [4]
    >>> page[3:6] = ["We pay for", "What is covered", "by storm."]  # (in a sentence)
    >>> _headings_again(page, [body] * 10, body, {"what is covered": 9.25}, ())
    []
    >>> top = ["What is covered", ""] + ["We pay."] * 8  # (atop the page: a running header)
    >>> _headings_again(top, [body, None] + [body] * 8, body, {"what is covered": 9.25}, ())
    []
    """
    found = []
    edges = _page_edges(lines)
    for i, (line, style) in enumerate(zip(lines, styles)):  # (the text's last line end leaves one line more)
        if (i not in marked and i not in edges and style == body and (i == 0 or not lines[i - 1].strip())
                and (i + 1 == len(lines) or not lines[i + 1].strip()) and line.strip().casefold() in seen):
            found.append(i)
    return found


def _page_edges(lines: Sequence[str]) -> Set[int]:
    """The page's first and last ``ZONE_LINES`` lines with text: where a line
    set apart may be a running header, a footer or the page's number."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return set(filled[:ZONE_LINES] + filled[-ZONE_LINES:])


def centred_titles(lines: Sequence[str], styles: Sequence[Optional[Style]], body: Style,
                   centred: Collection[int], marked: Container[int]) -> List[int]:
    """The lines in the body's own face that a driver found centred alone over
    the paragraph after them (``drivers.centring``) and that read as a title:
    a capital first, no label, no sentence or clause end, not mostly figures, at most
    ``CENTRED_WORDS`` words (the Ontario owner's policy centres ``Example``
    and ``Example #1`` ⏎ ``(the other driver is entirely responsible)`` over
    its examples). Not among the page's first or last ``ZONE_LINES`` lines
    with text, where a centred line is a running header or a page's number.

    >>> body = Style(12.0, False)
    >>> page = ["ii", "We pay.", "We pay.", "We pay.", "", "Example", "", "Your car is worth $12,000.",
    ...         "You pay $500.", "We pay.", "We pay.", "iii"]
    >>> centred_titles(page, [body] * 12, body, {0, 5, 11}, ())
    [5]
    >>> page[5] = "(a) an Injury that happens during the trip; or"
    >>> centred_titles(page, [body] * 12, body, {5}, ())
    []
    """
    edges = _page_edges(lines)
    out = []
    for i in sorted(centred):
        if i in marked or i in edges or i >= len(styles) or styles[i] != body:
            continue
        text = lines[i].strip()
        if text[:1].isupper() and not _NUMBER_FIRST.match(text) and not _LIST_ITEM.match(text) \
                and len(text.split()) <= CENTRED_WORDS and not text.endswith(_CENTRED_ENDS) and not mostly_figures(text):
            out.append(i)
        elif text[:1] == "(" and out and out[-1] == i - 1 and text.endswith(")"):
            out.append(i)  # (a title's second line in brackets: ``(the other driver is entirely responsible)``)
    return out


CENTRED_WORDS = 12
"""Words a centred line in the body's face may have, as a title."""
_CENTRED_ENDS = (".", ";", ":", ",")


def terms_alone(lines: Sequence[str], runs: Sequence[Tuple[int, int, float]], marks: Dict[int, float],
                first_line: int, bold_body: Style) -> List[Tuple[int, int]]:
    """The runs among a page's definitions that are a term alone, its
    definition below it (``Territorial limits`` ⏎ ``> Great Britain.`` between
    ``Terms The terms …`` and ``Track day When …``), as ``(first line, last
    line)``: in bold at the body's size, on one line or wrapped over a narrow
    column (``Acute Episode of a`` ⏎ ``Chronic Medical`` ⏎ ``Condition``), with a
    run-in term the marked line before it and the one after, and text of its
    own before that next term (a heading over the terms, ``General
    definitions``, has the next term at once under it). They are terms too,
    siblings of those around them, not headings above them -- but for a run
    whose first word is a number, or a code and its number (``IMT1.
    Extension of Geographical Area``): no term has a label.

    >>> page = ["", "", "", "Territorial limits", "", "", "", "", "", ""]
    >>> terms_alone(page, [(3, 4, 10.25)], {1: RUN_IN, 4: 10.25, 7: RUN_IN}, 1, Style(10.0, True))
    [(4, 4)]
    >>> terms_alone(page, [(3, 4, 10.25)], {1: RUN_IN, 4: 10.25, 5: RUN_IN}, 1, Style(10.0, True))
    []
    >>> terms_alone(page, [(3, 6, 10.25)], {1: RUN_IN, 4: 10.25, 5: 10.25, 6: 10.25, 9: RUN_IN}, 1, Style(10.0, True))
    [(4, 6)]
    >>> page[3] = "IMT1. Extension of Geographical Area"
    >>> terms_alone(page, [(3, 4, 10.25)], {1: RUN_IN, 4: 10.25, 7: RUN_IN}, 1, Style(10.0, True))
    []
    """
    out = []
    order = sorted(marks)
    place = {line: at for at, line in enumerate(order)}
    bold_value = prominence(bold_body, Style(bold_body.size, False))
    for start, end, value in runs:
        first, last = first_line + start, first_line + end - 1
        if value != bold_value or _NUMBER_FIRST.match(lines[start]):
            continue
        before, after = place[first] - 1, place[last] + 1
        if before >= 0 and after < len(order) and marks[order[before]] == RUN_IN and marks[order[after]] == RUN_IN \
                and order[after] > last + 1:
            out.append((first, last))
    return out


def standing_out(lines: Sequence[str], styles: Sequence[Optional[Style]],
                 body: Style) -> List[Tuple[int, int, float]]:
    """The runs of lines that stand out from ``body`` as a heading does:
    ``(start, end, prominence)`` for lines ``start`` to ``end - 1``, each run
    lines in one style above the body's, no more than ``MAX_RUN`` of them
    (``MAX_TITLE_RUN`` set ``TITLE_SIZE`` times the body's size or more) and
    not ending as a sentence or a list does. A sentence set in bold for
    emphasis, or a bold list of zones, is body text (the FEMA forms have both).

    >>> body, bold = Style(10.0, False), Style(10.0, True)
    >>> standing_out(["What is covered", "We pay for storm.", "We pay for flood."], [bold, body, body], body)
    [(0, 1, 10.25)]
    >>> standing_out(["You must tell us at once", "of any change."], [bold, bold], body)
    []
    >>> standing_out(["Coverage is limited to no more", "than 10 percent of the", "limit."], [bold, bold, None], body)
    []
    """
    out: List[Tuple[int, int, float]] = []
    i, n = 0, min(len(lines), len(styles))
    below = [0] * (len(lines) + 1)  # lines with text from each line on, to the page's end
    for k in range(len(lines) - 1, -1, -1):
        below[k] = below[k + 1] + bool(lines[k].strip())
    while i < n:
        style = styles[i]
        value = prominence(style, body) if style is not None else None
        j = i + 1
        while j < n and styles[j] == style and lines[j].strip():
            j += 1
        if value is not None and _sentence_goes_on(lines, styles, i, body):
            i = j  # (a defined term set in bold where a sentence wraps: ``… under the`` ⏎ ``Policy:``)
            continue
        if value is not None and (j - i <= MAX_RUN or j - i <= MAX_TITLE_RUN and style is not None
                                  and (style.size >= TITLE_SIZE * body.size or _CODED.match(lines[i]))):
            text = " ".join(line.strip() for line in lines[i:j])
            coded = _coded_title(text)
            if j - i > MAX_RUN and not (_long_title(text) or _label_over_titles(lines[i:j]) or coded):
                i = j
                continue
            if style is not None and style.tinted and not style.bold and style.size < LARGER * body.size \
                    and not _block_of_its_own(lines, i, j, text):
                i = j  # (its colour alone sets it apart: a link, a table's cell, a lead-in in colour)
                continue
            # A heading has text under it on its page: a run that only a footer
            # follows is a title drawn last (a cover block), or furniture --
            # unless it is numbered as a section is (a chapter's title page, an
            # endorsement's title at a page's foot, its text overleaf).
            larger = style is not None and style.size >= LARGER * body.size
            title = style is not None and style.size >= TITLE_SIZE * body.size
            under = below[j] >= MIN_UNDER
            if (under or _NUMBERED.match(text)) and reads_as_heading(
                    text.removesuffix(".") if coded else text, _next_text(lines, j, larger, title) if under else "", larger):
                # At one size and weight, capitals rank above Title Case
                # (``COVERAGE D - LOSS OF USE`` over ``4. Property Not Covered``).
                out.append((i, j, value + CAPITALS if text.isupper() else value))
        i = j
    out += _capitals_alone(lines, styles, body, below)
    out.sort()
    return out


def _block_of_its_own(lines: Sequence[str], i: int, j: int, text: str) -> bool:
    """Lines ``i`` to ``j - 1``, set apart by their colour alone, stand as a
    heading does: a block of their own (a blank line or the page's edge on
    each side), of two words or more, not a lead-in that ends in a colon.
    A question asked in blue over its answer is one (``Who is the
    insurer?``); a link's name in an address, a table's ``Included``, a
    cover's name in colour inside a sentence, ``Included with:`` are not.

    >>> _block_of_its_own(["", "Who is the insurer?", "", "The insurer is Acme."], 1, 2, "Who is the insurer?")
    True
    >>> _block_of_its_own(["Write to the", "Financial Ombudsman Service", "Exchange Tower"], 1, 2,
    ...                   "Financial Ombudsman Service")
    False
    """
    return (i == 0 or not lines[i - 1].strip()) and (j >= len(lines) or not lines[j].strip()) \
        and len(text.split()) >= 2 and not text.endswith(":")


def _sentence_goes_on(lines: Sequence[str], styles: Sequence[Optional[Style]], i: int, body: Style) -> bool:
    """Line ``i`` goes on with a sentence that the line right above it, in
    the body's style (or mixed), stops in the middle of, on a word that leads on (``…
    any Valuables left in`` ⏎ a bold defined term): no heading comes there.

    >>> body, bold = Style(9.0, False), Style(9.0, True)
    >>> _sentence_goes_on(["We will pay for loss under the", "Policy:"], [body, bold], 1, body)
    True
    >>> _sentence_goes_on(["We will pay for loss.", "Policy"], [body, bold], 1, body)
    False
    """
    if not i or styles[i - 1] not in (body, None):
        return False  # (after a line set above the body: a heading's own lines)
    return leads_on_word(lines[i - 1])


def leads_on_word(text: str) -> bool:
    """``text`` stops on a word that leads on (``the``, ``its``, ``UNDER``), not
    on a capital letter that only looks like one (``Coverage A``), nor on one
    of a term's forms after a slash (``WE / US / OUR``, ``You/Your``).

    >>> leads_on_word("cover under the"), leads_on_word("COVER UNDER"), leads_on_word("under Coverage A")
    (True, True, False)
    >>> leads_on_word("WE / US / OUR"), leads_on_word("You/Your"), leads_on_word("damage to your")
    (False, False, True)
    >>> leads_on_word("the Insured and / or"), leads_on_word("the Insured and/or")
    (True, True)
    """
    words = text.split()
    if not words or words[-1] == "A":
        return False
    forms = words[-1].split("/")
    if len(words) > 2 and words[-2] == "/":
        forms = [words[-3], words[-1]]
    if len(forms) > 1 and forms[0].lower() not in LEADING_ON:
        return False  # (the forms of a term: ``You/Your``; ``and/or`` leads on)
    return forms[-1].lower() in LEADING_ON


def _capitals_alone(lines: Sequence[str], styles: Sequence[Optional[Style]], body: Style,
                    below: Sequence[int]) -> List[Tuple[int, int, float]]:
    """Lines in the body's own style that stand apart as a heading does by
    their capitals alone (``OPERATIVE CLAUSE`` between two paragraphs): the
    line before blank or ending a sentence, the one after starting with a
    capital, no label or figure first, at most ``CAPITALS_WORDS`` words."""
    out = []
    for i in range(len(lines)):
        if i >= len(styles) or styles[i] != body:
            continue
        text = lines[i].strip()
        if not text.isupper() or len(text.split()) > CAPITALS_WORDS or not text[:1].isalpha() or len(text) < 4:
            continue
        before = lines[i - 1].strip() if i else ""
        after = _next_text(lines, i + 1)
        if before and before[-1] not in _SENTENCE_ENDS:
            continue
        if not after[:1].isupper() or after.isupper() or below[i + 1] < MIN_UNDER:
            continue
        if reads_as_heading(text, after):
            out.append((i, i + 1, body.size + CAPITALS))
    return out


def _next_text(lines: Sequence[str], j: int, past_page_number: bool = False, page_title: bool = False) -> str:
    """The next line with text from ``j`` on, stripped ("" if none); with
    ``past_page_number`` (after a title set larger than the body), past the
    page's number printed among its first or last lines (a title atop a page,
    ``8`` under it, then its text): that is no table's figure under its header.
    After a ``page_title`` (set ``TITLE_SIZE`` times the body's size), past a
    number alone wherever the page prints it (Chubb draws ``50`` after its
    title, then the footer): no table's header is set so large.

    >>> _next_text(["Claims conditions", "8", "You must tell us."], 1, True)
    'You must tell us.'
    >>> _next_text(["Claims conditions", "8", "You must tell us."], 1), _next_text(["Excess", "250"], 1, True)
    ('8', '250')
    """
    with_text = 0
    for at in range(j, len(lines)):
        line = lines[at].strip()
        if not line:
            continue
        with_text += 1
        if past_page_number and with_text == 1 and _PAGE_NUMBER_ALONE.fullmatch(line) and (
                page_title or _at_page_edge(lines, at)):
            continue
        return line
    return ""


_PAGE_NUMBER_ALONE = re.compile(r"\d{1,3}")
PAGE_EDGE_LINES = 3
"""Lines with text at a page's top or foot where its number may be printed."""


def _at_page_edge(lines: Sequence[str], at: int) -> bool:
    """Line ``at`` is among the first or last ``PAGE_EDGE_LINES`` lines with text
    of the page, and more text follows it (a table's last figure is no page number)."""
    before = sum(1 for line in lines[:at] if line.strip())
    after = sum(1 for line in lines[at + 1:] if line.strip())
    return after > 0 and (before < PAGE_EDGE_LINES or after < PAGE_EDGE_LINES)


def reads_as_heading(text: str, after: str, larger: bool = False) -> bool:
    """Whether a run of lines set apart (``text``, joined) ends as a heading
    does, with ``after`` the next line with text: not as a sentence or a list
    ends, not on a word that leads on (``of``, ``the``), and with no sentence
    going on after it (``Coverage is limited to no more`` ⏎ ``liability …``).
    A run set ``larger`` than the body may end on such a word before a line
    that starts anew, with a capital: a heading that leads into its list
    (``You’re not covered for`` ⏎ ``Liability``).

    >>> reads_as_heading("What is covered", "We pay for storm."), reads_as_heading("Our payment will be for the", "cost")
    (True, False)
    >>> reads_as_heading("Accidental Damage", "is damage that is caused"), reads_as_heading("Coverage is limited to no more", "than")
    (True, False)
    >>> reads_as_heading("INR", "3,750,000"), reads_as_heading("Excess", "£250 per claim")
    (False, True)
    >>> reads_as_heading("INR 3,750,000", "INR")
    False
    >>> reads_as_heading("You’re not covered for", "Liability"), reads_as_heading("You’re not covered for", "Liability", True)
    (False, True)

    A bullet drawn from a symbol font comes out as a letter (``n`` in
    Wingdings is a square) and starts no word of a sentence going on:

    >>> reads_as_heading("What you must do after making your claim", "n If we ask, you must send us")
    True
    >>> reads_as_heading("We will pay the reasonable cost of repairing", "a Vehicle we insure")
    False
    """
    if after[1:2] == " " and after[:1] in SYMBOL_BULLETS and after[2:3].isupper():
        after = after[2:]
    if text.endswith(_RUN_ENDS) and not leads_in(text, larger) or _listed(text) or _FIGURES.fullmatch(after):
        return False  # (a figure under it: a table's cell, ``INR`` ⏎ ``3,750,000``)
    if mostly_figures(text):
        return False  # a table's cells set in bold (``INR`` ⏎ ``3,750,000``), or a code
    if after[:1].islower() and len(text.split()) > TERM_WORDS:
        return False  # (a term of a definitions list may go on: ``Agistment`` ⏎ ``is to take in …``)
    return not leads_on_word(text) or larger and after[:1].isupper()


SYMBOL_BULLETS = "lnoquv"
"""The letters a bullet from a symbol font comes out as, before an item's text: those
Wingdings draws one as (``l`` a disc, ``n`` a square, ``q`` a box, ``u`` a diamond ...).
Not ``a`` or ``i``, which start sentences (``a Vehicle we insure``)."""

_NUMBER_FIRST = re.compile(r"\s*[A-Za-z]*\d[\d.]*[.)]?(?=\s)")
"""A line whose first word is a number, or a code and its number: ``1.``,
``4.2``, ``IMT1.`` (not a term with a number in it: ``Covid-19``, ``4x4``)."""
_NUMBERED = re.compile(r"(?:[A-Z]{2,5}[ .]?)?\d{1,2}\.?(?:\s*[-\u2013\u2014])?\s+[A-Z]"
                       r"|(?:[A-Z]{3,10}|Section|Part|Chapter|Article|Schedule|Annexure|Appendix|Endorsement)"
                       r" \d{1,2}\s*[-\u2013\u2014]\s+[A-Z]")
"""A title numbered as a section is, or by a code and its number, or by a
part's word, its number and a dash: ``1. Key details about your policy``,
``TA17 - Tyre Secure``, ``SECTION 8 – LETTER OF GUARANTEE`` (its text
overleaf); not ``Effective 1 April 2024`` nor ``Version 3 – July 2024``."""

QUOTES = "\"'\u201c\u201d\u2018\u2019"
"""Quotes a defined term may stand in: ``"Business Pursuit" means``."""
_DETERMINERS = frozenset("The A An This These That Our Your Any Each Every No We You They It".split())
"""Words a sentence starts with, and a term in a definitions list does not: a
determiner, or a pronoun that a wording defines and sets in bold wherever it
stands (**We** may not meet …, **You** can also contact …)."""

_LABELLED = re.compile(r"[A-Z][A-Za-z]+\s+(?:[IVXLC]{1,6}|\d{1,3}|[A-Z])")
"""A word and a value, as a part's label is: ``SECTION I``, ``Part 2``, ``Coverage A``."""

_DEFINES = re.compile(r"(?:means|shall mean|includes|refers to|has the meaning)\b")
"""What the text after a defined term starts with where the term is in lower case (``flood means``)."""


_REDEFINES = re.compile(r"(?:means|shall mean|has the (?:same )?meanings?)\b")
"""What the text after a term seen before starts with where it is defined again
(not ``includes``: ``Contents includes property removed …`` is the term in use)."""


def _defines_again(line: str, lead: int) -> bool:
    """The text after the run-in term that ends at ``lead`` says it defines it (``means``)."""
    return _REDEFINES.match(line[lead:].lstrip(" \t:-\u2013\u2014" + QUOTES)) is not None

_LIST_ITEM = re.compile(r"\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})[.)]\s")
"""A line that starts a list's item: ``(b) ``, ``ii. ``, ``3) ``."""

_FIGURES = re.compile(r"[\d\s,.$\u00a3\u20ac\u20b9%/()-]*\d[\d\s,.$\u00a3\u20ac\u20b9%/()-]*")
"""A line of figures only: amounts, percentages, dates."""

TERM_WORDS = 4
"""A run this short may be a defined term whose definition goes on after it in lower case."""

LEADING_ON = frozenset("a an and as at by for from in into its of on or our than that the their to under with your".split())
"""Words a heading does not end on: they lead on to more of a sentence."""

MIN_UNDER = 2
"""Lines with text after a heading on its page, at least (the page's footer may be one)."""

CAPITALS = 0.125
"""What a run in capitals adds to its prominence: less than any step of size or weight."""
CAPITALS_WORDS = 6
"""Words a line in the body's style may have and stand apart by its capitals alone."""

MAX_RUN = 3
"""Lines a heading may wrap over; a longer run in one style is a paragraph set so."""
def _long_title(text: str) -> bool:
    """A run of more lines than a heading has reads as a title all the same: a
    few words, no mark that ends a sentence or a clause, not ending on a word
    that leads on (a paragraph set large, ``Under this Coverage D … pay for: a.
    The cost …``, has them).

    >>> _long_title("Section 4 – Medical, Evacuation and Additional Expenses"), _long_title("we will not pay for: a. The")
    (True, False)
    """
    words = text.split()
    return len(words) <= TITLE_WORDS + 4 and _CLAUSE_MARK.search(text) is None and not leads_on_word(text)


_CLAUSE_MARK = re.compile(r"[.;:]")
_CODED = re.compile(r"[A-Z]{2,5}\.?\d{1,3}\.?\s")
"""A line that starts with a code and its number, glued on or after a dot:
``IMT28.``, ``IMT.12.`` (not a word and a figure: ``FROM 1 APRIL``, ``NOTE 1.``)."""
CODED_TITLE_WORDS = 30
"""Words a title in capitals after a code and its number may run to."""


def _coded_title(text: str) -> bool:
    """A run of lines in capitals after a code and its number is a heading,
    however many lines it wraps over and though it ends with a full stop:
    an endorsement's name, set as the insurer's tariff prints it
    (``IMT29. LEGAL LIABILITY TO EMPLOYEES OF THE INSURED OTHER THAN PAID
    DRIVER … IN THE EMPLOYER’S CAR.``), has no other mark of a clause; a
    paragraph in capitals does not start with a code.

    >>> _coded_title("IMT.12. DISCOUNT FOR SPECIALLY DESIGNED/ MODIFIED VEHICLES FOR THE BLIND.")
    True
    >>> _coded_title("IMT 7. WE WILL NOT PAY: A. FOR WEAR."), _coded_title("1. WE WILL NOT PAY FOR WEAR AND TEAR.")
    (False, False)
    >>> _coded_title("FROM 1 APRIL 2025 THE EXCESS FOR ESCAPE OF WATER CLAIMS WILL RISE TO 500 POUNDS.")
    False
    """
    m = _CODED.match(text)
    if m is None or not text.isupper():
        return False
    title = text[m.end():].removesuffix(".")
    return len(title.split()) <= CODED_TITLE_WORDS and _CLAUSE_MARK.search(title) is None


_LABEL_ALONE = re.compile(r"(?:[A-Z][a-z]{2,9}|[A-Z]{3,10}) (?:\d{1,2}|[IVXLC]{1,6}|[A-Z])")


def _label_over_titles(run: Sequence[str]) -> bool:
    """A run longer than a title wraps over is a part's heading block all the
    same when it starts with a part's word and number alone and each line
    after reads as a title of its own (``_long_title``): ``Part 1`` ⏎ ``Automobile Liability
    Insurance`` ⏎ ``Bodily Injury – Coverage AA`` ⏎ ``Property Damage –
    Coverage BB``, the part's name and the coverages it holds (only a run set
    ``TITLE_SIZE`` times the body's size is this long: ``MAX_TITLE_RUN``).

    >>> _label_over_titles(["Part 1", "Automobile Liability Insurance", "Bodily Injury – Coverage AA"])
    True
    >>> _label_over_titles(["Part 1", "This part covers your liability to", "others."])
    False
    """
    return bool(_LABEL_ALONE.fullmatch(run[0].strip())) and all(_long_title(line) for line in run[1:])
TITLE_SIZE = 1.5
MAX_TITLE_RUN = 6
"""Lines a page's title set ``TITLE_SIZE`` times the body's size or more may
wrap over, in a narrow column (``Section 4 –`` ⏎ ``Medical,`` ⏎ ``Evacuation``
⏎ ``and Additional`` ⏎ ``Expenses``): nobody sets a paragraph so large."""
MAX_COMMAS = 3
"""Commas a heading may hold: more make a list (``A1-A30, AR, AR/AE, …``)."""
_TOPIC = re.compile(r"[A-Z]{4,}")
_SUBJECT = re.compile(rf"[^,]*\s[{DASHES}]\s")
_LAST_TOPIC = re.compile(r",\s+(?:OR|AND)\s")


def _listed(text: str) -> bool:
    """A run with ``MAX_COMMAS`` commas or more is a list, not a heading --
    but for one in capitals that names its topics, each of a word of four
    letters or more, after its subject and a dash or before a last ``OR`` or
    ``AND`` (``TERMINATION - CANCELLATION, NONRENEWAL, AUTOMATIC TERMINATION,
    OTHER TERMINATION PROVISIONS``; ``IN CASE OF DELAY, THEFT, VANDALISM, OR
    LOSS OF BAGGAGE``), where a list of codes has short ones and a bare list
    of things neither (``SKIING, SNOWBOARDING, MOUNTAINEERING, SKYDIVING``).

    >>> _listed("A1-A30, AR, AR/AE, A99, V1-V30"), _listed("TERMINATION - CANCELLATION, NONRENEWAL, OTHER, PROVISIONS")
    (True, False)
    >>> _listed("Fire, theft, flood, storm and you"), _listed("SKIING, SNOWBOARDING, MOUNTAINEERING, SKYDIVING")
    (True, True)
    """
    if text.count(",") < MAX_COMMAS:
        return False
    named = _SUBJECT.match(text) is not None or _LAST_TOPIC.search(text) is not None
    return not text.isupper() or not named or not all(_TOPIC.search(part) for part in text.split(","))
_RUN_ENDS = (".", ",", ";", ":")


_BULLETS = "\u2022\u25aa\u25cf\u25e6\u2023\u2043\u2219\u2713\u2714\u2717\u2718\uf0a7\uf0b7\x07>\\-\u2013"
"""The marks that start a list's items in extracted text: bullets, ticks and
crosses, the glyphs symbol fonts extract as (U+F0B7, and BEL where no code
was mapped), ``>`` and dashes."""
_STARTS = rf"[(A-Z]|[^\S\n]*[{_BULLETS}]|\d{{1,2}}(?:\.\d{{1,2}})*[.)]? [A-Z]"
"""How a line after a title alone starts: as a sentence, a bullet (after any
indent) or a numbered item (``1. Storm``, ``2.1. Accident``). (Not as a
lettered one: in the FEMA forms' text out of column order, a short line
before ``a.`` is seldom a heading.)"""
_TITLE_LINE = r"[A-Z][^\n.;:!]{2,80}"
"""The shape of a line that may be a title alone."""
WRAP_CHARS = 21
"""Characters the second line of a title alone that wraps may have: nine such
lines in ten in the corpus; a longer bound costs every sentence that goes on
over a line, tried against the pattern below."""
_TITLE_ALONE = re.compile(rf"\n(?={_TITLE_LINE}\n(?:{_STARTS}|[a-z][^\n.;:!]{{0,{WRAP_CHARS - 1}}}\n(?:{_STARTS})))")
"""The line end before a line that may stand apart by its text alone: a
capital first, no full stop, colon, semicolon or exclamation mark (commas, as
a title may have: ``Carrying passengers for hire, fare or reward``, up to
``MAX_COMMAS``; a question mark at its end: ``Who is covered to drive other
cars?``), and a line after it that
starts as a sentence, an item or a bullet does -- or, for a title that wraps,
a short line in lower case (``WRAP_CHARS``) and then such a line
(``Changes to your`` ⏎ ``circumstances`` ⏎ ``It is important …``). (The line before must end a
sentence: asked of each match, as a pattern that starts with a line end is
searched for at a tenth of the cost of one that looks behind it. A question
mark is let through and asked of each match too: a pattern that took one at
its end only would try twice as much at each line.)"""
_SENTENCE_ENDS = frozenset(".:;?!")
_TITLE_SHAPE = re.compile(_TITLE_LINE + "$")
_STARTS_LINE = re.compile(_STARTS)

TITLE_WORDS = 8
"""Words a line may have and stand apart by its text alone."""

TEXT_TITLE = 1.0
"""The prominence of a line in text with no layout that stands apart as a title
(``Co-operation`` between two paragraphs): above a run-in term's, below any style's;
one in capitals ranks ``CAPITALS`` above it."""


def titles_alone(text: str) -> List[Tuple[int, float]]:
    r"""The lines of ``text`` (complete lines) that stand apart as a heading does
    by their text alone, as ``(line index, prominence)``: after the end of a
    sentence, before the start of one, a title of at most ``TITLE_WORDS``
    words that ends as a heading does (``reads_as_heading``). Only where the
    text carries no layout: it is the evidence a PDF's styles give otherwise.

    >>> titles_alone("The claim ends.\nCo-operation\nYou are required to:\nGENERAL CONDITIONS\nThese apply.\n")
    [(1, 1.0), (3, 1.125)]
    >>> titles_alone("We pay the cost of the\nRepairs Team\nWe pay.\n"), titles_alone("Call us.\nThe Insurer\n3,750\n")
    ([], [])
    >>> titles_alone("the ground.\nCP 10 75 12 20\nCYBER INCIDENT EXCLUSION\nThis endorsement modifies insurance.\n")
    [(2, 1.125)]
    """
    return [(i, value) for i, _, value, _ in _titles_alone(text)]


def _titles_alone(text: str, furniture: Container[int] = ()) -> List[Tuple[int, int, float, bool]]:
    """``titles_alone``, each with where its line starts in ``text``, and
    whether it is the second line of a title that wraps; the lines whose
    starts are in ``furniture``, and page numbers, are looked past for the
    line before (a title at the top of a page)."""
    out: List[Tuple[int, int, float, bool]] = []
    lines: Optional[List[str]] = None
    line_no = pos = 0
    for m in _TITLE_ALONE.finditer(text):
        if m.start() == 0:
            continue
        if text[m.start() - 1] not in _SENTENCE_ENDS and not _after_a_code(text, m.start()) \
                and not _sentence_over_the_page(text, m.start(), furniture) and not _contents_title(text, m.start()):
            continue
        if lines is None:
            lines = text.split("\n")
        start = m.start() + 1
        line_no += text.count("\n", pos, start)
        pos = start
        i = line_no
        if out and out[-1][0] >= i:
            continue  # (taken already, after the title before it)
        for _ in range(MAX_RUN):  # a title right after one is one too (``BUILDINGS`` ⏎ ``What is covered``)
            value = _title_alone(lines, i)
            wrapped = value is None and i + 2 < len(lines) and _title_goes_on(lines[i + 1])
            if wrapped:
                value = _title_alone([f"{lines[i]} {lines[i + 1]}", lines[i + 2]], 0)
            if value is None:
                break
            for goes_on in (False, True) if wrapped else (False,):
                out.append((i, start, value, goes_on))
                start += len(lines[i]) + 1
                i += 1
            if i >= len(lines) or not _TITLE_START.match(lines[i]):
                break
    return out


def _wraps(line: str, nxt: str) -> bool:
    """``nxt`` may be the second line of a title alone that ``line`` starts."""
    return _TITLE_SHAPE.match(line.rstrip("\n")) is not None and _title_goes_on(nxt)


def _title_goes_on(line: str) -> bool:
    """``line`` may be the second of a title alone over two lines of a narrow
    column (a line follows them): in lower case, going on with the first, with
    no figure and no mark that ends a clause. (A second line in capitals after
    a first that leads on is as often a table's head: ``Loss to`` ⏎ ``Building``.)

    >>> _title_goes_on("your policy"), _title_goes_on("Building Business"), _title_goes_on("0345 608 0230")
    (True, False, False)
    """
    nxt = line.strip()
    return nxt[:1].islower() and len(nxt) <= WRAP_CHARS and all(" " <= ch and not ch.isdigit() for ch in nxt) \
        and _CLAUSE_MARK.search(nxt) is None  # (no control character: ``n`` ⏎ BEL is a symbol font's bullet)


PAST_FURNITURE = 8
"""Lines of page furniture and page numbers looked past for the line before a
title alone: a page's footer and the next page's header, blocks of several
lines (a copyright notice of three lines, a page number, an insurer's address)."""
CONTEXT_LINES = MAX_RUN + PAST_FURNITURE + 1
"""Lines of the text noted before kept to read a title alone at the start of
the next: the lines of a run of titles, the furniture looked past, the line
before them."""


_PAGE_NUMBER = re.compile(r"(?i)(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?")
"""A line that is a page's number (``Page 16``, ``16 of 40``, ``16``), looked
past when it is no furniture key (a page number the zones did not judge). The
zones' own forms are in ``core.stages.furniture``, a layer above this one."""


def _sentence_over_the_page(text: str, end: int, furniture: Container[int]) -> bool:
    r"""The line that ends at ``end`` is page furniture (its start in
    ``furniture``), a page number or a page break, and the last line of text
    before it, within ``PAST_FURNITURE`` lines, ends a sentence: the next line
    starts a page as a title does after a paragraph's end
    (``reference number.`` ⏎ ``\fPage 16`` ⏎ ``Theft of car keys``).

    Across a page break (a form feed), the page before may also end on a line
    that is no sentence's (``_page_ends_apart``: a table's last row, a title at
    its foot).

    >>> _sentence_over_the_page("We pay.\n\fPage 16\nCar keys\n", 16, ()), _sentence_over_the_page("to\n\f16\nCar\n", 6, ())
    (True, False)
    >>> _sentence_over_the_page("Basic Excess $500\n\f16\nCar\n", 21, ()), _sentence_over_the_page("theft to\n\f16\nCar\n", 12, ())
    (True, False)
    """
    passed = paged = False
    for _ in range(PAST_FURNITURE):
        if end <= 0:
            return False
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if "\f" in line:
            passed = paged = True
            line = line[:line.index("\f")]  # (the last line of the page before, if any)
            if _PAGE_NUMBER.fullmatch(line.strip()):
                line = ""  # (a page's number before its form feed, ``Page 6 of 8\f``, is no table's row;
                # a furniture key at this line is the next page's header's, after the form feed)
        elif start in furniture or _PAGE_NUMBER.fullmatch(line.strip()):
            passed = True
            line = ""
        line = line.rstrip()
        if line:
            return passed and (line[-1] in _SENTENCE_ENDS or paged and _page_ends_apart(line))
        end = start - 1
    return False


def _page_ends_apart(line: str) -> bool:
    """A page's last line is no sentence's going on over the page: it ends on
    a word or a figure that does not lead on (``the``, ``of``, ``to``): a
    title, a list's last item, a bullet's last word, a line of at most
    ``SHORT_LAST_LINE`` words that is not a sentence with only its full stop
    missing (a determiner first, and more words than a term has) -- or it is
    a title (Title Case or capitals), or a table's row (it ends on a figure,
    a bracket or a percentage). Not a numbered line: under a numbered
    heading at a page's foot, a short line atop the next page is as likely
    the section's first text as a title.

    >>> _page_ends_apart("Basic Excess $500"), _page_ends_apart("Section 1: Liability"), _page_ends_apart("1 Cover Qb")
    (True, True, False)
    >>> _page_ends_apart("- Visa"), _page_ends_apart("the cost of repairing your"), _page_ends_apart("4. Theft (see 3)")
    (True, False, False)
    >>> _page_ends_apart("Your policy"), _page_ends_apart("The insured shall report the loss without delay")
    (True, False)
    >>> _page_ends_apart("If you need to make a claim under this section you should first call our claims")
    False
    """
    if leads_on_word(line) or line.lstrip()[:1].isdigit():
        return False
    words = line.split()
    if line[-1].isalpha() and len(words) <= SHORT_LAST_LINE and not (words[0] in _DETERMINERS and len(words) > TERM_WORDS):
        return True  # (not a sentence that only lacks its full stop: ``The insured shall report it without delay``)
    return title_case(line) or line.isupper() or line[-1].isdigit() or line[-1] in ")%"


SHORT_LAST_LINE = 6
"""Words a page's last line may have to end apart by its last word alone: a
full line of a paragraph ends wherever the measure runs out (``… you should
first call our claims`` ⏎ ``Helpline``)."""


_DEFINED = re.compile(
    r"\n(?=[\"\u201c\u2018](?P<term>[^\"\u201d\u2019\n]{1,60})[\"\u201d\u2019]"
    r"(?P<more>(?:,?\s+(?:or|and)\s+|,\s*)[\"\u201c\u2018][^\"\u201d\u2019\n]{1,30}[\"\u201d\u2019])*"
    r"\s+(?:means|mean|shall mean)\b)")
"""The line end before a line that starts with a defined term in quotes and
its verb, ``"Business Property" means``, ``"We", "us" or "our" mean``. Not
``includes``: ``"Waste" includes …`` goes on with an item's text (FEMA's
pollutants)."""
_BARE_DEFINED = re.compile(r"(?P<bare>[A-Z][^\s\"\u201c\u2018]*(?: \S+){0,%d}?) (?:shall )?(?:means|mean)\b"
                           % (MAX_TERM_WORDS - 1))
"""A line that starts with a defined term not in quotes and its verb,
``Bodily Injury means`` (a wording that sets its terms in bold, which text
without a layout has lost): looked for only where a line says ``mean``, as
most lines do not."""
_CLAUSE_AFTER = re.compile(r" (?:we|they|it|that|nothing|there|he|she)\b", re.IGNORECASE)
"""What follows ``means`` in a sentence, where no definition starts: a clause
(``Delay means we may refuse the claim``, ``… means that you pay``)."""
_OPENING_QUOTES = "\"\u201c\u2018"
_CLOSING_QUOTES = "\"\u201d\u2019"
_BARE_TERM_CHARS = 60
"""How far into its line ``mean`` may be after a bare term."""
_NOT_TERM_START = _DETERMINERS | frozenset("For To By In On At As If Where When What Which Who How And Or But There".split())
"""Words a sentence starts with before ``means``, where no term does:
``For buildings full value means …``, ``Where we explain what a word means``."""
_NOT_IN_TERM = frozenset("a an the not does do did is are was were will would may can shall also it we us you they "
                         "this that these which what who".split())
"""Words no bare term holds: a sentence's verb or pronoun before ``mean``
(``… does not mean``, ``what we mean``), or an article before a noun
(``… by a means of transport``)."""


def defined_terms(text: str) -> List[Tuple[int, str]]:
    r"""The lines of ``text`` (complete lines) that start a definition with its
    term, in quotes (``"Business Property" means …``) or bare (``Bodily Injury
    means …``, ``_bare_term``), as ``(line index, term)``: a definitions list
    known by its text, whether or not a PDF sets the term in bold. The line before ends a sentence or clause, or is in capitals (the
    list's heading, ``DEFINITIONS``); a term quoted within a sentence that
    runs on is no item's, and so is one with no other within
    ``DEFINITIONS_APART`` lines and no blank line between: a definition in a
    section's text. The term
    is the words in its quotes, or all of them as printed where it has
    several (``"We", "us" or "our"``).

    >>> defined_terms('DEFINITIONS\n"Business Property" means property of a business.\n"Data" means facts.\n')
    [(1, 'Business Property'), (2, 'Data')]
    >>> defined_terms('The terms below are used.\n"We", "us" or "our" mean the insurer.\n"You" means the owner.\n')
    [(1, '"We", "us" or "our"'), (2, 'You')]
    >>> defined_terms('These words have special meanings.\nAccident means a sudden event.\nClose Relative means a spouse.\n')
    [(1, 'Accident'), (2, 'Close Relative')]
    >>> defined_terms('Tell us.\nDelay means we may refuse.\nAn act of war does not mean a riot.\n')
    []
    >>> defined_terms('No return premium is due.\n"Total loss" means the property is lost.\n')
    []
    >>> defined_terms('We pay.\n"Excess" means what you pay.\n\nWe pay.\n"Excess" means what you pay.\n')
    []
    >>> defined_terms('cover, as the term\n"flood" means in this policy, is read.\n')
    []
    """
    return [(i, term) for i, _, term in _defined_terms(text)]


def _defined_terms(text: str) -> List[Tuple[int, int, str]]:
    """``defined_terms``, each with where its line starts in ``text``."""
    # Each line that says ``mean`` is looked at, found by a search (a pattern
    # tried at every line start costs more than the rest of the reading).
    found: List[Tuple[int, str]] = []
    verb = text.find("mean")
    while verb >= 0:
        start = text.rfind("\n", 0, verb) + 1
        first = text[start]
        if start > 1 and text[start - 2] in _CLOSING_QUOTES and first not in _OPENING_QUOTES and not first.isupper():
            # (the verb, or what goes on before it, starts its line: the term in quotes ends the line before)
            start = text.rfind("\n", 0, start - 1) + 1
            first = text[start]
        verb = text.find("mean", verb + 4)
        if not start or found and found[-1][0] == start:
            continue  # (the first line has no line before it to judge it by; a line read already)
        term = _quoted_term(text, start) if first in _OPENING_QUOTES else _bare_term(text, start) if first.isupper() \
            else None
        if term and _after_an_end(text, start - 1):
            found.append((start, term))
    # A list has more than one: a definition alone in a section's text is that text's.
    joined = [_one_list(text, first, then) for (first, _), (then, _) in zip(found, found[1:])] + [False]
    out: List[Tuple[int, int, str]] = []
    line_no = pos = 0
    for k, (start, term) in enumerate(found):
        if joined[k] or k and joined[k - 1]:
            line_no += text.count("\n", pos, start)  # (counted for the terms kept only: most are not)
            pos = start
            out.append((line_no, start, term))
    return out


def _quoted_term(text: str, start: int) -> Optional[str]:
    """The term in quotes the line at ``start`` defines (``_DEFINED``), if it does."""
    m = _DEFINED.match(text, start - 1)
    if m is None:
        return None
    term = m["term"].strip()
    if not term or len(term.split()) > MAX_TERM_WORDS:
        return None
    return text[start:m.end("more")].strip() if m["more"] else term


def _after_an_end(text: str, end: int) -> bool:
    """The line that ends at ``end`` ends a sentence or clause, or is in
    capitals (a definitions list's heading, ``DEFINITIONS``); a closing quote
    after its last word counts as that word's (``… "flood."``)."""
    before = text[text.rfind("\n", 0, end) + 1:end].strip().rstrip(_CLOSING_QUOTES)
    return not before or before[-1] in _SENTENCE_ENDS or before.isupper()


def _bare_term(text: str, start: int) -> Optional[str]:
    """The term not in quotes the line at ``start`` defines (``_BARE_DEFINED``),
    if it reads as one and not as a sentence's start: ``Close Relative``, ``Act
    of terrorism``, not ``An act of terrorism does not``, nor ``Delay`` before
    a clause (``Delay means we may …``), nor a label's item (``B. Auto
    means``, read by its label)."""
    m = _BARE_DEFINED.match(text, start)
    if m is None or m.end() > start + _BARE_TERM_CHARS or _CLAUSE_AFTER.match(text, m.end()):
        return None
    term = m["bare"]
    words = term.split()
    if (words[0][-1].isalpha() and words[0] not in _NOT_TERM_START and not words[-1].endswith(",")
            and not any(word.casefold() in _NOT_IN_TERM for word in words[1:])):
        return term
    return None


DEFINITIONS_APART = 30
"""Lines between two definitions of one list, at most."""
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")


def _one_list(text: str, first: int, then: int) -> bool:
    """Two definitions found, where their lines start, are of one list: near,
    with no blank line between (paragraphs of a section's text that each
    define a word are no list). The blank line is looked for first: it is
    most often on the next line, where counting the lines between would read
    all of them."""
    return _BLANK_LINE.search(text, first, then) is None and text.count("\n", first, then) <= DEFINITIONS_APART


def _after_a_code(text: str, end: int) -> bool:
    """The line that ends at ``end`` is figures (a form's number, ``CP 10 75
    12 20``, or a page's ``1 1``), and the line after it in capitals: a form's
    title below its number (``CYBER INCIDENT EXCLUSION``), where no sentence
    ends before it."""
    after = text[end + 1:text.find("\n", end + 1)]
    return after.isupper() and mostly_figures(text[text.rfind("\n", 0, end) + 1:end])


def _contents_title(text: str, end: int) -> bool:
    """The line after ``end`` titles a contents list (``Contents``, ``Table of
    contents``) after a line that ends in a figure, where no sentence ends: a
    cover's code or date (``… Chubb14-23-0519`` ⏎ ``Contents``). After a word
    it is the defined term a sentence wraps at (``… damage to the`` ⏎
    ``Contents`` ⏎ ``(including valuables …``)."""
    return text[end - 1].isdigit() and CONTENTS_TITLE.fullmatch(text[end + 1:text.find("\n", end + 1)].strip()) is not None


_TITLE_START = re.compile(r"[A-Z][^\n.;:,!?]{2,80}$")
"""A line that may be a title alone right after one: no question (one ends a run of titles alone)."""


def _title_alone(lines: Sequence[str], i: int) -> Optional[float]:
    """Line ``i``'s prominence as a title alone, if it reads as one before the line after it."""
    line = lines[i].strip()
    if "?" in line[:-1]:
        return None  # (a question ends a title: ``Who is covered to drive other cars?``)
    after = lines[i + 1].strip() if i + 1 < len(lines) else ""
    if len(line.split()) > TITLE_WORDS or mostly_figures(line) or not after or after.isupper() \
            or not _STARTS_LINE.match(after):
        return None
    if not reads_as_heading(line, after):
        return None
    return TEXT_TITLE + CAPITALS if line.isupper() else TEXT_TITLE


class Layout:
    """The styles of the lines fed, learned as they come (see the module)."""

    def __init__(self) -> None:
        self._chars: Dict[Style, int] = {}
        self.flat = True
        """No line has stood out from the body yet: a PDF set in one style (or text
        with no layout) is read for titles alone, as text is."""
        self._marks: Dict[int, float] = {}  # line number -> prominence, for lines not yet read
        self._terms: Dict[int, str] = {}  # line number -> the run-in term it starts with
        self._tails: Set[int] = set()  # line numbers of a term alone's lines after its first (it wraps)
        self._centred: Set[int] = set()  # line numbers of the titles centred in the body's face (``centred_titles``)
        self._wrapped = -1  # the line after the last title alone marked in text: its second line, if it wraps
        self._order: Deque[int] = deque()  # the same line numbers, in order
        self._terms_seen: Set[str] = set()  # the run-in terms marked so far, at most MAX_TERMS
        self._pairs_seen: Set[Tuple[str, str]] = set()  # titles alone in text, and the line before each
        self._headings_seen: Dict[str, float] = {}  # one-line headings marked, casefolded -> prominence; MAX_TERMS
        self._before: List[Tuple[str, bool]] = []  # the last lines noted (line end kept), and which are furniture
        self._entries: Dict[int, bool] = {}  # line numbers of a contents list's entries, not yet read, in order;
        # True for the first line of one wrapped over two
        self._plain: Dict[int, None] = {}  # line numbers of the lines set in the body's style, not yet read, in order

    def note(self, first_line: int, text: str, styles: Sequence[Optional[Style]], leads: Sequence[int] = (),
             centred: Collection[int] = ()) -> None:
        """The styles of the lines of ``text`` (one per line), the first of them
        line ``first_line``: counted, then the lines that stand out marked;
        ``leads`` the bold run-in term each line starts with, in characters;
        ``centred`` the lines centred alone over the paragraph after them."""
        lines = _LINE_ENDS.split(text)  # the line ends the splitter knows (``core.stages.splitter``)
        entries = dict.fromkeys(contents_entries(lines), False)  # (a whole page is here: a run of entries shows on it)
        for i in wrapped_entries(lines):
            entries.setdefault(i, True)
        for i in sorted(entries):
            self._entries[first_line + i] = entries[i]
        chars = self._chars
        for line, style in zip(lines, styles):
            if style is not None:
                chars[style] = chars.get(style, 0) + len(line.strip())
        while len(chars) > MAX_STYLES:
            del chars[min(chars, key=chars.__getitem__)]
        if sum(chars.values()) < LEARNING_CHARS:
            return
        body = self.body()
        assert body is not None
        plain = self._plain
        for i, style in enumerate(styles):
            if style == body:
                plain[first_line + i] = None
        marks: Dict[int, float] = {}
        headings = set()
        runs = standing_out(lines, styles, body)
        self.flat = self.flat and not runs
        seen = self._headings_seen
        for start, end, value in runs:
            for i in range(start, end):
                marks[first_line + i] = value
                headings.add(i)
            if end == start + 1 and len(seen) < MAX_TERMS:
                seen.setdefault(lines[start].strip().casefold(), value)
        for i in _headings_again(lines, styles, body, seen, headings):
            marks[first_line + i] = seen[lines[i].strip().casefold()]
            headings.add(i)
        for i in centred_titles(lines, styles, body, centred, headings):
            marks[first_line + i] = BOLD_MIN * body.size  # (below any line set apart: a bold one is at least that and more)
            headings.add(i)
            self._centred.add(first_line + i)
        if not body.bold:
            for i, term in run_in_terms(lines, styles, leads, headings):
                key = term.casefold()
                if key in self._terms_seen and leads[i] > 0 and not _defines_again(lines[i], leads[i]):
                    continue  # (a glossary defines a term once: one seen again is a defined term in use;
                    # a hanging term recurs by design: ``When We will pay`` in every section; one that
                    # says ``means`` is defined again: a section's own definitions, ``Business Property``)
                if len(self._terms_seen) < MAX_TERMS:
                    self._terms_seen.add(key)
                if first_line + i not in marks:
                    marks[first_line + i] = RUN_IN
                    self._terms[first_line + i] = term
            for first, last in terms_alone(lines, runs, marks, first_line, Style(body.size, True)):
                for line in range(first, last + 1):
                    marks[line] = RUN_IN
                self._tails.update(range(first + 1, last + 1))
        for line in sorted(marks):  # in line order: ``marked`` and ``forget`` read them so
            self._marks[line] = marks[line]
            self._order.append(line)

    def note_text(self, first_line: int, text: str, takes: Callable[[str], bool], furniture: AbstractSet[int],
                  after: str = "") -> None:
        """Text fed noted: where it came with no layout (``pdftotext``, a pipe),
        its lines that stand apart by their text alone (``titles_alone``); in
        any text, the terms of a definitions list (``defined_terms``),
        which a PDF need not set in bold. Not those a profile's rule ``takes``
        (a numbered line is read by its rules), nor those after page furniture,
        whose sentence end says nothing (the ``furniture`` lines, by their
        starts in ``text``). ``after`` is the line after ``text``, to be noted
        with the text after it (the zones still hold it): a title alone on
        ``text``'s last line is read by it, and one on its first lines by the
        lines before, kept from the text noted before (``CONTEXT_LINES``), so
        that where the text was cut changes nothing."""
        if not self._chars or self.flat:  # (a PDF's styles are the evidence of titles, where it sets any apart;
            # its terms need not be set in bold)
            self._note_titles_alone(first_line, text, takes, furniture, after)
        if "mean" in text:  # (most blocks define nothing: no look)
            self._note_defined_terms(first_line, text, takes, furniture)

    def _note_titles_alone(self, first_line: int, text: str, takes: Callable[[str], bool],
                           furniture: AbstractSet[int], after: str) -> None:
        # The lines around ``text`` are read with it only where they may
        # change what it holds: most texts start and end on lines no title
        # alone can be, and a copy of the whole text is then saved.
        first = text[:text.find("\n")]
        cut = text.rfind("\n", 0, len(text) - 1) + 1
        last = text[cut:-1]
        before_counts = bool(self._before) and (_TITLE_SHAPE.match(first) is not None or "\f" in first
                                                or 0 in furniture or _PAGE_NUMBER.fullmatch(first.strip()) is not None
                                                or first[:1].islower() and _wraps(self._before[-1][0], first))
        before = "".join(line for line, _ in self._before) if before_counts else ""
        before_last = text[text.rfind("\n", 0, cut - 1) + 1:cut] if cut else self._before[-1][0] if self._before else ""
        if not (after and (_TITLE_SHAPE.match(last) or last[:1].islower() and _wraps(before_last, last))):
            after = ""  # (the lines after are read where the last may be a title, or a title's second line)
        shift = len(before)
        scan = before + text + after if before or after else text
        keys: Set[int] = set()  # the furniture lines' starts in ``scan``
        at = 0
        for line, is_furniture in self._before if before else ():
            if is_furniture:
                keys.add(at)
            at += len(line)
        keys.update(key + shift for key in furniture if key >= 0)  # (not those of text before a form feed)
        for i, start, value, goes_on in _titles_alone(scan, keys):
            if not shift <= start < shift + len(text):
                continue  # (a line before, noted already, or the line after, noted next)
            line_no = first_line + i - (len(self._before) if before else 0)
            if goes_on:  # the second line of a title that wraps: as its first was judged, here or in the text before
                if line_no == self._wrapped:
                    self._marks[line_no] = value
                    self._order.append(line_no)
                continue
            line_before = scan.rfind("\n", 0, start - 1) + 1  # (a title alone has a line before it)
            line = scan[start:scan.index("\n", start)].strip()
            if start in keys or takes(line):
                continue
            pair = (scan[line_before:start - 1].strip(), line)
            if pair in self._pairs_seen and line_before not in keys:
                continue  # (the same line after the same line again: a block printed on every page;
                # not after furniture, the same on every page: ``Limitations of coverage`` atop a page, again)
            if len(self._pairs_seen) < MAX_TERMS:
                self._pairs_seen.add(pair)
            self._marks[line_no] = value
            self._order.append(line_no)
            self._wrapped = line_no + 1
        cut = len(text)  # (the lines before the next text: the last of this one, after those before it)
        for _ in range(CONTEXT_LINES):
            if cut <= 0:
                break
            cut = text.rfind("\n", 0, cut - 1) + 1
        kept = self._before
        while cut < len(text):
            line_end = text.index("\n", cut) + 1
            kept.append((text[cut:line_end], cut in furniture))
            cut = line_end
        self._before = kept[-CONTEXT_LINES:]

    def _note_defined_terms(self, first_line: int, text: str, takes: Callable[[str], bool],
                            furniture: Container[int]) -> None:
        """A definitions list (``defined_terms``): each term marked as
        a run-in term, as a bold one is (unless a style marked its line)."""
        added = False
        for i, start, term in _defined_terms(text):
            line = first_line + i
            if start in furniture or line in self._marks or takes(text[start:text.index("\n", start)].strip()):
                continue
            self._marks[line] = RUN_IN
            self._terms[line] = term
            self._order.append(line)
            added = True
        if added:
            self._order = deque(sorted(self._order))  # (``marked`` and ``forget`` read them in line order)

    def styled(self) -> bool:
        """Some line has come with its style: the text is a PDF's, read with its layout."""
        return bool(self._chars)

    def body(self) -> Optional[Style]:
        """The style that has set the most characters so far."""
        return max(self._chars, key=self._chars.__getitem__) if self._chars else None

    @property
    def pending(self) -> bool:
        """Some lines fed are marked and not yet read: the cutter need look for them
        (text without a layout never has any)."""
        return bool(self._order)

    def marked(self, first: int, last: int) -> Tuple[int, ...]:
        """The marked lines from ``first`` to ``last``."""
        return tuple(line for line in self._order if first <= line <= last)

    def term(self, line: int) -> Optional[str]:
        """The run-in term line ``line`` starts with (``Hijack``), if it is marked as one."""
        return self._terms.get(line)

    def centred(self, line: int) -> bool:
        """Line ``line`` is a title in the body's face, centred alone over its text (``centred_titles``)."""
        return line in self._centred

    def term_goes_on(self, line: int) -> bool:
        """Line ``line`` goes on with the term alone on the line before (see ``terms_alone``)."""
        return line in self._tails

    def larger(self, value: Optional[float]) -> bool:
        """A prominence of ``value`` is a size ``LARGER`` times the body's, or more."""
        body = self.body()
        return value is not None and body is not None and value >= LARGER * body.size

    def set_larger(self, line: int) -> bool:
        """Line ``line``, not yet read, is set ``LARGER`` than the body (a title, not a running header)."""
        value = self._marks.get(line)
        return value is not None and self.larger(value)

    def prominence(self, line: int) -> Optional[float]:
        """How far line ``line`` stands out, if it is marked and not yet forgotten."""
        return self._marks.get(line)

    def listed(self, line: int) -> bool:
        """Line ``line`` is an entry of a contents list on its page, or the first
        line of one wrapped over two (``core.contents_page``)."""
        return line in self._entries

    def starts_entry(self, line: int) -> bool:
        """Line ``line`` starts a contents entry wrapped onto the next line (``core.contents_page``)."""
        return self._entries.get(line, False)

    def plain(self, line: int) -> bool:
        """Line ``line`` is set in the body's own style (once the body is known)."""
        return line in self._plain

    def forget(self, last: int) -> None:
        """Lines up to ``last`` are read: their marks go."""
        for lines in (self._entries, self._plain):
            while lines:
                oldest = next(iter(lines))
                if oldest > last:
                    break
                del lines[oldest]
        order, marks, centred = self._order, self._marks, self._centred
        while order and order[0] <= last:
            line = order.popleft()
            marks.pop(line, None)
            self._terms.pop(line, None)
            self._tails.discard(line)
            if centred:  # (text has none: its lines are read without the look)
                centred.discard(line)

"""A page's lines in the order a reader reads them, where the page draws them otherwise.

A PDF may draw a page's text in any order. Most draw it as it is read, column
by column, and PDFium's lines then come in reading order. Some draw it by
layer: every item's text at its indent, then the letters ``a.``, ``b.`` at
theirs, then the numbers ``1.``, ``2.`` -- so a label and its text, on one
baseline a space apart, come out dozens of lines apart, and the outline is
lost. The sign of it cannot be mistaken: two lines that the page drew apart
sit on one baseline, a word's gap from each other, where a reader sees one
line. Such a page is read again by position -- each baseline's pieces joined
left to right, the baselines top to bottom -- if it has one column, that is,
if lines are left side by side on at most two baselines once the pieces are
joined (a header's title and page number, a footer's). A page with columns or
a table keeps its draw order: its columns cannot be told from a table's cells
by position alone -- save where a whole right column of prose is drawn before
the whole left column beside it, which no table does (``left_column_first``).

Why one module of this length: the three readings -- by position, left column
first, a title drawn last -- measure the same page geometry (``Span``, a
line's height as the unit of every gap), and ``in_reading_order`` picks the
one that applies; apart, each would need the others' thresholds to stay
consistent with them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import groupby
from typing import List, NamedTuple, Optional, Sequence, Tuple, cast

from ..core.layout import Style


class Span(NamedTuple):
    """Where a line sits on its page, in PDF units (y grows up the page)."""

    bottom: float
    height: float
    left: float
    right: float


BASELINE = 0.25
"""Lines whose bottoms differ by at most this share of a line's height share a baseline."""
WORD_GAP = 1.5
"""The widest gap, in line heights, between two pieces of one line; a column's gutter is wider."""
SPLIT_BASELINES = 2
"""Baselines that may hold lines apart side by side on a page of one column: a
running header's title and page number, a footer's; more are columns or a table."""
HANGING_GAP = 4.0
"""The widest gap, in line heights, between a list's label alone (``iii.``) and
its text on its baseline: a hanging indent, which is wider than a word's gap."""

_LABEL = re.compile(r"\(?(?:\d{1,3}[a-z]?|[a-z]{1,2}|[A-Z]|[ivxlc]{1,6}|[IVXLC]{1,6})[.)]")
"""A list's label alone on a piece of a line: ``1.``, ``7a.``, ``iii.``, ``(c)``, ``B)``."""


def is_label(text: str) -> bool:
    """Whether a line's piece is a list's label alone.

    >>> is_label(" iii. "), is_label("(c)"), is_label("1."), is_label("Fire"), is_label("2020.")
    (True, True, True, False, False)
    """
    return _LABEL.fullmatch(text.strip()) is not None


def _baselines(spans: Sequence[Span]) -> List[List[int]]:
    """The lines on each baseline, top to bottom, each baseline's left to right."""
    groups: List[List[int]] = []
    for i in sorted(range(len(spans)), key=lambda i: -spans[i].bottom):
        first = spans[groups[-1][0]] if groups else None
        if first is not None and first.bottom - spans[i].bottom <= BASELINE * min(first.height, spans[i].height):
            groups[-1].append(i)
        else:
            groups.append([i])
    return [sorted(group, key=lambda i: spans[i].left) for group in groups]


def _beside(a: Span, b: Span, hanging: bool = False) -> bool:
    """Whether ``b``, on ``a``'s baseline, continues ``a``'s line just to its
    right -- further to its right where ``a`` is a label ``hanging`` before it."""
    gap = b.left - a.right
    return -BASELINE * min(a.height, b.height) <= gap <= (HANGING_GAP if hanging else WORD_GAP) * min(a.height, b.height)


def reading_order(spans: Sequence[Span], texts: Sequence[str] = ()) -> Optional[List[List[int]]]:
    """The lines (indices into ``spans``, in draw order) as a reader reads them,
    each inner list the pieces of one line left to right; ``None`` where the
    draw order stands: no two lines drawn apart continue each other, or the
    page has more than one column. ``texts``, the lines' texts, tell a list's
    label alone (``is_label``), whose text may hang a wider gap to its right.

    >>> label, text, after = Span(700, 10, 70, 80), Span(700, 10, 85, 300), Span(687, 10, 70, 290)
    >>> reading_order([text, after, label])
    [[2, 0], [1]]
    >>> reading_order([label, text, after]) is None
    True
    >>> column = [Span(700 - 13 * n, 10, 320, 500) for n in range(3)]
    >>> reading_order([text, after, Span(674, 10, 70, 290), label, *column]) is None  # a second column
    True

    Labels ``i.``-``iii.`` drawn after their text, which hangs three line heights to their right:

    >>> hanging = [Span(700 - 13 * n, 10, 110, 300) for n in range(3)] + [Span(700 - 13 * n, 10, 70, 80) for n in range(3)]
    >>> reading_order(hanging, ["Fire", "Storm", "Flood", "i.", "ii.", "iii."])
    [[3, 0], [4, 1], [5, 2]]
    >>> reading_order(hanging) is None  # (not known as labels: side by side on three baselines, as columns are)
    True
    """
    lines: List[List[int]] = []
    drawn_apart, split = False, 0

    def hangs(i: int) -> bool:  # (asked only of a line with another on its baseline)
        return i < len(texts) and is_label(texts[i])

    for baseline in _baselines(spans):
        line = baseline[:1]
        split += any(not _beside(spans[a], spans[b], hangs(a)) for a, b in zip(baseline, baseline[1:]))
        if split > SPLIT_BASELINES:
            return None  # lines side by side on baseline after baseline: columns, or a table's cells
        for i in baseline[1:]:
            if _beside(spans[line[-1]], spans[i], hangs(line[-1])):
                drawn_apart = drawn_apart or abs(i - line[-1]) > 1
                line.append(i)
            else:
                lines.append(line)
                line = [i]
        lines.append(line)
    return lines if drawn_apart else None


TAIL_LINES = 8
"""Lines drawn last, after a page's body, that may be its title block and its footer."""
HEAD_LINES = 2
"""Lines drawn first above such a title (a running header) that stay first."""
HEAD_GAP = 3.0
"""How far such a header stands above the body, in its line heights, at least: a margin's gap, not a paragraph's."""


def title_drawn_last(spans: Sequence[Span]) -> Optional[List[List[int]]]:
    """The lines (as :func:`reading_order` gives them) with a title drawn last
    read first, where the page draws it after its body: the last lines drawn,
    up to ``TAIL_LINES``, each above every line of the body (a booklet's page
    title over its two columns, ``If you're in an accident``; an endorsement's
    title and the line under it) or below every one (a printer's slug, a form
    number, which stay last), at least one above -- or, all of them that are
    neither, a title in a column of its own beside the body (``_title_beside``).
    Up to ``HEAD_LINES`` lines drawn first, as a block a margin's gap apart
    from the body, above them all (a running header) or below it (the page's
    number), stay first. ``None`` where the page draws no such title.

    >>> body = [Span(500 - 12 * n, 10, 30, 300) for n in range(3)] + [Span(20, 10, 300, 330)]
    >>> title_drawn_last(body + [Span(560, 16, 30, 300)])
    [[4], [0], [1], [2], [3]]
    >>> title_drawn_last(body + [Span(575, 10, 30, 300), Span(560, 16, 30, 300)])[:3]
    [[4], [5], [0]]
    >>> title_drawn_last(body + [Span(560, 16, 30, 300), Span(5, 6, 30, 200)])
    [[4], [0], [1], [2], [3], [5]]
    >>> title_drawn_last([Span(700, 8, 30, 200)] + body + [Span(560, 16, 30, 300), Span(540, 10, 30, 300)])
    [[0], [5], [6], [1], [2], [3], [4]]
    >>> title_drawn_last(body + [Span(480, 16, 30, 300)]) is None  # (drawn last, but not above the rest)
    True
    >>> longer = [Span(500 - 12 * n, 10, 30, 300) for n in range(8)]  # the page's number drawn first, at its foot
    >>> title_drawn_last([Span(5, 8, 300, 330), Span(700, 8, 30, 200)] + longer + [Span(560, 16, 30, 300)])[:4]
    [[0], [1], [10], [2]]
    """
    n = len(spans)
    found: Optional[Tuple[int, int, List[int], List[int]]] = None
    for first in range(n - 1, max(n - TAIL_LINES, 1) - 1, -1):
        top = max(spans[i].bottom for i in range(first, n))
        head = next((count for count in range(min(HEAD_LINES, first - 1), 0, -1)  # (a header of two lines, as a block)
                     if all(_page_edge(spans, line, count, first, top) for line in range(count))), 0)
        high = max(spans[i].bottom for i in range(head, first))
        low = min(spans[i].bottom for i in range(head, first))
        above = [i for i in range(first, n) if spans[i].bottom > high]
        below = [i for i in range(first, n) if spans[i].bottom < low]
        beside = _title_beside(spans, range(head, first), [i for i in range(first, n) if low <= spans[i].bottom <= high])
        if (above or beside) and len(above) + len(below) + len(beside) == n - first:
            found = (first, head, above + beside, below)
    if found is None:
        return None
    first, head, above, below = found
    title = sorted(above, key=lambda i: -spans[i].bottom)
    return [[i] for i in range(head)] + [[i] for i in title] + [[i] for i in range(head, first)] + [[i] for i in below]


SIDE_TITLE = 1.5
"""How many times as tall as the lines beside it a title in a column of its own is set, at least."""


def _title_beside(spans: Sequence[Span], body: Sequence[int], tail: Sequence[int]) -> List[int]:
    """The ``tail`` lines, drawn after the ``body``, when they are a title in
    a column of its own left of the body (Chubb's ``Section 12 –`` ⏎
    ``Political and`` ⏎ ``Natural Disaster`` ⏎ ``Evacuation`` beside the
    section's two columns): every body line they stand beside lies right of
    them, they are set ``SIDE_TITLE`` times as tall as those lines, and their
    top is the band's top. Else none."""
    if not tail:
        return []
    right = max(spans[i].right for i in tail)
    bottom = min(spans[i].bottom for i in tail)
    top = max(spans[i].bottom + spans[i].height for i in tail)
    near = [i for i in body if spans[i].bottom < top and spans[i].bottom + spans[i].height > bottom]
    if not near or any(spans[i].left <= right for i in near):
        return []
    tallest = max(spans[i].height for i in near)
    if min(spans[i].height for i in tail) < SIDE_TITLE * tallest or top < max(spans[i].bottom + spans[i].height for i in near):
        return []
    return list(tail)


def _page_edge(spans: Sequence[Span], head: int, after: int, first: int, top: float) -> bool:
    """Line ``head``, drawn before a title drawn last (whose top line sits at
    ``top``), stands a margin's gap apart from the lines drawn from ``after``
    up to the title: above them all and the title (a running header), or
    below them all (the page's number, drawn first)."""
    rest = [spans[i].bottom for i in range(after, first)]
    line = spans[head]
    gap = HEAD_GAP * line.height
    return line.bottom > top and line.bottom - max(rest) > gap or min(rest) - line.bottom > gap


COLUMN_LINES = 5
"""Lines each of two columns holds at least, drawn one after another, for the
page to be read as two columns: fewer may be a table's cells or a margin note;
and the two hold half the page's lines at least, where a table drawn row by row
alternates sides many times, one cell's few wrapped lines at a time."""
PROSE_WIDTH = 8
"""How many times its height a line of prose is wide at least: some five words."""
GUTTER_ZONE = (0.25, 0.75)
"""Where, as shares of the width the page's lines span, a gutter between two columns may run."""


def left_column_first(spans: Sequence[Span]) -> Optional[List[List[int]]]:
    """The lines (as :func:`reading_order` gives them) with a right column
    read after the left column beside it, where the page draws it before:
    a run of at least ``COLUMN_LINES`` lines drawn wholly right of the page's
    gutter, then one drawn wholly left of it, the two side by side on the
    page and holding half its lines at least. Up to ``HEAD_LINES`` lines atop
    the right run that stand a margin's gap from the rest of it, above the
    left run (a running header), are still read first, and as many at the
    left run's foot below the right run (a footer) last (``_apart``). Every
    other line keeps its place. ``None`` where no column is drawn before the
    one to its left.

    >>> right = [Span(700 - 12 * n, 10, 320, 560) for n in range(6)]
    >>> left = [Span(700 - 12 * n, 10, 40, 280) for n in range(6)]
    >>> left_column_first([Span(760, 10, 40, 560)] + right + left + [Span(20, 8, 280, 300)])[:3]
    [[0], [7], [8]]
    >>> header, footer = Span(740, 8, 400, 560), Span(30, 8, 40, 200)  # drawn with the runs, at the page's edges
    >>> order = left_column_first([header] + right + left + [footer])
    >>> order[0], order[1], order[7], order[-1]
    ([0], [7], [1], [13])
    >>> left_column_first(left + right) is None  # (drawn as read)
    True
    >>> left_column_first(right[:4] + left[:4]) is None  # (too few lines for columns)
    True
    >>> rows = [Span(600 - 12 * n, 10, 40, 560) for n in range(11)]  # a table's rows, one cell wrapped beside the next rows
    >>> left_column_first(right[:5] + left[:5] + rows) is None
    True
    >>> letters = [Span(700 - 40 * n, 30, 300 + 10 * n, 320 + 10 * n) for n in range(6)]  # a watermark's
    >>> left_column_first(letters + left) is None
    True
    """
    gutter = _gutter(spans)
    if gutter is None:
        return None

    def side(i: int) -> str:
        return "right" if spans[i].left >= gutter else "left" if spans[i].right <= gutter else "across"
    runs = [(key, list(lines)) for key, lines in groupby(range(len(spans)), key=side)]  # in draw order
    order: List[int] = []
    swapped, k = False, 0
    while k < len(runs):
        right = runs[k][1]
        left = runs[k + 1][1] if k + 1 < len(runs) and runs[k + 1][0] == "left" else []
        if (runs[k][0] == "right" and min(len(right), len(left)) >= COLUMN_LINES
                and 2 * (len(right) + len(left)) >= len(spans) and _side_by_side([spans[i] for i in right], [spans[i] for i in left])):
            header = _apart(spans, right, left, above=True)
            footer = _apart(spans, left, right, above=False)
            order += header + [i for i in left if i not in footer] + [i for i in right if i not in header] + footer
            swapped = True
            k += 2
        else:
            order += right
            k += 1
    return [[i] for i in order] if swapped else None


def _apart(spans: Sequence[Span], run: Sequence[int], other: Sequence[int], above: bool) -> List[int]:
    """The lines of ``run`` at its top (``above``) or foot, up to
    ``HEAD_LINES``, that stand a margin's gap (``HEAD_GAP`` line heights)
    from the rest of their run and beyond every line of the ``other`` run:
    a running header drawn with the right column, a footer with the left.
    A column that only starts higher or ends lower than the other has no
    such gap in it, and stays whole."""
    edge = sorted(run, key=lambda i: -spans[i].bottom if above else spans[i].bottom)
    beyond = max(spans[i].bottom for i in other) if above else min(spans[i].bottom for i in other)
    for count in range(1, min(HEAD_LINES, len(edge) - 1) + 1):
        last, rest = spans[edge[count - 1]], spans[edge[count]]
        gap = last.bottom - rest.bottom if above else rest.bottom - last.bottom
        outside = last.bottom > beyond if above else last.bottom < beyond
        if gap > HEAD_GAP * last.height and outside:
            return [i for i in run if i in edge[:count]]
    return []


def _gutter(spans: Sequence[Span]) -> Optional[float]:
    """Where a gutter between two columns runs, if anywhere: just right of a
    line's right edge inside ``GUTTER_ZONE``, where fewest lines run across it
    and at least ``COLUMN_LINES`` lie wholly on each side."""
    if len(spans) < 2 * COLUMN_LINES:
        return None
    low, high = min(span.left for span in spans), max(span.right for span in spans)
    rights, lefts = sorted(span.right for span in spans), sorted(span.left for span in spans)
    best: Optional[Tuple[int, float]] = None
    for candidate in sorted(set(rights)):  # (counted by bisection: a page may hold thousands of lines)
        if not low + GUTTER_ZONE[0] * (high - low) <= candidate <= low + GUTTER_ZONE[1] * (high - low):
            continue
        left = bisect_right(rights, candidate)
        right = len(lefts) - bisect_left(lefts, candidate)
        if left >= COLUMN_LINES and right >= COLUMN_LINES:
            across = len(spans) - left - right
            if best is None or across < best[0]:
                best = (across, candidate)
    return None if best is None else best[1]


def _side_by_side(first: Sequence[Span], second: Sequence[Span]) -> bool:
    """Whether two runs of lines are two columns of text beside each other:
    each overlaps at least half the other's height on the page, and half the
    lines of each are lines of prose, ``PROSE_WIDTH`` times as wide as they
    are high (not a watermark's letters, not a column of amounts)."""
    def extent(run: Sequence[Span]) -> Tuple[float, float]:
        return min(span.bottom for span in run), max(span.bottom + span.height for span in run)

    def prose(run: Sequence[Span]) -> bool:
        return 2 * sum(span.right - span.left >= PROSE_WIDTH * span.height for span in run) >= len(run)
    (a_low, a_high), (b_low, b_high) = extent(first), extent(second)
    shared = min(a_high, b_high) - max(a_low, b_low)
    return shared >= 0.5 * min(a_high - a_low, b_high - b_low) and prose(first) and prose(second)


def in_reading_order(lines: List[str], spans: List[Optional[Span]], styles: List[Optional[Style]],
                     leads: List[int]) -> Tuple[List[str], List[Optional[Span]], List[Optional[Style]], List[int]]:
    """A page's lines, with where each sits, how it is set and its run-in term
    (see ``drivers.pdf.line_style``), in reading order (:func:`reading_order`).

    The pieces of one line are joined by a space; the joined line is set as
    its longest piece is. Its run-in term is its first piece's, or that piece
    itself when it is set in bold and the line is not (a table's term beside
    its meaning), or, after a piece of one word (a label: ``1.`` then
    ``Fire ...``), the second piece's. Blank
    lines go: the page's blank lines are drawn again from where the lines sit.
    A right column drawn before the left is read after it
    (:func:`left_column_first`); a page's title drawn last comes first
    (:func:`title_drawn_last`). A page
    with a line of text whose place is unknown stays as drawn."""
    placed = [k for k, line in enumerate(lines) if line.strip()]
    if any(spans[k] is None for k in placed):
        return lines, spans, styles, leads
    where = [cast(Span, spans[k]) for k in placed]
    order = reading_order(where, [lines[k] for k in placed])
    if order is None:
        order = left_column_first(where)
    if order is None:
        order = title_drawn_last(where)
    if order is None:
        return lines, spans, styles, leads
    texts: List[str] = []
    places: List[Optional[Span]] = []
    sets: List[Optional[Style]] = []
    terms: List[int] = []
    for row in order:
        pieces = [placed[i] for i in row]
        first = lines[pieces[0]].strip()
        texts.append(lines[pieces[0]] if len(pieces) == 1 else " ".join(lines[k].strip() for k in pieces))
        places.append(spans[pieces[0]])
        style = styles[max(pieces, key=lambda k: len(lines[k].strip()))]
        sets.append(style)
        lead, bold = leads[pieces[0]], styles[pieces[0]]
        if lead or len(pieces) == 1:
            pass
        elif bold is not None and bold.bold and style is not None and not style.bold:
            lead = len(first) + 1  # a term in bold, its text beside it in a face that is not
        elif len(first.split()) == 1:  # a label, then its text with the text's own term
            after, text = leads[pieces[1]], lines[pieces[1]]
            shift = len(first) + 1 - (len(text) - len(text.lstrip()))
            lead = after + shift if after > 0 else after - shift if after < 0 else 0
        terms.append(lead)
    return texts, places, sets, terms

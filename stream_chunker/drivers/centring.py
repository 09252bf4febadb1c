"""Lines a page centres over the text below them: a heading's place, whatever its face.

Most headings stand out by their size or weight (``core.layout``). Some are
set in the body's own face and stand out only by their place: a short line
alone between blank lines, centred over the paragraph that follows it (the
Ontario owner's policy prints ``Example`` so above each of its examples). The
paragraph below gives the measure: centring is judged within its left and
right edges, so a column's heading is centred in its column, not the page.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, cast

from .reading_order import Span

MARGIN = 0.15
"""Of the paragraph's width, the least space each side of a centred heading's first line."""
OFF_CENTRE = 0.08
"""Of the paragraph's width, how far the two sides' spaces may differ (the
paragraph's lines are ragged on the right: its right edge is its longest line's)."""
PARAGRAPH_LINES = 2
"""Lines the paragraph below has, at least: a line's measure is a paragraph's."""


def centred_alone(lines: Sequence[str], spans: Sequence[Optional[Span]]) -> List[int]:
    """The lines of a page (blank lines between its blocks) that stand alone,
    one or two of them between blank lines, each centred over the paragraph
    after them (``Example #1`` ⏎ ``(the other driver is entirely responsible)``).

    >>> body = [Span(700 - 14 * i, 10, 72, 540) for i in range(3)]
    >>> lines = ["", "Example", "", "Your policy covers two cars.", "It pays the larger limit.", ""]
    >>> centred_alone(lines, [None, Span(730, 10, 280, 332), None, *body[:2], None])
    [1]
    >>> centred_alone(lines, [None, Span(730, 10, 72, 124), None, *body[:2], None])  # (set flush left)
    []
    """
    out: List[int] = []
    at = 0
    while at < len(lines):
        if not lines[at].strip():
            at += 1
            continue
        end = at
        while end < len(lines) and lines[end].strip():
            end += 1
        below = end
        while below < len(lines) and not lines[below].strip():
            below += 1
        if end - at <= BLOCK_LINES and below > end:  # (a block of its own, a blank line under it)
            paragraph: List[Span] = []
            while below < len(lines) and lines[below].strip() and spans[below] is not None:
                paragraph.append(cast(Span, spans[below]))
                below += 1
            if len(paragraph) >= PARAGRAPH_LINES:
                left, right = min(one.left for one in paragraph), max(one.right for one in paragraph)
                if all(_centred(spans[line], left, right, MARGIN if line == at else 0.0) for line in range(at, end)):
                    out += range(at, end)
        at = end
    return out


BLOCK_LINES = 2
"""Lines a centred heading may have."""


def _centred(span: Optional[Span], left: float, right: float, margin: float) -> bool:
    """``span`` is centred between a paragraph's ``left`` and ``right`` edges,
    ``margin`` of its width clear each side (a heading's second line may be as
    wide as the text: ``(you are partly responsible - no optional Loss or Damage Coverages)``)."""
    if span is None:
        return False
    width = right - left
    before, after = span.left - left, right - span.right
    return width > 0 and min(before, after) > margin * width and abs(before - after) < OFF_CENTRE * width

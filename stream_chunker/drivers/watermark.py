"""A word stamped across a page, letter by letter: ``SAMPLE DOCUMENT``, ``SPECIMEN``.

A specimen wording is often printed with a large word drawn diagonally over
its text. PDFium gives each of its letters as a line of its own, and read
among the page's lines they are a column of one-letter "headings" in large
bold type above the running header, or a stray ``C U M E N T`` inside a
paragraph. Set on a slant, the letters say nothing of the text: they are
put together on one line at the page's foot, after a blank line, where a
stamp on every page is a page's furniture (``core`` drops and counts it as
such) and a stamp on one page stays as a line of text. The letters are kept
as printed, each a word of its own and two spaces between the words they
spell (``S A M P L E  D O C U M E N T``), as ``pdftotext`` gives them: the
line holds the page's words, not a reading of them.

Only a slant is taken: a column of single letters straight down a page may be
a table's (``Y``/``N``, a rating's letters), and a row of them across is a
line of text.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from .reading_order import Span

STAMP_LETTERS = 4
"""Letters in a row, at least, for a slanted run to be a stamp (a two-letter
word on a slant is too little to tell from a diagram's labels)."""
STEP_HEIGHTS = 0.5
"""How far, in the letters' height, each letter sits from the one before, at
least, both across and down the page: letters of one line of text share a
baseline, and lines of a column share a left edge."""
SLOPE_SPREAD = 0.25
"""How far the slope between two letters may stray from the run's, as a share
of it: the letters sit on one straight line."""
WORD_STEP = 1.6
"""A step this many times the shortest is the space between two words."""
LETTER_GAP, WORD_GAP = " ", "  "
"""What the stamp's line puts between two letters of a word, and between two words."""


def stamps(lines: Sequence[str], spans: Sequence[Optional[Span]]) -> List[Tuple[int, int, str]]:
    """The runs of lines ``(first, end, word)`` that spell a stamp: at least
    :data:`STAMP_LETTERS` lines in a row, each one letter, each set
    apart from the one before by the same slant (see :data:`STEP_HEIGHTS`).

    >>> letters = "SAMPLE"
    >>> slant = [Span(700 - 40 * i, 26, 60 + 30 * i, 80 + 30 * i) for i in range(6)]
    >>> stamps(list(letters), slant)
    [(0, 6, 'S A M P L E')]
    >>> stamps(list(letters), [Span(700 - 14 * i, 10, 60, 66) for i in range(6)])  # (a column)
    []
    >>> stamps(list("123456"), slant)  # (a diagram's numbered steps)
    []
    """
    found: List[Tuple[int, int, str]] = []
    at = 0
    while at < len(lines):
        end = at
        while end < len(lines) and _letter(lines[end], spans[end]) and (end == at or _stepped(spans, at, end)):
            end += 1
        if end - at >= STAMP_LETTERS:
            found.append((at, end, _spelled(lines, spans, at, end)))
            at = end
        else:
            at = max(end, at + 1)
    return found


def _letter(line: str, span: Optional[Span]) -> bool:
    text = line.strip()
    return span is not None and len(text) == 1 and text.isalpha()  # (a diagram's steps are numbered)


def _step(a: Optional[Span], b: Optional[Span]) -> Tuple[float, float]:
    assert a is not None and b is not None
    return b.left - a.left, b.bottom - a.bottom


def _stepped(spans: Sequence[Optional[Span]], first: int, at: int) -> bool:
    """Line ``at`` follows line ``at - 1`` on the slant the run from ``first`` has taken."""
    height = max(span.height for span in spans[first:at + 1] if span is not None)
    across, down = _step(spans[at - 1], spans[at])
    if abs(across) < STEP_HEIGHTS * height or abs(down) < STEP_HEIGHTS * height:
        return False
    if at - first < 2:
        return True
    was_across, was_down = _step(spans[first], spans[first + 1])
    if (across > 0) != (was_across > 0) or (down > 0) != (was_down > 0):
        return False
    slope, was = down / across, was_down / was_across
    return abs(slope - was) <= SLOPE_SPREAD * abs(was)


def _spelled(lines: Sequence[str], spans: Sequence[Optional[Span]], first: int, end: int) -> str:
    steps = [abs(_step(spans[k - 1], spans[k])[0]) for k in range(first + 1, end)]
    shortest = min(steps)
    word = lines[first].strip()
    for k, step in zip(range(first + 1, end), steps):
        word += (WORD_GAP if step > WORD_STEP * shortest else LETTER_GAP) + lines[k].strip()
    return word

"""The hard limit (``hard_max_tokens``): a paragraph over it is cut into pieces under it.

The cap is a target: a paragraph longer than the cap is kept whole
(``oversize: "kept"``), as cutting a clause mid-sentence harms retrieval more
than a long chunk does. But embedding models refuse inputs over their limit,
so a user may set a hard limit at or above the cap: a paragraph over it is cut
at sentence ends, and a sentence still over it at spaces between words (a
word longer than the limit is a piece of its own), each piece as large as
the limit allows. The pieces are flagged ``oversize: "split"`` and cited
``#n`` as any section of several pieces is.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator, List, Tuple

_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=\S)")

Size = Callable[[str, int], int]
"""A text's size in the cap's unit, given its word count (``Sizer.size``)."""


def pieces_within(text: str, limit: int, size: Size) -> List[Tuple[str, int, int]]:
    """``text`` cut into ``(piece, words, size)`` each of at most ``limit``
    (but a single word over it), at sentence ends first, then between words.

    >>> by_words = lambda text, words: words
    >>> [p for p, _, _ in pieces_within("One two three. Four five. Six seven eight nine.", 3, by_words)]
    ['One two three.', 'Four five.', 'Six seven eight', 'nine.']
    """
    out: List[Tuple[str, int, int]] = []
    for piece, words, piece_size in _packed(_SENTENCE_END.split(text), limit, size):
        out += [(piece, words, piece_size)] if piece_size <= limit or words == 1 else \
            list(_packed(piece.split(), limit, size))
    return out


def _packed(units: List[str], limit: int, size: Size) -> Iterator[Tuple[str, int, int]]:
    """``units`` joined by spaces into pieces as large as ``limit`` allows; a
    unit over the limit alone is a piece of its own."""
    held: List[str] = []
    held_words = 0
    for unit in units:
        words = len(unit.split())
        if held and size(" ".join([*held, unit]), held_words + words) > limit:
            piece = " ".join(held)
            yield piece, held_words, size(piece, held_words)
            held, held_words = [], 0
        held.append(unit)
        held_words += words
    if held:
        piece = " ".join(held)
        yield piece, held_words, size(piece, held_words)

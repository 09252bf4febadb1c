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
from typing import Callable, List, Tuple

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
    held: List[str] = []  # sentences of the piece being made
    held_words = 0
    for sentence in _SENTENCE_END.split(text):
        words = len(sentence.split())
        if held:
            joined = " ".join([*held, sentence])
            joined_size = size(joined, held_words + words)
            if joined_size <= limit:
                held.append(sentence)
                held_words += words
                continue
            piece = " ".join(held)
            out.append((piece, held_words, size(piece, held_words)))
            held, held_words = [], 0
        if size(sentence, words) <= limit:
            held, held_words = [sentence], words
        else:
            out += _by_words(sentence, limit, size)
    if held:
        piece = " ".join(held)
        out.append((piece, held_words, size(piece, held_words)))
    return out


def _by_words(sentence: str, limit: int, size: Size) -> List[Tuple[str, int, int]]:
    out: List[Tuple[str, int, int]] = []
    held: List[str] = []
    for word in sentence.split():
        if held and size(" ".join([*held, word]), len(held) + 1) > limit:
            piece = " ".join(held)
            out.append((piece, len(held), size(piece, len(held))))
            held = []
        held.append(word)
    if held:
        piece = " ".join(held)
        out.append((piece, len(held), size(piece, len(held))))
    return out

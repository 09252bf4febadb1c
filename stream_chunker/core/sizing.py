"""How a cap measures text: one sizer a unit, chosen once, before any text is read.

The packer asks a sizer three things: the size of a text, whether texts joined
fit, and whether a node with what is nested in it may still fit. Each unit
answers them its own way:

- ``estimate``: tokens estimated from word counts, so that joined texts are
  measured from their words alone and nothing is counted twice;
- ``chars``: characters, a join costing its separator;
- ``real``: real tokens, counted on the joined text itself, because a join
  costs tokens of its own (a lower bound rules most candidates out first).

>>> sizer("estimate").size("We cover the house.", 4), sizer("chars").size("We cover the house.", 4)
(6, 19)
"""

from __future__ import annotations

from typing import Callable, List, Optional

from .chunk import estimate_tokens

JOIN_SAVES = 8
"""Tokens a join is taken to save at most, with room to spare (see ``RealTokens.floor``)."""

UNITS = ("estimate", "real", "chars")
"""The units a cap is measured in, as the options and the report name them."""


class Sizer:
    """What every unit answers; the packer calls only these."""

    def __init__(self, unit: str, *, counts_tokens: bool = True, real: bool = False) -> None:
        self.unit = unit
        """The unit's name in the report (one of ``UNITS``)."""
        self.counts_tokens = counts_tokens
        """Its cap is a number of tokens (the report compares it with real counts)."""
        self.real = real
        """Its sizes are real token counts: a chunk's ``real_tokens`` is its size,
        and ``may_fit`` is only a bound (a node it lets through is counted joined)."""

    def size(self, text: str, words: int) -> int:
        """The size of ``text`` of ``words`` words."""
        raise NotImplementedError

    def joined(self, texts: List[str], words: int, size: int, more: str, more_words: int,
               more_size: int, sep: str, limit: int) -> int:
        """The size of ``texts + [more]`` joined by ``sep`` (``texts`` of
        ``words`` words and ``size``), or ``limit + 1`` when it is known not to fit."""
        raise NotImplementedError

    def may_fit(self, texts: List[str], words: int, size: int, below_words: int, below_chars: int,
                below_floor: int, below_texts: int, sep: str, limit: int) -> bool:
        """Whether a node's own ``texts`` (of ``words`` and ``size``), with
        ``below_texts`` nested parts (of ``below_words``, ``below_chars`` and
        sizes summing to ``below_floor``), may still be one chunk of ``limit``."""
        raise NotImplementedError


class EstimatedTokens(Sizer):
    """Tokens estimated at 0.75 words a token: a join costs nothing."""

    def __init__(self) -> None:
        super().__init__("estimate")

    def size(self, text: str, words: int) -> int:
        return (4 * words + 2) // 3  # ``estimate_tokens`` inline: asked of every paragraph

    def joined(self, texts: List[str], words: int, size: int, more: str, more_words: int,
               more_size: int, sep: str, limit: int) -> int:
        return (4 * (words + more_words) + 2) // 3  # (``estimate_tokens`` inline, as above)

    def may_fit(self, texts: List[str], words: int, size: int, below_words: int, below_chars: int,
                below_floor: int, below_texts: int, sep: str, limit: int) -> bool:
        return estimate_tokens(words + below_words) <= limit


class Characters(Sizer):
    """Characters, separators included."""

    def __init__(self) -> None:
        super().__init__("chars", counts_tokens=False)

    def size(self, text: str, words: int) -> int:
        return len(text)

    def joined(self, texts: List[str], words: int, size: int, more: str, more_words: int,
               more_size: int, sep: str, limit: int) -> int:
        return size + len(sep) + more_size

    def may_fit(self, texts: List[str], words: int, size: int, below_words: int, below_chars: int,
                below_floor: int, below_texts: int, sep: str, limit: int) -> bool:
        parts = len(texts) + below_texts
        return sum(map(len, texts)) + below_chars + len(sep) * max(parts - 1, 0) <= limit


class RealTokens(Sizer):
    """Real tokens, counted by ``count`` on the text as it will be joined."""

    def __init__(self, count: Callable[[str], int]) -> None:
        super().__init__("real", real=True)
        self._count = count

    def size(self, text: str, words: int) -> int:
        return self._count(text)

    def joined(self, texts: List[str], words: int, size: int, more: str, more_words: int,
               more_size: int, sep: str, limit: int) -> int:
        # A lower bound on the joined count rules most candidates out
        # without encoding (see ``floor``); the rest are counted joined.
        if size + self.floor(more_size) > limit:
            return limit + 1
        return self._count(sep.join(texts + [more]))

    def may_fit(self, texts: List[str], words: int, size: int, below_words: int, below_chars: int,
                below_floor: int, below_texts: int, sep: str, limit: int) -> bool:
        # Each nested part adds at least one token, and at most ``JOIN_SAVES``
        # fewer than its own; the packer counts the node joined before it is one chunk.
        return size + max(below_texts, below_floor - JOIN_SAVES * below_texts) <= limit

    @staticmethod
    def floor(size: int) -> int:
        """The least a part of ``size`` real tokens can add to a text it is
        joined to. A join may save tokens: the part's first word takes the
        separator as its leading space and may then be fewer tokens (measured
        on the corpus: up to 3 saved at a join); and each part still adds at
        least one token, so a held node stays bounded."""
        return max(1, size - JOIN_SAVES)


def sizer(unit: str, count: Optional[Callable[[str], int]] = None) -> Sizer:
    """The sizer of ``unit`` (one of ``UNITS``); ``real`` counts with ``count``."""
    if unit == "estimate":
        return EstimatedTokens()
    if unit == "chars":
        return Characters()
    if unit == "real" and count is not None:
        return RealTokens(count)
    raise ValueError(f"no sizer for unit {unit!r}" + (" without a count" if unit == "real" else ""))


"""Labels and what can come next: decimal section numbers (``4.2.1``) and
statute labels (``(a)``, ``(1)``, ``(iv)``, ``(AA)``, ``(a-1)``, ``(9A)``, ``(3.5)``,
``A.``, ``5.``, ``IV.``, ``1-A.``) -- what they can mean, and the sequence rules.

A decimal number carries its whole path: ``4.2.1`` may follow ``4.2`` (its
first child), ``4.3`` may follow ``4.2`` or ``4.2.7`` (a sibling of the current
number or of an ancestor). Numbers compare as tuples of integers, so 4.10
follows 4.9.

A label token can mean several things: ``i`` is the ninth letter or roman one,
``V`` the letter after ``U`` or roman five. Each meaning is a *style* (lower
letters, roman numerals, digits; bare ``A.`` and bracketed ``(A)`` are different
styles) and a *value* ``(base, insertion)``: ``(b)`` is ``(2, 0)``, the inserted
``(b-1)`` is ``(2, 1)``, Colorado's ``(3.5)`` is ``(3, 5)``. Letters past ``z``
double and triple as Ohio writes them: ``(aa)`` is 27, ``(zzz)`` is 78.

The reader keeps a stack of open levels, each a style with its current value.
A label opens a subsection only if it continues an open level -- its next value,
or an insertion after the current one -- closing the levels below, or starts a
new level one deeper with the first value of a style not already open.
Continuation wins: ``(i)`` after ``(h)`` is the ninth subsection, ``(i)`` just
under ``(a)`` starts roman numbering.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List, NamedTuple, Optional, Sequence, Tuple

Number = Tuple[int, ...]
"""A decimal section number: ``4.10`` is ``(4, 10)``."""


@lru_cache(maxsize=1024)
def parse_number(text: str) -> Number:
    """``"4.10."`` -> ``(4, 10)``. Cached: each heading-shaped line is parsed
    more than once, and the same short numbers come back through a document.

    >>> parse_number("4.10.")
    (4, 10)
    """
    return tuple(map(int, text.rstrip(".").split(".")))


def next_numbers(current: Number) -> List[Number]:
    """The numbers a document can have after ``current``.

    >>> next_numbers((4, 2))
    [(4, 2, 1), (4, 3), (5,)]
    """
    return [current + (1,)] + [current[:depth] + (current[depth] + 1,) for depth in range(len(current) - 1, -1, -1)]


Value = Tuple[int, int]
FIRST: Value = (1, 0)

_ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$", re.IGNORECASE)
_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_INSERTED = re.compile(r"(?P<base>[A-Za-z]|\d{1,3})(?P<sep>[-\u2013.]?)(?P<ins>\d{1,2}|[A-Z])$")

# A line starting with a chain of bracketed labels, or with one bare label.
LABEL_LINE = re.compile(
    r"(?P<chain>(?:\([A-Za-z0-9.\-\u2013]{1,6}\))+)(?=\s|$)"
    r"|(?P<bare>[A-Z]|[IVXLC]{2,6}|\d{1,3}(?:-[A-Z])?)\.(?=\s|$)"
)
_TOKEN = re.compile(r"\(([^()]+)\)")


class Meaning(NamedTuple):
    style: str
    value: Value


class Level(NamedTuple):
    style: str
    value: Value
    printed: str
    """The label as printed, without brackets or dot: ``a``, ``d–1``, ``A``."""


def roman_value(token: str) -> int:
    """The value of a roman numeral.

    >>> roman_value("xiv"), roman_value("MCM")
    (14, 1900)
    """
    total = 0
    digits = [_ROMAN_DIGITS[c] for c in token.upper()]
    for i, d in enumerate(digits):
        total += -d if i + 1 < len(digits) and digits[i + 1] > d else d
    return total


def _letter_value(token: str) -> int:
    """``a`` is 1, ``z`` 26, ``aa`` 27, ``zz`` 52, ``aaa`` 53 (Ohio's doubling)."""
    return 26 * (len(token) - 1) + ord(token[0].lower()) - ord("a") + 1


def meanings(token: str, bare: bool) -> List[Meaning]:
    """Every way to read a label token.

    >>> meanings("i", bare=False)
    [Meaning(style='lower', value=(9, 0)), Meaning(style='lower-roman', value=(1, 0))]
    >>> meanings("d\u20131", bare=False), meanings("9A", bare=False)
    ([Meaning(style='lower', value=(4, 1))], [Meaning(style='digit', value=(9, 1))])
    """
    prefix = "bare-" if bare else ""
    out: List[Meaning] = []
    if token.isdigit():
        return [Meaning(prefix + "digit", (int(token), 0))]
    if token.isalpha() and token == token[0] * len(token):
        case = "lower" if token.islower() else "upper"
        out.append(Meaning(prefix + case, (_letter_value(token), 0)))
    if token.isalpha() and (token.islower() or token.isupper()) and _ROMAN.match(token):
        case = "lower" if token.islower() else "upper"
        out.append(Meaning(f"{prefix}{case}-roman", (roman_value(token), 0)))
    if not out:
        m = _INSERTED.match(token)
        if m is not None:
            base, ins = m["base"], m["ins"]
            ins_value = int(ins) if ins.isdigit() else ord(ins) - ord("A") + 1
            if base.isdigit():
                out.append(Meaning(prefix + "digit", (int(base), ins_value)))
            elif ins.isdigit():
                case = "lower" if base.islower() else "upper"
                out.append(Meaning(prefix + case, (_letter_value(base), ins_value)))
    return out


def follows(current: Value, value: Value) -> bool:
    """Whether ``value`` may come right after ``current`` at one level: the next
    value, or a value inserted after the current one.

    >>> follows((1, 0), (2, 0)), follows((1, 0), (1, 1)), follows((1, 1), (2, 0)), follows((1, 0), (3, 0))
    (True, True, True, False)
    """
    return value == (current[0] + 1, 0) or (value[0] == current[0] and value[1] > current[1])


def tokens(match: "re.Match[str]") -> Tuple[List[str], bool]:
    """The label tokens at the start of a line, and whether they are bare."""
    if match["chain"] is not None:
        return _TOKEN.findall(match["chain"]), False
    return [match["bare"]], True


def place(stack: Sequence[Level], token: str, bare: bool) -> Optional[Tuple[int, Level]]:
    """Where a label goes: ``(depth, level)`` -- the stack is cut to ``depth``
    and the level pushed -- or ``None`` when the label fits nowhere (text).

    >>> place([Level("lower", (8, 0), "h")], "i", False)
    (0, Level(style='lower', value=(9, 0), printed='i'))
    >>> place([Level("lower", (1, 0), "a")], "i", False)
    (1, Level(style='lower-roman', value=(1, 0), printed='i'))
    """
    options = meanings(token, bare)
    for depth in range(len(stack) - 1, -1, -1):
        level = stack[depth]
        for meaning in options:
            if meaning.style == level.style and follows(level.value, meaning.value):
                return depth, Level(meaning.style, meaning.value, token)
    open_styles = {level.style for level in stack}
    for meaning in options:
        if meaning.value == FIRST and meaning.style not in open_styles:
            return len(stack), Level(meaning.style, meaning.value, token)
    return None


def place_chain(stack: Sequence[Level], match: "re.Match[str]") -> Optional[List[Level]]:
    """The new stack after the labels at a line's start, or ``None``. In a chain
    like ``(8.5)(a)(I)`` each label after the first must open a new level."""
    found, bare = tokens(match)
    new = list(stack)
    for i, token in enumerate(found):
        spot = place(new, token, bare)
        if spot is None or (i and spot[0] != len(new)):
            return None if i == 0 else new
        depth, level = spot
        del new[depth:]
        new.append(level)
    return new

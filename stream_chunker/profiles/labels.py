"""Labels and what can come next: one model for every profile.

A label token can mean several things: ``i`` is the ninth letter or roman one,
``V`` the letter after ``U`` or roman five, ``C`` the third letter or roman
hundred. Each meaning is a *style* -- lower letters, roman numerals, digits,
decimal section numbers; printed ``A.``, ``(A)``, ``A)`` or ``SECTION A)`` are
different styles -- and a *value*. For a letter, numeral or digit the value is
``(base, insertion)``: ``(b)`` is ``(2, 0)``, the inserted ``(b-1)`` is ``(2, 1)``,
Colorado's ``(3.5)`` is ``(3, 5)``, a wording's ``7a.`` and ``9A.`` ``(7, 1)`` and ``(9, 1)``; letters past ``z`` double and triple as Ohio
writes them (``(aa)`` is 27). A decimal section number is its own path:
``4.10`` is ``(4, 10)``, and may be followed by its first child (``4.10.1``) or by
the next sibling of itself or of an ancestor (``4.11``, ``5``); numbers compare as
tuples of integers, so 4.10 follows 4.9. A decimal number has at most ten parts
(the patterns that find them say so): deeper, it is text, so that the open
levels, and the work of asking what comes next, stay bounded.

The reader keeps a stack of open levels, each a style with its current value.
A label opens a level only if it continues an open level -- its next value, or
an insertion after the current one -- closing the levels below, or starts a
new level one deeper with the first value of a style not already open.
Continuation wins: ``(i)`` after ``(h)`` is the ninth subsection, ``(i)`` just
under ``(a)`` starts roman numbering. Numbering therefore restarts under every
new parent, and levels may be skipped.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List, NamedTuple, Optional, Sequence, Tuple

Number = Tuple[int, ...]
"""A decimal section number: ``4.10`` is ``(4, 10)``."""

Value = Tuple[int, ...]
"""A label's place in its style: ``(base, insertion)``, or a decimal ``Number``."""

DECIMAL = "decimal"
FIRST: Value = (1, 0)

_ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$", re.IGNORECASE)
_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_INSERTED = re.compile(r"(?P<base>[A-Za-z]|\d{1,3})(?P<sep>[-\u2013.]?)(?P<ins>\d{1,2}|[A-Z]|(?<=\d)[a-z])$")

# A statute line starting with a chain of bracketed labels, or with one bare label.
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
    """The label as printed, without brackets or dot: ``a``, ``d–1``, ``A``, ``4.2``."""


@lru_cache(maxsize=1024)
def parse_number(text: str) -> Number:
    """``"4.10."`` -> ``(4, 10)``. Cached: each heading-shaped line is parsed
    more than once, and the same short numbers come back through a document.

    >>> parse_number("4.10.")
    (4, 10)
    """
    return tuple(map(int, text.rstrip(".").split(".")))


def next_numbers(current: Number) -> List[Number]:
    """The decimal numbers a document can have after ``current``.

    >>> next_numbers((4, 2))
    [(4, 2, 1), (4, 3), (5,)]
    """
    return [current + (1,)] + [current[:depth] + (current[depth] + 1,) for depth in range(len(current) - 1, -1, -1)]


def is_next_number(current: Number, number: Number) -> bool:
    """Whether ``number`` is one of ``next_numbers(current)``, without making them
    (asked of every decimal heading).

    >>> is_next_number((4, 2), (4, 2, 1)), is_next_number((4, 2), (5,)), is_next_number((4, 2), (4, 4))
    (True, True, False)
    """
    n = len(number)
    if n == len(current) + 1:
        return number[-1] == 1 and number[:-1] == current
    return 0 < n <= len(current) and number[-1] == current[n - 1] + 1 and number[:-1] == current[:n - 1]


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


def meanings(token: str, kind: str = "") -> List[Meaning]:
    """Every way to read a label token printed as ``kind``: ``""`` for ``(a)``,
    ``"bare-"`` for ``a.``, ``"close-"`` for ``a)``, or a prefix word and a space
    for ``SECTION A)``.

    >>> meanings("i")
    [Meaning(style='lower', value=(9, 0)), Meaning(style='lower-roman', value=(1, 0))]
    >>> meanings("d\u20131"), meanings("9A"), meanings("C", "SECTION ")
    ([Meaning(style='lower', value=(4, 1))], [Meaning(style='digit', value=(9, 1))], \
[Meaning(style='SECTION upper', value=(3, 0)), Meaning(style='SECTION upper-roman', value=(100, 0))])
    """
    out: List[Meaning] = []
    if token.isdigit():
        return [Meaning(kind + "digit", (int(token), 0))]
    if token.isalpha() and token == token[0] * len(token):
        case = "lower" if token.islower() else "upper"
        out.append(Meaning(kind + case, (_letter_value(token), 0)))
    if token.isalpha() and (token.islower() or token.isupper()) and _ROMAN.match(token):
        case = "lower" if token.islower() else "upper"
        out.append(Meaning(f"{kind}{case}-roman", (roman_value(token), 0)))
    if not out:
        m = _INSERTED.match(token)
        if m is not None:
            base, ins = m["base"], m["ins"]
            ins_value = int(ins) if ins.isdigit() else ord(ins.upper()) - ord("A") + 1
            if base.isdigit():
                out.append(Meaning(kind + "digit", (int(base), ins_value)))
            elif ins.isdigit():
                case = "lower" if base.islower() else "upper"
                out.append(Meaning(kind + case, (_letter_value(base), ins_value)))
    return out


def follows(style: str, current: Value, value: Value) -> bool:
    """Whether ``value`` may come right after ``current`` at one level: the next
    value, or a value inserted after the current one (a decimal number: its
    first child, or the next sibling of it or of an ancestor).

    >>> follows("lower", (1, 0), (2, 0)), follows("lower", (1, 0), (1, 1)), follows("lower", (1, 0), (3, 0))
    (True, True, False)
    >>> follows(DECIMAL, (4, 9), (4, 10)), follows(DECIMAL, (4, 10), (4, 2))
    (True, False)

    A number printed only in parts follows the one before it: ``7a`` after ``6``
    (a wording that splits item 7 into ``7a`` and ``7b``, and prints no ``7``).

    >>> follows("digit", (6, 0), (7, 1)), follows("digit", (6, 0), (7, 2))
    (True, False)

    A count of the document's own word may skip (``Endorsement 9``,
    ``Endorsement 11``, ``Endorsement 29``: a wording prints the endorsements
    that apply, by their numbers in a longer list); a list's numbers may not.

    >>> follows("ENDORSEMENT:digit", (9, 0), (11, 0)), follows("ENDORSEMENT:digit", (11, 0), (9, 0))
    (True, False)
    >>> follows("digit", (9, 0), (11, 0)), follows("COVERAGE:upper", (1, 0), (3, 0))
    (False, False)
    """
    if style == DECIMAL:
        return is_next_number(current, value)
    nxt = current[0] + 1
    if value[0] == nxt and value[1] < 2 or value[0] == current[0] and value[1] > current[1]:
        return True
    return value > current and style.endswith(":digit")  # (asked last: few labels count a word of their own)


STARTS_ANYWHERE = frozenset({"ENDORSEMENT", "CLAUSE", "CONDITION", "EXCLUSION", "EXTENSION", "RIDER", "WARRANTY",
                             "MEMORANDUM", "AMENDMENT"})
"""The words whose counts a wording prints in part, from a longer list (its insurer's or its market's):
their first label may have any number (``Endorsement 9`` first, endorsements 1-8 not applying), where
a count of any other word starts at its first value (``Example 4 –`` inside an item is its text)."""
_STARTS_ANYWHERE = frozenset(f"{word}:digit" for word in STARTS_ANYWHERE)  # (their counts' styles: asked as a set)


def is_first(meaning: Meaning) -> bool:
    """Whether a meaning is the first value of its style (a decimal number: one
    ending in 1)."""
    return meaning.value[-1] == 1 if meaning.style == DECIMAL else meaning.value == FIRST


def place(stack: Sequence[Level], options: Sequence[Meaning], printed: str) -> Optional[Tuple[int, Level]]:
    """Where a label goes: ``(depth, level)`` -- the stack is cut to ``depth``
    and the level pushed -- or ``None`` when the label fits nowhere (text).

    >>> place([Level("lower", (8, 0), "h")], meanings("i"), "i")
    (0, Level(style='lower', value=(9, 0), printed='i'))
    >>> place([Level("lower", (1, 0), "a")], meanings("i"), "i")
    (1, Level(style='lower-roman', value=(1, 0), printed='i'))
    """
    for depth in range(len(stack) - 1, -1, -1):
        level = stack[depth]
        for meaning in options:
            if meaning.style == level.style and follows(level.style, level.value, meaning.value):
                return depth, Level(meaning.style, meaning.value, printed)
    open_styles = {level.style for level in stack}
    for meaning in options:
        if (is_first(meaning) or meaning.style in _STARTS_ANYWHERE) and meaning.style not in open_styles:
            return len(stack), Level(meaning.style, meaning.value, printed)
    return None


def tokens(match: "re.Match[str]") -> Tuple[List[str], bool]:
    """The statute label tokens at the start of a line, and whether they are bare."""
    if match["chain"] is not None:
        return _TOKEN.findall(match["chain"]), False
    return [match["bare"]], True


def place_chain(stack: Sequence[Level], match: "re.Match[str]") -> Optional[List[Level]]:
    """The new stack after the statute labels at a line's start, or ``None``. In
    a chain like ``(8.5)(a)(I)`` each label after the first must open a new level."""
    found, bare = tokens(match)
    kind = "bare-" if bare else ""
    new = list(stack)
    for i, token in enumerate(found):
        spot = place(new, meanings(token, kind), token)
        if spot is None or (i and spot[0] != len(new)):
            return None if i == 0 else new
        depth, level = spot
        del new[depth:]
        new.append(level)
    return new

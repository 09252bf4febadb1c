"""What the policy profile keeps open while it reads: decimal sections and outline levels.

The profile alone changes these, from the decisions its rules return (see
``profiles.policy.rules``); the rules only read them.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ...core.text import short_title
from ..labels import DECIMAL, Level, Number

UNNUMBERED = "unnumbered"
"""The style of the level a heading without a number opens (one the layout
sets apart: see ``PolicyProfile.opens_styled``)."""

Form = Tuple[bool, bool]
"""How a decimal heading looks: (trailing dot, title in capitals)."""


class Frame:
    """An open decimal section: its number, its title, the form its children
    take, whether it is a clause (its title reads as a sentence) rather than a
    heading, and the headings without a number inside it that its later
    children go under (``2. DEFINITIONS`` › ``Standard definitions`` › ``2.1``)."""

    __slots__ = ("number", "title", "children", "clause", "subs")

    def __init__(self, number: Number, title: str, clause: bool = False) -> None:
        self.number = number
        self.title = title
        self.children: Optional[Form] = None
        self.clause = clause
        self.subs: List["Open"] = []

    def read_as_clause(self, text: str, max_words: int) -> None:
        """Its title reads as a sentence: it is a clause, titled by its first words."""
        self.title, self.clause = short_title(text, max_words), True

    @property
    def cited(self) -> str:
        """Its number as cited: ``2.4``."""
        return ".".join(map(str, self.number))


class Open:
    """An open level of the outline: its label, the title it gives the heading
    path, whether it is a heading (or an item), and the depth of its node in
    the packer while that is open."""

    __slots__ = ("level", "title", "heading", "node", "cid", "prominence", "last", "cites", "within")

    def __init__(self, level: Level, title: str, heading: bool, prominence: Optional[float] = None) -> None:
        self.level = level
        self.title = title
        self.heading = heading
        self.node: Optional[int] = None
        self.cid = ""  # the id of its path: its label after its parent's, "~2" if the path came before
        self.prominence = prominence  # how far a PDF's layout sets its line above the body (``core.layout``)
        self.last = 0  # the last line of its heading, for an unnumbered one
        self.cites = False  # an unnumbered heading with a prefix word and value of its own (``COVERAGE A –``): cited by it
        # For one inside a decimal section: that section, whose later children go under it.
        self.within: Optional[Frame] = None


def is_prefixed(style: str) -> bool:
    """A prefixed family's style names its word: ``SECTION upper``."""
    return " " in style


def is_own_word(style: str) -> bool:
    """A style of the document's own word before a value: ``COVERAGE:upper``, ``LIST:upper-roman``."""
    return ":" in style


def is_unlabelled(opened: Open) -> bool:
    """A heading with neither a number nor a label of its own (``What is
    covered``): its id is its title's slug, and no clause cites it."""
    return opened.level.style == UNNUMBERED and not opened.cites


def restated(outer: Level, inner: Level) -> bool:
    """A decimal number that begins with the number of the prefixed label above
    it (``Section 1`` then ``1.1``, ``Part II`` then ``2.1``): the clause and id
    say that number once. Not a letter's place in the alphabet (``Section A``
    then ``1.1`` is no restatement)."""
    return (inner.style == DECIMAL and is_prefixed(outer.style) and outer.style.endswith(("digit", "roman"))
            and not any(outer.value[1:]) and outer.value[0] == inner.value[0])


def restated_below(stack: Sequence[Open], at: int) -> bool:
    """The first level below ``stack[at]`` that is cited, past headings without
    a number (``Section 1`` ⏎ ``General Terms`` ⏎ ``1.1``), restates its number."""
    inner = next((o for o in stack[at + 1:] if o.level.style != UNNUMBERED or o.cites), None)
    return inner is not None and restated(stack[at].level, inner.level)


def deepest_numbered(stack: Sequence[Open]) -> int:
    """The index of the deepest level that is not a heading without a number
    (-1 for none): the level numbers go on from, whatever such headings open
    inside it."""
    at = len(stack) - 1
    while at >= 0 and stack[at].level.style == UNNUMBERED:
        at -= 1
    return at

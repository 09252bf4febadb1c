"""Where a label goes: the stack rule, and the evidence that bends it.

Decimal numbers follow ``profiles.labels.follows``; outline labels continue an
open level or open one deeper (``profiles.labels.place``), and a prefixed
level sits above the outline. The first label may carry any value, but until
a label follows it by the rules it is a guess: a title of the same family that
does not follow it takes its place. Two-column text printed out of order may
still place a label near its open level (``out_of_order``). These read the
profile's state through ``Reads`` and return a ``Placement`` or ``None``.

Why one module of this length: the hindsight over headings without a number
(``after_ended``, ``restoring``, ``after_ended_decimal``) is part of the stack
rule -- ``place_decimal`` asks it before it refuses -- and returns the same
``Placement``; apart, each half would import the other.
"""

from __future__ import annotations

from typing import Mapping, Optional, Protocol, Sequence, Tuple, Union

from ...core.layout import RUN_IN
from ..labels import DECIMAL, Level, Meaning, Number, Value, follows, is_first, place
from .contents import Contents
from .state import UNNUMBERED, Frame, Open, deepest_numbered, is_own_word, is_prefixed, is_unlabelled, restated


BARE = "bare-digit"
"""The family of ``1.``, ``2.``: a decimal section's number before it has a child."""


class Placement:
    """Where a label-shaped line goes: the stack is cut to ``depth`` and ``level``
    pushed. Made once and never changed."""

    __slots__ = ("depth", "level", "replaces", "converts", "under_title", "resumes", "restores")

    def __init__(self, depth: int, level: Level, replaces: bool = False, converts: bool = False,
                 under_title: bool = False, resumes: bool = False,
                 restores: Optional[Tuple[Open, ...]] = None) -> None:
        self.depth = depth
        self.level = level
        self.replaces = replaces
        """It takes the place of a wrong first guess."""
        self.converts = converts
        """``x.1`` after a bare ``x.``: that level was decimal all along."""
        self.under_title = under_title
        """The line before it is the heading of its list, taken back from the
        text: that heading goes at ``depth``, the label under it."""
        self.resumes = resumes
        """The decimal sections a heading without a number ended go on: this
        number follows the last of them (see ``after_ended_decimal``)."""
        self.restores = restores
        """The levels open before headings without a number ended them, open
        again: the stack is these before it is cut (see ``restoring``)."""


Ended = Tuple[int, Value, Optional[Open]]
"""A level a heading without a number ended: its depth, its value, and the level it was under."""


class Reads(Protocol):
    """What the rules read of the policy profile's state (they never change it)."""

    @property
    def stack(self) -> Sequence[Open]: """The open levels, the outermost first."""
    @property
    def decimal_depth(self) -> Optional[int]: """The depth of the open decimal level, if the deepest is one."""
    @property
    def started(self) -> bool: """A label has opened a level."""
    @property
    def confirmed(self) -> bool: """A label has followed the first by the rules."""
    @property
    def after_contents(self) -> bool: """The last line was a contents entry."""
    @property
    def licensed(self) -> bool: """The last line was a heading's, or a label's alone: a label may follow."""
    @property
    def waiting(self) -> Sequence[object]: """Labels alone, waiting for their text."""
    @property
    def missed(self) -> Optional[Tuple[Meaning, int]]:
        """The last numbered heading refused for the line before it alone, and the depth it would have gone at."""
    @property
    def held(self) -> Optional[Tuple[Meaning, int]]:
        """A list's first label read as text for now (``held.Held``), and the depth it would have gone at."""
    @property
    def heads_list(self) -> bool: """The last body line is a short title after a sentence: a list's heading."""
    @property
    def ended(self) -> Mapping[str, Ended]:
        """Per family, a level a heading without a number ended."""
    @property
    def ended_above(self) -> Mapping[str, Tuple[Tuple[Open, ...], int]]:
        """Per family, the levels open above a level whose heading a heading without a number ended, and its line."""
    @property
    def ender(self) -> Optional[Open]: """The heading without a number that ended the decimal sections last."""
    @property
    def guess_alone(self) -> bool: """Nothing came after the first label's line while it is a guess."""
    @property
    def max_words(self) -> int: """A numbered line with more words is a clause, not a title."""

    @property
    def contents(self) -> Contents: """The contents list, and how far the body has come through it."""

    def last_line(self) -> str: """The last body line taken."""
    def parent_frame(self, number: Number) -> Frame: """The open decimal section above ``number``."""
    def seen(self, clause: str) -> bool: """Whether a chunk has been cited ``clause``."""


def place_decimal(reads: Reads, number: Number, printed: str, listed_next: bool,
                  title: bool) -> Optional[Placement]:
    """A decimal number's place: next in sequence (or listed next), the first
    of the document, or ``x.1`` under a bare ``x.``."""
    level = Level(DECIMAL, number, printed)
    d = reads.decimal_depth
    stack = reads.stack
    if d is not None:
        if listed_next or follows(DECIMAL, stack[d].level.value, number):
            if _guess_without_text(reads, number):
                return replacing(reads, level, title)
            return Placement(d, level)
        return replacing(reads, level, title)
    if not reads.started:  # the first label, under any headings without a number open
        return Placement(len(stack), level)
    resumed = after_ended_decimal(reads, number, level)
    if resumed is not None:
        return resumed
    at = deepest_numbered(stack)  # (headings without a number inside the bare "x.": x.1 still converts it)
    top = stack[at].level if at >= 0 else None
    if top is not None and top.style == BARE and number == (top.value[0], 1):
        return Placement(at, level, converts=True)
    restates = top is not None and number[1:] == (1,) and restated(top, level)
    if listed_next or number == (1,) or restates:  # ("Section 2" then "2.1": its sections under it)
        return Placement(len(stack), level)
    return replacing(reads, level, title)


def _guess_without_text(reads: Reads, number: Number) -> bool:
    """The first number, not a first value (``5 Introduction``), followed
    straight by the next (``7 Definitions`` … ``13 General conditions``,
    ``14 Claims conditions``): a list of pages, each before its title, and
    no sections -- one that comes next does not confirm the guess."""
    stack = reads.stack
    if not reads.guess_alone or len(stack) != 1:
        return False
    guess = stack[0].level
    return len(guess.value) == len(number) == 1 and not is_first(Meaning(DECIMAL, guess.value))


def place_outline(reads: Reads, options: Sequence[Meaning], label: str) -> Optional[Placement]:
    """An outline label's place by the stack rule: the next of an open level, or
    the first of a family not open; a prefixed level printed again opens again."""
    if not reads.started:  # the first label, under any headings without a number open
        first = min(options, key=lambda meaning: meaning.value)
        return Placement(len(reads.stack), Level(first.style, first.value, label))
    levels = [o.level for o in reads.stack]
    spot = place(levels, options, label)
    if spot is None:
        for depth, level in enumerate(levels):  # "SECTION D)" printed again opens it again
            if is_prefixed(level.style) and any(o.style == level.style and o.value == level.value for o in options):
                return Placement(depth, level._replace(printed=label))
        return None
    depth, level = spot
    if is_prefixed(level.style) and depth == len(levels):  # a prefixed level sits above the outline
        depth = next((i + 1 for i in range(len(levels) - 1, -1, -1) if is_prefixed(levels[i].style)), 0)
    return Placement(depth, level)


def set_apart(reads: Reads, options: Sequence[Meaning], label: str) -> Placement:
    """A label the stack rule refuses, taken on the layout's evidence (the line
    is set above the body and its text is a title -- the caller's to ask): its
    family's open level takes it at any value (a numbering that restarts or
    skips, ``PART 2:`` where ``PART 1:`` was missed), else it opens as a first
    value of its family would."""
    levels = [o.level for o in reads.stack]
    for depth, level in enumerate(levels):
        for meaning in options:
            if meaning.style == level.style:
                return Placement(depth, Level(meaning.style, meaning.value, label))
    meaning = options[0]
    depth = len(levels)
    if is_prefixed(meaning.style):  # a prefixed level sits above the outline
        depth = next((i + 1 for i in range(len(levels) - 1, -1, -1) if is_prefixed(levels[i].style)), 0)
    return Placement(depth, Level(meaning.style, meaning.value, label))


def is_list_style(style: str) -> bool:
    """A style of list items: a letter, number or numeral alone (``a.``,
    ``(1)``, ``iv)``), no word before it (``SECTION upper``, ``COVERAGE:upper``)
    and no decimal number."""
    return style != DECIMAL and not is_prefixed(style) and not is_own_word(style)


def out_of_order(reads: Reads, options: Sequence[Meaning], label: str) -> Optional[Placement]:
    """A label the stack rule refuses, taken anyway on evidence (its text is a
    title or starts with a run-in term -- the caller's to ask): its value is
    near its open level's, and its path is new. Two-column text, as
    ``pdftotext`` prints it by default, comes in blocks out of order (FEMA's
    definitions: 10, 1, 2, 3, 11 ...); in reading order this never applies."""
    levels = [o.level for o in reads.stack]
    for depth in range(len(levels) - 1, -1, -1):
        for meaning in options:
            if meaning.style == levels[depth].style and abs(meaning.value[0] - levels[depth].value[0]) <= 12:
                clause = ".".join([lv.printed for lv in levels[:depth]] + [label])
                return None if reads.seen(clause) else Placement(depth, Level(meaning.style, meaning.value, label))
    return None


def replacing(reads: Reads, level: Level, title: bool, options: Sequence[Meaning] = ()) -> Optional[Placement]:
    """A title that does not follow an unconfirmed first label of its own
    family takes its place -- unless that guess was a first value and this
    is not."""
    stack = reads.stack
    if reads.confirmed or not title or len(stack) != 1:
        return None
    guess = stack[0].level
    same = [o for o in (options or [Meaning(level.style, level.value)]) if o.style == guess.style]
    if not same or (is_first(Meaning(guess.style, guess.value)) and not is_first(same[0])):
        return None
    return Placement(0, Level(same[0].style, same[0].value, level.printed), replaces=True)


def after_missed(reads: Reads, options: Sequence[Meaning], printed: str) -> Optional[Placement]:
    """Bounded hindsight over one refusal: the next sibling of a numbered
    heading refused for its place alone (after a line that seemed to stop
    mid-sentence) shows that one was a heading; this one goes where it would
    have gone, so that one early mistake does not refuse every number after it."""
    return _next_of(reads.missed, options, printed)


def after_held(reads: Reads, options: Sequence[Meaning], printed: str) -> Optional[Placement]:
    """The same for a list's first label read as text (``provided that,`` ⏎
    ``1. The organ donor …``): its next, at a line start in the same
    paragraph, goes where it would have gone -- and shows it was a list's
    (the profile opens it then: see ``held.Held``)."""
    return _next_of(reads.held, options, printed)


def _next_of(before: Optional[Tuple[Meaning, int]], options: Sequence[Meaning], printed: str) -> Optional[Placement]:
    if before is None:
        return None
    for option in options:
        if is_next_sibling(option, before[0]):
            return Placement(before[1], Level(option.style, option.value, printed))
    return None


def is_next_sibling(label: Union[Meaning, Level], before: Union[Meaning, Level]) -> bool:
    """``label`` is the next value after ``before``, of its style: ``b.`` after
    ``a.``, ``2.4`` after ``2.3``.

    >>> is_next_sibling(Meaning("lower", (2, 0)), Meaning("lower", (1, 0))), is_next_sibling(Meaning("lower", (2, 0)), Meaning("upper", (1, 0)))
    (True, False)
    """
    if label.style != before.style:
        return False
    value, last = label.value, before.value
    if label.style == DECIMAL:
        return len(last) == len(value) and value[:-1] == last[:-1] and value[-1] == last[-1] + 1
    return value == (last[0] + 1, 0)


def after_ended(reads: Reads, options: Sequence[Meaning], printed: str, at: int) -> Optional[Placement]:
    """The numbers go on around a heading without a number: the next value of a
    level that heading ended opens where it was (``1. PREAMBLE``, ``OPERATIVE
    CLAUSE``, ``2. DEFINITIONS``), or under a sibling heading (``SECTION E) …
    STANDARD`` holds ``1.``-``17.``, the next ``SECTION E) …`` goes on at ``18.``),
    or, the label on line ``at``, under the section it ended (``restoring``)."""
    stack = reads.stack
    for option in options:
        ended = reads.ended.get(option.style)
        if ended is None or option.value != (ended[1][0] + 1, 0):
            continue
        if _still_under(stack, ended) and ended[0] <= len(stack) or _after_sibling(stack, ended):
            return Placement(ended[0], Level(option.style, option.value, printed))
        above = restoring(reads, option.style, at)
        if above is not None:
            return Placement(ended[0], Level(option.style, option.value, printed), restores=above)
    return None


RESTORE_LINES = 60
"""Lines after a heading without a number ended a labelled section within
which the section's numbers may still go on (``restoring``): the hindsight's bound."""


def restoring(reads: Reads, style: str, line: int) -> Optional[Tuple[Open, ...]]:
    """Bounded hindsight over headings without a number that ended a labelled
    section (``SECTION I``, ``COVERAGE A``; not a heading without a label)
    right after a lead-in to what follows, a line ending in a colon: where
    the next number of its items follows within ``RESTORE_LINES`` lines, and
    only such headings came since, they were
    inside its last item -- a table's column heads or a box's caption set a
    little larger than the section's own heading (``SECTION I – LOSS OF OR
    DAMAGE``, ``1.`` … ``Age of the vehicle`` ⏎ ``% of Depreciation`` in a
    table, then ``2. The Company shall not be liable …``) -- and the section
    is open again: the levels open then, returned, are the stack the number
    goes under."""
    found = reads.ended_above.get(style)
    if found is None or line - found[1] > RESTORE_LINES:
        return None
    above, stack = found[0], reads.stack
    if not above or not above[-1].heading or is_unlabelled(above[-1]) \
            or any(o.level.style == DECIMAL for o in above):
        return None  # (a heading without a label is no evidence against the next: ``Monthly Payments`` ⏎ ``3.``)
    kept = 0
    while kept < min(len(above), len(stack)) and stack[kept] is above[kept]:
        kept += 1
    return above if all(map(is_unlabelled, stack[kept:])) else None


def _after_sibling(stack: Sequence[Open], ended: Ended) -> bool:
    """The level above where an ended level was is now, with nothing under it yet, a prefixed
    heading of the same word, or a labelled heading after one of its family (``B. Specific
    Definitions`` after ``A.``'s ``1.``-``39.``), or a heading without a number set alike: any,
    where the layout sets both apart (conditions each titled and numbered on: ``Misrepresentation``
    ⏎ ``1.``, ``Property of Others`` ⏎ ``2.``), else one holding its title (``… (continued)``)."""
    depth, _, parent = ended
    if parent is None or not 0 < depth == len(stack):
        return False
    above, style = stack[depth - 1], parent.level.style
    return above.level.style == style and (is_prefixed(style) or style not in (UNNUMBERED, DECIMAL) and above.heading
                                           and parent.heading or style == UNNUMBERED and bool(parent.title) and (
        above.prominence == parent.prominence and (above.prominence is not None and above.prominence > RUN_IN
                                                   or f" {parent.title.casefold()} " in f" {above.title.casefold()} ")))


def _still_under(stack: Sequence[Open], ended: Ended) -> bool:
    """The level above where an ended level was is still open there."""
    depth, _, parent = ended
    return parent is None or 0 < depth <= len(stack) and stack[depth - 1] is parent


def after_ended_decimal(reads: Reads, number: Number, level: Level) -> Optional[Placement]:
    """Bounded hindsight over a heading without a number that ended the
    decimal sections: the number that follows the last of them goes on where
    they were (``Specific Definitions`` after ``2.23``, then ``2.24``), while
    that heading is still open where they were."""
    converts = False
    ended = reads.ended.get(DECIMAL)
    if ended is None or not follows(DECIMAL, ended[1], number):
        ended = reads.ended.get(BARE)  # (``2. DEFINITIONS``, ``Standard definitions``, ``2.1``: decimal all along)
        if ended is None or number != (ended[1][0], 1):
            return None
        converts = True
    depth, stack = ended[0], reads.stack
    if depth < len(stack) and _still_under(stack, ended) and stack[depth] is reads.ender:
        return Placement(depth, level, converts=converts, resumes=True)
    return None

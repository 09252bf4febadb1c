"""The policy profile's rules: small units that each return a decision, in presets.

A decimal heading (``4.2 Escape of water``) and a label line (``III.``, ``(a)``,
``SECTION C)``, ``4.10.`` alone) are each judged by an ordered list of rules,
as markdown-it-py's block rules are: every rule reads the profile's state
(``Reads``, never writing it) and the line as read once (``HeadingLine``,
``LabelLine``), and returns a ``Placement`` (the line opens a level there), a
``Refusal`` (it is text, and why), or ``None`` (not its business: ask the
next). The first decision wins; the profile alone then changes its state
from it. A ``Preset`` names the label families (``profiles.policy.families``)
and the rules a profile walks; ``POLICY`` is the default. A new label family is
one more ``Family`` in a copy of a preset's families.

Why one module of this length: a preset is an order of rules, and the order is
the meaning (a table's row is refused before its sequence is asked; a list
inside a clause before a decimal label's place). Each rule is a few lines; the
presets at the end name them all, so a reader checks an order against the rules
it orders in one file. Where a rule needs more than a few lines, its work lives
beside it (``placing``: where a label goes; ``contents``; ``outline``: what a title is).
"""

from __future__ import annotations

import re
from typing import Callable, Final, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

from ...core.records import CONTENTS, HEADING, LABEL
from ...core.stages.cutter import special_lines
from ...core.text import ends_clause, first_letter, reads_as_sentence
from ..base import Rule
from ..labels import DECIMAL, Level, Meaning, Number, is_first, is_next_number, parse_number
from .contents import ENTRY, may_be_entry, same_title
from .families import DECIMAL_HEADING, FAMILIES, Family, label_pattern, leads
from .outline import RUN_IN, ends_in_amount, is_title, leads_on, styled_title
from .placing import (Placement, Reads, after_ended, after_held, after_missed, is_next_sibling, out_of_order, place_decimal,
                      place_outline, replacing, set_apart)
from .state import is_prefixed


class Refusal(NamedTuple):
    """A label-shaped line that opens nothing: it is text."""

    reason: str
    """Why, for the ``rejected_heading`` diagnostic; ``""`` when nothing was
    refused (a list inside a clause is its text, as it should be)."""
    counted: bool = False
    """An outline label out of sequence, counted for ``labels_out_of_order``."""


Verdict = Union[Placement, Refusal]
"""What a rule decides; a rule that returns ``None`` leaves the line to the next."""

QUIET: Final = Refusal("")
NOT_NEXT: Final = Refusal("not next in sequence")
OUTLINE_REFUSED: Final = Refusal("not next in sequence", counted=True)
IN_CONTENTS: Final = Refusal("a number in a contents list")
LISTED: Final = Refusal("a line of the contents list")
MID_SENTENCE: Final = Refusal("follows a line that stops mid-sentence")
_DATE = re.compile(r"(?:January|February|March|April|May|June|July|August|September|October|November|December)\b")
_ADDRESS = re.compile(
    r"[A-Z][\w'.-]*\s+(?i:street|st|avenue|ave|boulevard|blvd|parkway|circus|suite)\.?\s*(?:$|[,\u00b7])"  # 1 Drake Circus
    r"|\b[A-Z]{2},?\s+\d{5}(?:-\d{4})?\s*$"  # … MINNEAPOLIS, MN 55402
    r"|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\s*$")  # … Plymouth PL1 1SE
"""An address after a street number: a street's word at its end or before a comma, or a ZIP code or
postcode at its end."""
_ADDRESS_WITH_COMMA = re.compile(
    r"[A-Z][\w'.-]*\s+(?i:road|rd|way|lane|drive|place|square|terrace|crescent|highway|plaza|quay)\.?\s*,"  # 4 Shenton Way,
    r"|,.*\b(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s+\d{4}\s*$|,\s*[A-Z][a-z]+\s+\d{6}\s*$")  # … NSW 2000; , Singapore 068807
"""An address whose commas say so: a street's word that also ends a title (``Road``, ``Way``: ``3
Help On The Way`` is a section) before a comma, or after one an Australian state's postcode or a
city's six-digit code at its end. Asked only of a title with a comma: most have none."""


# -- decimal headings ---------------------------------------------------------
class HeadingLine:
    """A decimal heading's line, read once for its rules. The profile keeps one
    and reads each line into it (``read``): no object made a line."""

    __slots__ = ("number", "title", "dot", "letter", "vouched", "placed", "set_apart")

    def __init__(self) -> None:
        self.set_apart = False
        """A PDF's layout sets the line above the body text (the profile says so after ``read``)."""
        self.number: Number = ()
        self.title = ""
        self.dot = False
        self.letter = ""
        """The title's first letter, or ``""``."""
        self.vouched = False
        """The contents list's next entry is this number and title."""
        self.placed: Optional[Placement] = None
        """Where the stack rule puts it (not asked where a title rule refuses it first)."""

    def read(self, reads: Reads, m: "re.Match[str]") -> None:
        self.number = number = parse_number(m["num"])
        self.title = title = m["title"] if m["title"] is not None else m["glued"]
        self.dot = bool(m["dot"])
        listed = reads.contents.next_entry()
        listed_next = listed is not None and listed[0] == number
        self.vouched = vouched = listed_next and same_title(title, listed[1])  # type: ignore[index]
        self.letter = letter = first_letter(title)
        self.placed = None
        if letter and (vouched or letter.isupper()):  # (only a guess may be replaced)
            self.placed = place_decimal(reads, number, m["num"], listed_next,
                                        not reads.confirmed and not reads_as_sentence(title, reads.max_words)) \
                or after_missed(reads, (Meaning(DECIMAL, number),), m["num"])


def title_shape(reads: Reads, line: HeadingLine) -> Optional[Verdict]:
    """A title has a capital, unless the contents list vouches for it (RFC 2616's ``3.2.2 http URL``)."""
    if not line.letter:
        return Refusal("no title")
    return Refusal("lower-case title") if not line.letter.isupper() and not line.vouched else None


TABLE_ROW: Final = Refusal("a table's row: it ends in an amount")


def table_row(reads: Reads, line: HeadingLine) -> Optional[Verdict]:
    """``1 Cancellation £5,000``: a table of benefits' row, never a section; its amount stays in the text."""
    return TABLE_ROW if ends_in_amount(line.title) else None


def labelled_table_row(reads: Reads, line: LabelLine) -> Optional[Verdict]:
    """The same row, read as a label and its text -- unless it is the next
    item of a list open above it (``3. an amount below £100.`` after ``2.``,
    ``4. $ 1,000 — Trading cards, subject to a maximum amount of $250`` ⏎
    ``per card.`` after ``3.``): a table's rows open no list, and a clause
    may end in an amount as well as a row does."""
    if line.text is None or not ends_in_amount(line.text):
        return None
    return None if line.decimal is None and _next_item(reads, line) else TABLE_ROW


def _next_item(reads: Reads, line: LabelLine) -> bool:
    """The label is the next value of a level open above it, an item whose
    title ends in no amount (a table's row taken for a list's first item,
    ``1. Cancellation £5,000``, has no list to go on)."""
    m = line.match
    assert m is not None
    spot = place_outline(reads, line.family.meanings(m), line.family.printed(m)) if reads.started else None
    stack = reads.stack
    return spot is not None and spot.depth < len(stack) and is_next_sibling(spot.level, stack[spot.depth].level) \
        and not ends_in_amount(stack[spot.depth].title)


def next_in_sequence(reads: Reads, line: HeadingLine) -> Optional[Verdict]:
    """Its number can come next; the contents list's next entry, with its title,
    is taken as it is. A first number set apart by the layout, with a title,
    starts the numbering again at the top: the next wording of a policy set."""
    if line.placed is None:
        if line.set_apart and is_first(Meaning(DECIMAL, line.number)) and line.letter.isupper() \
                and not reads_as_sentence(line.title, reads.max_words):
            return Placement(0, Level(DECIMAL, line.number, ".".join(map(str, line.number))))
        return NOT_NEXT
    return line.placed if line.vouched else None


def number_before_sentence_or_date(reads: Reads, line: HeadingLine) -> Optional[Verdict]:
    """``14 days after the leak``, ``1 January 2026``: a number, not a section;
    nor is a street number (``1 Drake Circus``, ``80 S 8TH ST · SUITE 2200 ·
    MINNEAPOLIS, MN 55402``)."""
    if len(line.number) == 1 and (_DATE.match(line.title) or reads_as_sentence(line.title, 1 << 30)
                                  and not _numbered_clause(reads, line)):
        return Refusal("a number before a sentence or a date")
    if len(line.number) == 1 and not line.dot and (_ADDRESS.search(line.title)
                                                   or "," in line.title and _ADDRESS_WITH_COMMA.search(line.title)):
        return Refusal("a street number before an address")
    return None


def _numbered_clause(reads: Reads, line: HeadingLine) -> bool:
    """A clause numbered next after an open number (``5 This policy does not
    provide cover …`` ⏎ ``6 This policy does not cover any liability,``): after
    the end of a sentence, its first word a capital."""
    d = reads.decimal_depth
    return (d is not None and line.placed is not None and line.letter.isupper() and ends_clause(reads.last_line())
            and is_next_number(reads.stack[d].level.value, line.number))


def sibling_form(reads: Reads, line: HeadingLine) -> Optional[Verdict]:
    """A heading looks like its siblings (trailing dot or none, title in capitals
    or not): ``4. Body Mass Index (BMI) is;`` is a list inside 3.1.20."""
    siblings = reads.parent_frame(line.number).children
    return Refusal("form differs from its siblings") if siblings is not None and siblings != (
        line.dot, line.title.isupper()) else None


# -- label lines --------------------------------------------------------------
class LabelLine:
    """A label line, read once for its rules (one kept by the profile, as ``HeadingLine``)."""

    __slots__ = ("match", "family", "text", "decimal", "listed_next", "set_apart", "plain", "under_title", "first")

    def __init__(self, family: Family) -> None:
        self.first = 0
        """The line's number (the profile says so after ``read``)."""
        self.set_apart = False
        """A PDF's layout sets the line above the body text (the profile says so after ``read``)."""
        self.plain = False
        """A PDF's layout sets the line in the body's own style (the profile says
        so after ``read``, for a label of a word: one of ``PARTS``)."""
        self.under_title = False
        """It is set as the numbered heading just opened, on the line right below its title."""
        self.match: Optional["re.Match[str]"] = None
        self.family = family
        self.text: Optional[str] = None
        """The label's text on its line (glued on or not), ``None`` for a label alone."""
        self.decimal: Optional[str] = None
        """The decimal number the label stands for (``4.10.`` alone, ``6.`` under a
        decimal section); its rules are the preset's ``decimal_labels``, else ``outline_labels``."""
        self.listed_next = False
        """That number is the contents list's next entry."""

    def read(self, families: Sequence[Family], reads: Reads, m: "re.Match[str]") -> None:
        self.match = m
        self.text = text = m["text"] if m["glued"] is None else m["glued"]
        for family in families:  # the first whose group matched: their shapes are tried in order
            if m[family.key] is not None:
                break
        self.family = family
        self.decimal = decimal = family.decimal(m, reads.decimal_depth is not None and text is not None)
        self.listed_next = False
        if decimal is not None:
            listed = reads.contents.next_entry()
            self.listed_next = listed is not None and listed[0] == parse_number(decimal)


def number_in_contents(reads: Reads, line: LabelLine) -> Optional[Verdict]:
    """A number alone after a contents entry is the next entry's, printed on a line of its own."""
    return IN_CONTENTS if reads.after_contents and line.text is None else None


def list_inside_clause(reads: Reads, line: LabelLine) -> Optional[Verdict]:
    """``1. Surgery is ...`` under a decimal clause is its text (a number with
    text is one level deep: next only as the top level's next) -- and so is
    the top level's next in lower case: ``4. has a fully equipped operation
    theatre`` after ``1.``-``3.`` inside clause 3.20 goes on with their list,
    as no section's title starts so."""
    d = reads.decimal_depth
    if d is None or line.text is None or not reads.confirmed or line.listed_next:
        return None
    number = parse_number(line.decimal or "")
    return None if number[0] == reads.stack[d].level.value[0] + 1 and not line.text[:1].islower() else QUIET


def decimal_unlike_siblings(reads: Reads, line: LabelLine) -> Optional[Verdict]:
    """``6. REDRESSAL OF GRIEVANCE`` after ``5 CONDITIONS``: a title whose
    number comes next is not refused for its dot alone; its case, or a sentence
    where its siblings have no dot, is refused -- unless the layout sets it apart
    (``5. General Terms and Clauses`` in bold after ``4. EXCLUSIONS``)."""
    text = line.text
    if text is None or line.set_apart:
        return None
    siblings = reads.parent_frame(parse_number(line.decimal or "")).children
    if siblings is not None and (siblings[1] != text.isupper() or not siblings[0] and not is_title(
            text, reads.max_words)):
        return NOT_NEXT
    return None


def decimal_label(reads: Reads, line: LabelLine) -> Optional[Verdict]:
    printed, text = line.decimal or "", line.text
    number = parse_number(printed)
    placed = place_decimal(reads, number, printed, line.listed_next, text is None or text[:1].isupper())
    if placed is None and text is not None and text[:1].isupper():
        placed = after_missed(reads, (Meaning(DECIMAL, number),), printed)
    return NOT_NEXT if placed is None else placed


def outline_under_decimal(reads: Reads, line: LabelLine) -> Optional[Verdict]:
    """Under a decimal clause an outline label is the clause's text (its list)
    -- but for a word of the list that sits above the outline on a line of its
    own (``ANNEXURE - A`` after ``6. TABLE OF BENEFITS``), or that a PDF's
    layout sets apart (``Part A: Loss and damage`` after the general
    exclusions ``1``-``6``), or the document's own word before a title
    (``Endorsement 9 – Exclusion`` after ``5 Car service cover``), or with
    the next value of its own level open above (``List II – Items that are to
    be subsumed into Room Charges`` after ``List I``'s rows ``1``-``68``): a
    clause's list has no annexures, parts or endorsements, and it is the next
    part of the document."""
    if reads.decimal_depth is None:
        return None
    text = line.text
    if line.family.name == "prefixed" and (text is None or line.set_apart):
        return None
    return None if line.family.name == "worded" and text is not None and (
        is_title(text, reads.max_words) or _next_item(reads, line) and styled_title(text, reads.max_words)) else QUIET


PARTS: Final = ("prefixed", "worded")
"""The families whose labels name a part by a word (``SECTION 2``, ``Coverage A``)."""


def part_named_in_a_sentence(reads: Reads, line: LabelLine) -> Optional[Verdict]:
    """``Part D - Coverage for Damage to Your Auto shall pay for`` ⏎ ``the
    covered loss …`` in the body's style, inside a part whose heading the
    layout set apart: a sentence that names the next part at a line's start,
    not that part's heading. A label of a word with text that stops on a word
    that leads on, in a PDF where an open part of a word was set apart and
    this line is set in the body's own style, is text. (In text alone a title
    may wrap so; and a heading at a page's foot may go unmarked, set apart.)"""
    text = line.text
    if not line.plain or line.set_apart or text is None or text.isupper() or not leads_on(text):
        return None  # (a heading in the body's face stands out by its capitals: ``SECTION 2 – DAMAGE TO``)
    set_apart = any(o.prominence is not None and is_prefixed(o.level.style) for o in reads.stack)
    return QUIET if set_apart else None


def outline_label(reads: Reads, line: LabelLine) -> Optional[Verdict]:
    """The stack rule, a wrong first guess replaced, or labels out of order
    (see ``profiles.policy.placing``)."""
    m, text = line.match, line.text
    assert m is not None
    options = line.family.meanings(m)
    if not options:
        return OUTLINE_REFUSED
    label = line.family.printed(m)
    title = text is not None and is_title(text, reads.max_words)
    # The next of a list's first label held as text is that list's, before any
    # level open above (``b.`` after a held ``a.``, under the heading ``a. Living Donor Costs``).
    placed = (text is not None and after_held(reads, options, label)) or place_outline(reads, options, label) \
        or replacing(reads, Level(options[0].style, options[0].value, label), title, options)
    if placed is None and (title or text is not None and RUN_IN.match(text)):
        placed = out_of_order(reads, options, label)
    if placed is None and text is not None and (text[:1].isupper() or text[:1] == "(" and first_letter(text).isupper()):
        # (a capital first, or after a label of its own: ``5. (1) This contract …``)
        placed = after_missed(reads, options, label) or after_ended(reads, options, label, line.first)
    if placed is None and line.set_apart and not line.under_title and text is not None \
            and styled_title(text, reads.max_words):
        # (Right under a heading's title, set as it is, a label no rule takes goes
        # on with it: ``11. Motor Cargo`` ⏎ ``SECTION III - PHYSICAL DAMAGE COVERAGE``
        # names the section the item amends, and opens no section.)
        placed = set_apart(reads, options, label)
    if placed is None or m["glued"] is not None and not _glued_may_open(reads, placed, line.set_apart):
        return OUTLINE_REFUSED
    return placed


def _glued_may_open(reads: Reads, placed: Placement, set_apart: bool) -> bool:
    """A label glued to its text goes on with an open level, or opens one with
    its first value -- or any, where the layout sets it apart as a heading
    (``18.Conditions Precedent`` in bold, its numbers going on from the part
    before); it never starts or replaces the outline."""
    return reads.started and not placed.replaces and (
        placed.depth != len(reads.stack) or set_apart or is_first(Meaning(placed.level.style, placed.level.value)))


# -- what the line before allows ----------------------------------------------
def line_before_allows(reads: Reads) -> Optional[Refusal]:
    """The line before could end a clause, or was a heading's or a label's
    alone, or a short item ending in a comma (``a. walls,``), or a short title
    after a sentence (``Standard definitions`` ⏎ ``2.1. Accident means …``): a label may follow."""
    if reads.after_contents:
        return IN_CONTENTS
    if reads.licensed or reads.waiting or ends_clause(reads.last_line()) or reads.heads_list:
        return None
    return MID_SENTENCE


def stands_alone(reads: Reads, m: "re.Match[str]") -> bool:
    """A decimal heading after a line that stops mid-sentence: a title (or
    the contents list's next entry, or a clause's number of two parts or more
    printed with its dot, next in sequence) stands on its own; a sentence is
    text ("Cover lasts for" / "3 Months after the date of the loss.")."""
    title = m["title"] if m["title"] is not None else m["glued"]
    if not reads_as_sentence(title, reads.max_words):
        return True
    number = parse_number(m["num"])
    if len(number) > 1 and m["dot"] and title[:1].isupper() and _next_decimal(reads, number):
        return True  # (``3.2. Optional Covers: The covers listed below …`` after ``3.1``: a clause's number)
    listed = reads.contents.next_entry()
    return listed is not None and listed[0] == parse_number(m["num"])


def _next_decimal(reads: Reads, number: Number) -> bool:
    """``number`` is next after the open decimal section, or the last one a
    heading without a number ended."""
    d = reads.decimal_depth
    ended = reads.ended.get(DECIMAL)
    last = reads.stack[d].level.value if d is not None else ended[1] if ended is not None else None
    return last is not None and is_next_number(last, number)


# -- presets ------------------------------------------------------------------
L = TypeVar("L")
LineRule = Callable[[Reads, L], Optional[Verdict]]
"""A rule: its decision on a line, or ``None`` for the next rule to decide.
Where no rule of ``headings`` decides, the heading's placement stands; the
last rule of a label list always decides."""


def _digit_first(text: str) -> bool:
    return text[0] in "0123456789"


class Preset:
    """What a policy profile walks: its label families and its rules, in order."""

    def __init__(self, families: Sequence[Family], headings: Sequence[LineRule[HeadingLine]],
                 decimal_labels: Sequence[LineRule[LabelLine]], outline_labels: Sequence[LineRule[LabelLine]]) -> None:
        self.families = tuple(families)
        self.headings = tuple(headings)
        """The rules for a decimal heading."""
        self.decimal_labels = tuple(decimal_labels)
        """The rules for a label that stands for a decimal number (``4.10.`` alone)."""
        self.outline_labels = tuple(outline_labels)
        """The rules for any other label."""
        self.classes: Tuple[Rule, ...] = (
            (CONTENTS, may_be_entry, ENTRY),
            (HEADING, _digit_first, DECIMAL_HEADING),
            (LABEL, bool, label_pattern(self.families)),  # the cutter's look (``special``) has already been had
        )
        self.special = special_lines(leads(self.families))
        """The lines that need a look (see ``core.stages.cutter.special_lines``)."""
        self.decimal_special = special_lines(r"\d")
        """Those under a decimal section: its numbers (an outline label there is its text)."""
        self.worded_decimal_special = special_lines("|".join([r"\d", *(lead for family in self.families
                                                                      if family.name == "prefixed"
                                                                      for lead in family.leads)]))
        """Those under a decimal section once the document has printed a word of
        the list above the outline: the word too (``Section 3`` after ``2.5``,
        ``ANNEXURE`` after the last clause; see ``outline_under_decimal``)."""
        self.own_word_decimal_special = special_lines("|".join([r"\d", *(lead for family in self.families
                                                                        if family.name in PARTS
                                                                        for lead in family.leads)]))
        """Those under a decimal section that a label of the document's own word
        holds: that word too (``List II – Items …`` after ``List I – …``'s rows
        ``1 BABY FOOD``-``68 VASOFIX``, numbered as decimal sections are)."""

    def family_of(self, m: "re.Match[str]") -> Family:
        """The family whose shape matched (the first: they are tried in order)."""
        for family in self.families:
            if m[family.key] is not None:
                return family
        raise AssertionError("a label of no family")  # the pattern is the families' shapes


POLICY: Final = Preset(
    FAMILIES,
    (title_shape, table_row, next_in_sequence, number_before_sentence_or_date, sibling_form),
    (list_inside_clause, number_in_contents, labelled_table_row, decimal_unlike_siblings, decimal_label),
    (number_in_contents, outline_under_decimal, labelled_table_row, part_named_in_a_sentence, outline_label),
)
"""The policy profile's preset: every family of ``profiles.policy.families``, and the rules above."""

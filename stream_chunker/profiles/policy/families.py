"""Label families: each a unit that knows its labels' shape, values and citation.

Besides decimal section numbers (``4.2 Escape of water``, ``DECIMAL_HEADING``),
wordings print outlines: prefixed labels (``SECTION C)``, ``PART A-``,
``Section 4 –``, ``ARTICLE IV.``), roman numerals (``II.``), letters (``A.``,
``a.``), arabic numbers (``1.``, ``1)``) and parenthesised labels (``(1)``,
``(a)``, ``(i)``), nested seven levels deep in FEMA's flood policy. A label
stands at the start of a line, alone or followed by its text; what follows a
label directly (``III.C.2.``, ``3.a.1``, ``I.G,``) is a reference, not a label
(``TAIL``, the same for every family).

A ``Family`` gives a piece of the label pattern with named groups of its own,
the readings of a label it matched (``profiles.labels.Meaning``), the label as
a citation prints it, and the decimal number it stands for, if any. The
preset (``profiles.policy.rules``) joins its families' shapes into one
pattern, tried in their order, and asks the first family whose group matched.
"""

from __future__ import annotations

import re
from typing import List, Optional, Sequence

from mypy_extensions import mypyc_attr

from ...core.text import DASHES, word_alternatives
from ..labels import Meaning, meanings

PREFIX_WORDS = ("SECTION", "PART", "ARTICLE", "CHAPTER", "SCHEDULE", "ANNEXURE", "APPENDIX")
_WORDS = word_alternatives(PREFIX_WORDS)
OWN_WORD = r"[A-Z][A-Za-z]{2,15}"
"""A word of the document's own before a label's value (``COVERAGE``, ``Change``, ``List``)."""
OWN_VALUE = r"[A-Z]|\d{1,3}|[IVXLC]{1,6}"
"""The value after it: a letter, a number or a roman numeral."""

_BLANK = r"[\s\x00-\x08\x0e-\x1f\x7f]"
"""White space, or a control character an extractor leaves for a glyph it
could not map (``1.`` ⏎ a tab and BEL ⏎ the item's text): it prints nothing."""
_INK = r"[^\s\x00-\x08\x0e-\x1f\x7f]"
"""A character that prints."""

DECIMAL_HEADING = re.compile(
    r"(?P<num>\d{1,3}(?:\.\d{1,3}){1,9}|\d{1,3}(?!\.))(?P<dot>\.?)"
    rf"(?:{_BLANK}+(?P<title>{_INK}.*)|(?P<glued>[A-Z]{{2,}}\b.*|(?<=\d\.)[A-Z][a-z].*))$"
)
"""A decimal heading: a section number, then its title (``4.2 Escape of
water``), or glued to a word in capitals (``3.1COVERAGE``) or, after the
number's closing dot, to any word with a capital (``5.2.10.Claim Related
Information``: the extractor lost the space)."""

TAIL = rf"(?:(?:{_BLANK}+|(?<=[\u2013\u2014])(?=[A-Z]))(?P<text>{_INK}.*)|{_BLANK}*$|(?<=[.)])(?P<glued>[A-Z][a-z].*))"
"""What follows any label: its text (after a space, or right after an en or
em dash that ends the label, as typesetters set one, before a capital:
``Section I—Your Property``, not a range: ``Section 1–3 days``),
nothing (white space or control characters alone: ``1.`` tab BEL is a label
alone), or its text glued on (``M.Appraisal``, ``(3)Failure``: words the
extractor ran together). A glued label may go on with a level already open,
or open one with its first value, never start or replace the outline."""

DIGIT_LEADS = r"[\d(]"
"""The cutter's cheap look for labels that start with a digit or a bracket."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Family:
    """One family of labels. ``key`` names the group of ``shape`` that is set
    when the family matched; ``leads`` is what its lines start with, the
    cutter's cheap look tried at every line start; ``dotted`` says its labels
    end in a dot, as a decimal heading's form counts one (``6.``)."""

    def __init__(self, name: str, key: str, shape: str, leads: Sequence[str] = (DIGIT_LEADS,),
                 dotted: bool = False) -> None:
        self.name = name
        self.key = key
        self.shape = shape
        self.leads = tuple(leads)
        self.dotted = dotted
        self.yields_to_layout = False
        """A line of this family that a PDF's layout sets above the body is read
        as a styled heading (its wrapped title, the headings under it), not as a label."""

    def meanings(self, m: "re.Match[str]") -> List[Meaning]:
        """Every reading of the label (a style and a value): ``i.`` is the ninth
        letter or roman one."""
        return []

    def printed(self, m: "re.Match[str]") -> str:
        """The label as a citation writes it: ``C``, ``(iv)``, ``2)``, ``4.10``."""
        return m[self.key]

    def decimal(self, m: "re.Match[str]", under_decimal_with_text: bool) -> Optional[str]:
        """The decimal section number the label stands for, if it stands for one."""
        return None


class Prefixed(Family):
    """A word from a list, then a value and a separator: ``SECTION C)``,
    ``PART A-``, ``Section 4 –``, ``Section 1a –`` (a section put between
    two: ``1a``, ``1b``, then ``2``), ``ARTICLE IV.``, or a dash between word and
    value (``Annexure - B``, ``Annexure-2``, as Indian wordings print it); the
    word is part of the style."""

    def __init__(self) -> None:
        Family.__init__(self, "prefixed", "word",
                        rf"(?P<word>{_WORDS})(?:\s+(?:[{DASHES}]\s+)?|[{DASHES}])(?P<value>[IVXLC]{{1,6}}|[A-Z]|\d{{1,3}}[a-z]?)"
                        rf"(?:\s*[).:{DASHES}]|(?=\s+[A-Z])|(?=\s*$))",
                        (rf"(?:{_WORDS})[ \t{DASHES}]",))

    def meanings(self, m: "re.Match[str]") -> List[Meaning]:
        return meanings(m["value"], m["word"].upper() + " ")

    def printed(self, m: "re.Match[str]") -> str:
        return m["value"]


class Worded(Family):
    """Any word in capitals or with a capital first, then a value and a dash, a
    colon or a closing parenthesis before its title: ``COVERAGE A \u2013
    DWELLING``, ``Change 1 \u2013 Replacement of \u2026``, ``List II - Items
    \u2026``, ``Clause 7: Cancellation``. The word is the document's own: it
    names the style (``COVERAGE:upper``), so its next value goes on with it
    (``COVERAGE B \u2013``) and the stack rule places it like any label; and
    it is part of the citation (``COVERAGE B``), as the word says what the
    value counts, where a word of the list is implied (``C.A.I.1``). The
    separator is the evidence a word off the list needs: ``On 1 January``
    and ``Page 3 of 26`` have none. Unlike a word of the list, it does not
    sit above the outline: ``Claim 1 \u2013`` among a
    section's examples nests where the stack rule puts it, and a heading
    without a number ends it (its style has no space: see ``is_prefixed``)."""

    def __init__(self) -> None:
        Family.__init__(self, "worded", "word_any", _WORD_ANY, (_WORD_ANY_LEAD,))
        self.yields_to_layout = True  # (a word off the list is weaker evidence than the layout)

    def meanings(self, m: "re.Match[str]") -> List[Meaning]:
        return meanings(m["word_value"], m["word_any"].upper() + ":")

    def printed(self, m: "re.Match[str]") -> str:
        return f"{m['word_any']} {m['word_value']}"


_WORD_ANY = (rf"(?P<word_any>{OWN_WORD})[ \t]+(?P<word_value>{OWN_VALUE})"
             rf"[ \t]*[){DASHES}:](?=[ \t]+[A-Z\u00c0-\u00de\"'\u2018\u201c(])")
# (Its title starts with a capital, a quote or a bracket: ``Events 1 - 10 and 12 - 14`` is a range.)
# The cutter's cheap look: the same shape up to its separator.
_WORD_ANY_LEAD = rf"{OWN_WORD}[ \t]+(?:{OWN_VALUE})[ \t]*[){DASHES}:]"


class Parenthesised(Family):
    """``(1)``, ``(a)``, ``(iv)``, ``(A)``: the citation keeps the parentheses."""

    def __init__(self) -> None:
        Family.__init__(self, "parenthesised", "paren", r"\((?P<paren>[a-z]{1,4}|[A-Z]{1,4}|\d{1,3})\)")

    def meanings(self, m: "re.Match[str]") -> List[Meaning]:
        return meanings(m["paren"])

    def printed(self, m: "re.Match[str]") -> str:
        return f"({m['paren']})"


class Dotted(Family):
    """A value and a dot: ``A.``, ``a.`` (a letter, or a roman numeral of one
    letter), ``II.``, ``iv.`` (roman), ``1.`` (arabic), ``7a.`` (arabic, split)."""

    def __init__(self, name: str, key: str, value: str, leads: Sequence[str], decimal: bool = False) -> None:
        Family.__init__(self, name, key, rf"(?P<{key}>{value})\.", leads, dotted=True)
        self.reads_decimal = decimal

    def meanings(self, m: "re.Match[str]") -> List[Meaning]:
        return meanings(m[self.key], "bare-")

    def decimal(self, m: "re.Match[str]", under_decimal_with_text: bool) -> Optional[str]:
        # "6." reads as decimal section 6 where decimal sections are open, and
        # with its text: alone on its line it is a list's number.
        return m[self.key] if self.reads_decimal and under_decimal_with_text and m[self.key].isdigit() else None


class Closing(Family):
    """A letter or a number and a closing parenthesis: ``a)``, ``2)``."""

    def __init__(self) -> None:
        Family.__init__(self, "closing", "close", r"(?P<close>[a-z]|\d{1,3})\)",
                        (DIGIT_LEADS, r"[A-Za-z](?:\.[ \t\nA-Z]|\))"))

    def meanings(self, m: "re.Match[str]") -> List[Meaning]:
        return meanings(m["close"], "close-")

    def printed(self, m: "re.Match[str]") -> str:
        return m["close"] + ")"


class DecimalAlone(Family):
    """A decimal number alone on its line (``4.10.``): its title is on the next."""

    def __init__(self) -> None:
        Family.__init__(self, "decimal alone", "alone", r"(?P<alone>\d{1,3}(?:\.\d{1,3}){1,9})\.?(?=\s*$)")

    def decimal(self, m: "re.Match[str]", under_decimal_with_text: bool) -> Optional[str]:
        return m["alone"]


FAMILIES: Sequence[Family] = (
    Parenthesised(),
    Dotted("letters", "letter", r"[A-Za-z]", (r"[A-Za-z](?:\.[ \t\nA-Z]|\))",)),
    Dotted("roman", "roman", r"[ivxlc]{2,6}|[IVXLC]{2,6}", (r"[ivxlcIVXLC]{2,6}\.[ \t\n]",)),
    Dotted("arabic", "arabic", r"\d{1,3}(?:[A-Za-z](?![A-Za-z]))?", (DIGIT_LEADS,), decimal=True),
    Closing(),
    DecimalAlone(),
    Prefixed(),
    Worded(),
)
"""The families of the policy profile, in the order their shapes are tried
(and their leads: a word, the dearest to look for, comes last)."""


def label_pattern(families: Sequence[Family]) -> "re.Pattern[str]":
    """One pattern for a line that starts with a label of any of ``families``."""
    return re.compile("(?:" + "|".join(family.shape for family in families) + ")" + TAIL)


def leads(families: Sequence[Family]) -> str:
    """What a line of any of ``families`` (or a decimal heading) starts with."""
    found: List[str] = [DIGIT_LEADS]
    for family in families:
        found += [lead for lead in family.leads if lead not in found]
    return "|".join(found)

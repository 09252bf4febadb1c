"""What the outlines of policy wordings look like: label shapes, and titles.

Besides decimal section numbers (``4.2 Escape of water``, see ``profiles.policy.profile``),
wordings print outlines: prefixed labels (``SECTION C)``, ``PART A-``,
``Section 4 –``, ``ARTICLE IV.``), roman numerals (``I.``), letters (``A.``,
``a.``), arabic numbers (``1.``, ``1)``) and parenthesised labels (``(1)``,
``(a)``, ``(i)``), nested seven levels deep in FEMA's flood policy. A label
stands at the start of a line, alone or followed by its text; what follows a
label directly (``III.C.2.``, ``3.a.1``, ``I.G,``) is a reference, not a label.

A label's text is a *title* when it reads as one -- a capital first letter, no
longer than a title can be, no full stop, colon, semicolon or comma at its end
and no sentence inside it, and in Title Case or capitals (``A. Pair and Set
Clause``, ``I. AGREEMENT``). Otherwise the label starts an *item*, whose text is
body text (``A. This policy insures the following types of property only:``).
"""

from __future__ import annotations

import re
from typing import List

from ...core.text import first_letter, reads_as_sentence, title_case, word_alternatives
from ..labels import Meaning, meanings

PREFIX_WORDS = ("SECTION", "PART", "ARTICLE", "CHAPTER", "SCHEDULE", "ANNEXURE", "APPENDIX")
_WORDS = word_alternatives(PREFIX_WORDS)

LABEL = re.compile(
    rf"(?:(?P<word>{_WORDS})\s+(?P<value>[A-Z]{{1,6}}|\d{{1,3}})(?:\s*[).:\-\u2013\u2014]|(?=\s+[A-Z]))"
    r"|\((?P<paren>[a-z]{1,4}|[A-Z]{1,4}|\d{1,3})\)"
    r"|(?P<bare>[A-Za-z]|[ivxlc]{2,6}|[IVXLC]{2,6}|\d{1,3})\."
    r"|(?P<close>[a-z]|\d{1,3})\)"
    r"|(?P<alone>\d{1,3}(?:\.\d{1,3}){1,9})\.?(?=\s*$)"
    r")(?:\s+(?P<text>\S.*)|\s*$|(?<=[.)])(?P<glued>[A-Z][a-z].*))"
)
"""A line that starts with an outline label (or is a decimal number alone). A
label glued to its text (``M.Appraisal``, ``(3)Failure``: words the extractor
ran together) may go on with a level already open, or open one with its first
value, never start or replace the outline."""

LEADS = rf"[\d(]|[A-Za-z](?:\.[ \t\nA-Z]|\))|[ivxlcIVXLC]{{2,6}}\.[ \t\n]|(?:{_WORDS})[ \t]"
"""What such a line (or a decimal heading) starts with: the cutter's cheap look,
tried at every line start."""



def label_meanings(m: "re.Match[str]") -> List[Meaning]:
    """Every reading of the label ``LABEL`` matched (a decimal number alone has none here)."""
    if m["word"] is not None:
        return meanings(m["value"], m["word"].upper() + " ")
    if m["paren"] is not None:
        return meanings(m["paren"])
    if m["bare"] is not None:
        return meanings(m["bare"], "bare-")
    if m["close"] is not None:
        return meanings(m["close"], "close-")
    return []


def printed(m: "re.Match[str]") -> str:
    """The label as a citation writes it: its value, parentheses kept, dot dropped.

    >>> [printed(LABEL.match(t)) for t in ("SECTION C) Cover", "(iv) Text", "B. Text", "2) Text", "4.10.")]
    ['C', '(iv)', 'B', '2)', '4.10']
    """
    if m["word"] is not None:
        return m["value"]
    if m["paren"] is not None:
        return f"({m['paren']})"
    if m["close"] is not None:
        return m["close"] + ")"
    return m["bare"] if m["bare"] is not None else m["alone"]


def is_title(text: str, max_words: int) -> bool:
    """Whether an outline label's text is a title (see the module's docstring).

    >>> is_title("PROPERTY INSURED", 12), is_title("Act. The National Flood Insurance Act", 12)
    (True, False)
    """
    letter = first_letter(text)
    if not letter or not letter.isupper() or reads_as_sentence(text, max_words):
        return False
    if ";" in text or re.search(r"[.:]\s", text):
        return False
    return text.isupper() or title_case(text)


RUN_IN = re.compile(r"(?:[A-Z][\w\u2019'-]*\s+){0,6}[A-Z][\w\u2019'-]*(?:\.|:-?)\s*[A-Z\u201c\"]")
"""A run-in term: a few capitalised words ending in a full stop or a colon, and
a sentence after it (``Act. The National …``, ``Accident:- An …``)."""


def continues_title(line: str) -> bool:
    """A line right after a heading, with no blank line between, that goes on
    with its title: a few words in Title Case or capitals, and no end of a
    sentence (``Cancellation of Duplicate`` ⏎ ``Policies``).

    >>> continues_title("Policies"), continues_title("We will pay.")
    (True, False)
    """
    return len(line.split()) <= 6 and is_title(line, 6)

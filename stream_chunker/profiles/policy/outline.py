"""What the titles of policy wordings look like (the labels' shapes are in
``profiles.policy.families``).

A label's text is a *title* when it reads as one -- a capital first letter, no
longer than a title can be, no full stop, colon, semicolon or comma at its end
and no sentence inside it, and in Title Case or capitals (``A. Pair and Set
Clause``, ``I. AGREEMENT``). Otherwise the label starts an *item*, whose text is
body text (``A. This policy insures the following types of property only:``).
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

from ...core.layout import LEADING_ON, leads_on_word, reads_as_heading
from ...core.text import DASHES, first_letter, leads_in, mostly_figures, reads_as_sentence, title_case
from .families import OWN_VALUE, OWN_WORD, PREFIX_WORDS


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


def wraps_onto(title: str, line: str, larger: bool = False) -> bool:
    """A title that goes on onto the next line, set alike: it ends on a word
    or sign that leads on (``Missed Departure &``), or the line starts with
    one, or in lower case (``… TO PART A- DOMESTIC COVER`` ⏎ ``UNDER SECTION
    C) …``), or a bracket is open across them (``Winter Sports`` ⏎ ``(only
    operative if …`` ⏎ ``Policy Schedule)``), or both are in capitals
    (``INSURANCE UNDER TWO OR MORE`` ⏎ ``COVERAGES``), or the title is set
    ``larger`` than the body and the line is one word (``Loss of Passport or
    Driving`` ⏎ ``Licence``, ``Alternative`` ⏎ ``Employee/``); not a title whole and a heading of its own
    below it (``Standard Exclusions`` ⏎ ``Exclusions specific to …``).

    >>> wraps_onto("EXCLUSIONS APPLICABLE TO PART A", "UNDER SECTION C)"), wraps_onto("CONDITIONS THAT APPLY TO", "EVERY SECTION")
    (True, True)
    >>> wraps_onto("Winter Sports", "(only operative if indicated in your"), wraps_onto("Missed Departure &", "Connection")
    (True, True)
    >>> wraps_onto("Standard Exclusions", "Exclusions specific to hospital expenses"), wraps_onto("Hijack", "Cover")
    (False, False)
    """
    first = (line.split() or [""])[0]
    return (leads_on(title) or first.lower() in LEADING_ON
            or first[:1].islower() or first[:1] in "(&" or title.count("(") > title.count(")")
            or title.isupper() and line.isupper()
            or larger and len(line.split()) == 1 and line.strip()[-1:] not in _ENDS)


_ENDS = ".:;!?"
"""Marks a title's last word does not end on: it ends a sentence (``Expenses.``)."""
_LEADS_ON = "&,/+–—-"
"""Signs a title does not end on: more of it follows (``Missed Departure &``)."""


def leads_on(title: str) -> bool:
    """Whether a title ends on a word or sign that more of it must follow
    (``… DOMESTIC COVER UNDER``, ``Missed Departure &``).

    >>> leads_on("APPLICABLE TO PART A- DOMESTIC COVER UNDER"), leads_on("Missed Departure &"), leads_on("Hijack")
    (True, True, False)
    """
    return leads_on_word(title) or title.rstrip()[-1:] in _LEADS_ON


_CLAUSE_GOES_ON = frozenset("when where which who whom whose if unless whether while whilst because although".split())
"""Words a sentence goes on after, as it does after those a title does not end on."""


def goes_on(text: str) -> bool:
    """Whether a numbered line's words stop where a sentence goes on: the first
    line of a clause (``1 This policy does not apply when`` ⏎ ``your car:``),
    not a title.

    >>> goes_on("This policy does not apply when"), goes_on("Loss of or damage to your car"), goes_on("Cover for")
    (True, False, True)
    """
    return leads_on(text) or (text.split() or [""])[-1].lower() in _CLAUSE_GOES_ON


_AMOUNT = re.compile(r"[$£€¥₹]\s?\d|\b(?:INR|USD|GBP|EUR|AUD|SGD|NZD|CAD|Rs\.?)\s?\d"
                     r"|\d[\d,]*\.\d\d\b|\b(?:Nil|NIL|N/A)\b|\d\s*%")
"""What a row of a table of benefits holds, and a heading does not."""


def ends_in_amount(text: str) -> bool:
    """Whether a numbered line's text ends in an amount, as a table's row does
    and a heading does not (``Cancellation  £5,000``, ``Excess Nil``).

    >>> ends_in_amount("Cancellation  £5,000"), ends_in_amount("Excess Nil"), ends_in_amount("Limits of £5,000 apply")
    (True, True, False)
    """
    return _final_amount(text) >= 0


_AMOUNT_TAIL = " \t0123456789,.%/-"
"""What may follow the amount that ends a text (``£5,000 - 10,000``)."""
_AMOUNT_LAST = frozenset(_AMOUNT_TAIL + "lLA")
"""The last character of a text that ends in an amount: that of such a tail
or of an amount (``5``, ``%``, ``Nil``, ``NIL``, ``N/A``)."""


def _final_amount(text: str) -> int:
    """Where the amount that ends ``text`` starts, or -1 for none. (Most
    texts end in a letter no amount ends in: no need to look for one.)"""
    if text[-1:] not in _AMOUNT_LAST:
        return -1
    last = None
    for last in _AMOUNT.finditer(text):
        pass
    if last is None or text[last.end():].strip(_AMOUNT_TAIL):
        return -1
    return last.start() if not text[last.start()].isdigit() else text.rfind(" ", 0, last.start()) + 1


_COLUMNS = re.compile(r"\s{2,}|\t")


def row_cells(text: str) -> Tuple[str, ...]:
    """A table's row as its cells: split where its columns are spaced apart
    (``-layout`` text), else its label, its words and the amounts it ends in.

    >>> row_cells("1 Cancellation and curtailment £5,000"), row_cells("3  Baggage   Nil  Nil")
    (('1', 'Cancellation and curtailment', '£5,000'), ('3', 'Baggage', 'Nil', 'Nil'))
    >>> row_cells("14 Loss of Frequent Flyer Points $500 $1,000")
    ('14', 'Loss of Frequent Flyer Points', '$500', '$1,000')
    """
    text = text.strip()
    if _COLUMNS.search(text):
        return tuple(_COLUMNS.split(text))
    label, _, rest = text.partition(" ")
    amounts: List[str] = []
    at = _final_amount(rest)
    while at > 0:
        amounts.insert(0, rest[at:].strip())
        rest = rest[:at].rstrip()
        at = _final_amount(rest)
    return (label, rest, *amounts) if rest else (label, *amounts)


def styled_title(text: str, max_words: int, larger: bool = False, alone: bool = False) -> bool:
    """Whether a line the layout sets above the body reads as a heading: a
    capital first (or a digit), no end of a sentence, no amount (a table's
    row), no more words than a title has; any case will do, as the layout is
    the evidence (``What is covered``). A line set ``larger`` than the body
    may end in a comma: its title wraps (``COLORADO CHANGES – CONCEALMENT,``
    ⏎ ``MISREPRESENTATION OR FRAUD``), where a bold line of the body's size
    ending so is emphasis in a sentence. A line with no label, ``alone``, may
    end in a colon where it heads what follows (``What is covered:``,
    ``core.text.leads_in``); a label's text ending so is an item's lead-in.

    >>> styled_title("What is covered", 12), styled_title("Cancellation  £5,000", 12)
    (True, False)
    >>> styled_title("We will pay for loss.", 12), styled_title("What is an excess?", 12)
    (False, True)
    >>> styled_title("CP 00 10 10 12", 12), styled_title("Helpline 132 900", 12)
    (False, True)
    >>> styled_title("CHANGES – CONCEALMENT,", 12), styled_title("CHANGES – CONCEALMENT,", 12, larger=True)
    (False, True)
    >>> styled_title("What is covered:", 12), styled_title("What is covered:", 12, alone=True)
    (False, True)
    >>> styled_title("Proof Of Claim; Medical Reports", 12), styled_title("We pay; you claim", 12)
    (True, False)
    """
    if larger and text.endswith(",") or alone and leads_in(text, larger):
        text = text[:-1]  # (a title that wraps, or one that heads its list: ``What is covered:``)
    letter = first_letter(text)
    if not letter or not (letter.isupper() or text[:1].isdigit()):
        return False
    if reads_as_sentence(text, max_words) or re.search(r"[.:]\s", text):
        return False
    if ";" in text and not title_case(text):
        return False  # (two clauses, unless each is a title: ``Proof Of Claim; Medical Reports``)
    if mostly_figures(text):
        return False  # a code, not a title: a form number in a footer (``MP0005001003835``, ``CP 00 10 10 12``)
    return _AMOUNT.search(text) is None


NOTE_TITLE = re.compile(r"(?:important\s+|please\s+)?notes?\s*[:.\-\u2013]?|n\.\s?b\.?", re.IGNORECASE)
"""A heading that titles a note (``Note``, ``Notes:``, ``Important Note``): it
heads that note alone, never the numbered sections after it."""
LIST_TITLE_WORDS = 6
"""Words a line may have to be taken back as the heading of the list after it."""


def heads_list(before: str, line: str) -> bool:
    """Whether a line of text is the heading of the numbered list that starts
    right after it, with no layout to tell (``pdftotext -raw``): it follows the
    end of a sentence, and reads as a short title -- a capital first, at most
    ``LIST_TITLE_WORDS`` words, no end of a sentence or clause, no amount, not
    ending on a word that leads on (``What is not covered`` ⏎ ``1. The excess.``,
    after ``… payable by US Medicare.``). A lead-in ends with a colon (``We will
    not pay for:``), and is text.

    >>> heads_list("payable by US Medicare.", "What is not covered"), heads_list("as set out in", "Section 4")
    (True, False)
    >>> heads_list("We pay.", "We will not pay for:"), heads_list("We pay.", "Claims for loss of or damage to")
    (False, False)
    >>> heads_list("we may:", "Declarations of the condo\u00ad")
    False
    """
    if not before.rstrip(")\u201d\"'").endswith((".", "?", "!")) or line.endswith(("-", "\u00ad")):
        return False  # (after a colon comes the list's first item, not its heading)
    if len(line.split()) > LIST_TITLE_WORDS or not line[:1].isupper():
        return False  # (a line that starts with a digit or a bracket is a label's, or a table's)
    return styled_title(line, LIST_TITLE_WORDS) and reads_as_heading(line, "")


CODE_WORD = rf"{OWN_WORD}|[A-Z]{{2}}(?=[ \t]?\d)"
"""A prefix word, or a code of two capitals before its number (``TA16-``, ``TA 22 -``)."""
PREFIX_LABEL = re.compile(
    rf"(?P<word>{CODE_WORD})(?:[ \t]+|(?<=[A-Z]{{2}})\.?[ \t]?(?=\d))(?P<value>{OWN_VALUE})"
    rf"(?:[ \t]*[{DASHES}:.)][ \t]+|[ \t]+[{DASHES}][ \t]+|(?<=\d)\.(?=[A-Z]{{2}}))(?=\S)")
"""A word and a value that open a heading, whatever the word (``COVERAGE A –``,
``Endorsement 12 -``, ``Change 1 –``, ``Condition 3:``); a code in capitals
may have its number glued on (``IMT5. HIRE PURCHASE AGREEMENT``, ``IMT.4.
Change of Vehicle``, ``IMT. 3. TRANSFER``), and a title in capitals after it
(``IMT20.REDUCTION IN THE LIMIT``)."""


def own_word(title: str) -> Optional[str]:
    """The document's own word that labels a heading (``COVERAGE`` of ``COVERAGE
    A – DWELLING``, ``IMT`` of ``IMT5. HIRE PURCHASE``), not a word of the list.

    >>> own_word("IMT.4. Change of Vehicle"), own_word("Section 2 – Cancellation"), own_word("Claims")
    ('IMT', None, None)
    """
    m = PREFIX_LABEL.match(title)
    return None if m is None or m["word"].upper() in PREFIX_WORDS else m["word"]


def prefix_label(title: str) -> Optional[Tuple[str, str]]:
    """The label a heading's own prefix word gives it, by which it is cited,
    and its title: the document's own word is part of the label, the title
    the rest (as ``families.Worded`` reads a label line); a word of the list
    (``SECTION``) is implied, its value the label and the line the title.

    >>> prefix_label("COVERAGE A – DWELLING"), prefix_label("Endorsement 12 - Flood")
    (('COVERAGE A', 'DWELLING'), ('Endorsement 12', 'Flood'))
    >>> prefix_label("Section 2 – Cancellation"), prefix_label("Table 1.1 – Limits"), prefix_label("What is covered")
    (('2', 'Section 2 – Cancellation'), None, None)

    The label is cited as printed, but for a dot between its word and its
    value, read as the space it stands for: a clause's path joins its labels
    with dots, and ``IMT.25.(1)`` would read as three labels.

    >>> prefix_label("IMT5. HIRE PURCHASE AGREEMENT"), prefix_label("Covid19. Cover")
    (('IMT5', 'HIRE PURCHASE AGREEMENT'), None)
    >>> prefix_label("IMT. 3. TRANSFER OF INTEREST"), prefix_label("IMT.4. Change of Vehicle")
    (('IMT 3', 'TRANSFER OF INTEREST'), ('IMT 4', 'Change of Vehicle'))
    >>> prefix_label("IMT20.REDUCTION IN THE LIMIT"), prefix_label("TA16- Engine Secure")
    (('IMT20', 'REDUCTION IN THE LIMIT'), ('TA16', 'Engine Secure'))
    """
    m = PREFIX_LABEL.match(title)
    if m is None:
        return None
    if m["word"].upper() in PREFIX_WORDS:
        return m["value"], title
    glued = m.end("word") == m.start("value")
    return f"{m['word']}{'' if glued else ' '}{m['value']}", title[m.end():]  # (``COVERAGE A``, ``IMT5``)

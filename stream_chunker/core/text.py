"""How a line of text reads: its words, its first letter, whether it ends a clause.

These rules are shared by every profile and by the reader; each is written once.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

CLAUSE_END = re.compile(
    r"(?:(?P<sentence>[.!?:;])|[\u2014\-\u201d)]|[;,] (?:or|and))[\"'\u2019\u201d)\]]*$")
"""The end of a line that could end a clause (SPEC §6): ``.``, ``:``, ``;``,
``—``, ``-``, a closing quote or bracket, or ``; or``, ``; and``, ``, or``,
``, and``; then any closing quotes and brackets. Where the mark is one that
ends a sentence (``. ! ? : ;``), the line ended a sentence, not just a clause
(an enumeration's ``—``, a wrapped ``(see 4.2)``)."""

_CLOSING = "\"'\u2019\u201d)]\n"
"""What may follow the mark that ends a clause (and the line end ``$`` lets through)."""
_LONGEST_MARK = len("; and")


def _clause_end(line: str) -> "Optional[re.Match[str]]":
    """``CLAUSE_END`` in ``line``, looked for from the last few characters
    before its closing quotes and brackets: every match starts there (a mark
    is at most ``; and`` long), and a search from a line's start would try
    each of its characters."""
    return CLAUSE_END.search(line, max(0, len(line.rstrip(_CLOSING)) - _LONGEST_MARK))


_SENTENCE_MARKS = (".", ":", ";", ",")
_SOFT_BREAK = re.compile("\u00ad+[ \t\n]+")
_FIRST_LETTER = re.compile(r"[^\W\d_]")
_TITLE_STOP = re.compile(r"[,.;](?=\s|$)|:(?=\s|$|[A-Z-])|\(|\s[\u2013\u2014-]\s")


def ends_clause(line: str) -> bool:
    """Whether ``line`` could end a clause, so that what follows may start a new one.

    >>> ends_clause("as provided in subsection"), ends_clause("the owner shall; or"), ends_clause("(3) the fee.)")
    (False, True, True)
    """
    return _clause_end(line) is not None


def ends_sentence(line: str) -> bool:
    """Whether ``line`` ended a sentence (see ``CLAUSE_END``).

    >>> ends_sentence("as set out in Section 4 (Claims)"), ends_sentence("that is all.)")
    (False, True)
    """
    m = _clause_end(line)
    return m is not None and m["sentence"] is not None


DASHES = "\\-\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"
"""The dashes a label may end on or a title be set off by, for a character
class: hyphen-minus, the hyphens, figure dash, en and em dash, and the minus
signs a typesetter may pick in their place (``Part 1 \u2212 Benefits``)."""

LEAD_IN_WORDS = 8
"""Words a line ending in a colon may have and still head what follows."""
_DEFINES = re.compile(r"\b(?:means|mean|includes|include)\b", re.IGNORECASE)


def leads_in(text: str, larger: bool = False) -> bool:
    """Whether ``text``, set apart on its own line, ends in a colon as a
    heading of the list or text after it may (``What is covered:``, ``What
    you must not do:``): a few words, and no definition (``Terrorism means:``)
    -- twice as many where it is set ``larger`` than the body, as no
    sentence is (``Losses We Do Not Cover Under Coverages A, B and C:``).

    >>> leads_in("What is covered:"), leads_in("Terrorism means:"), leads_in("What is covered")
    (True, False, False)
    >>> leads_in("Losses We Cover Under Coverages A, B and C:"), leads_in("Losses We Cover Under Coverages A, B and C:", True)
    (False, True)
    """
    return text.endswith(":") and len(text.split()) <= LEAD_IN_WORDS * (2 if larger else 1) \
        and _DEFINES.search(text) is None


def reads_as_sentence(title: str, max_words: int) -> bool:
    """Text after a section number that is a clause, not a title (SPEC §5): it
    ends with ``.``, ``:``, ``;`` or ``,``, or it is longer than a title can be.

    >>> reads_as_sentence("Escape of water", 12), reads_as_sentence("Accident means an event.", 12)
    (False, True)
    """
    return title.endswith(_SENTENCE_MARKS) or len(title.split()) > max_words


_SPACE_OR_WORD = bytes(32 if chr(b).isspace() and b < 128 else 97 for b in range(256))
"""Each byte of UTF-8 text as ``b" "`` (an ASCII white space) or ``b"a"`` (a
byte of a word: every byte of a character beyond ASCII is one)."""
_SPACES_BEYOND_ASCII = tuple(ch for ch in map(chr, range(128, 0x3001)) if ch.isspace())


def count_words(text: str, in_word: bool = False) -> int:
    r"""How many words ``str.split`` finds in ``text`` -- not counting one that
    goes on from the text before when ``in_word`` (it ended inside a word) --
    without making them: the report counts every word read, and a list of
    them would cost a sixth of the engine's time. White space beyond ASCII
    (a no-break space) is rare, and then ``str.split`` counts.

    >>> count_words(" We cover\nthe  house "), count_words("se and more", in_word=True), count_words("a\xa0b")
    (4, 2, 2)
    """
    if not text.isascii() and any(space in text for space in _SPACES_BEYOND_ASCII):
        words = len(text.split())
        return words - 1 if in_word and words and not text[0].isspace() else words
    marked = text.encode("utf-8", "surrogatepass").translate(_SPACE_OR_WORD)
    return marked.count(b" a") + (marked[:1] == b"a" and not in_word)


def single_spaced(text: str) -> Tuple[str, int]:
    """``text`` with every run of whitespace made one space, and its word count.

    Most extracted lines are single-spaced already; then the words can be
    counted without splitting the text into a list of them. (``isprintable``
    is false for every whitespace character but the plain space; ASCII text,
    most paragraphs, is searched for each of its other white space characters
    instead, four times faster than ``isprintable`` looks up every character.)

    >>> single_spaced("We  cover\\nthe house "), single_spaced("We cover\\nthe house")
    (('We cover the house', 4), ('We cover the house', 4))
    >>> single_spaced("We\\tcover\\x1fthe"), single_spaced("caf\u00e9\u00a0au lait")
    (('We cover the', 3), ('caf\u00e9 au lait', 3))
    """
    if "\n" in text:
        text = text.replace("\n", " ")
    if text[:1] != " " and text[-1:] != " " and "  " not in text \
            and (not ("\t" in text or "\r" in text or "\x0b" in text or "\x0c" in text or "\x1c" in text
                      or "\x1d" in text or "\x1e" in text or "\x1f" in text)
                 if text.isascii() else text.isprintable()):
        return text, (text.count(" ") + 1 if text else 0)
    words = text.split()
    return " ".join(words), len(words)


def join_soft_hyphens(text: str) -> Tuple[str, int]:
    r"""Words that a soft hyphen (U+00AD) broke at a line's end joined again,
    every soft hyphen taken out (it prints nothing), and how many were joined.
    A hard hyphen stays as printed: ``ele-`` ⏎ ``vation`` may be a compound.

    >>> join_soft_hyphens("the condo\u00ad minium and ele- vation"), join_soft_hyphens("equip\u00ad\u00ad\nment")
    (('the condominium and ele- vation', 1), ('equipment', 1))
    """
    text, joined = _SOFT_BREAK.subn("", text)
    return text.replace("\u00ad", ""), joined


def mostly_figures(text: str) -> bool:
    """Whether more of ``text``'s letters and digits are digits: a table's
    figures or a form's code, never a heading (``INR 3,750,000``, ``CP 00 10
    10 12``). A code among words does not count, a word of letters and digits
    ``CODE_CHARS`` long or more: the title it follows is words all the same
    (``TA16- Engine Secure (UIN: IRDAN108RP0002V01200001/A0058V01201819)``).

    >>> mostly_figures("INR 3,750,000"), mostly_figures("Helpline 132 900"), mostly_figures("MP0005001003835")
    (True, False, True)
    >>> mostly_figures("TA16- Engine Secure (UIN: IRDAN108RP0002V01200001/A0058V01201819)")
    False
    """
    digits = sum(ch.isdigit() for ch in text)
    if 2 * digits <= sum(ch.isalnum() for ch in text):
        return False
    words = [word for word in text.split() if not _CODE.search(word)]
    return not words or 2 * sum(ch.isdigit() for word in words for ch in word) > sum(
        ch.isalnum() for word in words for ch in word)


CODE_CHARS = 10
_CODE = re.compile(rf"(?=[A-Za-z0-9]*[A-Za-z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{{{CODE_CHARS},}}")
"""A code: letters and digits mixed, ``CODE_CHARS`` or more (``IRDAN108RP0002V01200001``)."""


def first_letter(text: str) -> str:
    """The first letter of ``text``, or ``""``.

    >>> first_letter("(Unused)"), first_letter("100 Continue"), first_letter("42")
    ('U', 'C', '')
    """
    m = _FIRST_LETTER.search(text)
    return m.group() if m else ""


def short_title(text: str, max_words: int) -> str:
    """A heading-path title cut from a clause's own text: up to its first
    punctuation (a full stop or comma before a space, so that ``I.G`` or
    ``3.a.1`` stays whole; a colon also before a capital, so that a run-in term
    ``Cashless Facility:Cashless …`` comes out alone), at most ``max_words`` words.

    >>> short_title("Accident means a sudden, unforeseen and involuntary event.", 12)
    'Accident means a sudden'
    >>> short_title("Except as allowed under Article I.G, we pay.", 12), short_title("Accident:- An event", 12)
    ('Except as allowed under Article I.G', 'Accident')
    """
    head = _TITLE_STOP.split(text, maxsplit=1)[0]
    return " ".join(head.split()[:max_words]) or text[:80]


_SMALL = frozenset("a an and as at by for from in nor of on or other per than the to under via with".split())


def title_case(text: str) -> bool:
    """Every word capitalised (or a number), but for the small words of titles.

    >>> title_case("Pair and Set Clause"), title_case("Coverage A\u2014Building Property"), title_case("We will pay")
    (True, True, False)
    """
    for word in text.split():
        letter = first_letter(word)
        if letter and not letter.isupper() and word.lower() not in _SMALL and not word[0].isdigit():
            return False
    return True


def word_alternatives(words: Sequence[str]) -> str:
    """A regular expression for ``words`` in capitals or capitalised, grouped
    by first letter: tried at a line start, the engine then takes one branch
    where a flat list would try each word in turn.

    >>> word_alternatives(("PART", "PREAMBLE", "TITLE"))
    'P(?:ART|art|REAMBLE|reamble)|T(?:ITLE|itle)'
    """
    rests: Dict[str, List[str]] = {}
    for word in words:
        rests.setdefault(word[0], []).extend([word[1:], word[1:].lower()])
    return "|".join(f"{initial}(?:{'|'.join(rest)})" for initial, rest in rests.items())

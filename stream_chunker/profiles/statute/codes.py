"""What the lines of a code look like: section lines, divisions, notes.

A section line names a section: a marker (``§``, ``§§``, ``Sec.``, ``SEC.``,
``Section``, or one the user gives, such as ``NRS``), its number or a range of
numbers, then its catchline; or, Colorado style, a number of three or more
hyphenated parts and a capitalised catchline. A division line names a part of
the code above its sections (``CHAPTER 8\u2014FEDERAL ALCOHOL ADMINISTRATION
ACT``, ``SUBCHAPTER I\u2014\u2026``, ``Chapter 24 Compulsory/No-Fault Motor Vehicle
Insurance.``). The statute profile (``profiles.statute.profile``) decides what they open.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from ...core.text import word_alternatives
from ..labels import Level, meanings

_NUMBER = r"\d+[A-Za-z]?(?:[-.:]\d+[A-Za-z]?)*"
_COLORADO = r"\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?){2,}"
"""Colorado's section numbers, of three or more hyphenated parts, printed with no marker."""
_RANGE = rf"{_NUMBER}(?:\s*(?:,|to|through|and)\s*{_NUMBER})*"
DIVISIONS = ("TITLE", "SUBTITLE", "CHAPTER", "SUBCHAPTER", "PART", "SUBPART", "DIVISION", "SUBDIVISION")
"""The divisions of a code above its sections, the largest first."""
DIVISION_WORDS = word_alternatives(DIVISIONS)
_DIVISION = (rf"(?P<division>{DIVISION_WORDS})\s+(?P<dvalue>\d+[A-Z]?|[IVXLC]+|[A-Z])"
             r"(?:\s*[.\u2013\u2014-]\s*|\s+)(?P<dname>[A-Z].*)")
RANGE_LABELS = re.compile(r"\(([^()\s]{1,6})\)\s+(to|through)\s+\(([^()\s]{1,6})\)")
BANNER = re.compile(r"[A-Z][A-Za-z]+ [\u2013\u2014-] [A-Z][^.;:,]*$")
# The first line of a section's notes: a heading of its own ("Notes",
# "Historical and Statutory Notes"), or a source credit in parentheses that
# starts with a date or a public law ("(Aug. 29, 1935, ch. 814, ...",
# "(Pub. L. 107-273, ...", "(R.S. 3165; ...") -- a credit only where the line
# before could end a clause, as a wrapped "(July 1, 2004, as adjusted)" is
# body text.
NOTES_LINE = re.compile(
    r"(?:(?:Historical and Statutory |Editor['\u2019]s |Editorial )?Notes|HISTORICAL AND (?:STATUTORY|REVISION) NOTES)$"
    r"|\((?:(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.? \d{1,2}, \d{4}|Pub\. ?L\. |R\.S\. )"
)


def section_pattern(prefix: Optional[str]) -> "re.Pattern[str]":
    """A section line: marker, number, ``.`` or space, catchline; or, with no
    marker, a Colorado-style number of three or more hyphenated parts."""
    markers = [r"\u00a7(?!\u00a7)", r"Sec\.", r"SEC\.", r"Section"] + ([re.escape(prefix)] if prefix else [])
    return re.compile(
        rf"(?:(?:{'|'.join(markers)})\s*(?P<num>{_NUMBER})|\u00a7\u00a7\s*(?P<range>{_RANGE}))(?:\.\s*|\s+|$)(?P<rest>.*)"
        rf"|(?P<colorado>{_COLORADO})\.\s+(?P<crest>[A-Z].*)"
        rf"|{_DIVISION}"
    )


def catchline(rest: str) -> Tuple[str, str]:
    """A section line's text cut at its first full stop: the catchline, and what
    follows it on the line (Nevada prints ``Definitions. As used in ...``).

    >>> catchline("Definitions. As used in this chapter:")
    ('Definitions', 'As used in this chapter:')
    """
    m = re.search(r"\.(?:\s+|$)", rest)
    title, body = (rest, "") if m is None else (rest[: m.start()], rest[m.end():].strip())
    return " ".join(title.split()), body  # single-spaced, as -layout text is not


def label_range(first: Level, m: "re.Match[str]") -> Level:
    """``(a) to (d) Omitted``: one item that stands for its labels, so that
    ``(e)`` comes next; it is cited as printed, ``202(a) to (d)``.

    >>> label_range(Level("lower", (1, 0), "a"), RANGE_LABELS.match("(a) to (d) Omitted")).value
    (4, 0)
    """
    last = next((o for o in meanings(m[3]) if o.style == first.style and o.value > first.value), None)
    if last is None:
        return first
    return Level(first.style, last.value, f"{m[1]}) {m[2]} ({m[3]}")


SIGNATURE = re.compile(rf"(?:\u00a7\u00a7?|Sec\.|SEC\.)[ \t]*\d|{_COLORADO}\.[ \t]+[A-Z]")
"""Section lines with a marker, or Colorado's: what only codes print."""

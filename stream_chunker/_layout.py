"""What the profiles share: settings, sinks, line classification, paragraphs.

A profile ("layout") is the state machine's model. The machine calls its actions
(``open_paragraph``, ``open_section``, ...) and conditions (``opens_section``,
``continues_across_page``, ...) with the current line record (see ``_scan``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Pattern, Sequence, Tuple

from ._chunk import Chunk
from ._machine import paragraph_records
from ._packing import Paragraph

Record = Tuple[Any, ...]
"""A line as the reader sees it: ``(first line, page, text, last line, class,
match, after blank)`` -- or a run of plain body lines (see ``_scan``)."""

Diagnose = Callable[..., None]

# A line that ends one of these (after closing quotes or brackets) may end a paragraph.
_ENDS_SENTENCE = re.compile(r"[.!?:;][\"'\u201d\u2019)\]]*$")
_FIRST_LETTER = re.compile(r"[^\W\d_]")


def single_spaced(text: str) -> Tuple[str, int]:
    """``text`` with every run of whitespace made one space, and its word count.

    Most extracted lines are single-spaced already; then the words can be
    counted without splitting the text into a list of them. (``isprintable``
    is false for every whitespace character but the plain space.)

    >>> single_spaced("We  cover\\nthe house "), single_spaced("We cover\\nthe house")
    (('We cover the house', 4), ('We cover the house', 4))
    """
    if "\n" in text:
        text = text.replace("\n", " ")
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text, (text.count(" ") + 1 if text else 0)
    words = text.split()
    return " ".join(words), len(words)


_EMPTY = -1
"""The size of an empty paragraph: its first line adds no joining space, so
every line can add one."""


def _paragraph(text: str, first: Record, last: Record, cut: bool) -> Paragraph:
    """A finished paragraph from its joined lines and its first and last records."""
    text, words = single_spaced(text)
    return Paragraph(text, words, (first[0], last[3]), (first[1], last[1]), cut)


def first_letter(text: str) -> str:
    """The first letter of ``text``, or ``""``.

    >>> first_letter("(Unused)"), first_letter("100 Continue"), first_letter("42")
    ('U', 'C', '')
    """
    m = _FIRST_LETTER.search(text)
    return m.group() if m else ""


@dataclass
class Settings:
    """Options resolved and checked once, shared by the engine's parts."""

    profile: str
    cap_unit: str
    cap: int
    max_paragraph_chars: int
    max_title_words: int
    profile_options: Dict[str, Any] = field(default_factory=dict)


class Layout:
    """Base of the profiles. Subclasses set ``RULES`` (the ordered line patterns)
    and ``SPECIAL``, and implement the actions and conditions the machine names."""

    SPECIAL: Tuple[Pattern[str], Pattern[str]]
    """Finds the lines that may be anything but body text (see ``_scan.special_lines``)."""
    LEADER: Optional[Pattern[str]] = None
    """Matches inside such lines that ``SPECIAL`` cannot tell from their start."""

    state: str  # kept by ``transitions``

    def __init__(self, settings: Settings, emit: Callable[[Chunk], None], diagnose: Diagnose) -> None:
        self.settings = settings
        self.emit = emit
        self.diagnose = diagnose
        self.counts: Dict[str, int] = {}
        self._bound = settings.max_paragraph_chars

    # -- classification ------------------------------------------------------
    RULES: Sequence[Tuple[str, Callable[[str], bool], Pattern[str]]] = ()
    """The ordered line rules ``(class, guard, pattern)``: the first whose cheap
    guard passes and whose pattern matches names the line's class."""

    def classify(self, text: str) -> Optional[Tuple[str, "re.Match[str]"]]:
        """The class of a non-blank line and the match of the first rule that
        takes it, or ``None`` for body text."""
        for name, guard, pattern in self.RULES:
            if guard(text):
                m = pattern.match(text)
                if m is not None:
                    return name, m
        return None

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    # -- actions and conditions every profile shares --------------------------
    def skip(self, rec: Record) -> None:
        """A line that changes nothing (a blank line where no paragraph is open)."""

    def turn_page(self, rec: Record) -> None:
        """Pages are carried on every record; the break itself only moves the state."""

    def last_line(self) -> str:
        """The last body line taken, or ``""`` when the last thing was a break."""
        raise NotImplementedError

    def continues_across_page(self, rec: Record) -> bool:
        """The first body line of a page continues the paragraph the last page
        left open, unless that paragraph had reached the end of a sentence and
        this line starts a new one."""
        last = self.last_line()
        if not last:
            return False
        return not (_ENDS_SENTENCE.search(last) and not first_letter(rec[2]).islower())

    def open_paragraph(self, rec: Record) -> None:
        raise NotImplementedError

    def end_paragraph(self, rec: Optional[Record] = None) -> None:
        raise NotImplementedError

    def take_paragraphs(self, rec: Record) -> None:
        """Body paragraphs, each after blank lines, while a paragraph is open
        (a ``PARAGRAPHS`` record, see ``_scan``): what ``end_paragraph`` then
        ``open_paragraph`` do for each, which a profile may do faster."""
        for line in paragraph_records(rec):
            self.end_paragraph(rec)
            self.open_paragraph(line)

    def finish(self) -> None:
        """End of input."""
        raise NotImplementedError

    def report(self) -> Dict[str, Any]:
        return {}


class ParagraphLayout(Layout):
    """A profile whose body text is paragraphs: lines joined by spaces until a
    blank line, bounded by ``max_paragraph_chars``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._para: List[str] = []
        self._para_first: Record = (0, 0, "", 0)
        self._para_last: Record = (0, 0, "", 0)
        self._para_chars = _EMPTY  # characters of the open paragraph, joining spaces included
        self._para_cut = False  # the open paragraph continues one the hard bound cut

    # -- paragraphs ----------------------------------------------------------
    def continue_paragraph(self, rec: Record) -> None:
        text = rec[2]
        size = self._para_chars + len(text) + 1  # and the space that joins it on
        if size > self._bound:
            self._cut_into(rec)
            return
        para = self._para
        if not para:
            self._para_first = rec
        para.append(text)
        self._para_last = rec
        self._para_chars = size

    def _cut_into(self, rec: Record) -> None:
        """The paragraph would pass its hard bound: fill it up to the bound
        between words, let it go, and go on with the rest."""
        text = rec[2]
        room = self._bound - self._para_chars - 1
        cut = max(text.rfind("\n", 0, room + 1), text.rfind(" ", 0, room + 1))
        if cut <= 0:
            # No space in the room left: the line starts the next paragraph
            # whole, unless it is alone and one word longer than the bound.
            cut = 0 if self._para else max(room, 1)
        head, tail = text[:cut], text[cut:]
        split_line = rec[0] + head.count("\n")
        if head.strip():
            if not self._para:
                self._para_first = rec
            self._para.append(head)
            self._para_last = (rec[0], rec[1], head, split_line) + tuple(rec[4:])
        if self._para:
            self._close_paragraph(cut=True)
        if tail.startswith("\n"):
            split_line += 1
        if tail.strip():
            self.continue_paragraph((split_line, rec[1], tail.strip("\n"), rec[3]) + tuple(rec[4:]))

    def open_paragraph(self, rec: Record) -> None:
        if self._para:
            self._close_paragraph()
        self._para_cut = False
        self.continue_paragraph(rec)

    def end_paragraph(self, rec: Optional[Record] = None) -> None:
        if self._para:
            self._close_paragraph()
        self._para_cut = False

    def take_paragraphs(self, rec: Record) -> None:
        # Every paragraph but the last is whole: it goes straight to
        # ``take_paragraph`` unless it needs the hard bound.
        self.end_paragraph()
        *whole, last = paragraph_records(rec)
        for line in whole:
            if len(line[2]) <= self._bound:
                self.take_paragraph(_paragraph(line[2], line, line, False))
            else:
                self.continue_paragraph(line)
                self.end_paragraph()
        self.continue_paragraph(last)

    def _close_paragraph(self, cut: bool = False) -> None:
        paragraph = _paragraph(" ".join(self._para), self._para_first, self._para_last, cut or self._para_cut)
        self._para = []
        self._para_chars = _EMPTY
        if cut:
            self.diagnose("paragraph_cut", paragraph.lines[1], bound=self._bound)
            self.count("paragraphs_cut")
        self._para_cut = cut
        self.take_paragraph(paragraph)

    def last_line(self) -> str:
        if not self._para:
            return ""
        last = self._para[-1]
        return last[last.rfind("\n") + 1:].strip()

    def take_paragraph(self, paragraph: Paragraph) -> None:
        raise NotImplementedError

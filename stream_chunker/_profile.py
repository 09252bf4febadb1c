"""Profiles: what a profile is, what every profile shares, and where they are registered.

A profile reads one kind of document (numbered policy wordings, labelled code
sections). It is the model of the reader's state machine: it classifies lines
by an ordered table of rules, and does the actions and answers the conditions
that the machine's table names for the lines it can make (``_machine.reachable``):
nothing more, so a profile carries no stubs for another's lines. It hands its
text to the one packer (``_packing``) as nodes and parts.

A profile is one module that calls :func:`register` with a :class:`ProfileSpec`;
``BUILTIN`` names the modules shipped here. The engine, the command line's
``--profile`` choices and flags, and the report all read the registry.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import (Any, Callable, Dict, List, Optional, Pattern, Protocol, Sequence, Tuple, Type,
                    runtime_checkable)

from ._chunk import Chunk
from ._packing import Cap
from ._records import BLANK, PAGE_BREAK, TEXT, Line, Run, new
from ._text import ends_clause, ends_sentence, first_letter, single_spaced

Diagnose = Callable[..., None]
Rule = Tuple[str, Callable[[str], bool], Pattern[str]]
"""``(line class, cheap guard, pattern)``: the first rule whose guard passes and
whose pattern matches names a line's class."""


@dataclass(frozen=True)
class Option:
    """A profile option, as the API and the command line (``--name-with-dashes``) take it."""

    name: str
    help: str
    default: Any = None
    type: Callable[[str], Any] = str


COMMON_OPTIONS: Tuple[Option, ...] = (
    Option("max_paragraph_chars", "the hard bound: a paragraph (or line) longer than this is cut", 100_000, int),
    Option("max_title_words", "a numbered line with more words than this is a clause, not a title", 12, int),
)


@dataclass
class Settings:
    """Options resolved and checked once, shared by the engine's parts."""

    profile: str
    cap_unit: str
    cap: int
    max_paragraph_chars: int
    max_title_words: int
    profile_options: Dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Profile(Protocol):
    """What the engine asks of every profile (the machine's table adds the
    actions and conditions of the line classes it makes)."""

    counts: Dict[str, int]
    special: Tuple[Pattern[str], Pattern[str]]
    leader: Optional[Pattern[str]]

    def classes(self) -> Tuple[str, ...]: ...
    def classify(self, text: str) -> Optional[Tuple[str, "re.Match[str]"]]: ...
    def take_run(self, run: Run) -> None: ...
    def finish(self) -> None: ...
    def report(self) -> Dict[str, Any]: ...


ProfileFactory = Callable[[Settings, Callable[[Chunk], None], Diagnose, Cap], Profile]


@dataclass(frozen=True)
class ProfileSpec:
    """A registered profile."""

    name: str
    summary: str
    """One line for ``--help``."""
    factory: ProfileFactory
    default_cap: Tuple[str, int]
    """``("estimate" | "chars", limit)`` when no cap is given."""
    options: Tuple[Option, ...] = ()
    """Options of this profile only (``COMMON_OPTIONS`` are everyone's)."""
    check: Optional[Callable[[Dict[str, Any]], None]] = None
    """Raises ``ConfigError`` for option values the profile cannot work with."""


_REGISTRY: Dict[str, ProfileSpec] = {}
BUILTIN = ("stream_chunker._policy", "stream_chunker._statute")
"""The profiles shipped here, in the order ``--help`` lists them."""


def register(spec: ProfileSpec) -> None:
    _REGISTRY[spec.name] = spec


def profiles() -> Dict[str, ProfileSpec]:
    """Every registered profile, by name."""
    for module in BUILTIN:
        importlib.import_module(module)
    return _REGISTRY


class BaseProfile:
    """What every profile shares: classification, counts, pages and clause ends."""

    RULES: Sequence[Rule] = ()
    special: Tuple[Pattern[str], Pattern[str]]
    """Finds the lines that may be anything but body text (see ``_cutter.special_lines``)."""
    leader: Optional[Pattern[str]] = None
    """Matches inside such lines that ``special`` cannot tell from their start."""

    def __init__(self, settings: Settings, emit: Callable[[Chunk], None], diagnose: Diagnose, cap: Cap) -> None:
        self.settings = settings
        self.emit = emit
        self.diagnose = diagnose
        self.cap = cap
        self.counts: Dict[str, int] = {}
        self._bound = settings.max_paragraph_chars

    def classes(self) -> Tuple[str, ...]:
        """The classes of line this profile makes."""
        return (BLANK, TEXT, PAGE_BREAK) + tuple(name for name, _, _ in self.RULES)

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

    def last_line(self) -> str:
        """The last body line taken, or ``""`` after a break."""
        raise NotImplementedError

    # -- actions and conditions every profile has -------------------------------
    def turn_page(self, rec: Line) -> None:
        """Pages are carried on every record; the break itself only moves the state."""

    def continues_across_page(self, rec: Line) -> bool:
        """The first body line of a page continues the paragraph the last page
        left open, unless that paragraph had reached the end of a sentence and
        this line starts a new one."""
        last = self.last_line()
        if not last:
            return False
        return not (ends_sentence(last) and not first_letter(rec.text).islower())

    def follows_clause_end(self, rec: Line) -> bool:
        """The line before could end a clause, so what may start one may follow it."""
        return ends_clause(self.last_line())

    def open_paragraph(self, rec: Line) -> None:
        raise NotImplementedError

    def end_paragraph(self, rec: Optional[Line] = None) -> None:
        raise NotImplementedError

    def take_run(self, run: Run) -> None:
        """Body paragraphs, each after blank lines, while a paragraph is open:
        what ``end_paragraph`` then ``open_paragraph`` do for each, which a
        profile may do faster."""
        for line in run.lines():
            self.end_paragraph(line)
            self.open_paragraph(line)

    def finish(self) -> None:
        """End of input."""
        raise NotImplementedError

    def report(self) -> Dict[str, Any]:
        """The profile's part of the end-of-run report."""
        return {"contents": {}}


_EMPTY = -1
"""The size of an empty paragraph: its first line adds no joining space, so
every line can add one."""


_NO_LINE = Line(0, 0, "", 0, TEXT)


class ParagraphProfile(BaseProfile):
    """A profile whose body text is paragraphs: lines joined by spaces until a
    blank line, bounded by ``max_paragraph_chars``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._para: List[str] = []
        self._para_first = self._para_last = _NO_LINE
        self._para_chars = _EMPTY  # characters of the open paragraph, joining spaces included
        self._para_cut = False  # the open paragraph continues one the hard bound cut

    def continue_paragraph(self, rec: Line) -> None:
        text = rec.text
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

    def _cut_into(self, rec: Line) -> None:
        """The paragraph would pass its hard bound: fill it up to the bound
        between words, let it go, and go on with the rest."""
        text = rec.text
        room = self._bound - self._para_chars - 1
        cut = max(text.rfind("\n", 0, room + 1), text.rfind(" ", 0, room + 1))
        if cut <= 0:
            # No space in the room left: the line starts the next paragraph
            # whole, unless it is alone and one word longer than the bound.
            cut = 0 if self._para else max(room, 1)
        head, tail = text[:cut], text[cut:]
        if head.strip():
            if not self._para:
                self._para_first = rec
            self._para.append(head)
            # It ends on its last line with text (a cut in the next line's
            # indent leaves it nothing of that line).
            self._para_last = rec._replace(text=head, last=rec.first + head.rstrip().count("\n"))
        if self._para:
            self._close_paragraph(cut=True)
        split_line = rec.first + head.count("\n")
        if tail.startswith("\n"):
            split_line += 1
        if tail.strip():
            self.continue_paragraph(rec._replace(first=split_line, text=tail.strip("\n")))

    def open_paragraph(self, rec: Line) -> None:
        if self._para:
            self._close_paragraph()
        self._para_cut = False
        self.continue_paragraph(rec)

    def end_paragraph(self, rec: Optional[Line] = None) -> None:
        if self._para:
            self._close_paragraph()
        self._para_cut = False

    def take_run(self, run: Run) -> None:
        # Every paragraph but the last is whole: it goes straight to
        # ``take_paragraph`` unless it needs the hard bound.
        self.end_paragraph()
        page = (run.page, run.page)
        *whole, last = run.spans
        for span in whole:
            if len(span.text) <= self._bound:
                text, words = single_spaced(span.text)
                self.take_paragraph(text, words, (span.first, span.last), page, False)
            else:
                self.continue_paragraph(Line(span.first, run.page, span.text, span.last, TEXT, None, True))
                self.end_paragraph()
        self.continue_paragraph(new(Line, (last.first, run.page, last.text, last.last, TEXT, None, True, False)))

    def _close_paragraph(self, cut: bool = False) -> None:
        text, words = single_spaced(" ".join(self._para))
        first, last = self._para_first, self._para_last
        self._para = []
        self._para_chars = _EMPTY
        if cut:
            self.diagnose("paragraph_cut", last.last, bound=self._bound)
            self.count("paragraphs_cut")
        self.take_paragraph(text, words, (first.first, last.last), (first.page, last.page), cut or self._para_cut)
        self._para_cut = cut

    def last_line(self) -> str:
        if not self._para:
            return ""
        last = self._para[-1]
        return last[last.rfind("\n") + 1:].strip()

    def take_paragraph(self, text: str, words: int, lines: Tuple[int, int], pages: Tuple[int, int],
                       cut: bool) -> None:
        """A finished paragraph: its single-spaced text and where it came from."""
        raise NotImplementedError


ProfileType = Type[BaseProfile]

"""Profiles: what a profile is, what every profile shares, and where they are registered.

A profile reads one kind of document (numbered policy wordings, labelled code
sections). It is the model of the reader's state machine: it classifies lines
by an ordered table of rules, and does the actions and answers the conditions
that the machine's table names for the lines it can make (``core.machine.reachable``):
nothing more, so a profile carries no stubs for another's lines. It hands its
text to the one packer (``core.packing``) as nodes and parts.

A profile is one module that calls :func:`register` with a :class:`ProfileSpec`;
``BUILTIN`` names the modules shipped here. The engine, the command line's
``--profile`` choices and flags, and the report all read the registry.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Pattern, Protocol, Sequence, Tuple

from ..core.chunk import Chunk
from ..core.layout import Layout
from ..core.packing import Cap
from ..core.records import BLANK, PAGE_BREAK, TEXT, Line, Run
from ..core.text import ends_clause, ends_sentence, first_letter

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
    Option("hard_max_tokens", "a hard limit at or above the cap, measured as the cap is: a paragraph over it is "
                              "cut at sentence ends, then between words (oversize: split); none by default", None,
           int),
)


@dataclass
class Settings:
    """Options resolved and checked once, shared by the engine's parts."""

    profile: str
    cap_unit: str
    cap: int
    max_paragraph_chars: int
    profile_options: Dict[str, Any] = field(default_factory=dict)
    hard_max_tokens: Optional[int] = None
    """A paragraph over this is cut into pieces under it (``core.hard_limit``); None: none."""


class Profile(Protocol):
    """What the engine asks of every profile (the machine's table adds the
    actions and conditions of the line classes it makes)."""

    counts: Dict[str, int]
    special: Tuple[Pattern[str], Pattern[str]]
    leader: Optional[Pattern[str]]
    layout: Optional[Layout]

    def classes(self) -> Tuple[str, ...]: ...
    def classify(self, text: str) -> Optional[Tuple[str, "re.Match[str]"]]: ...
    def yields_to_layout(self, found: Tuple[str, "re.Match[str]"]) -> bool: ...
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
    signature: Optional[Pattern[str]] = None
    """Lines (stripped) that documents of this kind print and others do not:
    how ``profile="auto"`` picks a profile and a wrong one is noticed (``engine.sniff``)."""


_REGISTRY: Dict[str, ProfileSpec] = {}
BUILTIN = ("stream_chunker.profiles.policy.profile", "stream_chunker.profiles.statute.profile")
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
    """Finds the lines that may be anything but body text (see
    ``core.stages.cutter.special_lines``). The cutter reads it for each block of text, so
    a profile may narrow it once it knows that lines of some shapes can only be
    text from now on."""
    leader: Optional[Pattern[str]] = None
    """Matches inside such lines that ``special`` cannot tell from their start."""

    def __init__(self, settings: Settings, emit: Callable[[Chunk], None], diagnose: Diagnose, cap: Cap) -> None:
        self.settings = settings
        self.emit = emit
        self.diagnose = diagnose
        self.cap = cap
        self.counts: Dict[str, int] = {}
        self._bound = settings.max_paragraph_chars
        self.layout: Optional[Layout] = None  # a PDF's layout, where the driver reads one and the profile uses it

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

    def yields_to_layout(self, found: Tuple[str, "re.Match[str]"]) -> bool:
        """A line a rule took (``classify``) that a PDF's layout, where it sets
        the line above the body, makes a styled line instead: none here."""
        return False

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def in_heading(self, text: str, n: int = 1) -> None:
        """``text`` is read as a heading or label, into heading paths and clauses
        rather than any chunk's text (``n=-1``: given back to the text). The
        report accounts for every word read by such counts (``words_elsewhere``)."""
        self.count("heading_words", n * len(text.split()))

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

    def heading_licensed(self, rec: Line) -> bool:
        """A heading may follow a line of text (the policy profile asks more)."""
        return True

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

"""The statute profile: code sections cut into subsections by their labels.

Every piece is source lines joined by single spaces, so each piece's text can
be found verbatim in the source. The unit is a top-level subsection: one that
fits the cap is one piece; one that does not is cut at its own nested labels
(each nested item a piece, recursively), and only an item whose own lines still
do not fit is cut at the cap, at line boundaries (see ``core.packing``). Text before
the first label is a group of its own.

Ids: ``{code}-C-{section}-{label path}`` (``MD-C-16-112-a``), where the section
keeps ``[A-Za-z0-9.]`` and runs of anything else become ``-``, and inside one
label anything else becomes ``_`` (so ``(a-1)`` is ``a_1`` and never ``(a)(1)``,
which is ``a-1``). A continuation piece adds ``-p2``, ``-p3``; text before the
first label is ``-p1``, ``-p2``. A section number that already produced chunks
gets ``~2``, ``~3`` after its section part. Without a ``code`` the id starts
at the section.

Notes (the spec is silent on them): codes print editorial matter after a
section's text -- DC's ``Notes`` then ``History: ...`` lines, the US Code's
source credit ``(Aug. 29, 1935, ch. 814, ...)`` then ``AMENDMENTS`` and the
like. From such a line to the next section line the text is the section's
notes: a group of its own, ``{section}-notes`` (``-notes-p2`` ...), cited as
the section with ``, notes``, and never cut by labels, so that the history of
a section does not end up quoted as the text of its last subsection.

Divisions (``CHAPTER``, ``SUBCHAPTER`` ... above the sections, see ``profiles.statute.codes``)
head the ``heading_path`` of every section under them; the text between a
division line and the next section (a chapter's notes, its list of sections)
is the division's own group, ``{code}-C-CHAPTER-8-p1``, cited to no section.

Why one module of this length: every action reads the same state -- the open
section and divisions, the label stack, whether the notes began, the line a
soft hyphen or a catchline left open -- and the shapes of the lines it acts
on are already apart, in ``profiles.statute.codes`` and ``profiles.labels``.
"""

from __future__ import annotations

import re
import string
from typing import Any, Callable, Dict, List, Optional, Tuple

from ...core.chunk import Chunk
from ...core.errors import ConfigError
from ...core.packing import Cap, Key, Packer, UniqueIds
from ...core.records import HEADING, LABEL, Line
from ...core.stages.cutter import special_lines
from ...core.text import ends_clause, join_soft_hyphens, single_spaced, title_case
from ..base import BaseProfile, Diagnose, Option, ProfileSpec, Settings, register
from ..labels import LABEL_LINE, Level, place_chain
from .codes import (BANNER, DIVISION_WORDS, DIVISIONS, NOTES_LINE, RANGE_LABELS, SIGNATURE, catchline, label_range,
                     section_pattern)

_UNSAFE_IN_SECTION = re.compile(r"[^A-Za-z0-9.]+")
_UNSAFE_IN_LABEL = re.compile(r"[^A-Za-z0-9.]")
NOTES = "notes"
"""The path of a section's notes, in place of a label path."""


def chunk_id(key: Key, n: int, only: bool) -> str:
    """The first piece of a labelled item is cited by its path; further pieces,
    and all pieces of text before the first label, add ``-p2``, ``-p1`` ..."""
    return key.base if key.labelled and n == 1 else f"{key.base}-p{n}"


class StatuteProfile(BaseProfile):
    """Code sections and their labelled subsections."""

    def __init__(self, settings: Settings, emit: Callable[[Chunk], None], diagnose: Diagnose, cap: Cap) -> None:
        super().__init__(settings, emit, diagnose, cap)
        opts = self.settings.profile_options
        self.code: Optional[str] = opts.get("code")
        self.cite_template: str = opts.get("cite") or "\u00a7 {section}"
        self.as_of: Optional[str] = opts.get("as_of")
        prefix = opts.get("section_prefix")
        self._section_line = section_pattern(prefix)
        leads = (rf"[(\u00a7]|\d|[A-Z]\.|[IVXLC]{{2,6}}\.|Sec|SEC|(?:{DIVISION_WORDS})[ \t]"
                 + (f"|{re.escape(prefix)}" if prefix else ""))
        self.special = special_lines(leads)
        self.RULES = (
            (HEADING, lambda t: True, self._section_line),
            (LABEL, lambda t: True, LABEL_LINE),
        )
        self.packer = Packer(self.cap, self.emit, " ", chunk_id)
        self._ids = UniqueIds()
        self.section: Optional[str] = None
        self.heading = ""
        self._section_id = ""
        self._stack: List[Level] = []
        self._path: Optional[Tuple[str, ...]] = None  # the open item's label path; None before any text
        self._in_notes = False  # the section's text is over; its notes are being collected
        self._last = ""  # the last body line taken
        self._placed: Optional[List[Level]] = None  # where the last label-shaped line goes
        self._broken: Optional[Line] = None  # a line that ended in a soft hyphen: its word goes on
        self._divisions: List[Tuple[int, str, str]] = []  # the open divisions: rank, id part, heading
        self._wraps = ""  # what the line after a section or division line may go on with: "catchline", "division"
        self._ranged = False  # the last label-shaped line was a range, "(a) to (d) Omitted"
        self._whole = False  # the last line taken was such a range: it ends its item
        if opts.get("section"):
            self._start_section(str(opts["section"]), opts.get("heading") or "")

    # -- sections ------------------------------------------------------------
    def opens_section(self, rec: Line) -> bool:
        """Every section line opens a section, except, in a section's notes, one
        whose number is followed by lower case: a reference in the notes'
        prose ("Section 14 of D.C. Law 14-235 provided ..."). A division line
        (``CHAPTER 8\u2014FEDERAL ALCOHOL ADMINISTRATION ACT``) opens one where
        a label could, and when its name is in capitals or Title Case."""
        m = rec.match
        assert m is not None
        if m["division"] is not None:
            name = m["dname"]
            return name.isupper() or title_case(name.rstrip("."))
        return not self._in_notes or m["colorado"] is not None or not m["rest"][:1].islower()

    def reject_heading(self, rec: Line) -> None:
        """A reference in the notes: it stays notes text, nothing to report."""

    def open_section(self, rec: Line) -> None:
        m = rec.match
        assert m is not None
        if m["division"] is not None:
            self._open_division(m)
            return
        number = m["num"] or m["range"] or m["colorado"]
        rest = m["rest"] if m["colorado"] is None else m["crest"]
        title, body = catchline(rest)
        if self.section is not None and number == self.section and not title and self._path is None:
            self._own_number_line(rec.first, rec.text)  # "§16-112." under its own given section
            return
        self._start_section(number, title or (self.heading if number == self.section else ""))
        self.in_heading(rec.text)
        if body:
            self.in_heading(body, -1)
            self._take_line(Line(rec.first, rec.page, body, rec.first, HEADING))
        elif title and not rest.rstrip().endswith("."):
            self._wraps = "catchline"  # the US Code prints catchlines without a stop: one may wrap

    def heading_licensed(self, rec: Line) -> bool:
        """A section line always opens; a division line right after text only
        where its name is in capitals or that text could end a clause."""
        m = rec.match
        assert m is not None
        return m["division"] is None or m["dname"].isupper() or ends_clause(self._last)

    def _open_division(self, m: "re.Match[str]") -> None:
        """A division closes the section and every division of its rank or
        below; the text after it, up to the next section (a chapter's notes,
        its list of sections), is the division's own group."""
        word = m["division"].upper()
        rank = DIVISIONS.index(word)
        while self._divisions and self._divisions[-1][0] >= rank:
            self._divisions.pop()
        heading = f"{m['division']} {m['dvalue']}{m[0][m.end('dvalue'):m.start('dname')]}{m['dname']}".rstrip(" .")
        self._divisions.append((rank, f"{word}-{m['dvalue']}", heading))
        self.in_heading(m[0])
        self._start_section(None, "")
        # A long name may have wrapped: a short line in capitals after it goes on with it.
        self._wraps = "division" if len(m[0]) >= 40 else ""

    def _division_path(self) -> str:
        return " > ".join(heading for _, _, heading in self._divisions)

    def _start_section(self, number: Optional[str], heading: str) -> None:
        self.packer.close()
        if number is not None:
            self.count("sections")
        self.section = number
        self.heading = heading
        self._wraps = ""
        self._section_id = ""
        self._stack = []
        self._path = None
        self._in_notes = False
        self._last = ""

    def _own_number_line(self, line: int, text: str) -> None:
        self.count("own_number_lines")
        self.diagnose("own_number_line", line, text=text)

    def continues_heading(self, rec: Line) -> bool:
        """A catchline goes on on a line in lower case (``\u00a7121. State
        statutes as operative on termination of transportation; original`` ⏎
        ``packages``); a long division name on a short line in capitals with no
        punctuation (``CHAPTER 2A\u2014BEER, ALE, PORTER, AND SIMILAR FERMENTED``
        ⏎ ``LIQUOR``)."""
        wraps = self._wraps
        if not wraps:
            return False
        line = rec.text.split("\n", 1)[0].strip()
        if wraps == "catchline":
            return line[:1].islower()
        return line.isupper() and len(line.split()) <= 4 and not re.search(r"[^\w\s\u2019'-]", line)

    def continue_heading(self, rec: Line) -> None:
        first, _, rest = rec.text.partition("\n")
        self.in_heading(first)
        if self._wraps == "catchline":
            self.heading += " " + first.strip()
        else:
            rank, part, heading = self._divisions[-1]
            self._divisions[-1] = (rank, part, f"{heading} {first.strip()}")
        self._wraps = ""
        if rest:
            self.continue_paragraph(rec._replace(first=rec.first + 1, text=rest))

    # -- labels --------------------------------------------------------------
    def opens_label(self, rec: Line) -> bool:
        opens = self.section is not None and not self._in_notes
        assert rec.match is not None
        placed = self._placed = place_chain(self._stack, rec.match) if opens else None
        self._ranged = False
        if placed is not None and rec.text[0] == "(":
            m = RANGE_LABELS.match(rec.text)
            if m is not None:
                self._placed = placed[:-1] + [label_range(placed[-1], m)]
                self._ranged = True
        return self._placed is not None

    def follows_clause_end(self, rec: Line) -> bool:
        return self._whole or ends_clause(self._last)

    def open_label(self, rec: Line) -> None:
        stack = self._placed
        assert stack is not None
        kept = 0
        while kept < min(len(stack) - 1, len(self._stack)) and stack[kept] == self._stack[kept]:
            kept += 1
        self._stack = stack
        path = tuple(level.printed for level in stack)
        for depth in range(kept, len(path)):  # a chain like (a)(1) opens every level it names
            self._open(depth, path[: depth + 1])
        self._take_line(rec)
        self._whole = self._ranged  # "(a) to (d) Omitted" is whole: the next label may follow it

    def reject_label(self, rec: Line) -> None:
        if self._in_notes or self.section is None:
            return  # notes quote amended text, labels and all; a division lists its sections
        self.count("labels_rejected")
        self.diagnose("ambiguous_label", rec.first, text=rec.text)

    def _open(self, depth: int, path: Tuple[str, ...]) -> None:
        """An item (or the text before the first label, or the notes) opens."""
        if not self._section_id:
            name = self.section or "-".join(part for _, part, _ in self._divisions) or "front"
            number = _UNSAFE_IN_SECTION.sub("-", name).strip("-")
            part = self._ids.unique(number)
            self._section_id = f"{self.code}-C-{part}" if self.code else part
        base = self._section_id
        if path:
            base += "-" + "-".join(_UNSAFE_IN_LABEL.sub("_", label) for label in path)
        cite = None
        clause = None
        if self.section is not None:
            notes = path == (NOTES,)
            labels = "" if notes else "".join(f"({label})" for label in path)
            clause = self.section + labels
            cite = self.cite_template.format(section=self.section, as_of=self.as_of or "", code=self.code or "")
            cite += ", notes" if notes else labels
        heading = self.heading
        if self._divisions:
            heading = self._division_path() + (" > " + heading if heading else "")
        self.packer.open(depth, Key(base, clause, heading, cite, bool(path)))
        self._path = path

    # -- text ----------------------------------------------------------------
    def continue_paragraph(self, rec: Line) -> None:
        text = rec.text
        if "\n" in text:
            line = rec.first
            for piece in text.split("\n"):
                piece = piece.strip()
                if piece:
                    self._take_line(Line(line, rec.page, piece, line, rec.cls, None, False, rec.cut))
                line += 1
        else:
            self._take_line(rec)

    def open_paragraph(self, rec: Line) -> None:
        self.continue_paragraph(rec)

    def end_paragraph(self, rec: Optional[Line] = None) -> None:
        self._last = ""  # a blank line licenses the next label anyway

    def _take_line(self, rec: Line) -> None:
        self._wraps = ""
        self._whole = False
        text, words = single_spaced(rec.text)
        first_page = rec.page
        if "\u00ad" in text or self._broken is not None:
            broken, self._broken = self._broken, None
            if broken is not None:  # the word a soft hyphen broke goes on here
                text, rec, first_page = broken.text + text, rec._replace(first=broken.first), broken.page
            if text.endswith("\u00ad"):
                self._broken = rec._replace(text=text)
                return
            text, joined = join_soft_hyphens(text)
            words = len(text.split())
            if joined or broken is not None:
                self.count("soft_hyphens", joined + (broken is not None))
        if self._path is None:  # nothing of this section's text yet: a banner may still come
            if BANNER.match(text):
                self.count("banner_lines")
                self.diagnose("banner_line", rec.first, text=text)
                return
            if self.section and text.rstrip(".").lstrip("\u00a7 ") == self.section:
                self._own_number_line(rec.first, text)
                return
        if not self._in_notes and self.section is not None and NOTES_LINE.match(text) \
                and (text[0] != "(" or ends_clause(self._last) or not self._last):
            self._in_notes = True
            self._stack = []
            self._open(0, (NOTES,))
        if self._path is None:
            self._open(0, ())
        self.packer.add(text, words, (rec.first, rec.last), (first_page, rec.page), rec.cut)
        self._last = text

    def last_line(self) -> str:
        return self._last

    def finish(self) -> None:
        if self._broken is not None:  # a soft hyphen at the very end: the word ends there
            broken, self._broken = self._broken, None
            self._take_line(broken._replace(text=broken.text.rstrip("\u00ad")))
        self.packer.close()


def _check(options: Dict[str, Any]) -> None:
    """A cite template fills from the options: it uses ``{section}``, and
    ``{as_of}`` and ``{code}`` only when ``as_of`` and ``code`` are given
    (they would print nothing, or worse); each field by its name alone --
    ``{section.__class__}`` would print Python's insides.

    >>> _check({"cite": "Md. Code § {section}, as of {as_of}"})
    Traceback (most recent call last):
    ...
    stream_chunker.core.errors.ConfigError: cite template 'Md. Code § {section}, as of {as_of}' uses {as_of}, which needs --as-of (as_of=)
    """
    cite = options.get("cite")
    if cite is None:
        return
    needs = {"section": None, "as_of": "as_of", "code": "code"}

    def fields(template: str) -> List[str]:
        found = []
        for _, name, spec, _ in string.Formatter().parse(template):
            if name is not None:
                found.append(name)
                found += fields(spec or "")  # "{section:>{code}}" fills from a field too
        return found

    def refuse(why: str) -> ConfigError:
        return ConfigError(f"cite template {cite!r} {why}")

    try:
        used = fields(cite)
    except ValueError as err:
        raise refuse(f"does not parse ({err}); it may use {{section}}, {{as_of}} and {{code}}") from None
    for name in used:
        if name not in needs:
            raise refuse(f"uses {{{name}}}: a field is one of {{section}}, {{as_of}} and {{code}}, by its name "
                         "alone")
        option = needs[name]
        if option is not None and options.get(option) is None:
            raise refuse(f"uses {{{name}}}, which needs --{option.replace('_', '-')} ({option}=)")
    if "section" not in used:
        raise refuse("has no {section}: each citation names its section")
    try:
        cite.format(section="16-112", as_of="2026-01-01", code="MD")
    except ValueError as err:  # a format spec that does not apply to text, "{section:d}"
        raise refuse(f"does not work ({err})") from None


register(ProfileSpec(
    name="statute",
    summary="labelled subsections of a code: \u00a7 28-873(A)(5)",
    factory=StatuteProfile,
    default_cap=("chars", 900),
    options=(
        Option("code", "code name for ids, e.g. MD"),
        Option("cite", "citation template with {section}, e.g. 'Md. Code, Transp. \u00a7 {section}'"),
        Option("section_prefix", "a section marker of your code, e.g. NRS"),
        Option("section", "the input is this one section, with no section line of its own"),
        Option("heading", "that section's catchline"),
        Option("as_of", "date the text is current to (usable in the cite template as {as_of})"),
    ),
    check=_check,
    signature=SIGNATURE,
))

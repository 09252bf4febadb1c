"""The statute profile: code sections cut into subsections by their labels.

Every piece is source lines joined by single spaces, so each piece's text can
be found verbatim in the source. The unit is a top-level subsection: one that
fits the cap is one piece; one that does not is cut at its own nested labels
(each nested item a piece, recursively), and only an item whose own lines still
do not fit is cut at the cap, at line boundaries. Text before the first label
is a group of its own.

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
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any, Dict, List, Optional, Tuple

from ._chunk import Chunk, Oversize, estimate_tokens
from ._labels import LABEL_LINE, Level, place_chain
from ._layout import Layout, Record, single_spaced
from ._packing import Cap
from ._scan import special_lines

_NUMBER = r"\d+[A-Za-z]?(?:[-.:]\d+[A-Za-z]?)*"
_RANGE = rf"{_NUMBER}(?:\s*(?:,|to|through|and)\s*{_NUMBER})*"
_CLAUSE_END = re.compile(r"(?:[.:;\u2014\-\u201d)]|[;,] (?:or|and))[\"'\u2019]*$")
_BANNER = re.compile(r"[A-Z][A-Za-z]+ [\u2013\u2014-] [A-Z][^.;:,]*$")
_UNSAFE_IN_SECTION = re.compile(r"[^A-Za-z0-9.]+")
_UNSAFE_IN_LABEL = re.compile(r"[^A-Za-z0-9.]")
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
NOTES = "notes"
"""The path of a section's notes, in place of a label path."""

MAX_SECTION_IDS = 65536
"""Section numbers remembered to give a repeated section its ``~2``."""


def section_pattern(prefix: Optional[str]) -> "re.Pattern[str]":
    """A section line: marker, number, ``.`` or space, catchline; or, with no
    marker, a Colorado-style number of three or more hyphenated parts."""
    markers = [r"\u00a7(?!\u00a7)", r"Sec\.", r"SEC\.", r"Section"] + ([re.escape(prefix)] if prefix else [])
    return re.compile(
        rf"(?:(?:{'|'.join(markers)})\s*(?P<num>{_NUMBER})|\u00a7\u00a7\s*(?P<range>{_RANGE}))(?:\.\s*|\s+|$)(?P<rest>.*)"
        rf"|(?P<colorado>\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?){{2,}})\.\s+(?P<crest>[A-Z].*)"
    )


def catchline(rest: str) -> Tuple[str, str]:
    """A section line's text cut at its first full stop: the catchline, and what
    follows it on the line (Nevada prints ``Definitions. As used in ...``).

    >>> catchline("Definitions. As used in this chapter:")
    ('Definitions', 'As used in this chapter:')
    """
    m = re.search(r"\.(?:\s+|$)", rest)
    if m is None:
        return rest.strip(), ""
    return rest[: m.start()].strip(), rest[m.end():].strip()


class _Node:
    """A labelled item being collected: its label path and its own lines."""

    __slots__ = ("path", "lines", "children")

    def __init__(self, path: Tuple[str, ...]) -> None:
        self.path = path
        self.lines: List[Tuple[int, int, str]] = []
        self.children: List["_Node"] = []


class StatuteLayout(Layout):
    """Code sections and their labelled subsections."""

    def __init__(self, *args: Any, cap: Cap, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        opts = self.settings.profile_options
        self.cap = cap
        self.code: Optional[str] = opts.get("code")
        self.cite_template: str = opts.get("cite") or "\u00a7 {section}"
        self.as_of: Optional[str] = opts.get("as_of")
        prefix = opts.get("section_prefix")
        self._section_line = section_pattern(prefix)
        leads = r"[(\u00a7]|\d|[A-Z]\.|[IVXLC]{2,6}\.|Sec|SEC" + (f"|{re.escape(prefix)}" if prefix else "")
        self.SPECIAL = special_lines(leads)
        self.RULES = (
            ("heading_line", lambda t: True, self._section_line),
            ("label_line", lambda t: True, LABEL_LINE),
        )
        self._ids: "OrderedDict[str, int]" = OrderedDict()
        self.section: Optional[str] = None
        self.heading = ""
        self._section_id = ""
        self._stack: List[Level] = []
        self._unit: Optional[_Node] = None  # the top-level subsection (or pre-label text) being collected
        self._node: Optional[_Node] = None  # the deepest open item
        self._nodes: Dict[Tuple[str, ...], _Node] = {}
        self._fresh = True  # no body line yet in this section (banners may still come)
        self._in_notes = False  # the section's text is over; its notes are being collected
        self._last = ""  # the last body line taken
        self._pieces: Dict[str, int] = {}
        self._placed: Optional[Tuple[Record, Optional[List[Level]]]] = None
        self._unit_chars = 0
        if opts.get("section"):
            self._start_section(str(opts["section"]), opts.get("heading") or "")

    # -- sections ------------------------------------------------------------
    def opens_section(self, rec: Record) -> bool:
        """Every section line opens a section, except, in a section's notes, one
        whose number is followed by lower case: a reference in the notes'
        prose ("Section 14 of D.C. Law 14-235 provided ...")."""
        m = rec[5]
        return not self._in_notes or m["colorado"] is not None or not m["rest"][:1].islower()

    def reject_heading(self, rec: Record) -> None:
        """A reference in the notes: it stays notes text, nothing to report."""

    def open_section(self, rec: Record) -> None:
        m = rec[5]
        number = m["num"] or m["range"] or m["colorado"]
        title, body = catchline(m["rest"] if m["colorado"] is None else m["crest"])
        if self.section is not None and number == self.section and not title and self._fresh:
            self.count("own_number_lines")  # "§16-112." under its own given section
            self.diagnose("own_number_line", rec[0], text=rec[2])
            return
        self._start_section(number, title or (self.heading if number == self.section else ""))
        if body:
            self._take_line((rec[0], rec[1], body))

    def _start_section(self, number: str, heading: str) -> None:
        self._flush()
        self.count("sections")
        self.section = number
        self.heading = heading
        self._section_id = ""
        self._stack = []
        self._unit = self._node = None
        self._nodes = {}
        self._pieces = {}
        self._fresh = True
        self._in_notes = False
        self._last = ""

    def _id_base(self) -> str:
        """The id's section part, numbered again when the section came before."""
        if not self._section_id:
            number = _UNSAFE_IN_SECTION.sub("-", self.section or "front").strip("-")
            seen = self._ids.get(number, 0) + 1
            self._ids[number] = seen
            self._ids.move_to_end(number)
            if len(self._ids) > MAX_SECTION_IDS:
                self._ids.popitem(last=False)
            part = number if seen == 1 else f"{number}~{seen}"
            self._section_id = f"{self.code}-C-{part}" if self.code else part
        return self._section_id

    def continues_heading(self, rec: Record) -> bool:
        return False

    def continue_heading(self, rec: Record) -> None:
        self.continue_paragraph(rec)

    # -- labels --------------------------------------------------------------
    def _placement(self, rec: Record) -> Optional[List[Level]]:
        # Asked by the reader and again by the trigger: remember the answer.
        if self._placed is None or self._placed[0] is not rec:
            opens = self.section is not None and not self._in_notes
            self._placed = (rec, place_chain(self._stack, rec[5]) if opens else None)
        return self._placed[1]

    def opens_label(self, rec: Record) -> bool:
        return self._placement(rec) is not None

    def follows_clause_end(self, rec: Record) -> bool:
        """The line before could end a clause, so a label may follow it."""
        return _CLAUSE_END.search(self._last) is not None

    def open_label(self, rec: Record) -> None:
        stack = self._placement(rec)
        assert stack is not None
        self._stack = stack
        path = tuple(level.printed for level in stack)
        for depth in range(1, len(path) + 1):
            prefix = path[:depth]
            node = self._nodes.get(prefix) if depth < len(path) else None
            if node is None:  # a chain like (a)(1) opens every level it names
                node = _Node(prefix)
                if depth == 1:
                    self._flush_unit()
                    self._unit = node
                else:
                    self._nodes[path[:depth - 1]].children.append(node)
                self._nodes[prefix] = node
        self._node = node
        self._take_line(rec)

    def reject_label(self, rec: Record) -> None:
        if self._in_notes:
            return  # notes quote amended text, labels and all: nothing ambiguous there
        self.count("labels_rejected")
        self.diagnose("ambiguous_label", rec[0], text=rec[2])

    # -- text ----------------------------------------------------------------
    def continue_paragraph(self, rec: Record) -> None:
        text = rec[2]
        if "\n" in text:
            line = rec[0]
            for part in text.split("\n"):
                part = part.strip()
                if part:
                    self._take_line((line, rec[1], part))
                line += 1
        else:
            self._take_line(rec)

    def open_paragraph(self, rec: Record) -> None:
        self.continue_paragraph(rec)

    def end_paragraph(self, rec: Optional[Record] = None) -> None:
        self._last = ""  # a blank line licenses the next label anyway

    def _take_line(self, rec: Record) -> None:
        text = single_spaced(rec[2])[0]
        if self._fresh and self._node is None:
            if _BANNER.match(text):
                self.count("banner_lines")
                self.diagnose("banner_line", rec[0], text=text)
                return
            if self.section and text.rstrip(".").lstrip("\u00a7 ") == self.section:
                self.count("own_number_lines")
                self.diagnose("own_number_line", rec[0], text=text)
                return
        self._fresh = False
        if not self._in_notes and self.section is not None and NOTES_LINE.match(text) \
                and (text[0] != "(" or _CLAUSE_END.search(self._last) or not self._last):
            self._flush_unit()
            self._in_notes = True
            self._stack = []
            self._node = self._unit = _Node((NOTES,))
            self._nodes = {self._node.path: self._node}
        if self._node is None:
            self._node = self._unit = _Node(())
            self._nodes = {(): self._node}
        self._node.lines.append((rec[0], rec[1], text))
        self._last = text
        self._unit_chars += len(text)
        if self._unit_chars > self._bound:
            # A subsection with no end in sight: let it go now, marked cut,
            # and carry on in the same item.
            path = self._node.path
            self.diagnose("paragraph_cut", rec[0], bound=self._bound)
            self.count("paragraphs_cut")
            self._flush_unit(cut=True)
            self._node = self._unit = _Node(path)
            self._nodes = {path: self._node}

    def last_line(self) -> str:
        return self._last

    # -- pieces --------------------------------------------------------------
    def _flush(self) -> None:
        self._flush_unit()

    def _flush_unit(self, cut: bool = False) -> None:
        unit, self._unit = self._unit, None
        self._node = None
        self._nodes = {}
        self._unit_chars = 0
        if unit is not None:
            for node, lines, oversize in self._pieces_of(unit):
                self._emit_piece(node.path, lines, "cut" if cut else oversize)

    def _size(self, lines: List[Tuple[int, int, str]]) -> int:
        text = " ".join(t for _, _, t in lines)
        return self.cap.size(text, len(text.split()))

    def _all_lines(self, node: _Node) -> List[Tuple[int, int, str]]:
        out = list(node.lines)
        for child in node.children:
            out += self._all_lines(child)
        return out

    def _pieces_of(self, node: _Node):  # type: ignore[no-untyped-def]
        """An item in pieces: whole if it fits; else its own lines (cut at the
        cap) and then each nested item the same way."""
        whole = self._all_lines(node)
        if whole and self._size(whole) <= self.cap.limit:
            yield node, whole, False
            return
        yield from self._cut(node, node.lines)
        for child in node.children:
            yield from self._pieces_of(child)

    def _cut(self, node: _Node, lines: List[Tuple[int, int, str]]):  # type: ignore[no-untyped-def]
        """An item's own lines in pieces of at most the cap, at line boundaries;
        a single line over the cap is kept whole."""
        texts: List[str] = []
        words = size = 0
        start = 0
        for i, (_, _, text) in enumerate(lines):
            text_words = len(text.split())
            text_size = self.cap.size(text, text_words)
            if texts:
                fits, joined = self.cap.joined_fits(texts, words, size, text, text_words, text_size, " ")
                if fits:
                    texts.append(text)
                    words += text_words
                    size = joined
                    continue
                yield node, lines[start:i], ("kept" if size > self.cap.limit else False)
            texts, words, size, start = [text], text_words, text_size, i
        if texts:
            yield node, lines[start:], ("kept" if size > self.cap.limit else False)

    def _emit_piece(self, path: Tuple[str, ...], lines: List[Tuple[int, int, str]], oversize: Oversize) -> None:
        base = self._id_base()
        if path:
            base += "-" + "-".join(_UNSAFE_IN_LABEL.sub("_", label) for label in path)
        n = self._pieces.get(base, 0) + 1
        self._pieces[base] = n
        chunk_id = base if path and n == 1 else f"{base}-p{n}"
        text = " ".join(t for _, _, t in lines)
        words = len(text.split())
        clause = None
        citation = None
        if self.section is not None:
            notes = path == (NOTES,)
            labels = "" if notes else "".join(f"({label})" for label in path)
            clause = self.section + labels
            cite = self.cite_template.format(section=self.section, as_of=self.as_of or "", code=self.code or "")
            citation = f"{cite}{', notes' if notes else labels} \u2014 '{text}'"
        real = self.cap.size(text, words) if self.cap.unit == "real" else None
        self.emit(Chunk(
            id=chunk_id, clause=clause, heading_path=self.heading, text=text, words=words,
            tokens=estimate_tokens(words), real_tokens=real, citation=citation,
            lines=(lines[0][0], lines[-1][0]), pages=(lines[0][1], lines[-1][1]), oversize=oversize,
        ))

    # -- not a statute thing -------------------------------------------------
    def add_contents(self, rec: Record) -> None:
        raise AssertionError("the statute profile classifies no line as contents")

    def is_contents_number(self, rec: Record) -> bool:
        return False

    def hold_contents_number(self, rec: Record) -> None:
        raise AssertionError("the statute profile classifies no line as contents")

    def finish(self) -> None:
        self._flush()

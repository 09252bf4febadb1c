"""The third stage: text whose furniture is decided becomes the reader's records.

Most lines of a document are plain body text that continues a paragraph: they
need no look of their own. One compiled pattern per profile, run over the
whole text released at once, finds the lines that do -- lines that may be
headings, labels, contents entries or page numbers, form feeds, and furniture
-- and passes the plain lines between them on as a *run*: its first paragraph
as one ``Line``, the paragraphs after blank lines, if any, together as one
``Run``. The per-line work of Python is then spent only where the document's
structure may change.

Why one module of this length: the cutter, the pieces of a line longer than
the hard bound (``LongLine``) and the helpers that find lines in a block of
text (``paragraphs_of``, ``line_starts``, ``fragments``) make the same records
from the same released text, and each needs the others' line numbering.
"""

from __future__ import annotations

import re
from typing import Callable, List, Optional, Pattern, Set, Tuple

from ..layout import Layout
from ..records import PAGE_BREAK, STYLED, TEXT, Line, Run, Span, new
from .furniture import PAGE_NUMBER_ANYWHERE, line_form
from .header_blocks import HeaderBlocks
from .zones import before_form_feed

# Lines with something on them, up to a blank line (nothing but whitespace:
# a line of U+00A0 or U+3000 is as blank here as it is to str.strip and the zones).
_PARAGRAPH = re.compile(r"[^\S\n]*\S.*(?:\n[^\S\n]*\S.*)*")
# A line that starts with whitespace (the pattern finds one faster than an
# ``in`` test for each kind of space).
_INDENTED = re.compile(r"\n[^\S\n]")

Classify = Callable[[str], Optional[Tuple[str, "re.Match[str]"]]]
Emit = Callable[[object], None]


def special_lines(leads: str) -> Tuple[Pattern[str], Pattern[str]]:
    """The patterns of lines that need a look of their own -- page numbers, and
    lines that start with what ``leads`` (a regex) allows: one that matches the
    newline before such a line (a literal to search for makes it fast), and one
    for the line at the start of a text."""
    line = (rf"[^\S\n]*(?:{leads}|\[?[^\S\n]*[Pp][Aa][Gg][Ee][^\S\n]+\d"
            rf"|[-\u2013\u2014][^\S\n]*\d+[^\S\n]*[-\u2013\u2014][^\S\n]*\n)")
    return re.compile(rf"\n(?={line})"), re.compile(line)


def paragraphs_of(lines: str, first_line: int) -> List[Span]:
    r"""The paragraphs in ``lines`` (complete lines but for the last line end,
    the first numbered ``first_line``): one ``Span`` for each stretch of lines
    between blank ones (nothing but whitespace), each line without the
    whitespace around it -- so that what a paragraph holds, and where the hard
    bound cuts it, does not depend on how its lines were indented or on which
    record they came in.

    >>> paragraphs_of("\nOne\ntwo\n\n\nThree\n", 10)
    [Span(first=11, last=12, text='One\ntwo'), Span(first=15, last=15, text='Three')]
    >>> paragraphs_of("  One \n\u00a0\n\tTwo", 1)
    [Span(first=1, last=1, text='One'), Span(first=3, last=3, text='Two')]
    """
    out: List[Span] = []
    if (lines[:1] not in ("", "\n") and lines[:1].isspace()) or _INDENTED.search(lines) \
            or " \n" in lines or "\t" in lines or lines[-1:] == " ":
        # Lines with whitespace around them, or blank with it: let the pattern
        # tell. Any tab sends a text here, as a search for one character is a
        # tenth of the cost of a search for a tab before a line end.
        line, pos = first_line, 0
        for m in _PARAGRAPH.finditer(lines):
            line += lines.count("\n", pos, m.start())
            raw = m.group()
            text = "\n".join([part.strip() for part in raw.split("\n")])
            out.append(new(Span, (line, line + raw.count("\n"), text)))
            pos = m.start()
        return out
    # Otherwise only empty lines are blank, and splitting at them is fastest.
    line = first_line
    for part in lines.rstrip("\n").split("\n\n"):
        text = part.lstrip("\n")
        newlines = part.count("\n")
        if text:
            out.append(new(Span, (line + len(part) - len(text), line + newlines, text)))
        line += newlines + 2
    return out


def line_starts(text: str, numbers: List[int]) -> List[int]:
    r"""Where lines ``numbers`` (ascending, from 1) of ``text`` start.

    >>> line_starts("a\nbb\nc\n", [2, 3])
    [2, 5]
    """
    out: List[int] = []
    line, pos = 1, 0
    for number in numbers:
        while line < number and pos >= 0:
            pos = text.find("\n", pos) + 1 or -1
            line += 1
        if pos < 0 or pos >= len(text):
            break
        out.append(pos)
    return out


_STYLED: Tuple[str, Optional["re.Match[str]"]] = (STYLED, None)
"""The class of a line that no rule takes but the layout marks: the profile judges it."""


def fragments(line: str, bound: int) -> List[str]:
    """An over-long line cut into pieces of at most ``bound`` characters, at a
    space where there is one.

    >>> fragments("aaa bbb ccc", 5)
    ['aaa ', 'bbb ', 'ccc']
    """
    out = []
    while len(line) > bound:
        cut = line.rfind(" ", 0, bound) + 1 or bound
        out.append(line[:cut])
        line = line[cut:]
    out.append(line)
    return out


class RecordCutter:
    """Turns released text into records for ``emit``; furniture lines go to
    ``drop`` instead."""

    def __init__(self, special: Callable[[], Tuple[Pattern[str], Pattern[str]]], leader: Optional[Pattern[str]],
                 classify: Classify, emit: Emit, drop: Callable[[Line], None], bound: int,
                 diagnose: Callable[..., None], layout: Optional[Layout] = None,
                 yields: Optional[Callable[[Tuple[str, "re.Match[str]"]], bool]] = None) -> None:
        self._layout = layout  # lines a PDF's layout marks stand out: each needs a look of its own
        self._special = special  # the newline before a line that needs a look, and a text's first line
        self._leader = leader  # matches inside such lines that ``special`` cannot see from their start
        self._classify = classify
        self._yields = yields  # a class the layout's mark outranks (``_styled_or_classified``)
        self._emit = emit
        self._drop = drop
        self._bound = bound
        self.words_cut = 0  # words longer than the bound, cut in two where a fragment ends (each one word more)
        self._diagnose = diagnose
        self._blank = False  # blank lines came since the last record
        self.line_no = 0  # lines passed on so far
        self.page = 1
        self.text_page = 0  # the page of the last line with text (pdftotext ends with a form feed)
        self._long: Optional[LongLine] = None
        self._header_blocks = HeaderBlocks()  # a page's header lines below its zone

    # -- text released by the zones ------------------------------------------------
    def take(self, text: str, furniture: Set[int], after: str = "") -> None:
        """Complete lines, with the keys of the furniture among them, and the
        line after them (which comes with the next text)."""
        special, first = self._special()  # asked for each block: the profile may narrow it as it reads
        starts = [m.start() + 1 for m in special.finditer(text)]
        if first.match(text):
            starts.insert(0, 0)
        # Furniture lines are cut out of the runs (a line that is not stays in
        # its run, whatever zone it stands in).
        pages: List[int] = []  # where the lines with a form feed start
        if "\f" in text:
            ff = text.find("\f")
            while ff >= 0:
                pages.append(text.rfind("\n", 0, ff) + 1)
                ff = text.find("\f", text.index("\n", ff))
        if pages or self._header_blocks.looking:
            block = self._header_blocks.furniture_in(text, furniture, pages)
            if block:
                furniture = furniture.union(block)
        extra: Set[int] = {key for key in furniture if key >= 0}
        extra.update(pages)
        if self._leader is not None:
            extra.update(text.rfind("\n", 0, m.start()) + 1 for m in self._leader.finditer(text))
        if self._layout is not None:
            self._layout.note_text(self.line_no + 1, text, lambda line: self._classify(line) is not None, furniture,
                                   after)
        layout = self._layout if self._layout is not None and self._layout.pending else None
        if layout is not None:  # (text without a layout has no marks: no look for them)
            marked = layout.marked(self.line_no + 1, self.line_no + text.count("\n"))
            if marked:
                extra.update(line_starts(text, [line - self.line_no for line in marked]))
        if extra:
            starts = sorted(extra.union(starts))
        line_no = self.line_no
        classify = self._classify
        pos = 0
        for start in starts:
            if start > pos:
                line_no = self._run(text, pos, start, line_no)
            stop = text.index("\n", start)
            line_no += 1
            raw = text[start:stop]
            pos = stop + 1
            if "\f" in raw:
                self._page_line(raw, line_no, start in furniture, before_form_feed(start) in furniture)
                continue
            line = raw.strip()
            if not line:
                self._blank = True
                continue
            self.text_page = self.page
            if start in furniture or PAGE_NUMBER_ANYWHERE.match(line):
                self._drop(new(Line, (line_no, self.page, line, line_no, TEXT, None, False, False)))
            else:
                found = classify(line) if layout is None else self._styled_or_classified(line, line_no)
                if found is None:
                    self._emit(new(Line, (line_no, self.page, line, line_no, TEXT, None, self._blank, False)))
                else:
                    self._emit(new(Line, (line_no, self.page, line, line_no, found[0], found[1], self._blank, False)))
                self._blank = False
        if pos < len(text):
            line_no = self._run(text, pos, len(text), line_no)
        self.line_no = line_no
        if layout is not None:
            layout.forget(line_no)

    def _styled_or_classified(self, text: str, line_no: int) -> Optional[Tuple[str, Optional["re.Match[str]"]]]:
        """The class the profile gives a line, or ``styled_line`` for one no
        rule takes that the layout marks -- or one a rule takes on weaker
        evidence than the mark (``yields``)."""
        found = self._classify(text)
        if self._layout is None or self._layout.prominence(line_no) is None:
            return found
        if found is None or self._yields is not None and self._yields(found):
            return _STYLED  # (the family is asked only for a marked line)
        return found

    def _run(self, text: str, start: int, end: int, line_no: int) -> int:
        """Plain lines from ``start`` to ``end`` (a line start); returns the
        last line number. Blank lines among them only part paragraphs: the
        first paragraph goes on as a ``Line``, the others as one ``Run``."""
        count = text.count("\n", start, end)
        if end - start > self._bound:
            # Too much for one record: line by line.
            for raw in text[start:end - 1].split("\n"):
                line_no += 1
                raw = raw.strip()
                if not raw:
                    self._blank = True
                else:
                    self.text_page = self.page
                    self._emit(new(Line, (line_no, self.page, raw, line_no, TEXT, None, self._blank, False)))
                    self._blank = False
            return line_no
        spans = paragraphs_of(text[start:end - 1], line_no + 1)
        if spans:
            first = spans[0]
            page = self.page
            self.text_page = page
            self._emit(new(Line, (first.first, page, first.text, first.last, TEXT, None,
                                  self._blank or first.first > line_no + 1, False)))
            if len(spans) > 1:
                self._emit(new(Run, (page, spans[1:])))
            self._blank = spans[-1].last < line_no + count  # blank lines at the end
        else:
            self._blank = True
        return line_no + count

    def _page_line(self, raw: str, line_no: int, furniture: bool, furniture_before: bool) -> None:
        """A line holding form feeds: text before the first is the last of its
        page, text after the last is the first of the next (either may be
        furniture)."""
        first, *pages = raw.split("\f")
        first = first.strip()
        if first and (furniture_before or PAGE_NUMBER_ANYWHERE.match(first)):
            self._drop(new(Line, (line_no, self.page, first, line_no, TEXT, None, False, False)))
        elif first:
            self.text_page = self.page
            self._emit(self._line(line_no, first, self._blank))
            self._blank = False
        for i, piece in enumerate(pages):
            self.page += 1
            self._emit(new(Line, (line_no, self.page, "", line_no, PAGE_BREAK, None, self._blank, False)))
            self._blank = False
            piece = piece.strip()
            if not piece:
                continue
            self.text_page = self.page
            if i == len(pages) - 1 and (furniture or PAGE_NUMBER_ANYWHERE.match(piece)):
                self._drop(new(Line, (line_no, self.page, piece, line_no, TEXT, None, False, False)))
            else:  # text between two form feeds is a page of its own: nothing to judge it by
                self._emit(self._line(line_no, piece, False))

    def _line(self, line_no: int, text: str, after_blank: bool) -> Line:
        """A line that needs a look of its own, with the class the profile gives it."""
        found = self._styled_or_classified(text, line_no)
        if found is None:
            return new(Line, (line_no, self.page, text, line_no, TEXT, None, after_blank, False))
        return new(Line, (line_no, self.page, text, line_no, found[0], found[1], after_blank, False))

    # -- a line too long to hold ---------------------------------------------------
    def long_line(self, text: str, first: bool, final: bool) -> None:
        """A piece of a line longer than the bound, as it arrives (see ``LongLine``)."""
        if first:
            self._long = LongLine(self, self.line_no + 1)
        assert self._long is not None
        self._long.more(text, final)
        if final:
            self._long = None
            self.line_no += 1

    def body(self, line_no: int, text: str) -> None:
        """A fragment of a long line: body text, marked as cut by the bound."""
        self.text_page = self.page
        self._emit(Line(line_no, self.page, text, line_no, TEXT, None, self._blank, True))
        self._blank = False

    def page_break(self, line_no: int) -> None:
        self.page += 1
        self._emit(Line(line_no, self.page, "", line_no, PAGE_BREAK, None, self._blank))
        self._blank = False


class LongLine:
    """A line longer than the bound, passed on in the fragments that
    ``fragments`` makes of the whole line, however its text arrives: only the
    last fragment, which more text may extend, is held. A form feed in it turns
    the page, and a page number right after one is furniture, as it would be in
    a page-break zone."""

    def __init__(self, cutter: RecordCutter, line_no: int) -> None:
        self._cutter = cutter
        self._line_no = line_no
        self._partial = ""  # the end of the line, not passed on yet (at most the bound)
        self._blank = True  # nothing but spaces and tabs so far
        self._paged = False  # a form feed in it, and nothing passed on after it yet

    def more(self, text: str, final: bool) -> None:
        cutter, line = self._cutter, self._line_no
        text = self._partial + text
        self._partial = ""
        if self._blank and text.strip(" \t"):
            self._blank = False  # a long line, not a long run of spaces
            cutter._diagnose("long_line", line, bound=cutter._bound)
        *pages, text = text.split("\f")
        for before in pages:
            self._fragments(before)
            cutter.page_break(line)
        # Text after the page break that goes out now is no page number.
        self._paged = (self._paged or bool(pages)) and len(text) <= cutter._bound
        if final:
            top = text.strip()
            if self._paged and top and not line_form(top)[0]:
                # The new page's first line reads as a page number.
                cutter.text_page = cutter.page
                cutter._drop(Line(line, cutter.page, top, line, TEXT))
                return
            if self._paged and top:
                # What follows the form feeds is a line of its own, within the
                # bound: it is read as any line is (a heading after 100,000
                # blank pages is a heading).
                cutter.text_page = cutter.page
                cutter._emit(cutter._line(line, top, cutter._blank))
                cutter._blank = False
                return
            if self._blank:
                cutter._blank = True  # a line of nothing but spaces ends a paragraph, however long
        self._partial = self._fragments(text, keep_last=not final)

    def _fragments(self, text: str, keep_last: bool = False) -> str:
        cutter = self._cutter
        parts = fragments(text, cutter._bound)
        cutter.words_cut += sum(1 for a, b in zip(parts, parts[1:]) if not a[-1].isspace() and not b[0].isspace())
        last = parts.pop() if keep_last else ""
        for part in parts:
            if part.strip():
                cutter.body(self._line_no, part)
        return last

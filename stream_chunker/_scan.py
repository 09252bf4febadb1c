"""Cutting text into the records the reader takes.

Most lines of a document are plain body text that continues a paragraph: they
need no look of their own. The scanner finds, with one compiled pattern per
profile run over a whole block of text, the lines that do -- blank lines, lines
that may be headings, labels, contents entries or page numbers, form feeds, and
the lines around a form feed that may be page furniture -- and passes the plain
lines between them on as one *run* record. The per-line work of Python is then
spent only where the document's structure may change.

A record is ``(first line, page, text, last line, class, match, after blank)``:
the text of a single line is stripped (``None`` for a page break), the text of a
run keeps its newlines; the class is the line class of ``_machine`` (runs are
``TEXT``), the match is what the profile's pattern made of the line, if
anything, and *after blank* says that blank lines came just before it. Blank
lines make no record of their own: they only end paragraphs, and the flag is
all the reader needs to know of them.

The scanner keeps the last few non-blank lines of what it was given (the
*tail*) until more text arrives: a form feed at the start of the next block
would make them bottom-of-page candidates. That tail, plus the furniture
filter's own lookahead, is all the text it holds.
"""

from __future__ import annotations

import re
from typing import Callable, List, Optional, Pattern, Set, Tuple

from ._furniture import ZONE_LINES, FurnitureFilter
from ._machine import PAGE_BREAK, TEXT

PLAIN = (TEXT, None)


def _nonblank_before(text: str, pos: int, k: int, stop_at_page: bool = True) -> List[int]:
    """Starts of the ``k`` non-blank lines before the line that starts at ``pos``."""
    out: List[int] = []
    end = pos - 1
    while end >= 0 and len(out) < k:
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if stop_at_page and "\f" in line:
            break
        if line.strip():
            out.append(start)
        end = start - 1
    return out


def _tail_start(text: str) -> int:
    """Where the tail to hold back begins: the last ``ZONE_LINES`` non-blank lines,
    and as many before any form feed among them."""
    starts = _nonblank_before(text, len(text), ZONE_LINES, stop_at_page=False)
    tail = starts[-1] if len(starts) == ZONE_LINES else 0
    while tail:
        ff = text.find("\f", tail)
        if ff < 0:
            break
        line_start = text.rfind("\n", 0, ff) + 1
        before = _nonblank_before(text, line_start, ZONE_LINES, stop_at_page=False)
        new = before[-1] if len(before) == ZONE_LINES else 0
        if new >= tail:
            break
        tail = new
    return tail


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


class Scanner:
    """Feeds a furniture filter from blocks of complete lines."""

    def __init__(self, special: Pattern[str], first: Pattern[str], leader: Optional[Pattern[str]],
                 classify: Callable[[str], Optional[Tuple[str, object]]], furniture: FurnitureFilter,
                 bound: int, diagnose: Callable[..., None]) -> None:
        self._special = special  # matches the "\n" before each line that needs a look of its own
        self._first = first  # the same test for the line at the start of a block
        self._leader = leader  # matches inside such lines that ``special`` cannot see from their start
        self._classify = classify
        self._filter = furniture
        self._bound = bound
        self._diagnose = diagnose
        self._tail = ""
        self._in_line = False  # the last thing fed was a piece of an unfinished line
        self.line_no = 0  # lines handed on so far
        self.page = 1
        self.nul_bytes = 0
        self._blank = False  # blank lines came since the last record

    # -- input ---------------------------------------------------------------
    def feed(self, text: str) -> None:
        """Complete lines, each ending in ``\\n`` (line ends already normalised)."""
        if "\x00" in text:
            text = self._drop_nul(text)
        if self._in_line:
            # The first line finishes one whose pieces were passed on already.
            self._in_line = False
            end = text.index("\n")
            self.line_no += 1
            if end:
                self._filter.run((self.line_no, self.page, text[:end], self.line_no, TEXT, None, False))
            text = text[end + 1:]
        if self._tail:
            text = self._tail + text
        cut = _tail_start(text)
        self._tail = text[cut:]
        if cut:
            self._scan(text, cut, final=False)

    def feed_piece(self, piece: str) -> None:
        """A piece of a line with no end in sight: body text, passed on now so
        that an endless line never has to be held whole."""
        if not piece:
            return
        if "\x00" in piece:
            piece = self._drop_nul(piece)
        if self._tail:
            tail, self._tail = self._tail, ""
            self._scan(tail, len(tail), final=False)
        line = self.line_no + 1
        if not self._in_line:
            self._diagnose("long_line", line, bound=self._bound)
        self._in_line = True
        for part in fragments(piece, self._bound):
            self._filter.run((line, self.page, part, line, TEXT, None, self._blank))
            self._blank = False

    def close(self) -> None:
        if self._in_line:
            self._in_line = False
            self.line_no += 1
        tail, self._tail = self._tail, ""
        if tail:
            self._scan(tail, len(tail), final=True)
        self._filter.close()

    def _drop_nul(self, text: str) -> str:
        pos = text.find("\x00")
        while pos >= 0:
            line = self.line_no + text.count("\n", 0, pos) + 1 + (self._tail.count("\n"))
            self._diagnose("nul_byte", line)
            self.nul_bytes += 1
            pos = text.find("\x00", pos + 1)
        return text.replace("\x00", "")

    # -- scanning ------------------------------------------------------------
    def _scan(self, text: str, end: int, final: bool) -> None:
        starts = [m.start() + 1 for m in self._special.finditer(text, 0, end)]
        if self._first.match(text):
            starts.insert(0, 0)
        extra: List[int] = []
        if self._leader is not None:
            extra = [text.rfind("\n", 0, m.start()) + 1 for m in self._leader.finditer(text, 0, end)]
        zone: Set[int] = set()
        ff = text.find("\f", 0, end)
        while ff >= 0:
            line_start = text.rfind("\n", 0, ff) + 1
            extra.append(line_start)
            zone.update(_nonblank_before(text, line_start, ZONE_LINES))
            ff = text.find("\f", text.find("\n", ff), end)
        if final and self.page > 1:  # the end of input closes the last page, if there were pages
            zone.update(_nonblank_before(text, end, ZONE_LINES))
        if extra or zone:
            starts = sorted(set(starts).union(extra, zone))
        line_no = self.line_no
        furniture = self._filter
        classify = self._classify
        bound = self._bound
        pos = 0
        for start in starts:
            if start >= end:
                break
            if start > pos:
                line_no = self._run(text, pos, start, line_no)
            stop = text.find("\n", start)
            line_no += 1
            raw = text[start:stop]
            pos = stop + 1
            if "\f" in raw:
                self._page_line(raw, line_no)
                continue
            line = raw.strip()
            if not line:
                self._blank = True
                continue
            if len(raw) > bound:
                self._diagnose("long_line", line_no, bound=bound)
                for part in fragments(raw, bound):
                    furniture.run((line_no, self.page, part, line_no, TEXT, None, self._blank))
                    self._blank = False
                continue
            rec = (line_no, self.page, line, line_no) + (classify(line) or PLAIN) + (self._blank,)
            self._blank = False
            if start in zone:
                furniture.bottom(rec)
            else:
                furniture.line(rec)
        if pos < end:
            line_no = self._run(text, pos, end, line_no)
        self.line_no = line_no

    def _run(self, text: str, start: int, end: int, line_no: int) -> int:
        """Plain lines from ``start`` to ``end`` (a line start); returns the last line number."""
        furniture = self._filter
        while furniture.top_left and start < end:
            # The top of a page: these lines are furniture candidates, one by one.
            stop = text.find("\n", start)
            line_no += 1
            line = text[start:stop].strip()
            furniture.line((line_no, self.page, line, line_no) + (self._classify(line) or PLAIN) + (self._blank,))
            self._blank = False
            start = stop + 1
        if start >= end:
            return line_no
        if end - start > self._bound:
            # Too much for one record: line by line, long lines in pieces.
            for raw in text[start:end - 1].split("\n"):
                line_no += 1
                if len(raw) > self._bound:
                    self._diagnose("long_line", line_no, bound=self._bound)
                for part in fragments(raw, self._bound):
                    furniture.run((line_no, self.page, part, line_no, TEXT, None, self._blank))
                    self._blank = False
            return line_no
        count = text.count("\n", start, end)
        furniture.run((line_no + 1, self.page, text[start:end - 1], line_no + count, TEXT, None, self._blank))
        self._blank = False
        return line_no + count

    def _page_line(self, raw: str, line_no: int) -> None:
        """A line holding form feeds: text before the first is the last of its page."""
        furniture = self._filter
        first, *pages = raw.split("\f")
        first = first.strip()
        if first:
            furniture.bottom((line_no, self.page, first, line_no) + (self._classify(first) or PLAIN) + (self._blank,))
            self._blank = False
        for piece in pages:
            self.page += 1
            furniture.page_break((line_no, self.page, None, line_no, PAGE_BREAK, None, self._blank))
            self._blank = False
            piece = piece.strip()
            if piece:
                furniture.line((line_no, self.page, piece, line_no) + (self._classify(piece) or PLAIN) + (False,))


def special_lines(leads: str) -> Tuple[Pattern[str], Pattern[str]]:
    """The patterns of lines that need a look of their own -- blank lines, page
    numbers, and lines that start with what ``leads`` (a regex) allows: one that
    matches the newline before such a line (a literal to search for makes it
    fast), and one for the line at the start of a block."""
    line = (rf"[ \t]*(?:\n|{leads}|\[?[ \t]*[Pp][Aa][Gg][Ee][ \t]+\d"
            rf"|[-\u2013\u2014][ \t]*\d+[ \t]*[-\u2013\u2014][ \t]*\n)")
    return re.compile(rf"\n(?={line})"), re.compile(line)

"""Cutting text into the records the reader takes.

Most lines of a document are plain body text that continues a paragraph: they
need no look of their own. The scanner finds, with one compiled pattern per
profile run over a whole block of text, the lines that do -- lines that may be
headings, labels, contents entries or page numbers, form feeds, and the lines
around a form feed that may be page furniture -- and passes the plain lines
between them on as a *run*: its first paragraph as one record, and the
paragraphs after blank lines, if any, together as one more. The per-line work
of Python is then spent only where the document's structure may change.

A record is ``(first line, page, text, last line, class, match, after blank)``:
the text of a single line is stripped (``None`` for a page break), the text of a
run keeps its newlines; the class is the line class of ``_machine`` (runs are
``TEXT``), the match is what the profile's pattern made of the line, if
anything, and *after blank* says that blank lines came just before it. Blank
lines make no record of their own: they only end paragraphs, and the flag is
all the reader needs to know of them. A ``PARAGRAPHS`` record stands for
"blank lines, a paragraph" over and over: its text is a list of
``(first line, last line, text)``.

Page furniture is judged here too, on the text itself (see ``_furniture``): the
scanner holds back the text from the first page-break zone that cannot be
judged yet -- two pages at most -- and the last few non-blank lines, which a
form feed in the next block would make the foot of a page.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Pattern, Set, Tuple

from ._furniture import (MAX_LOOKAHEAD, MAX_LOOKAHEAD_LINES, PAGE_NUMBER_ANYWHERE, ZONE_LINES, ZONES_APART, Forms,
                         Zone, judge, line_form, passed_on)
from ._machine import PAGE_BREAK, PARAGRAPHS, TEXT

PLAIN = (TEXT, None)
# Lines with something on them, up to a blank line (only spaces and tabs).
_PARAGRAPH = re.compile(r"[ \t]*[^ \t\n].*(?:\n[ \t]*[^ \t\n].*)*")
# A line that starts with a space or a tab (the pattern finds one faster than
# two ``in`` tests, whose needles start with a character as common as a space).
_INDENTED = re.compile(r"\n[ \t]")
Emit = Callable[[Tuple[object, ...]], None]


def _nonblank_before(text: str, pos: int, k: int) -> List[int]:
    """Starts of the ``k`` non-blank lines before the line that starts at
    ``pos``, nearest first, not reaching back past a line with a form feed."""
    out: List[int] = []
    end = pos - 1
    while end >= 0 and len(out) < k:
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if "\f" in line:
            break
        if line.strip():
            out.append(start)
        end = start - 1
    return out


def paragraphs_of(lines: str, first_line: int) -> List[Tuple[int, int, str]]:
    r"""The paragraphs in ``lines`` (complete lines but for the last line end,
    the first numbered ``first_line``): ``(first line, last line, text)`` for
    each stretch of lines between blank ones (nothing but spaces and tabs).

    >>> paragraphs_of("\nOne\ntwo\n\n\nThree\n", 10)
    [(11, 12, 'One\ntwo'), (15, 15, 'Three')]
    """
    out: List[Tuple[int, int, str]] = []
    if lines[:1] in (" ", "\t") or _INDENTED.search(lines):
        # Lines that start with a space may be blank: let the pattern tell.
        line, pos = first_line, 0
        for m in _PARAGRAPH.finditer(lines):
            line += lines.count("\n", pos, m.start())
            text = m.group()
            out.append((line, line + text.count("\n"), text))
            pos = m.start()
        return out
    # Otherwise only empty lines are blank, and splitting at them is fastest.
    line = first_line
    for part in lines.rstrip("\n").split("\n\n"):
        text = part.lstrip("\n")
        newlines = part.count("\n")
        if text:
            out.append((line + len(part) - len(text), line + newlines, text))
        line += newlines + 2
    return out


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
    """Turns blocks of complete lines into records for ``emit``; furniture lines
    go to ``drop`` instead."""

    def __init__(self, special: Tuple[Pattern[str], Pattern[str]], leader: Optional[Pattern[str]],
                 classify: Callable[[str], Optional[Tuple[str, object]]], emit: Emit, drop: Emit,
                 bound: int, diagnose: Callable[..., None]) -> None:
        self._special, self._first = special  # the newline before a line that needs a look / a block's first line
        self._leader = leader  # matches inside such lines that ``special`` cannot see from their start
        self._classify = classify
        self._emit = emit
        self._drop = drop
        self._bound = bound
        self._diagnose = diagnose
        self._carry = ""  # text held back, not yet passed on
        self._at_start = True  # the carried text begins at the start of the document
        self._zones_done = 0  # page breaks passed on
        self._history: Dict[int, Forms] = {}  # forms of the zones passed on last
        self._blank = False  # blank lines came since the last record
        self._in_line = False  # the last thing fed was a piece of an unfinished line
        self._partial = ""  # the end of that line, not passed on yet (at most the bound)
        self._line_blank = False  # nothing but spaces and tabs in that line so far
        self._paged = False  # a form feed in that line, and nothing passed on after it yet
        self.line_no = 0  # lines passed on so far
        self.page = 1
        self.text_page = 1  # the page of the last line with text (pdftotext ends with a form feed)
        self.nul_bytes = 0

    # -- input ---------------------------------------------------------------
    def feed(self, text: str) -> None:
        """Complete lines, each ending in ``\\n`` (line ends already normalised)."""
        if "\x00" in text:
            text = self._drop_nul(text)
        if self._in_line:
            # The first line finishes one whose pieces were passed on already.
            end = text.index("\n")
            self._endless(text[:end], final=True)
            text = text[end + 1:]
        if self._carry:
            text = self._carry + text
            self._carry = ""
        if text:
            self._advance(text, final=False, eof=False)

    def feed_piece(self, piece: str) -> None:
        """A piece of a line with no end in sight: body text, passed on now so
        that an endless line never has to be held whole."""
        if not piece:
            return
        if "\x00" in piece:
            piece = self._drop_nul(piece)
        if self._carry:
            text, self._carry = self._carry, ""
            self._advance(text, final=True, eof=False)
        if not self._in_line:
            self._in_line = self._line_blank = True
        self._endless(piece, final=False)

    def _endless(self, text: str, final: bool) -> None:
        """More of a line too long to hold, as it arrives: passed on in the
        fragments that ``fragments`` makes of the whole line, however the line
        was cut into pieces, but for the last, which more text may extend
        (``final``: the line ends here). A form feed in it turns the page."""
        line = self.line_no + 1
        text = self._partial + text
        self._partial = ""
        if self._line_blank and text.strip(" \t"):
            self._line_blank = False  # a long line, not a long run of spaces
            self._diagnose("long_line", line, bound=self._bound)
        *pages, text = text.split("\f")
        for before in pages:
            self._fragments(before, line)
            self.page += 1
            self._emit((line, self.page, None, line, PAGE_BREAK, None, self._blank))
            self._blank = False
        # Text after the page break that goes out now is no page number.
        self._paged = (self._paged or bool(pages)) and len(text) <= self._bound
        if final:
            paged, self._paged = self._paged, False
            self._in_line = False
            self.line_no = line
            top = text.strip()
            if paged and top and not line_form(top)[0]:
                # The new page's first line reads as a page number, as it
                # would in a page-break zone.
                self.text_page = self.page
                self._drop((line, self.page, top, line, TEXT, None, False))
                return
            if self._line_blank:
                self._blank = True  # a line of nothing but spaces ends a paragraph, however long
        self._partial = self._fragments(text, line, keep_last=not final)

    def _fragments(self, text: str, line: int, keep_last: bool = False) -> str:
        """Body text of one line passed on in fragments of at most the bound;
        with ``keep_last``, the last fragment is returned instead."""
        parts = fragments(text, self._bound)
        last = parts.pop() if keep_last else ""
        for part in parts:
            if part.strip():
                self.text_page = self.page
                self._emit((line, self.page, part, line, TEXT, None, self._blank))
                self._blank = False
        return last

    def _pieces(self, text: str, line: int, diagnose: bool = True) -> None:
        """A line too long for one record, passed on as body text in pieces."""
        if diagnose:
            self._diagnose("long_line", line, bound=self._bound)
        self._fragments(text, line)

    def close(self) -> None:
        if self._in_line:
            self._endless("", final=True)
        text, self._carry = self._carry, ""
        if text:
            self._advance(text, final=True, eof=True)

    def _drop_nul(self, text: str) -> str:
        pos = text.find("\x00")
        while pos >= 0:
            line = self.line_no + self._carry.count("\n") + text.count("\n", 0, pos) + 1
            self._diagnose("nul_byte", line)
            self.nul_bytes += 1
            pos = text.find("\x00", pos + 1)
        return text.replace("\x00", "")

    # -- page zones ----------------------------------------------------------
    def _zones(self, text: str, eof: bool) -> List[Zone]:
        """The page-break zones in ``text``, numbered on from those passed on."""
        zones: List[Zone] = []
        page = self.page
        if self._at_start:
            zone = Zone(0, 0)
            zone.complete = self._collect_top(zone, text, 0, page) or eof
            zones.append(zone)
        ff = text.find("\f")
        counted = 0
        while ff >= 0:
            start = text.rfind("\n", 0, ff) + 1
            end = text.find("\n", ff)
            page += text.count("\f", counted, ff)  # form feeds between the last zone's line and this one
            counted = ff
            zone = Zone(self._zones_done + len(zones) + (0 if self._at_start else 1), start)
            before = text[start:ff].strip()
            if before:  # the page's last line, with the form feed after it
                zone.add(start, page, before, key=_before_form_feed(start))
            for s in _nonblank_before(text, start, ZONE_LINES - bool(before)):
                zone.add(s, page, text[s:text.find("\n", s)].strip())
            page += text.count("\f", ff, end)
            counted = end
            after = text[text.rfind("\f", start, end) + 1:end].strip()
            if after:
                zone.add(start, page, after)  # the page's first line shares the form feed's line
            zone.complete = self._collect_top(zone, text, end + 1, page, 1 if after else 0) or eof
            zones.append(zone)
            ff = text.find("\f", end)
        if eof and (self.page > 1 or len(zones) > int(self._at_start)):
            page += text.count("\f", counted)
            last = Zone(self._zones_done + len(zones) + (0 if self._at_start else 1))
            for s in _nonblank_before(text, len(text), ZONE_LINES):
                last.add(s, page, text[s:text.find("\n", s)].strip())
            last.complete = True
            zones.append(last)
        return zones

    @staticmethod
    def _collect_top(zone: Zone, text: str, pos: int, page: int, found: int = 0) -> bool:
        """Add the first non-blank lines of a page from ``pos``; True when the
        zone is complete (enough lines, or the next page began)."""
        while found < ZONE_LINES:
            if pos >= len(text):
                return False
            end = text.find("\n", pos)
            line = text[pos:end]
            if "\f" in line:
                return True
            stripped = line.strip()
            if stripped:
                zone.add(pos, page, stripped)
                found += 1
            pos = end + 1
        return True

    def _advance(self, text: str, final: bool, eof: bool) -> None:
        """Judge what can be judged, pass on what is decided, hold the rest."""
        zones = self._zones(text, eof)
        frontier = len(text) if final else _tail_start(text)
        forms = dict(self._history)
        forms.update((z.index, z.forms) for z in zones)
        furniture: Set[int] = set()
        for k, zone in enumerate(zones):
            if zone.complete and not zone.lines:
                continue  # a page edge with no text: nothing to judge or hold
            first = min(zone.starts)
            ready = final or (zone.complete and any(
                z.complete for z in zones[k + 1:] if z.index >= zone.index + ZONES_APART))
            if not ready and len(text) - first <= MAX_LOOKAHEAD \
                    and text.count("\n", first) <= MAX_LOOKAHEAD_LINES:
                frontier = min(frontier, first)
                break
            furniture.update(judge(zone, forms))
        # Never split a zone between what is passed on and what is held (from the
        # last zone back, as moving the frontier can split an earlier one).
        for zone in reversed(zones):
            starts = zone.starts
            if starts and min(starts) < frontier <= max(starts):
                frontier = min(starts)
        if frontier <= 0:
            self._carry = text
            return
        self._scan(text, frontier, furniture)
        passed = [z for z in zones if (max(z.starts) < frontier if z.starts else z.complete)]
        if self._at_start:
            self._at_start = False
        for zone in passed:
            self._history[zone.index] = passed_on(zone.forms)
        self._zones_done += len(_form_feed_lines(text, frontier))
        top = max(self._history, default=0)
        for index in [i for i in self._history if i <= top - ZONES_APART]:
            del self._history[index]
        self._carry = text[frontier:]

    # -- records -------------------------------------------------------------
    def _scan(self, text: str, end: int, furniture: Set[int]) -> None:
        starts = [m.start() + 1 for m in self._special.finditer(text, 0, end)]
        if self._first.match(text):
            starts.insert(0, 0)
        # Furniture lines are cut out of the runs (a line that is not stays in
        # its run, whatever zone it stands in).
        extra: Set[int] = {key for key in furniture if key >= 0}
        if self._leader is not None:
            extra.update(text.rfind("\n", 0, m.start()) + 1 for m in self._leader.finditer(text, 0, end))
        if "\f" in text:
            extra.update(_form_feed_lines(text, end))
        if extra:
            starts = sorted(extra.union(starts))
        line_no = self.line_no
        emit = self._emit
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
                self._page_line(raw, line_no, start in furniture, _before_form_feed(start) in furniture)
                continue
            line = raw.strip()
            if not line:
                self._blank = True
                continue
            self.text_page = self.page
            if start in furniture or PAGE_NUMBER_ANYWHERE.match(line):
                self._drop((line_no, self.page, line, line_no, TEXT, None, False))
            elif len(raw) > bound:
                self._pieces(raw, line_no)
            else:
                emit((line_no, self.page, line, line_no) + (classify(line) or PLAIN) + (self._blank,))
                self._blank = False
        if pos < end:
            line_no = self._run(text, pos, end, line_no)
        self.line_no = line_no

    def _run(self, text: str, start: int, end: int, line_no: int) -> int:
        """Plain lines from ``start`` to ``end`` (a line start); returns the last line number.

        Blank lines among them only part paragraphs: the first paragraph goes
        on as a ``TEXT`` record, the others as one ``PARAGRAPHS`` record."""
        if end - start > self._bound:
            # Too much for one record: line by line, long lines in pieces.
            for raw in text[start:end - 1].split("\n"):
                line_no += 1
                if not raw.strip(" \t"):
                    self._blank = True
                else:
                    self._pieces(raw, line_no, diagnose=len(raw) > self._bound)
            return line_no
        count = text.count("\n", start, end)
        paragraphs = paragraphs_of(text[start:end - 1], line_no + 1)
        if paragraphs:
            first, last, body = paragraphs[0]
            page = self.page
            self.text_page = page
            self._emit((first, page, body, last, TEXT, None, self._blank or first > line_no + 1))
            if len(paragraphs) > 1:
                del paragraphs[0]
                self._emit((paragraphs[0][0], page, paragraphs, paragraphs[-1][1], PARAGRAPHS, None, True))
            self._blank = paragraphs[-1][1] < line_no + count  # blank lines at the end
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
            self._drop((line_no, self.page, first, line_no, TEXT, None, False))
        elif first:
            self.text_page = self.page
            self._emit((line_no, self.page, first, line_no) + (self._classify(first) or PLAIN) + (self._blank,))
            self._blank = False
        for i, piece in enumerate(pages):
            self.page += 1
            self._emit((line_no, self.page, None, line_no, PAGE_BREAK, None, self._blank))
            self._blank = False
            piece = piece.strip()
            if not piece:
                continue
            self.text_page = self.page
            if i == len(pages) - 1 and (furniture or PAGE_NUMBER_ANYWHERE.match(piece)):
                self._drop((line_no, self.page, piece, line_no, TEXT, None, False))
            else:  # text between two form feeds is a page of its own: nothing to judge it by
                self._emit((line_no, self.page, piece, line_no) + (self._classify(piece) or PLAIN) + (False,))


def _before_form_feed(start: int) -> int:
    """The key under which the text before a form feed on the line at ``start``
    is judged (the text after it goes under ``start`` itself)."""
    return -start - 2


def _form_feed_lines(text: str, end: int) -> List[int]:
    """Starts of the lines before ``end`` that hold a form feed."""
    out = []
    ff = text.find("\f", 0, end)
    while ff >= 0:
        start = text.rfind("\n", 0, ff) + 1
        out.append(start)
        ff = text.find("\f", text.find("\n", ff), end)
    return out


def _tail_start(text: str) -> int:
    """Where the last ``ZONE_LINES`` non-blank lines begin: a form feed in the
    next block would make them the foot of a page."""
    starts = _nonblank_before(text, len(text), ZONE_LINES)
    if len(starts) < ZONE_LINES:
        # Fewer lines than that since the last form feed (or at all): hold back
        # from the last form-feed line, or everything.
        ff = text.rfind("\f")
        return text.rfind("\n", 0, ff) + 1 if ff >= 0 else 0
    return starts[-1]


def special_lines(leads: str) -> Tuple[Pattern[str], Pattern[str]]:
    """The patterns of lines that need a look of their own -- blank lines, page
    numbers, and lines that start with what ``leads`` (a regex) allows: one that
    matches the newline before such a line (a literal to search for makes it
    fast), and one for the line at the start of a block."""
    line = (rf"[ \t]*(?:{leads}|\[?[ \t]*[Pp][Aa][Gg][Ee][ \t]+\d"
            rf"|[-\u2013\u2014][ \t]*\d+[ \t]*[-\u2013\u2014][ \t]*\n)")
    return re.compile(rf"\n(?={line})"), re.compile(line)

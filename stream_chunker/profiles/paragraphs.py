"""Paragraphs: a profile that reads body text as paragraphs and packs them.

Lines between blank lines are a paragraph, joined by single spaces; a word a
soft hyphen broke at a line end is joined again (and counted). A paragraph
longer than the hard bound (``max_paragraph_chars``) is cut at it. The policy
profile is one of these.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple

from ..core.chunk import Chunk
from ..core.packing import Cap
from ..core.records import TEXT, Line, Run, new
from ..core.text import join_soft_hyphens, single_spaced
from .base import BaseProfile, Diagnose, Settings

_EMPTY = -1
"""The size of an empty paragraph: its first line adds no joining space, so
every line can add one."""


_NO_LINE = Line(0, 0, "", 0, TEXT)


class ParagraphProfile(BaseProfile):
    """A profile whose body text is paragraphs: lines joined by spaces until a
    blank line, bounded by ``max_paragraph_chars``."""

    def __init__(self, settings: Settings, emit: Callable[[Chunk], None], diagnose: Diagnose, cap: Cap) -> None:
        super().__init__(settings, emit, diagnose, cap)
        self._para: List[str] = []
        self._para_first = self._para_last = _NO_LINE
        self._para_before = _NO_LINE  # the record before the last one of the open paragraph
        self._para_chars = _EMPTY  # characters of the open paragraph, joining spaces included
        self._para_cut = False  # the open paragraph continues one the hard bound cut
        self._closed = ""  # the text of the paragraph closed last ("" after a heading), for ``line_before_last``

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
        self._para_before = self._para_last
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
            if cut and not text[cut - 1].isspace() and not text[cut:cut + 1].isspace():
                self.count("words_cut")  # (one word in two pieces: the report's ``words_cut``)
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
        rest = tail.lstrip()
        if rest:  # it starts on the line where its first word is
            split_line = rec.first + head.count("\n") + tail.count("\n", 0, len(tail) - len(rest))
            self.continue_paragraph(rec._replace(first=split_line, text=rest))

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
                text = span.text
                text, words = single_spaced(text if "\u00ad" not in text else self._unhyphenated(text))
                self.take_paragraph(text, words, (span.first, span.last), page, False)
            else:
                self.continue_paragraph(Line(span.first, run.page, span.text, span.last, TEXT, None, True))
                self.end_paragraph()
        if whole:
            self._closed = whole[-1].text
        self.continue_paragraph(new(Line, (last.first, run.page, last.text, last.last, TEXT, None, True, False)))

    def _close_paragraph(self, cut: bool = False) -> None:
        self._closed = self._para[-1]
        text = " ".join(self._para)
        text, words = single_spaced(text if "\u00ad" not in text else self._unhyphenated(text))
        first, last = self._para_first, self._para_last
        self._para = []
        self._para_chars = _EMPTY
        if cut:
            self.diagnose("paragraph_cut", last.last, bound=self._bound)
            self.count("paragraphs_cut")
        self.take_paragraph(text, words, (first.first, last.last), (first.page, last.page), cut or self._para_cut)
        self._para_cut = cut

    def _unhyphenated(self, text: str) -> str:
        """The paragraph's words broken at a soft hyphen joined (counted); the
        callers look for one first, as few paragraphs have any."""
        text, joined = join_soft_hyphens(text)
        if joined:
            self.count("soft_hyphens", joined)
        return text

    def take_back_last_line(self) -> Optional[Line]:
        """The open paragraph's last line, taken out of it (it turned out to be
        a heading), or ``None`` when there is none or the hard bound cut it."""
        para, last = self._para, self._para_last
        if not para or last.cut:
            return None
        tail = para[-1]
        at = tail.rfind("\n")
        line = tail[at + 1:]
        if at < 0 and len(para) == 1:  # the paragraph is that line
            para.pop()
            self._para_chars = _EMPTY
            return Line(last.last, last.page, line.strip(), last.last, TEXT)
        if at >= 0:
            para[-1] = tail[:at]
            self._para_last = last._replace(last=last.last - 1)
        else:
            para.pop()
            self._para_last = self._para_before
        self._para_chars -= len(line) + 1
        return Line(last.last, last.page, line.strip(), last.last, TEXT)

    def take_back_from(self, index: int, before: Line) -> List[str]:
        """The open paragraph's pieces from its ``index``-th on, taken out of it
        (a label read as text turned out to open an item); ``before``, the
        record that was its last before them, is its last again."""
        para = self._para
        taken = para[index:]
        del para[index:]
        self._para_last = before
        self._para_chars = sum(map(len, para)) + len(para) - 1 if para else _EMPTY
        return taken

    def last_line(self) -> str:
        if not self._para:
            return ""
        last = self._para[-1]
        return last[last.rfind("\n") + 1:].strip()

    def line_before_last(self) -> str:
        """The body line before the open paragraph's last one -- in it, or the last
        of the paragraph closed just before it (a blank line between) --, or ``""``."""
        para = self._para
        if not para:
            return ""
        tail = para[-1]
        at = tail.rfind("\n")
        if at >= 0:
            return tail[tail.rfind("\n", 0, at) + 1:at].strip()
        before = para[-2] if len(para) >= 2 else self._closed
        return before[before.rstrip().rfind("\n") + 1:].strip()

    def take_paragraph(self, text: str, words: int, lines: Tuple[int, int], pages: Tuple[int, int],
                       cut: bool) -> None:
        """A finished paragraph: its single-spaced text and where it came from."""
        raise NotImplementedError


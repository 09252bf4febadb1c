"""The first stage: text in pieces of any size becomes complete lines.

``\\n``, ``\\r\\n`` and ``\\r`` all end a line, even when a ``\\r\\n`` is cut in
two between pieces; NUL bytes are dropped and reported. The words read are
counted here, however the text is cut (the report's ``words_in``: what every
word of the output and every word dropped is accounted against). Complete lines go on as
blocks of text. A line longer than the hard bound (``max_paragraph_chars``) is
never held whole: from the moment it is known to be that long, it goes on in
pieces as they arrive (see ``core.stages.cutter.LongLine``), and a line is long by its
length alone, whatever the pieces it came in -- so the chunks are the same
however the text is cut.
"""

from __future__ import annotations

from typing import Callable

from ..text import count_words

Diagnose = Callable[..., None]

COUNT_WINDOW = 1 << 16
"""Characters of a piece whose words are counted at once."""


def _long_line(block: str, pos: int, bound: int) -> int:
    r"""Where the first line longer than ``bound`` starts in ``block`` (complete
    lines from ``pos``), or -1. Only the last line to start within a stretch
    of ``bound`` characters can be that long, so the search jumps ahead.

    >>> _long_line("ab\nabcdef\nab\n", 0, 4), _long_line("ab\nabc\n", 0, 4)
    (3, -1)
    """
    while len(block) - pos > bound:
        newline = block.rfind("\n", pos, pos + bound + 1)
        if newline < 0:
            return pos
        pos = newline + 1
    return -1


class LineSplitter:
    """Cuts text into complete lines for ``lines``; the pieces of an over-long
    line go to ``long_piece(text, first, final)``."""

    def __init__(self, bound: int, lines: Callable[[str], None],
                 long_piece: Callable[[str, bool, bool], None], lines_passed: Callable[[], int],
                 diagnose: Diagnose) -> None:
        self._bound = bound
        self._lines = lines
        self._long_piece = long_piece
        self._diagnose = diagnose
        self._partial = ""  # the unfinished last line, at most the bound
        self._in_long = False  # the unfinished line is over the bound: its text has gone on
        self._cr = False  # the last piece ended with "\r": a "\n" next is the same line end
        self._lines_passed = lines_passed  # line ends passed on, counted downstream
        self.nul_bytes = 0
        self.words = 0
        self._in_word = False  # the last piece ended inside a word: the next may go on with it

    def feed(self, text: str) -> None:
        if not text:
            return
        if self._cr:  # a "\n" first ends the line the "\r" ended: it is no line of its own
            self._cr = False
            if text[0] == "\n":
                text = text[1:]
                if not text:
                    return
        self._cr = text[-1] == "\r"
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if "\x00" in text:
            text = self._drop_nul(text)
            if not text:
                return
        self._count_words(text)
        if self._in_long:
            end = text.find("\n")
            if end < 0:
                self._long_piece(text, False, False)
                return
            self._long_piece(text[:end], False, True)
            self._in_long = False
            text = text[end + 1:]
        if text[-1:] == "\n" and not self._partial:  # complete lines, as most blocks are
            self._pass_on(text)
            return
        last = text.rfind("\n")
        if last < 0:
            self._partial += text
        else:
            block = self._partial + text[: last + 1]
            self._partial = text[last + 1:]
            self._pass_on(block)
        if len(self._partial) > self._bound:
            partial, self._partial = self._partial, ""
            self._in_long = True
            self._long_piece(partial, True, False)

    def _count_words(self, text: str) -> None:
        # (a window at a time: counting makes copies, and a stage holds no more than it must)
        for at in range(0, len(text), COUNT_WINDOW):
            window = text[at:at + COUNT_WINDOW] if len(text) > COUNT_WINDOW else text
            self.words += count_words(window, self._in_word)  # (a word cut between two pieces is one word)
            self._in_word = not window[-1].isspace()

    def close(self) -> None:
        """The end of the text ends its last line."""
        if self._in_long:
            self._long_piece("", False, True)
            self._in_long = False
        elif self._partial:
            partial, self._partial = self._partial, ""
            self._pass_on(partial + "\n")

    def _pass_on(self, block: str) -> None:
        """Complete lines; a line over the bound among them goes on as long."""
        bound = self._bound
        start = 0
        while True:
            long_at = _long_line(block, start, bound)
            if long_at < 0:
                break
            end = block.index("\n", long_at)
            self._pass_block(block[start:long_at])
            self._long_piece(block[long_at:end], True, True)
            start = end + 1
        self._pass_block(block[start:] if start else block)

    def _pass_block(self, block: str) -> None:
        if block:
            self._lines(block)

    def _drop_nul(self, text: str) -> str:
        pos = text.find("\x00")
        while pos >= 0:
            line = self._lines_passed() + text.count("\n", 0, pos) + 1
            self._diagnose("nul_byte", line)
            self.nul_bytes += 1
            pos = text.find("\x00", pos + 1)
        return text.replace("\x00", "")

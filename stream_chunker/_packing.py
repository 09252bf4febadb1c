"""Packing paragraphs into capped chunks, and the sizes a cap is measured in."""

from __future__ import annotations

from typing import Any, Callable, List, NamedTuple, Optional, Tuple

from ._chunk import Chunk, Oversize, estimate_tokens


class Paragraph(NamedTuple):
    """A finished paragraph: its joined text and where it came from."""

    text: str
    words: int
    lines: Tuple[int, int]
    pages: Tuple[int, int]
    cut: bool
    """True when the hard bound on a paragraph's size ended it."""


class Cap:
    """A size limit, measured in estimated tokens, real tokens or characters.

    ``joined_fits`` answers "would these texts joined by ``sep`` fit?", which for
    the estimate needs only word counts; real tokens are counted on the joined
    text itself, because the joins cost tokens of their own.
    """

    def __init__(self, limit: int, unit: str, count: Optional[Callable[[str], int]] = None) -> None:
        self.limit = limit
        self.unit = unit
        self._count = count

    def size(self, text: str, words: int) -> int:
        if self.unit == "estimate":
            return estimate_tokens(words)
        if self.unit == "chars":
            return len(text)
        assert self._count is not None
        return self._count(text)

    def joined_fits(self, texts: List[str], words: int, size: int, more: str, more_words: int,
                    more_size: int, sep: str) -> Tuple[bool, int]:
        """Whether ``texts + [more]`` joined by ``sep`` fits, and its size if it does."""
        if self.unit == "estimate":
            joined = estimate_tokens(words + more_words)
        elif self.unit == "chars":
            joined = size + len(sep) + more_size
        else:
            # Joining costs tokens, not saves them (measured: up to 4 more per
            # chunk), so the parts' sum rules most candidates out without
            # encoding; were it ever to overcount, a chunk would only be smaller.
            if size + more_size > self.limit:
                return False, 0
            joined = self.size(sep.join(texts + [more]), 0)
        return joined <= self.limit, joined


class Packer:
    """Packs one section's paragraphs into chunks, holding the first chunk back
    until it is known whether the section needs more than one (``4.2`` or ``4.2#1``).
    """

    def __init__(self, cap: Cap, emit: Callable[[Chunk], None], sep: str = "\n") -> None:
        self.cap = cap
        self._emit = emit
        self._sep = sep
        self._base = ""
        self._clause: Optional[str] = None
        self._path = ""
        self._texts: List[str] = []
        self._words = 0
        self._size = 0
        self._lines = (0, 0)
        self._pages = (0, 0)
        self._cut = False
        self._held: Optional[Tuple[Any, ...]] = None  # the first chunk, still to be named
        self._made = 0

    def start(self, base: str, clause: Optional[str], heading_path: str) -> None:
        """Begin a section whose chunks are cited as ``base``."""
        self.end()
        self._base, self._clause, self._path = base, clause, heading_path
        self._made = 0

    def retitle(self, heading_path: str) -> None:
        """Change the heading path of the section's chunks still to come."""
        self._path = heading_path

    def add(self, p: Paragraph) -> None:
        text, words, lines, pages, cut = p
        cap = self.cap
        size = cap.size(text, words)
        texts = self._texts
        if texts:
            if not (cut or self._cut):
                fits, joined = cap.joined_fits(texts, self._words, self._size, text, words, size, self._sep)
                if fits:
                    texts.append(text)
                    self._words += words
                    self._size = joined
                    self._lines = (self._lines[0], lines[1])
                    self._pages = (self._pages[0], pages[1])
                    return
            self._finish()
        self._texts = [text]
        self._words, self._size = words, size
        self._lines, self._pages, self._cut = lines, pages, cut
        if size > cap.limit or cut:
            self._finish()

    def end(self) -> None:
        """The section is over: settle its id and let its last chunks go."""
        if self._texts:
            self._finish()
        if self._held is not None:
            self._emit(Chunk(self._base, *self._held))
            self._held = None

    def _finish(self) -> None:
        size = self._size
        oversize: Oversize = "cut" if self._cut else ("kept" if size > self.cap.limit else False)
        fields = (self._clause, self._path, self._sep.join(self._texts), self._words,
                  estimate_tokens(self._words), size if self.cap.unit == "real" else None,
                  None, self._lines, self._pages, oversize)
        self._texts = []
        self._words = self._size = 0
        self._cut = False
        self._made += 1
        if self._made == 1:
            self._held = fields
            return
        if self._held is not None:
            self._emit(Chunk(f"{self._base}#1", *self._held))
            self._held = None
        self._emit(Chunk(f"{self._base}#{self._made}", *fields))

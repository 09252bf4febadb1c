"""Packing text into capped chunks, and naming them: one packer for every profile.

A profile hands the packer *nodes* and *parts* -- a paragraph, or a line: its
text, word count, first and last line and page, and whether the hard bound on
a paragraph's size ended it (then it shares no chunk). A unit (a section's text, a
top-level subsection, a list item at the first level under a heading) is a
node at depth 0; nested items are nodes below it; parts are its paragraphs or
lines, in order, with the separator the profile joins them by. A node that
fits the cap with everything nested in it is one chunk. One that does not is
cut: its own parts are packed in order while the cap allows (a part over the
cap alone, and never cut), then each nested node the same way.

Nothing is held longer than it must be: a node is held only while it may
still fit, so at most a cap's worth per open level; once it cannot, its
pieces go out as they are made. The first piece of a node waits until it is
known whether the node makes one piece or more, which decides its id.

Why one module of this length: the packer and the id scheme are the one of
each that every profile uses (a profile only names its pieces: ``Name``).
"""

from __future__ import annotations

from typing import Callable, Dict, Final, List, NamedTuple, Optional, Tuple

from .chunk import Chunk, Oversize, estimate_tokens
from .hard_limit import pieces_within
from .records import new
from .sizing import Sizer


class Cap:
    """A size limit, and the sizer that measures text against it (``core.sizing``:
    estimated tokens, real tokens or characters), chosen once for a document."""

    __slots__ = ("limit", "sizer", "hard")

    def __init__(self, limit: int, sizer: Sizer, hard: Optional[int] = None) -> None:
        self.limit = limit
        self.sizer = sizer
        self.hard = hard
        """The hard limit, if any: a part over it is cut into pieces under it (``core.hard_limit``)."""


class Key(NamedTuple):
    """How a node's chunks are cited."""

    base: str
    """The id before any piece number."""
    clause: Optional[str]
    heading_path: str
    cite: Optional[str]
    """The citation before ``— 'text'``, or ``None`` for no citation."""
    labelled: bool = True
    """False for text before the first label (statute ``-p1``)."""
    part: Optional[str] = None
    """The part of a policy set the node is in (``Chunk.part``)."""


Name = Callable[[Key, int, bool], str]
"""A profile's piece ids: ``name(key, n, only)`` for the ``n``-th piece of a
node, ``only`` when it is the node's one piece."""


class UniqueIds:
    """Ids unique within a run: a number that comes again gets ``~2``, ``~3``.

    It remembers the most recent numbers, at least ``MAX_IDS // 2`` and at most
    ``MAX_IDS``, in two generations: when the newer is full, the older is
    forgotten and the newer takes its place (a fixed ceiling, and no work per
    id to keep an order).

    >>> ids = UniqueIds()
    >>> ids.unique("4.2"), ids.unique("4.3"), ids.unique("4.2")
    ('4.2', '4.3', '4.2~2')
    """

    MAX_IDS: Final = 16384  # Final: a class constant when compiled too, not a default of each instance

    def __init__(self) -> None:
        self._newer: Dict[str, int] = {}
        self._older: Dict[str, int] = {}

    def seen(self, number: str) -> bool:
        """Whether ``number`` has been given out (as far as it is remembered)."""
        return number in self._newer or number in self._older

    def unique(self, number: str) -> str:
        seen = self._newer.get(number) or self._older.get(number, 0)
        seen += 1
        if len(self._newer) >= self.MAX_IDS // 2 and number not in self._newer:
            self._older, self._newer = self._newer, {}
        self._newer[number] = seen
        return number if seen == 1 else f"{number}~{seen}"


class _Piece(NamedTuple):
    text: str
    words: int
    size: int
    lines: Tuple[int, int]
    pages: Tuple[int, int]
    oversize: Oversize


class _Whole(NamedTuple):
    """A nested node that fitted, held in its parent while that may fit too."""

    key: Key
    texts: List[str]
    words: int
    lines: Tuple[int, int]
    pages: Tuple[int, int]


class _Node:
    """An open node. Its own parts are packed as they come; while it has made
    no piece it may still be one chunk, with the nested nodes held in ``done``."""

    __slots__ = ("key", "texts", "size", "words", "lines", "pages", "cut", "split", "made", "held", "spilled",
                 "done", "below_words", "below_chars", "below_floor", "below_texts")

    def __init__(self, key: Key) -> None:
        self.key = key
        # The piece being packed.
        self.texts: List[str] = []
        self.size = self.words = 0
        self.lines = self.pages = (0, 0)
        self.cut = False
        self.split = False  # the piece is one of a part cut at the hard limit
        self.made = 0
        self.held: Optional[_Piece] = None  # the first piece, until its id is known
        self.spilled = False  # it cannot be one chunk
        self.done: List[_Whole] = []
        # The text of the nodes nested in it, while it may be one chunk.
        self.below_words = self.below_chars = self.below_floor = self.below_texts = 0


class Packer:
    """Packs a profile's nodes and parts into chunks for ``emit``."""

    def __init__(self, cap: Cap, emit: Callable[[Chunk], None], sep: str, name: Name) -> None:
        self.cap = cap
        self._sizer = cap.sizer
        self._limit = cap.limit
        self._hard = cap.hard
        self._emit = emit
        self._sep = sep
        self._name = name
        self._open: List[_Node] = []  # the open nodes, the unit first

    def open(self, depth: int, key: Key) -> None:
        """A node opens at ``depth`` (0: a new unit), closing those open there and deeper."""
        self.close(depth)
        if self._open and self._open[-1].spilled:
            self._end_own(self._open[-1])  # the parent's own text is over: its pieces are named
        self._open.append(_Node(key))

    def rekey(self, key: Key, lead: Optional[Tuple[str, int, Tuple[int, int], Tuple[int, int]]] = None) -> None:
        """Change how the unit's chunks still to come are cited, and put ``lead``
        (a part: text, words, lines, pages) before the text it holds -- after it,
        should a piece of the unit have gone out already."""
        node = self._open[0]
        node.key = key
        if lead is None:
            return
        text, words, lines, pages = lead
        if node.made or node.done or len(self._open) > 1:
            self.add(text, words, lines, pages)
            return
        node.texts.insert(0, text)
        node.words += words
        node.lines = (lines[0], node.lines[1] if len(node.texts) > 1 else lines[1])
        node.pages = (pages[0], node.pages[1] if len(node.texts) > 1 else pages[1])
        node.size = self._sizer.size(self._sep.join(node.texts), node.words)

    def retitle(self, heading_path: str) -> None:
        """Change the heading path of the deepest node's chunks still to come."""
        node = self._open[-1]
        node.key = node.key._replace(heading_path=heading_path)

    def add(self, text: str, words: int, lines: Tuple[int, int], pages: Tuple[int, int], cut: bool = False) -> None:
        """A part of the deepest open node (a node's own parts come before the
        nodes nested in it)."""
        size = self._sizer.size(text, words)
        hard = self._hard
        if hard is not None and size > hard and not cut:
            for piece, piece_words, piece_size in pieces_within(text, hard, self._sizer.size):
                self._add(piece, piece_words, lines, pages, False, piece_size, True)
            return
        self._add(text, words, lines, pages, cut, size, False)

    def _add(self, text: str, words: int, lines: Tuple[int, int], pages: Tuple[int, int], cut: bool, size: int,
             split: bool) -> None:
        opened = self._open
        if len(opened) > 1 and not opened[-2].spilled:
            self._below(text, words, size)
        node = opened[-1]
        self._pack(node, text, words, lines, pages, cut, size, split)
        if node.made and not node.spilled:
            self._spill(len(opened) - 1)

    def close(self, depth: int = 0) -> None:
        """Close the nodes open at ``depth`` and deeper, the deepest first."""
        opened = self._open
        while len(opened) > depth:
            node = opened[-1]
            if not node.spilled and node.done and not self._fits_whole(node):
                self._spill(len(opened) - 1)
            opened.pop()
            if node.spilled:
                self._end_own(node)
                continue
            whole = self._whole(node)
            if whole is None:
                continue  # a heading with no text of its own makes no chunk
            if opened and not opened[-1].spilled:
                opened[-1].done.append(whole)
            elif node.done:
                self._emit_whole(whole)
            else:  # the piece packed so far is the whole node
                self._chunk(node.key, 1, True, self._piece(node))

    # -- nodes that may be one chunk ---------------------------------------------
    def _below(self, text: str, words: int, size: int) -> None:
        """Count a part in the nodes above it that may still be one chunk; the
        deepest that no longer can, and every node above it, let go of what
        they hold (the outermost first, so that chunks keep the text's order)."""
        opened = self._open
        top = len(opened) - 1
        for i in range(len(opened) - 2, -1, -1):
            node = opened[i]
            if node.spilled:
                break
            node.below_words += words
            node.below_chars += len(text)
            node.below_floor += size
            node.below_texts += 1
            top = i
        for i in range(len(opened) - 2, top - 1, -1):  # the deepest that cannot: it and all above it
            if not self._may_fit(opened[i]):
                self._spill(i)
                return

    def _may_fit(self, node: _Node) -> bool:
        """Whether the node with what is nested in it may still be one chunk."""
        return self._sizer.may_fit(node.texts, node.words, node.size, node.below_words, node.below_chars,
                                   node.below_floor, node.below_texts, self._sep, self._limit)

    def _fits_whole(self, node: _Node) -> bool:
        if not self._may_fit(node):
            return False
        if not self._sizer.real:  # the bound is exact
            return True
        whole = self._whole(node)
        return whole is None or self._sizer.size(self._sep.join(whole.texts), 0) <= self._limit

    def _whole(self, node: _Node) -> Optional[_Whole]:
        if not node.done:
            if not node.texts:
                return None
            return _Whole(node.key, node.texts, node.words, node.lines, node.pages)
        texts = list(node.texts)
        words = node.words
        for nested in node.done:
            texts += nested.texts
            words += nested.words
        first = node if node.texts else node.done[0]
        return _Whole(node.key, texts, words, (first.lines[0], node.done[-1].lines[1]),
                      (first.pages[0], node.done[-1].pages[1]))

    def _emit_whole(self, whole: _Whole) -> None:
        text = self._sep.join(whole.texts)
        size = self._sizer.size(text, whole.words)
        self._chunk(whole.key, 1, True, _Piece(text, whole.words, size, whole.lines, whole.pages,
                                               "kept" if size > self._limit else False))

    def _spill(self, depth: int) -> None:
        """The node at ``depth`` cannot be one chunk, nor can those above it:
        each, the outermost first, lets go of its pieces and of the nested
        nodes it held."""
        for i in range(depth + 1):
            node = self._open[i]
            if node.spilled:
                continue
            node.spilled = True
            if i < len(self._open) - 1 or node.done:
                self._end_own(node)  # a nested node has begun: its own text is over
            done, node.done = node.done, []
            for whole in done:
                self._emit_whole(whole)

    # -- packing a node's own parts ------------------------------------------------
    def _pack(self, node: _Node, text: str, words: int, lines: Tuple[int, int], pages: Tuple[int, int],
              cut: bool, size: int, split: bool = False) -> None:
        """Add a part to the node's open piece, or start a new one (a piece of a
        part cut at the hard limit is a chunk of its own, as a cut one is)."""
        if node.texts:
            if not (cut or node.cut or split or node.split):
                joined = self._sizer.joined(node.texts, node.words, node.size, text, words, size, self._sep,
                                            self._limit)
                if joined <= self._limit:
                    node.texts.append(text)
                    node.words += words
                    node.size = joined
                    node.lines = (node.lines[0], lines[1])
                    node.pages = (node.pages[0], pages[1])
                    return
            self._finish(node)
        node.texts = [text]
        node.words, node.size = words, size
        node.lines, node.pages, node.cut, node.split = lines, pages, cut, split
        if size > self._limit or cut or split:
            self._finish(node)

    def _piece(self, node: _Node) -> _Piece:
        size = node.size
        oversize: Oversize = "cut" if node.cut else "split" if node.split else ("kept" if size > self._limit else False)
        return new(_Piece, (self._sep.join(node.texts), node.words, size, node.lines, node.pages, oversize))

    def _finish(self, node: _Node) -> None:
        piece = self._piece(node)
        node.texts = []
        node.words = node.size = 0
        node.cut = node.split = False
        node.made += 1
        if node.made == 1:
            node.held = piece  # named once the node's own text is over, or a second piece comes
            return
        if node.held is not None:
            self._chunk(node.key, 1, False, node.held)
            node.held = None
        self._chunk(node.key, node.made, False, piece)

    def _end_own(self, node: _Node) -> None:
        """The node's own text is over: its last piece is made, its first named."""
        if node.texts:
            self._finish(node)
        if node.held is not None:
            self._chunk(node.key, 1, node.made == 1, node.held)
            node.held = None

    def _chunk(self, key: Key, n: int, only: bool, piece: _Piece) -> None:
        text = piece.text
        self._emit(Chunk(
            self._name(key, n, only), key.clause, key.heading_path, text, piece.words,
            estimate_tokens(piece.words), piece.size if self._sizer.real else None,
            None if key.cite is None else f"{key.cite} \u2014 '{text}'", piece.lines, piece.pages, piece.oversize,
            key.part))

"""``--outline``: the tree that was read, one line per section, for a user to
look at before ingesting.

Each line is a run of chunks with one heading path: its id (without the piece
number), its title, where it starts and how many words it holds, indented by
its depth in the heading path::

    1  Key details about your policy  (line 351, page 12, 40 words)
      1/whos-covered-by-your-policy  Who’s covered by your policy  (line 358, page 13, 61 words)

A heading with no text of its own makes no chunk: its title comes on a line of
its own, without an id, before the first section under it, so that what is
under it is indented under it. A section's line is written once the next
section starts (its words are known then), so the view streams as the chunks
do and holds one section at a time. A heading-shaped line read as text comes
after the section that holds it, indented under it: ``  ! refused (line 88):
7 Definitions -- not next in sequence`` (at most ``MAX_HELD`` wait for their
section; beyond, they come at once). ``--outline --json`` writes the same as
one JSON line per node: ``id`` (``null`` for a heading alone), ``title``,
``depth`` (from 0), ``line``, ``page``, ``words``, ``last`` (its last line); and per refused line
``refused``, ``reason``, ``line``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List, NamedTuple, Optional

from ..core.chunk import Chunk

FRONT = "(before the first heading)"
MAX_HELD = 1000
"""Refused lines held for their section, at most."""


class Node(NamedTuple):
    """A node of the outline: a section (its chunks), or a heading alone (``id`` None)."""

    id: Optional[str]
    title: str
    depth: int
    line: int
    page: int
    words: int
    last: int = 0
    """Its last line (0 for a heading alone), which places the lines refused in it."""


class Sections:
    """Chunks in, as they come; the outline's nodes out, each once complete."""

    def __init__(self) -> None:
        self._open: Optional[Chunk] = None  # the first chunk of the section being summed
        self._words = 0
        self._last = 0  # the section's last line so far
        self._shown: List[str] = []  # the heading path of the last node given out

    def feed(self, chunks: List[Chunk]) -> Iterator[Node]:
        for chunk in chunks:
            opened = self._open
            if opened is not None and (opened.id.split("#", 1)[0] != chunk.id.split("#", 1)[0]
                                       or opened.heading_path != chunk.heading_path):
                yield from self._nodes()
            if self._open is None:
                self._open, self._words = chunk, 0
            self._words += chunk.words
            self._last = max(self._last, chunk.lines[1])

    def close(self) -> Iterator[Node]:
        if self._open is not None:
            yield from self._nodes()

    def _nodes(self) -> Iterator[Node]:
        chunk = self._open
        assert chunk is not None
        self._open = None
        path = chunk.heading_path.split(" > ") if chunk.heading_path else []
        shown = self._shown
        common = 0
        while common < min(len(shown), len(path) - 1) and shown[common] == path[common]:
            common += 1
        for depth in range(common, len(path) - 1):  # headings above it that no chunk showed
            yield Node(None, path[depth], depth, chunk.lines[0], chunk.pages[0], 0)
        self._shown = path
        yield Node(chunk.id.split("#", 1)[0], path[-1] if path else FRONT, max(len(path) - 1, 0),
                   chunk.lines[0], chunk.pages[0], self._words, self._last)


class OutlineView:
    """Chunks in, the outline's lines out (see the module)."""

    def __init__(self, as_json: bool = False) -> None:
        self._json = as_json
        self._sections = Sections()
        self._held: List[Dict[str, Any]] = []  # lines refused, waiting for the section that holds them

    def feed(self, chunks: List[Chunk]) -> str:
        return "".join(map(self._node, self._sections.feed(chunks)))

    def close(self) -> str:
        out = "".join(map(self._node, self._sections.close()))
        out += "".join(map(self._refused, self._held))
        self._held = []
        return out

    def refused(self, event: Dict[str, Any]) -> str:
        """Hold a diagnostic, if it is a heading-shaped line read as text, for its section."""
        if event.get("kind") != "rejected_heading":
            return ""
        self._held.append(event)
        if len(self._held) <= MAX_HELD:
            return ""
        held, self._held = self._held, []
        return "".join(map(self._refused, held))

    def _node(self, node: Node) -> str:
        out = self._line(node)
        if node.id is not None and self._held and self._held[0].get("line", 0) <= node.last:
            at = 0
            while at < len(self._held) and self._held[at].get("line", 0) <= node.last:
                at += 1
            out += "".join(map(self._refused, self._held[:at]))
            del self._held[:at]
        return out

    def _refused(self, event: Dict[str, Any]) -> str:
        if self._json:
            return json.dumps({"refused": event.get("text"), "reason": event.get("reason"), "line": event.get("line")},
                              ensure_ascii=False) + "\n"
        return f"  ! refused (line {event.get('line')}): {event.get('text')} -- {event.get('reason')}\n"

    def _line(self, node: Node) -> str:
        if self._json:
            return json.dumps({**node._asdict(), "title": None if node.title == FRONT else node.title},
                              ensure_ascii=False) + "\n"
        indent = "  " * node.depth
        if node.id is None:
            return f"{indent}{node.title}\n"
        return f"{indent}{node.id}  {node.title}  (line {node.line}, page {node.page}, {node.words} words)\n"

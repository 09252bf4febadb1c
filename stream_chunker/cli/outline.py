"""``--outline``: the tree that was read, one line per section, for a user to
look at before ingesting.

Each line is a run of chunks with one heading path: its id (without the piece
number), its title, where it starts and how many words it holds, indented by
its depth in the heading path::

    1  Key details about your policy  (line 351, page 12, 40 words)
      1/whos-covered-by-your-policy  Who’s covered by your policy  (line 358, page 13, 61 words)

A section's line is written once the next section starts (its words are known
then), so the view streams as the chunks do and holds one section at a time.
``--outline --json`` writes the same as one JSON line per section: ``id``,
``title``, ``depth`` (from 0), ``line``, ``page``, ``words``.
"""

from __future__ import annotations

import json
from typing import List, Optional

from ..core.chunk import Chunk

FRONT = "(before the first heading)"


class OutlineView:
    """Chunks in, the outline's lines out (see the module)."""

    def __init__(self, as_json: bool = False) -> None:
        self._json = as_json
        self._open: Optional[Chunk] = None  # the first chunk of the section being summed
        self._words = 0

    def feed(self, chunks: List[Chunk]) -> str:
        out: List[str] = []
        for chunk in chunks:
            base = chunk.id.split("#", 1)[0]
            if self._open is not None and (self._open.id.split("#", 1)[0] != base
                                           or self._open.heading_path != chunk.heading_path):
                out.append(self._line())
                self._open = None
            if self._open is None:
                self._open, self._words = chunk, 0
            self._words += chunk.words
        return "".join(out)

    def close(self) -> str:
        return self._line() if self._open is not None else ""

    def _line(self) -> str:
        chunk = self._open
        assert chunk is not None
        path = chunk.heading_path.split(" > ") if chunk.heading_path else []
        title = path[-1] if path else FRONT
        depth = max(len(path) - 1, 0)
        if self._json:
            return json.dumps({"id": chunk.id.split("#", 1)[0], "title": title if path else None, "depth": depth,
                               "line": chunk.lines[0], "page": chunk.pages[0], "words": self._words},
                              ensure_ascii=False) + "\n"
        indent = "  " * depth
        return (f"{indent}{chunk.id.split('#', 1)[0]}  {title}  "
                f"(line {chunk.lines[0]}, page {chunk.pages[0]}, {self._words} words)\n")

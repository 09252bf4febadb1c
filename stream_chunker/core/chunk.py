"""The record the chunker emits."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal, Optional, Tuple

Oversize = Literal[False, "kept", "cut", "split"]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One citable piece of a document.

    >>> c = Chunk(id="4.2", clause="4.2", heading_path="Exclusions > Escape of water",
    ...           text="We cover sudden escape of water.", words=6, tokens=8,
    ...           real_tokens=None, citation=None, lines=(5, 6), pages=(1, 1), oversize=False)
    >>> c.to_dict()["lines"]
    [5, 6]
    """

    id: str
    """Citable id, unique within a run: ``4.2``, ``4.2#1`` for the first of several
    chunks of one section, ``front`` for text before the first heading, or
    ``MD-C-16-112-a`` in the statute profile."""

    clause: Optional[str]
    """The clause number alone, as a gold label writes it (``4.2``, ``16-112(a)``);
    ``None`` for front matter."""

    heading_path: str
    """Titles from the top-level section down, joined by ``" > "``."""

    text: str
    """The chunk's text: lines of a paragraph joined by single spaces, paragraphs by
    newlines (policy profile); source lines joined by single spaces (statute profile)."""

    words: int
    """Whitespace-separated words in ``text``."""

    tokens: int
    """The estimate: ``ceil(4 * words / 3)`` (0.75 words per token)."""

    real_tokens: Optional[int]
    """``len(encoding.encode_ordinary(text))``; ``None`` only when real counting is off."""

    citation: Optional[str]
    """Statute profile: the full citation, ``"§ 16-112(a) — 'text'"``; else ``None``."""

    lines: Tuple[int, int]
    """First and last raw input line (counted from 1) that the text came from."""

    pages: Tuple[int, int]
    """First and last page (1 plus the form feeds before the line)."""

    oversize: Oversize
    """``False``; ``"kept"`` when one paragraph over the cap was kept whole; ``"cut"``
    when the hard bound on a paragraph forced a cut."""

    part: Optional[str] = None
    """Policy profile, in a policy set whose numbering starts again under a
    title (the next wording, its endorsements): that title, the name of the
    part the chunk is in; ``None`` before the first such restart, and in a
    document of one part."""

    def to_dict(self) -> dict[str, Any]:
        """The chunk as a JSON-ready dict, with the field names of the JSON output.
        (Built field by field: ``dataclasses.asdict`` copies recursively, and
        took a quarter of the command line's time.)"""
        d = {name: getattr(self, name) for name in _FIELDS}
        d["lines"] = list(self.lines)
        d["pages"] = list(self.pages)
        return d


_FIELDS = tuple(f.name for f in fields(Chunk))


def with_real_tokens(chunk: Chunk, count: int) -> Chunk:
    """The chunk with its real token count (built field by field, as
    ``dataclasses.replace`` costs more than many a chunk's whole making)."""
    return Chunk(chunk.id, chunk.clause, chunk.heading_path, chunk.text, chunk.words, chunk.tokens, count,
                 chunk.citation, chunk.lines, chunk.pages, chunk.oversize, chunk.part)


def estimate_tokens(words: int) -> int:
    """Tokens estimated at 0.75 words per token, rounded up.

    >>> estimate_tokens(10), estimate_tokens(17), estimate_tokens(0)
    (14, 23, 0)
    """
    return (4 * words + 2) // 3

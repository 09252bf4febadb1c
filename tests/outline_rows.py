"""Scoring chunks against an outline's expected rows (``expected.tsv`` of the
SFIP forms): issue 14's rule, shared by the outline and PDF tests."""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from stream_chunker import Chunk

from .conftest import CORPUS

INSURANCE = CORPUS / "insurance"
Row = Tuple[Tuple[str, ...], str, str]


def squash(text: str) -> str:
    return " ".join(text.split())


def expected_rows(form: str) -> List[Row]:
    """``expected.tsv``: (path, label, first words) in reading order."""
    rows = []
    for line in (INSURANCE / f"{form}.expected.tsv").read_text(encoding="utf-8").splitlines():
        path, label, first = line.split("\t")
        rows.append((tuple(path.split("/")), label, first))
    return rows


def cited_path(clause: Optional[str]) -> Tuple[str, ...]:
    """A chunk's clause as outline labels, whatever it joins them with:
    ``III.C.2.a(1)`` and ``III.C.2.a.(1)`` are both III/C/2/a/(1)."""
    return tuple(re.findall(r"\([^()\s]+\)|[^.()\s]+", clause or ""))


def outline_rows_found(rows: Sequence[Row], chunks: Iterable[Chunk]) -> int:
    """Rows found by issue 14's rule: a chunk is cited to the row's path; or a
    chunk cited to one of its ancestors holds its label and first words; or
    chunks are cited below it."""
    cited: Dict[Tuple[str, ...], List[str]] = {}
    for chunk in chunks:
        if chunk.clause is not None:
            cited.setdefault(cited_path(chunk.clause), []).append(squash(chunk.text))
    found = 0
    for path, label, first in rows:
        start = squash(f"{label} {first}")
        if (path in cited
                or any(start in text for depth in range(1, len(path)) for text in cited.get(path[:depth], []))
                or any(len(other) > len(path) and other[:len(path)] == path for other in cited)):
            found += 1
    return found


def rows_in_chunks(rows: Sequence[Row], chunks: Iterable[Chunk]) -> int:
    """Rows whose label and first words reach some chunk, cited or not."""
    texts = [squash(c.text) for c in chunks]
    return sum(any(squash(f"{label} {first}") in text for text in texts) for _, label, first in rows)

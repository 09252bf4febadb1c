"""The end-of-run report: what was read, what was made, what was dropped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional

from .chunk import Chunk


WEAK_SHARE = 0.5
WEAK_MIN_WORDS = 200
"""A text this short may well have no headings: its structure is not called weak."""

DROPPED: Dict[str, str] = {"furniture": "furniture", "banner_line": "furniture", "contents": "contents",
                           "own_number_line": "headings"}
"""The diagnostics of a line taken out of the text, and where its words are
accounted (``words_elsewhere``): each of them carries the line's text."""


@dataclass
class Report:
    """Running totals; :meth:`as_dict` is the report users see."""

    profile: str
    cap: int
    cap_unit: str
    encoding: Optional[str]
    chunks: int = 0
    estimate_total: int = 0
    real_total: int = 0
    under_estimate_over_real: int = 0
    kept: int = 0
    cut: int = 0
    split: int = 0
    furniture_lines: int = 0
    replaced_bytes: int = 0
    diagnostics: Dict[str, int] = field(default_factory=dict)
    auto: bool = False
    signatures: Dict[str, int] = field(default_factory=dict)
    mismatch: Optional[Dict[str, Any]] = None
    caps_tokens: bool = True
    """The cap is a number of tokens (estimated or real), not of characters."""
    read_from: str = "text"
    """``text``, or how a driver extracted it: ``pdf (pdfium)``, ``pdf (pdftotext)``."""
    words: int = 0
    words_outside: int = 0
    """Words of chunks under no heading and no clause (front matter, or a text whose structure was not found)."""

    dropped_words: Dict[str, int] = field(default_factory=dict)
    """Words of the lines taken out of the text, by where they are accounted (``DROPPED``)."""

    def note(self, kind: str, details: Dict[str, Any]) -> None:
        self.diagnostics[kind] = self.diagnostics.get(kind, 0) + 1
        where = DROPPED.get(kind)
        if where is not None:
            self.dropped_words[where] = self.dropped_words.get(where, 0) + len(details["text"].split())
        if kind == "furniture":
            self.furniture_lines += 1
        elif kind == "replaced_byte":
            self.replaced_bytes += details.get("bytes", 1)

    def add(self, chunk: Chunk) -> None:
        self.chunks += 1
        self.words += chunk.words
        if chunk.clause is None and not chunk.heading_path:
            self.words_outside += chunk.words
        self.estimate_total += chunk.tokens
        if chunk.real_tokens is not None:
            self.real_total += chunk.real_tokens
            if self.caps_tokens and chunk.tokens <= self.cap < chunk.real_tokens:
                self.under_estimate_over_real += 1
        if chunk.oversize == "kept":
            self.kept += 1
        elif chunk.oversize == "cut":
            self.cut += 1
        elif chunk.oversize == "split":
            self.split += 1

    def weak(self) -> bool:
        """Most of a document's words sit under no heading and no clause: its
        structure was not found (``WEAK_SHARE``), and retrieval cannot cite it."""
        return self.words >= WEAK_MIN_WORDS and self.words_outside > WEAK_SHARE * self.words

    def words_elsewhere(self, counts: Dict[str, int]) -> Dict[str, int]:
        """Where the words read and not in any chunk's text went: into heading
        paths and clauses, out with page furniture and contents lists, or into
        one word where a soft hyphen broke it at a line end."""
        dropped = self.dropped_words
        return {"headings": counts.get("heading_words", 0) + dropped.get("headings", 0),
                "furniture": dropped.get("furniture", 0), "contents": dropped.get("contents", 0),
                "joined": counts.get("soft_hyphens", 0)}

    def unaccounted(self, words_in: int, words_cut: int, counts: Dict[str, int]) -> int:
        """Words read that are in no chunk's text and not accounted for
        elsewhere: 0, unless this engine is at fault. A word longer than the
        hard bound, cut in two, is one word more in the chunks (``words_cut``)."""
        return words_in + words_cut - self.words - sum(self.words_elsewhere(counts).values())

    def as_dict(self, *, lines: int, pages: int, nul_bytes: int, counts: Dict[str, int],
                profile: Dict[str, Any], counting: Dict[str, Any], words_in: int = 0,
                words_cut: int = 0) -> Dict[str, Any]:
        real = self.real_total if self.encoding else None
        elsewhere = self.words_elsewhere(counts)
        return {
            "profile": self.profile,
            "profile_chosen": "auto" if self.auto else "given",
            "signature_lines": dict(self.signatures),
            "profile_mismatch": self.mismatch,
            "read_from": self.read_from,
            "lines": lines,
            "pages": pages,
            "chunks": self.chunks,
            "sections": counts.get("sections", 0),
            "furniture_lines": self.furniture_lines,
            "contents_lines": counts.get("contents_lines", 0),
            "headings_rejected": counts.get("headings_rejected", 0),
            "soft_hyphens": counts.get("soft_hyphens", 0),
            **profile,
            "structure": {"words": self.words, "words_outside": self.words_outside,
                          "share_under_heading": round(1 - self.words_outside / self.words, 4) if self.words else None,
                          "weak": self.weak()},
            "words_in": words_in,
            "words_out": self.words,
            "words_elsewhere": elsewhere,
            "words_cut": words_cut,
            "words_unaccounted": self.unaccounted(words_in, words_cut, counts),
            "oversize": {"kept": self.kept, "cut": self.cut, "split": self.split},
            "cap": {"limit": self.cap, "unit": self.cap_unit},
            "tokens": {
                "encoding": self.encoding,
                "estimate_total": self.estimate_total,
                "real_total": real,
                "estimate_to_real": round(self.estimate_total / real, 4) if real else None,
                "under_cap_by_estimate_over_by_real": self.under_estimate_over_real if real is not None else None,
                "count_worker": counting.get("count_worker", False) if real is not None else None,
            },
            "nul_bytes": nul_bytes,
            "replaced_bytes": self.replaced_bytes,
            "diagnostics": dict(sorted(self.diagnostics.items())),
        }

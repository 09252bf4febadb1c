"""Which profile a text reads like, from a look at its first lines.

Each profile may name a *signature* (``ProfileSpec.signature``): the lines that
documents of its kind print and others do not -- a code's section lines
(``§ 31-2401 Findings; purpose.``), a wording's numbered or roman headings
(``4.2 Escape of water``, ``I. AGREEMENT``). The sniffer counts each
signature's lines in the first ``WINDOW`` characters, which bounds its work
and its memory, and the text ``auto`` holds back, whatever the document's
length. ``profile="auto"`` takes
the profile with the most (the first registered on a tie, so a text with no
signature at all gets the default); with a named profile, a text where another
signature is clearly ahead gets a ``profile_mismatch`` diagnostic, since the
wrong profile gives no error, only poor chunks (the policy profile makes the
DC code one 97 KB chunk).
"""

from __future__ import annotations

import re
from typing import Dict, Optional, Pattern, Tuple

WINDOW = 1 << 16
"""Characters looked at: some hundreds of lines."""
CLEAR = 3
"""A signature counts as the text's when it has this many lines and at least
twice those of the profile in use."""


class Sniffer:
    """Counts signature lines in the first ``WINDOW`` characters of the text fed."""

    def __init__(self, signatures: Dict[str, Pattern[str]]) -> None:
        # Each signature after a line end (a pattern that starts with one is
        # searched for at C speed, newline to newline; one that starts with
        # ``^`` is tried at every character), and at the start of a block;
        # multi-line, so that ``$`` ends each line.
        self._signatures = [(name, re.compile(rf"[ \t\f]*(?:{pattern.pattern})", re.M),
                             re.compile(rf"\n[ \t\f]*(?:{pattern.pattern})", re.M))
                            for name, pattern in signatures.items()]
        self.counts: Dict[str, int] = {name: 0 for name in signatures}
        self.examples: Dict[str, Tuple[int, str]] = {}  # each profile's first signature line
        self.lines = 0  # lines looked at
        self._tail = ""  # a line not ended yet
        self._chars = 0
        self.done = not signatures

    def feed(self, text: str) -> bool:
        """Look at more text; ``True`` once the window is full."""
        if self.done:
            return True
        text = text[: WINDOW - self._chars]
        self._chars += len(text)
        block = self._tail + text
        if "\r" in block:
            block = block.replace("\r\n", "\n").replace("\r", "\n")
        end = block.rfind("\n") + 1
        self._tail = block[end:]
        self._look(block[:end])
        if self._chars >= WINDOW:
            self.close()
        return self.done

    def close(self) -> None:
        if not self.done:
            self._look(self._tail)
        self._tail = ""
        self.done = True

    def _look(self, block: str) -> None:
        for name, at_start, after_line_end in self._signatures:
            first = at_start.match(block)
            found = len(after_line_end.findall(block)) + (first is not None)
            if found:
                self.counts[name] += found
                if name not in self.examples:
                    m = first or after_line_end.search(block)
                    assert m is not None
                    start = 0 if m is first else m.start() + 1
                    line = block[start:block.find("\n", start) % (len(block) + 1)].strip()
                    self.examples[name] = (self.lines + block.count("\n", 0, start) + 1, line[:80])
        self.lines += block.count("\n")

    def best(self) -> str:
        """The profile whose signature has the most lines (the first on a tie)."""
        return max(self.counts, key=lambda name: self.counts[name])

    def reads_like(self, profile: str) -> Optional[str]:
        """Another profile the text clearly reads like, or ``None``."""
        best = self.best()
        if best == profile:
            return None
        count = self.counts[best]
        return best if count >= CLEAR and count >= 2 * self.counts.get(profile, 0) else None

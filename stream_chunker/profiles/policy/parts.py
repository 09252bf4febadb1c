"""The parts of a policy set: where a document's own numbering starts again.

A policy set prints several wordings in one text (a motor wording, then a
household wording, then their endorsements), each numbered from ``1``. The
document's *main numbering* is the style of its first numbered heading at the
top, with nothing above it. A heading of that style at its first value,
after a later one, where it stands outermost (only headings without a number
above it), starts a new part where it comes under a heading without a number
at the top that names no part yet (``HOUSEHOLD POLICY`` ⏎ ``1. Definitions``,
after the motor wording's ``1.``-``9.``), which names the part. A restart with no such heading over it
(``1. Definitions`` straight after ``9. Claims``) opens none: without a title
it is as likely a table of the sections read as headings, and its ids get
``~2`` as ever.

A list that starts again under each of a wording's headings (``What is
covered`` ⏎ ``1.``, ``What is not covered`` ⏎ ``1.``) is no part: that
numbering never stood at the top with nothing above it; nor is a list of
items (``GENERAL CONDITIONS`` ⏎ ``1. You must tell us …``) after numbered
headings: only a heading starts the numbering again.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..labels import DECIMAL, Meaning, Value, is_first
from .state import UNNUMBERED, Open


class Parts:
    """Watches the levels the profile opens; ``current`` is the part's name."""

    __slots__ = ("current", "count", "_style", "_last", "_head")

    def __init__(self) -> None:
        self.current: Optional[str] = None
        """The open part's name (``Chunk.part``); ``None`` in the first part."""
        self.count = 1
        """Parts so far (the document is one part until its numbering starts again)."""
        self._style: Optional[str] = None  # the main numbering's style
        self._last: Value = (0, 0)  # its last value
        self._head: Optional[Open] = None  # the heading that names the open part

    def opening(self, above: Sequence[Open], opened: Open) -> None:
        """``opened``, a numbered heading under the levels ``above``, opens its unit."""
        if any(o.level.style != UNNUMBERED for o in above):
            return  # (not outermost: a level inside the outline)
        style, value = opened.level.style, opened.level.value
        if self._style is None:
            if not above:
                self._style, self._last = style, value
            return
        if style != self._style:
            return
        if above and above[0] is not self._head and _restarts(style, value, self._last):
            self.count += 1
            self._head = above[0]
            self.current = above[0].title
        self._last = value


def _restarts(style: str, value: Value, last: Value) -> bool:
    """``value`` starts the numbering of ``last`` again: a first value after a
    later one (for decimal sections, ``1`` or ``1.1`` after ``9.3``, where
    ``2.1`` after ``1.4`` goes on)."""
    if style == DECIMAL:
        return value[0] == 1 and last[0] > 1
    return is_first(Meaning(style, value)) and not is_first(Meaning(style, last))

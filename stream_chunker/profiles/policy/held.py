"""A list's first label read as text, held while its next may prove it a list's.

A label is decided on its line, from the line before it. A list that a
sentence leads into (``… provided that,`` ⏎ ``1. The organ donor …``), or
that restarts its family under a heading of that family (``6. Living Donor
Medical Costs`` over ``1.``, ``2.``), looks on that one line like words that
wrap onto a new line. The next label, at a line start in the same paragraph
a few lines on, tells them apart: the profile keeps the first one's place
here, and opens both when the second comes (``PolicyProfile.open_label``).
"""

from __future__ import annotations

from typing import NamedTuple

from ...core.records import Line
from .placing import Placement


HELD_LINES = 12
"""How many lines a list's first label read as text is held for, in case its
next label proves it a list (see ``Held``)."""


class Held(NamedTuple):
    """A list's first label read as text -- for the line before it alone
    (``provided that,`` ⏎ ``1. The organ donor …``), or as its family is open
    above it (under ``6. Living Donor Medical Costs``) --, where it would have
    gone, while the next label may still prove it right (``2. We have
    accepted …`` at a line start in the same paragraph, within
    ``HELD_LINES``): then both open, in hindsight."""

    rec: Line
    placed: Placement
    before: Line
    """The open paragraph's last record before it."""
    counted: bool
    """Its refusal was counted (``outline_labels_refused``)."""

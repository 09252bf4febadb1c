"""The scanner's stages put together: text in, the reader's records out.

Text goes through the stages in this order, each handing on to the next:

1. ``splitter``: pieces of text of any size into complete lines;
2. ``zones``: text held around each page break until its furniture is judged;
3. ``cutter``: judged text into records, for the reader.

A line longer than the hard bound never travels whole: its pieces go down the
same stages beside the lines (each stage's ``long_line``), so that no stage
holds more than the bound of it. :func:`chain` names every connection once.
"""

from __future__ import annotations

import re
from typing import Callable, Optional, Pattern, Tuple

from ..layout import Layout
from ..records import Line
from .cutter import Classify, Emit, RecordCutter
from .splitter import LineSplitter
from .zones import PageZones


class Stages:
    """The three stages, chained: text goes in at ``splitter``."""

    def __init__(self, splitter: LineSplitter, zones: PageZones, cutter: RecordCutter) -> None:
        self.splitter = splitter
        self.zones = zones
        self.cutter = cutter


def chain(*, bound: int, special: Callable[[], Tuple[Pattern[str], Pattern[str]]], leader: Optional[Pattern[str]],
          classify: Classify, records: Emit, furniture: Callable[[Line], None],
          diagnose: Callable[..., None], layout: Optional[Layout] = None,
          yields: Optional[Callable[[Tuple[str, "re.Match[str]"]], bool]] = None) -> Stages:
    """The stages for one document: ``records`` is given each record;
    ``special``, ``leader`` and ``classify`` are the profile's (see
    ``cutter``); ``furniture`` is told of each line judged furniture;
    ``bound`` is the hard bound on a line or paragraph; ``diagnose`` notes events;
    ``layout`` marks the lines a PDF sets above its body text, if the profile reads them;
    ``yields`` names the lines the profile's rules take that such a mark makes styled instead."""
    cutter = RecordCutter(special=special, leader=leader, classify=classify, emit=records, drop=furniture,
                          bound=bound, diagnose=diagnose, layout=layout, yields=yields)
    zones = PageZones(release=cutter.take, long_line=cutter.long_line, layout=layout)
    splitter = LineSplitter(bound, lines=zones.feed, long_piece=zones.long_line, lines_passed=lambda: zones.lines,
                            diagnose=diagnose)
    return Stages(splitter, zones, cutter)

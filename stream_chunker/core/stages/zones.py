"""The second stage: text is held back until the page furniture in it is judged.

Each page break has a *zone*: the last ``ZONE_LINES`` non-blank lines before it and the first
ones after it (the start of the text is the top of a first page, and, if the text had pages, its
end is the foot of the last). A zone is judged (see ``core.stages.furniture``) once the zones of
the next ``ZONES_APART`` breaks are complete, so that a header is known to recur the first time it
appears. Text goes on to the record cutter once no zone that is still to be judged reaches into
it, and its last few non-blank lines wait too, as the next break would make them a page's foot.

Every decision depends on the text alone (and, from a PDF, the layout's marks, noted before the
text comes), never on how it was cut into pieces: a zone waits at most for a *window* of text
after its first line (``MAX_LOOKAHEAD`` characters, ``MAX_LOOKAHEAD_LINES`` lines), and is judged
on the zone lines inside that window -- when the zones it waits for complete inside it, when the
text passes it, or at the end of the text, whichever comes first. The last lines are held only
within such a window too, so that a page longer than that, or a run of blank lines of any length,
is let go and never held whole. A line too long to hold (see ``core.stages.splitter``) is a
barrier: the zones before it are judged on what came before it.

Work is done per page, not per line: form feeds and non-blank lines are found with ``str``
methods and one pattern over each new block, and no block is copied whole.

Why one module of this length: what is held, what each zone waits for and what is let go
are three views of one set of offsets into the held blocks; apart, each would have to keep
the others' offsets in step.
"""

from __future__ import annotations

import re
from collections import deque
from itertools import islice
from typing import Callable, Deque, Dict, List, Optional, Set, Tuple

from ..layout import ZONE_LINES, Layout
from ..records import new
from .furniture import (MAX_LOOKAHEAD, MAX_LOOKAHEAD_LINES, ZONES_APART, ZoneLine, NO_TITLES, unmarked, filed_under,
                        furniture, line_form)

# The start of the next line with something on it.
_NONBLANK_LINE = re.compile(r"(?m)^[^\S\n]*\S")


def before_form_feed(start: int) -> int:
    """The key under which the text before a form feed, on the line at
    ``start``, is judged (the text after it goes under ``start`` itself)."""
    return -start - 2


def zone_line(key: int, start: int, line: int, end: int, page: int, text: str) -> ZoneLine:
    form, numbers = line_form(text)
    return new(ZoneLine, (key, start, line, end, page, form, numbers))


PENDING = 64
"""Zones a block may leave waiting before they are judged, however many page
edges it holds (a block with a form feed on every line would else hold a zone
for each)."""


class Zone:
    """The lines around one page edge that may be furniture."""

    __slots__ = ("at", "edge", "first", "first_line", "lines", "forms", "found", "completed", "furniture", "titles")

    def __init__(self, at: int, at_line: int, at_end: int) -> None:
        self.at = at  # the page edge: its form feed's line, or the start of the text
        self.edge = (at_line, at_end)  # that line's number and where it ends
        self.first, self.first_line = at, at_line  # where the zone's text begins
        self.lines: List[ZoneLine] = []  # the page's foot from its edge back, then the next page's top
        self.forms: Dict[str, List[ZoneLine]] = {}  # its lines by the keys they are filed under
        self.found = 0  # lines found at the top of the page so far
        self.completed: Optional[Tuple[int, int]] = None  # (line, end) where its top was complete
        self.furniture: List[int] = []  # the keys of its lines judged furniture, once judged
        self.titles: Set[Tuple[str, Tuple[int, ...]]] = set()  # its titles set larger (form, numbers), once judged

    def add(self, line: ZoneLine) -> None:
        self.lines.append(line)
        for key in filed_under(line):
            self.forms.setdefault(key, []).append(line)
        if line.start < self.first:
            self.first, self.first_line = line.start, line.line

    def inside(self, line: int, end: int) -> bool:
        """Whether a line (its number and where it ends) is inside the window
        of text this zone may wait for."""
        return line < self.first_line + MAX_LOOKAHEAD_LINES and end <= self.first + MAX_LOOKAHEAD


Release = Callable[[str, Set[int], str], None]
LongLine = Callable[[str, bool, bool], None]


class PageZones:
    """Holds text back until its zones are judged; passes it to ``release`` with the keys of its furniture
    lines (line starts in it, or ``before_form_feed`` of one) and the two lines after it, still held (or fewer)."""

    def __init__(self, release: Release, long_line: LongLine, layout: Optional[Layout] = None) -> None:
        self._release = release
        self._long_line = long_line
        self._layout = layout  # which lines a PDF's layout sets larger than the body, if the profile reads it
        self._set_larger = layout.set_larger if layout is not None else unmarked  # (by line number)
        self._held: Deque[str] = deque()  # text fed and not yet released, in blocks
        self._skip = 0  # characters of the first held block released already
        self._base = 0  # offset of the held text in the whole text
        self._end = 0  # offset of the end of the text fed
        self._lines = 0  # complete lines fed
        self._page = 1  # the page at the end of the text fed
        start = Zone(0, 1, 0)
        self._pending: Deque[Zone] = deque([start])  # zones not yet judged, in order
        self._collecting: Optional[Zone] = start  # the zone still finding its top lines
        self._judged: List[Zone] = []  # the last ZONES_APART zones judged
        self._recent: List[ZoneLine] = []  # the last non-blank lines since the last page edge, at most ZONE_LINES
        self._furniture: Set[int] = set()  # keys of furniture lines not yet released
        self._had_pages = False

    @property
    def lines(self) -> int:
        """Line ends taken so far."""
        return self._lines

    # -- input ---------------------------------------------------------------
    def feed(self, block: str) -> None:
        """Complete lines, each ending in ``\\n``."""
        offset, line = self._end, self._lines + 1
        self._held.append(block)
        pos = 0
        while pos < len(block):
            ff = block.find("\f", pos)
            edge = len(block) if ff < 0 else block.rfind("\n", 0, ff) + 1
            if edge > pos:
                line = self._plain(block, pos, edge, offset, line)
            if ff < 0:
                break
            end = block.index("\n", ff) + 1
            self._page_edge(block[edge:end - 1], offset + edge, line, offset + end)
            line += 1
            pos = end
            if len(self._pending) > PENDING:  # many page edges in one block: judge them as they come
                self._end, self._lines = offset + pos, line - 1
                self._decide(final=False)
        self._end = offset + len(block)
        self._lines = line - 1
        self._decide(final=False)

    def long_line(self, text: str, first: bool, final: bool) -> None:
        """A piece of a line too long to hold (``first``, ``final``: its first
        and last), passed on at once: a barrier to the zones before it."""
        if first:
            self._decide(final=True)
            self._recent = []
            self._collecting = None
        self._end += len(text) + final
        self._base = self._end  # nothing is held while it goes on
        self._lines += final
        if "\f" in text:
            self._page += text.count("\f")
            self._had_pages = True
        self._long_line(text, first, final)

    def close(self) -> None:
        if self._had_pages:
            end = Zone(self._end, self._lines + 1, self._end)
            for recent in reversed(self._usable(self._lines, self._end)):
                end.add(recent)
            self._pending.append(end)
        self._decide(final=True)

    # -- finding zone lines ----------------------------------------------------
    def _plain(self, block: str, pos: int, edge: int, offset: int, line: int) -> int:
        """Lines with no form feed from ``pos`` to ``edge``: the top of a page
        that is still being found, and the last lines that may become a foot.
        Returns the number of the line at ``edge``."""
        zone = self._collecting
        if zone is not None:
            at, at_line = pos, line
            while zone.found < ZONE_LINES:
                m = _NONBLANK_LINE.search(block, at, edge)
                if m is None:
                    break
                start = m.start()
                end = block.index("\n", start)
                at_line += block.count("\n", at, start)
                if not zone.inside(at_line, offset + end + 1):
                    self._collecting = None  # past the window it may wait for
                    break
                zone.add(zone_line(offset + start, offset + start, at_line, offset + end + 1, self._page,
                                   block[start:end].strip()))
                zone.found += 1
                if zone.found == ZONE_LINES:
                    zone.completed = (at_line, offset + end + 1)
                    self._collecting = None
                at, at_line = end + 1, at_line + 1
        # The last non-blank lines: walked back from the end, as a page's
        # lines are many and its last few are all that is needed.
        lines_at_edge = line + block.count("\n", pos, edge)
        found: List[ZoneLine] = []
        end = edge  # the end of the last line with text, found without a copy of the block
        while end > pos and block[end - 1].isspace():
            end -= 1
        while end > pos and len(found) < ZONE_LINES:
            start = block.rfind("\n", pos, end) + 1 or pos
            text = block[start:end].strip()
            if text:
                end_of_line = block.index("\n", end)
                found.append(zone_line(offset + start, offset + start, lines_at_edge - block.count("\n", start, edge),
                                       offset + end_of_line + 1, self._page, text))
            end = start - 1
        found.reverse()
        self._recent = (self._recent + found)[-ZONE_LINES:]
        return lines_at_edge

    def _page_edge(self, raw: str, start: int, line: int, end: int) -> None:
        """A line with form feeds: the zone of its page edge begins."""
        self._had_pages = True
        if self._collecting is not None:
            self._collecting.completed = (line, end)  # the next page began before its top was full
            self._collecting = None
        zone = Zone(start, line, end)
        before = raw[: raw.find("\f")].strip()
        if before:  # the page's last line, with the form feed after it
            zone.add(zone_line(before_form_feed(start), start, line, end, self._page, before))
        for recent in reversed(self._usable(line, end)[-(ZONE_LINES - bool(before)):]):
            zone.add(recent)
        self._page += raw.count("\f")
        after = raw[raw.rfind("\f") + 1:].strip()
        if after:  # the next page's first line shares the form feed's line
            zone.add(zone_line(start, start, line, end, self._page, after))
            zone.found = 1
        self._recent = []
        self._collecting = zone
        self._pending.append(zone)

    def _usable(self, line: int, end: int) -> List[ZoneLine]:
        """The recent lines still inside the window of text they may wait for,
        seen from the line ``line`` that ends at ``end``."""
        return [r for r in self._recent
                if line < r.line + MAX_LOOKAHEAD_LINES and end <= r.start + MAX_LOOKAHEAD]

    # -- judging and letting go ------------------------------------------------
    def _decide(self, final: bool) -> None:
        """Judge every zone whose time has come, in order; let go of the text
        that nothing waits for any more."""
        pending = self._pending
        while pending:
            zone = pending[0]
            ready = self._ready(zone)
            if ready is None:
                if not final:
                    break
                ready = zone.inside(self._lines, self._end)
            near = self._judged + list(islice(pending, 1, ZONES_APART + 1))
            known = [key for other in self._judged for key in other.furniture]
            lines, forms = zone.lines, [other.forms for other in near]
            if not ready:  # the text passed its window first: judged on what is inside it
                def inside(line: ZoneLine, zone: Zone = zone) -> bool:
                    return zone.inside(line.line, line.end)
                # Only page edges inside the window count: fed line by line, the text would not be beyond it.
                forms = [{form: [z for z in filed if inside(z)] for form, filed in other.forms.items()}
                         for other in near if zone.inside(*other.edge)]
                lines = [z for z in zone.lines if inside(z)]
            # (Text without a layout sets no title larger: nothing to look for.)
            styled = self._layout is not None and self._layout.styled()
            titles = {title for other in self._judged for title in other.titles} if styled else NO_TITLES
            zone.furniture = furniture(lines, forms, known, zone.edge[0], self._set_larger, titles)
            self._furniture.update(zone.furniture)
            if styled:
                zone.titles = self._titles_kept(zone, lines, near[len(self._judged):], ready)
            pending.popleft()
            if zone is self._collecting:
                self._collecting = None
            self._judged = (self._judged + [zone])[-ZONES_APART:]
        if final:
            self._collecting = None
        frontier = self._end
        if pending:
            frontier = pending[0].first
        usable = self._usable(self._lines, self._end)
        if usable and not final:
            frontier = min(frontier, usable[0].start)
        self._let_go(frontier)

    def _titles_kept(self, zone: Zone, lines: List[ZoneLine], later: List[Zone],
                     ready: bool) -> Set[Tuple[str, Tuple[int, ...]]]:
        """The forms and numbers of the zone's ``lines``, just judged, kept as
        titles set larger, whose form the ``later`` zones hold too (inside the
        zone's window, unless it was ``ready`` first): a later copy of one, not
        set larger, is the running header it has become (``furniture``)."""
        shared = {form for other in later if ready or zone.inside(*other.edge)
                  for form, filed in other.forms.items()
                  if form in zone.forms and (ready or any(zone.inside(z.line, z.end) for z in filed))}
        return {(line.form, line.numbers) for line in lines
                if line.form in shared and line.key not in zone.furniture and self._set_larger(line.line)}

    def _ready(self, zone: Zone) -> Optional[bool]:
        """True when a zone ``ZONES_APART`` later has completed inside the
        zone's window (so have those between: zones wait in order, one per
        page edge), or it has no lines to judge; False when the text has passed
        its window first; None while it waits."""
        later = self._pending[ZONES_APART].completed if len(self._pending) > ZONES_APART else None
        if zone.completed is not None and (not zone.lines or later is not None and zone.inside(*later)):
            return True
        return None if zone.inside(self._lines, self._end) else False

    def _let_go(self, frontier: int) -> None:
        if frontier <= self._base:
            return
        held, out, pos, skip = self._held, [], self._base, self._skip
        while held:
            block = held[0]
            end = pos + len(block) - skip
            if end > frontier:  # the frontier falls inside this block: the rest stays, uncopied
                out.append(block[skip:skip + frontier - pos])
                skip += frontier - pos
                break
            out.append(block[skip:] if skip else block)
            held.popleft()
            pos, skip = end, 0
        self._skip = skip
        base, self._base = self._base, frontier
        keys = {k for k in self._furniture if base <= (k if k >= 0 else -k - 2) < frontier}
        self._furniture -= keys
        self._release("".join(out), {k - base if k >= 0 else k + base for k in keys}, self._next_lines())

    def _next_lines(self) -> str:
        """The first two lines still held, or fewer (a title alone on the text's
        last line may wrap onto the next: ``Changes to your`` ⏎ ``circumstances``)."""
        held, skip = self._held, self._skip
        if not held:
            return ""
        first = held[0]
        end = first.index("\n", skip) + 1
        if end < len(first):
            return first[skip:first.index("\n", end) + 1]
        return first[skip:] + (held[1][:held[1].find("\n") + 1] if len(held) > 1 else "")

"""The reader's finite-state machine: every state, every transition, in one place.

Theory of operation
-------------------
The chunker reads a document one line at a time. Each line is classified
(``blank_line``, ``text_line``, ``heading_line``, ``label_line``,
``contents_line``, or a ``page_break``) by the profile's ordered pattern table,
and the class is the trigger fired on the machine below. The machine's state
says where the reader is -- before the first line, in a contents list, at the top
of a page, just after a heading, inside a paragraph, between paragraphs, just
after a statute label -- and each transition names the *action* the layout
(the policy or statute profile) performs on the line and the *conditions* that
pick between transitions. The profile owns the rules (is this number next in
sequence? does this label continue an open level?); this module owns state.

Firing a ``transitions`` trigger costs 10-20 µs, while a body line must cost
well under one, so the machine is fired only where the state it is in changes
for longer than a line. :class:`Reader` derives a lean path from the same table:
a (state, class) pair whose only transition is unconditional and leaves the
state as it is (a body line inside a paragraph) runs its action directly; a
transition that changes the state waits one record, and when that record is
bound to bring the machine back (a heading, then its text) both run directly;
separators -- blank lines and page breaks -- are held for one line and fire only
when they change what that line does (see :class:`Reader`). The machine thus
fires where a heading, a label, a contents list, a blank line or a page break
changes how the lines after it are read.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from transitions import Machine

STATES: Tuple[str, ...] = (
    "start",
    "in_contents",
    "in_header",
    "at_heading",
    "in_paragraph",
    "between_paragraphs",
    "at_label",
)
"""Where the reader is. ``in_header`` runs from a page break to the first body
line of the new page (the page furniture in between never reaches the machine)."""

BLANK = "blank_line"
TEXT = "text_line"
HEADING = "heading_line"
LABEL = "label_line"
CONTENTS = "contents_line"
PAGE_BREAK = "page_break"
LINE_CLASSES: Tuple[str, ...] = (BLANK, TEXT, HEADING, LABEL, CONTENTS, PAGE_BREAK)
"""The triggers: one per class of line."""

PARAGRAPHS = "paragraphs"
"""Not a class of line but a record of several: body paragraphs, each after
blank lines -- ``blank_line`` then ``text_line``, over and over (see ``_scan``)."""


def paragraph_records(rec: Sequence[Any]) -> Iterator[Tuple[Any, ...]]:
    """The ``text_line`` records, each after blank lines, that a ``PARAGRAPHS``
    record stands for."""
    page = rec[1]
    return ((first, page, text, last, TEXT, None, True) for first, last, text in rec[2])


class Row(NamedTuple):
    """One transition: from ``source`` on ``trigger`` to ``dest`` when every
    condition holds, running ``actions`` on the layout (in order) before the change."""

    trigger: str
    source: str
    dest: str
    conditions: Tuple[str, ...]
    actions: Tuple[str, ...]


# How a line of body text is taken in each state. Headings and labels that fail
# their rules fall back to exactly these rows (after a diagnostic), so the rule
# for "this line is text after all" is written once.
_TEXT_ROWS: Dict[str, List[Tuple[str, Tuple[str, ...], str]]] = {
    "start": [("in_paragraph", (), "open_paragraph")],
    "in_contents": [
        ("in_contents", ("is_contents_number",), "hold_contents_number"),
        ("in_paragraph", (), "open_paragraph"),
    ],
    "in_header": [
        ("in_paragraph", ("continues_across_page",), "continue_paragraph"),
        ("in_paragraph", (), "open_paragraph"),
    ],
    "at_heading": [
        ("in_paragraph", ("continues_heading",), "continue_heading"),
        ("in_paragraph", (), "open_paragraph"),
    ],
    "in_paragraph": [("in_paragraph", (), "continue_paragraph")],
    "between_paragraphs": [("in_paragraph", (), "open_paragraph")],
    "at_label": [("in_paragraph", (), "continue_paragraph")],
}

# Where a label is licensed by what came before it: a blank line, a page break,
# a section start, the start of the text. After a line of text, or after a
# label line that carried text, the line before must also end a clause.
_LABEL_LICENSE: Dict[str, Tuple[str, ...]] = {
    "start": (),
    "in_contents": (),
    "in_header": (),
    "at_heading": (),
    "in_paragraph": ("follows_clause_end",),
    "between_paragraphs": (),
    "at_label": ("follows_clause_end",),
}


def _rows() -> List[Row]:
    rows: List[Row] = []
    for state in STATES:
        as_text = _TEXT_ROWS[state]
        rows += [Row(TEXT, state, dest, cond, (action,)) for dest, cond, action in as_text]
        rows.append(Row(HEADING, state, "at_heading", ("opens_section",), ("open_section",)))
        rows += [Row(HEADING, state, d, c, ("reject_heading", a)) for d, c, a in as_text]
        rows.append(Row(LABEL, state, "at_label", _LABEL_LICENSE[state] + ("opens_label",), ("open_label",)))
        rows += [Row(LABEL, state, d, c, ("reject_label", a)) for d, c, a in as_text]
        rows.append(Row(CONTENTS, state, "in_contents", (), ("add_contents",)))
        rows.append(Row(PAGE_BREAK, state, "in_header", (), ("turn_page",)))
        if state in ("in_paragraph", "at_heading", "at_label"):
            rows.append(Row(BLANK, state, "between_paragraphs", (), ("end_paragraph",)))
        else:
            rows.append(Row(BLANK, state, state, (), ("skip",)))
    return rows


TRANSITIONS: Tuple[Row, ...] = tuple(_rows())
"""The whole table. Rows sharing a trigger and source are tried in order; the
last of each group has no condition, so every (state, class) pair is handled."""

ACTIONS: Tuple[str, ...] = tuple(sorted({a for r in TRANSITIONS for a in r.actions}))
CONDITIONS: Tuple[str, ...] = tuple(sorted({c for r in TRANSITIONS for c in r.conditions}))


def lean_actions() -> Dict[str, Dict[str, str]]:
    """The pairs that need no trigger: one unconditional row that keeps the state.

    >>> lean_actions()["in_paragraph"][TEXT]
    'continue_paragraph'
    >>> HEADING in lean_actions()["in_paragraph"]
    False
    """
    groups: Dict[Tuple[str, str], List[Row]] = {}
    for row in TRANSITIONS:
        groups.setdefault((row.source, row.trigger), []).append(row)
    lean: Dict[str, Dict[str, str]] = {state: {} for state in STATES}
    for (source, trigger), group in groups.items():
        (row, *more) = group
        if not more and not row.conditions and row.dest == source and len(row.actions) == 1:
            lean[source][trigger] = row.actions[0]
    return lean


def _machine_kwargs(model: Any = None) -> Dict[str, Any]:
    """The table as ``transitions`` takes it. Given the model, its methods are
    looked up here once instead of by name at every trigger."""
    def resolve(names: Tuple[str, ...]) -> List[Any]:
        return [getattr(model, n) for n in names] if model is not None else list(names)

    return dict(
        states=list(STATES),
        transitions=[
            dict(trigger=r.trigger, source=r.source, dest=r.dest,
                 conditions=resolve(r.conditions), before=resolve(r.actions))
            for r in TRANSITIONS
        ],
        initial="start",
        auto_transitions=False,
        ignore_invalid_triggers=False,
    )


# Its INFO messages cost more than the transition itself; our diagnostics say
# what matters.
logging.getLogger("transitions").setLevel(logging.WARNING)

SEPARATORS = (BLANK, PAGE_BREAK)


class Reader:
    """Feeds classified line records to a layout through the machine.

    The layout is the machine's model: it provides every action and condition
    named in :data:`TRANSITIONS` as a method taking the line record, and
    ``transitions`` keeps its ``state`` attribute. A record's fifth item is its
    line class and its seventh says blank lines came before it (see ``_scan``).

    The reader picks the transition a line takes the way ``transitions`` does
    (the first row whose conditions hold). When that transition leaves the state
    as it is, its actions run directly. A change of state waits for the next
    record: if that record brings the machine back to where it is whatever it
    turns out to be (a heading, then the first line of its text, perhaps after
    a blank line), both run their actions directly; otherwise the trigger fires,
    and the machine moves.

    A separator (a blank line, a page break) that would move the machine is
    held until the next line shows what it means. Its actions (closing the
    paragraph) run in any case. If the two transitions would bring the reader
    back to the state it is in (a blank line between two body paragraphs, a
    page break inside a paragraph), the next line's actions run directly too.
    If the separator does not change what the next line does (a blank line
    before a heading), the state need not pass through it. Only otherwise does
    its trigger fire. The chunks are the same as when every transition fires
    (a test compares them); ``state`` reports the state the reader is
    logically in.
    """

    __slots__ = ("model", "machine", "_lean", "_fire", "_groups", "_held", "_calls", "_round_trips", "_bulk",
                 "_pending", "_returns")

    def __init__(self, model: Any) -> None:
        self.model = model
        self.machine = Machine(model=model, **_machine_kwargs(model))
        self._lean: Dict[str, Dict[str, Callable[[Any], Any]]] = {
            state: {cls: getattr(model, action) for cls, action in pairs.items()}
            for state, pairs in lean_actions().items()
        }
        self._fire: Dict[str, Callable[..., bool]] = {cls: getattr(model, cls) for cls in LINE_CLASSES}
        self._groups: Dict[Tuple[str, str], List[Row]] = {}
        for row in TRANSITIONS:
            self._groups.setdefault((row.source, row.trigger), []).append(row)
        self._held: Optional[Tuple[str, Sequence[Any]]] = None
        self._pending: Optional[Tuple[Row, Sequence[Any]]] = None
        # (state, class) pairs from which every transition a line of that class
        # can take leads to ``dest``: {(state, class): dest}.
        self._returns: Dict[Tuple[str, str], str] = {
            key: group[0].dest for key, group in self._groups.items()
            if key[1] not in SEPARATORS and len({row.dest for row in group}) == 1
        }
        self._calls: Dict[str, Callable[[Any], Any]] = {
            name: getattr(model, name) for name in ACTIONS + CONDITIONS
        }
        # Separator then line pairs whose outcome needs no condition: the
        # actions of the round trip, looked up once instead of worked out.
        self._round_trips: Dict[Tuple[str, str, str], Tuple[Tuple[Callable[[Any], Any], ...], ...]] = {}
        for (state, sep), group in self._groups.items():
            if sep not in SEPARATORS or len(group) != 1 or group[0].conditions:
                continue
            through = group[0]
            for cls in LINE_CLASSES:
                after = self._groups[(through.dest, cls)]
                if len(after) == 1 and not after[0].conditions and after[0].dest == state:
                    self._round_trips[(state, sep, cls)] = (
                        tuple(self._calls[a] for a in through.actions),
                        tuple(self._calls[a] for a in after[0].actions))
        # The states in which a blank line and a body line end the paragraph and
        # open the next, coming back where they were: there a PARAGRAPHS record
        # goes to the layout whole (``take_paragraphs``).
        self._bulk = {
            state for (state, sep, cls), trip in self._round_trips.items()
            if (sep, cls) == (BLANK, TEXT) and trip == ((model.end_paragraph,), (model.open_paragraph,))
        }

    @property
    def state(self) -> str:
        if self._pending is not None:
            return self._pending[0].dest
        if self._held is not None:
            return self._choose(self.model.state, *self._held).dest
        return self.model.state  # type: ignore[no-any-return]

    def _choose(self, state: str, cls: str, rec: Sequence[Any]) -> Row:
        """The transition the machine takes: the first whose conditions hold."""
        calls = self._calls
        for row in self._groups[(state, cls)]:
            for c in row.conditions:
                if not calls[c](rec):
                    break
            else:
                return row
        raise AssertionError(f"no transition for {cls} in {state}")  # the table's last rows forbid this

    def push(self, rec: Sequence[Any]) -> None:
        """Take one record (a run of body lines is one ``TEXT`` record)."""
        cls = rec[4]
        if cls == PARAGRAPHS:
            self._paragraphs(rec)
            return
        if self._pending is not None and self._resolve(cls, rec):
            return
        if rec[6]:
            self._separator(BLANK, rec)
        if cls == PAGE_BREAK:
            self._separator(PAGE_BREAK, rec)
            return
        held = self._held
        if held is not None:
            self._held = None
            if self._settle(held, cls, rec):
                return
        state = self.model.state
        action = self._lean[state].get(cls)
        if action is not None:
            action(rec)
            return
        row = self._choose(state, cls, rec)
        if row.dest == state:
            calls = self._calls
            for name in row.actions:
                calls[name](rec)
        else:
            self._pending = (row, rec)

    def _paragraphs(self, rec: Sequence[Any]) -> None:
        """Paragraphs one by one until nothing is pending or held and the state
        is one where they may go to the layout whole; then the rest at once."""
        paragraphs = rec[2]
        for i, line in enumerate(paragraph_records(rec)):
            if self._pending is not None and self._resolve(TEXT, line):
                continue
            if self._held is None and self.model.state in self._bulk:
                self.model.take_paragraphs(rec if i == 0 else (line[0], rec[1], paragraphs[i:], rec[3]) + tuple(rec[4:]))
                return
            self.push(line)

    def _resolve(self, cls: str, rec: Sequence[Any]) -> bool:
        """Settle the pending transition against the record after it; True when
        that record has been taken care of too.

        If the record -- with the blank lines before it, if any -- brings the
        machine back to the state it is in whichever transition it takes from
        where the pending one leads (a heading, then its first body line), both
        run their actions directly: the machine never has to leave. Otherwise
        the pending trigger fires now.
        """
        row, held = self._pending  # type: ignore[misc]
        self._pending = None
        state = self.model.state
        via = row.dest
        blank: Optional[Row] = None
        if rec[6]:
            group = self._groups[(via, BLANK)]
            if len(group) == 1 and not group[0].conditions:
                blank = group[0]
                via = blank.dest
            else:
                via = ""
        if self._returns.get((via, cls)) != state:
            self._fire[row.trigger](held)
            return False
        calls = self._calls
        for name in row.actions:
            calls[name](held)
        if blank is not None:
            for name in blank.actions:
                calls[name](rec)
        for name in self._choose(via, cls, rec).actions:
            calls[name](rec)
        return True

    def _separator(self, sep: str, rec: Sequence[Any]) -> None:
        held = self._held
        if held is not None:
            if sep == PAGE_BREAK and held[0] == BLANK:
                self._held = None  # blank lines before a page break are page padding
            else:
                return  # blank lines after a page break add nothing
        action = self._lean[self.model.state].get(sep)
        if action is not None:
            action(rec)
        else:
            self._held = (sep, rec)

    def _settle(self, held: Tuple[str, Sequence[Any]], cls: str, rec: Sequence[Any]) -> bool:
        """Resolve a held separator against the record after it; True when that
        record has been taken care of too.

        The separator's own actions run first in every case, as they would if
        its trigger fired; they are idempotent (closing a closed paragraph does
        nothing), so firing the trigger afterwards, when the state must change,
        repeats them harmlessly.
        """
        sep, sep_rec = held
        state = self.model.state
        trip = self._round_trips.get((state, sep, cls))
        if trip is not None:
            for action in trip[0]:
                action(sep_rec)
            for action in trip[1]:
                action(rec)
            return True
        through = self._choose(state, sep, sep_rec)
        calls = self._calls
        for name in through.actions:
            calls[name](sep_rec)
        after = self._choose(through.dest, cls, rec)
        if after.dest == state:
            for name in after.actions:
                calls[name](rec)
            return True
        direct = self._choose(state, cls, rec)
        if (direct.dest, direct.actions) != (after.dest, after.actions):
            self._fire[sep](sep_rec)
        return False

    def close(self) -> None:
        """End of input: a pending transition is taken; a separator still held
        changes nothing."""
        if self._pending is not None:
            row, rec = self._pending
            self._pending = None
            self._fire[row.trigger](rec)
        self._held = None


def mermaid() -> str:
    """The transition table as a Mermaid ``stateDiagram-v2``, rendered by
    ``transitions``' own diagram extension from the same table."""
    from transitions.extensions import GraphMachine

    class _Model:
        pass

    model = _Model()
    kwargs = _machine_kwargs()
    # One edge per (source, dest, trigger): the diagram shows where lines can
    # take the reader; conditions and actions are in the table.
    seen = set()
    edges = []
    for t in kwargs["transitions"]:
        key = (t["source"], t["dest"], t["trigger"])
        if key not in seen:
            seen.add(key)
            edges.append(dict(trigger=t["trigger"], source=t["source"], dest=t["dest"]))
    kwargs["transitions"] = edges
    GraphMachine(model=model, graph_engine="mermaid", title="stream_chunker reader", **kwargs)
    graph = model.get_graph()  # type: ignore[attr-defined]
    return str(graph.draw(None))

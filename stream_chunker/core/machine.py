"""The reader's finite-state machine: every state, every transition, in one place.

Why so branched: ``Reader.__init__`` (cyclomatic complexity 21) derives the
reader's plan from the table once -- the rows bound to the profile, the
blank-line shortcuts, the states where a run goes whole -- so that a line
costs a dict look-up; each of its loops is one of those derivations.

Theory of operation
-------------------
The chunker reads a document one line at a time. Each line is classified
(``blank_line``, ``text_line``, ``heading_line``, ``label_line``,
``contents_line``, or a ``page_break``) by the profile's ordered rules, and the
class is the trigger of the machine below. The state says where the reader is
-- before the first line, in a contents list, at the top of a page, just after
a heading, inside a paragraph, after a blank line, just after a label -- and
each transition names the *actions* the profile performs on the line and the
*conditions* that pick between transitions. The profile owns the rules (is
this number next in sequence? does this label continue an open level?); this
module owns state.

A blank line only pauses a paragraph: the next line decides. A page break after
it makes it page padding, and the paragraph may run on over the break; anything
else ends the paragraph first (the rows out of ``between_paragraphs``).

The table is interpreted by :class:`Reader`, a few lines of generic code: for
each line it takes the first row of its (state, class) group whose conditions
hold -- each condition asked once -- runs the row's actions and moves to its
state. The ``transitions`` machine holds the same table, checks every move and
draws the diagram. A trigger costs 10-20 µs, where a body line must cost well
under one, so the reader tells the machine of a move only once it lasts: a
detour that comes back to where the machine is (a heading, then its text; a
blank line, then the next paragraph; a page break inside a paragraph) never
needs to reach it. Whoever asks the state sees the machine's own, brought up
to date first.

Why one module of this length: the states, the table, its interpreter and its
diagram are the state machine, which one module owns (SPEC §4).
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Set, Tuple

from mypy_extensions import mypyc_attr
from transitions import Machine

from .records import BLANK, CONTENTS, HEADING, LABEL, LINE_CLASSES, PAGE_BREAK, STYLED, TEXT, Line, Run

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


class Row(NamedTuple):
    """One transition: from ``source`` on ``trigger`` to ``dest`` when every
    condition holds, running ``actions`` on the profile (in order)."""

    trigger: str
    source: str
    dest: str
    conditions: Tuple[str, ...]
    actions: Tuple[str, ...]


# How a line of body text is taken in each state. Headings and labels that fail
# their rules fall back to exactly these rows (after a diagnostic), so the rule
# for "this line is text after all" is written once.
_TEXT_ROWS: Dict[str, List[Tuple[str, Tuple[str, ...], Tuple[str, ...]]]] = {
    "start": [("in_paragraph", (), ("open_paragraph",))],
    "in_contents": [
        ("in_contents", ("is_contents_number",), ("hold_contents_number",)),
        ("in_paragraph", (), ("open_paragraph",)),
    ],
    "in_header": [
        ("in_paragraph", ("continues_across_page",), ("continue_paragraph",)),
        ("in_paragraph", (), ("open_paragraph",)),
    ],
    "at_heading": [
        ("in_paragraph", ("continues_heading",), ("continue_heading",)),
        ("in_paragraph", (), ("open_paragraph",)),
    ],
    "in_paragraph": [("in_paragraph", (), ("continue_paragraph",))],
    "between_paragraphs": [("in_paragraph", (), ("open_paragraph",))],
    "at_label": [
        ("in_paragraph", ("continues_heading",), ("continue_heading",)),
        ("in_paragraph", (), ("continue_paragraph",)),
    ],
}

# Where a label is licensed by what came before it: a blank line, a page break,
# a section start, the start of the text. After a line of text, or after a
# label line that carried text, the line before must also end a clause; in a
# contents list, a number alone is the next entry's. A heading is licensed
# likewise, by the profile's own measure (a statute's section line always is).
_LABEL_LICENSE: Dict[str, Tuple[str, ...]] = {
    "start": (),
    "in_contents": ("follows_clause_end",),
    "in_header": (),
    "at_heading": (),
    "in_paragraph": ("follows_clause_end",),
    "between_paragraphs": (),
    "at_label": ("follows_clause_end",),
}
_HEADING_LICENSE: Dict[str, Tuple[str, ...]] = {
    state: ("heading_licensed",) if state in ("in_paragraph", "at_label") else () for state in _LABEL_LICENSE
}

_PAUSES = ("in_paragraph", "at_heading", "at_label")
"""States a blank line moves out of, into ``between_paragraphs``."""


def _rows() -> List[Row]:
    rows: List[Row] = []
    for state in STATES:
        # After a blank line, whatever is not a page break ends the paragraph first.
        ends = ("end_paragraph",) if state == "between_paragraphs" else ()
        as_text = [(dest, cond, ends + actions) for dest, cond, actions in _TEXT_ROWS[state]]
        rows += [Row(TEXT, state, dest, cond, actions) for dest, cond, actions in as_text]
        rows.append(Row(HEADING, state, "at_heading", _HEADING_LICENSE[state] + ("opens_section",),
                        ends + ("open_section",)))
        rows += [Row(HEADING, state, d, c, ("reject_heading",) + a) for d, c, a in as_text]
        # The label's own rule first: most label-shaped lines it refuses are lists
        # inside a clause, which need not be asked about the line before them.
        rows.append(Row(LABEL, state, "at_label", ("opens_label",) + _LABEL_LICENSE[state], ends + ("open_label",)))
        rows += [Row(LABEL, state, d, c, ("reject_label",) + a) for d, c, a in as_text]
        # A line the layout sets above the body, that no rule takes: a heading
        # without a number where the profile's own measure agrees.
        rows.append(Row(STYLED, state, "at_heading", ("opens_styled",) + _LABEL_LICENSE[state],
                        ends + ("open_styled",)))
        rows += [Row(STYLED, state, d, c, a) for d, c, a in as_text]
        rows.append(Row(CONTENTS, state, "in_contents", (), ends + ("add_contents",)))
        rows.append(Row(PAGE_BREAK, state, "in_header", (), ("turn_page",)))
        if state in _PAUSES:
            rows.append(Row(BLANK, state, "between_paragraphs", (), ()))
        else:
            rows.append(Row(BLANK, state, state, (), ()))
    return rows


TRANSITIONS: Tuple[Row, ...] = tuple(_rows())
"""The whole table. Rows sharing a trigger and source are tried in order; the
last of each group has no condition, so every (state, class) pair is handled."""


PARAGRAPH_ROUND_TRIP = ("end_paragraph", "open_paragraph")
"""The actions of a blank line then a line of text inside a paragraph, which a
profile's ``take_run`` does for a whole ``Run`` at once."""


def reachable(classes: Tuple[str, ...]) -> Dict[str, Tuple[Row, ...]]:
    """The rows a profile whose rules make only ``classes`` can ever take, by
    state, from ``start``: a profile implements the actions and conditions of
    these, and no others.

    >>> "in_contents" in reachable((BLANK, TEXT, HEADING, PAGE_BREAK))
    False
    """
    rows: Dict[str, Tuple[Row, ...]] = {}
    todo = ["start"]
    while todo:
        state = todo.pop()
        if state in rows:
            continue
        rows[state] = tuple(r for r in TRANSITIONS if r.source == state and r.trigger in classes)
        todo += [r.dest for r in rows[state]]
    return rows


def _machine_kwargs(conditions: Callable[[str], Any]) -> Dict[str, Any]:
    return dict(
        states=list(STATES),
        transitions=[dict(trigger=r.trigger, source=r.source, dest=r.dest,
                          conditions=[conditions(c) for c in r.conditions]) for r in TRANSITIONS],
        initial="start",
        auto_transitions=False,
        ignore_invalid_triggers=False,
    )


# Its INFO messages cost more than the transition itself; our diagnostics say
# what matters.
logging.getLogger("transitions").setLevel(logging.WARNING)


def _answer(name: str) -> Callable[[Dict[str, bool]], bool]:
    """A condition as the machine asks it: the reader asked it already, once,
    and hands the machine its answers."""
    return lambda answers: answers[name]


@mypyc_attr(native_class=False)  # compiled, a class takes no attribute it does not declare
class _Machinery:
    """The machine's model: ``transitions`` keeps its ``state`` and adds a
    method per trigger."""

    state: str


_Move = Tuple[str, Dict[str, bool], str, int]
"""A move not yet told to the machine: its trigger, the answers to its
conditions, the state it led to, and the record that made it."""

_Bound = Tuple[Tuple[Tuple[str, Callable[[Any], bool]], ...], Tuple[Callable[[Any], Any], ...], str]
"""A row bound to a profile: its conditions (named), its actions, its state."""


class _Choice(NamedTuple):
    """A (state, class) group, bound to a profile."""

    rows: Tuple[_Bound, ...]
    fixed: bool
    """One row and no condition: nothing to choose."""
    via: Optional[str] = None
    """For a line after blank lines: the state the blank line took the reader
    to first (its row is then unconditional and does nothing, so the two
    steps are one)."""


_NO_ANSWERS: Dict[str, bool] = {}


class Reader:
    """Interprets the table for a profile: records in, the profile's actions out.

    The machine is told of a move once it has lasted ``lag`` more records: a
    move that the records after it undo (a heading, then its text) is never
    told. ``lag=0`` tells every move at once.
    """

    def __init__(self, profile: Any, classes: Tuple[str, ...], lag: int = 2) -> None:
        self.profile = profile
        self._lag = lag
        self._model = _Machinery()
        self.machine = Machine(model=self._model, **_machine_kwargs(_answer))
        self._fire = {cls: getattr(self._model, cls) for cls in LINE_CLASSES}
        rows = reachable(classes)

        def bind(row: Row) -> _Bound:
            missing = [n for n in row.conditions + row.actions if not callable(getattr(profile, n, None))]
            if missing:
                raise TypeError(f"the {type(profile).__name__} profile can reach ({row.source}, {row.trigger}) "
                                f"but has no {', '.join(missing)}")
            return (tuple((c, getattr(profile, c)) for c in row.conditions),
                    tuple(getattr(profile, a) for a in row.actions), row.dest)

        self._plan: Dict[str, Dict[str, _Choice]] = {}
        for state, group in rows.items():
            by_class: Dict[str, List[Row]] = {}
            for row in group:
                by_class.setdefault(row.trigger, []).append(row)
            self._plan[state] = {cls: _Choice(tuple(bind(r) for r in rs), len(rs) == 1 and not rs[0].conditions)
                                 for cls, rs in by_class.items()}
        # A line after blank lines: the blank line's step and the line's, as one.
        self._after_blank: Dict[str, Dict[str, _Choice]] = {}
        for state, plan in self._plan.items():
            blank = plan[BLANK]
            if blank.fixed and not blank.rows[0][1]:
                via = blank.rows[0][2]
                self._after_blank[state] = {cls: choice._replace(via=via) for cls, choice in self._plan[via].items()}
        # Where a blank line then a line of text come back to, doing what a
        # profile's ``take_run`` does: there a Run goes to the profile whole.
        self._whole_runs: Set[str] = set()
        for state in rows:
            pause = [r for r in rows[state] if r.trigger == BLANK]
            if len(pause) == 1 and not pause[0].actions:
                text = [r for r in rows.get(pause[0].dest, ()) if r.trigger == TEXT]
                if len(text) == 1 and text[0].dest == state and text[0].actions == PARAGRAPH_ROUND_TRIP:
                    self._whole_runs.add(state)
        self._state = "start"
        self._told = "start"  # the machine's state
        self._moves: List[_Move] = []  # moves not yet told, the path from the machine's state
        self._records = 0  # records taken

    @property
    def state(self) -> str:
        """The machine's state, once told of every move."""
        self.sync()
        return self._model.state

    def push(self, rec: Any) -> None:
        """Take one record (see ``core.records``)."""
        self._records += 1
        if type(rec) is Run:
            self._run(rec)
        elif not rec.after_blank:
            self._step(rec.cls, self._plan[self._state][rec.cls], rec)
        else:
            after_blank = self._after_blank.get(self._state)
            if after_blank is None:
                self._step(BLANK, self._plan[self._state][BLANK], rec)
                self._step(rec.cls, self._plan[self._state][rec.cls], rec)
            else:
                self._step(rec.cls, after_blank[rec.cls], rec)
        moves = self._moves
        while moves and moves[0][3] <= self._records - self._lag:
            self._tell(moves.pop(0))

    def _run(self, run: Run) -> None:
        spans = run.spans
        for i, span in enumerate(spans):
            if self._state in self._whole_runs:
                self.profile.take_run(run if i == 0 else Run(run.page, spans[i:]))
                return
            line = Line(span.first, run.page, span.text, span.last, TEXT, None, True)
            self._step(TEXT, self._after_blank[self._state][TEXT], line)

    def _step(self, cls: str, choice: _Choice, rec: Any) -> None:
        """Take the first row of ``choice`` whose conditions hold, each asked once."""
        state = self._state
        answers = _NO_ANSWERS
        if choice.fixed:
            conditions, actions, dest = choice.rows[0]
        else:
            answers = {}
            for conditions, actions, dest in choice.rows:
                for name, condition in conditions:
                    answer = answers[name] = condition(rec)
                    if not answer:
                        break
                else:
                    break
        for action in actions:
            action(rec)
        self._state = dest
        if choice.via is not None and choice.via != state:
            state = choice.via
            self._follow((BLANK, _NO_ANSWERS, state, self._records))
        if dest != state:
            self._follow((cls, answers, dest, self._records))

    def _follow(self, move: _Move) -> None:
        """Note a move, unless it closes a loop: then the loop is void."""
        moves = self._moves
        dest = move[2]
        if dest == self._told:
            moves.clear()  # back where the machine is
            return
        for i, earlier in enumerate(moves):
            if earlier[2] == dest:
                del moves[i + 1:]  # back where an earlier move led
                return
        moves.append(move)

    def _tell(self, move: _Move) -> None:
        trigger, answers, dest, _ = move
        self._fire[trigger](answers)
        self._told = dest
        if self._model.state != dest:
            raise AssertionError(f"the machine went to {self._model.state} where the table says {dest}")

    def sync(self) -> None:
        """Tell the machine of every move not yet told."""
        while self._moves:
            self._tell(self._moves.pop(0))


def mermaid() -> str:
    """The transition table as a Mermaid ``stateDiagram-v2``, rendered by
    ``transitions``' own diagram extension from the same table."""
    from transitions.extensions import GraphMachine

    model = _Machinery()
    kwargs = _machine_kwargs(_answer)
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

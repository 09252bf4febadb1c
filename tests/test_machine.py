"""The state machine: declared once, complete, interpreted generically, and really used."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from transitions import MachineError

from stream_chunker import Chunker
from stream_chunker.core.machine import STATES, TRANSITIONS, Reader, mermaid, reachable
from stream_chunker.core.records import BLANK, CONTENTS, HEADING, LABEL, LINE_CLASSES, PAGE_BREAK, TEXT, Line

REQUIRED_STATES = {"start", "in_header", "at_heading", "in_paragraph", "between_paragraphs", "at_label",
                   "in_contents"}


def _record(chunker: Chunker, cls: str, text: str) -> Line:
    """A record of class ``cls`` as the scanner would make it."""
    if cls == PAGE_BREAK:
        return Line(5, 2, "", 5, PAGE_BREAK)
    if cls == BLANK:
        return Line(5, 1, "", 5, BLANK)
    found = chunker.profile.classify(text)
    if cls == TEXT:
        assert found is None
        return Line(5, 1, text, 5, TEXT)
    assert found is not None and found[0] == cls, (cls, text, found)
    return Line(5, 1, text, 5, found[0], found[1])


# Each line class with a line of that class, for the profile that makes it.
SAMPLES = {
    "policy": {BLANK: "", TEXT: "We cover the house.", HEADING: "2 Claims", CONTENTS: "2.1 Reporting ....... 7",
               PAGE_BREAK: ""},
    "statute": {BLANK: "", TEXT: "The Council finds that:", HEADING: "\u00a7 1-102. Definitions.",
                LABEL: "(a) In general.", PAGE_BREAK: ""},
}


def test_the_table_names_every_required_state():
    assert REQUIRED_STATES <= set(STATES)
    assert {r.source for r in TRANSITIONS} | {r.dest for r in TRANSITIONS} <= set(STATES)


@pytest.mark.parametrize("state, cls", list(itertools.product(STATES, LINE_CLASSES)))
def test_every_pair_has_a_transition_that_always_applies(state, cls):
    group = [r for r in TRANSITIONS if r.source == state and r.trigger == cls]
    assert group, f"({state}, {cls}) is not handled"
    assert not group[-1].conditions, "the last transition of a group must apply unconditionally"


def test_machine_has_only_declared_transitions():
    reader = Chunker(real_tokens=False)._reader
    assert reader.machine.auto_transitions is False
    assert not hasattr(reader._model, "to_in_paragraph")
    with pytest.raises((AttributeError, MachineError)):
        reader._model.trigger("no_such_line")


def _at(chunker: Chunker, state: str) -> Reader:
    """The chunker's reader, moved to ``state``, telling the machine every move."""
    reader = Reader(chunker.profile, chunker.profile.classes(), lag=0)
    reader.machine.set_state(state, reader._model)
    reader._state = reader._told = state
    return reader


@pytest.mark.parametrize("profile", ["policy", "statute"])
@pytest.mark.parametrize("state", STATES)
def test_every_reachable_pair_moves_the_machine_where_the_table_says(profile, state):
    for cls, text in SAMPLES[profile].items():
        chunker = Chunker(profile=profile, real_tokens=False, **({"section": "1-101"} if profile == "statute" else {}))
        if state not in reachable(chunker.profile.classes()):
            continue
        if profile == "policy":
            chunker.feed("1 Cover\n")  # a current section to be next to
        reader = _at(chunker, state)
        reader.push(_record(chunker, cls, text))
        allowed = {r.dest for r in TRANSITIONS if r.source == state and r.trigger == cls}
        assert reader._model.state in allowed, (state, cls, reader._model.state)
        assert reader.state == reader._state


def test_a_profile_implements_only_the_rows_it_can_reach():
    statute = Chunker(profile="statute", real_tokens=False).profile
    assert "in_contents" not in reachable(statute.classes())
    assert not hasattr(statute, "add_contents")  # no stub for another profile's lines

    class Incomplete:
        def classes(self):
            return (BLANK, TEXT, PAGE_BREAK, HEADING)

    with pytest.raises(TypeError, match="has no"):
        Reader(Incomplete(), Incomplete().classes())


def test_the_machine_checks_every_move_it_is_told():
    chunker = Chunker(real_tokens=False)
    reader = _at(chunker, "in_paragraph")
    # Told that a heading opened a section while its answers say it did not:
    # the table's own rows take the machine elsewhere, and that is caught.
    with pytest.raises(AssertionError, match="where the table says"):
        reader._tell((HEADING, {"heading_licensed": True, "opens_section": False}, "at_heading", 1))


def test_mermaid_diagram_is_rendered_from_the_table():
    text = mermaid()
    assert "stateDiagram-v2" in text
    for state in STATES:
        assert state in text
    for row in TRANSITIONS:
        if row.source != row.dest:
            assert f"{row.source} --> {row.dest}" in text


# -- telling the machine late changes nothing -------------------------------------

def _chunks(text: str, lag: int, **options):
    chunker = Chunker(real_tokens=False, **options)
    chunker._reader = Reader(chunker.profile, chunker.profile.classes(), lag=lag)
    chunker._cutter._emit = chunker._reader.push
    states = []
    if lag == 0:  # every move told: after every record, the machine is where the reader is
        push = chunker._reader.push

        def checked(rec):
            push(rec)
            states.append((chunker._reader._model.state, chunker._reader._state))

        chunker._cutter._emit = checked
    out = [c.to_dict() for c in chunker.feed(text) + chunker.close()]
    assert all(told == logical for told, logical in states)
    return out, chunker._reader.state


@pytest.mark.parametrize("name, profile", [("rfc2616.txt", "policy"), ("uslm-user-guide.txt", "policy"),
                                           ("uslm-user-guide.layout.txt", "policy"),
                                           ("dc-code-31-24.txt", "statute"), ("usc-title27.txt", "statute")])
def test_a_lagging_machine_gives_the_chunks_of_one_told_every_move_on_the_corpus(corpus, name, profile):
    text = "\n".join(corpus(name))
    assert _chunks(text, 2, profile=profile) == _chunks(text, 0, profile=profile)


LINES = st.sampled_from([
    "", "", "  ", "1 Cover", "1.1 Scope", "2 Claims", "2.1 Reporting", "3 Theft is covered.", "We pay for loss.",
    "the rest of a sentence", "14 days after the loss", "1. A list item;", "\f", "\fRunning header",
    "2.1 Reporting ........ 4", "Page 3 of 9",
])


@given(st.lists(LINES, max_size=40), st.integers(1, 4))
def test_a_lagging_machine_gives_the_same_chunks_on_generated_documents(lines, lag):
    text = "\n".join(lines)
    assert _chunks(text, lag) == _chunks(text, 0)


STATUTE_LINES = st.sampled_from([
    "", "", " \t", "\u00a7 1-101. Scope.", "\u00a7 1-102. Terms.", "(a) First.", "(b) The second part and",
    "(1) an item;", "(2) another item.", "(c) Third.", "body text that runs on", "more text.", "\f",
])


@given(st.lists(STATUTE_LINES, max_size=40), st.integers(1, 4))
def test_a_lagging_machine_gives_the_same_chunks_on_generated_statutes(lines, lag):
    text = "\n".join(lines)
    assert _chunks(text, lag, profile="statute") == _chunks(text, 0, profile="statute")


def _told(chunker: Chunker) -> list:
    """Every move the machine is told of, as (trigger, state)."""
    told = []
    reader = chunker._reader

    def spy(trigger, fire):
        def fired(answers):
            fire(answers)
            told.append((trigger, reader._model.state))
        return fired

    # The reader's table of triggers, not its methods: a compiled class's
    # methods cannot be replaced on an instance.
    reader._fire = {trigger: spy(trigger, fire) for trigger, fire in reader._fire.items()}
    return told


def test_a_heading_and_its_text_never_reach_the_machine():
    # A heading and its text take the reader away and back: after the first
    # section (which leaves "start"), the machine is told of nothing.
    chunker = Chunker(real_tokens=False)
    told = _told(chunker)
    text = "".join(f"{n} Section {n}\nThe text of section {n}.\n\nMore of it.\n\n" for n in range(1, 21))
    chunks = chunker.feed(text) + chunker.close()
    assert [c.id for c in chunks] == [str(n) for n in range(1, 21)]
    assert told == [(HEADING, "at_heading"), (TEXT, "in_paragraph")]


def test_a_contents_list_and_a_label_reach_the_machine():
    chunker = Chunker(real_tokens=False)
    told = _told(chunker)
    chunker.feed("Contents\n1 Cover ..... 2\n2 Claims ..... 3\n3 Ending ..... 4\n\n1 Cover\nText.\n")
    chunker.close()
    assert (CONTENTS, "in_contents") in told
    statute = Chunker(profile="statute", real_tokens=False, code="X")
    told = _told(statute)
    statute.feed("\u00a7 1-101. Scope.\n(a) First.\n(b) Second.\n(c) Third.\n(d) Fourth.\n")
    statute.close()
    assert (LABEL, "at_label") in told


class _Spy:
    """A profile as the reader sees it, with every ``take_run`` noted (a
    compiled profile's methods cannot be replaced on the profile itself)."""

    def __init__(self, profile):
        self.profile = profile
        self.taken = []

    def __getattr__(self, name):
        return getattr(self.profile, name)

    def take_run(self, run):
        self.taken.append([span.text for span in run.spans])
        self.profile.take_run(run)


def test_runs_of_paragraphs_reach_the_profile_whole():
    chunker = Chunker(real_tokens=False)
    spy = _Spy(chunker.profile)
    taken = spy.taken
    chunker._reader = Reader(spy, chunker.profile.classes())
    chunker._cutter._emit = chunker._reader.push
    chunks = chunker.feed("1 Cover\nOne.\n\nTwo\nlines.\n\n\nThree.\n") + chunker.close()
    assert taken == [["Two\nlines.", "Three."]]
    assert chunks[0].text == "One.\nTwo lines.\nThree."
    assert chunks[0].lines == (2, 8)


def test_the_state_asked_is_the_machines_own():
    chunker = Chunker(real_tokens=False)
    chunker.feed("1 Cover\nSome text\n\n")
    reader = chunker._reader
    logical = reader._state
    assert chunker.state == logical == reader._model.state
    assert not reader._moves

"""The state machine: declared once, complete, really used, and rendered."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from transitions import MachineError

from stream_chunker import Chunker
from stream_chunker._machine import (
    BLANK, CONTENTS, HEADING, LABEL, LINE_CLASSES, PAGE_BREAK, PARAGRAPHS, SEPARATORS, STATES, TEXT,
    TRANSITIONS, lean_actions, mermaid,
)

from .test_seeds import EXAMPLE

REQUIRED_STATES = {"start", "in_header", "at_heading", "in_paragraph", "between_paragraphs", "at_label",
                   "in_contents"}


def _record(chunker: Chunker, cls: str, text: str):
    """A record of class ``cls`` as the scanner would make it."""
    if cls == PAGE_BREAK:
        return (5, 2, None, 5, PAGE_BREAK, None, False)
    if cls == BLANK:
        return (5, 1, "", 5, BLANK, None, False)
    found = chunker.layout.classify(text)
    if cls == TEXT:
        assert found is None
        return (5, 1, text, 5, TEXT, None, False)
    assert found is not None and found[0] == cls, (cls, text, found)
    return (5, 1, text, 5) + found + (False,)


# Each line class with a line of that class, for the profile that produces it.
SAMPLES = {
    "policy": {BLANK: "", TEXT: "We cover the house.", HEADING: "2 Claims", CONTENTS: "2.1 Reporting ....... 7",
               PAGE_BREAK: None},
    "statute": {BLANK: "", TEXT: "The Council finds that:", HEADING: "\u00a7 1-102. Definitions.",
                LABEL: "(a) In general.", PAGE_BREAK: None},
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
    chunker = Chunker(real_tokens=False)
    machine = chunker._reader.machine
    assert machine.auto_transitions is False
    assert not hasattr(chunker.layout, "to_in_paragraph")
    with pytest.raises((AttributeError, MachineError)):
        chunker.layout.trigger("no_such_line")


@pytest.mark.parametrize("profile", ["policy", "statute"])
@pytest.mark.parametrize("state", STATES)
def test_walk_every_state_and_class_through_the_trigger(profile, state):
    for cls, text in SAMPLES[profile].items():
        chunker = Chunker(profile=profile, real_tokens=False, **({"section": "1-101"} if profile == "statute" else {}))
        if profile == "policy":
            chunker._reader.push(_record(chunker, HEADING, "1 Cover"))  # a current section to be next to
        chunker._reader.machine.set_state(state, chunker.layout)
        rec = _record(chunker, cls, text)
        getattr(chunker.layout, cls)(rec)  # fires the trigger; raises on a missing transition
        allowed = {r.dest for r in TRANSITIONS if r.source == state and r.trigger == cls}
        assert chunker.layout.state in allowed, (state, cls, chunker.layout.state)


def _spy_on_entries(chunker, entered):
    reader = chunker._reader
    for cls, fire in list(reader._fire.items()):
        def spy(rec, fire=fire):
            before = chunker.layout.state
            result = fire(rec)
            if chunker.layout.state != before:
                entered.add(chunker.layout.state)
            return result
        reader._fire[cls] = spy


def test_triggers_move_the_reader_through_every_state_on_the_corpus(corpus):
    """At run time the state changes through triggers: across the real documents
    every state but ``between_paragraphs`` is entered by one. (A blank line
    enters it only where it changes how the next line is read; see the next test.)"""
    entered = set()
    for name, profile in [("rfc2616.txt", "policy"), ("uslm-user-guide.txt", "policy"),
                          ("usc-title27.txt", "statute"), ("dc-code-31-24.txt", "statute")]:
        chunker = Chunker(profile=profile, real_tokens=False)
        _spy_on_entries(chunker, entered)
        chunker.feed("\n".join(corpus(name)))
        chunker.close()
    assert REQUIRED_STATES - {"start", "between_paragraphs"} <= entered


def test_a_blank_line_enters_between_paragraphs_where_it_licenses_a_label():
    # "(b)" follows a body line that ends no clause: only the blank line before
    # it makes it a label, so the machine must pass through between_paragraphs.
    chunker = Chunker(profile="statute", real_tokens=False, code="X")
    entered: set = set()
    _spy_on_entries(chunker, entered)
    chunks = chunker.feed("\u00a7 1-101. Scope.\n(a) The first part,\nas it goes on and\n\n(b) the second.\n") + chunker.close()
    assert "between_paragraphs" in entered
    assert [c.clause for c in chunks] == ["1-101(a)", "1-101(b)"]


def test_labels_reach_at_label_through_a_trigger():
    chunker = Chunker(profile="statute", real_tokens=False, code="X")
    fired = []
    for cls, fire in list(chunker._reader._fire.items()):
        chunker._reader._fire[cls] = lambda rec, fire=fire, cls=cls: (fired.append((cls, rec[2])), fire(rec))[1]
    chunker.feed("\u00a7 1-101. Scope.\n(a) First.\n(b) Second.\nMore text\n(c) Third.\n")
    chunker.close()
    assert (LABEL, "(a) First.") in fired
    assert chunker.state in ("at_label", "in_paragraph")


def test_lean_pairs_are_exactly_the_unconditional_self_loops():
    lean = lean_actions()
    for state in STATES:
        for cls in LINE_CLASSES:
            group = [r for r in TRANSITIONS if r.source == state and r.trigger == cls]
            is_loop = len(group) == 1 and not group[0].conditions and group[0].dest == state
            assert (cls in lean[state]) == is_loop


def test_mermaid_diagram_is_rendered_from_the_table():
    text = mermaid()
    assert "stateDiagram-v2" in text
    for state in STATES:
        assert state in text
    for row in TRANSITIONS:
        if row.source != row.dest:
            assert f"{row.source} --> {row.dest}" in text


# -- the reader's shortcuts change nothing ---------------------------------------

class _EveryTrigger:
    """A reader that fires every record through ``transitions``; it keeps only
    the page-padding rule (blank lines next to a page break are not paragraph
    ends), which is part of how pages are read, not a shortcut."""

    def __init__(self, reader):
        self.model = reader.model
        self._pending_blank = None

    def push(self, rec):
        model = self.model
        if rec[4] == PARAGRAPHS:  # blank lines then a paragraph, over and over
            for first, last, text in rec[2]:
                self.push((first, rec[1], text, last, TEXT, None, True))
            return
        if rec[6]:
            self._pending_blank = (rec[0], rec[1], "", rec[0], BLANK, None, False)
        if rec[4] == PAGE_BREAK:
            self._pending_blank = None
        elif self._pending_blank is not None:
            getattr(model, BLANK)(self._pending_blank)
            self._pending_blank = None
        getattr(model, rec[4])(rec)

    def close(self):
        pass


def _chunks(text: str, reference: bool, **options):
    chunker = Chunker(real_tokens=False, **options)
    if reference:
        plain = _EveryTrigger(chunker._reader)
        chunker._reader = plain
        chunker._scanner._emit = plain.push
    out = chunker.feed(text) + chunker.close()
    return [c.to_dict() for c in out]


@pytest.mark.parametrize("name", ["rfc2616.txt", "uslm-user-guide.txt", "uslm-user-guide.layout.txt"])
def test_shortcuts_give_the_same_chunks_as_firing_every_line_on_the_corpus(corpus, name):
    text = "\n".join(corpus(name))
    assert _chunks(text, reference=False) == _chunks(text, reference=True)


def test_shortcuts_give_the_same_chunks_on_statutes(corpus):
    text = "\n".join(corpus("dc-code-31-24.txt"))
    assert _chunks(text, False, profile="statute") == _chunks(text, True, profile="statute")


LINES = st.sampled_from([
    "", "", "  ", "1 Cover", "1.1 Scope", "2 Claims", "2.1 Reporting", "3 Theft is covered.", "We pay for loss.",
    "the rest of a sentence", "14 days after the loss", "1. A list item;", "\f", "\fRunning header",
    "2.1 Reporting ........ 4", "Page 3 of 9",
])


@given(st.lists(LINES, max_size=40))
def test_shortcuts_give_the_same_chunks_on_generated_documents(lines):
    text = "\n".join(lines)
    assert _chunks(text, reference=False) == _chunks(text, reference=True)


STATUTE_LINES = st.sampled_from([
    "", "", " \t", "\u00a7 1-101. Scope.", "\u00a7 1-102. Terms.", "(a) First.", "(b) The second part and",
    "(1) an item;", "(2) another item.", "(c) Third.", "body text that runs on", "more text.", "\f",
])


@given(st.lists(STATUTE_LINES, max_size=40))
def test_shortcuts_give_the_same_chunks_on_generated_statutes(lines):
    text = "\n".join(lines)
    assert _chunks(text, False, profile="statute") == _chunks(text, True, profile="statute")


def test_sections_of_heading_then_text_fire_no_trigger_after_the_first():
    # A heading and its first line of text take the machine away and back:
    # after the first section (which leaves "start"), nothing needs to fire.
    chunker = Chunker(real_tokens=False)
    fired = []
    for cls, fire in list(chunker._reader._fire.items()):
        chunker._reader._fire[cls] = lambda rec, fire=fire, cls=cls: (fired.append(cls), fire(rec))[1]
    text = "".join(f"{n} Section {n}\nThe text of section {n}.\n\nMore of it.\n\n" for n in range(1, 21))
    chunks = chunker.feed(text) + chunker.close()
    assert [c.id for c in chunks] == [str(n) for n in range(1, 21)]
    assert fired == [HEADING, TEXT]


def test_paragraphs_after_blank_lines_reach_the_layout_as_one_record():
    chunker = Chunker(real_tokens=False)
    taken = []
    take = chunker.layout.take_paragraphs
    chunker.layout.take_paragraphs = lambda rec: (taken.append([p[2] for p in rec[2]]), take(rec))[1]
    chunks = chunker.feed("1 Cover\nOne.\n\nTwo\nlines.\n\n\nThree.\n") + chunker.close()
    assert taken == [["Two\nlines.", "Three."]]
    assert chunks[0].text == "One.\nTwo lines.\nThree."
    assert chunks[0].lines == (2, 8)


def test_state_reports_a_held_blank_line():
    chunker = Chunker(real_tokens=False)
    reader = chunker._reader
    reader.push((1, 1, "Some text", 1, TEXT, None, False))
    assert reader.state == "in_paragraph"  # pending: the next line shows whether it lasts
    reader.push((2, 1, "more text", 2, TEXT, None, False))
    assert chunker.layout.state == reader.state == "in_paragraph"
    reader._separator(BLANK, (3, 1, "", 3, BLANK, None, False))
    assert reader.state == "between_paragraphs"
    assert SEPARATORS == (BLANK, PAGE_BREAK)

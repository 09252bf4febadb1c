"""What fuzzing the reshaped engine found (a review of issue 13), each kept as
the property it broke: the same chunks however the text is cut, chunks in the
text's order, bounded memory, one notion of a blank line, the real-token cap
packing as much as fits."""

from __future__ import annotations

import tracemalloc
from typing import List, Sequence

from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunker, chunk_lines


def _pieces(pieces: Sequence[str], **options):
    chunker = Chunker(real_tokens=False, **options)
    chunks = []
    for piece in pieces:
        chunks += chunker.feed(piece)
    chunks += chunker.close()
    return [(c.id, c.text, c.lines) for c in chunks], chunker.report


def test_a_cr_lf_cut_before_its_lf_ends_one_line():
    whole = _pieces(["1 Cover\nWe pay.\r\n\nMore.\n"])
    assert whole[0] == [("1", "We pay.\nMore.", (2, 4))]
    assert _pieces(["1 Cover\nWe pay.\r", "\n", "\nMore.\n"]) == whole
    assert _pieces(["1 Cover\nWe pay.\r", "", "\n", "", "\nMore.\n"]) == whole


def test_the_hard_bound_cuts_the_same_whatever_the_lines_indentation_or_records():
    text = "x" * 20 + "y" * 14 + "\nab cd \nq\nz\nw\nv\nkkkkk kkkkk\n"
    whole = _pieces([text], max_paragraph_chars=20)
    assert _pieces(text.splitlines(keepends=True), max_paragraph_chars=20) == whole
    # A cut piece starts on the line of its first word.
    assert [(t, lines) for _, t, lines in whole[0]][-1] == ("q z w v kkkkk kkkkk", (3, 7))


@given(st.lists(st.sampled_from(["ab", "cd ", "  ef", "\tgh ", "", " ", "\u00a0", "ij kl"]), max_size=40),
       st.integers(min_value=8, max_value=30), st.lists(st.integers(min_value=0, max_value=400), max_size=5))
def test_indented_lines_and_a_small_bound_give_the_same_chunks_however_fed(lines, bound, cuts):
    text = "\n".join(["1 Cover"] + lines) + "\n"
    whole = _pieces([text], max_paragraph_chars=bound)
    at, pieces = 0, []
    for cut in sorted(c % (len(text) + 1) for c in cuts) + [len(text)]:
        pieces.append(text[at:cut])
        at = cut
    assert _pieces(pieces, max_paragraph_chars=bound) == whole
    assert _pieces(text.splitlines(keepends=True), max_paragraph_chars=bound) == whole


def test_a_page_edge_beyond_the_look_ahead_counts_for_nothing_however_fed():
    lines = ["Intro", "\f", "Tell us within 30 days.", "x"]
    lines += [f"Body line {chr(97 + i % 26)}{chr(97 + i // 26)}." for i in range(193)]
    lines += ["Tell us within 30 days.", "", "", "", "\f"]  # this form feed is past the first page's look-ahead
    text = "\n".join(lines) + "\n"
    whole = _pieces([text])
    assert _pieces(text.splitlines(keepends=True)) == whole
    assert whole[0][0][1].startswith("Intro Tell us within 30 days.")


def test_form_feeds_on_every_line_take_bounded_memory():
    text = "\f\nPage text.\n" * 40_000
    Chunker(real_tokens=False).feed(text[:1000])  # imports and caches before measuring
    tracemalloc.start()
    chunker = Chunker(real_tokens=False)
    chunker.feed(text)
    chunker.close()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 400_000  # the text is 0.52 MB; the zones hold a look-ahead of it (235 KB), never all of it
    assert chunker.report["pages"] == 40_001


def test_a_decimal_number_of_more_than_ten_parts_is_text():
    numbers = [".".join(["1"] * depth) for depth in range(1, 13)]
    lines: List[str] = []
    for number in numbers:
        lines += [f"{number} Heading", "Body text."]
    clauses = [c.clause for c in chunk_lines(lines, real_tokens=False)]
    assert clauses == numbers[:10]  # the 11- and 12-part numbers are text of 1.1.1.1.1.1.1.1.1.1


def test_a_line_of_unicode_spaces_is_blank_everywhere():
    assert list(chunk_lines(["\u00a0"], real_tokens=False)) == []
    (chunk,) = chunk_lines(["1 Cover", "We pay.", "", "\u3000", "", "More."], real_tokens=False)
    assert chunk.text == "We pay.\nMore."
    (chunk,) = chunk_lines(["We pay.", "", "\u3000", "", "More."], profile="statute", real_tokens=False)
    assert chunk.text == "We pay. More."
    assert list(chunk_lines(("\u00a0" if i % 2 else "" for i in range(2000)), real_tokens=False)) == []


def test_a_real_token_cap_keeps_whole_what_fits_joined():
    """Joining may save tokens (here 6 + 10 parts are 15 joined): the cap is
    held to the joined count, not to the parts' sum."""
    lines = ["\u00a7 4-145. Fees.", "(a) The fee.", "(b) the the the days",
             "thirty within department the the thirty and the;"]
    chunks = list(chunk_lines(lines, profile="statute", max_tokens=15, cap_by="real"))
    assert [(c.id, c.real_tokens) for c in chunks] == [("4-145-a", 5), ("4-145-b", 15)]


@given(st.lists(st.sampled_from(["(a) The fee;", "(1) thirty shall;", "(i) shall owner notice of to",
                                 "a the thirty department rule rule thirty by days owner notice:",
                                 "(A) the unless the by the, and", "(b) More.", "(2) Text here;"]),
                min_size=1, max_size=25),
       st.integers(min_value=20, max_value=120))
def test_statute_chunks_come_in_the_texts_order(lines, cap):
    chunks = list(chunk_lines(["\u00a7 20-505. Fees."] + lines, profile="statute", max_chars=cap,
                              real_tokens=False))
    firsts = [c.lines[0] for c in chunks]
    assert firsts == sorted(firsts)


def test_a_page_number_is_furniture_whatever_spaces_it_prints():
    for number in ("Page\u00a03 of 25", "-\u00a012\u00a0-"):
        (chunk,) = chunk_lines(["1 Cover", "We pay.", number, "More."], real_tokens=False)
        assert chunk.text == "We pay. More.", number

"""Soft hyphens (issue 15): a word that a soft hyphen (U+00AD) broke at a line
end is joined again, in both profiles, however the text is fed; a hard hyphen
stays as printed; the report counts the joins."""

from __future__ import annotations

from typing import List

from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunker, chunk_lines

SOFT = "\u00ad"


def _feed(text: str, cuts: List[int], **options):
    chunker = Chunker(real_tokens=False, **options)
    chunks = []
    at = 0
    for cut in sorted(c % (len(text) + 1) for c in cuts) + [len(text)]:
        chunks += chunker.feed(text[at:cut])
        at = cut
    return chunks + chunker.close(), chunker.report


def test_a_soft_hyphen_at_a_line_end_joins_the_word_and_a_hard_one_stays():
    lines = ["1 Cover", f"We cover the condo{SOFT}", "minium and its ele-", "vation."]
    (chunk,) = chunk_lines(lines, real_tokens=False)
    assert chunk.text == "We cover the condominium and its ele- vation."
    chunker = Chunker(real_tokens=False)
    chunker.feed("\n".join(lines))
    chunker.close()
    assert chunker.report["soft_hyphens"] == 1


def test_a_soft_hyphen_inside_a_line_prints_nothing_and_joins_nothing():
    (chunk,) = chunk_lines(["1 Cover", f"We cover the condo{SOFT}minium."], real_tokens=False)
    assert chunk.text == "We cover the condominium."


@given(words=st.lists(st.text(alphabet="abefghjk", min_size=2, max_size=9), min_size=2, max_size=30),
       breaks=st.lists(st.booleans(), min_size=30, max_size=30),
       cuts=st.lists(st.integers(min_value=0, max_value=500), max_size=6),
       profile=st.sampled_from(["policy", "statute"]))
def test_every_broken_word_comes_back_whole_however_fed(words, breaks, cuts, profile):
    # One word a line (no roman-numeral letters: a line "cc" alone would be a page number),
    # broken at a soft hyphen after its first letter where ``breaks`` says.
    lines = []
    for word, broken in zip(words, breaks):
        lines += [word[0] + SOFT, word[1:]] if broken else [word]
    head = "\u00a7 1-101 Scope." if profile == "statute" else "1 Scope"
    text = "\n".join([head, "(a) The text:" if profile == "statute" else "The text:"] + lines)
    chunks, report = _feed(text, cuts, profile=profile, max_chars=100_000)
    said = " ".join(c.text for c in chunks).split()
    assert said[-len(words):] == words
    assert SOFT not in " ".join(c.text for c in chunks)
    assert report["soft_hyphens"] == sum(breaks[:len(words)])

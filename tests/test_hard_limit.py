"""The hard limit (``hard_max_tokens``, issue 25): a paragraph over it is cut at
sentence ends, then between words, into pieces under it, flagged ``split``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import Chunker, ConfigError, chunk_lines
from stream_chunker.core.hard_limit import pieces_within

words = st.text(alphabet="abcdefghij", min_size=1, max_size=12)
sentences = st.lists(words, min_size=1, max_size=30).map(lambda ws: " ".join(ws) + ".")


def by_words(text: str, count: int) -> int:
    return count


@settings(max_examples=200, deadline=None)
@given(st.lists(sentences, min_size=1, max_size=20), st.integers(1, 40))
def test_pieces_keep_every_word_in_order_and_stay_within(paragraph, limit) -> None:
    text = " ".join(paragraph)
    pieces = pieces_within(text, limit, by_words)
    assert " ".join(p for p, _, _ in pieces).split() == text.split()
    for piece, count, size in pieces:
        assert count == len(piece.split()) and size == count
        assert size <= limit or count == 1  # only a word longer than the limit stands over it


def test_a_sentence_end_is_preferred_to_a_space() -> None:
    pieces = [p for p, _, _ in pieces_within("We pay for storm. We pay for flood and for fire.", 5, by_words)]
    assert pieces == ["We pay for storm.", "We pay for flood and", "for fire."]


LONG = ["1 Cover", " ".join(["We pay for damage to the building caused by storm or flood."] * 60),
        "2 Excess", "The first 250 is yours."]


@pytest.mark.parametrize("cap_by", ["estimate", "real"])
def test_every_chunk_is_within_the_hard_limit_and_the_split_are_said(cap_by) -> None:
    chunks = list(chunk_lines(LONG, max_tokens=100, hard_max_tokens=130, cap_by=cap_by))
    whole = list(chunk_lines(LONG, max_tokens=100, cap_by=cap_by))
    size = (lambda c: c.real_tokens) if cap_by == "real" else (lambda c: c.tokens)
    assert [c.oversize for c in whole] == ["kept", False]  # by default kept whole, as ever
    assert all(size(c) <= 130 for c in chunks)
    split = [c for c in chunks if c.oversize == "split"]
    assert len(split) > 3 and [c.id for c in split] == [f"1#{n}" for n in range(1, len(split) + 1)]
    assert " ".join(c.text for c in chunks).split() == " ".join(c.text for c in whole).split()
    assert chunks[-1].id == "2" and chunks[-1].oversize is False


def test_the_report_counts_the_pieces() -> None:
    chunker = Chunker(max_tokens=100, hard_max_tokens=130, real_tokens=False)
    chunks = chunker.feed("\n".join(LONG) + "\n") + chunker.close()
    assert chunker.report["oversize"] == {"kept": 0, "cut": 0, "split": sum(c.oversize == "split" for c in chunks)}


@pytest.mark.parametrize("keywords, says", [
    (dict(max_tokens=100, hard_max_tokens=50), "below the cap"),
    (dict(max_chars=900, hard_max_tokens=500), "a limit in tokens"),
    (dict(max_tokens=100, hard_max_tokens=0), "above 0"),
])
def test_a_hard_limit_that_cannot_hold_is_refused(keywords, says) -> None:
    with pytest.raises(ConfigError, match=says):
        Chunker(real_tokens=False, **keywords)

"""The options, checked once (``engine.options``); the one path from a document
to its chunks (``drivers.document``); the sizers a cap measures with
(``core.sizing``)."""

from __future__ import annotations

import dataclasses
import io
import pickle
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunker, ConfigError, EncodingUnavailable, InputError, chunk_lines
from stream_chunker.core.sizing import UNITS, Characters, EstimatedTokens, RealTokens, sizer
from stream_chunker.drivers.document import Document, Reading, source_of
from stream_chunker.engine.options import Options

from benchmarks.synthetic import generate

# Each bad value, and the message the chunker has always given for it.
REFUSED = [
    (dict(max_tokens=0), ConfigError, "max_tokens must be a whole number above 0, got 0"),
    (dict(max_tokens=True), ConfigError, "max_tokens must be a whole number above 0, got True"),
    (dict(max_chars=-5), ConfigError, "max_chars must be a whole number above 0, got -5"),
    (dict(cap_by="words"), ConfigError, "cap_by must be 'estimate' or 'real', got 'words'"),
    (dict(max_tokens=10, max_chars=10), ConfigError, "give one cap: max_tokens or max_chars, not both"),
    (dict(cap_by="real", max_chars=10), ConfigError, "cap_by='real' caps tokens: give max_tokens, not max_chars"),
    (dict(profile="statute", cap_by="real"), ConfigError,
     "cap_by='real' caps tokens: give max_tokens with the statute profile"),
    (dict(profile="auto", cap_by="real"), ConfigError,
     "cap_by='real' caps tokens: give max_tokens with the statute profile"),
    (dict(cap_by="real", real_tokens=False), ConfigError,
     "cap_by='real' needs real token counts: leave real_tokens on"),
    (dict(profile="nope"), ConfigError, "unknown profile 'nope': choose one of policy, statute, or 'auto'"),
    (dict(colour="red"), ConfigError,
     "unknown option for the policy profile: colour (known: hard_max_tokens, max_paragraph_chars, max_title_words)"),
    (dict(colour="red", size=3), ConfigError,
     "unknown options for the policy profile: colour, size (known: hard_max_tokens, max_paragraph_chars, max_title_words)"),
    (dict(max_paragraph_chars=0), ConfigError, "max_paragraph_chars must be a whole number above 0, got 0"),
    (dict(profile="auto", code="MD"), ConfigError,
     "profile='auto' takes no options of one profile (code): name the profile to give them"),
    (dict(encoding="no_such_base", real_tokens=False), EncodingUnavailable, "unknown encoding 'no_such_base'"),
]


@pytest.mark.parametrize("keywords, error, message", REFUSED, ids=[m for _, _, m in REFUSED])
def test_options_refuse_each_bad_value_as_the_chunker_does(keywords: Dict[str, Any], error: type,
                                                           message: str) -> None:
    with pytest.raises(error) as by_options:
        Options.of(**keywords)
    with pytest.raises(error) as by_chunker:
        Chunker(**keywords)
    assert str(by_options.value).startswith(message)
    assert str(by_chunker.value) == str(by_options.value)


def test_options_are_frozen_and_travel_whole() -> None:
    options = Options.of(profile="statute", max_chars=500, code="MD", real_tokens=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.max_chars = 5  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(options)) == options  # as a worker process receives them
    assert options.extra == {"code": "MD"}
    assert options.settings_for("statute").cap_unit == "chars"


def test_a_chunker_takes_options_or_keywords_not_both() -> None:
    options = Options.of(max_tokens=20, real_tokens=False)
    text = generate(pages=4, seed=3)
    by_options, by_keywords = Chunker(options), Chunker(max_tokens=20, real_tokens=False)
    assert by_options.feed(text) + by_options.close() == by_keywords.feed(text) + by_keywords.close()
    with pytest.raises(ConfigError, match="give the options as Options or as keywords, not both"):
        Chunker(options, max_tokens=30)


# -- one document -----------------------------------------------------------------


def _chunks(document: Document) -> List[Any]:
    with document:
        return [chunk for batch in document.batches() for chunk in batch]


@pytest.fixture
def manual(tmp_path: Path) -> Path:
    path = tmp_path / "manual.txt"
    path.write_text(generate(pages=6, seed=11), encoding="utf-8")
    return path


def test_one_document_path_gives_the_same_chunks_however_the_text_comes(manual: Path, monkeypatch) -> None:
    options = Options.of(real_tokens=False, max_tokens=120)
    text = manual.read_text(encoding="utf-8")
    lines = text[:-1].split("\n")  # at "\n" only: a form feed turns the page, it ends no line
    by_path = _chunks(Document(manual, options))
    assert len(by_path) > 10
    assert _chunks(Document(str(manual), options)) == by_path
    assert _chunks(Document(lines, options)) == by_path  # lines without their ends
    assert _chunks(Document(iter([line + "\n" for line in lines]), options)) == by_path  # live lines
    assert _chunks(Document(io.StringIO(text), options)) == by_path
    with open(manual, encoding="utf-8") as opened:
        assert _chunks(Document(opened, options)) == by_path
    assert _chunks(Document(io.BytesIO(text.encode("utf-8")), options)) == by_path

    class Stdin:
        buffer = io.BufferedReader(io.BytesIO(text.encode("utf-8")))  # type: ignore[arg-type]

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert _chunks(Document(source_of("-"), options)) == by_path
    assert list(chunk_lines(lines, real_tokens=False, max_tokens=120)) == by_path


def test_one_document_closes_what_it_opened_and_reports(manual: Path) -> None:
    options = Options.of(real_tokens=False)
    with Document(manual, options) as document:
        assert not document.is_pdf and document.size == manual.stat().st_size
        chunks = [chunk for batch in document.batches() for chunk in batch]
        stream = document._stream
    assert stream is not None and stream.closed
    assert document.report["chunks"] == len(chunks)
    given = io.BytesIO(manual.read_bytes())
    _chunks(Document(given, options))
    assert not given.closed  # a stream given is the caller's to close


def test_one_document_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    options = Options.of(real_tokens=False)
    with pytest.raises(InputError, match="cannot read .*missing.txt: No such file"):
        Document(tmp_path / "missing.txt", options)
    fake = tmp_path / "saved.pdf"
    fake.write_text("<html>not found</html>\n")
    with Document(fake, options) as document, pytest.raises(InputError, match="not a PDF"):
        document.is_pdf
    with pytest.raises(InputError, match="binary input refused"):
        _chunks(Document(io.BytesIO(b"%PDF-1.4\n"), options, reading=Reading(strict=True)))


# -- sizers -----------------------------------------------------------------------


def test_each_unit_has_its_sizer() -> None:
    count = lambda text: len(text.split())  # noqa: E731  (a stand-in for an encoding)
    chosen = {unit: sizer(unit, count) for unit in UNITS}
    assert isinstance(chosen["estimate"], EstimatedTokens) and isinstance(chosen["chars"], Characters)
    assert isinstance(chosen["real"], RealTokens)
    assert [chosen[unit].unit for unit in UNITS] == list(UNITS)
    assert [(s.counts_tokens, s.real) for s in chosen.values()] == [(True, False), (True, True), (False, False)]
    texts, more = ["We cover the house."], "Fire is covered."
    assert chosen["estimate"].joined(texts, 4, 6, more, 3, 4, "\n", 100) == 10  # words alone
    assert chosen["chars"].joined(texts, 4, 19, more, 3, 16, "\n", 100) == 36  # the separator counts
    assert chosen["real"].joined(texts, 4, 4, more, 3, 3, "\n", 100) == 7  # counted joined
    assert chosen["real"].joined(texts, 4, 95, more, 3, 20, "\n", 100) == 101  # ruled out uncounted
    with pytest.raises(ValueError, match="no sizer for unit 'real' without a count"):
        sizer("real")


@given(st.integers(min_value=0, max_value=10**7), st.integers(min_value=0, max_value=10**7))
def test_the_estimate_sizer_counts_as_estimate_tokens_does(words: int, more: int) -> None:
    """``EstimatedTokens`` spells the estimate out where the packer asks it of
    every paragraph: it must stay the one ``estimate_tokens`` defines."""
    from stream_chunker.core.chunk import estimate_tokens

    sizer = EstimatedTokens()
    assert sizer.size("", words) == estimate_tokens(words)
    assert sizer.joined([], words, 0, "", more, 0, " ", 0) == estimate_tokens(words + more)

"""Which profile a text reads like (``engine.sniff``): ``profile="auto"`` and the
``profile_mismatch`` diagnostic, on the real corpus and on small texts."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunker, ConfigError
from stream_chunker.engine.sniff import WINDOW

from .test_cli import FAST, json_lines, run_main

KINDS = {
    "rfc2616.txt": "policy", "uslm-user-guide.txt": "policy", "uslm-user-guide.layout.txt": "policy",
    "insurance/sfip-dwelling-2021.txt": "policy", "insurance/sfip-general-property-2021.txt": "policy",
    "insurance/sfip-dwelling-2021.layout.txt": "policy", "usc-title27.txt": "statute",
    "usc-title27.layout.txt": "statute", "dc-code-31-24.txt": "statute",
}


def _run(text: str, **options) -> Chunker:
    chunker = Chunker(real_tokens=False, **options)
    chunker.feed(text)
    chunker.close()
    return chunker


@pytest.mark.parametrize("name", sorted(KINDS))
def test_auto_picks_the_profile_of_each_corpus_text(corpus, name):
    text = "\n".join(corpus(name))
    report = _run(text, profile="auto").report
    assert (report["profile"], report["profile_chosen"]) == (KINDS[name], "auto")
    assert report["profile_mismatch"] is None


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_wrong_profile_is_noticed_and_the_right_one_is_not(corpus, name):
    text = "\n".join(corpus(name))
    right = KINDS[name]
    wrong = "statute" if right == "policy" else "policy"
    assert _run(text, profile=right).report["profile_mismatch"] is None
    report = _run(text, profile=wrong).report
    assert report["profile_mismatch"]["reads_like"] == right
    assert report["diagnostics"]["profile_mismatch"] == 1
    assert report["signature_lines"][right] >= 3


def test_the_mismatch_names_a_line_that_shows_it():
    text = "Chapter 24 Motor Vehicle Insurance.\n\u00a7 31-2401 Findings.\n(a) Text.\n" \
           "\u00a7 31-2402 Definitions.\n(a) Text.\n\u00a7 31-2403 Scope.\n(a) Text.\n"
    seen = []
    report = _run(text, on_diagnostic=seen.append).report
    assert report["profile_mismatch"] == {"reads_like": "statute", "line": 2, "example": "\u00a7 31-2401 Findings."}
    assert [d for d in seen if d["kind"] == "profile_mismatch"] == [{
        "line": 2, "kind": "profile_mismatch", "profile": "policy", "reads_like": "statute",
        "signature_lines": {"policy": 0, "statute": 3}, "example": "\u00a7 31-2401 Findings."}]


@given(st.lists(st.integers(min_value=0, max_value=3000), max_size=8))
def test_auto_gives_the_chunks_of_the_profile_it_picks_however_fed(cuts):
    text = ("\u00a7 16-112 Stopping.\n(a) A driver may not stop.\n(b) Except as allowed in\n"
            "(c) of this section.\n" * 40)
    whole = Chunker(profile="statute", real_tokens=False)
    expected = whole.feed(text) + whole.close()
    auto = Chunker(profile="auto", real_tokens=False)
    got, at = [], 0
    for cut in sorted(c % (len(text) + 1) for c in cuts) + [len(text)]:
        got += auto.feed(text[at:cut])
        at = cut
    assert got + auto.close() == expected
    assert auto.report["profile"] == "statute"


def test_auto_on_an_empty_text_is_the_default_profile():
    report = _run("", profile="auto").report
    assert report["profile"] == "policy" and report["chunks"] == 0 and report["profile_mismatch"] is None


def test_auto_takes_no_options_of_one_profile():
    with pytest.raises(ConfigError, match="code"):
        Chunker(profile="auto", code="MD")
    with pytest.raises(ConfigError, match="statute"):  # every choice must work with the cap given
        Chunker(profile="auto", cap_by="real")


def test_auto_holds_back_a_bounded_text_however_long_its_lines():
    tracemalloc.start()
    chunker = Chunker(profile="auto", real_tokens=False, max_paragraph_chars=10_000)
    piece = "x" * 4096
    for _ in range(4 * WINDOW // len(piece)):  # a line with no end, four windows long
        chunker.feed(piece)
        assert chunker.report["profile"] == ("policy" if (_ + 1) * len(piece) >= WINDOW else "auto")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    chunker.close()
    assert peak < 3 * WINDOW + 2_000_000


def test_the_command_line_says_in_one_line_that_the_text_reads_like_another_profile(capsys, monkeypatch, tmp_path):
    code_text = "\u00a7 1-101 Title.\n(a) Text.\n\u00a7 1-102 Scope.\n(a) Text.\n\u00a7 1-103 Terms.\n(a) Text.\n"
    path = tmp_path / "code.txt"
    path.write_text(code_text, encoding="utf-8")
    status, out, err = run_main([FAST, str(path)], capsys, monkeypatch)
    assert status == 0 and json_lines(out)
    assert err.splitlines() == [
        f"stream-chunker: {path}: this reads like --profile statute (line 1: '\u00a7 1-101 Title.'), not policy; "
        "try --profile statute or --profile auto"]
    status, out, err = run_main([FAST, "--profile", "auto", str(path)], capsys, monkeypatch)
    assert status == 0 and err == ""
    assert [c["clause"] for c in json_lines(out)] == ["1-101(a)", "1-102(a)", "1-103(a)"]


_SIGNATURE_LINES = st.sampled_from(["4.2 Escape of water", "  3 EXCLUSIONS", "I. AGREEMENT", "\tSECTION A) COVER",
                                    "§ 31-2401 Findings.", "Sec. 12 Fees", "We pay for loss.", "", "   "])


@given(st.lists(_SIGNATURE_LINES, max_size=30))
def test_signature_lines_are_counted_as_lines_that_start_with_one(lines):
    # The sniffer looks for a signature after each line end and at a block's
    # start; a line-by-line count with each signature anchored at its start must agree.
    import re

    from stream_chunker.engine.sniff import Sniffer
    from stream_chunker.profiles.base import profiles

    signatures = {name: spec.signature for name, spec in profiles().items() if spec.signature is not None}
    sniffer = Sniffer(signatures)
    sniffer.feed("".join(line + "\n" for line in lines))
    sniffer.close()
    expected = {name: sum(re.match(rf"[ \t\f]*(?:{pattern.pattern})", line, re.M) is not None for line in lines)
                for name, pattern in signatures.items()}
    assert sniffer.counts == expected
    for name, (line_no, example) in sniffer.examples.items():
        assert example == lines[line_no - 1].strip()

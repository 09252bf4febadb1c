"""What the docs promise at the edges of the input, the options and the
report, each found broken once (issue 17): one rule for NUL bytes wherever
they are, cite templates that fill, encoding names checked with real counts
off too, a closed Chunker, an empty input's pages, the two processes' peaks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.synthetic import generate
from stream_chunker import Chunker, ConfigError, EncodingUnavailable
from stream_chunker.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE

from .test_cli import CHILD_TIMEOUT, FAST, json_lines, run_main, write

LINE = b"We cover the house, its garden wall and the shed.\n"


def _with_a_nul_at(offset: int) -> bytes:
    """A wording of about ``offset`` bytes and more, one NUL byte at ``offset`` of it."""
    text = b"1 Cover\n" + LINE * (offset // len(LINE) + 3)
    assert text[offset] != ord("\n")
    return text[:offset] + b"\x00" + text[offset:]


@pytest.mark.parametrize("offset", [9, 100, 8191, 8193, 9 * 1024, 1 << 20])
def test_a_nul_byte_is_dropped_and_noted_wherever_it_is(offset, tmp_path, capsys, monkeypatch):
    """It used to refuse the file as binary in the first 8 KiB, and to be
    dropped further in."""
    data = _with_a_nul_at(offset)
    line = data[:offset].count(b"\n") + 1
    path = write(tmp_path / "wording.txt", data)
    code, out, err = run_main([FAST, "--stats", str(path)], capsys, monkeypatch)
    assert code == EXIT_OK, err
    note, stats = err.split("\n", 1)
    assert note.startswith(f"stream-chunker: {path}: 1 NUL byte(s) dropped")
    assert json.loads(stats)["nul_bytes"] == 1
    clean = write(tmp_path / "clean.txt", data.replace(b"\x00", b""))
    assert run_main([FAST, str(clean)], capsys, monkeypatch)[1] == out
    code, out, err = run_main([FAST, "--strict", str(path)], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT
    assert err == f"stream-chunker: {path}: line {line}: NUL byte in the input (strict mode)\n"
    assert out == "" or out.endswith("\n")


STATUTE = b"Sec. 16-112. Stopping.\n(a) A vehicle shall stop.\n"


@pytest.mark.parametrize("cite, said", [
    ("Md. Code, Transp.", "has no {section}"),
    ("{section.__class__}", "uses {section.__class__}: a field is one of"),
    ("{section[0]}", "uses {section[0]}: a field is one of"),
    ("{0} {section}", "uses {0}: a field is one of"),
    ("{} {section}", "uses {}: a field is one of"),
    ("{chapter} {section}", "uses {chapter}: a field is one of"),
    ("\u00a7 {section} as of {as_of}", "uses {as_of}, which needs --as-of (as_of=)"),
    ("{code} \u00a7 {section}", "uses {code}, which needs --code (code=)"),
    ("\u00a7 {section:>{as_of}}", "uses {as_of}, which needs --as-of (as_of=)"),
    ("\u00a7 {section", "does not parse"),
    ("\u00a7 {section:d}", "does not work"),
], ids=["no-section", "attribute", "index", "positional", "empty", "unknown", "as-of-not-given",
        "code-not-given", "nested", "unbalanced", "bad-spec"])
def test_a_cite_template_that_does_not_fill_is_refused_naming_the_field(cite, said, capsys, monkeypatch):
    code, out, err = run_main([FAST, "--profile", "statute", "--cite", cite], capsys, monkeypatch, stdin=STATUTE)
    assert (code, out) == (EXIT_USAGE, "")
    assert err.startswith(f"stream-chunker: cite template {cite!r} {said}") and err.count("\n") == 1
    with pytest.raises(ConfigError, match="cite template") as refused:
        Chunker(profile="statute", cite=cite, real_tokens=False)
    assert said in str(refused.value)


@pytest.mark.parametrize("cite, options, citation", [
    ("Md. Code, Transp. \u00a7 {section}", [], "Md. Code, Transp. \u00a7 16-112(a)"),
    ("\u00a7 {section} ({as_of})", ["--as-of", "2026-01-01"], "\u00a7 16-112 (2026-01-01)(a)"),
    ("{code} \u00a7 {section!s:>8}", ["--code", "MD"], "MD \u00a7   16-112(a)"),
])
def test_a_cite_template_with_its_fields_given_fills(cite, options, citation, capsys, monkeypatch):
    code, out, err = run_main([FAST, "--profile", "statute", "--cite", cite, *options], capsys, monkeypatch,
                              stdin=STATUTE)
    assert code == EXIT_OK, err
    assert [c["citation"] for c in json_lines(out)] == [f"{citation} \u2014 '(a) A vehicle shall stop.'"]


def test_an_unknown_encoding_is_refused_with_real_counts_off_too(capsys, monkeypatch):
    code, _, err = run_main([FAST, "--encoding", "no_such_base"], capsys, monkeypatch, stdin=b"1 Cover\nText.\n")
    assert code == EXIT_USAGE and "unknown encoding 'no_such_base'" in err
    with pytest.raises(EncodingUnavailable, match="unknown encoding 'no_such_base'"):
        Chunker(real_tokens=False, encoding="no_such_base")


def test_a_closed_chunker_returns_nothing_and_refuses_more_text():
    chunker = Chunker(real_tokens=False)
    assert [c.id for c in chunker.feed("1 Cover\nWe cover the house.\n") + chunker.close()] == ["1"]
    assert chunker.close() == []
    with pytest.raises(ConfigError, match="this Chunker is closed; make a new one for the next document"):
        chunker.feed("2 Excess\n")


@pytest.mark.parametrize("via", ["file", "stdin"])
def test_an_empty_input_has_no_pages(via, tmp_path, capsys, monkeypatch):
    argv = [FAST, "--stats"] + ([str(write(tmp_path / "empty.txt", b""))] if via == "file" else [])
    code, out, err = run_main(argv, capsys, monkeypatch)
    report = json.loads(err)
    assert (code, out, report["lines"], report["pages"], report["chunks"]) == (EXIT_OK, "", 0, 0, 0)
    assert Chunker(real_tokens=False).report["pages"] == 0


@pytest.mark.parametrize("counting,jobs", [(True, []), (False, []), (True, ["--jobs", "2", "--count-worker"])],
                         ids=["count-worker", "no-count-worker", "workers-count-worker"])
def test_the_report_tells_the_two_processes_peaks_apart(counting, jobs, tmp_path):
    """In a process of its own, so that the counting process is the run's
    (with workers: theirs, each document bringing its figure back)."""
    path = write(tmp_path / "wording.txt", generate(pages=40, seed=5))
    paths = [str(path), str(write(tmp_path / "other.txt", generate(pages=40, seed=6)))] if jobs else [str(path)]
    argv = ["--stats", *jobs, *paths] + ([] if counting else ["--no-count-worker"])
    run = subprocess.run([sys.executable, "-m", "stream_chunker", *argv], capture_output=True,
                         timeout=CHILD_TIMEOUT)
    assert run.returncode == EXIT_OK, run.stderr
    report = json.loads(run.stderr)
    if jobs:
        assert all(doc["tokens"]["count_worker"] for doc in report["documents"])
    else:
        assert report["tokens"]["count_worker"] is counting
    assert isinstance(report["peak_rss_mib"], float) and report["peak_rss_mib"] > 0
    if counting:
        # (what the run said of its counting, should this fail again: it has, rarely, under CI's load)
        said = {key: report.get(key) for key in ("count_worker_peak_rss_mib", "totals")}
        said["documents"] = [(doc.get("tokens"), doc.get("diagnostics")) for doc in report.get("documents", [])]
        assert isinstance(report["count_worker_peak_rss_mib"], float) and report["count_worker_peak_rss_mib"] > 0, \
            said
    else:
        assert report["count_worker_peak_rss_mib"] is None


def test_the_docs_say_what_a_closed_chunker_does():
    api = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    assert '`ConfigError` ("this Chunker is closed; make a new one for the next document")' in " ".join(api.split())

"""The development corpus's manifest and ground truth hold together, and a missing PDF
is listed, never a failure: the copyrighted wordings are linked, not shipped."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmarks import fidelity
from benchmarks.outline_truth import clause_values, read_outline, split_path
from benchmarks.wordings import fetch

WORDINGS = Path(fetch.__file__).resolve().parent
ENTRIES = fetch.entries()


def test_the_manifest_names_at_least_six_wordings_of_several_countries_and_lines() -> None:
    items = json.loads(fetch.MANIFEST.read_text(encoding="utf-8"))["wordings"]
    assert len(items) >= 6
    assert len({item["country"] for item in items}) >= 4
    assert len({item["line"] for item in items}) >= 4


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_every_entry_is_pinned_and_has_its_own_ground_truth(entry: fetch.Entry) -> None:
    assert re.fullmatch(r"[0-9a-f]{40}", entry.commit)
    assert re.fullmatch(r"[0-9a-f]{64}", entry.sha256)
    assert "/" in entry.repository and entry.path.lower().endswith(".pdf")
    assert entry.licence
    assert not entry.committed or "public domain" in entry.licence.lower()
    assert (WORDINGS / f"make_{entry.name}.py").exists(), "ground truth must be remade from the PDF"
    rows = read_outline(entry.truth)
    assert len(rows) >= 100
    assert len({row.path for row in rows}) == len(rows), "paths are unique (repeats end ~2)"
    depth = 0
    for row in rows:
        assert row.depth <= depth + 1, row.path  # a row opens at most one level
        depth = row.depth


def test_copyrighted_pdfs_are_ignored_by_git() -> None:
    ignored = (WORDINGS.parents[1] / ".gitignore").read_text(encoding="utf-8")
    assert "benchmarks/wordings/cache/" in ignored


def test_a_missing_pdf_is_listed_not_scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetch, "CACHE", tmp_path)  # an empty cache
    monkeypatch.setattr(fetch.Entry, "pdf", property(lambda self: tmp_path / f"{self.name}.pdf"))
    found, missing = fidelity.wordings()
    assert not any(w.source != "shared/corpus/insurance" for w in found)
    assert {line.split(":")[0] for line in missing} >= {e.name for e in ENTRIES}


def test_a_damaged_pdf_is_not_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = ENTRIES[0]
    monkeypatch.setattr(fetch.Entry, "pdf", property(lambda self: tmp_path / f"{self.name}.pdf"))
    entry.pdf.write_bytes(b"%PDF-1.4 not the recorded file")
    assert entry.state() == "damaged"


def test_the_three_truth_formats_read_alike(tmp_path: Path) -> None:
    dotted = tmp_path / "a.expected.tsv"
    dotted.write_text("path\tlabel\ttitle_or_first_words\tpage\n{What is covered}\t\tWhat is covered\t3\n"
                      "{What is covered}.1\t1.\tFire or smoke\t3\nSection 2\tSection 2 -\tTheft\t4\n", encoding="utf-8")
    slashed = tmp_path / "b.expected.tsv"
    slashed.write_text("I\tI.\tAGREEMENT\nI/A\tA.\tThis policy insures\n", encoding="utf-8")
    listed = tmp_path / "c.expected.txt"
    listed.write_text("SECTION B) DEFINITIONS\n  1.\t1. Accident:- means\n", encoding="utf-8")
    a, b, c = read_outline(dotted), read_outline(slashed), read_outline(listed)
    assert [(r.path, r.heading, r.page) for r in a] == [
        (("{What is covered}",), True, 3), (("{What is covered}", "1"), False, 3), (("Section 2",), True, 4)]
    assert [(r.values, r.heading) for r in b] == [(("i",), True), (("i", "a"), False)]
    assert [(r.values, r.label, r.title, r.heading) for r in c] == [
        (("b",), "SECTION B)", "DEFINITIONS", True), (("b", "1"), "1.", "Accident:- means", False)]


def test_a_clause_is_compared_by_its_values() -> None:
    assert split_path("SECTION I~2.{Sec. 1 cover}.COVERAGE B.(1)") == ("SECTION I~2", "{Sec. 1 cover}", "COVERAGE B", "(1)")
    assert clause_values(split_path("SECTION I~2.{Perils}.COVERAGE B.(1)")) == ("i", "b", "1")
    assert clause_values(split_path("I.B.1")) == ("i", "b", "1")
    assert clause_values(("ii", "iii")) == ("ii", "iii")  # roman numerals are values, not prefix words


def test_another_set_of_wordings_is_read_from_a_folder(tmp_path: Path) -> None:
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "a.expected.tsv").write_text("path\tlabel\ttitle_or_first_words\tpage\n", encoding="utf-8")
    (tmp_path / "b.pdf").write_bytes(b"%PDF-1.4")  # no ground truth: not a wording to score
    (tmp_path / "c.expected.txt").write_text("SECTION A) PREAMBLE\n", encoding="utf-8")  # no PDF
    assert [(w.name, w.truth.name) for w in fidelity.folder_wordings(tmp_path)] == [("a", "a.expected.tsv")]

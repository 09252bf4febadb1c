"""The real documents in ../shared/corpus: what a user would check first."""

from __future__ import annotations

import re
from typing import Dict, List, Set

import pytest

from stream_chunker import Chunk, Chunker, chunk_lines

from .conftest import CORPUS


def _chunk(lines: List[str], **options) -> List[Chunk]:
    return list(chunk_lines(lines, real_tokens=False, **options))


def _clauses_and_parents(chunks: List[Chunk]) -> Set[str]:
    found: Set[str] = set()
    for chunk in chunks:
        if chunk.clause:
            parts = chunk.clause.split(".")
            found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return found


def _expected_numbers(name: str) -> List[str]:
    return [line.split("\t")[0] for line in (CORPUS / name).read_text(encoding="utf-8").splitlines() if line]


# -- RFC 2616 -----------------------------------------------------------------

@pytest.fixture(scope="module")
def rfc(corpus):
    lines = corpus("rfc2616.txt")
    return lines, _chunk(lines)


def test_rfc_every_listed_section_is_found(rfc):
    _, chunks = rfc
    expected = _expected_numbers("rfc2616.expected-full.tsv")
    assert len(expected) == 253
    missing = [n for n in expected if n not in _clauses_and_parents(chunks)]
    assert missing == []
    assert {"13", "13.1.1", "13.1.6", "13.2.1", "14.35.2", "19.6.3"} <= {c.clause for c in chunks}


def test_rfc_no_contents_line_and_no_page_furniture_in_chunks(rfc):
    _, chunks = rfc
    for chunk in chunks:
        assert not re.search(r"\.{4,}", chunk.text), chunk.id
        assert not re.search(r"RFC 2616\s+HTTP/1\.1\s+June 1999", chunk.text), chunk.id
        assert not re.search(r"Fielding, et al\.\s+Standards Track\s+\[Page \d+\]", chunk.text), chunk.id


def test_rfc_pages_agree_with_the_form_feeds(rfc):
    lines, chunks = rfc
    page_of_line = []
    page = 1
    for line in lines:
        page += line.count("\f")
        page_of_line.append(page)
    assert chunks[-1].pages[1] == page_of_line[-1] == 176
    for chunk in chunks:
        assert chunk.pages == (page_of_line[chunk.lines[0] - 1], page_of_line[chunk.lines[1] - 1]), chunk.id


def test_rfc_report_counts_what_was_dropped(corpus):
    chunker = Chunker(real_tokens=False)
    chunker.feed("\n".join(corpus("rfc2616.txt")))
    chunker.close()
    report = chunker.report
    assert report["contents_lines"] == 253
    assert report["contents"] == {"listed": 253, "found": 253, "missing": [], "not_kept": 0}
    # A header after each of the 175 form feeds and a footer before each, and the last footer.
    assert report["furniture_lines"] >= 2 * 175
    assert report["pages"] == 176


# -- USLM user guide ------------------------------------------------------------

@pytest.mark.parametrize("name", ["uslm-user-guide.txt", "uslm-user-guide.layout.txt"])
def test_uslm_finds_the_contents_numbers(corpus, name):
    chunks = _chunk(corpus(name))
    expected = _expected_numbers("uslm-user-guide.expected-full.tsv")
    found = [n for n in expected if n in _clauses_and_parents(chunks)]
    assert len(found) >= 0.95 * len(expected)


@pytest.mark.parametrize("name", ["uslm-user-guide.txt", "uslm-user-guide.layout.txt"])
def test_uslm_no_page_number_line_or_running_header_in_any_chunk(corpus, name):
    lines = corpus(name)
    events: List[Dict] = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append)
    chunks = chunker.feed("\n".join(lines)) + chunker.close()
    dropped = {e["line"] for e in events if e["kind"] == "furniture"}
    # Every bare page number printed at a page foot (the last non-blank line
    # before a form feed) was dropped as furniture, not chunked.
    feet = []
    for i, line in enumerate(lines):
        if "\f" in line:
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            if j >= 0 and re.fullmatch(r"\s*\d{1,3}\s*", lines[j]):
                feet.append(j + 1)
    assert len(feet) > 30
    assert set(feet) <= dropped
    for chunk in chunks:
        assert "User Guide United States" not in chunk.text
        assert not re.search(r"\(USLM\)\s+User Guide", chunk.text), chunk.id


# -- DC Code chapter 31-24 (statute) -----------------------------------------------

@pytest.fixture(scope="module")
def dc(corpus):
    return _chunk(corpus("dc-code-31-24.txt"), profile="statute", code="DC", cite="D.C. Code \u00a7 {section}")


def test_dc_first_level_labels_are_found(dc):
    clauses = {c.clause for c in dc if c.clause}
    expected = [line.split(" ", 1) for line in (CORPUS / "dc-code-31-24.expected.txt").read_text().splitlines()
                if " " in line]

    def found(section: str, label: str) -> bool:
        whole = section + label
        return any(c == whole or c.startswith(whole + "(") for c in clauses)

    hits = [pair for pair in expected if found(*pair)]
    assert len(hits) >= 0.95 * len(expected)
    for section, label in [("31-2413", "(a-1)"), ("31-2406", "(c-1)"), ("31-2402", "(9A)"),
                           ("31-2402", "(32A)")]:
        assert found(section, label), section + label


def test_dc_inserted_labels_in_deeper_levels(dc):
    clauses = {c.clause for c in dc if c.clause}
    structure = (CORPUS / "dc-code-31-24.structure.tsv").read_text().splitlines()[1:]
    paths = {row.split("\t")[2].replace(" ", "") for row in structure}
    assert any("(2A)" in p for p in paths)
    inserted = {p for p in paths if re.search(r"\((?:\d+[A-Z]|[a-z]-\d)\)", p)}
    covered = {p for p in inserted if any(c == p or c.startswith(p + "(") or p.startswith(c) for c in clauses)}
    assert covered == inserted


def test_dc_ids_citations_and_texts(corpus, dc):
    source = " ".join(" ".join(corpus("dc-code-31-24.txt")).split())
    ids = [c.id for c in dc]
    assert len(ids) == len(set(ids))
    first = next(c for c in dc if c.clause == "31-2401(a)")
    assert first.id == "DC-C-31-2401-a"
    assert first.citation.startswith("D.C. Code \u00a7 31-2401(a) \u2014 '(a) Findings.")
    assert first.heading_path == "Chapter 24 Compulsory/No-Fault Motor Vehicle Insurance > Findings; purpose"
    for chunk in dc:
        assert chunk.text in source
        assert chunk.oversize or len(chunk.text) <= 900


def test_dc_notes_stay_out_of_the_subsections(corpus, dc):
    lines = corpus("dc-code-31-24.txt")
    sections = [line.split()[1] for line in lines if line.startswith("\u00a7 ")]
    with_notes = {c.clause for c in dc if "-notes" in c.id}
    assert len([line for line in lines if line.strip() == "Notes"]) == len(with_notes) == 16
    assert with_notes <= set(sections)
    # Lines from "Notes" to the next section line are in notes chunks, and only there.
    in_notes, notes_lines = False, set()
    for number, line in enumerate(lines, 1):
        in_notes = (in_notes or line.strip() == "Notes") and not line.startswith("\u00a7 ")
        if in_notes:
            notes_lines.add(number)
    for chunk in dc:
        span = set(range(chunk.lines[0], chunk.lines[1] + 1))
        assert span <= notes_lines if "-notes" in chunk.id else not span & notes_lines, chunk.id
    last_of_2401 = next(c for c in dc if c.id == "DC-C-31-2401-b")
    assert last_of_2401.text.endswith("registered or operated in the District.")


# -- US Code title 27 (a real PDF extraction, statute) ----------------------------

@pytest.mark.parametrize("name", ["usc-title27.txt", "usc-title27.layout.txt"])
def test_usc_sections_of_the_chapter_lists_have_chunks(corpus, name):
    chunks = _chunk(corpus(name), profile="statute", code="USC", cite="27 U.S.C. \u00a7 {section}")
    sections = {c.clause.split("(")[0] for c in chunks if c.clause}
    first_numbers = {re.split(r"[ ,]", s)[0] for s in sections}
    listed = []
    for line in (CORPUS / "usc-title27.expected.txt").read_text().splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            listed.append(re.split(r"[ ,]", parts[2].rstrip("."))[0])
    assert len(listed) > 25
    missing = [n for n in listed if n not in first_numbers]
    assert missing == []


def test_usc_source_credits_open_each_sections_notes(corpus):
    lines = corpus("usc-title27.txt")
    chunks = _chunk(lines, profile="statute", code="USC")
    credits = [i + 1 for i, line in enumerate(lines) if re.match(r"\((?:Aug|Mar|Pub)\.", line)]
    assert len(credits) >= 20
    for line_no in credits:
        holder = next(c for c in chunks if c.lines[0] <= line_no <= c.lines[1])
        assert "-notes" in holder.id, (line_no, holder.id)
    assert not [c.id for c in chunks if "-notes" not in c.id and "AMENDMENTS" in c.text]


def test_usc_wrapped_citations_open_no_section(corpus):
    lines = corpus("usc-title27.txt")
    chunks = _chunk(lines, profile="statute")
    wrapped = [i + 1 for i, line in enumerate(lines) if line.startswith("\u00a78001(a)(1)")]
    assert wrapped
    assert not any(c.clause and c.clause.startswith("8001") for c in chunks)
    for line_no in wrapped:
        assert any(c.lines[0] <= line_no <= c.lines[1] for c in chunks)
    assert not [c for c in chunks if c.heading_path.startswith("(a)(1)")]


def test_usc_pages(corpus):
    lines = corpus("usc-title27.txt")
    chunks = _chunk(lines, profile="statute")
    last_text = max(i for i, line in enumerate(lines) if line.strip("\f \n"))
    assert chunks[-1].pages[1] == 1 + sum(line.count("\f") for line in lines[:last_text + 1]) == 31
    assert all(a.pages[0] <= b.pages[0] for a, b in zip(chunks, chunks[1:]))


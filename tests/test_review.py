"""Seeing what was read (issue 26): ``--outline`` (and ``--json``), ``--gold``,
and the report's account of the structure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import List, Optional

import pytest

from stream_chunker.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from stream_chunker.cli.gold import GoldCheck, read_gold
from stream_chunker.core.chunk import Chunk
from tests.test_cli import FAST, json_lines, run_main, write

EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "policy-wording.txt")
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "insurance"


def test_the_outline_has_one_line_per_section_and_sums_their_words(capsys, monkeypatch) -> None:
    code, out, _ = run_main([FAST, "--outline", EXAMPLE], capsys, monkeypatch)
    _, chunks_out, _ = run_main([FAST, EXAMPLE], capsys, monkeypatch)
    chunks = json_lines(chunks_out)
    assert code == EXIT_OK
    lines = [line for line in out.splitlines() if line.endswith(" words)")]
    sections = list(dict.fromkeys((c["id"].split("#")[0], c["heading_path"]) for c in chunks))
    assert len(lines) == len(sections)
    assert sum(int(line.rsplit(", ", 1)[1].split()[0]) for line in lines) == sum(c["words"] for c in chunks)
    # A heading with no text of its own stands alone, and what is under it is indented under it.
    assert out.splitlines()[1:3] == ["Definitions", "  1.1  Buildings  (line 24, page 2, 22 words)"]


def test_the_outline_as_json_lines(capsys, monkeypatch) -> None:
    code, out, _ = run_main([FAST, "--outline", "--json", EXAMPLE], capsys, monkeypatch)
    nodes = json_lines(out)
    assert code == EXIT_OK and nodes[0]["id"] == "front" and nodes[0]["title"] is None
    assert {"id", "title", "depth", "line", "page", "words", "last"} == set(nodes[1])
    assert nodes[1]["id"] is None and nodes[1]["title"] == "Definitions" and nodes[2]["depth"] == 1
    assert [n["line"] for n in nodes] == sorted(n["line"] for n in nodes)


@pytest.mark.parametrize("argv, says", [
    (["--json", EXAMPLE], "--json is a form of --outline"),
    (["--outline", EXAMPLE, EXAMPLE], "--outline concerns one document"),
    (["--json", EXAMPLE, EXAMPLE], "--json is a form of --outline"),
])
def test_outline_misuse_is_a_usage_error(argv, says, capsys, monkeypatch) -> None:
    code, out, err = run_main([FAST, *argv], capsys, monkeypatch)
    assert (code, out) == (EXIT_USAGE, "") and says in err


def chunk(cid: str, clause: str) -> Chunk:
    return Chunk(cid, clause, "", "text", 1, 1, None, None, (1, 1), (1, 1), False)


def test_gold_labels_found_missing_and_ambiguous() -> None:
    check = GoldCheck(["4.2", "Endorsement 12", "9.9", "1"])
    check.feed([chunk("4.2#1", "4.2"), chunk("4.2#2", "4.2"), chunk("12", "12"), chunk("1", "1"),
                chunk("1~2", "1")])
    report = check.report()
    assert (report["found"], report["missing_labels"], report["ambiguous_labels"]) == (3, ["9.9"], ["1"])


def test_a_gold_file_skips_comments_and_repeats(tmp_path) -> None:
    path = write(tmp_path / "gold.txt", "# QA, wording 7\n4.2\n\n4.2\nIII.C.2.b\n")
    assert read_gold(str(path)) == ["4.2", "III.C.2.b"]
    with pytest.raises(Exception, match="no gold labels"):
        read_gold(str(write(tmp_path / "empty.txt", "# nothing\n")))


@pytest.mark.skipif(not (CORPUS / "bajaj-global-health-care.txt").exists(), reason="needs ../shared/corpus/insurance")
def test_gold_on_a_corpus_wording_reports_and_strict_fails(tmp_path, capsys, monkeypatch) -> None:
    """Bajaj as pdftotext prints it: some clause is cited by two sections
    (``B.1`` and ``B~2.1``: its part B's numbers start again), another by one,
    and 77.7 by none."""
    wording = str(CORPUS / "bajaj-global-health-care.txt")
    _, out, _ = run_main([FAST, wording], capsys, monkeypatch)
    sections: dict = {}
    for c in json_lines(out):
        if c["clause"] is not None:
            sections.setdefault(c["clause"], set()).add(c["id"].split("#")[0])
    twice = next(clause for clause, ids in sorted(sections.items()) if len(ids) > 1)
    once = next(clause for clause, ids in sorted(sections.items()) if len(ids) == 1)
    gold = write(tmp_path / "gold.txt", f"{once}\n{twice}\n77.7\n")
    code, _, err = run_main([FAST, "--gold", str(gold), "--report", str(tmp_path / "r.json"), wording],
                            capsys, monkeypatch)
    report = json.loads((tmp_path / "r.json").read_text())["gold"]
    assert code == EXIT_OK and (report["found"], report["missing_labels"], report["ambiguous_labels"]) == (
        2, ["77.7"], [twice])
    assert f"gold labels: 2 of 3 cited; cited by no chunk: 77.7; cited by more than one section: {twice}" in err
    code, _, _ = run_main([FAST, "--strict", "--gold", str(gold), wording], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT


def test_the_report_says_how_much_text_sits_under_no_heading(tmp_path, capsys, monkeypatch) -> None:
    flat = write(tmp_path / "flat.txt", "We will pay for loss or damage to the home and its contents. " * 60)
    code, _, err = run_main([FAST, "--report", str(tmp_path / "r.json"), str(flat)], capsys, monkeypatch)
    structure = json.loads((tmp_path / "r.json").read_text())["structure"]
    assert code == EXIT_OK and structure["weak"] and structure["share_under_heading"] == 0.0
    assert "the structure is weak" in err
    run_main([FAST, "--report", str(tmp_path / "e.json"), EXAMPLE], capsys, monkeypatch)
    example = json.loads((tmp_path / "e.json").read_text())
    assert not example["structure"]["weak"] and example["read_from"] == "text"
    assert example["structure"]["words"] > example["structure"]["words_outside"] > 0


# -- the review page, in a real browser -----------------------------------------

BROWSER = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(name)), None)
SCREENSHOT = os.environ.get("STREAM_CHUNKER_SCREENSHOT")
"""Where the test also saves its first screenshot (docs/review.png was made so)."""


def _browser(*args: str) -> subprocess.CompletedProcess:
    assert BROWSER is not None
    return subprocess.run([BROWSER, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--enable-logging=stderr", "--v=0", *args], capture_output=True, text=True, timeout=120)


class _Page(HTMLParser):
    """What a page holds: the chunk sections' ids and the outline's nodes."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: List[str] = []
        self.nodes = 0
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "section" and attributes.get("class") == "chunk":
            self.sections.append(attributes["id"])
        if "node" in (attributes.get("class") or "").split() and tag in ("summary", "span"):
            self.nodes += 1
        self.scripts += tag == "script"


@pytest.mark.skipif(BROWSER is None, reason="no headless browser (Debian: apt-get install chromium)")
@pytest.mark.parametrize("name", ["sfip-dwelling-2021.pdf", "barclays-travel-2016.pdf"])
def test_the_review_page_in_a_browser_shows_every_chunk_and_the_outline(name, tmp_path, capsys, monkeypatch) -> None:
    pdf = CORPUS / name
    if not pdf.exists():
        pytest.skip("needs ../shared/corpus/insurance")
    page = tmp_path / "review.html"
    code, out, _ = run_main([FAST, "--review", str(page), str(pdf)], capsys, monkeypatch)
    _, outline, _ = run_main([FAST, "--outline", str(pdf)], capsys, monkeypatch)
    chunks = json_lines(out)
    assert code == EXIT_OK
    dumped = _browser("--dump-dom", page.as_uri())
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    seen = _Page()
    seen.feed(dumped.stdout)  # the DOM the browser built, not the file's text
    assert seen.sections == [c["id"] for c in chunks]
    nodes = [line for line in outline.splitlines() if not line.lstrip().startswith("! refused")]
    assert seen.nodes == len(nodes) and seen.scripts == 0
    assert "CONSOLE" not in dumped.stderr and "Uncaught" not in dumped.stderr
    shot = Path(SCREENSHOT) if SCREENSHOT and name.startswith("barclays") else tmp_path / "review.png"
    taken = _browser("--window-size=1280,900", f"--screenshot={shot}", page.as_uri())
    assert taken.returncode == 0 and shot.stat().st_size > 10_000


def test_the_review_page_escapes_what_it_shows(tmp_path, capsys, monkeypatch) -> None:
    text = write(tmp_path / "odd.txt", "1 Cover <script>alert(1)</script>\nWe pay for A&B \"loss\".\n")
    page = tmp_path / "odd.html"
    code, _, _ = run_main([FAST, "--review", str(page), str(text)], capsys, monkeypatch)
    html_text = page.read_text(encoding="utf-8")
    assert code == EXIT_OK and "<script>" not in html_text and "&lt;script&gt;" in html_text
    assert "A&amp;B &quot;loss&quot;" in html_text and html_text.rstrip().endswith("</html>")


class _Tables(HTMLParser):
    """The cells of each table of rows read as text (``table.rows``) on a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: List[List[List[str]]] = []
        self._in_rows = False
        self._cell: Optional[List[str]] = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self._in_rows = dict(attrs).get("class") == "rows"
            if self._in_rows:
                self.tables.append([])
        elif tag == "tr" and self._in_rows:
            self.tables[-1].append([])
        elif tag == "td" and self._in_rows:
            self._cell = []

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._in_rows = False


def test_a_table_read_as_text_is_shown_as_a_table_cell_by_cell(tmp_path, capsys, monkeypatch) -> None:
    rows = ["1 Cancellation \u00a35,000", "2 Medical expenses \u00a310,000,000 \u00a3250", "3 Baggage Nil"]
    wording = ["Schedule of benefits", *rows, "", "1 Cancellation", "We pay if you must cancel your trip.",
               "2 Medical expenses", "We pay for treatment abroad.", "3 Baggage", "We pay for lost bags."]
    text = write(tmp_path / "schedule.txt", "\n".join(wording) + "\n")
    page = tmp_path / "schedule.html"
    code, out, _ = run_main([FAST, "--review", str(page), str(text)], capsys, monkeypatch)
    html_text = page.read_text(encoding="utf-8")
    seen = _Tables()
    seen.feed(html_text)
    assert code == EXIT_OK and seen.tables == [[["1", "Cancellation", "\u00a35,000"],
                                                ["2", "Medical expenses", "\u00a310,000,000", "\u00a3250"],
                                                ["3", "Baggage", "Nil"]]]
    assert "heading read as text: 1 Cancellation" not in html_text  # (shown once, in its table)
    assert [c["clause"] for c in json_lines(out)] == [None, "1", "2", "3"]  # the rows opened no section
    assert all(row in json_lines(out)[0]["text"] for row in rows)  # and their text is kept


@pytest.mark.skipif(not (CORPUS / "barclays-travel-2016.txt").exists(), reason="needs ../shared/corpus/insurance")
def test_the_outline_says_which_lines_were_refused_as_headings_under_their_section(capsys, monkeypatch) -> None:
    wording = str(CORPUS / "barclays-travel-2016.txt")
    _, out, _ = run_main([FAST, "--outline", wording], capsys, monkeypatch)
    _, as_json, _ = run_main([FAST, "--outline", "--json", wording], capsys, monkeypatch)
    lines = out.splitlines()
    refused = next(i for i, line in enumerate(lines) if "31 days or as soon" in line)
    assert lines[refused] == "  ! refused (line 1011): 31 days or as soon as possible after that -- lower-case title"
    section = next(line for line in reversed(lines[:refused]) if not line.lstrip().startswith("!"))
    first, last = (int(n) for n in [section.split("(line ")[1].split(",")[0], 1011])
    assert first <= last  # after the section that holds it
    records = json_lines(as_json)
    assert {"refused": "31 days or as soon as possible after that", "reason": "lower-case title",
            "line": 1011} in records


def test_a_corpus_run_writes_a_page_each_and_an_index_weakest_first(tmp_path, capsys, monkeypatch) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    write(folder / "a-flat.txt", "We will pay for loss or damage to the home and its contents. " * 60)
    (folder / "b-example.txt").write_text(Path(EXAMPLE).read_text(encoding="utf-8"), encoding="utf-8")
    write(folder / "c-binary.txt", b"\x00\x01\x02binary\x00" * 1000)
    pages = tmp_path / "review"
    code, out, _ = run_main([FAST, "--review", str(pages), str(folder)], capsys, monkeypatch)
    chunks = json_lines(out)
    assert code == EXIT_BAD_INPUT  # the binary file failed, the others were read
    index = (pages / "index.html").read_text(encoding="utf-8")
    ranked = index.split("Every document")[0]
    assert ranked.index("c-binary.txt") < ranked.index("a-flat.txt") < ranked.index("b-example.txt")
    assert "failed: " in ranked and "weak" in ranked
    page = next(pages.glob("*-b-example.txt.html")).read_text(encoding="utf-8")
    for chunk in (c for c in chunks if c["doc"].endswith("b-example.txt")):
        assert f'id="{chunk["id"]}"' in page
    assert sorted(p.name for p in pages.iterdir()) == ["00001-a-flat.txt.html", "00002-b-example.txt.html",
                                                       "00003-c-binary.txt.html", "index.html"]

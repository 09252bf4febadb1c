"""The API and the walks cannot be misused quietly: a string is one document or one
path, never its characters; a walk reads regular files only, says what it skips, and
never blocks."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from stream_chunker import chunk_files, chunk_lines

TEXT = "1 Cover\nWe cover the house.\n2 Claims\nTell us within thirty days.\n"


def test_a_string_given_to_chunk_lines_is_the_text_of_one_document():
    assert [(c.id, c.text) for c in chunk_lines(TEXT, real_tokens=False)] == [
        (c.id, c.text) for c in chunk_lines(TEXT.splitlines(), real_tokens=False)]
    assert [c.id for c in chunk_lines(TEXT, real_tokens=False)] == ["1", "2"]


@pytest.mark.parametrize("wrong", [TEXT.encode(), Path("policy.txt")])
def test_bytes_or_a_path_given_to_chunk_lines_is_a_clear_type_error(wrong):
    with pytest.raises(TypeError, match="chunk_lines takes lines or a text"):
        list(chunk_lines(wrong, real_tokens=False))


@pytest.mark.parametrize("as_given", [str, Path])
def test_one_path_given_to_chunk_files_is_one_path(tmp_path, as_given):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "home.txt").write_text(TEXT)
    got = list(chunk_files(as_given(folder), jobs=1, real_tokens=False))
    assert [(Path(doc).name, chunk.id) for doc, chunk in got] == [("home.txt", "1"), ("home.txt", "2")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_walk_skips_fifos_and_links_to_directories_and_says_so(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT)
    os.mkfifo(folder / "fifo.txt")
    (tmp_path / "elsewhere").mkdir()
    (folder / "linked").symlink_to(tmp_path / "elsewhere")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = list(chunk_files([folder], jobs=1, glob=["*"], real_tokens=False))
    assert {Path(doc).name for doc, _ in got} == {"a.txt"}
    assert sorted(str(w.message).split(": ", 1)[1] for w in caught) == [
        "skipped: a FIFO, not a regular file", "skipped: a link to a directory (links to directories are not followed)"]
    run = subprocess.run([sys.executable, "-m", "stream_chunker", "--no-real-tokens", "--glob", "*", str(folder)],
                         capture_output=True, text=True, timeout=60)  # would wait for ever on the FIFO
    assert run.returncode == 0 and run.stdout.count('"doc":') == 2
    assert f"{folder / 'fifo.txt'}: skipped: a FIFO" in run.stderr


def test_langchain_ids_are_unique_for_pages_of_one_source_and_documents_without_one():
    from langchain_core.documents import Document

    from stream_chunker.langchain import StreamChunkerSplitter

    pages = [Document(page_content=TEXT, metadata={"source": "sfip.pdf", "page": n}) for n in range(2)]
    bare = [Document(page_content=TEXT), Document(page_content=TEXT)]
    again = [Document(page_content=TEXT, metadata={"source": "a.txt"})] * 2
    for documents in (pages, bare, again):
        ids = [d.id for d in StreamChunkerSplitter(real_tokens=False).split_documents(documents)]
        assert len(ids) == 4 and len(set(ids)) == 4, ids
    ids = [d.id for d in StreamChunkerSplitter(real_tokens=False).split_documents(pages)]
    assert ids == ["sfip.pdf:p0:1", "sfip.pdf:p0:2", "sfip.pdf:p1:1", "sfip.pdf:p1:2"]


def _a_pdf(path: Path) -> bytes:
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 makes the test PDF: pip install -e '.[test]'")
    pytest.importorskip("pypdfium2", reason="reading a PDF needs pypdfium2: pip install -e '.[pdf]'")
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, TEXT)
    return bytes(pdf.output())


def test_a_pdf_with_bytes_before_its_signature_is_read_as_poppler_reads_it(tmp_path):
    path = tmp_path / "mailed.pdf"
    path.write_bytes(b"Content-Type: application/pdf\r\n\r\n" + _a_pdf(path))
    run = subprocess.run([sys.executable, "-m", "stream_chunker", "--no-real-tokens", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "We cover the house." in run.stdout


def test_an_empty_pdf_is_called_empty_not_a_web_page(tmp_path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    run = subprocess.run([sys.executable, "-m", "stream_chunker", str(path)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 1 and run.stderr == f"stream-chunker: {path}: not a PDF: the file is empty\n"


def test_an_encoding_that_needs_a_download_says_so_in_a_line(monkeypatch):
    import tiktoken

    from stream_chunker import EncodingUnavailable
    from stream_chunker.core.tokens import load_encoding

    def offline(name):
        raise ConnectionError("HTTPSConnectionPool(host='example.invalid', port=443): Max retries exceeded " * 5)

    monkeypatch.setattr(tiktoken, "get_encoding", offline)
    with pytest.raises(EncodingUnavailable) as caught:
        load_encoding("o200k_base")
    message = str(caught.value)
    assert "(ConnectionError: HTTPSConnectionPool)" in message and "Max retries" not in message


def test_ids_keep_no_one_sided_bracket() -> None:
    """``a)`` is cited as printed, ``a)``; its id is ``a``, as ``(a)``'s is ``(a)``."""
    from stream_chunker import chunk_lines

    chunks = list(chunk_lines(["SECTION 1 Cover", "We insure the home.", "", "a) Storm damage to the home.",
                               "b) Flood damage to the home.", "", "(a) Theft of the contents."],
                              real_tokens=False, max_tokens=5))
    assert [(c.id, c.clause) for c in chunks[1:]] == [("1.a", "1.a)"), ("1.b", "1.b)"), ("1.b.(a)", "1.b).(a)")]


@pytest.mark.parametrize("flag", [["--password", "secret"], ["--layout"]])
def test_pdf_options_with_a_text_are_a_usage_error(flag, capsys, monkeypatch) -> None:
    from stream_chunker.cli import EXIT_USAGE
    from tests.test_cli import FAST, run_main

    example = str(Path(__file__).resolve().parents[1] / "examples" / "policy-wording.txt")
    code, out, err = run_main([FAST, *flag, example], capsys, monkeypatch)
    assert (code, out) == (EXIT_USAGE, "") and f"{flag[0]} concerns PDFs" in err


def test_a_heading_after_a_hundred_thousand_form_feeds_is_a_heading() -> None:
    """The form feeds make the line longer than the hard bound; what follows them is a line of its own."""
    from stream_chunker import chunk_lines

    text = "\f" * 100_000 + "1 Cover\nWe cover the house.\n2 Excess\nThe first 250 is yours.\n"
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.id, c.heading_path, c.pages[0], c.oversize) for c in chunks] == [
        ("1", "Cover", 100_001, False), ("2", "Excess", 100_001, False)]

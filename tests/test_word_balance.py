"""Every word read is in a chunk or accounted for: the report's ``words_in``
balances ``words_out`` (the words of the chunks' text) and ``words_elsewhere``
(heading paths and clauses, page furniture, contents lists, soft hyphens
joined) -- on every document of the corpus, from its text and from its PDF,
and on every kind of generated wording the other properties draw."""

from __future__ import annotations

import shutil
from collections import Counter
from typing import Any, Dict, Iterable, List, Optional, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import Chunker, chunk_lines
from stream_chunker.core.layout import Style
from stream_chunker.core.text import count_words
from stream_chunker.drivers.document import Document, Reading
from stream_chunker.drivers.documents import document_notes
from stream_chunker.engine.options import Options

from .conftest import CORPUS
from .test_furniture import paginated
from .test_outline import outlines
from .test_properties import documents
from .test_statute import sections
from .test_styled_headings import BIG, BODY, BOLD, COVER, benefits, parts

TEXTS = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.txt")) if CORPUS.is_dir() else []
PDFS = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.pdf")) if CORPUS.is_dir() else []


def balance(report: Dict[str, Any]) -> Tuple[int, int]:
    """What the report says went in, and what it says came out or went elsewhere."""
    elsewhere = report["words_elsewhere"]
    assert set(elsewhere) == {"headings", "furniture", "contents", "joined"}
    assert all(n >= 0 for n in elsewhere.values()), elsewhere
    out = report["words_out"] + sum(elsewhere.values()) - report["words_cut"]
    assert report["words_unaccounted"] == report["words_in"] - out
    return report["words_in"], out


def read(text: str, pieces: Iterable[int] = (), styles: Optional[List[Optional[Style]]] = None,
         **options: Any) -> Tuple[Dict[str, Any], int]:
    """The report of ``text`` chunked (fed in pieces of the sizes given, if
    any; set in the line styles given, if any, as a PDF's layout), and the
    words of the chunks' text."""
    chunker = Chunker(real_tokens=False, **options)
    if styles is not None:
        chunker.note_layout(1, text, styles)
    at = 0
    for size in pieces:
        chunker.feed(text[at:at + size])
        at += size
    words = sum(len(c.text.split()) for c in chunker.feed(text[at:]) + chunker.close())
    return chunker.report, words


def read_pages(pages: List[List[Tuple[str, Optional[Style]]]]) -> Tuple[str, Dict[str, Any], int]:
    """As ``read``, for pages of lines set in styles, fed as the PDF driver feeds them."""
    chunker = Chunker(real_tokens=False)
    words, line, whole = 0, 1, ""
    for number, page in enumerate(pages):
        text = "".join(f"{t}\n" for t, _ in page)
        chunker.note_layout(line, text, [s if t.strip() else None for t, s in page])
        whole += ("\f" if number else "") + text
        words += sum(len(c.text.split()) for c in chunker.feed(("\f" if number else "") + text))
        line += text.count("\n")
    words += sum(len(c.text.split()) for c in chunker.close())
    return whole, chunker.report, words


def assert_balanced(text: str, **kwargs: Any) -> Dict[str, Any]:
    report, chunk_words = read(text, **kwargs)
    return assert_report_balanced(text, report, chunk_words)


def assert_report_balanced(text: str, report: Dict[str, Any], chunk_words: int) -> Dict[str, Any]:
    assert report["words_out"] == chunk_words
    words_in, out = balance(report)
    assert words_in == len(text.split()) and out == words_in, report
    return report


SPACES = st.sampled_from([" ", "\n", "\t", "\f", "\x1c", "\xa0", "\u2028", "\u3000", "  "])


@given(st.lists(st.one_of(SPACES, st.text(min_size=1, max_size=8)), max_size=30), st.integers(0, 60))
def test_words_are_counted_as_str_split_finds_them_however_the_text_is_cut(parts: List[str], cut: int) -> None:
    text = "".join(parts)
    assert count_words(text) == len(text.split())
    head, tail = text[:cut], text[cut:]
    in_word = bool(head) and not head[-1].isspace()
    assert count_words(head) + count_words(tail, in_word) == len(text.split())


# -- the corpus --------------------------------------------------------------------
@pytest.mark.parametrize("name", TEXTS)
def test_every_word_of_a_corpus_text_is_accounted_for(name: str) -> None:
    text = (CORPUS / name).read_text(encoding="utf-8")
    report = assert_balanced(text, profile="auto")
    assert report["words_out"] > 0.85 * report["words_in"]  # (most words are the chunks' own text)


@pytest.mark.skipif(not PDFS, reason="needs ../shared/corpus with its PDFs")
@pytest.mark.parametrize("name", PDFS)
@pytest.mark.parametrize("backend", ["pdfium", pytest.param("pdftotext", marks=pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="needs poppler's pdftotext (apt install poppler-utils)"))])
def test_every_word_of_a_corpus_pdf_is_accounted_for(name: str, backend: str) -> None:
    pytest.importorskip("pypdfium2", reason="the PDF path needs pypdfium2: pip install -e '.[pdf]'")
    document = Document(CORPUS / name, Options.of(real_tokens=False), reading=Reading(pdf_backend=backend), pdf=True)
    with document:
        chunk_words = sum(len(c.text.split()) for batch in document.batches() for c in batch)
    report = document.report
    assert report["words_out"] == chunk_words
    words_in, out = balance(report)
    assert words_in == out and words_in > 5000  # (the text of every page, read and accounted for)


# -- each way a word leaves the text -------------------------------------------------
def test_heading_words_are_in_heading_paths_and_clauses() -> None:
    report = assert_balanced("1 Cover\n1.1 Escape of water\nWe pay for damage.\n")
    assert report["words_elsewhere"]["headings"] == 6  # "1 Cover", "1.1 Escape of water"


def test_clause_text_on_its_number_line_is_text_and_only_the_number_is_a_label() -> None:
    report = assert_balanced("1 Cover\n1.1 We pay for any damage caused by water escaping from a tank.\n")
    assert report["words_elsewhere"]["headings"] == 3  # "1 Cover", "1.1"


def test_furniture_and_contents_words_are_counted_where_they_are_dropped() -> None:
    page = "Harbour Mutual Home Policy\n{n} Cover\nWe pay for storm damage to the home, as the schedule says.\nPage {n}\n"
    text = "Contents\n1 Cover ........ 2\n2 Claims ........ 3\n\f" + "\f".join(page.format(n=n) for n in range(1, 5))
    report = assert_balanced(text)
    assert report["words_elsewhere"]["contents"] == 8  # two entries and their leaders, page numbers and all
    assert report["words_elsewhere"]["furniture"] >= 4 * 4  # the running header on each page


def test_a_word_a_soft_hyphen_broke_is_one_word() -> None:
    report = assert_balanced("1 Cover\nWe cover the condo\u00ad\nminium and its roof.\n")
    assert report["words_elsewhere"]["joined"] == 1


def test_a_heading_that_gives_its_title_back_to_the_text_counts_it_once() -> None:
    # "What is not covered" has no text of its own before the next heading: its title is its text.
    page = [("Cover", BIG), ("", None), ("What is not covered", BOLD), ("", None), ("Making a claim", BIG),
            ("", None), ("Call us first.", BODY), ("Then write to us.", BODY)]
    report = assert_report_balanced(*(read_pages([list(COVER), page])))
    assert report["headings_unnumbered"] == 3
    assert report["words_elsewhere"]["headings"] == 4  # "Cover", "Making a claim"


def test_a_numbered_heading_with_no_text_of_its_own_is_a_chunk_of_its_lines() -> None:
    """Events covered that are a title alone (``5. Earthquake``), or a table's
    numbered rows read as sections: ended by the next, each is a chunk of its
    own lines, where its words were in no chunk; a section under it, or the
    end of the text, leaves it none (its title is in the path below it, or
    the text was cut short)."""
    lines = ["Events", "", "4. Riot, excluding looting by the insured.", "", "5. Earthquake", "",
             "6. Subterranean Fire", "", "7. Storm, excluding flood.", "", "1 Stapedotomy", "", "2 Myringoplasty", "",
             "3 Tonsillectomy", "Paid in full.", "", "4 Claims", "4.1 Reporting", "Tell us within 30 days.", "5 Excess"]
    chunks = list(chunk_lines(lines, real_tokens=False))
    assert [(c.id, c.text) for c in chunks if c.text.split()[-1] in ("Earthquake", "Fire", "Stapedotomy",
                                                                       "Myringoplasty")] == [
        ("5", "5. Earthquake"), ("6", "6. Subterranean Fire"), ("7.1", "1 Stapedotomy"), ("7.2", "2 Myringoplasty")]
    assert not any(c.text.startswith(("4 Claims", "5 Excess")) for c in chunks)
    assert_balanced("\n".join(lines) + "\n")
    # a bare ``5.`` that ``5.1`` makes section 5 has a section under it
    lines = ["4. COVER", "Text.", "5. CLAIMS", "5.1 Reporting", "Tell us within 30 days."]
    assert [c.id for c in chunk_lines(lines, real_tokens=False)] == ["4", "5.1"]


def test_a_word_longer_than_the_hard_bound_is_cut_and_counted() -> None:
    report = assert_balanced("1 Cover\n" + "ab" * 2500 + " tail\n", max_paragraph_chars=1000)
    assert report["words_cut"] == 4  # five pieces of one word


def test_every_way_of_feeding_gives_the_same_balance() -> None:
    text = "1 Cover\nWe pay for the condo\u00ad\nminium.\n\f2 Claims\nCall us.\n"
    whole, _ = read(text)
    for size in (1, 2, 3, 7):
        cut, _ = read(text, pieces=[size] * (len(text) // size))
        assert {k: cut[k] for k in ("words_in", "words_out", "words_elsewhere")} == \
            {k: whole[k] for k in ("words_in", "words_out", "words_elsewhere")}


def test_a_word_unaccounted_for_is_said_in_the_notes() -> None:
    """Were the engine to lose a word, the user would be told on stderr (where
    ``document_notes`` go), with the document's name."""
    report, _ = read("1 Cover\nWe pay for storm damage.\n")
    assert report["words_unaccounted"] == 0 and not document_notes(report, "wording.txt")
    report["words_unaccounted"] = 2
    assert document_notes(report, "wording.txt") == (
        "wording.txt: 2 of its 7 words are in no chunk and not accounted for (a fault of stream_chunker: "
        "please report it with the document)",)


# -- generated wordings ----------------------------------------------------------------
@given(documents())
def test_generated_decimal_wordings_balance(doc) -> None:
    assert_balanced("\n".join(doc.lines))


@given(outlines(), st.sampled_from([None, 1, 5]))
def test_generated_outlines_balance(outline, size) -> None:
    lines = outline[0]
    text = "\n".join(lines)
    assert_balanced(text, pieces=[size] * (len(text) // size) if size else ())


@given(paginated())
def test_generated_pages_with_furniture_balance(doc) -> None:
    text, _, footer, pages, _ = doc
    report = assert_balanced(text)
    assert report["words_elsewhere"]["furniture"] >= (pages if footer else 0)  # a footer on every page goes


@settings(max_examples=30)
@given(sections())
def test_generated_code_sections_balance(lines: List[str]) -> None:
    assert_balanced("\n".join(lines), profile="statute")


@settings(max_examples=30)
@given(parts)
def test_generated_wordings_with_unnumbered_headings_balance(outline) -> None:
    page: List[Tuple[str, Optional[Style]]] = []
    for s, (section, headings) in enumerate(outline):
        page += [(f"{section} cover part {s}", BIG), ("", None)]
        for heading in headings:
            page += [(heading, BOLD), (f"1. We pay for {section.lower()} damage.", BODY),
                     ("2. The first 250 is yours", BODY), ("", None)]
    report = assert_report_balanced(*(read_pages([list(COVER), page])))
    assert report["headings_unnumbered"] >= len(outline)  # (the layout was read)


@settings(max_examples=30)
@given(benefits)
def test_generated_schedules_of_benefits_balance(rows) -> None:
    table = ["Schedule of benefits", "Section Benefit Limit"] + [f"{n} {title} {amount}"
                                                                for n, (title, amount) in enumerate(rows, 1)]
    wording = [f"{n} {title}\nWe pay for {title.lower()} as this section sets out." for n, (title, _) in
               enumerate(rows, 1)]
    assert_balanced("\n".join(table + [""] + wording) + "\n")


def test_labels_alone_that_the_next_label_ends_are_chunks_of_their_lines() -> None:
    """A table's column of numbers (``1.`` ``2.`` ``3.``, each alone on its
    line, the items' names printed elsewhere): each label titles nothing, and
    its line was in no chunk; now each is a chunk of its own line."""
    lines = ["List II - Items subsumed into room charges", "Sl. No. Item", "BABY CHARGES", "HAND WASH", "",
             "1.", "2.", "", "3.", "List III - Items subsumed into procedure charges", "Sl. No. Item"]
    chunks = list(chunk_lines(lines, real_tokens=False))
    assert [(c.id, c.text) for c in chunks if c.text in ("1.", "2.", "3.")] == [
        ("List II.1", "1."), ("List II.2", "2."), ("List II.3", "3.")]
    assert_balanced("\n".join(lines) + "\n")


PREFIX_WORDS = ("Endorsement", "Condition", "Extension", "Clause")
TITLE_WORDS = ("Exclusion", "Cover", "Loss", "Theft", "Flood", "Glass")
TAIL_WORDS = ("of", "personal", "belongings", "injury", "benefits", "Personal", "Belongings", "Damage")


@st.composite
def worded_labels(draw) -> List[str]:
    """A wording's own prefix word before values that need not follow one
    another (endorsements print only those that apply: 9, 11, 12), each title
    on one line or wrapping onto a second, with a sentence under it. Every
    word but the prefix word and the value is made unique by the label's
    place (``Exclusion2``), so that a word's loss cannot hide behind a word
    alike elsewhere."""
    word = draw(st.sampled_from(PREFIX_WORDS))
    lines = ["Your insurance under this policy may be extended by the terms below."]
    for k in range(draw(st.integers(1, 5))):
        title = f"{word} {draw(st.integers(1, 30))} \u2013 {draw(st.sampled_from(TITLE_WORDS))}{k}"
        wraps = draw(st.sampled_from(["", "of", "for"]))  # (a title that leads on wraps onto the next line)
        lines.append(f"{title} {wraps}".rstrip())
        if wraps or draw(st.booleans()):
            lines.append(" ".join(f"{tail}{k}" for tail in draw(st.lists(st.sampled_from(TAIL_WORDS), min_size=1,
                                                                          max_size=3, unique=True))))
        lines.append(f"You are not covered under this part{k} of the policy.")
    return lines


@settings(max_examples=60)
@given(worded_labels())
def test_a_first_label_read_again_as_front_matter_keeps_its_lines_once(lines: List[str]) -> None:
    """Whatever the labels turn out to be -- headings, items, or a first guess
    that the next label shows was front matter -- every line's words are in a
    chunk's text once, or in the headings and clauses that cite it."""
    chunks = list(chunk_lines(lines, real_tokens=False))
    said = Counter(word for chunk in chunks for word in chunk.text.split())
    given_words = Counter(word for line in lines for word in line.split())
    assert not said - given_words, "a word said twice"
    cited = {word for chunk in chunks for word in f"{chunk.heading_path} {chunk.clause or ''}".split()}
    assert not {word for word in given_words - said if word not in cited and word != "\u2013"}

"""Properties of the policy profile over generated documents (hypothesis)."""

from __future__ import annotations

import string
from typing import List, NamedTuple, Tuple

from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunker, chunk_lines
from stream_chunker.drivers.stream import ByteReader

WORDS = ["cover", "claim", "water", "damage", "we", "pay", "the", "loss", "of", "your", "home", "after",
         "storm", "policy", "excess", "limit", "theft", "sudden", "escape", "fixed"]
TITLES = ["Cover", "Exclusions", "Escape of water", "Claims", "Theft", "General conditions", "Keys",
          "Your home", "Reporting"]


class Doc(NamedTuple):
    lines: List[str]
    headings: List[Tuple[int, str]]  # (line number, section number) of every heading
    body_words: int  # words in body lines, which must all come out in chunks
    kept: List[int]  # headings with no text, ended by a sibling: each is a chunk of its own line


def _tag(n: int) -> str:
    """A word no other line has, so no two lines look alike (masked digits and
    all) -- otherwise lines at page breaks would be page furniture."""
    letters = string.ascii_lowercase
    out = "q"
    while True:
        out += letters[n % 26]
        n //= 26
        if not n:
            return out


@st.composite
def documents(draw) -> Doc:
    lines: List[str] = []
    headings: List[Tuple[int, str]] = []
    body_words = 0
    kept: List[int] = []
    tag = 0
    number: Tuple[int, ...] = ()
    for _ in range(draw(st.integers(0, 8))):
        if not number:
            number = (1,)
        else:
            choices = [number + (1,)] + [number[:d - 1] + (number[d - 1] + 1,) for d in range(len(number), 0, -1)]
            number = draw(st.sampled_from([n for n in choices if len(n) <= 3]))
        text_number = ".".join(map(str, number))
        tag += 1  # titles differ too: the same line at the foot of one page and the top of
        # the next is what a running header looks like, headings included
        lines.append(f"{text_number} {draw(st.sampled_from(TITLES))} {_tag(tag).capitalize()}")
        if headings and headings[-1][0] == len(lines) - 1 and len(number) <= headings[-1][1].count(".") + 1:
            # the heading before had no text and this one does not descend from it:
            # its line is a chunk of its own, words and all
            kept.append(headings[-1][0])
            body_words += len(lines[-2].split())
        headings.append((len(lines), text_number))
        for p in range(draw(st.integers(0, 3))):
            if p or draw(st.booleans()):
                lines.append("")
            for i in range(draw(st.integers(1, 4))):
                words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=9))
                tag += 1
                if i == 0:
                    words[0] = words[0].capitalize()  # a lower-case start would make the heading a clause
                elif draw(st.integers(0, 4)) == 0:
                    words.insert(0, str(draw(st.integers(2, 99))))  # "14 days after ..." is body text
                words.append(_tag(tag))
                line = " ".join(words)
                glued = draw(st.integers(0, 9)) == 0
                alone = not glued and draw(st.integers(0, 9)) == 0
                if glued or alone:
                    body_words += _leads_on_over_the_page(lines)
                if glued:
                    line = "\f" + line  # a page break before this line
                elif alone:
                    lines.append("\f")
                lines.append(draw(st.sampled_from(["", " ", "  "])) + line)
                body_words += len(words)
    return Doc(lines, headings, body_words, kept)


def _leads_on_over_the_page(lines: List[str]) -> int:
    """The generated text has no sentence ends, so a page's last body line
    would end as a title's or a list item's does, and a short line atop the
    next page would be a title (``core.layout._page_ends_apart``): it ends
    on a word that leads on instead, as a sentence going on over the page
    does. The words added."""
    for at in range(len(lines) - 1, -1, -1):
        text = lines[at].strip("\f ")
        if text:
            if text[:1].isdigit():
                return 0  # (a numbered line, a heading's or not: the next page goes on with it)
            lines[at] += " of"
            return 1
    return 0


def _chunk(doc: Doc, cap: int):
    return list(chunk_lines(doc.lines, max_tokens=cap, real_tokens=False))


CAPS = st.integers(4, 80)


@given(documents(), CAPS, st.data())
def test_same_chunks_however_the_lines_are_grouped_into_feed_calls(doc, cap, data):
    expected = _chunk(doc, cap)
    chunker = Chunker(max_tokens=cap, real_tokens=False)
    got = []
    i = 0
    while i < len(doc.lines):
        n = data.draw(st.integers(1, 6))
        got += chunker.feed("".join(line + "\n" for line in doc.lines[i:i + n]))
        i += n
    got += chunker.close()
    assert got == expected


@given(documents(), CAPS, st.lists(st.integers(1, 200), min_size=1, max_size=50), st.sampled_from(["\n", "\r\n", "\r"]))
def test_same_chunks_however_the_bytes_are_cut_into_blocks(doc, cap, sizes, newline):
    expected = _chunk(doc, cap)
    data = newline.join(doc.lines).encode("utf-8")
    chunker = Chunker(max_tokens=cap, real_tokens=False)
    reader = ByteReader(chunker)
    got = []
    pos = 0
    k = 0
    while pos < len(data):
        size = sizes[k % len(sizes)]
        got += reader.feed(data[pos:pos + size])
        pos += size
        k += 1
    got += reader.close() + chunker.close()
    assert got == expected


@given(documents(), CAPS)
def test_no_chunk_holds_text_of_two_sections(doc, cap):
    starts = [line for line, _ in doc.headings] + [len(doc.lines) + 1]
    where = {number: (line, starts[i + 1]) for i, (line, number) in enumerate(doc.headings)}
    for chunk in _chunk(doc, cap):
        if chunk.clause is None:
            assert chunk.lines[1] < starts[0]
            continue
        begin, end = where[chunk.clause]
        if chunk.lines == (begin, begin):
            assert begin in doc.kept
            continue
        assert begin < chunk.lines[0] <= chunk.lines[1] < end


@given(documents(), CAPS)
def test_the_cap_holds_unless_one_paragraph_was_kept_whole(doc, cap):
    for chunk in _chunk(doc, cap):
        if chunk.tokens > cap:
            assert chunk.oversize == "kept" and "\n" not in chunk.text
        else:
            assert chunk.oversize is False


@given(documents(), CAPS)
def test_ids_are_unique(doc, cap):
    ids = [c.id for c in _chunk(doc, cap)]
    assert len(ids) == len(set(ids))


@given(documents(), CAPS)
def test_no_body_word_is_lost(doc, cap):
    chunks = _chunk(doc, cap)
    assert sum(c.words for c in chunks) == doc.body_words
    assert all(c.words == len(c.text.split()) for c in chunks)


@given(documents())
def test_every_heading_is_found(doc):
    chunker = Chunker(real_tokens=False)
    chunker.feed("\n".join(doc.lines))
    chunker.close()
    assert chunker.report["sections"] == len(doc.headings)


@given(documents(), CAPS)
def test_pages_and_lines_follow_the_text(doc, cap):
    page_of_line = []
    page = 1
    for line in doc.lines:
        page += line.count("\f")
        page_of_line.append(page)
    for chunk in _chunk(doc, cap):
        first, last = chunk.lines
        assert 1 <= first <= last <= len(doc.lines)
        assert chunk.pages == (page_of_line[first - 1], page_of_line[last - 1])

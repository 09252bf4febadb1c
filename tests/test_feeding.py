"""Text in pieces of any size, and lines as they come: the same chunks as the
whole text, and each chunk as soon as it is decided."""

from __future__ import annotations

import queue
import random
import threading
from typing import Iterator, List, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunker, chunk_lines

from .test_properties import documents
from .test_statute import sections


def _whole(text: str, **options) -> tuple:
    events: list = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append, **options)
    chunks = chunker.feed(text) + chunker.close()
    return [c.to_dict() for c in chunks], chunker.report, sorted(map(repr, events))


def _cut(text: str, cuts: List[int], **options) -> tuple:
    events: list = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append, **options)
    chunks = []
    pos = 0
    for size in cuts:
        chunks += chunker.feed(text[pos:pos + size])
        pos += size
    chunks += chunker.feed(text[pos:]) + chunker.close()
    return [c.to_dict() for c in chunks], chunker.report, sorted(map(repr, events))


CUTS = st.lists(st.integers(1, 400), max_size=60)
NEWLINES = st.sampled_from(["\n", "\r\n", "\r"])


@given(documents(), CUTS, NEWLINES)
def test_any_cut_of_a_policy_text_gives_the_chunks_of_the_whole(doc, cuts, newline):
    text = newline.join(doc.lines)
    assert _cut(text, cuts) == _whole(text)


@given(sections(), CUTS, NEWLINES)
def test_any_cut_of_a_statute_text_gives_the_chunks_of_the_whole(lines, cuts, newline):
    text = newline.join(lines)
    assert _cut(text, cuts, profile="statute", max_chars=120) == _whole(text, profile="statute", max_chars=120)


# Pages longer than the look-ahead, headers that recur, lines longer than the
# hard bound, form feeds inside them, NUL bytes: where a decision could depend
# on how much text has come.
PAGE_LINES = st.sampled_from([
    "Acme Home Policy", "Page 7", "1 Cover", "2 Claims", "We pay for sudden damage to the home.", "",
    "\f", "\fAcme Home Policy", "the rest of a sentence", "x" * 70, "word " * 30, "a\x00b", "  ",
    "w" * 25 + "\f7",
])


@given(st.lists(PAGE_LINES, max_size=300), CUTS, st.sampled_from([60, 100, 100_000]))
def test_any_cut_of_long_pages_and_long_lines_gives_the_chunks_of_the_whole(lines, cuts, bound):
    text = "\n".join(lines)
    assert _cut(text, cuts, max_paragraph_chars=bound) == _whole(text, max_paragraph_chars=bound)


@pytest.mark.parametrize("name, profile", [
    ("rfc2616.txt", "policy"), ("uslm-user-guide.txt", "policy"), ("uslm-user-guide.layout.txt", "policy"),
    ("insurance/sfip-dwelling-2021.txt", "policy"), ("insurance/sfip-general-property-2021.layout.txt", "policy"),
    ("usc-title27.txt", "statute"), ("dc-code-31-24.txt", "statute"),
])
def test_any_cut_of_a_corpus_text_gives_the_chunks_of_the_whole(corpus, name, profile):
    text = "\n".join(corpus(name))
    rng = random.Random(name)
    expected = _whole(text, profile=profile)
    for largest in (7, 300, 20_000):
        cuts = [rng.randint(1, largest) for _ in range(len(text) // max(largest // 2, 1) + 1)]
        assert _cut(text, cuts, profile=profile) == expected, largest
    assert [c.to_dict() for c in chunk_lines(iter(text.split("\n")), profile=profile, real_tokens=False)] == expected[0]


def test_a_text_file_on_disk_gives_the_chunks_of_its_lines(tmp_path, corpus):
    text = "\n".join(corpus("rfc2616.txt"))
    path = tmp_path / "rfc.txt"
    path.write_text(text, encoding="utf-8")
    with open(path, encoding="utf-8") as lines:
        from_file = [c.to_dict() for c in chunk_lines(lines, real_tokens=False)]
    assert from_file == _whole(text)[0]


def test_a_live_source_sees_each_chunk_before_it_sends_more():
    """The writer sends a section and the lines that decide it, then waits
    until the reader has that chunk before it sends the rest: a chunker that
    waited for a block of lines would keep it waiting (and the test fail)."""
    lines: "queue.Queue[Optional[str]]" = queue.Queue()
    first_chunk = threading.Event()
    served: List[bool] = []
    section = ["1 Cover", "We pay for sudden damage to the home."] + [f"Clause {n} of the cover." for n in range(300)]
    # The heading that ends section 1, and as many lines as a page's foot has:
    # then nothing about section 1 is left to decide.
    deciding = ["2 Claims", "Tell us at once.", "We call you back.", "Then we pay."]

    def writer() -> None:
        for line in section + deciding:
            lines.put(line)
        served.append(first_chunk.wait(timeout=30))
        for line in ["3 Ending", "The policy ends at the renewal date.", None]:
            lines.put(line)

    def source() -> Iterator[str]:
        while True:
            line = lines.get(timeout=60)
            if line is None:
                return
            yield line

    thread = threading.Thread(target=writer)
    thread.start()
    got = []
    for chunk in chunk_lines(source(), real_tokens=True):
        got.append(chunk.id)
        first_chunk.set()
    thread.join()
    assert served == [True]
    assert got == ["1", "2", "3"]

"""Bounded state, measured with tracemalloc (deterministic, unlike wall-clock time)."""

from __future__ import annotations

import itertools
import tracemalloc
from typing import Callable, Iterable, Iterator

from stream_chunker import Chunker, chunk_lines
from stream_chunker.core.packing import UniqueIds
from stream_chunker.core.stages.furniture import MAX_LOOKAHEAD
from stream_chunker.core.stages.zones import PageZones
from stream_chunker.drivers.stream import ByteReader

from .test_counting import run as drive, with_counter

MiB = 1 << 20


def _peak(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _drain(chunks: Iterable) -> int:
    n = 0
    for _ in chunks:
        n += 1
    return n


def test_memory_does_not_grow_with_the_document(corpus):
    lines = corpus("rfc2616.txt")

    def copies(n: int) -> Iterator[str]:
        return itertools.chain.from_iterable(itertools.repeat(lines, n))

    _drain(chunk_lines(copies(1), real_tokens=False))  # warm caches (regexes, encodings)
    one = _peak(lambda: _drain(chunk_lines(copies(1), real_tokens=False)))
    four = _peak(lambda: _drain(chunk_lines(copies(4), real_tokens=False)))  # 1.7 MB of text
    assert four - one < 1 * MiB, (one, four)


def test_a_paragraph_with_no_end_is_cut_at_the_bound():
    bound = 50_000

    def endless() -> Iterator[str]:
        yield "1 Cover"
        for i in range(24_000):  # ~1.2 MB with no blank line: 24 times the bound
            yield f"the insured must report every loss without delay {i % 97}"

    out = []

    def run() -> None:
        for chunk in chunk_lines(endless(), real_tokens=False, max_paragraph_chars=bound):
            out.append((chunk.oversize, len(chunk.text)))

    peak = _peak(run)
    assert peak < 3 * MiB, peak
    assert len(out) > 20
    assert all(flag == "cut" for flag, _ in out)
    assert max(size for _, size in out) <= bound + 100


def test_a_line_with_no_end_is_read_in_pieces():
    bound = 50_000
    events = []
    chunker = Chunker(real_tokens=False, max_paragraph_chars=bound, on_diagnostic=events.append)
    reader = ByteReader(chunker)
    block = b"word " * 13_000  # 65 kB of one line, fed 150 times: ~10 MB without a newline
    sizes = []

    def run() -> None:
        reader.feed(b"1 Cover\n")
        for _ in range(150):
            sizes.extend(len(c.text) for c in reader.feed(block))
        sizes.extend(len(c.text) for c in reader.close() + chunker.close())

    peak = _peak(run)
    assert peak < 4 * MiB, peak
    assert sum(sizes) >= len(block) * 150 * 0.99
    assert max(sizes) <= bound + 100
    assert any(e["kind"] == "long_line" for e in events)
    assert any(e["kind"] == "paragraph_cut" for e in events)


def test_memory_does_not_grow_with_real_counts_and_the_count_worker(corpus):
    """Chunks waiting for the worker's counts are bounded too: the RFC eight
    times over (3.4 MB) peaks within 1 MiB of once, worker and all."""
    lines = corpus("rfc2616.txt")

    def copies(n: int) -> Iterator[str]:
        return itertools.chain.from_iterable(itertools.repeat(lines, n))

    used = []

    def run(n: int) -> None:
        chunker, _ = with_counter()
        _drain(drive(chunker, copies(n)))
        used.append(chunker.report["tokens"]["count_worker"])

    run(1)  # warm caches
    one = _peak(lambda: run(1))
    eight = _peak(lambda: run(8))
    assert used == [True, True, True]
    assert eight - one < 1 * MiB, (one, eight)


def test_a_line_of_invalid_bytes_with_no_end_is_read_in_pieces_too():
    # UTF-8 continuation bytes with no lead byte: no character to keep whole,
    # so they must not be held back waiting for one.
    bound = 1000
    chunker = Chunker(real_tokens=False, max_paragraph_chars=bound)
    reader = ByteReader(chunker)
    held = []
    reader.feed(b"1 Cover\n" * 600)  # text first: input that starts with bytes that are not text is refused
    for _ in range(40):
        reader.feed(b"\xa0" * 5000)
        held.append(len(reader._carry))
    reader.close()
    chunker.close()
    assert max(held) <= 1 << 15
    assert reader.replaced == 200_000


def test_invalid_bytes_are_decoded_in_one_pass(monkeypatch):
    # Each invalid byte is reported with its line, but the line ends before it
    # are counted once, not again from the start of the block for every byte.
    from stream_chunker.drivers import stream as _input

    scanned = []
    counting = _input._lines_in
    monkeypatch.setattr(_input, "_lines_in", lambda data: scanned.append(len(data)) or counting(data))
    events = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append)
    data = b"caf\xe9 cr\xe8me\n" * 2000
    reader = ByteReader(chunker)
    reader.feed(data)
    reader.close()
    chunker.close()
    lines = [e["line"] for e in events if e["kind"] == "replaced_byte"]
    assert lines == [n for n in range(1, 2001) for _ in range(2)]
    assert sum(scanned) <= 2 * len(data)


# -- a line too long to hold, however its bytes arrive ----------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _through_reader(data: bytes, block: int, bound: int):
    events: list = []
    chunker = Chunker(real_tokens=False, max_paragraph_chars=bound, on_diagnostic=events.append)
    reader = ByteReader(chunker)
    chunks = []
    for start in range(0, len(data), block):
        chunks += reader.feed(data[start:start + block])
    chunks += reader.close() + chunker.close()
    report = chunker.report
    return [c.to_dict() for c in chunks], sorted(events, key=lambda e: (e["line"], e["kind"])), report


@settings(deadline=None, max_examples=40)
@given(st.lists(st.sampled_from(["1 Cover", "We pay.", "", "word", "caf\u00e9", "\u00a7", "cr\u00e8me br\u00fbl\u00e9e"]),
                min_size=1, max_size=6),
       st.integers(150, 400), st.sampled_from([1, 3, 7, 64]))
def test_a_long_line_comes_out_the_same_in_any_blocks(words, repeat, block):
    # Lines over four times the bound are handed on in pieces as they arrive;
    # the pieces must not show: no word cut in two, the same chunks as whole.
    long_line = " ".join(words * repeat)
    data = f"1 Cover\nWe pay for sudden damage.\n{long_line}\nThe end.\n".encode()
    got = _through_reader(data, block, bound=200)
    assert got == _through_reader(data, 1 << 15, bound=200)
    text = " ".join(chunk["text"] for chunk in got[0])
    assert text.split() == "We pay for sudden damage.".split() + long_line.split() + ["The", "end."]


def test_a_form_feed_in_an_endless_line_turns_the_page():
    data = b"y " * 450 + b"\x0cPage 2 of 9\nmore text\n"
    for block in (64, 1 << 15):
        chunks, events, report = _through_reader(data, block, bound=200)
        assert report["pages"] == 2 and report["furniture_lines"] == 1, block
        assert [e["text"] for e in events if e["kind"] == "furniture"] == ["Page 2 of 9"]
        assert chunks[-1]["pages"] == [1, 2] and chunks[-1]["text"].endswith("y more text")
        assert sum(chunk["text"].split().count("y") for chunk in chunks) == 450


def test_a_page_number_after_a_form_feed_in_an_endless_line_is_furniture_in_any_blocks():
    data = b"Start\n" + b"word " * 10 + b"\x0c7\n"
    for block in (1, 5, 1 << 15):
        chunks, events, report = _through_reader(data, block, bound=10)
        assert [e["text"] for e in events if e["kind"] == "furniture"] == ["7"], block
        assert report["pages"] == 2 and all("7" not in c["text"] for c in chunks)


def test_a_paragraph_exactly_as_long_as_the_bound_is_not_cut():
    for text in ("abcdefghij", "ab cdefghi"):
        chunker = Chunker(real_tokens=False, max_paragraph_chars=10)
        chunks = chunker.feed(text + "\n") + chunker.close()
        assert [(c.text, c.oversize) for c in chunks] == [(text, False)]


# -- every structure bounded, whatever the text (docs/how-it-reads.md: Memory) --------

def test_runs_of_blank_lines_are_never_held_whole(monkeypatch):
    held = []
    feed = PageZones.feed

    def watched(self: PageZones, block: str) -> None:
        feed(self, block)
        held.append(sum(map(len, self._held)))

    monkeypatch.setattr(PageZones, "feed", watched)
    for blank in ("", " \t "):
        # (100,000 blank lines are three times the look-ahead's 32 KiB, and 500 times its 200 lines.)
        lines = ["1 Cover", "We pay for the house."] + [blank] * 100_000 + ["Tell us."]
        held.clear()
        chunks: list = []
        peak = _peak(lambda: chunks.extend(chunk_lines(lines, real_tokens=False)))
        assert [c.text for c in chunks] == ["We pay for the house.\nTell us."]
        assert chunks[0].lines == (2, 100_003)
        assert max(held) <= MAX_LOOKAHEAD, max(held)
        assert peak < 1 * MiB, peak
        # Line by line, as from a live source, the same.
        held.clear()
        assert [c.text for c in chunk_lines(iter(lines[:50_000] + lines[-1:]), real_tokens=False)] == \
            ["We pay for the house.\nTell us."]
        assert max(held) <= MAX_LOOKAHEAD, max(held)


def test_a_statute_section_of_40000_labels_in_bounded_memory():
    def section(labels: int) -> Iterator[str]:
        yield "\u00a7 5-101. Parking rules."
        yield "(a) The owner shall not park:"
        for n in range(1, labels + 1):
            yield f"({n}) within {n % 90 + 10} feet of a hydrant or a crossing;"

    small_text, large_text = list(section(10_000)), list(section(40_000))  # made before memory is traced
    small = _peak(lambda: _drain(chunk_lines(small_text, profile="statute", real_tokens=False)))
    large = _peak(lambda: _drain(chunk_lines(large_text, profile="statute", real_tokens=False)))
    assert large - small < 256 * 1024, (small, large)
    ids = [c.id for c in chunk_lines(section(2_000), profile="statute", real_tokens=False)]
    assert len(ids) == len(set(ids)) and ids[-1] == "5-101-a-2000"


def _distinct_sections(copies: int) -> Iterator[str]:
    """Sections whose numbers never repeat: 1, 1.1 ... 1.500, 2, 2.1 ..."""
    for part in range(1, copies + 1):
        yield f"{part} Part {part}"
        for n in range(1, 501):
            yield f"{part}.{n} Clause {n}"
            yield f"The insurer pays for clause {n} of part {part}."


def test_distinct_section_numbers_80_times_over_in_bounded_memory():
    texts = {n: list(_distinct_sections(n)) for n in (1, 40, 80)}  # made before memory is traced
    peaks = {n: _peak(lambda n=n: _drain(chunk_lines(texts[n], real_tokens=False))) for n in texts}
    assert peaks[80] - peaks[40] < 128 * 1024, peaks  # the id memory is full by 33 copies: no growth after
    assert peaks[80] - peaks[1] < 3 * MiB, peaks  # what remembering UniqueIds.MAX_IDS numbers costs
    ids = [c.id for c in chunk_lines(_distinct_sections(40), real_tokens=False)]
    assert len(ids) == len(set(ids)) == 40 * 500


def test_the_id_memory_keeps_at_least_half_its_bound():
    ids = UniqueIds()
    ids.unique("4.2")
    for n in range(UniqueIds.MAX_IDS // 2 - 1):
        ids.unique(f"{n}.1")
    assert ids.unique("4.2") == "4.2~2"  # still remembered
    for n in range(UniqueIds.MAX_IDS):
        ids.unique(f"9.{n}")
    assert ids.unique("4.2") == "4.2"  # forgotten: the bound holds
    assert len(ids._newer) + len(ids._older) <= UniqueIds.MAX_IDS

"""Page furniture: what goes, what stays, and pages across breaks."""

from __future__ import annotations

from typing import List

import pytest

from stream_chunker import Chunker, ConfigError, EncodingUnavailable, chunk_lines
from stream_chunker.core.stages.furniture import furniture, page_number_ends
from stream_chunker.core.stages.zones import zone_line


def _pages(bodies: List[str], header: str = "", footer: str = "") -> str:
    pages = []
    for n, body in enumerate(bodies, 1):
        parts = []
        if header:
            parts += [header.format(n=n), ""]
        parts.append(body)
        if footer:
            parts += ["", footer.format(n=n, of=len(bodies))]
        pages.append("\n".join(parts))
    return "\f".join(pages) + "\f"


def _run(text: str, **options):
    events = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append, **options)
    chunks = chunker.feed(text) + chunker.close()
    dropped = [e["text"] for e in events if e["kind"] == "furniture"]
    return chunks, dropped, chunker.report


BODIES = [f"{n} Part {chr(64 + n)}\nThe insured must report losses of kind {chr(64 + n)} within thirty days.\n"
          f"Claims of kind {chr(64 + n)} are paid once the loss adjuster has seen the damage." for n in range(1, 7)]


def test_running_header_and_page_footer_go_even_on_their_first_page():
    chunks, dropped, report = _run(_pages(BODIES, header="Acme Mutual Policy Wording 2026",
                                          footer="Page {n} of {of}"))
    assert dropped.count("Acme Mutual Policy Wording 2026") == 6
    assert sum(d.startswith("Page ") for d in dropped) == 6
    assert [c.clause for c in chunks] == ["1", "2", "3", "4", "5", "6"]
    assert not any("Acme" in c.text or "Page" in c.text for c in chunks)
    assert report["pages"] == 6 and report["furniture_lines"] == 12


def test_headers_that_alternate_between_left_and_right_pages():
    pages = [f"{'Home Insurance' if n % 2 else 'Policy Wording'}\n\n{body}" for n, body in enumerate(BODIES, 1)]
    chunks, dropped, _ = _run("\f".join(pages))
    # Each header's first page sees it at one other edge of the two pages looked
    # ahead, too little to delete a line for: it stays as text, the later ones go.
    kept = " ".join(c.text for c in chunks)
    assert kept.count("Home Insurance") == 1 and kept.count("Policy Wording") == 1
    assert dropped.count("Home Insurance") == 2 and dropped.count("Policy Wording") == 2


def test_two_copies_of_a_text_lose_no_line():
    text = _pages(BODIES[:2], header="Acme Mutual Policy Wording 2026")
    chunks, dropped, _ = _run(text + text)
    kept = " ".join(c.heading_path + " " + c.text for c in chunks)
    assert all(kept.count(line) == 2 for body in BODIES[:2] for line in body.split("\n")[1:])
    assert dropped == ["Acme Mutual Policy Wording 2026"] * 4


def test_short_pages_that_open_with_one_heading_keep_it():
    pages = ["1 Definitions\nWords in bold have the meaning given here.", "The schedule follows.",
             "1 Definitions\nThe same words, for the second policy in the set."]
    chunks, dropped, _ = _run("\f".join(pages))
    assert dropped == []
    assert sum((c.heading_path + " " + c.text).count("Definitions") for c in chunks) == 2


def test_page_numbers_in_a_running_header_move_with_the_pages():
    pages = [f"{10 + n} Home Insurance\n\n{body}" for n, body in enumerate(BODIES, 1)]
    chunks, dropped, _ = _run("\f".join(pages))
    assert dropped == [f"{10 + n} Home Insurance" for n in range(1, 7)]
    assert [c.clause for c in chunks] == ["1", "2", "3", "4", "5", "6"]


def test_a_running_head_of_the_page_number_and_the_page_topic_goes():
    """A book's running head: the page number glued to each page's own topic
    (``14The buildings we insure``), a form of its own on every page; a divider
    page that prints its number alone (``13``) gives the numbering."""
    topics = ["The buildings we insure", "The buildings we insure", "Contents", "Claims", "Your premium"]
    pages = [f"{BODIES[0]}\n13"] + [f"{13 + n}{topic}\n\n{body}"
                                    for n, (topic, body) in enumerate(zip(topics, BODIES[1:]), 1)]
    chunks, dropped, _ = _run("\f".join(pages))
    assert dropped == ["13"] + [f"{13 + n}{topic}" for n, topic in enumerate(topics, 1)]
    assert [c.clause for c in chunks] == ["1", "2", "3", "4", "5", "6"]


def test_a_heading_atop_a_page_that_prints_its_number_stays_whatever_its_number():
    # Sections 3, 4, 5 open pages 3, 4, 5, each page numbered at its foot.
    pages = [f"{n} {topic}\nWe cover {topic.lower()} to the home.\n\nPage {n}"
             for n, topic in zip((3, 4, 5), ("Storm damage", "Flood damage", "Theft"))]
    chunks, dropped, _ = _run("\n".join(["1 Cover", "We cover the home.", "2 Claims", "Tell us at once.", ""]) + "\n\nPage 2\f"
                              + "\f".join(pages))
    assert dropped == ["Page 2", "Page 3", "Page 4", "Page 5"]
    assert [c.clause for c in chunks] == ["1", "2", "3", "4", "5"]


def test_a_bare_list_number_judged_furniture_vouches_for_no_running_head():
    """Only a running head with words vouches for the next one: a bare ``2.``
    gone as furniture atop page 7 says nothing about ``5. Flood`` atop page 10,
    though its number moved on by as many as the pages."""
    bare = zone_line(700, 700, 70, 702, 7, "2.")
    worded = zone_line(700, 700, 70, 720, 7, "2. Storm cover")
    flood = zone_line(1000, 1000, 100, 1020, 10, "5. Flood")
    assert furniture([flood], [{key: [bare] for key in page_number_ends(bare.form)}], known={700}) == []
    assert furniture([flood], [{key: [worded] for key in page_number_ends(worded.form)}], known={700}) == [1000]


def test_headings_of_one_title_on_facing_pages_are_not_furniture():
    # Sections 1, 2, 3 on pages 1, 3, 5: their numbers do not move with the pages.
    pages = []
    for n in (1, 2, 3):
        pages += [f"Acme Home Policy\n{n} Storm cover\nWe cover storm damage to the home, part {n}.",
                  f"Acme Home Policy\nMore about storm damage, part {n}, and what we pay."]
    chunks, dropped, _ = _run("\f".join(pages))
    assert dropped == ["Acme Home Policy"] * 6
    assert [c.clause for c in chunks] == ["1", "2", "3"]


def test_a_heading_carried_over_to_the_next_page_goes_whatever_its_words():
    # A booklet names the section on every page it spans, each time another
    # section: no form recurs, the word ``continued`` says what the line is.
    pages = ["Section 1: Liability\nWe cover injury to other people.",
             "Section 1: Liability continued\nWe cover damage to their property.",
             "Section 2: Fire and theft\nWe cover your car if it is stolen.",
             "Section 2: Fire and theft (cont'd)\nWe cover fire damage too.\nContinued overleaf",
             "We pay the market value."]
    chunks, dropped, _ = _run("\f".join(pages))
    assert dropped == ["Section 1: Liability continued", "Section 2: Fire and theft (cont'd)", "Continued overleaf"]
    assert [c.heading_path for c in chunks] == ["Liability", "Fire and theft"]
    assert not any("continued" in c.text or "cont'd" in c.text for c in chunks)


def test_a_sentence_that_ends_on_continued_at_a_page_edge_stays():
    pages = ["1 Cover\nThe cover we gave before the sale continued.", "2 Claims\nTell us at once."]
    chunks, dropped, _ = _run("\f".join(pages))
    assert dropped == [] and "continued." in chunks[0].text


def test_a_page_that_ends_on_the_heading_it_opened_with_loses_the_second():
    # The section's tab, printed again at the page foot, past its page number.
    pages = ["Courtesy car\nWe lend you a car while yours is repaired.\nCourtesy car\nPage 1",
             "Windscreen damage\nWe repair or replace the glass.\nPage 2"]
    chunks, dropped, _ = _run("\f".join(pages))
    assert dropped == ["Courtesy car", "Page 1", "Page 2"]
    kept = " ".join(c.heading_path + " " + c.text for c in chunks)
    assert kept.count("Courtesy car") == 1 and "We lend you a car" in kept


def test_a_heading_that_ends_a_page_stays_unless_the_page_opened_with_it():
    pages = ["Exclusions\nWe do not cover wear and tear.\nClaims", "Tell us at once.\nClaims\nWe pay in 30 days."]
    chunks, dropped, _ = _run("\f".join(pages))
    assert dropped == []
    assert sum((c.heading_path + " " + c.text).count("Claims") for c in chunks) == 2


def test_a_paragraph_runs_on_across_a_page_break():
    text = ("1 Cover\nWe cover the home against storm and flood, and against\n\n\n"
            "Acme Policy   Page 1\n\fAcme Policy   Page 2\n\nescape of water from fixed pipes.\n"
            "\f\nAcme Policy   Page 3\n")
    chunks, dropped, _ = _run(text)
    assert [c.text for c in chunks] == [
        "We cover the home against storm and flood, and against escape of water from fixed pipes."]
    assert chunks[0].pages == (1, 2)
    assert len(dropped) == 3


def test_a_paragraph_that_ended_before_the_break_stays_ended():
    text = "1 Cover\nWe cover the home.\n\fThe excess is 250.\n"
    (chunk,) = _run(text)[0]
    assert chunk.text == "We cover the home.\nThe excess is 250."


def test_without_form_feeds_only_page_number_patterns_are_furniture():
    lines = ["1 Cover", "We cover the home.", "- 2 -", "Page 3 of 9", "[Page 4]", "12 days after the loss",
             "The excess is 250."]
    chunks, dropped, _ = _run("\n".join(lines))
    assert dropped == ["- 2 -", "Page 3 of 9", "[Page 4]"]
    assert chunks[0].text == "We cover the home. 12 days after the loss The excess is 250."


def test_body_lines_near_breaks_that_do_not_recur_are_kept():
    chunks, dropped, _ = _run(_pages(BODIES))
    assert dropped == []
    assert sum(c.words for c in chunks) == sum(len(b.split()) - 3 for b in BODIES)


def test_the_lookahead_is_bounded_for_text_without_pages():
    line = "We cover the home against storm, flood and fire damage. " * 2
    chunker = Chunker(real_tokens=False, max_tokens=50)
    out = chunker.feed("1 Cover\n")
    fed = 0
    while not out:
        out = chunker.feed(line + "\n\n")
        fed += len(line) + 2
    assert fed <= 40 * 1024
    # and no more than two hundred lines or so
    chunker = Chunker(real_tokens=False, max_tokens=20)
    out = chunker.feed("1 Cover\n")
    lines = 0
    while not out:
        out = chunker.feed("Short line of cover.\n\n")
        lines += 2
    assert lines <= 210


def test_bad_cite_template_and_encoding_names_fail_early():
    with pytest.raises(ConfigError, match="cite template"):
        Chunker(profile="statute", cite="Code \u00a7 {sect}", real_tokens=False)
    with pytest.raises(EncodingUnavailable, match="unknown encoding 'nosuch'"):
        Chunker(encoding="nosuch")
    assert list(chunk_lines([], real_tokens=False)) == []


# -- a property over generated paginated documents ----------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from .test_properties import _tag  # noqa: E402


@st.composite
def paginated(draw):
    header = draw(st.sampled_from(["Acme Mutual Policy Wording 2026", "RFC 9999  Example  June 2026", ""]))
    footer = draw(st.sampled_from(["Page {n} of {of}", "Fielding, et al.  Standards Track  [Page {n}]",
                                   "{n}", ""]))
    pages = draw(st.integers(2, 8))
    body_lines = []
    out = []
    tag = 0
    for n in range(1, pages + 1):
        lines = [header] if header else []
        for _ in range(draw(st.integers(1, 7))):
            tag += 1
            line = f"The insured shall report {_tag(tag)} without delay"
            body_lines.append(line)
            lines.append(line)
            if draw(st.booleans()):
                lines.append("")
        if footer:
            lines.append(footer.format(n=n, of=pages))
        out.append("\n".join(lines))
    joiner = draw(st.sampled_from(["\n\f", "\f", "\n\n\f"]))
    return joiner.join(out), header, footer, pages, body_lines


@given(paginated(), st.data())
def test_headers_and_footers_go_and_body_lines_stay(doc, data):
    text, header, footer, pages, body = doc
    events = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append, max_tokens=30)
    got = []
    rest = text + "\n"
    while rest:  # fed in random pieces of whole lines
        cut = rest.find("\n", data.draw(st.integers(0, len(rest)))) + 1 or len(rest)
        got += chunker.feed(rest[:cut])
        rest = rest[cut:]
    got += chunker.close()
    dropped = [e["text"] for e in events if e["kind"] == "furniture"]
    # A header is furniture once it is seen at three page edges: a two-page text keeps it.
    headers = pages if header and pages >= 3 else 0
    assert dropped.count(header) == headers
    assert len(dropped) == headers + (pages if footer else 0)
    kept = " ".join(c.text for c in got)
    assert all(line in kept for line in body)
    assert got == list(chunk_lines(text.split("\n"), real_tokens=False, max_tokens=30))


# Lines that repeat, as running headers, page numbers and headings do, with page
# breaks and blank lines among them: furniture is judged on what recurs, so the
# judgement must not depend on how much text has arrived when a zone is judged.
POLICY_LINES = ["", " ", "\f", "Acme Mutual Policy Wording", "Page 3 of 9", "- 4 -", "12", "1 Cover",
                "1.1 Buildings", "2 Claims", "We pay for sudden damage.", "14 days after the leak",
                "the loss is yours", "Contents", "1 Cover .......... 3"]
STATUTE_LINES = ["", "\f", "\u00a7 1-101. Scope.", "\u00a7 1-102. Terms.", "\u00a7 1-102.", "(a) First.",
                 "(b) The second part and", "(1) an item;", "more text.", "Notes", "History: 1982.",
                 "(Aug. 29, 1935, ch. 814.)", "Section 5. Lights.", "Article \u2013 Transportation"]


def _fed(lines: List[str], pieces: List[int], profile: str):
    events: List[dict] = []
    chunker = Chunker(real_tokens=False, profile=profile, on_diagnostic=events.append)
    got = []
    start = 0
    for size in pieces + [len(lines)]:
        if start < len(lines) and size:
            got += chunker.feed("".join(line + "\n" for line in lines[start:start + size]))
            start += size
    got += chunker.close()
    return [c.to_dict() for c in got], events, chunker.report


@given(st.sampled_from(["policy", "statute"]), st.data())
def test_the_same_furniture_and_chunks_however_the_text_is_fed(profile, data):
    pool = POLICY_LINES if profile == "policy" else STATUTE_LINES
    lines = data.draw(st.lists(st.sampled_from(pool), max_size=40))
    whole = _fed(lines, [len(lines)], profile)
    assert _fed(lines, [1] * len(lines), profile) == whole
    assert _fed(lines, data.draw(st.lists(st.integers(1, 6), max_size=20)), profile) == whole


def test_only_roman_numerals_read_as_page_numbers_at_a_page_edge():
    pages = ["We pay.\ncivil\n\nxii", "We pay more.\nill\n\nxiii", "Nothing else.\n\nxiv"]
    events = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append)
    chunks = chunker.feed("\f".join(pages) + "\f") + chunker.close()
    words = " ".join(c.text for c in chunks).split()
    assert "civil" in words and "ill" in words
    assert [e["text"] for e in events if e["kind"] == "furniture"] == ["xii", "xiii", "xiv"]


def test_a_line_that_prints_a_hash_at_a_page_edge_is_read_like_any_other() -> None:
    # A form writes a whole number as "#": a "#" printed at a page's top
    # (a schedule's "# Premises") once read as a number with no value, and
    # the judgement of a page with no page number of its own failed on it.
    pages = []
    for n in range(1, 9):
        body = f"Clause {n} covers item {n * 7} as set out here.\nAnother sentence of page {n * 3} ends.\n"
        if n % 2:
            pages.append(f"Top of page {n * 13}\n{body}Page {n}\n")
        else:
            pages.append(f"# Premises schedule {'x' * n}\n{body}End {n * 17} of it.\n")
    text = "\f".join(pages)
    chunks = list(chunk_lines(text, real_tokens=False))
    assert any("# Premises schedule xx" in c.text for c in chunks)


# -- header blocks longer than a zone (core.stages.header_blocks) --------------------

BLOCK = ["Bajaj Allianz General Insurance Co. Ltd.", "Bajaj Allianz House, Airport Road, Pune.",
         "For more details, log on to our site.", "Call at: Sales or Service.", "Issuing Office: Pune.",
         "Global Health Care policy wording."]


@st.composite
def blocked(draw):
    """Pages that each open with the same block of ``size`` lines (more than a
    zone's), then numbered clauses of the page's own words."""
    size = draw(st.integers(4, len(BLOCK)))
    pages = draw(st.integers(3, 7))
    out, clauses, tag = [], [], 0
    for n in range(1, pages + 1):
        lines = list(BLOCK[:size])
        for _ in range(draw(st.integers(1, 3))):
            tag += 1
            clauses.append(tag)
            lines += [f"{tag}. Cover for {_tag(tag)}", f"We pay for loss by {_tag(tag)} as set out here."]
        lines.append(f"UIN- ABC123 Policy Wordings/Page {n}")
        out.append("\n".join(lines))
    return "We cover you as this wording says.\n" + "\f".join(out) + "\n", size, pages, clauses


@given(blocked(), st.data())
def test_a_header_block_goes_whole_once_pages_show_it(doc, data):
    text, size, pages, clauses = doc
    chunker = Chunker(real_tokens=False)
    got = []
    rest = text
    while rest:  # fed in random pieces of whole lines
        cut = rest.find("\n", data.draw(st.integers(0, len(rest)))) + 1 or len(rest)
        got += chunker.feed(rest[:cut])
        rest = rest[cut:]
    got += chunker.close()
    assert [(c.id, c.text) for c in got] == [(c.id, c.text) for c in chunk_lines(text, real_tokens=False)]
    # From the third page on (two pages show the block first), no line of it
    # is in a chunk; the clauses are cited as printed, each once.
    third = text.split("\f")[2].split("\n")[size]
    later = [c for c in got if c.lines[0] >= text[:text.index(third)].count("\n") + 1]
    assert not any(line in c.text for c in later for line in BLOCK[:size])
    cited = [c.clause for c in later]
    assert cited == sorted(set(cited), key=cited.index)
    report = chunker.report  # (no word lost: every one is in a chunk or counted, the block's as furniture)
    assert report["words_in"] == len(text.split()) and report["words_unaccounted"] == 0
    assert report["words_out"] == sum(len(c.text.split()) for c in got) and report["words_elsewhere"]["furniture"] > 0


def test_header_blocks_that_alternate_between_left_and_right_pages_go() -> None:
    """Chubb's PDS, as ``pdftotext -raw`` prints it: a left page opens with the
    running header, its number and then the footer's lines; a right page with
    the footer alone. Each page's block is like the one two pages before, not
    the one before it: once two of each are seen its lines go, and the title
    after them is read (after the footer's last line, which ends on a code,
    not a sentence, it was text)."""
    footer = ["Acme Travel Insurance Policy Wording. Published 05/2019", "Acme Insurance Australia Limited.",
              "are protected", "trademarks of Acme. Acme14-23-0519"]
    words = "storm flood fire theft impact subsidence frost lightning riot escape".split()
    pages = []
    for n, word in enumerate(words, 1):
        top = ["Acme Travel Insurance", "Policy Wording and PDS", str(n), *footer] if n % 2 == 0 else footer
        pages.append("\n".join([*top, f"Cover for {word}", f"We pay for damage by {word} to the home.",
                                f"Claims for {word} are settled in cash.", f"We do not pay the first part of a {word} claim."]))
    chunks = list(chunk_lines("Read this policy.\n" + "\f".join(pages) + "\n", real_tokens=False))
    last = [c for c in chunks if c.heading_path in ("Cover for lightning", "Cover for riot", "Cover for escape")]
    assert len(last) == 3, [(c.id, c.text[:40]) for c in chunks]
    assert not any("trademarks" in c.text or "are protected" in c.text for c in last)
    assert all(f"damage by {word} " in " ".join(c.text for c in chunks) for word in words)


def test_headings_that_alternate_below_one_running_header_stay() -> None:
    """Pages with one running header, their sections' pages opening in turn
    with ``What is covered`` and ``What is not covered`` right below it: the
    headings are the pages' own, like the one two pages before (a review
    found them deleted when a block was compared with any two of the last
    four; it is compared only with pages whose header reads the same as its
    own, and with the last two of them)."""
    sections = ["Buildings", "Contents", "Garden", "Liability", "Legal expenses", "Travel"]
    perils = "storm flood fire theft impact subsidence frost lightning riot escape smoke vandalism".split()
    pages = []
    for i, section in enumerate(sections):
        p, q = perils[2 * i], perils[2 * i + 1]
        top = ["Acme Home Insurance", "Policy Wording 2024"]
        pages.append("\n".join([*top, f"Page {2 * i + 1}", "What is covered", f"Section {i + 1} – {section}",
                                f"We pay for damage by {p}.", f"We pay for damage by {q}.",
                                f"The most we pay for {p} is in your schedule.", f"Claims for {p} are settled by repair."]))
        pages.append("\n".join([*top, f"Page {2 * i + 2}", "What is not covered",
                                f"We do not pay for {p} damage to empty homes.", f"We do not pay for {q} caused by wear.",
                                f"We do not pay the first part of a {p} claim.", f"We do not pay for gradual {q} damage."]))
    chunks = list(chunk_lines("Read this policy carefully.\n" + "\f".join(pages) + "\n", real_tokens=False))
    excluded = [c for c in chunks if c.heading_path.endswith("What is not covered")]
    assert len(excluded) == len(sections), [(c.id, c.heading_path) for c in chunks]
    assert all(c.text.startswith("We do not pay") for c in excluded)


def test_a_block_ends_at_the_first_line_that_differs_from_the_pages_before() -> None:
    own = ["storm", "flood", "fire", "theft", "impact"]
    pages = [f"{BLOCK[0]}\n{BLOCK[1]}\n{BLOCK[2]}\n{BLOCK[3]}\nwe pay for {word} as follows:\n{n}. Cover\nWe pay.\nEnd."
             for n, word in enumerate(own, 1)]
    chunks = list(chunk_lines("\f".join(pages) + "\n", real_tokens=False))
    text = " ".join(c.text for c in chunks)
    assert "Call at" not in text.split("we pay for fire")[1]  # (from the third page on, the block goes)
    assert all(f"we pay for {word} as follows:" in text for word in own)  # (each page's own line stays)


def test_a_page_s_number_before_its_form_feed_is_no_title_s_evidence() -> None:
    """``… without delay`` ⏎ ``Page 6 of 8\\fAcme …`` ⏎ ``The insured …``: the
    page's number ends the page, as no table's row does; the line atop the next
    page goes on the text (CI found it: a generated page of one line)."""
    pages = [["qb"], ["qc"], ["qd"], ["qe"], ["qf"], ["qg"], ["qh", "qi", "qj", "qk"], ["ql", "qm", "qn"]]
    text = "\f".join("\n".join(["Acme Mutual Policy Wording 2026",
                                *(f"The insured shall report {tag} without delay" for tag in page),
                                f"Page {n} of {len(pages)}"]) for n, page in enumerate(pages, 1))
    chunks = list(chunk_lines(text.split("\n"), real_tokens=False, max_tokens=30))
    assert all(c.heading_path == "" for c in chunks)
    kept = " ".join(c.text for c in chunks)
    assert all(f"report {tag} without" in kept for page in pages for tag in page)


def test_a_running_header_after_a_form_feed_does_not_hide_the_page_s_last_line() -> None:
    """``… the cost of the\\fAcme Insurance Ltd``: the header after the form
    feed is furniture, but the line before it, which ends mid-sentence, is the
    line before the next page's first: ``Repairs Team`` goes on the sentence."""
    body = ["Your policy\nThis booklet sets out your cover. Please read it with care.\nWe pay for loss or damage.\n"
            "If you claim, we pay the cost of the",
            "Repairs Team\nThey come to your home. They fix the damage. We pay them direct.\nWe pay for theft.\n"
            "We pay for fire and for smoke damage to the",
            "Main House\nAnd its outbuildings. We pay for storm.\nWe pay for flood.\nCover ends at renewal.",
            "Claims\nCall us at once. We will help you.\nKeep receipts.\nWe pay."]
    text = "\f".join(f"Acme Insurance Ltd\n{page}" for page in body) + "\n"
    events: list = []
    chunks = list(chunk_lines(text, real_tokens=False, on_diagnostic=events.append))
    assert [e["text"] for e in events if e["kind"] == "furniture"] == ["Acme Insurance Ltd"] * 4
    assert [c.heading_path for c in chunks] == ["", "Claims"]
    assert "the cost of the Repairs Team They come" in chunks[0].text.replace("\n", " ")

"""The policy profile's rules, one at a time (SPEC §5)."""

from __future__ import annotations

from typing import List

from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import Chunk, Chunker, chunk_lines

from .test_text_titles import read_generated, the_chunk_of


def _chunks(lines: List[str], **options) -> List[Chunk]:
    return list(chunk_lines(lines, real_tokens=False, **options))


def _ids(lines: List[str], **options) -> List[str]:
    return [c.id for c in _chunks(lines, **options)]


def test_glued_numbers_capital_titles_and_trailing_dots_are_headings():
    lines = ["1. INTRODUCTION", "Text one.", "1.1.OVERVIEW", "Text two.", "1.2. SCOPE", "Text three.",
             "2.  TERMS", "Text four."]
    assert _ids(lines) == ["1", "1.1", "1.2", "2"]
    # the extractor lost the space after the closing dot: the number is whole, the title after it
    lines = ["5.2.9. Instalments", "Text one.", "5.2.10.Claim Related Information", "Text two.",
             "5.2.10Claim", "Text three."]
    assert [(c.id, c.heading_path) for c in _chunks(lines)] == [("5.2.9", "Instalments"),
                                                               ("5.2.10", "Claim Related Information")]
    lines = ["3 COVER", "3.1COVERAGE", "Text."]
    chunks = _chunks(lines)
    assert [(c.id, c.heading_path) for c in chunks] == [("3.1", "COVER > COVERAGE")]


def test_a_number_must_be_next():
    lines = ["4.9 Storm", "Wind.", "4.10 Flood", "Water.", "4.12 Skipped", "Not next.", "5 Claims", "Claim."]
    chunks = _chunks(lines)
    assert [c.id for c in chunks] == ["4.9", "4.10", "5"]
    assert chunks[1].text == "Water. 4.12 Skipped Not next."


def test_an_item_printed_in_parts_sits_between_its_neighbours():
    """``7a.`` and ``7b.`` where the wording prints no ``7``: each is an item of
    its own, and ``8.`` follows them; ``9A.`` is inserted after ``9.``."""
    lines = ["Events", "", "5. Earthquake, excluding fire.", "", "6. Subterranean fire, excluding smoke.", "",
             "7a. Storm, excluding", "a. Damage caused by flood", "b. Damage to fences", "",
             "7b. Flood, excluding", "a. Damage caused by storm", "", "8. Escape of water from any tank.", "",
             "9. Impact by any road vehicle.", "", "9A. Impact by aircraft.", "", "10. Sprinkler leakage."]
    assert _ids(lines) == ["front", "5", "6", "7a", "7b", "8", "9", "9A", "10"]
    # a second part with no first is not next: text of the item before it
    assert _ids(["1. Fire, excluding explosion.", "", "2b. Flood, excluding storm.", "", "2. Theft."]) == ["1", "2"]


def test_an_annexure_after_a_decimal_section_ends_it():
    """``ANNEXURE - A`` (a word of the list, a dash, its value) alone on its
    line after the last decimal section is the next part of the document, not
    that section's list; so is ``Annexure - B``, its items under it. With no
    title of its own, ``Annexure - B`` is its own title in the heading path:
    its words would be in no chunk otherwise."""
    lines = ["5. CLAIMS", "5.1 Reporting", "Tell us within 30 days.", "6. TABLE OF BENEFITS", "Death: the sum insured.",
             "ANNEXURE - A", "List of Ombudsmen", "Office details follow.", "Annexure - B",
             "List I - Items not covered", "Baby food."]
    chunks = _chunks(lines)
    assert [(c.id, c.heading_path) for c in chunks] == [
        ("5.1", "CLAIMS > Reporting"), ("6", "TABLE OF BENEFITS"), ("A", "List of Ombudsmen"),
        ("B.List I", "Annexure - B > Items not covered")]


def test_items_numbered_on_from_one_part_to_the_next_of_one_word():
    """Two parts of one prefix word, the second numbering its items on from
    the first's (``1.``-``2.``, then ``3.``): the second's are its items."""
    lines = ["SECTION E) CONDITIONS - STANDARD", "1. Notice", "Tell us within 30 days.", "2. Fraud",
             "No claim is paid.", "SECTION E) CONDITIONS - SPECIFIC", "3. Records", "Keep records.", "4. Cover",
             "It ends."]
    assert [(c.id, c.text) for c in _chunks(lines)] == [
        ("E.1", "Tell us within 30 days."), ("E.2", "No claim is paid."), ("E~2.3", "Keep records."),
        ("E~2.4", "It ends.")]


def test_items_numbered_on_from_one_lettered_heading_to_the_next():
    """``A. Standard Definitions`` holds ``1.``-``2.``, ``B. Specific
    Definitions`` goes on at ``3.``, as Indian wordings number them: its
    items are its own, not text refused as out of sequence."""
    lines = ["IV. DEFINITIONS", "A. Standard Definitions", "1. Accident means a sudden event.",
             "2. Hospital means an institution.", "B. Specific Definitions", "3. Age means completed years.",
             "4. Break in policy means the period of gap.", "V. COVERAGE", "1. In-patient care is covered."]
    assert _ids(lines) == ["IV.A.1", "IV.A.2", "IV.B.3", "IV.B.4", "V.1"]


def test_the_next_item_after_a_line_with_no_full_stop_opens_unless_the_line_leads_on():
    """``2. DISCLOSURE … any material fact`` without its full stop is a weak
    sign against ``3. EMERGENCY CARE …``, next in its list: it opens. A line
    that stops on a word that leads on (``… up to``) is a strong one."""
    lines = ["IV. DEFINITIONS", "1. ACCIDENT means a sudden event.",
             "2. DISCLOSURE means the policy is void on misrepresentation of any material fact",
             "3. EMERGENCY CARE means care for an illness.", "4. GRACE PERIOD means the period."]
    assert _ids(lines) == ["IV.1", "IV.2", "IV.3", "IV.4"]
    strong = lines[:2] + ["2. LIMIT means the most we pay, which is up to", "3. Times the premium, at most.",
                          "3. GRACE PERIOD means the period."]
    assert _ids(strong) == ["IV.1", "IV.2", "IV.3"]


def test_a_number_after_a_line_that_stops_on_a_references_word_is_the_references():
    """``… set out in Section`` ⏎ ``3. Waiting periods …``: the number is the
    reference's, a strong sign; the real ``3. Fraud`` opens."""
    lines = ["V. GENERAL CONDITIONS", "1. Notice of claim must be given to us within thirty days.",
             "2. Any claim for cancellation is subject to the conditions set out in Section",
             "3. Waiting periods also apply, and cover starts only after they end.",
             "3. Fraud: if any claim is fraudulent, all benefits are forfeited.", "4. Arbitration applies."]
    chunks = _chunks(lines)
    assert [c.id for c in chunks] == ["V.1", "V.2", "V.3", "V.4"]
    assert "Waiting periods" in chunks[1].text and chunks[2].heading_path.endswith("Fraud")


def test_lower_case_title_is_text_even_when_next():
    assert _ids(["1 Cover", "Text.", "2 or more occupants must wear belts.", "3 Theft", "Text."]) == ["1"]


def test_numbered_list_inside_a_clause_cannot_pass_for_the_next_section():
    lines = ["3.1.20 Obesity", "Cover applies only if:",
             "1. Treatment has been conducted by a specialist;", "4. Body Mass Index (BMI) is;",
             "over 40.", "4 Claims", "Tell us."]
    chunks = _chunks(lines)
    assert [c.id for c in chunks] == ["3.1.20", "4"]
    assert "4. Body Mass Index (BMI) is; over 40." in chunks[0].text


def test_a_clause_list_going_on_past_the_next_section_number_stays_the_clause_text():
    """``1. PREAMBLE`` … ``3. DEFINITIONS`` then ``3.1.``, ``3.2.``: a list
    ``1.``-``5.`` inside 3.2 reaches ``4.`` and ``5.``, next after section 3;
    in lower case where the sections' titles are in capitals, they are the
    list's, and ``3.3.`` still comes next."""
    lines = ["1. PREAMBLE", "This policy is a contract.", "2. COVER", "We pay for treatment.",
             "3. DEFINITIONS", "The terms below have these meanings.",
             "3.1. Accident means a sudden event.",
             "3.2. Hospital means an institution that meets every criterion as under:",
             "1. has qualified nursing staff;", "2. has at least ten beds;", "3. has a doctor in charge;",
             "4. has a fully equipped operation theatre of its own;", "5. maintains daily records of patients.",
             "3.3. Hospitalisation means admission for at least 24 hours.", "4. EXCLUSIONS", "We do not pay for cosmetic surgery."]
    chunks = _chunks(lines)
    assert [c.id for c in chunks] == ["1", "2", "3", "3.1", "3.2", "3.3", "4"]
    assert chunks[4].text.endswith("4. has a fully equipped operation theatre of its own; 5. maintains daily records of patients.")
    mixed = [line.replace("DEFINITIONS", "Definitions") for line in lines]  # (titles in any case)
    assert [c.id for c in _chunks(mixed)] == ["1", "2", "3", "3.1", "3.2", "3.3", "4"]
    later = lines[:8] + ["4. Exclusions", "We do not pay for cosmetic surgery.", "5. Claims", "Tell us."]
    assert [c.id for c in _chunks(later)] == ["1", "2", "3", "3.1", "3.2", "4", "5"]  # (a title goes on as ever)


def test_first_child_sets_the_form_of_its_siblings():
    lines = ["1 Cover", "1.1. Buildings", "Text.", "1.2 Contents", "Not a sibling: no dot.", "1.2. Contents",
             "Text two."]
    chunks = _chunks(lines)
    assert [c.id for c in chunks] == ["1.1", "1.2"]
    assert chunks[0].text == "Text. 1.2 Contents Not a sibling: no dot."


def test_clause_text_on_the_number_line_is_also_body_text():
    lines = ["2 Definitions", "2.1 Accident means a sudden, unforeseen and involuntary event.",
             "2.2 Home", "The private dwelling at the address in the schedule.",
             "2.3 Insured person", "means you and your family living with you.",
             "2.4 Vehicle", "A motor car, van or motorcycle that you own and have registered in your own name",
             "as shown on the schedule."]
    chunks = _chunks(lines)
    assert [(c.id, c.heading_path, c.text) for c in chunks] == [
        ("2.1", "Definitions > Accident means a sudden", "Accident means a sudden, unforeseen and involuntary event."),
        ("2.2", "Definitions > Home", "The private dwelling at the address in the schedule."),
        ("2.3", "Definitions > Insured person", "Insured person means you and your family living with you."),
        ("2.4", "Definitions > Vehicle",
         "A motor car, van or motorcycle that you own and have registered in your own name as shown on the schedule."),
    ]
    long = ["1 Cover", "1.1 We cover the buildings and the contents of the home against loss or damage by fire",
            "and by smoke."]
    (chunk,) = _chunks(long)
    assert chunk.text.startswith("We cover the buildings") and chunk.text.endswith("by smoke.")


def test_front_matter_and_a_heading_with_no_body():
    lines = ["Acme Mutual", "Your policy wording", "", "Read this booklet with your schedule.", "1 Cover",
             "1.1 Buildings", "The home."]
    chunks = _chunks(lines)
    assert [(c.id, c.clause, c.heading_path) for c in chunks] == [("front", None, ""), ("1.1", "1.1", "Cover > Buildings")]
    assert chunks[0].text == "Acme Mutual Your policy wording\nRead this booklet with your schedule."


def test_contents_lines_go_and_vouch_for_skips_and_lower_case_titles():
    lines = ["Contents", "1 Cover ........ 2", "1.1 Buildings.......2", "1.1.3 http addresses ... 3",
             "2 Claims....................4", "Glossary .......... 9", "", "1 Cover", "Intro.",
             "1.1 Buildings", "The home.", "1.1.3 http addresses", "Skipped 1.1.1 and 1.1.2, listed.",
             "2 Claims", "Tell us."]
    events = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append)
    chunks = chunker.feed("\n".join(lines)) + chunker.close()
    assert [c.id for c in chunks] == ["front", "1", "1.1", "1.1.3", "2"]
    assert chunks[0].text == "Contents"
    assert all("...." not in c.text for c in chunks)
    report = chunker.report
    assert report["contents_lines"] == 5 and report["contents"]["found"] == 4 and report["contents"]["missing"] == []
    assert any(e["kind"] == "skipped_number" and e["number"] == "1.1.3" for e in events)


def test_the_report_names_listed_sections_never_found():
    chunker = Chunker(real_tokens=False)
    chunker.feed("1 Cover ..... 1\n2 Claims ..... 2\n3 Ending ..... 3\n\n1 Cover\nText.\n2 Claims\nText.\n")
    chunker.close()
    assert chunker.report["contents"]["missing"] == ["3"]


def test_a_repeated_number_gets_a_distinct_id():
    # Two documents in one stream: the second contents list vouches for its restart.
    doc = ["1 Cover ..... 1", "", "1 Cover", "Text one."]
    assert _ids(doc + doc) == ["1", "1~2"]


def test_rejected_headings_are_diagnosed_with_a_reason():
    events = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append)
    chunker.feed("4 Exclusions\n4.1 Wear\nText.\n14 days after the leak\n7 Storms\n4.2. Water\nText.\n")
    chunker.close()
    reasons = {e["text"]: e["reason"] for e in events if e["kind"] == "rejected_heading"}
    assert reasons == {"14 days after the leak": "lower-case title", "7 Storms": "not next in sequence",
                       "4.2. Water": "form differs from its siblings"}


def test_lines_and_pages_of_chunks():
    text = "1 Cover\nFirst line\nsecond line.\n\fThird line on page two.\n\n2 Claims\nTell us.\n"
    chunks = _chunks(text.split("\n"))
    assert [(c.id, c.lines, c.pages) for c in chunks] == [("1", (2, 4), (1, 2)), ("2", (7, 7), (2, 2))]


def test_line_ends_of_every_kind():
    lf = "1 Cover\nWe cover\nthe home.\n\n2 Claims\nTell us.\n"
    expected = [c.to_dict() for c in _chunks(lf.split("\n"))]
    for variant in (lf.replace("\n", "\r\n"), lf.replace("\n", "\r")):
        chunker = Chunker(real_tokens=False)
        assert [c.to_dict() for c in chunker.feed(variant) + chunker.close()] == expected


def test_character_cap():
    lines = ["1 Cover", "A" * 50, "", "B" * 50, "", "C" * 50]
    chunks = _chunks(lines, max_chars=110)
    assert [c.id for c in chunks] == ["1#1", "1#2"]
    assert all(len(c.text) <= 110 for c in chunks)


def test_nul_bytes_are_dropped_and_reported():
    events = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append)
    chunks = chunker.feed("1 Cover\nWe\x00 cover.\n") + chunker.close()
    assert chunks[0].text == "We cover."
    assert [e for e in events if e["kind"] == "nul_byte"] == [{"line": 2, "kind": "nul_byte"}]
    assert chunker.report["nul_bytes"] == 1


def test_a_closed_chunker_refuses_more_text():
    chunker = Chunker(real_tokens=False)
    chunker.close()
    try:
        chunker.feed("more")
    except ValueError as err:
        assert "closed" in str(err)
    else:
        raise AssertionError("feed after close must fail")


def _with_events(lines: List[str], **options):
    events: list = []
    chunker = Chunker(real_tokens=False, on_diagnostic=events.append, **options)
    chunks = chunker.feed("".join(line + "\n" for line in lines)) + chunker.close()
    return chunks, [(e["line"], e["kind"]) for e in events]


def test_a_reference_or_an_ellipsis_at_a_line_end_is_not_a_contents_entry():
    chunks, events = _with_events(["1 Cover", "We pay for the items", "14 days after the leak, see Annex A.2",
                                   "Choose an excess level from 1 ... 10", "2 Limits are set out in Appendix B.2",
                                   "Tell us."])
    assert not [kind for _, kind in events if kind == "contents"]
    assert [(c.id, c.heading_path) for c in chunks] == [("1", "Cover"),
                                                        ("2", "Limits are set out in Appendix B.2")]
    assert "see Annex A.2 Choose an excess level from 1 ... 10" in chunks[0].text
    # Leaders still make contents entries: numbered with two dots or more, glued
    # to a word (RFC 2616), or without a number when the leader is long.
    _, events = _with_events(["Contents", "1 Cover ..50", "13.3.4 Last-Modified Dates.89", "Cover ........ 3"])
    assert [line for line, kind in events if kind == "contents"] == [2, 3, 4]


def test_a_title_becomes_clause_text_only_before_a_line_that_starts_in_lower_case():
    chunks = _chunks(["4.1 Escape of water", "14 days after the leak we stop paying.",
                      "4.2 Theft", "(a) sudden loss.", "4.3 Storm", "which we pay."])
    assert [(c.id, c.heading_path, c.text) for c in chunks] == [
        ("4.1", "Escape of water", "14 days after the leak we stop paying."),
        ("4.2", "Theft", "(a) sudden loss."),
        ("4.3", "Storm", "Storm which we pay.")]


def test_a_list_a_sentence_leads_into_opens_once_its_next_label_comes():
    """``… is`` ⏎ ``A. the total sum insured, or`` ⏎ ``B. the amount left …``:
    each label follows a line that stops mid-sentence, yet two in sequence at
    line starts are a list. The first is taken back out of the text before it."""
    lines = ["SECTION 1 - BASIS OF SETTLEMENT", "The most we will pay for any one claim is",
             "A. the total sum insured for the item, or", "B. the amount left after any other claim this year."]
    chunks = _chunks(lines)
    assert [(c.clause, c.text) for c in chunks] == [
        ("1", "The most we will pay for any one claim is"),
        ("1.A", "A. the total sum insured for the item, or"),
        ("1.B", "B. the amount left after any other claim this year.")]


def test_a_list_so_proved_goes_on_whatever_the_line_before():
    """``c.`` after ``b.``'s text that ends without a full stop: the list goes on."""
    lines = ["SECTION 2 - SUMS INSURED", "The sums insured are not reduced by a claim provided that",
             "a. we do not tell you otherwise within 30 days of the", "claim",
             "b. you pay the extra premium for the rest of the period", "c. you follow our advice on security."]
    assert [c.clause for c in _chunks(lines)] == ["2", "2.a", "2.b", "2.c"]


def test_a_list_under_a_heading_of_its_own_family_opens_under_it():
    """``a. Living Donor Costs`` then a list ``a.``, ``b.`` of its own: its family
    is open above it, and its next label shows it is a list, not text."""
    lines = ["SECTION A) BENEFITS", "a. Living Donor Costs", "We pay the donor's costs, provided that,",
             "a. the donor gives the organ to you under the law, and", "b. we have accepted your claim.",
             "b. Ambulance", "We pay for an ambulance to hospital."]
    chunks = _chunks(lines)
    assert [c.clause for c in chunks] == ["A.a", "A.a.a", "A.a.b", "A.b"]
    assert chunks[-1].heading_path == "BENEFITS > Ambulance"


def test_a_label_that_no_next_label_follows_stays_text():
    lines = ["SECTION 1 - COVER", "We pay for damage caused by", "A. storm or flood at the home.",
             "That is all we cover here."]
    chunks = _chunks(lines)
    assert [c.clause for c in chunks] == ["1"]
    assert "caused by A. storm" in chunks[0].text


def test_the_next_section_with_a_title_stands_on_its_own_after_a_list():
    """``SECTION 4 – EMERGENCY DENTAL EXPENSES`` after ``(b) expenses that arise
    from any illness`` (a list's last item without its full stop): the next
    value of an open section, with a title, is no sentence's next line. A
    sentence that goes on (``… in`` ⏎ ``SECTION 4 – dental …``) is text."""
    lines = ["SECTION 3 - MEDICAL EXPENSES", "We pay for treatment abroad.", "What is not covered:",
             "(a) treatment not prescribed by a doctor; or", "(b) expenses that arise from any illness",
             "SECTION 4 - EMERGENCY DENTAL EXPENSES", "We pay for dental treatment after an accident.",
             "Some limits are set out in", "SECTION 5 - the schedule of benefits, as the insurer agrees."]
    chunks = _chunks(lines)
    assert chunk_with_text(chunks, "dental treatment after").clause == "4"
    assert "set out in SECTION 5" in chunk_with_text(chunks, "dental treatment after").text


def chunk_with_text(chunks: List[Chunk], words: str) -> Chunk:
    return next(c for c in chunks if words in c.text)


LEAD_INS = ["provided that", "the most we pay is", "we do not cover loss caused by", "if"]


@settings(max_examples=40, deadline=None)
@given(sections=st.lists(st.tuples(st.sampled_from(LEAD_INS), st.integers(min_value=2, max_value=4),
                                   st.booleans()), min_size=1, max_size=4),
       pieces=st.integers(min_value=1, max_value=7))
def test_lists_that_sentences_lead_into_open_however_the_text_is_fed(sections, pieces):
    """Generated sections, each a sentence that runs into a list of two to
    four items, their lines wrapped or not: every item opens at its path
    (``N.a``, ``N.b`` ...), no word is lost, and the output is the same however
    the text is fed."""
    lines: List[str] = []
    for number, (lead, items, wrapped) in enumerate(sections, 1):
        lines += [f"SECTION {number} - PART {number}", f"The terms of this part apply and {lead}"]
        for item in range(items):
            letter = "abcd"[item]
            lines += [f"{letter}. the insured item {number}{letter} is kept in", "good repair"] if wrapped else \
                [f"{letter}. the insured item {number}{letter} is kept in good repair"]
    chunks = read_generated(lines, pieces)
    for number, (_, items, _) in enumerate(sections, 1):
        for item in range(items):
            letter = "abcd"[item]
            assert the_chunk_of(chunks, f"{number}{letter}").clause == f"{number}.{letter}"

"""Headings without a number in text with no layout (``pdftotext -raw``, a
pipe): a title standing alone between the end of one sentence and the start
of the next is a heading, one in capitals above one in Title Case."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import Chunker, chunk_lines
from stream_chunker.core.layout import defined_terms, titles_alone

from .test_word_balance import assert_balanced

CONDITIONS = """This policy contains exclusions. Please read it carefully.
GENERAL POLICY CONDITIONS
The following conditions apply to all sections of this policy.
Co-operation
You are required to:
1. help us obtain witnesses and evidence;
2. send us everything received in writing.
Examination
After a loss you may be required to submit to examination under oath.
"""


def test_a_title_alone_between_sentences_is_a_heading_in_plain_text() -> None:
    chunks = list(chunk_lines(CONDITIONS, real_tokens=False))
    assert [(c.id, c.heading_path.split(" > ")[:2]) for c in chunks] == [
        ("front", [""]),
        ("general-policy-conditions", ["GENERAL POLICY CONDITIONS"]),
        ("general-policy-conditions/co-operation", ["GENERAL POLICY CONDITIONS", "Co-operation"]),
        ("general-policy-conditions/co-operation.1", ["GENERAL POLICY CONDITIONS", "Co-operation"]),
        ("general-policy-conditions/co-operation.2", ["GENERAL POLICY CONDITIONS", "Co-operation"]),
        ("general-policy-conditions/examination", ["GENERAL POLICY CONDITIONS", "Examination"]),
    ]  # capitals rank above Title Case; the items number again under their heading
    assert not any("Co-operation" in c.text or "Examination" in c.text for c in chunks)
    assert_balanced(CONDITIONS)


def test_a_short_line_that_goes_on_a_sentence_is_text() -> None:
    text = "We pay the full cost of the\nRepairs Team\nWe pay for it. Call us.\nThe Insurer\n3,750\n"
    assert [c.heading_path for c in chunk_lines(text, real_tokens=False)] == [""]
    assert titles_alone(text) == []


def test_the_same_line_after_the_same_line_on_every_page_is_one_heading_at_most() -> None:
    page = "Issuing Office:\nGLOBAL HEALTH CARE\n{n}. Section {n}\nThe text of section {n} goes here.\n"
    text = "\f".join(page.format(n=n) for n in range(1, 5))
    chunker = Chunker(real_tokens=False)
    chunker.feed(text)
    chunker.close()
    assert chunker.report["headings_unnumbered"] <= 1


def test_page_numbers_before_titles_are_no_sections() -> None:
    contents = ["5 Introduction", "7 Definitions", "12 Important conditions relating to health",
                "13 General conditions", "14 Claims conditions", "16 General exclusions"]
    body = ["1 Cover", "We pay for storm damage.", "2 Claims", "Call us first."]
    clauses = [c.clause for c in chunk_lines(contents + body, real_tokens=False)]
    assert clauses == [None, "1", "2"]


SECTIONS = ["BUILDINGS", "PERSONAL BELONGINGS", "GENERAL CONDITIONS", "LEGAL EXPENSES"]  # ("CONTENTS" would title a contents list)
HEADINGS = ["What is covered", "What is not covered", "Making a claim", "Your excess", "Special limits"]


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(SECTIONS),
                          st.lists(st.sampled_from(HEADINGS), min_size=1, max_size=3, unique=True)),
                min_size=1, max_size=3, unique_by=lambda s: s[0]),
       st.integers(1, 6))
def test_generated_plain_text_wordings_keep_every_paragraph_at_its_path(outline, pieces: int) -> None:
    """Text as ``pdftotext -raw`` prints a wording: no blank lines, sections in
    capitals, headings in Title Case, each paragraph a sentence. Every
    paragraph's chunk carries its section and heading; no word is lost; ids
    are unique; the output is the same however the text is fed."""
    lines = ["This wording and your schedule are your contract."]
    expected = []
    for s, (section, headings) in enumerate(outline):
        lines.append(section)
        for h, heading in enumerate(headings):
            lines.append(heading)
            sentence = f"We pay item{s}x{h} for the {section.lower()} as set out."
            lines.append(sentence)
            expected.append((sentence, f"{section} > {heading}"))
    text = "\n".join(lines) + "\n"
    chunks = list(chunk_lines(text, real_tokens=False))
    for sentence, path in expected:
        holder = [c for c in chunks if sentence in c.text]
        assert len(holder) == 1 and holder[0].heading_path == path, (sentence, [c.heading_path for c in holder])
    assert len({c.id for c in chunks}) == len(chunks)
    assert_same_in_pieces(text, chunks, pieces)


def assert_same_in_pieces(text: str, chunks, pieces: int) -> None:
    """``text`` fed in ``pieces`` parts gives ``chunks``, and loses no word."""
    assert_balanced(text, pieces=[max(len(text) // pieces, 1)] * pieces)
    cut = Chunker(real_tokens=False)
    step = max(len(text) // pieces, 1)
    again = [c for at in range(0, len(text), step) for c in cut.feed(text[at:at + step])] + cut.close()
    assert [(c.id, c.text, c.heading_path) for c in again] == [(c.id, c.text, c.heading_path) for c in chunks]


def read_generated(lines, pieces: int, between: str = "\n"):
    """``lines`` as one text, chunked: ids are unique, no word is lost, and the
    output is the same however the text is fed."""
    text = between.join(lines) + "\n"
    chunks = list(chunk_lines(text, real_tokens=False))
    assert len({c.id for c in chunks}) == len(chunks)
    assert_same_in_pieces(text, chunks, pieces)
    return chunks


def the_chunk_of(chunks, word: str):
    """The one chunk whose text holds ``word`` as a word."""
    holder = [c for c in chunks if word in c.text.split()]
    assert len(holder) == 1, (word, [(c.clause, c.heading_path) for c in chunks])
    return holder[0]


def test_the_numbers_go_on_around_a_heading_without_a_number() -> None:
    text = ("1. PREAMBLE\nThis policy is a contract of insurance.\nOPERATIVE CLAUSE\nWe pay as this policy sets out.\n"
            "a. Death\nWe pay the sum insured.\n2. DEFINITIONS\nThe terms below have these meanings.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.id, c.heading_path) for c in chunks] == [
        ("1", "PREAMBLE"), ("operative-clause", "OPERATIVE CLAUSE"),
        ("operative-clause.a", "OPERATIVE CLAUSE > Death"), ("2", "DEFINITIONS")]


def test_the_numbers_go_on_after_several_headings_without_a_number() -> None:
    # ``What is not covered`` ends ``What is covered``, which ended section 1:
    # section 2 is still next, after any number of such headings in a row.
    text = ("1 Cover\nWe cover your home.\nWhat is covered\nWe cover storm.\nWhat is not covered\n"
            "We do not cover wear.\nHow we settle\nWe repair or pay.\n2 Claims\nTell us.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.clause, c.heading_path) for c in chunks][-1] == ("2", "Claims")
    assert not any("2 Claims" in c.text for c in chunks)


def test_numbered_clauses_under_a_heading_are_its_items() -> None:
    # A number before the first line of a clause (``… apply when`` ⏎ ``your
    # car:``) is an item of the heading over it, not a section above it; the
    # next number opens after a full stop though its line ends in a comma.
    text = ("We cover your car.\nGeneral exclusions\n1 This policy does not apply when\nyour car:\n"
            "a is being used for racing\nb is being driven by a person not covered.\n"
            "2 This policy does not cover any liability, damage,\ncost or expenses in excess of the law.\n"
            "3 This policy does not provide cover for\nloss caused by war.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.id, c.clause) for c in chunks[1:]] == [
        ("general-exclusions.1", "1"), ("general-exclusions.2", "2"), ("general-exclusions.3", "3")]
    assert all(c.heading_path.startswith("General exclusions > ") for c in chunks[1:])
    assert_balanced(text)


def test_a_policy_set_in_plain_text_is_read_in_parts() -> None:
    # (Text as ``pdftotext -raw`` prints it: a title set apart by blank lines alone is not yet read.)
    text = ("MOTOR INSURANCE POLICY\nThis policy covers your car.\n1 Definitions\nCar means the car named.\n"
            "2 Claims\nTell us at once.\nHOUSEHOLD INSURANCE POLICY\nThis policy covers your home.\n"
            "1 Definitions\nHome means the house.\n2 Claims\nTell us the same day.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    home = chunk_with(chunks, "Home means")
    assert (home.clause, home.part) == ("1", "HOUSEHOLD INSURANCE POLICY")
    assert chunk_with(chunks, "same day").part == "HOUSEHOLD INSURANCE POLICY"
    assert not any("HOUSEHOLD" in c.text or "covers your home" in c.text and c.clause == "2" for c in chunks)
    assert len({c.id for c in chunks}) == len(chunks)


def chunk_with(chunks, words: str):
    return next(c for c in chunks if words in c.text)


def test_a_title_alone_after_an_item_s_last_sentence_ends_the_items() -> None:
    # In text with no layout a title alone (after a full stop, before a
    # sentence) of two words or more is a heading after items too; one word
    # alone there is still the item's text.
    text = ("General conditions\nThese apply to all sections.\n1. Fraud\nYou must not lie to us.\n"
            "2. Other insurance\nWe pay our share only.\nLimit of Liability Under Section 11\n"
            "The indemnity provided under this section is limited.\nCLAIMS PROCEDURE\nYou must tell us at once.\n"
            "3. You may cancel this policy at any time.\nWhat happens next\nWe write to you.\n"
            "4. You may claim online.\nOnline\nWe answer within a day.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert chunk_with(chunks, "indemnity").heading_path == "Limit of Liability Under Section 11"
    assert chunk_with(chunks, "tell us at once").heading_path == "CLAIMS PROCEDURE"
    assert chunk_with(chunks, "write to you").heading_path == "What happens next"
    assert "Online" in chunk_with(chunks, "claim online").text  # (one word: an item's, not a heading)
    assert_balanced(text)


def test_two_titles_alone_one_under_the_other_are_two_headings() -> None:
    text = ("We insure the dwelling once it is completed.\nExtensions of Coverage\nTear Out\n"
            "We pay to tear out walls to reach a leak.\nCosts of Removal Under\nYour Policy Schedule\n"
            "We pay to remove debris.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.heading_path for c in chunks] == ["", "Extensions of Coverage", "Tear Out"]  # (one rank: siblings)
    assert "Costs of Removal Under Your Policy Schedule" in chunks[-1].text  # (a title that leads on is no heading alone)


def test_a_title_alone_may_have_commas() -> None:
    text = ("Your vehicle must be roadworthy.\nCarrying passengers for hire, fare or reward\n"
            "We do not cover a vehicle used as a taxi.\nAfter all, this is private cover\nit is.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.heading_path for c in chunks] == ["", "Carrying passengers for hire, fare or reward"]
    assert titles_alone("We pay.\nFire, theft, storm, flood or impact\nWe pay.\n") == []  # (a list: three commas)


def test_a_label_with_only_a_control_character_after_it_is_a_label_alone() -> None:
    # A Word list's number, a tab and BEL (a glyph the extractor could not map), the text on the next line.
    text = "This is your policy.\nWhat is covered\nWe pay as set out below.\n1.\t\x07\nStorm damage to the home.\n2.\t\x07\nFlood damage.\n"
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.clause, c.heading_path) for c in chunks if c.clause] == [
        ("1", "What is covered > Storm damage to the home"), ("2", "What is covered > Flood damage")]
    assert_balanced(text)


def test_a_number_does_not_go_on_under_another_heading() -> None:
    # "2" would continue the list under "Words with special meaning"; it is under "Claims" now.
    text = ("Words with special meaning\n1. Home means your house.\nThat is all.\nGENERAL CONDITIONS\n"
            "You must take care.\nClaims\nYou must tell us.\n2. Keys are covered\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert not any(c.clause == "2" and c.heading_path.startswith("Words") for c in chunks)


def test_a_title_alone_may_head_a_decimal_list_and_not_a_lettered_one() -> None:
    # (before "a." it is seldom a heading: the FEMA forms' text out of column order has many)
    assert titles_alone("We pay as this policy sets out.\nCover for loss\na) the loss of a limb;\n") == []
    assert titles_alone("The terms below apply.\nStandard definitions\n2.1. Accident means a sudden event.\n") == \
        [(1, 1.0)]


def test_a_question_alone_between_sentences_is_a_heading() -> None:
    text = ("We pay as this policy sets out.\nWho is covered to drive other cars?\n"
            "Your certificate shows who has cover.\nIs that all? Yes.\nCall us.\n")
    assert [c.heading_path for c in chunk_lines(text, real_tokens=False)] == ["", "Who is covered to drive other cars?"]


def test_a_street_number_before_an_address_is_no_section() -> None:
    text = ("Chubb Group of Insurance Companies\n80 S 8TH ST · SUITE 2200 · MINNEAPOLIS, MN 55402\n"
            "We write to confirm your cover.\nPost: Customer Relations\n1 Drake Circus\nPlymouth, PL1 1QH\n"
            "YOUR POLICY\nThis is the policy.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.clause for c in chunks if c.clause] == []
    assert any("80 S 8TH ST" in c.text and "1 Drake Circus" in c.text for c in chunks)


@pytest.mark.parametrize("address", ["4 Shenton Way, #21-01, SGX Centre 2, Singapore 068807",
                                     "12 Kent Parade, Sydney NSW 2000", "9 Peninsula Road, Lower Parel"])
def test_a_letterhead_address_is_no_section(address: str) -> None:
    """A street number before a street (``Way``, ``Road``) or a postcode (a
    state's four digits, a city's six) is an address, not section 4."""
    text = (f"MSIG Insurance (Singapore) Pte. Ltd.\n{address}\nTel: 6827 7888\n\n1 Definitions\nWords mean things.\n"
            "2 Cover\nWe cover it.\n3 Claims\nTell us.\n4 Cancellation\nYou may cancel.\n")
    events: list = []
    chunks = list(chunk_lines(text, real_tokens=False, on_diagnostic=events.append))
    assert [c.clause for c in chunks if c.clause] == ["1", "2", "3", "4"]
    assert [e["reason"] for e in events if e["kind"] == "rejected_heading"] == ["a street number before an address"]


@pytest.mark.parametrize("title", ["Help On The Way", "Assistance On The Road", "Market Place", "Sum Insured 500000"])
def test_a_section_whose_title_ends_like_an_address_is_a_section(title: str) -> None:
    """``Way``, ``Road``, ``Place`` end titles too: as a street only before a
    comma; a city's six-digit code only after one."""
    text = (f"1 Definitions\nWords mean things.\n2 Cover\nWe cover it.\n3 {title}\nWe help.\n"
            "4 Cancellation\nYou may cancel.\n")
    assert [c.clause for c in chunk_lines(text, real_tokens=False)] == ["1", "2", "3", "4"]


def test_a_list_s_heading_may_stand_a_blank_line_above_its_first_item() -> None:
    """Plain text often sets a blank line under a heading: ``What is not
    covered`` ⏎ ⏎ ``1. The excess.`` is that list's heading all the same."""
    text = ("We cover your home as set out below.\n\n1. Storm damage to the home.\n2. Flood damage to the home.\n\n"
            "What is not covered\n\n1. The excess shown in your schedule.\n2. Wear and tear of any kind.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    excess = next(c for c in chunks if "excess" in c.text)
    assert excess.heading_path.startswith("What is not covered > "), [(c.id, c.heading_path) for c in chunks]
    assert not any(c.text.endswith("What is not covered") for c in chunks)
    assert_same_in_pieces(text, chunks, 3)


def test_an_item_s_title_does_not_take_in_the_sentence_after_it() -> None:
    """``1. Flood endorsement`` ⏎ ``This endorsement removes …``: the next line
    starts a sentence of its own, so the item's title is whole; a title that
    leads on (``the cost of repairs to`` ⏎ ``Your home``) still takes it in."""
    text = ("ENDORSEMENTS\nThese change the policy as shown.\n1. Flood endorsement\n"
            "This endorsement removes flood cover from the policy.\n2. the cost of repairs to\nYour home and garage.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    flood = next(c for c in chunks if "removes flood" in c.text)
    assert flood.heading_path.split(" > ")[-1] == "Flood endorsement", [(c.id, c.heading_path) for c in chunks]
    repairs = next(c for c in chunks if "repairs" in c.text)
    assert repairs.heading_path.endswith("the cost of repairs to Your home and garage")


DEFINITIONS = """SECTION I - PROPERTY COVERAGES
DEFINITIONS
"Actual Cash Value" means the cost to replace the property less any
depreciation and market value.
"Business Property" means property of any kind related to a business
pursuit on the premises.
"We", "us" or "our" mean the insurer named in the Certificate.
COVERAGES
We insure the dwelling.
"""


def test_a_definitions_list_in_quotes_gives_each_term_its_own_chunk() -> None:
    """``"Business Property" means …`` at a line start after a sentence end or
    the list's heading: each term heads its definition, as a bold term does in
    a PDF; the definition is its text, whole, quotes and all."""
    chunks = list(chunk_lines(DEFINITIONS, real_tokens=False))
    paths = {c.text: c.heading_path.split(" > ")[-1] for c in chunks}
    assert paths == {
        '"Actual Cash Value" means the cost to replace the property less any depreciation and market value.':
            "Actual Cash Value",
        '"Business Property" means property of any kind related to a business pursuit on the premises.':
            "Business Property",
        '"We", "us" or "our" mean the insurer named in the Certificate.': '"We", "us" or "our"',
        "We insure the dwelling.": "COVERAGES"}


BARE_DEFINITIONS = """Definitions
For the purpose of the Policy, the following definitions apply:
Accident means a sudden, external
and identifiable event. It does not mean a
Sickness.
Act of terrorism means an act or threat
of force.
An act of terrorism does not mean a riot.
Close Relative means:
a) a spouse; or
b) a child.
General Conditions
For buildings full value means the cost to rebuild.
Where we explain what a word means it is in bold.
"""


def test_a_definitions_list_without_quotes_gives_each_term_its_own_chunk() -> None:
    """Text without a layout has lost the bold a PDF sets its terms in:
    ``Bodily Injury means …`` at a line start after a sentence end still heads
    its definition. A sentence that says ``mean`` is no term (``An act of
    terrorism does not mean``, ``Where we explain what a word means``), and
    a definition's own list stays in it."""
    chunks = list(chunk_lines(BARE_DEFINITIONS, real_tokens=False))
    assert [(c.id, c.heading_path) for c in chunks] == [
        ("front", ""), ("accident", "Accident"), ("act-of-terrorism", "Act of terrorism"),
        ("close-relative", "Close Relative"), ("close-relative.a", "Close Relative > a spouse"),
        ("close-relative.b", "Close Relative > a child"), ("general-conditions", "General Conditions")]
    assert "An act of terrorism does not mean a riot." in chunk_with(chunks, "act or threat").text


def test_sentences_that_say_means_stay_text() -> None:
    """Two sentences in a row that start with a noun and ``means``, where a
    clause follows the verb (``Delay means we may …``), or whose subject holds
    a pronoun (``Failure to notify us``), are no definitions list."""
    text = ("How to claim\nTell us at once.\nDelay means we may refuse the claim.\n"
            "Late notice means that you pay the excess twice.\nFailure to notify us means a claim may fail.\n"
            "Misrepresentation means it may be cancelled.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.id, c.heading_path) for c in chunks] == [("front", "")]
    assert defined_terms(text) == []


def test_a_quoted_term_is_found_wherever_its_verb_wraps() -> None:
    """The line that says ``mean`` is the one looked at: a quoted term whose
    verb (or a term after ``or``) wraps onto the next line, indented or after a
    page's form feed, is found on the line it starts; and text that starts
    with ``meaning`` changes nothing of the list after it."""
    listed = ('"Business Property"\nshall mean property of a business.\n"Data"\n  means facts.\n'
              '"We", "us"\nor "our" mean the insurer.\n"Term"\n\fmeans a word.\n')
    assert defined_terms("Things we say.\n" + listed) == [
        (1, "Business Property"), (3, "Data"), (5, '"We", "us"\nor "our"'), (7, "Term")]
    assert defined_terms("meaning is given below.\n" + listed) == defined_terms("Things we say.\n" + listed)
    # (a sentence that ends inside its closing quote ends before the list; one that goes on does not)
    bare = "Accident means a sudden event.\nClose Relative means a spouse.\n"
    assert defined_terms('We call it "flood."\n' + bare) == [(1, "Accident"), (2, "Close Relative")]
    assert defined_terms('We call it "flood"\n' + bare) == []


def test_a_quoted_term_alone_in_a_sections_text_stays_text() -> None:
    text = ("1. Total loss\nIf the property is lost, the premium is earned.\n"
            '"Total loss" means the property cannot be repaired.\nAll other terms are unchanged.\n')
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.heading_path for c in chunks] == ["Total loss"]


def test_a_definitions_list_inside_a_decimal_clause_is_the_clauses_text() -> None:
    """Under ``3.3 Settling claims`` the terms it defines are its text, as its
    list would be: they end no decimal section, and ``3.4`` follows as ever."""
    text = ("3.3 Settling claims\nWe settle claims as set out below.\n"
            '"Unoccupied" means not lived in by you overnight.\n"Excess" means the amount you pay.\n'
            "3.4 Sums insured\nThe sums insured are in the schedule.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.id, c.heading_path) for c in chunks] == [("3.3", "Settling claims"), ("3.4", "Sums insured")]


@given(st.text(alphabet="ab .!?:;,\u2014-\u201d\u2019)]\"'\n", max_size=16).map(lambda s: s + " and" if s.endswith(";") else s))
def test_a_clause_end_is_found_from_the_last_characters_as_from_the_start(line):
    # ends_clause and ends_sentence search only a line's last characters:
    # they must agree with a search of the whole line.
    from stream_chunker.core.text import CLAUSE_END, ends_clause, ends_sentence

    whole = CLAUSE_END.search(line)
    assert ends_clause(line) == (whole is not None)
    assert ends_sentence(line) == (whole is not None and whole["sentence"] is not None)


@pytest.mark.parametrize("bullet", ["\u2022 ", "- ", "> ", "\t\x07", "\uf0b7 ", "\u2718 "])
def test_a_title_alone_before_a_bulleted_list_is_a_heading(bullet: str) -> None:
    # pdftotext -raw prints a list's bullets as they were extracted: a dot, a
    # dash, ">", a cross, or the BEL or private-use code of a symbol font.
    text = ("We cover the contents of your home.\nNot covered\n"
            f"{bullet}loss caused by wear and tear;\n{bullet}loss caused by vermin.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.heading_path for c in chunks] == ["", "Not covered"]
    assert "vermin" in chunks[1].text and "Not covered" not in chunks[1].text
    assert_balanced(text)


def test_a_title_at_the_top_of_a_page_is_a_heading_after_the_page_number() -> None:
    # The line before the title is the page's number; the page before ended a
    # sentence, so the title starts a page as it would start a paragraph.
    text = ("We cover your stolen car keys.\nYou must report the theft to the police.\n"
            "\fPage 16\nCar security\nWe pay to reprogram immobilisers and alarms.\n"
            "\fPage 17\nCar hire\nWe extend your hire car cover.\n")
    paths = [c.heading_path for c in chunk_lines(text, real_tokens=False)]
    assert paths == ["", "Car security", "Car hire"]
    assert_balanced(text)


def test_a_title_at_the_top_of_a_page_is_a_heading_past_a_footer_block() -> None:
    # A copyright block of three lines at each page's foot, the page number at the next one's top.
    footer = ("Chubb Business Travel Policy Wording, published 05/2019\n(c) 2019 Chubb Insurance Limited. Its logos\n"
              "are trademarks of Chubb. Chubb14-23-0519\n")
    pages = [("Extent of Cover", "We pay the benefits in the table."), ("Exclusions", "We do not pay for war."),
             ("Claims", "Tell us within 30 days."), ("Conditions", "You must take care.")]
    text = "".join(f"{n + 10}\n{title}\n{body}\nThat is all for this page.\n{footer}\f"
                   for n, (title, body) in enumerate(pages))
    paths = [c.heading_path for c in chunk_lines(text, real_tokens=False)]
    assert paths == [""] + [title for title, _ in pages[1:]]  # (the first is the text's first line: no line before)


def test_a_title_atop_a_page_after_a_table_s_last_row_is_a_heading() -> None:
    # The page before ends on a table's row, no full stop; nothing runs on over the page.
    text = ("Your excess is shown below.\nBasic Excess $500\n\fPage 16\nHow we settle your claim\n"
            "We arrange for a builder to repair your home.\n\fPage 17\nWhere we insure\n"
            "We insure your home at the address shown.\n")
    paths = [c.heading_path for c in chunk_lines(text, real_tokens=False)]
    assert paths == ["", "How we settle your claim", "Where we insure"]
    assert_balanced(text)


def test_a_line_at_the_top_of_a_page_that_goes_on_a_sentence_is_text() -> None:
    text = "We cover your stolen car keys.\nYou must report the theft to\n\fPage 16\nThe Police\nWe pay.\n"
    assert [c.heading_path for c in chunk_lines(text, real_tokens=False)] == [""]


def test_a_title_alone_at_a_block_end_is_read_the_same_however_the_text_is_fed() -> None:
    # The zones release text up to where they can judge it, which depends on
    # how much was fed; a title alone on the last line of a block is read by
    # the line after it all the same (the cutter holds that line back).
    head = ["Acme General Insurance Ltd.", "Acme House, High Street.", "Call us on our helpline.",
            "Issuing Office:", "HEALTH CARE"]
    pages = ["\n".join(head + [f"{n}. Cover for {w}", f"We pay for loss by {w} as set out here.",
                               f"UIN- ABC123 Policy Wordings/Page {n}"])
             for n, w in zip(range(1, 5), ["storm", "flood", "fire", "theft"])]
    text = "We cover you as this wording says.\n" + "\f".join(pages) + "\n"
    whole = [(c.id, c.text) for c in chunk_lines(text, real_tokens=False)]
    chunker = Chunker(real_tokens=False)
    got, rest = [], text
    for at in (0, 0, 434):  # (pieces of whole lines: a release of the zones ends on ``HEALTH CARE``)
        cut = rest.find("\n", at) + 1 or len(rest)
        got += chunker.feed(rest[:cut])
        rest = rest[cut:]
    got += chunker.feed(rest) + chunker.close()
    assert [(c.id, c.text) for c in got] == whole


_HEADS = ["Issuing Office:", "HEALTH CARE", "What is covered", "Claims", "We pay for loss as set out here."]


@settings(max_examples=60)
@given(st.lists(st.lists(st.sampled_from(_HEADS), min_size=1, max_size=4), min_size=2, max_size=6), st.data())
def test_titles_alone_are_read_the_same_however_paged_text_is_fed(pages, data) -> None:
    """Pages of short lines, titles alone among sentences, fed in random
    pieces of whole lines: the chunks are those of the text fed whole."""
    text = "We cover you as this wording says.\n" + "\f".join(
        "\n".join(lines + [f"{n}. Cover for item {n}", "We pay for it.", f"Page {n}"]) for n, lines in enumerate(pages, 1)) + "\n"
    chunker = Chunker(real_tokens=False)
    got, rest = [], text
    while rest:
        cut = rest.find("\n", data.draw(st.integers(0, len(rest)))) + 1 or len(rest)
        got += chunker.feed(rest[:cut])
        rest = rest[cut:]
    got += chunker.close()
    assert [(c.id, c.heading_path, c.text) for c in got] == [
        (c.id, c.heading_path, c.text) for c in chunk_lines(text, real_tokens=False)]


NARROW_COLUMN = """Please read the policy and the schedule as one document.
The law which applies to
your policy
You and we can choose the law which applies to this policy.
Changes to your
circumstances
It is important that you tell us at once if your
circumstances change.
Call us on
0345 608 0230
Lines are open all day.
"""


def test_a_title_alone_may_wrap_onto_a_line_in_lower_case() -> None:
    """A narrow column wraps a title over two lines, the second in lower case:
    one heading between two sentences. A line that goes on with figures is a
    sentence's (a telephone number), not a title's."""
    chunks = list(chunk_lines(NARROW_COLUMN, real_tokens=False))
    assert [c.heading_path for c in chunks] == ["", "The law which applies to your policy",
                                                "Changes to your circumstances"]
    assert "Call us on 0345 608 0230" in chunks[-1].text.replace("\n", " ")
    assert_balanced(NARROW_COLUMN)


def test_a_title_that_wraps_twice_in_a_document_is_read_whole_both_times() -> None:
    """The same wrapped title after different text: the second time too it is
    one heading, not its first line with the second as its text (the line
    pairs seen before are judged by the title's first line)."""
    text = ("Your policy\nThis booklet sets out your cover. Please read it with care.\n"
            "Changes to your\ncircumstances\nIt is important that you tell us of any change.\n"
            "Your car\nWe cover your car against loss. We pay the market value.\n"
            "Changes to your\ncircumstances\nYou must also tell us of a change of address.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.heading_path for c in chunks] == ["", "Changes to your circumstances", "Your car",
                                                "Changes to your circumstances"]
    assert_balanced(text)


CONTENTS_AFTER_A_CODE = """Acme Travel Insurance
Policy Wording and PDS
Published 05/2019 (19PDSBT01) Acme14-23-0519
Contents
1. About this PDS 4
2. About the Insurer 4
3. Summary of Insurance 5
4. Your Privacy 6
\f1. About this PDS
This PDS contains important information about the cover.
2. About the Insurer
Acme Insurance Limited is the insurer of this product.
3. Summary of Insurance
The table below sums up the cover.
4. Your Privacy
We collect your personal information to insure you.
\f"""


def test_a_contents_title_is_a_heading_whatever_ends_the_line_before() -> None:
    """``Contents`` after a cover's last line (a code, no full stop) still
    opens the contents list: its entries without dot leaders stay under it,
    and the body's sections open 1 to 4, none of them inside the list's 4."""
    chunks = list(chunk_lines(CONTENTS_AFTER_A_CODE, real_tokens=False))
    listed = next(c for c in chunks if "Your Privacy 6" in c.text)
    assert listed.heading_path == "Contents" and listed.clause is None
    assert [c.clause for c in chunks if "insurer of this product" in c.text or "personal information" in c.text] \
        == ["2", "4"]
    assert_balanced(CONTENTS_AFTER_A_CODE)


CONTENTS_AS_A_TERM = """1 Your cover

1.1 What is covered
We will pay up to the sum insured for loss of or damage to the
Contents
(including valuables and money) caused by any of the events listed below.

1.2 Your schedule
The table below shows the covers you have chosen.

1.3 Claims
Tell us as soon as possible about any claim.
"""


def test_a_contents_title_after_a_word_is_the_term_a_sentence_wraps_at() -> None:
    """``… damage to the`` ⏎ ``Contents`` ⏎ ``(including valuables …``: the
    defined term, not a contents list's title; 1.1 stays one clause, and 1.2
    and 1.3 are not under a ``Contents`` heading."""
    chunks = list(chunk_lines(CONTENTS_AS_A_TERM, real_tokens=False))
    assert the_chunk_of(chunks, "valuables").clause == "1.1"
    assert the_chunk_of(chunks, "possible").heading_path == "Your cover > Claims"


STATUTORY = """Section 7
Claims
Note: these are the claims rules of the policy and they apply to every section.
Notice of Claim
1. You must tell us of a claim within seven days of the loss.
2. You must send us proof of the loss within ninety days.
Section 8
Statutory Conditions
Note: The Insurance Act requires that these conditions be printed as part of every policy.
Material Change in Risk
1. (1) The insured shall promptly notify the insurer of any change in the risk material to the contract.
Incorrect Classification
2. (1) Where the insured has been incorrectly classified the insurer shall make the correction.
Refund of Premium Overpayment
(2) Where a correction is made the insurer shall refund the overpayment with interest.
Monthly Payments
3. Unless otherwise provided the insured may pay the premium in equal monthly payments.
"""


def test_numbers_go_back_under_no_heading_without_a_label() -> None:
    """Ontario's statutory conditions, as ``pdftotext -raw`` gives them: each
    condition's title in the margin beside its first paragraph. A title that
    ended the conditions' numbers is no mistake to take back when the next
    number comes (as a box's caption inside a labelled section is): the
    conditions' heading has no label of its own, so ``3.`` stays with
    ``Monthly Payments``, not back under ``Material Change in Risk``."""
    chunk = next(c for c in chunk_lines(STATUTORY, real_tokens=False) if "monthly payments" in c.text)
    assert "Material Change" not in chunk.heading_path and "Monthly Payments" in chunk.heading_path


def _travel_pages(titles: list) -> str:
    """Pages as ``pdftotext -raw`` gives a travel wording: a running header and
    the form's code atop each page, a title, its numbered items, and a list of
    documents whose last bullet ends the page."""
    words = ["baggage", "delay", "rental", "medical", "cancellation", "accident"]
    return "\f".join(
        f"ACME TRAVEL INSURANCE | INSURANCE POLICY | {n + 1}\nFORM 11X (2024-07)\n{title}\n"
        f"1. The {w} limit of the insurer for each claim is shown in the table.\n"
        f"2. We may settle a {w} claim by repair instead of paying cash.\n"
        f"Documents for a {w} claim\n- Passport for the {w} trip\n- Receipts for the {w}\n- Visa for {w}\n"
        for n, (title, w) in enumerate(zip(titles, words)))


def test_a_title_atop_a_page_after_a_list_that_ended_the_last_one() -> None:
    """A page that ends on a list's last bullet (``- Visa for baggage``: no
    sentence's end, but no word that leads on either) ends apart from the next:
    the title atop the next page, past its header, is a heading -- each time,
    though it follows the same header line as before (a title printed again,
    not a block printed on every page)."""
    titles = ["Baggage cover", "Limitations of coverage", "Delay cover", "Rental cover",
              "Limitations of coverage", "Medical cover"]
    chunks = list(chunk_lines(_travel_pages(titles), real_tokens=False))
    for words, title in (("delay limit", "Limitations of coverage"), ("rental limit", "Delay cover"),
                         ("cancellation limit", "Limitations of coverage")):
        assert next(c for c in chunks if words in c.text).heading_path.startswith(title)

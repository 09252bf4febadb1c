"""Prefixed labels whose word is the document's own (``Coverage A -``,
``Change 1 –``, ``List II -``, ``Clause 7:``): any word with a capital first,
a value and a separator before a title starting with a capital."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_chunker import chunk_lines

from .test_headings_in_sections import paths
from .test_styled_headings import BOLD, COVER, body, chunk_with, read
from .test_text_titles import assert_same_in_pieces, read_generated, the_chunk_of
from .test_word_balance import assert_balanced

HOMEOWNERS = """This form describes the insurance on your property.
Coverage A - Dwelling Building
We insure:
1. your dwelling and its attached structures;
2. outdoor equipment used to service the premises.
Coverage B - Detached Private Structures
We insure structures on your premises separated from the dwelling.
Coverage C - Personal Property
We insure the contents of your dwelling.
"""


def test_a_word_off_the_list_with_a_value_and_a_dash_opens_a_level() -> None:
    chunks = list(chunk_lines(HOMEOWNERS, real_tokens=False))
    assert [(c.id, c.heading_path) for c in chunks] == [
        ("front", ""),
        ("Coverage A", "Dwelling Building"),
        ("Coverage A.1", "Dwelling Building > your dwelling and its attached structures"),
        ("Coverage A.2", "Dwelling Building > outdoor equipment used to service the premises"),
        ("Coverage B", "Detached Private Structures"),
        ("Coverage C", "Personal Property")]


def test_the_word_stays_in_the_citation_and_no_word_is_lost() -> None:
    """The word says what the value counts: ``clause`` keeps it (``Coverage B``)."""
    chunks = list(chunk_lines(HOMEOWNERS, real_tokens=False))
    assert [c.clause for c in chunks if c.heading_path.count(">") == 0] == [
        None, "Coverage A", "Coverage B", "Coverage C"]
    assert_same_in_pieces(HOMEOWNERS, chunks, 3)


def test_a_range_or_a_date_after_a_word_is_text() -> None:
    """``Events 1 - 10 and 12 - 14`` is a range, ``On 1 January`` a date,
    ``Page 3 of 26`` a folio: no separator before a capital, no label."""
    text = ("1. Cover\nThe insurer will pay for damage caused by the following.\n"
            "Events 1 - 10 and 12 - 14\nare each insured once.\n"
            "On 1 January Each year we review the premium.\n"
            "2. Claims\nTell us at once.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.id for c in chunks] == ["1", "2"], paths(chunks)
    assert "Events 1 - 10 and 12 - 14" in chunks[0].text


def test_endorsements_that_skip_numbers_are_each_their_own_clause() -> None:
    """A wording prints the endorsements that apply, by their numbers in a
    longer list: ``Endorsement 9``, ``11``, ``12``, ``29`` are siblings, the
    first at any number, and after a numbered heading (``5 Car service
    cover``) they are no text of it: a clause's list has no endorsements."""
    text = ("5 Car service cover\nWe cover your car while a garage has it.\n"
            "Your insurance may be extended or restricted by endorsements.\n"
            "Endorsement 9 – Exclusion\nof personal belongings\nYou are not covered under Part E.\n"
            "Endorsement 11 – Exclusion\nof injury benefits\nYou are not covered under Part D.\n"
            "Endorsement 12 – Own loss or damage (voluntary)\nYou will pay the amount shown.\n"
            "Endorsement 29 – Windscreen breakage\nYou will pay the amount shown for glass.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.clause for c in chunks] == ["5", "5.Endorsement 9", "5.Endorsement 11", "5.Endorsement 12",
                                          "5.Endorsement 29"], paths(chunks)
    assert "Part D" in chunk_with(chunks, "of injury benefits").text
    assert_balanced(text)


def test_a_count_of_any_word_starts_at_its_first_value() -> None:
    """Only the words whose counts a wording prints in part (endorsements,
    clauses, conditions) start anywhere: ``Example 4 – A stolen car`` inside
    item 2 is its text, as it was before endorsements could skip."""
    text = ("1. Cover\nWe cover your car.\n2. Claims\nTell us at once.\n"
            "Example 4 \u2013 A stolen car\nYou tell the police and us the same day.\n3. Cancellation\nYou may cancel.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.clause for c in chunks] == ["1", "2", "3"], paths(chunks)


def test_a_worded_label_before_a_sentence_stays_a_decimal_clauses_text() -> None:
    """``Note 1: Any claim …`` inside clause 3.2 is the clause's note, not a heading."""
    text = ("3.1 Cover\nWe pay for storm damage.\n3.2 Claims\nTell us within 30 days of the loss.\n"
            "Note 1: Any claim made late may be refused by us.\n3.3 Cancellation\nYou may cancel.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.clause for c in chunks] == ["3.1", "3.2", "3.3"], paths(chunks)


def test_a_worded_family_nests_where_the_stack_rule_puts_it() -> None:
    """``Claim 1 –`` among a section's examples is inside that section (a
    word of the list, ``SECTION``, would sit above the outline); the next
    section ends it."""
    text = ("Read this wording with your schedule.\nA. CLAIMS EXAMPLES\n"
            "Below are some examples of how we pay claims.\n"
            "Claim 1 \u2013 Repairing your home\nA storm damages your roof.\n"
            "Claim 2 \u2013 Replacing your contents\nSomeone steals your laptop.\n"
            "B. YOUR PREMIUM\nYou pay the premium each month.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert chunk_with(chunks, "storm damages").clause == "A.Claim 1", paths(chunks)
    laptop = chunk_with(chunks, "steals your laptop")
    assert laptop.clause == "A.Claim 2" and laptop.text.startswith("Claim 2 \u2013 Replacing")
    assert chunk_with(chunks, "each month").clause == "B"


def test_a_title_alone_ends_a_worded_level() -> None:
    """A heading without a number after a worded level is its sibling, not
    its child: ``Coverage D -`` does not hold ``SPECIAL COVERAGE FEATURES``."""
    text = ("SECTION I - PROPERTY COVERAGES\nWe insure the property described below.\n"
            "Coverage D - Additional Living Expense\nWe pay your extra costs of living elsewhere.\n"
            "SPECIAL COVERAGE FEATURES\nIn addition to the insurance above, your policy provides these.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    features = chunk_with(chunks, "In addition to")
    assert "Additional Living Expense" not in features.heading_path, paths(chunks)


def test_a_worded_line_the_layout_sets_apart_is_read_as_a_styled_heading() -> None:
    """From a PDF the layout is the stronger evidence: a bold ``Claim 3 –``
    heading wrapped over two lines is one heading, cited by its word and value."""
    page = [("How we pay claims", BOLD), body("Below are examples of how we may pay some claims."),
            ("Claim 3 \u2013 Your home and contents are", BOLD), ("totally destroyed", BOLD),
            body("A fire destroys your home and all of its contents."), body("We pay you the sum insured.")]
    chunks = read([COVER, page])
    fire = chunk_with(chunks, "A fire destroys")
    assert fire.heading_path.split(" > ")[-1] == "Your home and contents are totally destroyed", paths(chunks)
    assert fire.clause == "Claim 3" and "totally destroyed" not in fire.text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["Coverage", "CHANGE", "List", "Clause", "Endorsement"]),
       st.sampled_from(["-", "\u2013", ":", ")"]), st.sampled_from(["letters", "digits", "roman"]),
       st.lists(st.integers(0, 3), min_size=1, max_size=4), st.integers(1, 5))
def test_generated_worded_families_keep_every_item_at_its_path(word: str, sep: str, values: str, items, pieces: int) -> None:
    """A family of any word, separator and kind of value, each member with a
    few items: every item's chunk carries its member's value and heading,
    ids are unique, no word is lost, and the output is the same however fed."""
    printed = {"letters": "ABCD", "digits": ["1", "2", "3", "4"], "roman": ["I", "II", "III", "IV"]}[values]
    lines = ["This wording and your schedule are your contract."]
    expected = []
    for n, count in enumerate(items):
        value = printed[n]
        heading = f"{word} {value} {sep} Member Number {n}"
        lines += [heading, "The terms below apply to this member."]
        for i in range(1, count + 1):
            lines.append(f"{i}. Thing{n}x{i} is covered as described here.")
            expected.append((f"{word} {value}.{i}", f"Member Number {n}", f"Thing{n}x{i}"))
    chunks = read_generated(lines, pieces)
    for clause, heading, thing in expected:
        holder = the_chunk_of(chunks, thing)
        assert holder.clause == clause, (clause, paths(chunks))
        assert holder.heading_path.startswith(heading), (heading, paths(chunks))


def test_a_prefixed_label_alone_takes_its_title_from_the_next_line() -> None:
    """``SECTION II`` alone on its line, as ``pdftotext -raw`` prints a
    centred label over its title: the title is the next line's."""
    text = ("SECTION I - PROPERTY COVERAGES\nWe insure the property described below.\n"
            "Coverage D - Additional Living Expense\nWe pay your extra costs of living elsewhere.\n"
            "SECTION II\nINSURANCE OF YOUR LIABILITY TO OTHERS\nWe pay what you must pay as damages.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    damages = chunk_with(chunks, "must pay as damages")
    assert (damages.clause, damages.heading_path) == ("II", "INSURANCE OF YOUR LIABILITY TO OTHERS"), paths(chunks)


def test_a_word_of_the_list_before_a_word_is_a_title_not_a_label() -> None:
    """``SCHEDULE OF FORMS AND ENDORSEMENTS``, set large: a title. A list
    word's value is a letter, a roman numeral or a number (``SCHEDULE A``,
    ``PART IV``), never a word such as ``OF``."""
    page = [("SCHEDULE OF FORMS AND ENDORSEMENTS", BOLD), ("", None), body("The forms below make up this policy."),
            body("Each applies as its own text says."), ("", None), ("PART IV - CLAIMS", BOLD), ("", None),
            body("Tell us of a claim at once.")]
    chunks = read([COVER, page])
    forms = chunk_with(chunks, "forms below make up")
    assert (forms.clause, forms.heading_path) == (None, "SCHEDULE OF FORMS AND ENDORSEMENTS"), paths(chunks)
    assert chunk_with(chunks, "claim at once").clause == "IV"


def test_a_word_of_the_list_titles_its_section_in_any_case() -> None:
    """``Section 2: Fire and theft``: after a word of the list the text is a
    title in sentence case too (UK wordings print them so), and the headings
    alone in text under it are its subheadings, not the text of an item."""
    text = ("This booklet tells you about your cover.\nSection 1: Liability\nWe cover injury to other people.\n"
            "Section 2: Fire and theft\nWe cover your car if it is stolen.\nCar hire\nWe pay for a hire car.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.clause, c.heading_path) for c in chunks] == [
        (None, ""), ("1", "Liability"), ("2", "Fire and theft"), ("2", "Fire and theft > Car hire")]
    assert_same_in_pieces(text, chunks, 4)


def test_a_sentence_after_a_word_of_the_list_is_an_item_not_a_title() -> None:
    text = "We cover you.\nSection 4: Cancellation cover ends when you travel.\nWe pay.\n"
    chunk = chunk_with(list(chunk_lines(text, real_tokens=False)), "Cancellation cover")
    assert chunk.text.startswith("Section 4: Cancellation cover ends when you travel.")  # (an item keeps its words)


SECTIONS_RESTATED = """This policy is a contract between you and us. Read it with care.
Section 1
Introduction
1.1 This Policy is Part of a Contract
The contract is made of this policy and the schedule.
1.2 Words With Special Meaning
Words in bold have the meaning given in section 2.
Section 2
Liability Coverage
2.1 What We Cover
We cover your legal liability for damage.
2.2 What We Do Not Cover
We do not cover damage you intend.
Section 3
Claims
This section tells you how to claim. Call us first.
3.1 Reporting
Report a claim within 30 days.
"""


def test_decimal_clauses_that_restate_their_section_s_number_are_its_items() -> None:
    """``Section 1`` ⏎ ``1.1 …``: the clause's first number is the section's,
    not an item below it (``1.1``, not ``1.1.1``), and ``Section 3`` after
    ``2.2`` opens again under the decimal clauses."""
    chunks = list(chunk_lines(SECTIONS_RESTATED, real_tokens=False))
    assert [(c.id, c.clause, c.heading_path) for c in chunks] == [
        ("front", None, ""),
        ("1.1", "1.1", "Introduction > This Policy is Part of a Contract"),
        ("1.2", "1.2", "Introduction > Words With Special Meaning"),
        ("2.1", "2.1", "Liability Coverage > What We Cover"),
        ("2.2", "2.2", "Liability Coverage > What We Do Not Cover"),
        ("3", "3", "Claims"),
        ("3.1", "3.1", "Claims > Reporting")]
    assert_balanced(SECTIONS_RESTATED)


def test_a_numeral_is_restated_and_a_letter_is_not() -> None:
    """``Part II`` then ``2.1``: the clause says the part's number once, as a
    numeral's value; ``Section A`` then ``1.1`` is no restatement (A is no
    number), whichever letter: the clauses are the section's text alike."""
    roman = ("This policy is a contract between you and us.\nPart I\nIntroduction\n1.1 Words With Meanings\n"
             "The words in bold are defined.\nPart II\nCoverages\n2.1 Liability\nWe pay for harm.\n")
    assert [(c.id, c.clause) for c in chunk_lines(roman, real_tokens=False)] == [
        ("front", None), ("1.1", "1.1"), ("2.1", "2.1")]
    letters = ("This policy is a contract between you and us.\nSection A\nIntroduction\n1.1 This Policy\n"
               "The policy text here.\nSection B\nCoverages\n1.1 Liability\nWe pay for harm.\n")
    assert [(c.id, c.clause) for c in chunk_lines(letters, real_tokens=False)] == [
        ("front", None), ("A", "A"), ("B", "B")]


def test_a_heading_without_a_number_between_a_section_and_its_clauses_keeps_their_citation() -> None:
    """``Section 1`` ⏎ ``Introduction`` ⏎ … ⏎ ``General Terms`` ⏎ ``1.1 …``: the
    title alone between the label and its clauses does not make ``1.1`` cite
    the section's number twice."""
    text = ("Section 1\nIntroduction\nThe policy starts here.\nGeneral Terms\nThese apply to all cover.\n"
            "1.1 This Policy is Part of a Contract\nThe policy text here.\n1.2 Who is insured\n"
            "You and your spouse.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.clause for c in chunks] == ["1", "1", "1.1", "1.2"]
    assert chunks[2].heading_path == "Introduction > General Terms > This Policy is Part of a Contract"
    assert_balanced(text)


def test_a_dash_set_close_after_a_word_s_value_ends_the_label() -> None:
    """``Section I—Your Property``, the dash set with no space around it as
    typesetters set an em dash: the section's label and its title, as with
    spaces."""
    text = ("Section I—Your Property\n\nWe cover your dwelling against sudden loss.\n\n"
            "Section II—Family Liability\n\nWe pay for the harm you do to others.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.clause, c.heading_path) for c in chunks] == [("I", "Your Property"), ("II", "Family Liability")]
    assert_balanced(text)


@pytest.mark.parametrize("dash", ["-", "\u2010", "\u2012", "\u2013", "\u2014", "\u2212", "\ufe63", "\uff0d"])
def test_any_dash_a_typesetter_picks_sets_off_a_part_s_title(dash: str) -> None:
    """``Part 1 − Benefits`` with a minus sign (U+2212) where others print an
    en dash: a part's label and its title whatever the dash, and the items
    under it are the part's."""
    text = (f"Part 1 {dash} Benefits\n\nA. Death\nWe pay the sum insured.\n\nB. Disablement\nWe pay it too.\n\n"
            f"Part 2 {dash} Optional Benefits\n\n1. Smart Device\nWe pay for the device.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.clause for c in chunks] == ["1.A", "1.B", "2.1"]
    assert chunks[0].heading_path.startswith("Benefits") and chunks[2].heading_path.startswith("Optional Benefits")
    assert_balanced(text)


def test_a_section_put_between_two_is_a_section_of_its_own() -> None:
    """``Section 1a`` and ``Section 1b`` before ``Section 2``: sections put
    in after the numbering was made, each cited by its label."""
    text = ("Section 1a – Buildings\n\nWe cover the buildings.\n\nSection 1b – Flats\n\nWe cover the flats.\n\n"
            "Section 2 – Contents\n\nWe cover the contents.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.clause, c.heading_path) for c in chunks] == [("1a", "Buildings"), ("1b", "Flats"), ("2", "Contents")]
    assert_balanced(text)


def test_a_range_after_a_word_of_the_list_is_no_label() -> None:
    """A dash set close is a label's end only before a capital: ``Section
    1–3 days`` is a range, ``Section 2–207.`` a statute's number."""
    text = ("SECTION 1 - COVER\n\n1. We pay for the loss.\n\n2. We pay the cost.\n\nSECTION 2 - CLAIMS\n\n"
            "1. Tell us.\nThe waiting periods are:\nSection 1–3 days for illness;\nSection 2–7 days for injury.\n\n"
            "2. Send us the receipts.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.clause for c in chunks] == ["1.1", "1.2", "2.1", "2.2"]
    assert "Section 2–7 days for injury." in chunks[2].text


def test_a_word_of_the_list_may_be_joined_to_its_value_by_a_dash() -> None:
    """``ANNEXURE-1``, ``ANNEXURE-2``: no space around the dash, as Indian
    wordings print them; each is a label of the list's word, so the second is
    the first's sibling, not text inside its last item."""
    text = ("ANNEXURE-1\nList of Non-Medical Expenses\n1. Baby food is not payable.\n"
            "2. Belts and braces are payable after surgery.\n\n"
            "ANNEXURE-2\nInsurance Ombudsman offices\nThe contact details of the Ombudsman offices are below.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [(c.clause, c.heading_path.split(" > ")[0]) for c in chunks] == [
        ("1.1", "List of Non-Medical Expenses"), ("1.2", "List of Non-Medical Expenses"),
        ("2", "Insurance Ombudsman offices")]
    assert "ANNEXURE" not in chunks[1].text


def test_a_list_of_its_own_word_goes_on_after_rows_numbered_as_sections() -> None:
    """``List I – Optional Items`` holds rows ``1 BABY FOOD Not Payable`` …,
    numbered as decimal sections are; ``List II – Items that are to be
    subsumed into Room Charges`` (nine words: no short title) is the next
    list, not text of the last row."""
    text = ("ANNEXURE - 1\nList of Non-Medical Expenses\nList I – Optional Items\nSr. No Item Payable\n"
            "1 BABY FOOD Not Payable\n2 BABY UTILITIES CHARGES Not Payable\n3 BEAUTY SERVICES Not Payable\n"
            "List II – Items that are to be subsumed into Room Charges\nSr. No Item\n"
            "1 BABY CHARGES (UNLESS SPECIFIED/INDICATED)\n2 HAND WASH\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    last_row = next(c for c in chunks if "BEAUTY SERVICES" in c.text)
    assert "List II" not in last_row.text and last_row.clause == "1.List I.3"
    assert next(c for c in chunks if "HAND WASH" in c.text).clause.startswith("1.List II")
    assert_balanced(text)



def test_a_wrapped_reference_to_the_next_list_opens_nothing() -> None:
    """``… may not move to the shared sum insured of`` ⏎ ``Option 2 – Floater
    cover, until the next renewal of the policy.``: the next value of an open
    ``Option`` level, but a sentence's end, not a title; row 2 stays whole and
    the real ``Option 2 – Floater Sum Insured`` opens the next list."""
    text = ("ANNEXURE - 1\nPlan options\nOption 1 – Individual Sum Insured\nSr. No Condition\n"
            "1 Each insured member has a separate sum insured for the policy year.\n"
            "2 A member may not move to the shared sum insured of\n"
            "Option 2 – Floater cover, until the next renewal of the policy.\n"
            "3 Claims by one member do not reduce the sum insured of another.\n"
            "Option 2 – Floater Sum Insured\nSr. No Condition\n1 All members share one sum insured.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert next(c for c in chunks if "until the next renewal" in c.text).clause == "1.Option 1.2"
    assert next(c for c in chunks if "share one sum" in c.text).clause == "1.Option 2"

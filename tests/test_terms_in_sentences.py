"""A wording that sets each defined term in bold wherever it stands (UK
wordings do: **We**, **You**, **Policy**, **Valuables**) prints bold words at
the start of lines that are no headings and no definitions: a term where a
sentence wraps, a pronoun that starts a sentence, a term before a list."""

from __future__ import annotations

from stream_chunker.core.layout import Layout, run_in_terms, standing_out

from .test_styled_headings import BODY, BOLD, COVER, FILLER, body, read


def test_a_bold_term_where_a_sentence_wraps_is_no_heading() -> None:
    lines = ["Please keep the documents we send you under the", "Policy", "and read them with care.", "We pay."]
    assert standing_out(lines, [BODY, BOLD, BODY, BODY], BODY) == []
    lines[0] = "Please keep the documents we send you."  # (a sentence ended: the same line is a heading)
    assert standing_out(lines, [BODY, BOLD, BODY, BODY], BODY) == [(1, 2, 10.25)]
    mixed = ["Any cash left in", "Valuables and Electrical Valuables", "in the open.", "We pay."]  # (a bold word in it)
    assert standing_out(mixed, [None, BOLD, BODY, BODY], BODY) == []


def test_a_pronoun_that_opens_a_sentence_is_no_definitions_term() -> None:
    for line in ("We may not meet your claim if you delay", "You, and anyone covered, must not admit"):
        term = line.split()[0].rstrip(",")
        assert run_in_terms(["We pay.", line], [BODY, None], [0, len(term)]) == []
    assert run_in_terms(["We pay.", "Partner Your spouse"], [BODY, None], [0, 8]) == [(1, "Partner")]


def test_a_term_with_no_text_after_it_leads_into_its_list() -> None:
    assert run_in_terms(["We pay.", "We;", "a) are not liable to pay"], [BODY, None, BODY], [0, 2, 0]) == []
    layout = Layout()
    layout.note(1, FILLER * 30, [BODY])
    layout.note(2, "Things we say.\nWe;\na) are not liable to pay", [BODY, None, BODY], [0, 2, 0])
    assert layout.term(3) is None


def test_the_sentence_a_bold_term_goes_on_with_stays_in_its_section() -> None:
    page = [("How to make a claim", BOLD), body("You must tell us of the loss and keep the documents under the"),
            ("Policy", BOLD), body("for as long as the claim is open."), ("", None),
            body("We will reply to you within ten days of the claim."), ("", None)]
    chunks = read([COVER, page])
    claim = [c for c in chunks if "keep the documents" in c.text]
    assert len(claim) == 1 and "for as long as" in claim[0].text and claim[0].heading_path == "How to make a claim"


def test_a_part_named_in_bold_at_a_sentence_s_start_is_no_term() -> None:
    """``SECTION I describes the insurance on your property.``: the part's
    name set in bold opens a sentence about it, no definition of it."""
    line = "SECTION I describes the insurance on your property."
    assert run_in_terms(["We pay.", line], [BODY, None], [0, 9]) == []
    assert run_in_terms(["We pay.", "Section 2: the cover for your contents."], [BODY, None], [0, 10]) == []
    assert run_in_terms(["We pay.", "Business Property Property that is used"], [BODY, None], [0, 17]) == [
        (1, "Business Property")]


def test_a_term_defined_again_is_a_definition_again() -> None:
    """A glossary defines a term once, so a term seen again is a term in
    use -- unless its text says it defines it: a section's own definitions
    (``"Business Property" means …`` in Section II, after Section I's)."""
    layout = Layout()
    layout.note(1, FILLER * 30, [BODY])
    first = ["Things we say.", '"Business Property" means property used for a business.', "Damage caused by storm."]
    layout.note(2, "\n".join(first), [BODY, None, None], [0, 19, 7])
    again = ["Other things we say.", '"Business Property" means the property of a business.',
             "Damage caused by flood.", "Business Property is insured for theft."]
    layout.note(5, "\n".join(again), [BODY, None, None, None], [0, 19, 7, 17])
    assert [layout.term(line) for line in (3, 4)] == ["Business Property", "Damage"]
    assert [layout.term(line) for line in (6, 7, 8)] == ["Business Property", None, None]


def test_a_term_after_an_item_s_line_that_leads_on_is_a_term_in_use() -> None:
    lines = ["(a) The ownership of any animal kept on behalf of the", "Insured Person of any animal or pet."]
    assert run_in_terms(lines, [BODY, None], [0, 14]) == []
    assert run_in_terms(["(b) loss of or damage to property", "Act of Terrorism Use of force"], [BODY, None],
                        [0, 17]) == [(1, "Act of Terrorism")]


def test_a_pronoun_or_a_part_that_is_defined_is_a_term() -> None:
    """What keeps ``We may not meet …`` from being a definition must not drop
    a definition of ``We``: one its text defines (``means``), or one set off
    from its text by a colon or a dash."""
    for line, lead in (("You means the person named in the schedule.", 3), ("You: the person named.", 3),
                       ("You – the policyholder.", 3), ("Coverage A means the dwelling.", 10)):
        assert run_in_terms(["We pay.", line], [BODY, None], [0, lead]) == [(1, line[:lead])]


def test_a_capital_letter_is_no_word_that_leads_on() -> None:
    """``… under Coverage A`` ends on a label's value, not on the article ``a``:
    the bold line right under it is a heading."""
    assert standing_out(["We pay for loss under Coverage A", "Losses We Cover", "We pay.", "We pay."],
                        [BODY, BOLD, BODY, BODY], BODY) == [(1, 2, 10.25)]


def test_includes_is_no_definition_again() -> None:
    """``Contents includes property removed …`` in a section, after the
    glossary defined ``Contents``: the term in use, not a definition."""
    layout = Layout()
    layout.note(1, FILLER * 30, [BODY])
    layout.note(2, "Things we say.\nContents Household goods and personal things.", [BODY, None], [0, 8])
    layout.note(4, "We pay for your contents by fire.\nContents includes property removed from your home.",
                [BODY, None], [0, 8])
    assert layout.term(3) == "Contents" and layout.term(5) is None

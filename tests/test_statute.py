"""The statute profile: label shapes, the sequence rule, pieces, ids and citations."""

from __future__ import annotations

from typing import List

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunk, chunk_lines


def _chunks(lines: List[str], **options) -> List[Chunk]:
    options.setdefault("real_tokens", False)
    options.setdefault("profile", "statute")
    return list(chunk_lines(lines, **options))


def _clauses(lines: List[str], **options) -> List[str]:
    return [c.clause for c in _chunks(lines, **options)]


SECTION = "\u00a7 16-112. Stopping, standing, and parking."


def test_section_line_catchline_and_ids():
    chunks = _chunks([SECTION, "(a) A person may not stop a vehicle.", "(b) Nor park it."], code="MD",
                     cite="Md. Code, Transp. \u00a7 {section}")
    assert [c.id for c in chunks] == ["MD-C-16-112-a", "MD-C-16-112-b"]
    assert [c.clause for c in chunks] == ["16-112(a)", "16-112(b)"]
    assert chunks[0].heading_path == "Stopping, standing, and parking"
    assert chunks[0].citation == "Md. Code, Transp. \u00a7 16-112(a) \u2014 '(a) A person may not stop a vehicle.'"


def test_nested_label_under_c_stays_in_c():
    lines = [SECTION, "(a) First.", "(b) Second.", "(c) Third, as follows:", "(1) one;", "(2) two.", "(d) Fourth."]
    assert _clauses(lines, max_chars=20) == [
        "16-112(a)", "16-112(b)", "16-112(c)", "16-112(c)(1)", "16-112(c)(2)", "16-112(d)"]
    # With room enough, (c) is one piece that holds its nested items.
    pieces = _chunks(lines)
    assert [c.clause for c in pieces] == ["16-112(a)", "16-112(b)", "16-112(c)", "16-112(d)"]
    assert "(1) one; (2) two." in pieces[2].text


def test_i_after_h_is_the_ninth_subsection_but_under_a_it_is_roman():
    letters = [f"({chr(c)}) Item {chr(c)}." for c in range(ord("a"), ord("i") + 1)]
    assert _clauses([SECTION] + letters)[-1] == "16-112(i)"
    roman = _clauses([SECTION, "(a) Items:", "(i) one;", "(ii) two;", "(b) Next."], max_chars=12)
    assert roman == ["16-112(a)", "16-112(a)(i)", "16-112(a)(ii)", "16-112(b)"]


def test_inserted_labels_sit_between_their_neighbours():
    lines = [SECTION, "(a) One.", "(a1) Inserted, North Carolina.", "(a2) And another.",
             "(b) Two.", "(b\u20131) Inserted, en dash.", "(c) Three:", "(1) one;", "(2) two;", "(2A) inserted;",
             "(3) three;", "(3.5) Colorado.", "(d) Four.", "(d-1) Inserted, hyphen.", "(e) Five."]
    clauses = _clauses(lines, max_chars=30)
    assert clauses == ["16-112(a)", "16-112(a1)", "16-112(a2)", "16-112(b)", "16-112(b\u20131)",
                       "16-112(c)", "16-112(c)(1)", "16-112(c)(2)", "16-112(c)(2A)", "16-112(c)(3)",
                       "16-112(c)(3.5)", "16-112(d)", "16-112(d-1)", "16-112(e)"]


def test_inserted_label_ids_never_collide_with_nested_ones():
    chunks = _chunks([SECTION, "(a) One:", "(1) nested.", "(a-1) Inserted."], code="MD", max_chars=12)
    assert [c.id for c in chunks] == ["MD-C-16-112-a", "MD-C-16-112-a-1", "MD-C-16-112-a_1"]


def test_roman_numerals_and_the_letter_v():
    bare = _clauses([SECTION, "I. One.", "II. Two.", "III. Three.", "IV. Four.", "V. Five."])
    assert bare == ["16-112(I)", "16-112(II)", "16-112(III)", "16-112(IV)", "16-112(V)"]
    letters = [f"{chr(c)}. Item." for c in range(ord("A"), ord("V") + 1)]
    assert _clauses([SECTION] + letters)[-1] == "16-112(V)"
    assert len(_clauses([SECTION] + letters)) == 22


def test_after_z_the_letters_double_as_ohio_writes_them():
    labels = [f"({chr(c)}) Item." for c in range(ord("A"), ord("Z") + 1)] + ["(AA) Item.", "(BB) Item.",
                                                                             "(ZZZ) Not next."]
    clauses = _clauses(["Sec. 4511.01. Definitions."] + labels)
    assert clauses[25:] == ["4511.01(Z)", "4511.01(AA)", "4511.01(BB)"]
    assert "(ZZZ) Not next." in _chunks(["Sec. 4511.01. Definitions."] + labels)[-1].text


def test_maine_and_arizona_bare_labels_and_the_hydrant():
    arizona = ["\u00a7 28-873. Stopping, standing or parking prohibited.",
               "A. A person shall not stop, stand or park a vehicle:",
               "1. On a sidewalk.", "2. In front of a public or private driveway.",
               "3. Within an intersection.", "4. On a crosswalk.",
               "5. Within fifteen feet of a fire hydrant.",
               "6. Within twenty feet of a crosswalk at an intersection.",
               "B. A person shall not move a vehicle that is not lawfully under the person's control."]
    chunks = _chunks(arizona, code="AZ", cite="A.R.S. \u00a7 {section}", max_chars=200)
    hydrant = next(c for c in chunks if "fire hydrant" in c.text)
    assert hydrant.id == "AZ-C-28-873-A-5"
    assert hydrant.clause == "28-873(A)(5)"
    assert hydrant.text == "5. Within fifteen feet of a fire hydrant."
    assert hydrant.citation == "A.R.S. \u00a7 28-873(A)(5) \u2014 '5. Within fifteen feet of a fire hydrant.'"
    maine = _clauses(["\u00a7 2051. Definitions.", "1. One.", "1-A. Inserted.", "2. Two."])
    assert maine == ["2051(1)", "2051(1-A)", "2051(2)"]


def test_chained_labels_open_each_level():
    clauses = _clauses(["\u00a7 42-4-1202. Parking.", "(1) One.", "(1.5)(a)(I) Deep start.", "(II) Next roman."],
                       max_chars=20)
    assert clauses == ["42-4-1202(1)", "42-4-1202(1.5)(a)(I)", "42-4-1202(1.5)(a)(II)"]
    assert _clauses([SECTION, "(a)(1) Both at once.", "(2) Then two."], max_chars=20) == [
        "16-112(a)(1)", "16-112(a)(2)"]


def test_wrapped_reference_is_text():
    lines = [SECTION, "(a) Except as provided in subsection", "(b) of this section, a person may not stop.",
             "(b) A second subsection."]
    chunks = _chunks(lines)
    assert [c.clause for c in chunks] == ["16-112(a)", "16-112(b)"]
    assert chunks[0].text == "(a) Except as provided in subsection (b) of this section, a person may not stop."


def test_a_label_after_a_clause_end_or_a_blank_line_is_licensed():
    assert _clauses([SECTION, "(a) The rules are these; and", "(b) more."]) == ["16-112(a)", "16-112(b)"]
    assert _clauses([SECTION, "(a) Text that stops", "", "(b) after a blank line."]) == ["16-112(a)", "16-112(b)"]


def test_citation_at_a_line_start_opens_no_section():
    lines = [SECTION, "(a) As amended by Pub. L. 100-690, title VIII,",
             "\u00a78001(a)(1), (2), Nov. 18, 1988, 102 Stat. 4517.", "(b) Next."]
    chunks = _chunks(lines)
    assert [c.clause for c in chunks] == ["16-112(a)", "16-112(b)"]
    assert "\u00a78001(a)(1)" in chunks[0].text


def test_banner_and_own_number_lines_are_dropped_for_a_given_section():
    lines = ["Article \u2013 Transportation", "\u00a716-112.", "(a) A person may not stop.", "(b) Nor park."]
    chunks = _chunks(lines, section="16-112", heading="Stopping", code="MD", cite="Md. Code, Transp. \u00a7 {section}",
                     as_of="2024-10-01")
    assert [c.id for c in chunks] == ["MD-C-16-112-a", "MD-C-16-112-b"]
    assert all(c.heading_path == "Stopping" for c in chunks)
    assert "Transportation" not in " ".join(c.text for c in chunks)


def test_as_of_can_go_into_the_citation():
    chunks = _chunks(["(a) Text."], section="16-112", cite="Md. Code, Transp. ({as_of}) \u00a7 {section}",
                     as_of="2024-10-01")
    assert chunks[0].citation == "Md. Code, Transp. (2024-10-01) \u00a7 16-112(a) \u2014 '(a) Text.'"


def test_nevada_catchline_then_text_on_the_same_line():
    chunks = _chunks(["NRS 432B.010 Definitions. As used in this chapter, the words have these meanings."],
                     section_prefix="NRS", code="NV")
    assert chunks[0].heading_path == "Definitions"
    assert chunks[0].text == "As used in this chapter, the words have these meanings."
    assert chunks[0].id == "NV-C-432B.010-p1"


def test_colorado_numbers_without_a_marker():
    chunks = _chunks(["16-2.5-112.5. Peace officers. The following are peace officers:", "(a) Sheriffs."],
                     code="CO")
    assert [c.id for c in chunks] == ["CO-C-16-2.5-112.5-p1", "CO-C-16-2.5-112.5-a"]


def test_a_section_printed_twice_gets_distinct_ids():
    lines = [SECTION, "(a) Old version.", SECTION, "(a) New version."]
    assert [c.id for c in _chunks(lines, code="MD")] == ["MD-C-16-112-a", "MD-C-16-112~2-a"]


def test_section_lines_without_text_use_no_number_up():
    lines = ["\u00a7 16-111. Contents entry.", "\u00a7 16-112. Contents entry.", "\u00a7 16-111. Real.", "(a) Text."]
    assert [c.id for c in _chunks(lines, code="MD")] == ["MD-C-16-111-a"]


def test_long_item_is_cut_at_the_cap_on_line_boundaries():
    lines = [SECTION, "(a) Start of a long item"] + [f"line {i} of the item goes on" for i in range(40)]
    chunks = _chunks(lines, max_chars=200)
    assert [c.id for c in chunks][:3] == ["16-112-a", "16-112-a-p2", "16-112-a-p3"]
    assert all(len(c.text) <= 200 for c in chunks)
    assert " ".join(c.text for c in chunks) == " ".join(lines[1:])


def test_token_cap_instead_of_characters():
    lines = [SECTION, "(a) " + "word " * 30, "(b) short."]
    chunks = _chunks(lines, max_tokens=20)
    assert chunks[0].oversize == "kept" and chunks[0].tokens > 20
    assert chunks[1].tokens <= 20 and chunks[1].oversize is False


# -- notes after a section's text -------------------------------------------------

def test_notes_are_a_group_of_their_own_and_open_no_labels():
    lines = [SECTION, "(a) A person may not stop a vehicle.", "(b) Nor park it.", "Notes",
             "History: Sept. 18, 1982, D.C. Law 4-155, \u00a7 2.", "(c) of this section was repealed.",
             "\u00a7 16-113. Lights.", "(a) Lights must be on."]
    seen = []
    chunks = _chunks(lines, code="MD", cite="Md. Code, Transp. \u00a7 {section}", on_diagnostic=seen.append)
    assert [c.id for c in chunks] == ["MD-C-16-112-a", "MD-C-16-112-b", "MD-C-16-112-notes", "MD-C-16-113-a"]
    notes = chunks[2]
    assert notes.text == " ".join(lines[3:6])
    assert notes.clause == "16-112" and notes.heading_path == "Stopping, standing, and parking"
    assert notes.citation.startswith("Md. Code, Transp. \u00a7 16-112, notes \u2014 'Notes History:")
    assert chunks[1].text == "(b) Nor park it."
    assert seen == []  # the label-shaped line in the notes is not an ambiguous label


def test_a_source_credit_opens_the_notes_and_long_notes_continue():
    lines = ["\u00a7 201. Short title", "This subchapter may be cited as the Act.",
             "(Aug. 29, 1935, ch. 814, title I, \u00a7101, 49 Stat. 977.)", "AMENDMENTS"]
    lines += [f"1988\u2014Subsec. ({c}). Pub. L. 100\u2013690 amended the text." for c in "abcdefgh"]
    chunks = _chunks(lines, code="USC", max_chars=120)
    assert [c.id for c in chunks][:2] == ["USC-C-201-p1", "USC-C-201-notes"]
    assert all(c.id.startswith("USC-C-201-notes") for c in chunks[1:]) and len(chunks) > 2
    assert chunks[1].text.startswith("(Aug. 29, 1935")
    assert " ".join(c.text for c in chunks) == " ".join(lines[1:])


def test_a_wrapped_date_or_law_in_the_text_opens_no_notes():
    lines = [SECTION, "(a) The fee in force on", "(July 1, 2004, as adjusted) applies.",
             "(b) The term Act means the Anti-Drug Abuse Act of 1986", "(Pub. L. 99\u2013570, title I).",
             "(c) A person may not stand."]
    assert [c.id for c in _chunks(lines, code="X")] == ["X-C-16-112-a", "X-C-16-112-b", "X-C-16-112-c"]


def test_a_section_after_notes_opens_even_when_its_text_starts_with_a_label():
    lines = [SECTION, "(a) A person may not stop.", "Notes", "History: 1982.",
             "\u00a7 16-113. (a) Lights must be on.", "(b) Horns must work."]
    chunks = _chunks(lines, code="X")
    # The section line's text is its catchline, as it was before notes existed.
    assert [c.id for c in chunks] == ["X-C-16-112-a", "X-C-16-112-notes", "X-C-16-113-p1"]
    assert (chunks[-1].heading_path, chunks[-1].text) == ("(a) Lights must be on", "(b) Horns must work.")


# -- a property over generated sections -------------------------------------------

LABELS = ["(a)", "(b)", "(c)", "(1)", "(2)", "(3)", "(A)", "(B)", "(i)", "(ii)", "(a-1)", "(2A)", "A.", "1."]
WORDS = ["the", "owner", "shall", "not", "park", "vehicle", "within", "feet", "of", "a", "hydrant"]
ENDS = [".", ";", ":", "; or", ",", ""]


@st.composite
def sections(draw):
    lines = ["\u00a7 5-101. Parking rules."]
    for _ in range(draw(st.integers(0, 25))):
        words = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12)))
        if draw(st.integers(0, 20)) == 0:
            lines.append("Notes")
        elif draw(st.booleans()):
            lines.append(f"{draw(st.sampled_from(LABELS))} {words}{draw(st.sampled_from(ENDS))}")
        else:
            lines.append(words + draw(st.sampled_from(ENDS)))
    return lines


@given(sections(), st.integers(30, 400))
def test_pieces_are_verbatim_source_and_nothing_is_lost(lines, cap):
    chunks = _chunks(lines, max_chars=cap, code="T")
    source = " ".join(lines[1:])
    for chunk in chunks:
        assert chunk.text in source
        assert chunk.oversize == "kept" or len(chunk.text) <= cap
    assert " ".join(c.text for c in chunks) == source
    ids = [c.id for c in chunks]
    assert len(ids) == len(set(ids))
    # From the first "Notes" line on, everything is the section's notes, and only that.
    if "Notes" in lines:
        notes = " ".join(lines[lines.index("Notes"):])
        assert " ".join(c.text for c in chunks if c.id.startswith("T-C-5-101-notes")) == notes


@pytest.mark.parametrize("cap", [60, 900])
def test_every_labelled_line_lands_in_a_piece(cap):
    lines = [SECTION] + [f"({chr(c)}) Item {chr(c)}." for c in range(ord("a"), ord("z") + 1)]
    chunks = _chunks(lines, max_chars=cap)
    text = " ".join(c.text for c in chunks)
    for line in lines[1:]:
        assert line in text

"""A list's item may end in an amount as a table's row does (``3. an amount
below £100.``): the next item of a list open above it is an item; a numbered
row of a table of benefits opens no list and stays in its table's text."""

from __future__ import annotations

from stream_chunker import chunk_lines

from .test_word_balance import assert_balanced

EXCLUSIONS = """LEGAL EXPENSES
Exclusions
We will not pay for:
1. legal costs incurred without our consent.
2. any dispute happening before the policy started.
3. an amount below £100.
4. an allegation against you involving fraud or bribery.
5. a judicial review.
Benefits
The most we will pay is set out below.
1 Cancellation £5,000
2 Baggage £1,500
3 Legal expenses £25,000
"""


def test_an_item_that_ends_in_an_amount_goes_on_its_list() -> None:
    chunks = list(chunk_lines(EXCLUSIONS, real_tokens=False))
    items = {c.clause: c.text for c in chunks if c.clause}
    assert sorted(items) == ["1", "2", "3", "4", "5"]
    assert items["3"] == "3. an amount below £100." and items["4"].startswith("4. an allegation")
    benefits = next(c for c in chunks if "Cancellation" in c.text)  # (the table's rows: no items of their own)
    assert "1 Cancellation £5,000" in benefits.text and "£25,000" in benefits.text
    assert_balanced(EXCLUSIONS)


def test_a_numbered_table_after_a_list_stays_a_table() -> None:
    """A table of benefits numbered as a list is (``1. Cancellation £5,000``
    …), after a section's items ``1.``, ``2.``: its rows open nothing, and its
    ``3.`` is no third item of the section."""
    text = ("SECTION 1 - CANCELLATION\n\n1. We will pay up to the amounts in the table below.\n\n"
            "2. We will pay for the cost of travel.\n\nTable of benefits\n\n1. Cancellation £5,000\n"
            "2. Baggage £1,500\n3. Medical expenses £10,000\n4. Personal money £500\n\nSECTION 2 - BAGGAGE\n\n"
            "1. We will pay for lost baggage.\n")
    chunks = list(chunk_lines(text, real_tokens=False))
    assert [c.clause for c in chunks] == ["1.1", "1.2", "2.1"]
    assert all(row in chunks[1].text for row in ("1. Cancellation £5,000", "3. Medical expenses £10,000"))

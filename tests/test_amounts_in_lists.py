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

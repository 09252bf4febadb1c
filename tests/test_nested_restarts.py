"""A list that starts its family again under an item whose own first
paragraph leads into it with a colon is that item's list: ``(c) The
Company will not pay for:`` ⏎ ``(i) any tax or duty;`` ⏎ ``(ii) …`` under
``(ii) Online Purchase Protection`` -- so the outer list's ``(iii)`` after
it is the outer list's, not the inner list's third."""

from __future__ import annotations

from .test_styled_headings import BIG, BOLD, COVER, body, read
from .test_word_balance import assert_balanced

ITEMS = [("(i) Smart Device Protection", BOLD), body("We pay for loss of your smart device."), ("", None),
         ("(ii) Online Purchase Protection", BOLD), body("We pay for goods bought online."),
         body("(a) The goods must be paid for in full."), body("(b) The goods must be delivered to you."),
         body("(c) The Company will not pay for:"), body("(i) any tax or duty;"),
         body("(ii) any goods bought for resale;"), body("(iii) any loss of data;"),
         body("(iv) any goods left unattended."), ("", None),
         ("(iii) Credit Card And Loan Indemnity", BOLD), body("We pay your card balance."), ("", None),
         ("(iv) Sports Equipment", BOLD), body("We pay for your sports equipment."), ("", None)]


def test_a_list_an_item_leads_into_is_that_item_s() -> None:
    chunks = read([COVER, [("Optional Benefits", BIG), ("", None)] + ITEMS])
    cited = [c.clause for c in chunks if c.clause]
    assert cited == ["(i)", "(ii)", "(ii).(a)", "(ii).(b)", "(ii).(c)", "(iii)", "(iv)"]
    inner = next(c for c in chunks if c.clause == "(ii).(c)")
    assert "any tax or duty" in inner.text and "any goods left unattended" in inner.text
    assert next(c for c in chunks if c.clause == "(iii)").heading_path.endswith("Credit Card And Loan Indemnity")


def test_a_list_after_a_paragraph_of_its_own_is_not_nested() -> None:
    """After a paragraph of its own (``After your policy has been in effect
    60 days, we will not cancel it unless:``), a list that starts again is
    not the last item's: nothing there says whose it is."""
    page = [("Cancellation", BIG), ("", None), body("1. During the first 60 days we give you 10 days notice."),
            ("", None), body("2. After the first 60 days we give you 30 days notice."), ("", None),
            body("After your policy has been in effect 60 days, we will not cancel it unless:"),
            body("1. you do not pay the premium;"), ("", None), body("2. you commit fraud in a claim."), ("", None)]
    chunks = read([COVER, page])
    assert "2.1" not in [c.clause for c in chunks]


def test_no_word_is_lost() -> None:
    assert_balanced("\n".join(text for text, _ in ITEMS))

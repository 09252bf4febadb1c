"""A set of conditions, each under a title of its own set apart and numbered
on from the one before (Canada's statutory conditions: ``Misrepresentation``
⏎ ``1.``, ``Property of Others`` ⏎ ``2.``, ``Termination`` ⏎ ``3. (1)
This contract may be terminated``): each number is its condition's."""

from __future__ import annotations

from .test_styled_headings import BIG, BOLD, COVER, body, read

CONDITIONS = [("STATUTORY CONDITIONS", BIG), ("", None),
              ("Misrepresentation", BOLD), ("", None),
              body("1. If a person applying for insurance falsely describes the property, the contract is void."),
              ("", None), ("Property of Others", BOLD), ("", None),
              body("2. Unless otherwise stated in the contract, the Insurer is not liable for property of others."),
              ("", None), ("Termination", BOLD), ("", None),
              body("3. (1) This contract may be terminated by the Insurer giving fifteen days notice."),
              body("(2) Where this contract is terminated by the Insurer, the premium is refunded."), ("", None)]


def test_each_condition_is_cited_by_its_number_under_its_title() -> None:
    chunks = read([COVER, CONDITIONS])
    cited = [(c.clause, c.heading_path.split(" > ")[-2]) for c in chunks if c.clause]
    assert cited == [("1", "Misrepresentation"), ("2", "Property of Others"), ("3", "Termination")]
    assert "Where this contract is terminated" in next(c for c in chunks if c.clause == "3").text


def test_a_list_that_starts_again_under_its_title_is_no_condition() -> None:
    """Under a title of its own a list that starts at ``1.`` again is that
    title's list, as ever: only the next number goes on."""
    page = [("What is covered", BOLD), ("", None), body("1. Storm damage to the home."), ("", None),
            body("2. Flood damage to the home."), ("", None), ("What is not covered", BOLD), ("", None),
            body("1. Wear and tear of any kind."), ("", None), body("2. Gradual deterioration."), ("", None)]
    chunks = read([COVER, page])
    cited = [(c.clause, c.heading_path.split(" > ")[0]) for c in chunks if c.clause]
    assert cited == [("1", "What is covered"), ("2", "What is covered"), ("1", "What is not covered"),
                     ("2", "What is not covered")]

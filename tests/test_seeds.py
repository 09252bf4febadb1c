"""The seed examples of SPEC §5, exactly."""

from __future__ import annotations

import pytest

from stream_chunker import chunk_lines

EXAMPLE = ["4 Exclusions", "4.1 Wear and tear", "We do not cover gradual deterioration.",
           "4.2 Escape of water", "We cover sudden escape of water", "from a fixed installation.", "",
           "14 days after the leak is found, cover ends", "unless the leak has been reported to us.",
           "5 Claims", "5.1 Reporting", "Tell us within 30 days."]

SEEDS = [
    (EXAMPLE, 400, [
        ("4.1", "Exclusions > Wear and tear", "We do not cover gradual deterioration.", 8),
        ("4.2", "Exclusions > Escape of water",
         "We cover sudden escape of water from a fixed installation.\n14 days after the leak is found, "
         "cover ends unless the leak has been reported to us.", 36),
        ("5.1", "Claims > Reporting", "Tell us within 30 days.", 7),
    ]),
    (EXAMPLE, 20, [
        ("4.1", "Exclusions > Wear and tear", "We do not cover gradual deterioration.", 8),
        ("4.2#1", "Exclusions > Escape of water", "We cover sudden escape of water from a fixed installation.", 14),
        ("4.2#2", "Exclusions > Escape of water",
         "14 days after the leak is found, cover ends unless the leak has been reported to us.", 23),
        ("5.1", "Claims > Reporting", "Tell us within 30 days.", 7),
    ]),
    (["1 Cover", "1.1 Your vehicle", "We cover your vehicle while it is parked or driven.",
      "2 or more occupants must wear seat belts.", "1.1.1 Keys", "Keys left in the vehicle void theft cover.",
      "2 Excess", "The first 250 of each claim is yours."], 400, [
        ("1.1", "Cover > Your vehicle",
         "We cover your vehicle while it is parked or driven. 2 or more occupants must wear seat belts.", 24),
        ("1.1.1", "Cover > Your vehicle > Keys", "Keys left in the vehicle void theft cover.", 11),
        ("2", "Excess", "The first 250 of each claim is yours.", 11),
    ]),
    (["3 Theft", "Theft is covered.", "", "Attempted theft too.", "", "Theft by family is not covered."], 8, [
        ("3#1", "Theft", "Theft is covered.\nAttempted theft too.", 8),
        ("3#2", "Theft", "Theft by family is not covered.", 8),
    ]),
    ([" 2 Excess ", "", " The first 250 of each claim", "is yours. ", "", "", "3 Theft"], 400, [
        ("2", "Excess", "The first 250 of each claim is yours.", 11),
    ]),
    (["4.9 Storm", "Wind damage is covered.", "4.10 Flood", "Rising water is covered.", "4.2 Theft is not."], 400, [
        ("4.9", "Storm", "Wind damage is covered.", 6),
        ("4.10", "Flood", "Rising water is covered. 4.2 Theft is not.", 11),
    ]),
    ([], 400, []),
]


@pytest.mark.parametrize("lines, cap, expected", SEEDS, ids=[f"seed{i}" for i in range(1, len(SEEDS) + 1)])
def test_seed_examples(lines, cap, expected):
    got = [(c.id, c.heading_path, c.text, c.tokens) for c in chunk_lines(lines, max_tokens=cap)]
    assert got == expected


def test_seed_oversize_flags():
    chunks = list(chunk_lines(EXAMPLE, max_tokens=20, real_tokens=False))
    assert [c.oversize for c in chunks] == [False, False, "kept", False]

"""A new label family is one unit in a copy of the policy profile's preset.

``ARTICLE 5.01 Definitions``, ``Article 5.02 Territory``, then ``ARTICLE 6
CONDITIONS``: the family below is the whole change, inserted before the
shipped families; the rules, the profile and the engine stay as they are.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import List

import pytest

from stream_chunker import chunk_lines
from stream_chunker.profiles import base
from stream_chunker.profiles.labels import Meaning
from stream_chunker.profiles.policy.families import Family
from stream_chunker.profiles.policy.profile import PolicyProfile
from stream_chunker.profiles.policy.rules import POLICY, Preset


class ArticleSections(Family):
    """``ARTICLE 5.01``: a section of article 5, cited ``5.01``. Its value is
    one inserted after article 5's (``5.01`` is ``(5, 1)`` in the article
    style), so ``ARTICLE 6`` is the next article whether ``ARTICLE 5`` was
    printed or not."""

    def __init__(self) -> None:
        super().__init__("article sections", "article_section",
                         r"(?:ARTICLE|Article)\s+(?P<article_section>\d{1,2}\.\d{2})(?=\s+[A-Z])",
                         (r"(?:ARTICLE|Article)[ \t]",))

    def meanings(self, m: "re.Match[str]") -> List[Meaning]:
        article, section = m["article_section"].split(".")
        return [Meaning("ARTICLE digit", (int(article), int(section)))]


ARTICLES = Preset((ArticleSections(), *POLICY.families), POLICY.headings, POLICY.decimal_labels, POLICY.outline_labels)

LINES = [
    "ARTICLE 5.01 Definitions", "Words in bold have the meanings given here.", "",
    "Article 5.02 Territory", "Cover applies within the United Kingdom.", "",
    "ARTICLE 6 CONDITIONS", "You must tell us of any change.",
]


@pytest.fixture
def articles(monkeypatch: pytest.MonkeyPatch) -> str:
    """The policy profile with the ``ARTICLES`` preset, registered for this test only."""
    spec = dataclasses.replace(base.profiles()["policy"], name="policy-articles",
                               factory=functools.partial(PolicyProfile, preset=ARTICLES))
    monkeypatch.setitem(base._REGISTRY, spec.name, spec)
    return spec.name


def test_a_label_family_is_one_unit_in_a_copy_of_the_preset(articles: str) -> None:
    chunks = list(chunk_lines(LINES, profile=articles))
    assert [(c.id, c.heading_path, c.text) for c in chunks] == [
        ("5.01", "Definitions", "Words in bold have the meanings given here."),
        ("5.02", "Territory", "Cover applies within the United Kingdom."),
        ("6", "CONDITIONS", "You must tell us of any change."),
    ]
    assert ARTICLES.families[1:] == POLICY.families
    assert (ARTICLES.headings, ARTICLES.decimal_labels, ARTICLES.outline_labels) == (
        POLICY.headings, POLICY.decimal_labels, POLICY.outline_labels)


def test_without_the_unit_the_article_sections_are_text() -> None:
    chunks = list(chunk_lines(LINES))
    assert [c.id for c in chunks] == ["front", "6"]
    assert chunks[0].text.startswith("ARTICLE 5.01 Definitions Words in bold")

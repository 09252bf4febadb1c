"""Every chunk of the real corpus and of the synthetic manual, byte for byte.

The hashes below are of the chunks' JSON lines (``real_tokens`` off), recorded
from the code before the engine was reshaped into stages and plug-in
profiles (issue 8): the reshape changed no chunk. A change that is meant to
change chunks records the new hash, and says why in its commit.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from benchmarks.synthetic import generate
from stream_chunker import Chunker

from .conftest import CORPUS

RECORDED = {
    ("rfc2616.txt", "policy"): "91e19707d118df15",
    ("uslm-user-guide.txt", "policy"): "2819a86b87efd173",
    ("uslm-user-guide.layout.txt", "policy"): "bdd354f914569542",
    ("insurance/sfip-dwelling-2021.txt", "policy"): "c938c2e3643aeba8",
    ("insurance/sfip-general-property-2021.txt", "policy"): "21bf8dcd8ef5f871",
    ("insurance/sfip-dwelling-2021.layout.txt", "policy"): "a430606c320aba71",
    ("insurance/sfip-general-property-2021.layout.txt", "policy"): "19a87f3efcca7fd3",
    ("usc-title27.txt", "statute"): "f905642950f94c2a",
    ("usc-title27.layout.txt", "statute"): "38807f32d23be411",
    ("dc-code-31-24.txt", "statute"): "acd405ccf2d7ec6b",
}
MANUAL = "d7736e4c38f8e348"


def _hash(text: str, profile: str) -> str:
    chunker = Chunker(profile=profile, real_tokens=False)
    chunks = chunker.feed(text) + chunker.close()
    lines = "\n".join(json.dumps(chunk.to_dict(), ensure_ascii=False) for chunk in chunks)
    return hashlib.sha256(lines.encode()).hexdigest()[:16]


@pytest.mark.parametrize("name, profile", list(RECORDED))
def test_the_corpus_chunks_are_the_recorded_ones(corpus, name, profile):
    assert _hash((CORPUS / name).read_text(encoding="utf-8"), profile) == RECORDED[(name, profile)]


def test_the_synthetic_manual_chunks_are_the_recorded_ones():
    assert _hash(generate(), "policy") == MANUAL

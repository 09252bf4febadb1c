"""Shared fixtures: the real corpus next to the repository, and hypothesis settings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, List

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "60")),
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus() -> Callable[[str], List[str]]:
    """Lines of a corpus file (split on "\\n" only: str.splitlines would also
    split at form feeds); skips when ../shared/corpus is not there."""
    if not CORPUS.is_dir():
        pytest.skip(f"the corpus folder {CORPUS} is absent (it sits beside the repository in ../shared)")

    def read(name: str) -> List[str]:
        return (CORPUS / name).read_text(encoding="utf-8").split("\n")

    return read

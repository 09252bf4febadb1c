"""Shared fixtures: the real corpus next to the repository, hypothesis settings,
and the compiled build's modules when that is the build under test."""

from __future__ import annotations

import importlib
import os
import shutil
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator, List

import pytest
from hypothesis import HealthCheck, settings

import stream_chunker

# 40 examples a property in a plain run (the suite within CI's ten minutes on
# two cores); HYPOTHESIS_MAX_EXAMPLES=1500 for a thorough one.
settings.register_profile(
    "default",
    deadline=None,
    max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "40")),
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


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder of the test's own, on a short path, for a run with workers:
    their fork server's socket goes in ``$TMPDIR``, a socket's path has at most
    107 bytes, and ``tmp_path`` is longer under pytest-xdist."""
    folder = Path(tempfile.mkdtemp(prefix="sc-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


COMPILED_EXPECTED = os.environ.get("STREAM_CHUNKER_COMPILE") == "1"
"""The suite tests the compiled build (``.ci/run``'s second pass): set as when it was built."""


def compiled_modules() -> List[ModuleType]:
    """Every module of the installed package that has a compiled extension
    beside its source, as imported."""
    folder = Path(stream_chunker.__file__).parent
    names = sorted({".".join((*path.relative_to(folder).parent.parts, path.name.split(".")[0]))
                    for suffix in EXTENSION_SUFFIXES for path in folder.rglob(f"*{suffix}")})
    return [importlib.import_module(f"stream_chunker.{name}") for name in names]


if COMPILED_EXPECTED:
    # pytest's doctest collection imports a module not yet imported from its
    # source file by path: imported first, every module's doctests run compiled.
    compiled_modules()

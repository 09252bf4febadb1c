"""The package type-checks under ``mypy --strict`` (the settings are in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_passes_mypy_strict(monkeypatch):
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra: pip install -e '.[test]'")
    monkeypatch.chdir(ROOT)  # pyproject.toml's [tool.mypy] names the files
    # mypy's own cache in the checkout (.mypy_cache, which it keeps out of git):
    # a second run -- CI's pass over the compiled build -- checks in seconds.
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, out + err
    assert "Success" in out

"""The README says what is true: its commands are CI's; and the diagram of
docs/state-machine.md is the machine's."""

from __future__ import annotations

import re
from pathlib import Path

from stream_chunker.core.machine import mermaid

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(language: str):
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def test_the_two_commands_of_a_fresh_machine_are_what_ci_runs():
    setup, tests = _blocks("sh")[:2]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "examples/" in setup and "pytest" in tests
    for command in (setup.strip(), tests.strip()):
        assert command in ci.splitlines()


def test_the_diagram_in_the_docs_is_the_one_the_table_renders():
    doc = (ROOT / "docs" / "state-machine.md").read_text(encoding="utf-8")
    (diagram,) = re.findall(r"```mermaid\n(.*?)```", doc, re.S)
    assert diagram.strip() == mermaid().strip()


def test_the_example_document_is_there():
    assert (ROOT / "examples" / "policy-wording.txt").read_text(encoding="utf-8").count("\f") == 2

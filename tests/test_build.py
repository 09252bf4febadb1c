"""Which build the suite tests: the compiled one exactly when
``STREAM_CHUNKER_COMPILE=1`` says so (``.ci/run``'s second pass), here and in
the interpreters the tests start, or CI could test one build twice."""

from __future__ import annotations

import ast
import doctest
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import List, Tuple

import pytest

import stream_chunker

from .conftest import COMPILED_EXPECTED, compiled_modules


def test_the_build_under_test_is_the_one_expected():
    assert stream_chunker.__compiled__ == COMPILED_EXPECTED


@pytest.mark.skipif(not COMPILED_EXPECTED, reason="the pure-Python build (STREAM_CHUNKER_COMPILE unset)")
def test_every_compiled_module_is_loaded_compiled():
    modules = {module.__name__: module.__file__ for module in compiled_modules()}
    assert "stream_chunker.core.stages.splitter" in modules
    assert [name for name, file in modules.items() if file is None or file.endswith(".py")] == []


def test_a_child_interpreter_loads_the_same_build():
    done = subprocess.run([sys.executable, "-c", "import stream_chunker; print(stream_chunker.__compiled__)"],
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == str(COMPILED_EXPECTED)


def _docstrings(module: ModuleType) -> List[Tuple[str, str, int]]:
    """The module's docstrings as its source has them: (name, docstring, line)."""
    path = Path(module.__file__).with_name(module.__name__.rsplit(".", 1)[1] + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def walk(node: ast.AST, name: str) -> None:
        doc = ast.get_docstring(node, clean=False)
        if doc is not None:
            found.append((name, doc, getattr(node, "lineno", 1)))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                walk(child, f"{name}.{child.name}")

    walk(tree, module.__name__)
    return found


COMPILED_DOCTESTS = [pytest.param(module, *found, id=found[0]) for module in compiled_modules()
                     for found in _docstrings(module) if ">>>" in found[1]] if COMPILED_EXPECTED else []


@pytest.mark.parametrize("module, name, docstring, line", COMPILED_DOCTESTS)
def test_the_doctests_of_a_compiled_module_hold_compiled(module, name, docstring, line):
    """mypyc drops docstrings, so pytest finds no doctest in a compiled module:
    each runs here from the source, its names the compiled module's."""
    test = doctest.DocTestParser().get_doctest(docstring, dict(vars(module)), name, module.__file__, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0

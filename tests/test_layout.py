"""The modules table of docs/architecture.md is what the package is: every module listed with its
one job and its layer, imports only from its own layer or below (core ←
drivers ← command line), no import cycle, and no long module without a reason."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "stream_chunker"
LAYERS = ("core", "driver", "command line")
LONG = 300


def _listed() -> Dict[str, str]:
    """Module name -> layer, from the table of docs/architecture.md."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("\n## Modules\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)\.py` \| (core|driver|command line) \| .+\|$", section, re.M)
    return {name: layer for name, layer in rows}


def _imports(name: str) -> Set[str]:
    """The package modules ``name`` imports, anywhere in it."""
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    found: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module)
            else:  # "from . import x": a module, or a name of the package itself
                found.update(alias.name for alias in node.names if (PACKAGE / f"{alias.name}.py").exists())
    return found


def _modules() -> List[str]:
    return sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__"))


def test_every_module_is_listed_once_with_its_layer():
    listed = _listed()
    assert sorted(listed) == _modules()


def test_imports_go_only_from_the_command_line_to_drivers_to_the_core():
    listed = _listed()
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    for name in _modules():
        for imported in _imports(name):
            assert rank[listed[imported]] <= rank[listed[name]], f"{name} ({listed[name]}) imports {imported}"


def test_no_import_cycle():
    graph = {name: _imports(name) for name in _modules()}
    done: Set[str] = set()

    def visit(name: str, path: List[str]) -> None:
        assert name not in path, " -> ".join(path + [name])
        if name in done:
            return
        for imported in graph[name]:
            visit(imported, path + [name])
        done.add(name)

    for name in graph:
        visit(name, [])


def test_a_long_module_says_why_at_its_top():
    for path in PACKAGE.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        if source.count("\n") > LONG:
            docstring = ast.get_docstring(ast.parse(source)) or ""
            assert "Why one module" in docstring, f"{path.name} has {source.count(chr(10))} lines and no reason"


def test_the_compiled_build_compiles_the_core_layer():
    """setup.py names the modules mypyc compiles (docs/compiled-build.md): the
    core, where the line loop spends its time, so a new core module is not
    left out without a reason, nor a driver let in."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    named = {ast.unparse(node.targets[0]): ast.literal_eval(node.value) for node in tree.body
             if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) in ("COMPILED", "LEFT_OUT")}
    assert sorted([*named["COMPILED"], *named["LEFT_OUT"]]) == sorted(
        name for name, layer in _listed().items() if layer == "core")

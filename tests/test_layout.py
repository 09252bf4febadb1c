"""The package's folders are its layers, and imports only go down them.

The layers, lowest first. A module may import from its own folder and from
any layer below its own; never from a layer above, nor from another folder of
its own layer:

    core                        records, chunk, text, machine, packing, tokens, report, errors
    core.stages                 the scanner (splitter, zones, furniture, cutter): uses core's records
    profiles                    base (what a profile is, the registry), labels, paragraphs
    profiles.policy | .statute  one folder a profile: imports profiles and core, never the other profile
    engine                      the Chunker: the stages, the machine and a profile put together
    drivers                     a Chunker fed from lines, byte streams, PDFs, many documents
    integrations | cli          LangChain, LlamaIndex, Dask | the command line: neither imports the other
    stream_chunker              the front door: __main__ and the thin public modules (pdf, langchain, ...)

Two things sit outside that order. The package's own ``__init__`` is imported
before any of its modules, so anyone may take a name from it (``__version__``);
in return, no ``__init__.py`` imports a module of the package when it is
imported -- only under ``TYPE_CHECKING`` or when a name is first asked for --
so that ``import stream_chunker`` costs nothing and the command line takes its
signals before the heavy imports (``cli/launch.py``). And the engine reaches
the shipped profiles only through the registry, which imports them by name at
run time (``profiles.base.BUILTIN``): those names must be modules of a profile
folder.

Besides: no import cycle between modules, no module over ``LONG`` lines
without a reason at its top, and the compiled build (``setup.py``) names every
module of the sans-IO layers -- compiled, or left out with a reason -- and
nothing else; pyproject ships every folder.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "stream_chunker"
NAME = "stream_chunker"
LAYERS: Tuple[Tuple[str, ...], ...] = (
    ("core",),
    ("core.stages",),
    ("profiles",),
    ("profiles.policy", "profiles.statute"),
    ("engine",),
    ("drivers",),
    ("integrations", "cli"),
    ("",),
)
"""Folders (below ``stream_chunker``) from the lowest layer up; folders in one
tuple are side by side, and do not import each other."""
SANS_IO = ("core", "core.stages", "profiles", "profiles.policy", "profiles.statute", "engine")
"""The layers whose modules the compiled build compiles (or leaves out, saying why)."""
LONG = 300


def _modules() -> Dict[str, Path]:
    """Every module of the package by dotted name (a folder's ``__init__`` by the folder's)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _folder(module: str) -> str:
    """The folder a module is in, below the package: ``profiles.policy`` for
    ``stream_chunker.profiles.policy.outline``, ``""`` for the front door."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return package[len(NAME) + 1:]


def _rank(folder: str) -> int:
    for rank, side_by_side in enumerate(LAYERS):
        if folder in side_by_side:
            return rank
    raise AssertionError(f"stream_chunker/{folder.replace('.', '/')} is in no layer: add it to LAYERS")


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def _import_nodes(tree: ast.AST, at_import_time: bool = False) -> Iterator[ast.AST]:
    """The import statements of a module; with ``at_import_time``, only those
    run when it is imported (not under ``TYPE_CHECKING``, not in a function)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif at_import_time and (_type_checking(node) or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
            continue
        else:
            yield from _import_nodes(node, at_import_time)


def _imports(module: str, at_import_time: bool = False) -> Set[str]:
    """The package modules ``module`` imports (``from x import y`` counts as
    importing ``x.y`` when that is a module, else ``x``)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: Set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8")), at_import_time):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == NAME)
            continue
        assert isinstance(node, ast.ImportFrom)
        if node.level:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        if source.split(".")[0] != NAME:
            continue
        assert source in MODULES, f"{module} imports {source}, which is no module of the package"
        for alias in node.names:
            found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source)
    found.discard(module)
    return found


GRAPH = {module: _imports(module) for module in MODULES}


def test_every_folder_is_a_layer():
    for module in MODULES:
        _rank(_folder(module))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_only_down_the_layers(module):
    folder = _folder(module)
    for imported in sorted(GRAPH[module]):
        if imported == NAME:
            continue  # the package's __init__: its names are everyone's
        there = _folder(imported)
        assert there == folder or _rank(there) < _rank(folder), (
            f"{module} (layer {folder or NAME!r}) imports {imported} (layer {there or NAME!r}): "
            "a module imports only from its own folder and from layers below (see this test's docstring)")


def test_no_import_cycle():
    done: Set[str] = set()

    def visit(module: str, path: List[str]) -> None:
        assert module not in path, "import cycle: " + " -> ".join(path + [module])
        if module in done:
            return
        for imported in sorted(GRAPH[module]):
            visit(imported, path + [module])
        done.add(module)

    for module in sorted(GRAPH):
        visit(module, [])


def test_no_package_init_imports_the_package_when_imported():
    """``import stream_chunker`` and ``stream_chunker.cli.launch`` cost nothing
    before the signals are taken: every ``__init__.py`` loads its names when
    they are first used."""
    for module, path in MODULES.items():
        if path.name == "__init__.py":
            assert _imports(module, at_import_time=True) == set(), f"{path.relative_to(ROOT)} imports at import time"


def _assigned(path: Path, name: str) -> object:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(ast.unparse(target) == name for target in targets):
            assert node.value is not None
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.relative_to(ROOT)} assigns no {name}")


def test_the_registry_names_modules_of_profile_folders():
    builtin = _assigned(PACKAGE / "profiles" / "base.py", "BUILTIN")
    assert isinstance(builtin, tuple) and builtin
    for name in builtin:
        assert name in MODULES, f"BUILTIN names {name}, which is no module"
        assert _rank(_folder(name)) == _rank("profiles.policy"), f"{name} is not in a profile's folder"


def test_a_long_module_says_why_at_its_top():
    for path in MODULES.values():
        source = path.read_text(encoding="utf-8")
        if source.count("\n") > LONG:
            docstring = ast.get_docstring(ast.parse(source)) or ""
            assert "Why one module" in docstring, f"{path.relative_to(ROOT)} has {source.count(chr(10))} lines " \
                                                  "and no reason at its top"


def _compiled_build() -> Tuple[List[str], Dict[str, str]]:
    setup = ROOT / "setup.py"
    compiled, left_out = _assigned(setup, "COMPILED"), _assigned(setup, "LEFT_OUT")
    assert isinstance(compiled, tuple) and isinstance(left_out, dict)
    return list(compiled), left_out


def test_the_compiled_build_compiles_the_sans_io_layers():
    """setup.py names the modules mypyc compiles (dotted, below the package):
    every module of the layers where the line loop spends its time, but those
    left out with a reason; no driver, no command line, no ``__init__``."""
    compiled, left_out = _compiled_build()
    assert len(set(compiled)) == len(compiled)
    expected = sorted(module[len(NAME) + 1:] for module, path in MODULES.items()
                      if path.name != "__init__.py" and _folder(module) in SANS_IO)
    assert sorted([*compiled, *left_out]) == expected
    assert all(reason for reason in left_out.values())


def test_the_wheel_ships_every_folder():
    with open(ROOT / "pyproject.toml", "rb") as file:
        packages = tomllib.load(file)["tool"]["setuptools"]["packages"]
    assert sorted(packages) == sorted(module for module, path in MODULES.items() if path.name == "__init__.py")


def _grades() -> Optional[List[Tuple[str, str, int]]]:
    try:
        from radon.complexity import cc_visit
    except ImportError:
        return None
    found = []
    for module, path in MODULES.items():
        for block in cc_visit(path.read_text(encoding="utf-8")):
            found.append((module, block.fullname, block.complexity))
    return found


def test_a_module_with_a_function_above_grade_c_says_why_at_its_top():
    """Where radon is installed (``pip install radon``; not a dependency of the
    project): a function of cyclomatic complexity above 20 (radon's grade D
    and worse) is allowed only in a module whose docstring says why."""
    grades = _grades()
    if grades is None:
        pytest.skip("radon is not installed")
    for module, function, complexity in grades:
        if complexity > 20:
            docstring = ast.get_docstring(ast.parse(MODULES[module].read_text(encoding="utf-8"))) or ""
            assert "Why so branched" in docstring, f"{module}.{function} has complexity {complexity} and its " \
                                                   "module gives no reason at its top"

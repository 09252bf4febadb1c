"""Every code block of the README and of docs/ does what it shows, as written.

- ``sh`` / ``bash`` / ``console`` blocks run with bash (``set -euo pipefail``)
  in a fresh copy of a small working folder, the venv's ``bin`` first on
  ``PATH``. The folder holds what the examples name: ``.venv`` (a link to the
  venv running these tests), ``examples/``, ``wording.txt`` (the bundled
  example), ``wording.pdf`` (the same text printed as a PDF with fpdf2),
  ``transp.txt`` (two sections of a code) and ``policies/`` (two wordings and
  a PDF). A block that needs a tool this machine lacks (``pdftotext``) skips,
  saying so. A block made only of lines of ``.ci/run`` -- the set-up, the
  test command, the compiled build -- is not run again here: CI runs it
  verbatim, and the test checks that it is CI's line.
- ``python`` blocks are saved as a file in such a folder and run with the
  venv's python; one that imports a framework this venv lacks skips.
- ``json`` blocks are chunks: each must be what the bundled example gives.
- ``mermaid`` blocks are the reader's diagram, as ``--fsm`` prints it.
- ``text`` blocks are signatures and output, not commands, and are not run.

And the docs are the product's own: no tracker issues, no spec sections, no
broken links between them, and every ``pip install -e '.[extra]'`` names an
extra of ``pyproject.toml``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple

import pytest

from stream_chunker import chunk_lines
from stream_chunker.core.machine import mermaid

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLE = ROOT / "examples" / "policy-wording.txt"
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```[ \t]*$", re.M | re.S)
SHELL = ("sh", "bash", "console")
KNOWN = (*SHELL, "python", "json", "mermaid", "text")
TOOLS = ("pdftotext", "pdfimages", "valgrind", "gcc", "ocrmypdf")
TIMEOUT = 120
CI_LINES = {line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()}
STATUTE = """\
§ 16-112. Stopping on highways.
(a) A person may not stop a vehicle on a highway except:
(1) to avoid conflict with other traffic; or
(2) in compliance with the directions of a police officer.
(b) This section does not apply to a vehicle that is disabled.
§ 16-113. Parking near hydrants.
(a) A person may not park a vehicle within 15 feet of a fire hydrant.
"""


class Block(NamedTuple):
    page: str
    line: int
    language: str
    body: str

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def _blocks() -> List[Block]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            found.append(Block(str(page.relative_to(ROOT)), text.count("\n", 0, m.start()) + 1, m.group(1),
                               m.group(2)))
    return found


BLOCKS = _blocks()


def _commands(block: Block) -> List[str]:
    """The commands of a shell block (a console block's lines after ``$ ``)."""
    lines = block.body.splitlines()
    if block.language == "console":
        lines = [line[2:] for line in lines if line.startswith("$ ")]
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _run_by_ci(block: Block) -> bool:
    return block.language in SHELL and all(line.strip() in CI_LINES for line in _commands(block))


def _of(language: str, ci: bool = False) -> List[Block]:
    return [b for b in BLOCKS if b.language in language.split() and (ci is None or _run_by_ci(b) == ci)]


def _ids(blocks: List[Block]) -> List[str]:
    return [b.name for b in blocks]


@pytest.fixture(scope="session")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The working folder the examples name, made once; each block gets a copy."""
    here = tmp_path_factory.mktemp("docs") / "work"
    here.mkdir()
    (here / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    shutil.copytree(ROOT / "examples", here / "examples")
    shutil.copy(EXAMPLE, here / "wording.txt")
    (here / "transp.txt").write_text(STATUTE, encoding="utf-8")
    policies = here / "policies"
    policies.mkdir()
    shutil.copy(EXAMPLE, policies / "home.txt")
    shutil.copy(EXAMPLE, policies / "motor.txt")
    if importlib.util.find_spec("fpdf") is not None:
        _write_pdf(EXAMPLE.read_text(encoding="utf-8"), here / "wording.pdf")
        shutil.copy(here / "wording.pdf", policies / "wording.pdf")
    return here


def _write_pdf(text: str, path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF(format="A4", unit="mm")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=9)
    for page in text.rstrip("\n").split("\f"):
        pdf.add_page()
        for row, line in enumerate(page.split("\n")):
            if line:
                pdf.text(18, 16 + 5.2 * row, line)
    pdf.output(str(path))


def _copy(folder: Path, tmp_path: Path, block: Block) -> Path:
    work = tmp_path / "work"
    shutil.copytree(folder, work, symlinks=True)
    if "wording.pdf" in block.body and not (work / "wording.pdf").exists():
        pytest.skip("the example PDF is made with fpdf2, which is not installed")
    return work


def _env() -> Dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _check(run: "subprocess.CompletedProcess[str]", block: Block) -> None:
    assert run.returncode == 0, f"{block.name} failed ({run.returncode}):\n{block.body}\n{run.stdout[-2000:]}" \
                                f"\n{run.stderr[-4000:]}"
    assert "Traceback" not in run.stderr, f"{block.name}:\n{run.stderr}"


@pytest.mark.parametrize("block", _of("sh bash console"), ids=_ids(_of("sh bash console")))
def test_each_shell_block_runs(block, folder, tmp_path):
    for tool in TOOLS:
        if re.search(rf"(?<![\w-]){tool}(?![\w-])", block.body) and shutil.which(tool) is None:
            pytest.skip(f"{block.name} needs {tool}, which is not installed here")
    work = _copy(folder, tmp_path, block)
    script = "set -euo pipefail\n" + "\n".join(_commands(block)) + "\n"
    run = subprocess.run(["bash", "-c", script], cwd=work, env=_env(), capture_output=True, text=True,
                         timeout=TIMEOUT)
    _check(run, block)
    for jsonl in work.glob("*.jsonl"):  # what the examples wrote is whole JSON lines
        for line in jsonl.read_text(encoding="utf-8").splitlines():
            json.loads(line)


@pytest.mark.parametrize("block", _of("sh bash console", ci=True), ids=_ids(_of("sh bash console", ci=True)))
def test_a_shell_block_not_run_here_is_what_ci_runs(block):
    """The set-up, the test command and the compiled build: CI runs each line
    verbatim (tests/test_readme.py holds the README's two to CI's order)."""
    assert _commands(block)
    for line in _commands(block):
        assert line.strip() in CI_LINES, f"{block.name}: {line!r} is not a line of .ci/run"


def _missing_module(block: Block) -> str:
    for node in ast.walk(ast.parse(block.body)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else []
        for name in names:
            top = name.split(".")[0]
            if importlib.util.find_spec(top) is None:
                return top
    return ""


@pytest.mark.parametrize("block", _of("python", ci=None), ids=_ids(_of("python", ci=None)))
def test_each_python_block_runs_as_a_script(block, folder, tmp_path):
    missing = _missing_module(block)
    if missing:
        pytest.skip(f"{block.name} imports {missing}, which is not installed here")
    if re.search(r"\bchunk_files\b|stream_chunker\.dask|LocalCluster", block.body):
        assert 'if __name__ == "__main__":' in block.body, f"{block.name} starts processes: it needs its guard"
    work = _copy(folder, tmp_path, block)
    (work / "example.py").write_text(block.body, encoding="utf-8")
    run = subprocess.run([sys.executable, "example.py"], cwd=work, env=_env(), capture_output=True, text=True,
                         timeout=TIMEOUT)
    _check(run, block)


@pytest.mark.parametrize("block", _of("json", ci=None), ids=_ids(_of("json", ci=None)))
def test_each_json_block_is_what_the_example_gives(block):
    made = {c.id: c.to_dict() for c in chunk_lines(EXAMPLE.read_text(encoding="utf-8").split("\n"))}
    for line in block.body.splitlines():
        shown = json.loads(line)
        assert shown == made.get(shown["id"]), f"{block.name}: not a chunk of {EXAMPLE.name}"


@pytest.mark.parametrize("block", _of("mermaid", ci=None), ids=_ids(_of("mermaid", ci=None)))
def test_each_diagram_is_the_one_the_machine_draws(block):
    assert block.body.strip() == mermaid().strip()


def test_every_block_says_what_it_is():
    assert BLOCKS, "no code blocks found"
    unknown = [b.name for b in BLOCKS if b.language not in KNOWN]
    assert not unknown, f"blocks with no language, or an unknown one (use one of {', '.join(KNOWN)}): {unknown}"


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_bytes()) <= 12 * 1024


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_the_docs_are_the_products_own(page):
    """A user has the product, not its tracker nor its specification."""
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"SPEC\s*§|\bissues?\s+#?\d+|(?<![\w.])#\d+", text), page.name


def _anchors(text: str) -> set:
    """GitHub's anchors of a page's headings."""
    slugs = set()
    for heading in re.findall(r"^#+ (.+)$", FENCE.sub("", text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        slugs.add(slug)
    return slugs


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_link_between_the_pages_leads_somewhere(page):
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", FENCE.sub("", text)):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: {target} leads nowhere"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked.read_text(encoding="utf-8")), f"{page.name}: no heading for {target}"


def test_every_extra_the_docs_install_is_one_of_the_package():
    tomllib = pytest.importorskip("tomllib", reason="tomllib comes with Python 3.11")
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
                 ["project"]["optional-dependencies"])
    named = set()
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "pip install 'stream-chunker[" not in text, f"{page.name}: stream-chunker is on no index"
        for group in re.findall(r"'\.\[([\w,-]+)\]'", text):
            named.update(group.split(","))
    assert named and named <= extras, named - extras

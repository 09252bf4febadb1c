"""The compiled build's one addition to ``pyproject.toml``: which modules mypyc compiles.

Run by the build backend (``build_backend/backend.py``), never by hand. Without
``STREAM_CHUNKER_COMPILE=1`` it adds nothing and the package is pure Python.
"""

from __future__ import annotations

import shutil

from backend import compiling_wheel  # build_backend/, on the path of the backend's process
from setuptools import setup

COMPILED = (
    "core.chunk", "core.contents_page", "core.hard_limit", "core.layout", "core.machine", "core.packing", "core.records", "core.report", "core.sizing", "core.text",
    "core.tokens",
    "core.stages.chain", "core.stages.cutter", "core.stages.furniture", "core.stages.header_blocks", "core.stages.splitter", "core.stages.zones",
    "profiles.base", "profiles.labels", "profiles.paragraphs",
    "profiles.policy.contents", "profiles.policy.families", "profiles.policy.held", "profiles.policy.outline", "profiles.policy.parts",
    "profiles.policy.placing",
    "profiles.policy.profile", "profiles.policy.rules", "profiles.policy.state",
    "profiles.statute.codes", "profiles.statute.profile",
    "engine.chunker", "engine.sniff",
)
"""The modules of ``stream_chunker`` compiled, by dotted name below it: the
sans-IO layers (``core``, ``profiles``, ``engine``; see docs/architecture.md),
where the line loop spends its time, but for ``LEFT_OUT``. The drivers, the
integrations and the command line stay Python: their time goes to decoding,
JSON, pipes and processes, all C already. The folders' ``__init__`` modules
hold only docstrings and stay Python too."""

LEFT_OUT = {
    "core.errors": "OutputError is an OSError too, which a compiled class cannot be, nor then the base class of all; "
                   "raising an error is not where the time goes",
    "engine.options": "Options are pickled to worker processes as they are, and checked once a run, "
                      "which is not where the time goes",
}
"""The modules of those layers not compiled, and why."""

BUILD = "build/compiled"

if compiling_wheel():
    from mypyc.build import mypycify

    # The compiled build keeps its own build folder, emptied first: neither a
    # pure build nor a compiled one from the same checkout packs a compiled
    # module an earlier build left there (one since taken out of COMPILED, say).
    shutil.rmtree(BUILD, ignore_errors=True)
    sources = [f"stream_chunker/{name.replace('.', '/')}.py" for name in COMPILED]
    setup(ext_modules=mypycify([f"--cache-dir={BUILD}/mypy", *sources], group_name="stream_chunker",
                               target_dir=f"{BUILD}/c"),
          options={"build": {"build_base": BUILD}})
else:
    setup()

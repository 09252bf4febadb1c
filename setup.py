"""The compiled build's one addition to ``pyproject.toml``: which modules mypyc compiles.

Run by the build backend (``build_backend/backend.py``), never by hand. Without
``STREAM_CHUNKER_COMPILE=1`` it adds nothing and the package is pure Python.
"""

from __future__ import annotations

import shutil

from backend import compiling_wheel  # build_backend/, on the path of the backend's process
from setuptools import setup

COMPILED = (
    "_chunk", "_chunker", "_codes", "_contents", "_cutter", "_furniture", "_labels", "_machine", "_outline",
    "_packing", "_paragraphs", "_policy", "_profile", "_records", "_report", "_sniff", "_splitter", "_statute",
    "_text", "_tokens", "_zones",
)
"""The modules of ``stream_chunker`` compiled: the core layer (docs/architecture.md), where
the line loop spends its time, but for ``LEFT_OUT``. The drivers and the command
line stay Python: their time goes to decoding, JSON, pipes and processes, all C
already."""

LEFT_OUT = {
    "_errors": "OutputError is an OSError too, which a compiled class cannot be, nor then the base class of all; "
               "raising an error is not where the time goes",
}
"""The core modules not compiled, and why."""

BUILD = "build/compiled"

if compiling_wheel():
    from mypyc.build import mypycify

    # The compiled build keeps its own build folder, emptied first: neither a
    # pure build nor a compiled one from the same checkout packs a compiled
    # module an earlier build left there (one since taken out of COMPILED, say).
    shutil.rmtree(BUILD, ignore_errors=True)
    setup(ext_modules=mypycify([f"--cache-dir={BUILD}/mypy", *(f"stream_chunker/{name}.py" for name in COMPILED)],
                               group_name="stream_chunker", target_dir=f"{BUILD}/c"),
          options={"build": {"build_base": BUILD}})
else:
    setup()

"""stream_chunker: cut long legal and insurance documents into citable chunks,
one line at a time, with bounded memory.

>>> from stream_chunker import chunk_lines
>>> [c.id for c in chunk_lines(["1 Cover", "We cover the house."], real_tokens=False)]
['1']

The names below are loaded when first used: importing the package costs
nothing, so that the command line takes its signals before the tenth of a
second its imports take (see ``cli/launch.py``).
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any, List

if TYPE_CHECKING:
    from .core.chunk import Chunk
    from .engine.chunker import Chunker
    from .engine.options import Options
    from .drivers.workers import chunk_files
    from .drivers.document import chunk_lines
    from .core.errors import ChunkerError, ConfigError, EncodingUnavailable, InputError, OutputError

__version__ = "0.1.0"

__compiled__ = (getattr(find_spec(f"{__name__}.engine.chunker"), "origin", None) or "").endswith(tuple(EXTENSION_SUFFIXES))
"""Whether this is the compiled build (``STREAM_CHUNKER_COMPILE=1 pip install .``),
whose core modules mypyc made into C extensions, or the pure-Python package:
found, not imported, as importing the package must cost nothing."""

_HOMES = {
    "Chunk": "core.chunk",
    "Chunker": "engine.chunker",
    "ChunkerError": "core.errors",
    "ConfigError": "core.errors",
    "EncodingUnavailable": "core.errors",
    "InputError": "core.errors",
    "Options": "engine.options",
    "OutputError": "core.errors",
    "chunk_files": "drivers.workers",
    "chunk_lines": "drivers.document",
}

__all__ = ["__compiled__", "__version__", *_HOMES]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted({*globals(), *_HOMES})

"""The command line (``stream-chunker``, ``python -m stream_chunker``).

``launch`` is the command's first code: it takes the signals (``signals``)
before anything heavy is imported, then runs ``command``: the options, one
document at a time, or several through ``many``; ``output`` is what the
command writes. :func:`main` and the exit statuses are loaded from
``command`` when first used, so that importing ``launch`` costs nothing more.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, List

if TYPE_CHECKING:
    from .command import (EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT_FAILED, EXIT_PIPE_CLOSED,
                          EXIT_TERMINATED, EXIT_USAGE, main)

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_OUTPUT_FAILED", "EXIT_PIPE_CLOSED",
           "EXIT_TERMINATED", "EXIT_USAGE", "main"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(".command", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted({*globals(), *__all__})

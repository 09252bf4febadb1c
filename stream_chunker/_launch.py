"""The command's first instructions (``stream-chunker``, ``python -m
stream_chunker``): the signals are taken before anything else is imported,
then the command line is loaded and run.

The command line imports most of the package, tiktoken and multiprocessing,
a tenth of a second and more; a Ctrl-C then used to end in a traceback. The
package's ``__init__`` loads its names only when they are first used, so
that this module is the first of the package's code to do any work, and
from its first instruction on a signal stops the run with its status.
Before it, while the interpreter itself starts, a signal does what it does
to any Python program.
"""

from __future__ import annotations

from ._signals import status_of, take


def main() -> int:
    """Run the command line on ``sys.argv``; returns the exit status."""
    try:
        signals, _ = take()
        from .cli import main as command_line

        status = command_line()
        signals.over()
        return status
    except KeyboardInterrupt as stop:  # during the imports, or as the run ends
        return status_of(stop)

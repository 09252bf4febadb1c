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

from typing import Optional

from .signals import Signals, status_of, take


def main() -> int:
    """Run the command line on ``sys.argv``; returns the exit status."""
    signals: Optional[Signals] = None
    try:
        signals, _ = take()
        from .command import main as command_line

        status = command_line()
        signals.over()
    except KeyboardInterrupt as stop:  # during the imports, or as the run ends
        status = status_of(stop)
    except BaseException:
        if signals is None or signals.stopped_with is None:
            raise
    # A stop that came out as another error, or that something swallowed,
    # gives the signal's status all the same (see ``cli.signals.Signals``).
    return status if signals is None or signals.stopped_with is None else signals.stopped_with

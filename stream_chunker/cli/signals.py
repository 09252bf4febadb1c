"""The signals that stop the command line: SIGINT (Ctrl-C), SIGTERM and
SIGPIPE. Each raises :class:`Stopped`, which ends the run the way any other
stop does -- workers stopped, spill files deleted, the counting process ended,
only complete lines written -- with the status a shell gives a process that
signal ends: 128 and its number (130, 143, 141).

They are taken at the command's first instruction (``cli.launch``), before
anything else is imported, so that a signal during the imports is a stop like
any other and not a traceback. While a piece of output is written, a signal
waits until the piece is out, so that no line is cut in two; a second signal
during the same write does not wait, since a reader that stopped reading
would hold the first one back forever. Once a signal has stopped the run, or
the run is over, later ones are ignored, so that the cleaning up and the
interpreter's exit (the counting process and the workers ended, temporary
files deleted) run to their end rather than stop half-way with a traceback.

This module imports nothing of the package: it runs before the rest is loaded.
"""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType, TracebackType
from typing import Callable, Dict, Optional, Tuple, Type, Union

TAKEN = (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE)
"""In the order they are taken: SIGPIPE last, so that once it is taken all are."""

Handler = Union[Callable[[int, Optional[FrameType]], object], int, signal.Handlers, None]

# What each signal's handler is when nobody has taken it: Python's own
# (SIGINT raises KeyboardInterrupt, SIGPIPE is ignored so that a write to a
# closed pipe is an error), or the system's. A signal ignored from the start
# (SIGINT in a shell's background job) stays ignored.
_UNTAKEN: Dict[int, Tuple[Handler, ...]] = {
    signal.SIGINT: (signal.default_int_handler,),
    signal.SIGTERM: (signal.SIG_DFL,),
    signal.SIGPIPE: (signal.SIG_IGN, signal.SIG_DFL),
}


class Stopped(KeyboardInterrupt):
    """A signal stopped the run; ``status`` is the exit status it gives.

    A ``KeyboardInterrupt``, so that whatever stops cleanly on Ctrl-C stops
    the same way on the other two.

    >>> Stopped(signal.SIGTERM).status
    143
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.status = 128 + signum


def status_of(stop: KeyboardInterrupt) -> int:
    """The exit status a stop gives: its signal's, or Ctrl-C's for a
    ``KeyboardInterrupt`` that Python's own handler raised."""
    return getattr(stop, "status", 128 + signal.SIGINT)


class Signals:
    """The handler of every signal in ``TAKEN``, and the hold on them while
    output is written (``with signals.held():``).

    ``stopped_with`` is the status of the signal that stopped the run, once
    one has: the stop may come out as another error on its way (Python 3.11
    wraps one raised in a class's ``__set_name__``, as a signal during the
    imports may be, in a ``RuntimeError``), and the status is the signal's
    all the same. One raised where Python can only report it and go on (in a
    ``__del__``, a generator closed as it is collected) is not reported, and
    takes effect at the next write instead.
    """

    def __init__(self) -> None:
        self._writing = False
        self._pending: Optional[int] = None
        self._ignoring = False
        self._over = False
        self.stopped_with: Optional[int] = None

    def __call__(self, signum: int, frame: Optional[FrameType]) -> None:
        if self._ignoring:
            return
        if self._writing and self._pending is None:
            self._pending = signum
            return
        raise self._stop(signum)

    def _stop(self, signum: int) -> Stopped:
        self._ignoring = True  # the cleaning up runs to its end
        stop = Stopped(signum)
        self.stopped_with = stop.status
        return stop

    def over(self) -> None:
        """The run is over: a signal from now on changes nothing."""
        self._ignoring = self._over = True

    def held(self) -> "_Held":
        """A context in which a signal waits until the context ends."""
        return _Held(self)

    def unraisable(self, unraisable: "sys.UnraisableHookArgs") -> bool:
        """Whether ``unraisable`` was a stop that Python could not raise: it
        is raised again at the next write."""
        stop = unraisable.exc_value
        if not isinstance(stop, Stopped) or self._over:
            return False
        self._ignoring, self._pending = False, stop.signum
        return True


class _Held:
    def __init__(self, signals: Signals) -> None:
        self._signals = signals

    def __enter__(self) -> None:
        self._signals._writing = True

    def __exit__(self, kind: Optional[Type[BaseException]], err: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        signals = self._signals
        signals._writing = False
        pending, signals._pending = signals._pending, None
        if pending is not None and not signals._ignoring:
            if err is not None:  # the write's own error ends the run, and says why
                signals._ignoring = True
                return
            raise signals._stop(pending)


def take() -> Tuple[Signals, Callable[[], None]]:
    """The command line's :class:`Signals` and the undo: the ones the
    command's first instruction took, or new ones, taken for each signal
    whose handler is still the one it starts with (a program that calls the
    command line in-process may have its own). Off the main thread no signal
    can be taken, and none is."""
    for signum in TAKEN:
        handler = signal.getsignal(signum)
        if isinstance(handler, Signals):
            return handler, lambda: None
    signals = Signals()
    if threading.current_thread() is not threading.main_thread():
        return signals, lambda: None
    previous: Dict[int, Handler] = {}
    for signum in TAKEN:
        if signal.getsignal(signum) in _UNTAKEN[signum]:
            previous[signum] = signal.signal(signum, signals)
    hook = sys.unraisablehook

    def unraisable(args: "sys.UnraisableHookArgs") -> None:
        if not signals.unraisable(args):
            hook(args)

    sys.unraisablehook = unraisable

    def undo() -> None:
        sys.unraisablehook = hook
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    return signals, undo

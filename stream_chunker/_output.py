"""What the command line writes: JSON lines that Ctrl-C never cuts in two, UTF-8
whatever the locale, output files opened before any work, progress bars on
the terminal only."""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import ExitStack
from typing import IO, Any, Callable, Optional, Sequence

from ._documents import documents
from ._errors import ConfigError


def open_output(path: str, flag: str) -> IO[str]:
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot write {flag} {path}: {err.strerror}") from None



class Interrupts:
    """Ctrl-C between JSON lines, never inside one.

    A SIGINT that arrives while a batch of lines is being written is held
    until the batch is out, so an interrupted run leaves only complete lines.
    A second Ctrl-C during the same write interrupts it at once.
    """

    def __init__(self) -> None:
        self.writing = False
        self.pending = False

    def __call__(self, signum: int, frame: Any) -> None:
        if self.writing and not self.pending:
            self.pending = True
            return
        raise KeyboardInterrupt

    def install(self) -> Callable[[], None]:
        """Take over SIGINT if Python's default handler has it; returns the undo."""
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous = signal.getsignal(signal.SIGINT)
        if previous is not signal.default_int_handler:
            return lambda: None  # SIGINT ignored (a background job) or handled by the caller
        signal.signal(signal.SIGINT, self)

        def undo() -> None:
            signal.signal(signal.SIGINT, previous)

        return undo

    def write(self, out: IO[str], text: str) -> None:
        self.writing = True
        try:
            _write_whole(out, text)
        finally:
            self.writing = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt



def _write_whole(out: IO[str], text: str) -> None:
    """Write ``text`` and flush it, straight to the file descriptor where
    there is one. CPython 3.11's buffered writer was seen to drop the rest
    of a large write to a full pipe when the Ctrl-C held above interrupted
    it while another thread ran (the worker pool's, tqdm's), and to report
    it written: 40 % of interrupted runs over many documents ended in half a
    line. ``os.write`` says what it wrote, and the loop writes the rest."""
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # no descriptor (a test's capture)
        out.write(text)
        out.flush()
        return
    out.flush()
    data = memoryview(text.encode(getattr(out, "encoding", None) or "utf-8", getattr(out, "errors", None) or "strict"))
    while data:
        data = data[os.write(fd, data):]


def progress_bar(stack: ExitStack, enabled: Optional[bool], total: Optional[int],
                  name: str) -> Optional[Callable[[int], None]]:
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return None
    from tqdm import tqdm

    bar = stack.enter_context(tqdm(total=total, unit="B", unit_scale=True, desc=name, file=sys.stderr,
                                   leave=False))
    update: Callable[[int], None] = bar.update
    return update



def document_bar(stack: ExitStack, enabled: Optional[bool], inputs: Sequence[str],
                 globs: Sequence[str]) -> Optional[Any]:
    """A bar of documents done, with their megabytes; its total comes from a
    walk of the inputs beside the run (the run never lists them all first)."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return None
    from tqdm import tqdm

    bar = stack.enter_context(tqdm(unit="doc", desc="documents", file=sys.stderr, leave=False))

    def count() -> None:
        bar.total = sum(1 for _ in documents(inputs, globs))
        bar.refresh()

    threading.Thread(target=count, daemon=True).start()
    return bar



def utf8_stdout() -> None:
    """JSON Lines are UTF-8 whatever the locale says (``ensure_ascii=False``
    would otherwise fail on the first non-ASCII character under LANG=C or
    PYTHONIOENCODING=ascii)."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "").replace("_", "")
    if encoding != "utf8" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")

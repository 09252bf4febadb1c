"""What the command line writes: JSON lines that no signal cuts in two and no
failed write leaves in half, UTF-8 whatever the locale, output files opened
before any work, progress bars on the terminal only."""

from __future__ import annotations

import os
import stat
import sys
import threading
from contextlib import ExitStack
from typing import IO, Any, Callable, List, Optional, Sequence, Tuple

from ..core.errors import ConfigError, OutputError
from ..drivers.documents import documents
from .signals import Signals


class Output:
    """One output of the command line -- stdout, the ``--report`` or
    ``--diagnostics`` file, stderr for ``--stats`` -- written straight to its
    file descriptor with the signals held (``cli.signals``), so that a signal
    never cuts a line in two.

    A write that fails (a full disk, a file over its size limit) raises
    :class:`OutputError` naming the output and the reason; a regular file is
    first cut back to the end of its last complete line, so that it holds
    whole lines only, whatever failed. A closed pipe stays a
    ``BrokenPipeError``: the reader left, which is no failure of ours. After
    a failure nothing more is written to the output.

    ``buffer`` characters are gathered before a write (the diagnostics come
    an event at a time); by default each piece goes out at once. ``owned``:
    the command line opened the file, and closes it.
    """

    def __init__(self, name: str, stream: IO[str], signals: Signals, buffer: int = 0, owned: bool = False) -> None:
        self.name = name
        self._stream = stream
        self._owned = owned
        self._signals = signals
        self._buffer = buffer
        self._pending: List[str] = []
        self._size = 0
        self._failed = False
        try:
            self._fd: Optional[int] = stream.fileno()
        except (AttributeError, OSError, ValueError):  # no descriptor (a test's capture)
            self._fd = None
        self._regular = self._fd is not None and _is_regular(self._fd)

    def __enter__(self) -> "Output":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def write(self, text: str) -> None:
        self._pending.append(text)
        self._size += len(text)
        if self._size > self._buffer:
            self.flush()

    def flush(self) -> None:
        text = "".join(self._pending)
        self._pending.clear()
        self._size = 0
        if text and not self._failed:
            with self._signals.held():
                self._write_whole(text)

    def close(self) -> None:
        """Write what is gathered, and close a file the command line opened."""
        try:
            self.flush()
        finally:
            if self._owned:
                self._stream.close()

    def _write_whole(self, text: str) -> None:
        """Write ``text`` and flush it, straight to the file descriptor where
        there is one. CPython 3.11's buffered writer was seen to drop the rest
        of a large write to a full pipe when a held Ctrl-C interrupted it while
        another thread ran (the worker pool's, tqdm's), and to report it
        written: 40 % of interrupted runs over many documents ended in half a
        line. ``os.write`` says what it wrote, and the loop writes the rest."""
        stream = self._stream
        try:
            if self._fd is None:
                stream.write(text)
                stream.flush()
                return
            stream.flush()  # what print left in Python's buffer goes first
            data = text.encode(getattr(stream, "encoding", None) or "utf-8",
                               getattr(stream, "errors", None) or "strict")
            start = os.lseek(self._fd, 0, os.SEEK_CUR) if self._regular else None
            done = 0
            try:
                while done < len(data):
                    done += os.write(self._fd, memoryview(data)[done:])
            except BrokenPipeError:
                raise
            except OSError:
                if start is not None:
                    _cut(self._fd, start + data.rfind(b"\n", 0, done) + 1)
                raise
        except BrokenPipeError:
            self._failed = True
            raise
        except OSError as err:
            self._failed = True
            raise OutputError.of(self.name, err) from None


def _is_regular(fd: int) -> bool:
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return False


def _cut(fd: int, end: int) -> None:
    """Cut a regular file back to ``end``, and go on writing there (another
    descriptor of the file, stderr in ``> out 2>&1``, shares the position)."""
    try:
        os.ftruncate(fd, end)
        os.lseek(fd, end, os.SEEK_SET)
    except OSError:  # nothing more can be done for it: the error says it failed
        pass


DIAGNOSTICS_BUFFER = 1 << 16
"""Characters of diagnostics gathered before a write."""


def open_output(path: str, flag: str, signals: Signals, buffer: int = 0) -> Output:
    """The output file ``path`` of option ``flag``; a path that cannot be
    opened is a usage error."""
    try:
        stream = open(path, "w", encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot write {flag} {path}: {err.strerror}") from None
    return Output(f"{flag} {path}", stream, signals, buffer, owned=True)


def report_outputs(stack: ExitStack, diagnostics: Optional[str], report: Optional[str],
                   signals: Signals) -> Tuple[Optional[Output], Optional[Output]]:
    """The ``--diagnostics`` and ``--report`` files, those that are asked for.
    They are opened before any input is read: a bad path is a usage error,
    found before the work rather than after it."""
    return (stack.enter_context(open_output(diagnostics, "--diagnostics", signals, DIAGNOSTICS_BUFFER))
            if diagnostics else None,
            stack.enter_context(open_output(report, "--report", signals)) if report else None)


def review_output(stack: ExitStack, path: str, signals: Signals) -> Output:
    """The ``--review`` page's file, opened before any input is read (as ``report_outputs``)."""
    return stack.enter_context(open_output(path, "--review", signals, DIAGNOSTICS_BUFFER))


def to_devnull(stream: IO[str]) -> None:
    """Point ``stream``'s descriptor at /dev/null, where Python's flush at
    exit cannot fail (a failed flush there prints a traceback and exits 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test's capture)
        pass


def say(line: str) -> None:
    """A line on stderr; where stderr cannot be written, nobody can be told."""
    try:
        print(line, file=sys.stderr, flush=True)
    except OSError:
        to_devnull(sys.stderr)


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

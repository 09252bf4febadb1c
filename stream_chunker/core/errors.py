"""Errors. Every one says what went wrong, where, and what to do about it."""

from __future__ import annotations

from typing import Optional


class ChunkerError(Exception):
    """Base class of every error the chunker raises on purpose."""


class ConfigError(ChunkerError, ValueError):
    """An option has a value the chunker cannot work with (a cap of 0, an unknown profile)."""


class InputError(ChunkerError):
    """The input cannot be read as text; ``line`` is the raw line number where it failed."""

    def __init__(self, message: str, line: Optional[int] = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class EncodingUnavailable(ChunkerError):
    """A tiktoken encoding could not be loaded here; the message says how to provide it."""


class OutputError(ChunkerError, OSError):
    """An output could not be written (a full disk, a file over its size
    limit): the message names the output and the reason. Also an ``OSError``,
    which is what it was before it was named.

    >>> OutputError.of("stdout", OSError(28, "No space left on device"))
    OutputError('cannot write stdout: No space left on device')
    """

    @classmethod
    def of(cls, name: str, err: OSError) -> "OutputError":
        return cls(f"cannot write {name}: {err.strerror or err}")

"""Reading a byte stream into a Chunker: fixed-size blocks, UTF-8 with line numbers.

The stream is read in blocks of ``BLOCK_SIZE`` bytes and never whole. Each
block's complete lines are decoded and handed on; the unfinished last line waits
for the next block, unless it grows past the chunker's hard bound, when it is
handed on in pieces (an endless line must not be held whole). Invalid UTF-8 is
replaced and reported with its line number, or fatal with ``strict``.
"""

from __future__ import annotations

import re
from typing import BinaryIO, Callable, Iterator, List, Optional

from ._chunk import Chunk
from ._errors import InputError

BLOCK_SIZE = 1 << 16
_LINE_ENDS = re.compile(rb"\r\n|\r|\n")
_BOM = b"\xef\xbb\xbf"

# Signatures of files that are not text, with what to do instead.
_NOT_TEXT = (
    (b"%PDF-", "this is a PDF: extract its text first, e.g. pdftotext FILE.pdf - | stream-chunker"),
    (b"PK\x03\x04", "this is a ZIP container (.docx, .xlsx, .odt?): convert it to text first"),
    (b"\xd0\xcf\x11\xe0", "this is an old Office file (.doc?): convert it to text first"),
    (b"\xff\xfe", "this looks like UTF-16 text: convert it to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8"),
    (b"\xfe\xff", "this looks like UTF-16 text: convert it to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8"),
)


def _lines_in(data: bytes) -> int:
    return len(_LINE_ENDS.findall(data))


def check_text(head: bytes) -> None:
    """Refuse input that is plainly not text, saying what to do instead."""
    for magic, hint in _NOT_TEXT:
        if head.startswith(magic):
            raise InputError(f"binary input refused: {hint}", 1)
    if b"\x00" in head:
        line = _lines_in(head[: head.index(b"\x00")]) + 1
        raise InputError(
            "binary input refused (NUL bytes): stream-chunker reads text; extract the text "
            "first (for a PDF: pdftotext FILE.pdf -)", line)


class ByteReader:
    """Decodes blocks of bytes into the chunker's lines, keeping line numbers."""

    def __init__(self, chunker: "Chunker", strict: bool = False) -> None:  # noqa: F821
        self._chunker = chunker
        self._strict = strict
        self._carry = b""
        self._lines = 0  # line ends passed so far
        self._first = True
        self._bound = chunker.settings.max_paragraph_chars
        self.replaced = 0

    def feed(self, block: bytes) -> None:
        if self._first:
            self._first = False
            check_text(block[:8192])
            if block.startswith(_BOM):
                block = block[len(_BOM):]
        if self._strict and b"\x00" in block:
            raise InputError("NUL byte in the input (strict mode)",
                             self._lines + _lines_in((self._carry + block).split(b"\x00")[0]) + 1)
        data = self._carry + block
        end = max(data.rfind(b"\n"), data.rfind(b"\r"))
        if end == len(data) - 1 and data.endswith(b"\r"):
            end = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end))  # "\r" may be half of "\r\n"
        if end < 0:
            self._carry = data
            if len(data) > 4 * self._bound:  # an endless line: hand it on in pieces
                cut = self._char_boundary(data, len(data) - 4)
                self._chunker._feed_piece(self._decode(data[:cut]))
                self._carry = data[cut:]
            return
        complete, self._carry = data[: end + 1], data[end + 1:]
        text = self._decode(complete)
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self._chunker._feed_text(text)
        self._lines += _lines_in(complete)

    def close(self) -> None:
        if self._carry:
            text = self._decode(self._carry)
            self._carry = b""
            self._chunker._feed_text(text.replace("\r", "\n") + "\n")

    @staticmethod
    def _char_boundary(data: bytes, pos: int) -> int:
        """A cut at or before ``pos`` that does not split a UTF-8 sequence."""
        while pos > 0 and (data[pos] & 0xC0) == 0x80:
            pos -= 1
        return pos

    def _decode(self, data: bytes) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        parts: List[str] = []
        pos = 0
        while True:
            try:
                parts.append(data[pos:].decode("utf-8"))
                return "".join(parts)
            except UnicodeDecodeError as err:
                bad_at = pos + err.start
                line = self._lines + _lines_in(data[:bad_at]) + 1
                if self._strict:
                    raise InputError(
                        f"invalid UTF-8 (byte {data[bad_at]:#04x}); without --strict it is "
                        "replaced by U+FFFD and reported", line) from None
                parts.append(data[pos:bad_at].decode("utf-8"))
                parts.append("\ufffd")
                bad = err.end - err.start
                self.replaced += bad
                self._chunker._diagnose("replaced_byte", line, bytes=bad)
                pos = pos + err.end


def chunk_stream(chunker: "Chunker", stream: BinaryIO, strict: bool = False,  # noqa: F821
                 progress: Optional[Callable[[int], None]] = None) -> Iterator[List[Chunk]]:
    """Chunk a binary stream, yielding the chunks decided after each block."""
    reader = ByteReader(chunker, strict=strict)
    read = getattr(stream, "read1", stream.read)
    while True:
        block = read(BLOCK_SIZE)
        if not block:
            break
        reader.feed(block)
        if progress is not None:
            progress(len(block))
        if chunker._out:
            yield chunker._finish(chunker._drain())
    reader.close()
    chunker.report_data.replaced_bytes = reader.replaced
    yield chunker.close()

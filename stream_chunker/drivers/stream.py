"""Reading a byte stream into a Chunker: fixed-size blocks, UTF-8 with line numbers.

The stream is read in blocks of ``BLOCK_SIZE`` bytes and never whole. (Blocks
of 32 KiB keep every string the scanner makes under the size at which the C
allocator hands out fresh memory maps; with 64 KiB blocks the heap grew by a few
MiB over the first megabytes of input before it levelled off.) Each block's
complete lines are decoded and handed on; the unfinished last line waits for
the next block, but never more than a block of it (the chunker takes text in
pieces of any size, and an endless line must not be held whole). Invalid UTF-8
is replaced and reported with its line number, or fatal with ``strict``.
"""

from __future__ import annotations

import codecs
import re
import select
import threading
from typing import BinaryIO, Callable, Iterator, List, Optional, Tuple

from ..core.chunk import Chunk
from ..core.errors import ConfigError, InputError
from ..engine.chunker import Chunker

BLOCK_SIZE = 1 << 15
_LINE_ENDS = re.compile(rb"\r\n|\r|\n")
_BOM = b"\xef\xbb\xbf"

# Signatures of files that are not text, with what to do instead. Binary
# input is known by its first bytes only, never by a NUL byte: a NUL byte is
# dropped and counted wherever it comes (by the chunker itself, ``core.stages.splitter``),
# or ends the run under ``strict``, so that one byte is treated alike at the
# start of the input and a megabyte in.
_IMAGE = "this is an image (a scan?): it holds no text; OCR it first, e.g. ocrmypdf or tesseract"
_NOT_TEXT = (
    (b"%PDF-", "this is a PDF: extract its text first, e.g. pdftotext FILE.pdf - | stream-chunker"),
    (b"PK\x03\x04", "this is a ZIP container (.docx, .xlsx, .odt?): convert it to text first"),
    (b"\xd0\xcf\x11\xe0", "this is an old Office file (.doc?): convert it to text first"),
    (b"\xff\xfe", "this looks like UTF-16 text: convert it to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8"),
    (b"\xfe\xff", "this looks like UTF-16 text: convert it to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8"),
    (b"\x1f\x8b", "this is gzip-compressed: decompress it first, e.g. zcat FILE.gz | stream-chunker"),
    (b"\x89PNG\r\n\x1a\n", _IMAGE),
    (b"\xff\xd8\xff", _IMAGE),
    (b"II*\x00", _IMAGE),
    (b"MM\x00*", _IMAGE),
    (b"GIF8", _IMAGE),
    (b"\x7fELF", "this is a program (ELF), not a document"),
    (b"\xfd7zXZ\x00", "this is xz-compressed: decompress it first, e.g. xzcat FILE.xz | stream-chunker"),
    *((b"BZh%d1AY&SY" % level, "this is bzip2-compressed: decompress it first, e.g. bzcat FILE.bz2 | stream-chunker")
      for level in range(1, 10)),
    (b"\x28\xb5\x2f\xfd", "this is zstd-compressed: decompress it first, e.g. zstdcat FILE.zst | stream-chunker"),
    (b"7z\xbc\xaf\x27\x1c", "this is a 7-Zip archive: extract it first"),
    (b"Rar!\x1a\x07", "this is a RAR archive: extract it first"),
    (b"SQLite format 3\x00", "this is an SQLite database, not a document"),
)
# Text, whatever its language, is mostly letters, digits, punctuation and white
# space: input whose first bytes are mostly control characters or invalid UTF-8
# is not text, whatever its name (random bytes, a program, a file in an
# encoding with NUL bytes). A text with a few stray bytes is read, the bytes
# replaced or dropped and counted.
SNIFF_BYTES = 4096
"""Bytes of the first block looked at: enough to judge, little to hold."""
SNIFF_MIN_BYTES = 512
"""Bytes waited for before the first line is read, unless the input ends first."""
NOT_TEXT_SHARE = 0.3
"""Share of control characters and invalid UTF-8 in those bytes that makes input binary."""
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\ufffd]")


def _lines_in(data: bytes) -> int:
    return len(_LINE_ENDS.findall(data))


# The invalid runs of the decode under way in this thread, noted by the codec
# error handler below (handlers are registered globally, by name).
_REPLACED = threading.local()
_NOTE_AND_REPLACE = "stream_chunker.note_and_replace"


def _note_and_replace(err: UnicodeError) -> Tuple[str, int]:
    assert isinstance(err, UnicodeDecodeError)
    _REPLACED.runs.append((err.start, err.end))
    return "\ufffd", err.end


codecs.register_error(_NOTE_AND_REPLACE, _note_and_replace)


def text_encoding(name: str) -> str:
    """The codec name of an input encoding, or a ConfigError: it must be known
    and keep ASCII's line ends and letters (UTF-8, Latin-1, cp1252, Shift JIS ...),
    as lines are found in the bytes before they are decoded.

    >>> text_encoding("latin-1"), text_encoding("UTF8")
    ('iso8859-1', 'utf-8')
    """
    try:
        codec = codecs.lookup(name)
    except LookupError:
        raise ConfigError(f"unknown input encoding {name!r}") from None
    if "\n\r\f1 Aa.".encode(codec.name, "replace") != b"\n\r\f1 Aa.":
        raise ConfigError(f"input encoding {name!r} does not keep ASCII line ends: convert the text to UTF-8 "
                          "first (e.g. iconv -f UTF-16 -t UTF-8)")
    return codec.name


def check_text(head: bytes, encoding: str = "utf-8") -> None:
    r"""Refuse input that is plainly not text, by its first bytes ``head`` (its
    signature, or bytes that are mostly not text), saying what to do instead.

    >>> check_text(b"%PDF-1.4")
    Traceback (most recent call last):
    ...
    stream_chunker.core.errors.InputError: line 1: binary input refused: this is a PDF: extract its text first, e.g. pdftotext FILE.pdf - | stream-chunker
    >>> check_text(b"1 Cover\x00")
    """
    for magic, hint in _NOT_TEXT:
        if head.startswith(magic):
            raise InputError(f"binary input refused: {hint}", 1)
    sample = head[:SNIFF_BYTES]
    if not sample:
        return
    odd, even = sample[1::2].count(0), sample[0::2].count(0)
    if max(odd, even) > 0.4 * (len(sample) // 2) and min(odd, even) < 0.05 * (len(sample) // 2):
        raise InputError("binary input refused: this looks like UTF-16 text without a byte-order mark: "
                         "convert it to UTF-8 first, e.g. iconv -f UTF-16LE -t UTF-8", 1)
    text = sample.decode(encoding, "replace")
    if len(text) > 1 and text[-1] == "\ufffd":  # a character the sample's end cut in two
        text = text[:-1]
    odd_ones = len(_CONTROL.findall(text))
    if odd_ones > NOT_TEXT_SHARE * len(text):
        raise InputError(f"binary input refused: {100 * odd_ones // len(text)} % of its first "
                         f"{len(sample):,} bytes are control characters or invalid UTF-8; if it is text in "
                         "another encoding, convert it to UTF-8 first, e.g. iconv -f LATIN1 -t UTF-8", 1)


class ByteReader:
    """Decodes blocks of bytes into the chunker's lines, keeping line numbers."""

    def __init__(self, chunker: Chunker, strict: bool = False, encoding: str = "utf-8") -> None:
        self._chunker = chunker
        self._strict = strict
        self._encoding = text_encoding(encoding)
        self._carry = b""
        self._lines = 0  # line ends passed so far
        self._first = True
        self.replaced = 0

    def feed(self, block: bytes) -> List[Chunk]:
        """Take more bytes; return the chunks they decided."""
        if self._first:
            # A pipe may deliver the first bytes in tiny reads: look at enough of
            # them to know a PDF, a BOM or bytes that are not text when they come
            # (the end of the input judges a shorter one).
            block = self._carry + block
            self._carry = b""
            if len(block) < SNIFF_MIN_BYTES:
                self._carry = block
                return []
            block = self._first_block(block)
        return self._feed_block(block)

    def _first_block(self, block: bytes) -> bytes:
        self._first = False
        check_text(block, self._encoding)
        return block[len(_BOM):] if block.startswith(_BOM) else block

    def _feed_block(self, block: bytes) -> List[Chunk]:
        if self._strict and b"\x00" in block:
            raise InputError("NUL byte in the input (strict mode)",
                             self._lines + _lines_in((self._carry + block).split(b"\x00")[0]) + 1)
        data = self._carry + block
        end = max(data.rfind(b"\n"), data.rfind(b"\r"))
        if end == len(data) - 1 and data.endswith(b"\r"):
            end = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end))  # "\r" may be half of "\r\n"
        if end < 0:
            self._carry = data
            if len(data) <= BLOCK_SIZE:
                return []
            cut = self._char_boundary(data, len(data) - 4)  # a long line: hand it on in pieces
            self._carry = data[cut:]
            return self._chunker.feed(self._decode(data[:cut]))
        complete, self._carry = data[: end + 1], data[end + 1:]
        chunks = self._chunker.feed(self._decode(complete))
        self._lines += _lines_in(complete)
        return chunks

    def close(self) -> List[Chunk]:
        """The end of the bytes: the chunks the rest decided (the chunker is
        closed by its owner)."""
        chunks: List[Chunk] = []
        if self._first and self._carry:  # the whole input was shorter than a first look
            block, self._carry = self._carry, b""
            chunks = self._feed_block(self._first_block(block))
        if self._carry:
            data, self._carry = self._carry, b""
            chunks += self._chunker.feed(self._decode(data))
            self._lines += _lines_in(data) + (not data.endswith((b"\n", b"\r")))
        return chunks

    @property
    def line(self) -> int:
        """Line ends read so far."""
        return self._lines

    @staticmethod
    def _char_boundary(data: bytes, pos: int) -> int:
        """A cut at or before ``pos`` that does not split a UTF-8 sequence. A
        sequence is at most four bytes, so a run of continuation bytes longer
        than that is invalid anyway and is cut where it stands (walking back
        through it would hold an endless run of them whole)."""
        for back in range(pos, max(pos - 3, 0) - 1, -1):
            if (data[back] & 0xC0) != 0x80:
                return back
        return pos

    def _decode(self, data: bytes) -> str:
        try:
            return data.decode(self._encoding)
        except UnicodeDecodeError as err:
            if self._strict:
                line = self._lines + _lines_in(data[:err.start]) + 1
                raise InputError(
                    f"invalid {'UTF-8' if self._encoding == 'utf-8' else self._encoding} "
                    f"(byte {data[err.start]:#04x}); without --strict it is "
                    "replaced by U+FFFD and reported", line) from None
        # One pass with a handler that notes each invalid run: decoding again
        # from every bad byte would take time quadratic in their number.
        bad: List[Tuple[int, int]] = []
        _REPLACED.runs = bad
        text = data.decode(self._encoding, _NOTE_AND_REPLACE)
        line, counted = self._lines + 1, 0
        for start, end in bad:
            line += _lines_in(data[counted:start])  # never splits a "\r\n": an invalid byte is neither
            counted = start
            self.replaced += end - start
            self._chunker.diagnose("replaced_byte", line, bytes=end - start)
        return text


def _nothing_to_read(stream: BinaryIO) -> bool:
    """True when a read of ``stream`` may block: it is a pipe or terminal with
    nothing waiting (a regular file or an in-memory stream never blocks)."""
    try:
        fd = stream.fileno()
        poller = select.poll()  # unlike select.select, any descriptor number
        poller.register(fd, select.POLLIN)
    except (AttributeError, OSError, ValueError):  # no descriptor, or no poll (Windows)
        return False
    return not poller.poll(0)


def chunk_stream(chunker: Chunker, stream: BinaryIO, strict: bool = False,
                 progress: Optional[Callable[[int], None]] = None, encoding: str = "utf-8") -> Iterator[List[Chunk]]:
    """Chunk a binary stream, yielding the chunks decided after each block (a
    reader at the other end of a pipe gets each as soon as it is decided)."""
    reader = ByteReader(chunker, strict=strict, encoding=encoding)
    read = getattr(stream, "read1", stream.read)
    while True:
        if chunker.waiting and _nothing_to_read(stream):
            # Chunks wait for the counting process, and the next read may block
            # (a live pipe): hand them on first, so that whoever feeds the
            # pipe is never kept waiting for chunks already decided.
            yield chunker.flush()
        try:
            block = read(BLOCK_SIZE)
        except OSError as err:  # EIO, EISDIR (stdin from a directory), ...
            raise InputError(f"read error: {err.strerror or err}", reader.line + 1) from None
        if not block:
            break
        chunks = reader.feed(block)
        if progress is not None:
            progress(len(block))
        if chunks:
            yield chunks
    yield reader.close() + chunker.close()

r"""PDF in: a PDF's text read one page at a time and fed to a :class:`Chunker`
as ``pdftotext`` prints it, so that furniture, pages and line numbers work
as they do for ``pdftotext`` text.

Each page's text goes in whole, ``\n``-terminated, and the form feed that
ends a page goes in at the start of the next page's text, as ``pdftotext``
writes it (a chunk's page is 1 plus the form feeds before it). Only one page
is held at a time, so memory does not grow with the page count.

Two backends read the text:

- ``pdfium`` (the default): PDFium through ``pypdfium2``, a wheel with no
  system package (the ``[pdf]`` extra), imported only when
  a PDF is read. It reads the text in the order the page draws it, or by
  position where a page of one column draws it otherwise, or its left column
  first where it draws the right one first (``reading_order``).
- ``pdftotext``: poppler's ``pdftotext -raw`` as a subprocess, its output read
  as it comes (``layout=True`` for its ``-layout`` mode, columns side by side).

PDFium also reads how each line is set (``line_style``): the driver tells the
chunker before it feeds a page (``Chunker.note_layout``), and the policy
profile takes a line set above the body text that no rule takes for a heading
without a number (see ``core.layout``).

A page with no text is noted as a ``no_text_layer`` diagnostic when it draws
something (a scan; with ``pdftotext``, when poppler's ``pdfimages`` lists an
image on it), and a PDF with no text on any page is an :class:`InputError`.
So is every PDF that cannot be read.

Why one module of this length: both backends give the same ``Page``, fail with
the same messages and feed the chunker the same way; each is a few functions.
"""

from __future__ import annotations

import codecs
import ctypes
import math
import os
import re
import shutil
import subprocess
import tempfile
from contextlib import closing
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from ..core.chunk import Chunk
from ..core.errors import ConfigError, InputError
from ..core.layout import MAX_TERM_WORDS, QUOTES, Style
from ..engine.chunker import Chunker
from .centring import centred_alone
from .reading_order import Span, in_reading_order
from .watermark import stamps

BACKENDS = ("pdfium", "pdftotext")
SIGNATURE = b"%PDF-"
NOT_A_PDF = "not a PDF: it does not start with %PDF- (a web page saved under a .pdf name?)"
EMPTY_FILE = "not a PDF: the file is empty"
HEADER_WINDOW = 1024
"""Bytes in which a PDF's signature may stand after something put before it."""
OCR_HINT = "OCR it first (e.g. ocrmypdf in.pdf out.pdf) and chunk the result"
_NO_PASSWORD = "the PDF is encrypted: give its password with --password (password= in Python)"
_WRONG_PASSWORD = "the password given (--password) does not open this PDF"
#: Measured on the SFIP forms: lines of a paragraph sit 1.0-1.15 line heights
#: apart (the height of PDFium's loose character box), list items 1.4-1.5,
#: paragraphs 1.8 and more; but lines set with wider leading (1.4 here) are
#: told apart by the page's leading (``_with_block_breaks``).
BLOCK_BY_HEIGHT = 1.3
BLOCK_BY_LEADING = 1.2
REOPEN_PAGES = 256
_READ_SIZE = 1 << 15
_PDFIUM_LINE_ENDS = re.compile(r"\r\n?")
"""PDFium ends a line with ``\r\n``; a lone ``\r`` ends one too, as the splitter reads it."""
# PDFium joins a word hyphenated at a line end and leaves this noncharacter
# where the hyphen was: the word is whole, as pdftotext's soft hyphen asks.
_PDFIUM_HYPHEN = "\ufffe"

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a PDF, as a backend read it."""

    number: int
    """From 1."""

    count: Optional[int]
    """Pages in the PDF; ``None`` where the backend knows only at the end (``pdftotext``)."""

    text: Optional[str]
    """The text, ``\\n``-terminated lines; ``""`` for a blank page; ``None`` for a
    page with no text layer (it draws something but holds no text: a scan)."""

    styles: Optional[Tuple[Optional[Style], ...]] = None
    """How each line of ``text`` is set (``None`` for a blank line), where the
    backend reads the layout (PDFium); ``None`` where it does not."""

    leads: Optional[Tuple[int, ...]] = None
    """For each line of ``text``, how many of its first characters are set in
    bold where the rest of it is not (a run-in term: ``Hijack Any unlawful
    seizure …``), else 0; ``None`` where the backend reads no layout."""

    centred: Tuple[int, ...] = ()
    """The lines of ``text`` (from 0) that stand alone centred over the
    paragraph after them (``drivers.centring``), where the backend reads the layout."""


def is_pdf(head: bytes) -> bool:
    """Whether bytes that start a file are a PDF's: its signature first, or at the
    start of a line within the first ``HEADER_WINDOW`` bytes (PDF readers, poppler
    and PDFium among them, skip what a mailer or a web server put before it).

    >>> is_pdf(b"%PDF-1.7\\n"), is_pdf(b"<html>"), is_pdf(b"HTTP/1.1 200 OK\\r\\n\\r\\n%PDF-1.4")
    (True, False, True)
    >>> is_pdf(b"a line that quotes %PDF-1.4")
    False
    """
    if head.startswith(SIGNATURE):
        return True
    at = head.find(b"\n" + SIGNATURE, 0, HEADER_WINDOW)
    return at >= 0 or head.find(b"\r" + SIGNATURE, 0, HEADER_WINDOW) >= 0


def not_a_pdf(head: bytes) -> str:
    """Why a file named ``.pdf`` whose first bytes are ``head`` is not read as one."""
    return EMPTY_FILE if not head else NOT_A_PDF


def check_pdf(path: PathLike) -> None:
    """Raise :class:`InputError` unless ``path`` can be read and starts as a PDF."""
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_WINDOW + len(SIGNATURE))
    except OSError as err:
        raise InputError(f"cannot read {os.fspath(path)}: {err.strerror}") from None
    if not is_pdf(head):
        raise InputError(not_a_pdf(head))


def pdf_pages(path: PathLike, *, backend: str = "pdfium", password: Optional[str] = None,
              layout: bool = False, styles: bool = True) -> Iterator[Page]:
    """The pages of the PDF at ``path``, one at a time, each read only when asked for.

    ``password`` opens an encrypted PDF; ``layout`` asks ``pdftotext`` for its
    ``-layout`` mode (PDFium has none); ``styles``, whether PDFium reads how
    each line is set (a profile that reads no layout needs none). Raises :class:`InputError` for a PDF
    that cannot be read, :class:`ConfigError` for an unknown backend.
    """
    if backend not in BACKENDS:
        raise ConfigError(f"unknown PDF backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if layout and backend != "pdftotext":
        raise ConfigError("--layout (layout=True) is a mode of the pdftotext backend: PDFium has none")
    check_pdf(path)
    if backend == "pdftotext":
        return _pdftotext_pages(os.fspath(path), password, layout)
    return _pdfium_pages(os.fspath(path), password, styles)


def _pdfium_pages(path: str, password: Optional[str], styles: bool = True) -> Iterator[Page]:
    pdfium = _import_pdfium()
    return _read_pdfium(pdfium, path, password, _open_pdfium(pdfium, path, password), styles)


def _open_pdfium(pdfium: Any, path: str, password: Optional[str]) -> Any:
    try:
        return pdfium.PdfDocument(path, password=password)
    except pdfium.PdfiumError as err:
        raise InputError(_pdfium_open_error(err, password)) from None


def _read_pdfium(pdfium: Any, path: str, password: Optional[str], document: Any,
                 read_styles: bool = True) -> Iterator[Page]:
    """The pages of an open document. Each page is closed before the next is
    loaded; and PDFium keeps what it has parsed of a document until the
    document is closed (some 4 KB a page), so it is opened afresh every
    ``REOPEN_PAGES`` pages, lest memory grow with the page count."""
    fonts = FontNames() if read_styles else None  # (made once PDFium is loaded: it holds PDFium's types)
    try:
        count = len(document)
        for index in range(count):
            if index and index % REOPEN_PAGES == 0:
                document.close()
                document = _open_pdfium(pdfium, path, password)
            try:
                with closing(document[index]) as page, closing(page.get_textpage()) as textpage:
                    if fonts is not None:
                        fonts.first_look(textpage)
                    text, styles, leads, centred = _with_block_breaks(textpage, textpage.get_text_range(), fonts)
                    if fonts is not None:
                        fonts.page_read()
                    drawn = not text.strip() and next(iter(page.get_objects(max_depth=0)), None) is not None
            except pdfium.PdfiumError as err:
                raise InputError(f"page {index + 1} cannot be read ({err}): the PDF is damaged") from None
            page_text = _pdfium_text(text, drawn)
            if page_text is not None and len(styles) == page_text.count("\n") + 1 and styles[-1] is None:
                styles, leads = styles[:-1], leads[:-1]  # the empty "line" after a last line end
            if page_text is not None and page_text.count("\n") != len(styles):
                styles = []  # (cannot happen: the lines are cut as the text is; but never misplace a style)
            read = fonts is not None and bool(styles)
            yield Page(index + 1, count, page_text, tuple(styles) if read else None, tuple(leads) if read else None,
                       tuple(centred) if read else ())
    finally:
        document.close()


def _with_block_breaks(textpage: Any, text: str,
                       fonts: Optional["FontNames"]) -> Tuple[str, List[Optional[Style]], List[int], List[int]]:
    """The page's text in reading order (``drivers.reading_order``), with a
    blank line wherever a new block starts, as pdftotext writes it; how each
    line of it is set and the run-in term it starts with, if any (see
    ``line_style``). A line PDFium ran on into the next (``_second_line``),
    or put together from two pieces far apart in different sizes
    (``_set_beside``), is read as two lines.

    PDFium ends each line with ``\r\n`` but marks no paragraph, and the
    chunker needs blank lines to tell paragraphs and list items apart. A line
    starts a block when it sits above the line before (the next column), or
    further below it than both ``BLOCK_BY_HEIGHT`` times that line's height and
    ``BLOCK_BY_LEADING`` times the page's usual leading (the lower quartile of
    the distances between lines: most are those of lines within a paragraph,
    whatever the font and line spacing) -- that leading scaled up for two
    lines both set larger than the page's usual line (a title in 15-point
    type over two lines 18 points apart, where the body's lines are 12)."""
    # Lines end at ``\r\n``, or a lone ``\r``, as the splitter ends them, so
    # that each style is the style of the line it is given with.
    lines: List[str] = []
    starts: List[int] = []
    at = 0
    for m in _PDFIUM_LINE_ENDS.finditer(text):
        lines.append(text[at:m.start()])
        starts.append(at)
        at = m.end()
    lines.append(text[at:])
    starts.append(at)
    spans: List[Optional[Span]] = []  # where each line sits
    styles: List[Optional[Style]] = []
    leads: List[int] = []
    at = 0
    while at < len(lines):
        line, offset = lines[at], starts[at]
        if not line.strip():
            spans.append(None)
            styles.append(None)
            leads.append(0)
            at += 1
            continue
        ends = _end_boxes(textpage, offset, line)
        cut = _second_line(textpage, offset, line, ends) if ends is not None else None
        style, lead = line_style(textpage, offset, line, fonts) \
            if fonts is not None and cut is None and not _sideways(ends) else (None, 0)
        if cut is None and style is None and fonts is not None:
            cut = _set_beside(textpage, offset, line)
        if cut is not None:  # (PDFium ran two lines on: each is read on its own)
            lines[at:at + 1] = [line[:cut].rstrip(" "), line[cut:]]
            starts[at:at + 1] = [offset, offset + cut]
            continue
        spans.append(_line_span(ends))
        styles.append(style)
        leads.append(lead)
        at += 1
    stamped = stamps(lines, spans)
    for first, end, _ in reversed(stamped):  # (set aside: read at the page's foot, see drivers.watermark)
        del lines[first:end], spans[first:end], styles[first:end], leads[first:end]
    lines, spans, styles, leads = in_reading_order(lines, spans, styles, leads)
    boxes = [(span.bottom, span.height) if span is not None else None for span in spans]
    placed = [box for box in boxes if box is not None]
    drops = sorted(drop for drop in (a[0] - b[0] for a, b in zip(placed, placed[1:])) if drop > 0)
    leading = drops[len(drops) // 4] if drops else 0.0
    heights = sorted(box[1] for box in placed)
    usual = heights[len(heights) // 2] if heights else 0.0  # (the body's line height: most lines are its)
    out: List[str] = []
    out_styles: List[Optional[Style]] = []
    out_leads: List[int] = []
    out_spans: List[Optional[Span]] = []
    previous: Optional[Tuple[float, float]] = None
    for line, span, box, style, lead in zip(lines, spans, boxes, styles, leads):
        if box is not None:
            if previous is not None:
                drop = previous[0] - box[0]
                # (The page's leading is the body's: a title set larger is set
                # with a leading as much larger, and its lines are one block.)
                scale = max(1.0, min(previous[1], box[1]) / usual) if usual else 1.0
                if drop < -previous[1] / 2 or drop > max(BLOCK_BY_HEIGHT * previous[1], BLOCK_BY_LEADING * leading * scale):
                    out.append("")
                    out_styles.append(None)
                    out_leads.append(0)
                    out_spans.append(None)
            previous = box
        out.append(line)
        out_styles.append(style if box is not None else None)
        out_leads.append(lead if box is not None else 0)
        out_spans.append(span)
    for _, _, word in stamped:
        out += ["", word]
        out_styles += [None, None]
        out_leads += [0, 0]
        out_spans += [None, None]
    return "\n".join(out), out_styles, out_leads, centred_alone(out, out_spans)


STYLE_SAMPLE = 10
"""Characters of a line whose font is read: enough for a majority, and a
line's cost bounded however long it is (each is three calls into PDFium)."""
UNIFORM = 0.8
"""The share of a line's sampled characters in one style for the line to be
set in it; a line of mixed styles (a bold term, then its text) has none."""


TINT = 48
"""How far apart a fill colour's strongest and weakest channels are, at
least, for it to be a colour: black, greys and white are not (a body set in
dark grey, ``(35, 31, 32)``, is no colour; a heading in blue, ``(23, 54, 93)``, is)."""
LIGHT, REGULAR, BOLD = 1, 2, 3
"""A font's weight, as far as it tells a heading or a term from the body."""
FIRST_LOOK = 256
"""Characters of the first page with text whose fonts are read before its lines are."""
MAX_FONTS = 1024
"""Font names remembered; a document with more has them asked again."""


class FontNames:
    """What a document's characters are set in: whether a font is bold, by
    name and weight, asked once per font; and PDFium's raw calls, with the
    buffers they read into."""

    _BOLD = re.compile(r"bold|black|heavy|semibold|demi|medium|,b\b|-b\b", re.IGNORECASE)
    _LIGHT = re.compile(r"light|thin|hairline", re.IGNORECASE)

    def __init__(self) -> None:
        import pypdfium2.raw as pdfium_c

        self.c: Any = pdfium_c
        self._bold: Dict[bytes, bool] = {}
        self._weight: Dict[bytes, int] = {}  # LIGHT, REGULAR or BOLD, by name and weight
        self._used: Dict[bytes, int] = {}  # characters asked of each font
        self.light_body = False
        """The font that has set the most characters so far is a light weight."""
        self._buffer = ctypes.create_string_buffer(256)
        self._flags = ctypes.c_int()
        self.matrix: Any = pdfium_c.FS_MATRIX()  # a character's matrix, read into here
        self._edges = [ctypes.c_double() for _ in range(4)]  # a character's box, read into here
        self._colour = [ctypes.c_uint() for _ in range(4)]  # a character's fill colour, read into here

    def box(self, textpage: Any, index: int) -> Tuple[float, float]:
        """The left and right of character ``index``'s box."""
        left, right, bottom, top = self._edges
        self.c.FPDFText_GetCharBox(textpage, index, ctypes.byref(left), ctypes.byref(right),
                                   ctypes.byref(bottom), ctypes.byref(top))
        return left.value, right.value

    def tinted(self, textpage: Any, index: int) -> bool:
        """Character ``index`` is filled in a colour (see ``TINT``)."""
        red, green, blue, alpha = self._colour
        if not self.c.FPDFText_GetFillColor(textpage, index, ctypes.byref(red), ctypes.byref(green),
                                            ctypes.byref(blue), ctypes.byref(alpha)):
            return False
        channels = (red.value, green.value, blue.value)
        return max(channels) - min(channels) >= TINT

    def bold(self, textpage: Any, index: int) -> bool:
        pdfium_c = self.c
        size = pdfium_c.FPDFText_GetFontInfo(textpage, index, self._buffer, len(self._buffer),
                                             ctypes.byref(self._flags))
        if size > len(self._buffer):  # a name longer than the buffer: PDFium wrote nothing
            self._buffer = ctypes.create_string_buffer(size)
            size = pdfium_c.FPDFText_GetFontInfo(textpage, index, self._buffer, len(self._buffer),
                                                 ctypes.byref(self._flags))
        name = self._buffer.raw[:max(size - 1, 0)]
        used = self._used
        used[name] = used.get(name, 0) + 1
        known = self._bold.get(name)
        if known is None:
            if len(self._bold) >= MAX_FONTS:  # (a document of many font subsets: asked again)
                self._bold.clear()
                self._weight.clear()
                used.clear()
                used[name] = 1
            weight = pdfium_c.FPDFText_GetFontWeight(textpage, index)
            decoded = name.decode("latin-1")
            # The weight is often 0 or 400 where the name says Bold (Helvetica-Bold).
            known = weight >= 600 or bool(self._BOLD.search(decoded))
            self._bold[name] = known
            light = 0 < weight <= 300 or bool(self._LIGHT.search(decoded))
            self._weight[name] = LIGHT if light else (BOLD if known else REGULAR)
        return known or self.light_body and self._weight[name] == REGULAR

    def first_look(self, textpage: Any) -> None:
        """Before the first page with text is read: its fonts, from ``FIRST_LOOK``
        characters spread over it, so that its own lines are weighed against its body."""
        if self._used:
            return
        count = self.c.FPDFText_CountChars(textpage)
        for k in range(min(count, FIRST_LOOK)):
            self.bold(textpage, k * count // FIRST_LOOK if count > FIRST_LOOK else k)
        self.page_read()

    def page_read(self) -> None:
        """A page is read: learn whether the body so far is set in a light weight,
        where the regular weight of its face is its emphasis (``AllianzNeo-Light``
        text, its terms and subheadings in ``AllianzNeo-Regular``)."""
        if self._used:
            body = max(self._used, key=self._used.__getitem__)
            self.light_body = self._weight.get(body) == LIGHT


def line_style(textpage: Any, offset: int, line: str, fonts: FontNames) -> Tuple[Optional[Style], int]:
    """How a line of the page's text (at ``offset`` in it) is set: the size and
    weight of most of its characters, read from up to ``STYLE_SAMPLE`` of them
    spread over the line (``None`` when no style holds ``UNIFORM`` of them);
    and how many of its first characters are a bold run-in term where the
    rest is not bold (0 for none), read up to ``MAX_LEAD`` characters in.

    The size is the font size times the vertical scale of the character's
    matrix: PDFium's font size alone reads 1 where the text matrix scales
    the font, and a box's height differs from one font to another."""
    where = [i for i, ch in enumerate(line) if not ch.isspace()]
    first = where[0] if where else 0
    if len(where) > STYLE_SAMPLE:
        step = len(where) / STYLE_SAMPLE
        where = [where[int(k * step)] for k in range(STYLE_SAMPLE)]
    seen: Dict[Style, int] = {}
    matrix, pdfium_c = fonts.matrix, fonts.c
    for i in where:
        index = pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + i)
        if index < 0:
            continue
        size = pdfium_c.FPDFText_GetFontSize(textpage, index)
        if pdfium_c.FPDFText_GetMatrix(textpage, index, ctypes.byref(matrix)):
            size *= math.hypot(matrix.c, matrix.d)
        bold = fonts.bold(textpage, index)
        # (Bold is evidence enough: a bold line in colour is set as one in black, whose rules it keeps.)
        style = Style(round(size * 2) / 2, bold, not bold and fonts.tinted(textpage, index))
        seen[style] = seen.get(style, 0) + 1
    if not seen:
        return None, 0
    style, n = max(seen.items(), key=lambda item: item[1])
    uniform = style if n >= UNIFORM * sum(seen.values()) else None
    # A term may be most of the characters sampled (``Approved windscreen supplier A repairer
    # we``): a line in bold but for words at its end starts with a run-in term, and is not a
    # bold line (a heading's own line is bold to its end, or but for a page number after it).
    lead = _bold_lead(textpage, offset, line, first, fonts)
    if lead and uniform is not None and uniform.bold:
        if not _WORD_AFTER.search(line, lead):
            lead = 0
        else:
            uniform = None
    if not lead and uniform is not None:
        lead = -_hanging_lead(textpage, offset, line, first, fonts, uniform.size)
    return uniform, lead


_WORD_AFTER = re.compile(r"[^\W\d_]{2,}")
"""A word of letters: what the text after a run-in term starts with, not only figures."""


def _bold_lead(textpage: Any, offset: int, line: str, first: int, fonts: FontNames) -> int:
    """Where a run of bold characters from the line's first one ends, if the line goes on after it in a
    weight that is not bold (0 if it does not start bold, or is bold beyond ``MAX_LEAD``). Quotes around
    the run go with it, in any weight (``"Business Pursuit" means``, the term alone in bold), and so do
    the words that join the names of one term, in any weight (``we``, ``our`` or ``us``)."""
    start = first
    while start < len(line) and line[start] in QUOTES:
        start += 1
    end = min(len(line), first + MAX_LEAD)
    i = start
    while i < end:
        if line[i].isspace():
            i += 1
            continue
        index = fonts.c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + i)
        if index < 0 or not fonts.bold(textpage, index):
            if i == start:
                return 0
            joined = _JOINER.match(line, i - 1 if line[i - 1].isspace() else i)
            if joined is not None and joined.end() < end and _is_bold(textpage, offset + joined.end(), fonts):
                i = joined.end()
                continue
            return i + 1 if start > first and line[i] in QUOTES else i
        i += 1
    return 0


_JOINER = re.compile(r"\s*[,/]\s*|\s+(?:or|and)\s+")
"""What joins two names of one defined term: ``accidental, accident``, ``you or your``."""


def _is_bold(textpage: Any, text_index: int, fonts: FontNames) -> bool:
    index = fonts.c.FPDFText_GetCharIndexFromTextIndex(textpage, text_index)
    return index >= 0 and fonts.bold(textpage, index)


MAX_LEAD = 60
"""Characters a run-in term may take at a line's start."""
HANGING_GAP = 2.0
"""How far a hanging term stands from its text, in font sizes: a column's gap, not a word's."""


def _hanging_lead(textpage: Any, offset: int, line: str, first: int, fonts: FontNames, size: float) -> int:
    """Where the text after a hanging term starts (0 for none): the line's first
    words in a column of their own (``When We will pay``, a side heading),
    set apart from the rest by a gap of ``HANGING_GAP`` sizes or more within
    ``MAX_LEAD`` characters and ``MAX_TERM_WORDS`` words, and by no such gap
    again within as many words after it (a table's row has more than one)."""
    c, box = fonts.c, fonts.box
    found, words, i, end = 0, 0, first, len(line)
    while i < end and words <= 2 * MAX_TERM_WORDS:
        if not line[i].isspace():
            i += 1
            continue
        j = i
        while j < end and line[j].isspace():
            j += 1
        if j >= end:
            break
        words += 1
        before, after = c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + i - 1), \
            c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + j)
        if before >= 0 and after >= 0 and box(textpage, after)[0] - box(textpage, before)[1] >= HANGING_GAP * size:
            if found:
                return 0
            if i - first > MAX_LEAD or words > MAX_TERM_WORDS:
                return 0
            found = j
        elif not found and (i - first > MAX_LEAD or words > MAX_TERM_WORDS):
            return 0
        i = j
    return found


Box = Tuple[float, float, float, float]
"""A character's loose box: left, bottom, right, top."""


def _end_boxes(textpage: Any, offset: int, line: str) -> Optional[Tuple[Box, Box]]:
    """The loose boxes of the first and last characters of the line at
    ``offset`` of the page's text, or ``None`` where PDFium has none."""
    import pypdfium2.raw as c

    first = c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + len(line) - len(line.lstrip()))
    last = c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + len(line.rstrip()) - 1)
    if first < 0 or last < 0:
        return None
    return textpage.get_charbox(first, loose=True), textpage.get_charbox(last, loose=True)


def _sideways(ends: Optional[Tuple[Box, Box]]) -> bool:
    """The line is set on its side: from its first character to its last it
    runs further up or down the page than across it, by more than a
    character's height (a booklet's tabs in its margin, ``Trauma``, ``Income
    &``, printed upwards on every other page). Its style says nothing of a
    heading: it is given none.

    >>> _sideways(((560.0, 422.0, 571.0, 428.0), (560.0, 447.0, 571.0, 453.0)))
    True
    >>> _sideways(((72.0, 700.0, 78.0, 710.0), (300.0, 700.0, 306.0, 710.0)))
    False
    """
    if ends is None:
        return False
    (left, bottom, _, top), (_, last_bottom, right, _) = ends
    rise = abs(last_bottom - bottom)
    return rise > top - bottom and rise > abs(right - left)


def _line_span(ends: Optional[Tuple[Box, Box]]) -> Optional[Span]:
    """Where a line sits, from its first and last characters' boxes
    (``_end_boxes``): the bottom and height of a character's loose box (the
    font's full height, alike for every letter), from its first character's
    left to its last's right. The box is the taller of the two: a bullet
    drawn from a symbol font (``n`` in Wingdings, a square) has a box of its
    own glyph's height, which would set the line apart from the lines of its
    own item."""
    if ends is None:
        return None
    (left, bottom, _, top), (_, last_bottom, right, last_top) = ends
    if last_top - last_bottom > top - bottom:
        bottom, top = last_bottom, last_top
    return Span(bottom, top - bottom, left, right)


def _word_starts(textpage: Any, offset: int, line: str,
                 wanted: Optional[Callable[[str, str], bool]] = None) -> Iterator[Tuple[int, Box, Box]]:
    """Each word after the first of the line at ``offset`` whose first
    character and the one before its space PDFium places (and ``wanted``
    takes, given the two): the word's start in the line, and the loose boxes of that
    character before the space and of the word's first."""
    import pypdfium2.raw as c

    for at in range(len(line) - len(line.lstrip()) + 2, len(line.rstrip())):
        if line[at - 1] == " " and line[at - 2] != " " and line[at] != " " and (wanted is None or wanted(line[at - 2], line[at])):
            before = c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + at - 2)
            here = c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + at)
            if before >= 0 and here >= 0:
                yield at, textpage.get_charbox(before, loose=True), textpage.get_charbox(here, loose=True)


NEXT_LINE = 0.8
"""How far below a line's first character, in its heights, a character sits
that starts the next line: a subscript drops less."""


def _second_line(textpage: Any, offset: int, line: str, ends: Tuple[Box, Box]) -> Optional[int]:
    """Where the line at ``offset`` goes on to the line below, if PDFium ran
    the two together (``autos. 4. Non-Owned Trailer Physical Damage``, where
    the page prints ``autos.`` and the next item's heading under it): the
    first word, after a space, whose character sits ``NEXT_LINE`` line heights
    below the line's first and left of the character before the space, as a
    line that starts again at the margin does. Only where the line's last
    character (``ends``, with its first) sits that far below its first are
    more boxes read. Text set on its side (a margin's form number read
    downwards) drops a little at every character: a line whose second
    character is off its first's baseline is not cut. A word hyphenated at a
    line end is PDFium's own join, with no space at the turn: it stays one
    line."""
    import pypdfium2.raw as c

    (_, bottom, _, top), last = ends
    below = bottom - NEXT_LINE * (top - bottom)
    if last[1] > below:
        return None
    second = c.FPDFText_GetCharIndexFromTextIndex(textpage, offset + len(line) - len(line.lstrip()) + 1)
    if second < 0 or abs(textpage.get_charbox(second, loose=True)[1] - bottom) >= (top - bottom) / 2:
        return None  # (its second character not on its first's baseline: text set on its side)
    return next((at for at, before, here in _word_starts(textpage, offset, line)
                 if here[1] <= below and here[0] < before[2]), None)


APART = 3.0
"""The widest gap, in character heights, between two words of one line's text."""
OTHER_SIZE = 1.3
"""How much larger, at least, one of two pieces of a line is set for them to be apart."""


def _set_beside(textpage: Any, offset: int, line: str) -> Optional[int]:
    """Where a line of mixed styles that PDFium put together from two pieces
    on one baseline, far apart and set in different sizes, splits: a running
    header beside the page's title (``Section 1: Liability continued`` in 7
    points, ``Section 2: Fire and theft`` in 14 across the page). The first
    word, after a space, that starts ``APART`` character heights or more
    right of the letter before the space, one of the two letters set
    ``OTHER_SIZE`` times larger. A table's row keeps its cells (they share a
    size, or the letters do where a symbol font draws a tick); a bullet keeps
    its text (it is no letter)."""
    for at, (_, low, right, high), (left, bottom, _, top) in _word_starts(textpage, offset, line, _letters):
        small, large = sorted((high - low, top - bottom))
        if small > 0 and left - right >= APART * small and large >= OTHER_SIZE * small:
            return at
    return None


def _letters(before: str, first: str) -> bool:
    """Both letters: words of text either side, not a bullet, a tick or a figure."""
    return before.isalpha() and first.isalpha()


def _pdfium_text(text: str, drawn: bool) -> Optional[str]:
    r"""The page's text as the chunker reads it. PDFium joins a word it finds
    hyphenated at a line's end, marking the turn with U+FFFE: the mark goes,
    but for a compound whose second part is a word with a capital first or a
    figure, which keeps its hyphen (``Pre-`` ⏎ ``Hospitalization``, ``COVID-``
    ⏎ ``19``; a word in capitals broken, ``OTH-`` ⏎ ``ERS``, is joined).

    >>> _pdfium_text("condo\ufffeminium Pre\ufffeHospitalization COVID\ufffe19 OTH\ufffeERS", False)
    'condominium Pre-Hospitalization COVID-19 OTHERS\n'
    """
    if not text.strip():
        return None if drawn else ""
    if _PDFIUM_HYPHEN in text:  # (``_with_block_breaks`` has ended its lines with "\n")
        text = _COMPOUND_TURN.sub("-", text).replace(_PDFIUM_HYPHEN, "")
    return text if text.endswith("\n") else text + "\n"


_COMPOUND_TURN = re.compile(f"{_PDFIUM_HYPHEN}(?=[0-9]|[A-Z][a-z])")


def _import_pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError:
        raise InputError("reading a PDF needs pypdfium2: pip install pypdfium2 (the [pdf] extra) "
                         "(or use the pdftotext backend, from poppler-utils)") from None
    return pypdfium2


def _pdfium_open_error(err: Any, password: Optional[str]) -> str:
    import pypdfium2.raw as codes

    if err.err_code == codes.FPDF_ERR_PASSWORD:
        return _WRONG_PASSWORD if password is not None else _NO_PASSWORD
    if err.err_code == codes.FPDF_ERR_SECURITY:
        return "the PDF is encrypted with a scheme PDFium cannot open: try --pdf-backend pdftotext"
    if err.err_code == codes.FPDF_ERR_SUCCESS:
        return "the PDF has no pages"
    return f"cannot read this PDF: it is damaged or truncated ({str(err).rstrip('.')})"


def _pdftotext_pages(path: str, password: Optional[str], layout: bool) -> Iterator[Page]:
    program = shutil.which("pdftotext")
    if program is None:
        raise InputError("pdftotext not found: install poppler-utils (apt-get install poppler-utils), "
                         "or use the pdfium backend")
    # The password is on poppler's command lines, where other users of this
    # machine can see it (ps): pdftotext takes it no other way.
    unlock = ["-upw", password] if password is not None else []
    # -raw: the text in the order the page draws it, as PDFium reads it; the
    # default mode prints a two-column page's blocks out of order.
    args = [program, "-layout" if layout else "-raw", *unlock, path, "-"]
    return _read_pdftotext(args, password is not None, lambda number: _shows_image(path, number, unlock))


def _read_pdftotext(args: List[str], password_given: bool, shows_image: Callable[[int], bool]) -> Iterator[Page]:
    """Split pdftotext's output at its form feeds as it arrives: one page is
    held at a time. Its messages go to a file, not a pipe, so that a PDF that
    makes many of them cannot stall it while its output is read."""
    with tempfile.TemporaryFile() as messages:
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=messages)
        assert process.stdout is not None
        try:
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            pending: List[str] = []
            number = 0
            while True:
                block = os.read(process.stdout.fileno(), _READ_SIZE)
                *ended, rest = decoder.decode(block, final=not block).split("\f")
                for part in ended:
                    pending.append(part)
                    number += 1
                    yield _pdftotext_page(number, "".join(pending), shows_image)
                    pending.clear()
                pending.append(rest)
                if not block:
                    break
            status = process.wait()
        finally:
            if process.poll() is None:  # the caller stopped early
                process.kill()
                process.wait()
            process.stdout.close()
        if status != 0:
            messages.seek(0)
            said = messages.read().decode("utf-8", "replace").strip().splitlines()
            if any("Incorrect password" in line for line in said):
                raise InputError(_WRONG_PASSWORD if password_given else _NO_PASSWORD)
            raise InputError(f"pdftotext cannot read this PDF (damaged or truncated?): "
                             f"{said[-1] if said else f'exit status {status}'}")
        tail = "".join(pending)
        if tail.strip():  # text after the last form feed (pdftotext ends every page with one)
            yield _pdftotext_page(number + 1, tail, shows_image)


def _pdftotext_page(number: int, text: str, shows_image: Callable[[int], bool]) -> Page:
    if text.strip():
        return Page(number, None, text if text.endswith("\n") else text + "\n")
    return Page(number, None, None if shows_image(number) else "")


def _shows_image(path: str, number: int, unlock: List[str]) -> bool:
    """Whether page ``number`` shows an image, as poppler's pdfimages lists
    them (pdftotext cannot tell a blank page from a scan); asked only of pages
    without text. Where pdfimages is missing, every such page counts as one."""
    program = shutil.which("pdfimages")
    if program is None:
        return True
    listing = subprocess.run([program, "-list", "-f", str(number), "-l", str(number), *unlock, path],
                             capture_output=True, text=True, errors="replace").stdout
    return len(listing.splitlines()) > 2  # a row under its two lines of header


def pdf_batches(chunker: Chunker, path: PathLike, *, backend: str = "pdfium", password: Optional[str] = None,
                layout: bool = False,
                progress: Optional[Callable[[Page], None]] = None) -> Iterator[List[Chunk]]:
    """Feed the PDF at ``path`` to ``chunker`` a page at a time; yield the chunks
    each page decided, and last those of ``chunker.close()``.

    ``progress`` is called with each page once it is read. Raises
    :class:`InputError` when the PDF cannot be read or no page has text.
    """
    chunker.read_from(f"pdf ({backend})")
    lines = 0  # lines fed so far
    breaks = ""  # form feeds of the pages since the last text, due at the start of the next
    with_text = without_layer = 0
    for page in pdf_pages(path, backend=backend, password=password, layout=layout, styles=chunker.reads_layout):
        if page.text is None:
            without_layer += 1
            chunker.diagnose("no_text_layer", lines + 1, page=page.number)
        elif page.text:
            with_text += 1
            if page.styles is not None:
                chunker.note_layout(lines + 1, page.text, page.styles, page.leads or (), page.centred)
            batch = chunker.feed(breaks + page.text)
            lines += page.text.count("\n")
            breaks = ""
            if batch:
                yield batch
        breaks += "\f"
        if progress is not None:
            progress(page)
    if not with_text:
        if without_layer:
            raise InputError(f"no page of this PDF has a text layer (a scan?): {OCR_HINT}")
        raise InputError("this PDF has no text on any page")
    yield chunker.close()


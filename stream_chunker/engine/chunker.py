"""The engine: a sans-IO ``Chunker`` -- text in, chunks out, no I/O of its own.

Text goes through three stages, put together by ``core.stages.chain`` (``splitter``: complete
lines; ``zones``: page furniture judged; ``cutter``: records) to the reader (``core.machine``), which
drives the profile, which hands its text to the packer; the chunks decided are
counted (``core.tokens``, or a driver's counter) and handed on.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Dict, List, Optional, Sequence

from ..core.chunk import Chunk
from ..core.errors import ConfigError
from ..core.layout import Layout, Style
from ..core.machine import Reader
from ..core.packing import Cap
from ..core.records import STYLED, Line
from ..core.report import Report
from ..core.sizing import sizer
from ..core.stages.chain import chain
from ..core.tokens import DEFAULT_ENCODING, Counter, InlineCounter, load_encoding
from ..profiles.base import profiles
from .options import AUTO, Options, profile_spec  # noqa: F401  (AUTO: drivers take it from here too)
from .sniff import Sniffer

Diagnostic = Dict[str, Any]

_KEYWORD_DEFAULTS = ("policy", None, None, "estimate", DEFAULT_ENCODING, True)


class Chunker:
    r"""Push text in, take chunks out; no I/O of its own.

    ``feed`` takes text in pieces of any size, as it arrives: a line ends only
    at a line end (``\n``, ``\r\n`` or ``\r``), however the text is cut, and
    ``close`` ends the last one. Each call returns the chunks that the text so
    far decided, and the chunks are the same however the text was cut.
    ``close`` ends the input and returns the rest; after it, ``feed`` raises
    ``ConfigError`` and ``close`` returns nothing. Options are those of
    :func:`stream_chunker.chunk_lines`, given as keywords or, checked
    already, as one :class:`~stream_chunker.engine.options.Options`.

    >>> c = Chunker(max_tokens=400, real_tokens=False)
    >>> c.feed("1 Cover\nWe cover the house.\n2 Exc"), c.feed("ess\nThe first 250 is yours.")
    ([], [])
    >>> [(chunk.id, chunk.text) for chunk in c.close()], c.report["sections"]
    ([('1', 'We cover the house.'), ('2', 'The first 250 is yours.')], 2)

    Chunks leave once they are decided: a section may go on until the next
    heading, and the first lines of the text wait until it is known whether
    they are a running header (see ``core.stages.zones``). ``counter`` is who counts real
    tokens: by default this thread, as chunks are decided; a driver may pass
    its own (``drivers.counting``), from which chunks may come back a call or two
    later -- ``close`` returns every one.
    """

    def __init__(
        self,
        options: Optional[Options] = None,
        /,
        *,
        profile: str = "policy",
        max_tokens: Optional[int] = None,
        max_chars: Optional[int] = None,
        cap_by: str = "estimate",
        encoding: str = DEFAULT_ENCODING,
        real_tokens: bool = True,
        on_diagnostic: Optional[Callable[[Diagnostic], None]] = None,
        counter: Optional[Counter] = None,
        **profile_options: Any,
    ) -> None:
        if options is None:
            options = Options.of(profile=profile, max_tokens=max_tokens, max_chars=max_chars, cap_by=cap_by,
                                 encoding=encoding, real_tokens=real_tokens, **profile_options)
        elif profile_options or (profile, max_tokens, max_chars, cap_by, encoding, real_tokens) != _KEYWORD_DEFAULTS:
            raise ConfigError("give the options as Options or as keywords, not both")
        self.options = options
        self._given_counter = counter
        self._on_diagnostic = on_diagnostic
        self._closed = False
        self._decided: List[Chunk] = []
        self._counter: Optional[Counter] = None
        self._auto = options.profile == AUTO
        self._report = Report(profile=options.profile, cap=0, cap_unit="", encoding=None, auto=self._auto)
        self._reader: Optional[Reader] = None  # made once the profile is known
        self._sniffer: Optional[Sniffer] = Sniffer(
            {name: spec.signature for name, spec in profiles().items() if spec.signature is not None})
        self._held: List[str] = []  # with "auto": the text read before the profile is chosen
        self._layout: Optional[Layout] = Layout()  # None once the profile chosen reads no layout
        if not self._auto:
            self._build(options.profile)

    def _build(self, profile: str) -> None:
        encoding, real_tokens, counter = self.options.encoding, self.options.real_tokens, self._given_counter
        self.settings = self.options.settings_for(profile)
        encode = load_encoding(encoding).encode_ordinary if real_tokens else None
        cap = Cap(self.settings.cap, sizer(self.settings.cap_unit,
                                           None if encode is None else lambda text: len(encode(text))),
                  self.settings.hard_max_tokens)
        if encode is not None:  # a cap of real tokens counts as it packs: no counter beside it
            self._counter = counter if counter is not None and not cap.sizer.real else InlineCounter(encode)
        if self._counter is not None:
            self._counter.attach(self.diagnose)
        report = self._report
        report.profile, report.cap, report.cap_unit = profile, cap.limit, cap.sizer.unit
        report.caps_tokens = cap.sizer.counts_tokens
        report.encoding = encoding if real_tokens else None
        self.profile = profile_spec(profile).factory(self.settings, self._decided.append, self.diagnose, cap)
        self._reader = Reader(self.profile, self.profile.classes())
        if STYLED not in self.profile.classes():
            self._layout = None
        self.profile.layout = self._layout
        stages = chain(bound=self.settings.max_paragraph_chars, special=lambda: self.profile.special,
                       leader=self.profile.leader, classify=self.profile.classify, records=self._reader.push,
                       furniture=self._furniture, diagnose=self.diagnose, layout=self._layout,
                       yields=self.profile.yields_to_layout)
        self._splitter, self._zones, self._cutter = stages.splitter, stages.zones, stages.cutter

    def feed(self, text: str) -> List[Chunk]:
        """Take more text; return the chunks it decided."""
        if self._closed:
            raise ConfigError("this Chunker is closed; make a new one for the next document")
        sniffer = self._sniffer
        if sniffer is not None:
            if not sniffer.feed(text):
                if self._auto:
                    self._held.append(text)
                    return []
            else:
                text = self._sniffed(text)
        self._splitter.feed(text)
        return self._hand_on(wait=False)

    @property
    def reads_layout(self) -> bool:
        """Whether ``note_layout`` is heard: the profile reads a layout (with
        ``"auto"``, until the profile is chosen, as it may)."""
        return self._layout is not None

    def read_from(self, how: str) -> None:
        """Say how a driver extracted the text (``pdf (pdfium)``): the report says so."""
        self._report.read_from = how

    def note_layout(self, first_line: int, text: str, styles: Sequence[Optional[Style]],
                    leads: Sequence[int] = (), centred: Collection[int] = ()) -> None:
        """How each line of ``text`` is set (one style per line, ``None`` for
        none), how many of its first characters are a bold run-in term
        (``leads``, 0 for none) and which lines stand alone centred over the
        paragraph after them (``centred``, from 0), told by a driver that reads
        a PDF's layout before it feeds that text, whose first line is line
        ``first_line`` of the document. A profile that reads no layout ignores
        it (see ``core.layout``)."""
        if self._layout is not None:
            self._layout.note(first_line, text, styles, leads, centred)

    def _sniffed(self, text: str) -> str:
        """The first lines are looked at: with "auto", the profile is chosen and
        the text held comes first; else a text that reads like another profile
        is noted. Returns the text still to be read."""
        sniffer = self._sniffer
        assert sniffer is not None
        self._sniffer = None
        if self._auto:
            self._build(sniffer.best())
            self._held.append(text)
            text, self._held = "".join(self._held), []
        self._report.signatures = dict(sniffer.counts)
        other = sniffer.reads_like(self.settings.profile)
        if other is not None:
            line, example = sniffer.examples[other]
            self.diagnose("profile_mismatch", line, profile=self.settings.profile, reads_like=other,
                          signature_lines=dict(sniffer.counts), example=example)
            self._report.mismatch = {"reads_like": other, "line": line, "example": example}
        return text

    def close(self) -> List[Chunk]:
        """End the input; return the last chunks (nothing, once closed)."""
        if self._closed:
            return []
        if self._sniffer is not None:
            self._sniffer.close()
            rest = self._sniffed("")
            if rest:
                self._splitter.feed(rest)
        self._closed = True
        self._splitter.close()
        self._zones.close()
        assert self._reader is not None  # the profile is chosen by now
        self._reader.sync()
        self.profile.finish()
        chunks = self._hand_on(wait=True)
        lost = self._report.unaccounted(self._splitter.words, self._words_cut(), self.profile.counts)
        if lost:  # (a fault of this engine, never of the input: every word read is accounted for)
            self.diagnose("words_unaccounted", self._cutter.line_no, words=lost)
        if self._report.weak():
            self.diagnose("structure_weak", self._cutter.line_no, words=self._report.words,
                          words_outside=self._report.words_outside)
        return chunks

    def diagnose(self, kind: str, line: int, **details: Any) -> None:
        """Note an event of this document: counted in the report, passed to
        ``on_diagnostic``. The engine notes its own; a driver notes what it
        finds in the input (a replaced byte, a PDF page with no text layer)."""
        self._report.note(kind, details)
        if self._on_diagnostic is not None:
            self._on_diagnostic({"line": line, "kind": kind, **details})

    def flush(self) -> List[Chunk]:
        """Every chunk decided so far, waiting for counts still out (a driver
        about to wait for input hands on what it has first)."""
        return self._hand_on(wait=True)

    @property
    def report(self) -> Dict[str, Any]:
        """The end-of-run report as a dict (docs/command-line.md lists its fields)."""
        if self._reader is None:  # "auto" has not chosen yet: nothing is read
            return self._report.as_dict(lines=0, pages=0, nul_bytes=0, counts={}, profile={}, counting={})
        return self._report.as_dict(
            lines=self._cutter.line_no, pages=self._cutter.text_page, nul_bytes=self._splitter.nul_bytes,
            counts=self.profile.counts, profile=self.profile.report(),
            counting=self._counter.report() if self._counter is not None else {}, words_in=self._splitter.words,
            words_cut=self._words_cut())

    def _words_cut(self) -> int:
        """Words longer than the hard bound, cut into pieces: by the stages, or by a paragraph's bound."""
        return self._cutter.words_cut + self.profile.counts.get("words_cut", 0)

    @property
    def waiting(self) -> bool:
        """Some chunks are decided but wait for their counts (see ``counter``)."""
        return self._counter is not None and self._counter.waiting

    @property
    def state(self) -> str:
        """The reader's state (one of ``core.machine.STATES``)."""
        return self._reader.state if self._reader is not None else "start"

    def _furniture(self, rec: Line) -> None:
        self.diagnose("furniture", rec.first, text=rec.text)

    def _hand_on(self, wait: bool) -> List[Chunk]:
        """The chunks decided, counted, and accounted for in the report."""
        chunks = self._decided[:]
        self._decided.clear()
        if self._counter is not None and (chunks or self._counter.waiting):
            chunks = self._counter.settle(chunks, wait)
        for chunk in chunks:
            self._report.add(chunk)
        return chunks

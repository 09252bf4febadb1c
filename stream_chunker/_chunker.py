"""The engine: a sans-IO ``Chunker`` and the ``chunk_lines`` generator around it."""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

from ._chunk import Chunk
from ._counting import Counts
from ._errors import ConfigError
from ._layout import Layout, Record, Settings
from ._machine import Reader
from ._packing import Cap
from ._report import Report
from ._scan import Scanner
from ._tokens import DEFAULT_ENCODING, load_encoding

PROFILES = ("policy", "statute")
DEFAULT_CAPS = {"policy": ("estimate", 400), "statute": ("chars", 900)}
_COMMON_OPTIONS = {"max_paragraph_chars": 100_000, "max_title_words": 12}
_STATUTE_OPTIONS = ("code", "cite", "section_prefix", "as_of", "section", "heading")

Diagnostic = Dict[str, Any]


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{name} must be a whole number above 0, got {value!r}")
    return value


def _settings(profile: str, max_tokens: Optional[int], max_chars: Optional[int], cap_by: str,
              real_tokens: bool, options: Dict[str, Any]) -> Settings:
    if profile not in PROFILES:
        raise ConfigError(f"unknown profile {profile!r}: choose one of {', '.join(PROFILES)}")
    if cap_by not in ("estimate", "real"):
        raise ConfigError(f"cap_by must be 'estimate' or 'real', got {cap_by!r}")
    if max_tokens is not None and max_chars is not None:
        raise ConfigError("give one cap: max_tokens or max_chars, not both")
    if max_tokens is not None:
        unit, cap = cap_by, _positive("max_tokens", max_tokens)
    elif max_chars is not None:
        if cap_by == "real":
            raise ConfigError("cap_by='real' caps tokens: give max_tokens, not max_chars")
        unit, cap = "chars", _positive("max_chars", max_chars)
    else:
        unit, cap = DEFAULT_CAPS[profile]
        if cap_by == "real":
            if unit == "chars":
                raise ConfigError("cap_by='real' caps tokens: give max_tokens with the statute profile")
            unit = "real"
    if unit == "real" and not real_tokens:
        raise ConfigError("cap_by='real' needs real token counts: leave real_tokens on")
    allowed = set(_COMMON_OPTIONS) | (set(_STATUTE_OPTIONS) if profile == "statute" else set())
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ConfigError(
            f"unknown option{'s' if len(unknown) > 1 else ''} for the {profile} profile: "
            f"{', '.join(unknown)} (known: {', '.join(sorted(allowed))})"
        )
    common = {k: _positive(k, options.get(k, v)) for k, v in _COMMON_OPTIONS.items()}
    rest = {k: v for k, v in options.items() if k not in _COMMON_OPTIONS}
    cite = rest.get("cite")
    if cite is not None:
        try:
            cite.format(section="16-112", as_of="", code="")
        except (KeyError, IndexError, ValueError) as err:
            raise ConfigError(f"cite template {cite!r} does not work ({err!r}): it may use "
                              "{section}, {as_of} and {code}") from None
    return Settings(profile=profile, cap_unit=unit, cap=cap, profile_options=rest, **common)


class Chunker:
    r"""Push text in, take chunks out; no I/O of its own.

    ``feed`` takes one line, or several separated by ``\n``, ``\r\n`` or ``\r``;
    the end of each call ends its last line, so lines may be passed with or
    without their newline. It returns the chunks that the text decided.
    ``close`` ends the input and returns the rest. Options are those of
    :func:`chunk_lines`.

    >>> c = Chunker(max_tokens=400, real_tokens=False)
    >>> c.feed("1 Cover\nWe cover the house.\n2 Excess\nThe first 250 is yours.\n")
    []
    >>> [(chunk.id, chunk.text) for chunk in c.close()], c.report["sections"]
    ([('1', 'We cover the house.'), ('2', 'The first 250 is yours.')], 2)

    Chunks leave once they are decided: a section may go on until the next
    heading, and the first lines of the text wait until it is known whether
    they are a running header (see ``_furniture``). With ``count_worker=True``
    (off by default here, on in ``chunk_lines`` and the command line) a long
    document's chunks may also wait, a block or two, for the counting process;
    ``close`` returns every one.
    """

    def __init__(
        self,
        *,
        profile: str = "policy",
        max_tokens: Optional[int] = None,
        max_chars: Optional[int] = None,
        cap_by: str = "estimate",
        encoding: str = DEFAULT_ENCODING,
        real_tokens: bool = True,
        on_diagnostic: Optional[Callable[[Diagnostic], None]] = None,
        count_worker: bool = False,
        **profile_options: Any,
    ) -> None:
        self.settings = _settings(profile, max_tokens, max_chars, cap_by, real_tokens, profile_options)
        self._encode = load_encoding(encoding).encode_ordinary if real_tokens else None
        self._counts = None if self._encode is None else Counts(
            self._encode, encoding, count_worker and self.settings.cap_unit != "real", self._diagnose)
        self._on_diagnostic = on_diagnostic
        self._out: List[Chunk] = []
        cap = Cap(self.settings.cap, self.settings.cap_unit, self._real_count)
        layout_cls = _layout_class(profile)
        self.layout: Layout = layout_cls(self.settings, self._out.append, self._diagnose, cap=cap)
        self._reader = Reader(self.layout)
        self._scanner = Scanner(self.layout.SPECIAL, self.layout.LEADER, self.layout.classify,
                                self._reader.push, self._furniture, self.settings.max_paragraph_chars,
                                self._diagnose)
        self.report_data = Report(
            profile=profile, cap=self.settings.cap, cap_unit=self.settings.cap_unit,
            encoding=encoding if real_tokens else None,
        )
        self._closed = False

    # -- public --------------------------------------------------------------
    def feed(self, text: str) -> List[Chunk]:
        """Take one or more lines; return the chunks they completed."""
        self._check_open()
        self._feed_text(complete_lines(text))
        return self._ready()

    def close(self) -> List[Chunk]:
        """End the input; return the last chunks."""
        self._check_open()
        self._closed = True
        self._scanner.close()
        self._reader.close()
        self.layout.finish()
        return self._ready(wait=True)

    def _real_count(self, text: str) -> int:
        assert self._encode is not None
        return len(self._encode(text))

    def diagnose(self, kind: str, line: int, **details: Any) -> None:
        """Note an event of this document's input that a driver found (a
        replaced byte, a PDF page with no text layer): it is counted in the
        report and passed to ``on_diagnostic``."""
        self._diagnose(kind, line, **details)

    @property
    def report(self) -> Dict[str, Any]:
        """The end-of-run report as a dict (see the README for its fields)."""
        scanner = self._scanner
        self.report_data.nul_bytes = scanner.nul_bytes
        self.report_data.count_worker = self._counts is not None and self._counts.worker_used
        return self.report_data.as_dict(scanner.line_no, scanner.text_page, self.layout)

    @property
    def state(self) -> str:
        """The reader's state (one of ``_machine.STATES``)."""
        return self._reader.state

    # -- the line loop -------------------------------------------------------
    def _check_open(self) -> None:
        if self._closed:
            raise ConfigError("this Chunker is closed; make a new one for the next document")

    def _feed_text(self, text: str) -> None:
        """Complete lines, ``\n``-terminated: the drivers' way in."""
        self._scanner.feed(text)

    def _feed_piece(self, piece: str) -> None:
        """A piece of a line that has not ended yet (see ``Scanner.feed_piece``)."""
        self._scanner.feed_piece(piece)

    def _furniture(self, rec: Record) -> None:
        self.report_data.furniture_lines += 1
        self._diagnose("furniture", rec[0], text=rec[2])

    def _diagnose(self, kind: str, line: int, **details: Any) -> None:
        self.report_data.note(kind)
        if self._on_diagnostic is not None:
            self._on_diagnostic({"line": line, "kind": kind, **details})

    # -- chunks out ----------------------------------------------------------
    @property
    def _waiting(self) -> bool:
        """Chunks are decided but wait for their counts from the counting process."""
        return self._counts is not None and self._counts.waiting

    def _ready(self, wait: bool = False) -> List[Chunk]:
        """The chunks ready to hand on: those decided, with their real token
        counts, accounted for in the report (with the counting process some may
        go later; ``wait``: none)."""
        drafts = self._out[:]
        self._out.clear()
        if self._counts is not None:
            drafts = self._counts.settle(drafts, wait)
        for chunk in drafts:
            self.report_data.add(chunk)
        return drafts


def normalise(text: str) -> str:
    r"""Line ends made ``\n``: ``\r\n`` and a lone ``\r`` end a line too.

    >>> normalise("a\r\nb\rc")
    'a\nb\nc'
    """
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def complete_lines(text: str) -> str:
    r"""``text`` as complete ``\n``-terminated lines: the end of the text ends its
    last line, which may or may not have had a line end of its own.

    >>> complete_lines("a"), complete_lines("a\r\n"), complete_lines("a\r"), complete_lines("")
    ('a\n', 'a\n', 'a\n', '\n')
    """
    text = normalise(text)
    return text if text.endswith("\n") else text + "\n"


def _layout_class(profile: str) -> Any:
    if profile == "statute":
        from ._statute import StatuteLayout

        return StatuteLayout
    from ._policy import PolicyLayout

    return PolicyLayout


def chunk_lines(
    lines: Iterable[str],
    *,
    profile: str = "policy",
    max_tokens: Optional[int] = None,
    max_chars: Optional[int] = None,
    cap_by: str = "estimate",
    encoding: str = DEFAULT_ENCODING,
    real_tokens: bool = True,
    count_worker: bool = True,
    **profile_options: Any,
) -> Iterator[Chunk]:
    """Chunk a document given as an iterable of lines, lazily.

    Each item is one line, with or without its newline. Without a cap the
    profile's default applies (policy: 400 estimated tokens; statute: 900
    characters). With ``count_worker``, a long document's real token counts
    are taken mostly by a counting process beside this one, on another core
    (see ``_counting``): the chunks and their counts are the same.

    >>> doc = ["4 Exclusions", "4.1 Wear and tear", "We do not cover gradual deterioration."]
    >>> [(c.id, c.heading_path, c.tokens) for c in chunk_lines(doc, real_tokens=False)]
    [('4.1', 'Exclusions > Wear and tear', 8)]
    """
    chunker = Chunker(profile=profile, max_tokens=max_tokens, max_chars=max_chars, cap_by=cap_by,
                      encoding=encoding, real_tokens=real_tokens, count_worker=count_worker,
                      **profile_options)
    from ._pipeline import run

    yield from run(chunker, lines)

"""The chunker's options, checked once: a frozen :class:`Options` that every
driver makes from its own arguments (the command line from its flags, the
library's functions from their keywords) and hands down, whole, to the
``Chunker`` of each document -- in this process or in a worker's.

>>> Options.of(max_tokens=300, real_tokens=False).settings_for("policy").cap_unit
'estimate'
>>> Options.of(max_chars=0)
Traceback (most recent call last):
  ...
stream_chunker.core.errors.ConfigError: max_chars must be a whole number above 0, got 0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from ..core.errors import ConfigError
from ..core.tokens import BUNDLED, DEFAULT_ENCODING, check_encoding_name, load_encoding
from ..profiles.base import COMMON_OPTIONS, ProfileSpec, Settings, profiles

AUTO = "auto"
"""The profile name that lets the first lines choose (``engine.sniff``)."""


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{name} must be a whole number above 0, got {value!r}")
    return value


def profile_spec(name: str) -> ProfileSpec:
    known = profiles()
    if name not in known:
        raise ConfigError(f"unknown profile {name!r}: choose one of {', '.join(known)}, or {AUTO!r}")
    return known[name]


def settings(profile: str, max_tokens: Optional[int], max_chars: Optional[int], cap_by: str,
             real_tokens: bool, options: Dict[str, Any]) -> Settings:
    """Every option checked, and the cap resolved, for one profile."""
    spec = profile_spec(profile)
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
        unit, cap = spec.default_cap
        if cap_by == "real":
            if unit == "chars":
                raise ConfigError(f"cap_by='real' caps tokens: give max_tokens with the {profile} profile")
            unit = "real"
    if unit == "real" and not real_tokens:
        raise ConfigError("cap_by='real' needs real token counts: leave real_tokens on")
    allowed = {o.name for o in COMMON_OPTIONS + spec.options}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ConfigError(
            f"unknown option{'s' if len(unknown) > 1 else ''} for the {profile} profile: "
            f"{', '.join(unknown)} (known: {', '.join(sorted(allowed))})"
        )
    common = {o.name: None if options.get(o.name, o.default) is None else _positive(o.name, options.get(o.name, o.default))
              for o in COMMON_OPTIONS}
    hard = common["hard_max_tokens"]
    if hard is not None:
        if unit == "chars":
            raise ConfigError("hard_max_tokens is a limit in tokens: give the cap in tokens (max_tokens), not max_chars")
        if hard < cap:
            raise ConfigError(f"hard_max_tokens ({hard}) is below the cap ({cap}): give a limit at or above it")
    rest = {k: v for k, v in options.items() if k not in common}
    if spec.check is not None:
        spec.check(rest)
    bound = common["max_paragraph_chars"]
    assert bound is not None  # (it has a default)
    return Settings(profile=profile, cap_unit=unit, cap=cap, max_paragraph_chars=bound, profile_options=rest,
                    hard_max_tokens=hard)


@dataclass(frozen=True)
class Options:
    """What a document is chunked with, checked when it is made: a bad value
    raises :class:`~stream_chunker.ConfigError` (or ``EncodingUnavailable``)
    here, before any text is read, with the message the chunker gives. The
    fields are the keywords of :func:`stream_chunker.chunk_lines`."""

    profile: str = "policy"
    """A registered profile's name, or ``"auto"``."""
    max_tokens: Optional[int] = None
    """The cap in tokens (None: ``max_chars``, or the profile's default)."""
    max_chars: Optional[int] = None
    """The cap in characters."""
    cap_by: str = "estimate"
    """``"estimate"`` or ``"real"``: how a cap in tokens is measured."""
    encoding: str = DEFAULT_ENCODING
    """The tiktoken encoding of the real counts."""
    real_tokens: bool = True
    """Whether chunks carry real token counts."""
    profile_options: Tuple[Tuple[str, Any], ...] = ()
    """The options of one profile and ``max_paragraph_chars``, as ``(name, value)`` pairs."""

    def __post_init__(self) -> None:
        check_encoding_name(self.encoding)
        if self.profile == AUTO:
            specific = sorted(set(self.extra) - {o.name for o in COMMON_OPTIONS})
            if specific:
                raise ConfigError(f"profile='auto' takes no options of one profile ({', '.join(specific)}): "
                                  "name the profile to give them")
            for name in profiles():  # every choice must work with the options given
                self.settings_for(name)
        else:
            self.settings_for(self.profile)
        if self.real_tokens and self.encoding not in BUNDLED:
            # One that is not bundled may not load here: better said now than by every document.
            # The bundled one always loads, and is left to whoever counts (a worker, perhaps).
            load_encoding(self.encoding)

    @classmethod
    def of(cls, *, profile: str = "policy", max_tokens: Optional[int] = None, max_chars: Optional[int] = None,
           cap_by: str = "estimate", encoding: str = DEFAULT_ENCODING, real_tokens: bool = True,
           **profile_options: Any) -> "Options":
        """The options from keywords, as :func:`stream_chunker.chunk_lines` takes them."""
        return cls(profile, max_tokens, max_chars, cap_by, encoding, real_tokens, tuple(profile_options.items()))

    @property
    def extra(self) -> Dict[str, Any]:
        """``profile_options`` as a dict."""
        return dict(self.profile_options)

    def settings_for(self, profile: str) -> Settings:
        """The settings of ``profile`` (this one's, or with ``"auto"`` the one chosen)."""
        return settings(profile, self.max_tokens, self.max_chars, self.cap_by, self.real_tokens, self.extra)

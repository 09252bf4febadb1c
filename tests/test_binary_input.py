"""Input that is not text is refused, naming the file and how to get text; text with a
few stray bytes is read, its bytes dropped or replaced and counted."""

from __future__ import annotations

import bz2
import lzma
import os
import random
import sys
from pathlib import Path

import pytest

from stream_chunker.cli import EXIT_BAD_INPUT, EXIT_OK

from .test_cli import FAST, run_main, write

EXAMPLE = (Path(__file__).resolve().parents[1] / "examples" / "policy-wording.txt").read_bytes()

NOT_TEXT = {
    "a program": (Path(sys.executable).resolve().read_bytes()[:65536], "program (ELF)"),
    "random bytes": (random.Random(7).randbytes(20_000), "control characters or invalid UTF-8"),
    "control bytes around words": (b"\x00\x01\x02binary\x00" * 1000, "control characters or invalid UTF-8"),
    "xz": (lzma.compress(EXAMPLE), "xz-compressed"),
    "bzip2": (bz2.compress(EXAMPLE), "bzip2-compressed"),
    "UTF-16LE without a byte-order mark": (EXAMPLE.decode().encode("utf-16-le"), "UTF-16 text without"),
    "UTF-16BE without a byte-order mark": (EXAMPLE.decode().encode("utf-16-be"), "UTF-16 text without"),
}


@pytest.mark.parametrize("kind", list(NOT_TEXT))
def test_input_that_is_not_text_is_refused_with_what_to_do(kind, tmp_path, capsys, monkeypatch):
    data, hint = NOT_TEXT[kind]
    if kind == "a program" and not data.startswith(b"\x7fELF"):
        pytest.skip("the interpreter is not an ELF file here")
    path = write(tmp_path / "document.txt", data)
    code, out, err = run_main([FAST, str(path)], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT and out == ""
    assert err.startswith(f"stream-chunker: {path}: line 1: binary input refused: ") and hint in err


def test_a_directory_run_names_the_binary_file_and_goes_on(tmp_path, capsys, monkeypatch):
    write(tmp_path / "a.txt", EXAMPLE)
    write(tmp_path / "b.bin", os.urandom(8192))
    code, out, err = run_main([FAST, "--glob", "*", str(tmp_path)], capsys, monkeypatch)
    assert code != EXIT_OK and "b.bin" in err and "binary input refused" in err
    assert out.count('"doc":') >= 7  # the text file's chunks are all there


@pytest.mark.parametrize("share", [0.02, 0.2])
def test_text_with_some_stray_bytes_is_read(share, tmp_path, capsys, monkeypatch):
    """Latin-1 accents, a stray control byte: the text is kept, every other word counted."""
    rng = random.Random(3)
    data = bytearray(EXAMPLE)
    for at in rng.sample(range(len(data)), int(share * len(data))):
        if data[at] not in b"\n\f":
            data[at] = 0xE9
    code, out, err = run_main([FAST, str(write(tmp_path / "wording.txt", bytes(data)))], capsys, monkeypatch)
    assert code == EXIT_OK and out


LATIN = "Définitions\n1 Cover\nWe pay the £100 excess.\n".encode("cp1252")


def test_text_in_another_encoding_is_said_once_with_a_hint(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", LATIN)
    code, out, err = run_main([FAST, str(path)], capsys, monkeypatch)
    assert code == EXIT_OK and "\ufffd" in out
    assert err.count("\n") == 1
    assert err.startswith(f"stream-chunker: {path}: 2 byte(s) that are not valid in its encoding replaced")
    assert "--input-encoding cp1252" in err


def test_input_encoding_reads_what_the_user_knows(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", LATIN)
    code, out, err = run_main([FAST, "--input-encoding", "cp1252", str(path)], capsys, monkeypatch)
    assert code == EXIT_OK and err == ""
    assert "Définitions" in out and "£100" in out


@pytest.mark.parametrize("name, why", [("utf-16", "does not keep ASCII line ends"), ("nope", "unknown input encoding")])
def test_an_input_encoding_that_cannot_work_is_refused_before_reading(name, why, tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", LATIN)
    code, out, err = run_main([FAST, "--input-encoding", name, str(path)], capsys, monkeypatch)
    assert code == 2 and out == "" and why in err

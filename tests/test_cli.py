"""The command line as a Unix filter (issue 7; SPEC §10, §12).

Most cases go through ``stream_chunker.cli.main(argv)`` in this process; closed
pipes, Ctrl-C and streaming through a pipe need a real child process
(``python -m stream_chunker``). ``test_no_traceback`` runs every case of this
file as a child and checks that no traceback reaches stderr.
"""

from __future__ import annotations

import io
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import pytest

from stream_chunker import __version__
from stream_chunker.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_PIPE_CLOSED, EXIT_USAGE, main
from stream_chunker.core.machine import STATES

FIELDS = {"id", "clause", "heading_path", "text", "words", "tokens", "real_tokens", "citation",
          "lines", "pages", "oversize", "part"}
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FAST = "--no-real-tokens"
CHILD_TIMEOUT = 120  # seconds; only there to turn a hang into a failure

# SPEC §5's first seed example.
EXAMPLE = ["4 Exclusions", "4.1 Wear and tear", "We do not cover gradual deterioration.",
           "4.2 Escape of water", "We cover sudden escape of water", "from a fixed installation.", "",
           "14 days after the leak is found, cover ends", "unless the leak has been reported to us.",
           "5 Claims", "5.1 Reporting", "Tell us within 30 days."]
EXAMPLE_TEXT = "\n".join(EXAMPLE) + "\n"
EXAMPLE_CHUNKS = [
    ("4.1", "Exclusions > Wear and tear", "We do not cover gradual deterioration.", 8),
    ("4.2", "Exclusions > Escape of water",
     "We cover sudden escape of water from a fixed installation.\n"
     "14 days after the leak is found, cover ends unless the leak has been reported to us.", 36),
    ("5.1", "Claims > Reporting", "Tell us within 30 days.", 7),
]

# A second document, numbered from 1 again: chunked on its own it starts afresh.
MOTOR = ["1 Cover", "1.1 Your vehicle", "We cover your vehicle while it is parked or driven.",
         "2 or more occupants must wear seat belts.", "1.1.1 Keys", "Keys left in the vehicle void theft cover.",
         "2 Excess", "The first 250 of each claim is yours."]
MOTOR_TEXT = "\n".join(MOTOR) + "\n"

# Two pages as pdftotext prints them: a footer, a form feed, a rejected
# heading-shaped line (line 4), a byte that is not UTF-8 (line 7).
PAGED = ("1 Cover\nWe cover the house against fire.\n\n14 days after the fire, cover ends.\nPage 1 of 2\n\f"
         "2 Excess\nThe first 250 of each claim is yo\xffurs.\nPage 2 of 2\n").encode("latin-1")

PDF_BYTES = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
NUL_BYTES = b"1 Cover\nWe cover\x00\x00 the house.\n\x00\x01\x02\x03binary\n"
GZIP_BYTES = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(40))
PNG_BYTES = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(40)
POLICY_STATUTE_FLAGS = [["--code", "MD"], ["--cite", "Md. Code, Transp. \u00a7 {section}"],
                        ["--section-prefix", "NRS"], ["--section", "16-112"], ["--heading", "Stopping"],
                        ["--as-of", "2026-01-01"]]


# -- helpers -------------------------------------------------------------------


class FakeStdin:
    """What ``sys.stdin`` offers the CLI: a ``.buffer`` of bytes."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]


def run_main(argv: Sequence[str], capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch,
             stdin: bytes = b"") -> Tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", FakeStdin(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(out: str) -> List[dict]:
    assert out == "" or out.endswith("\n"), "output ends mid-line"
    return [json.loads(line) for line in out.splitlines()]


def write(path: Path, data: bytes | str) -> Path:
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def child(*args: str, input: bytes = b"", cwd: Optional[Path] = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "stream_chunker", *args], input=input, capture_output=True,
                          timeout=CHILD_TIMEOUT, cwd=cwd)


def _sigint_default() -> None:
    # A child started from a shell's background job inherits SIGINT ignored,
    # and Python then installs no KeyboardInterrupt handler: undo that.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen(*args: str, stdin: int = subprocess.DEVNULL) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "stream_chunker", *args], stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_sigint_default)


def readline_within(stream: io.BufferedReader, seconds: float) -> bytes:
    """One line from a pipe, or ``b""`` if none came within ``seconds``."""
    got: "queue.Queue[bytes]" = queue.Queue()
    threading.Thread(target=lambda: got.put(stream.readline()), daemon=True).start()
    try:
        return got.get(timeout=seconds)
    except queue.Empty:
        return b""


_VOCAB = ["alder", "birch", "cedar", "damson", "elm", "fir", "ginkgo", "hazel", "ivy", "juniper", "larch",
          "maple", "nutmeg", "oak", "pine", "quince", "rowan", "spruce", "teak", "willow", "yew"]
_TITLE_A = ["Fire", "Flood", "Theft", "Storm", "Subsidence", "Glass", "Keys", "Pipes", "Garden", "Contents"]
_TITLE_B = ["damage", "cover", "limits", "claims", "exclusions", "conditions", "excess", "repairs"]


def words_of(i: int) -> str:
    """A sentence that differs from every other one in more than its digits
    (page furniture is recognised by forms that recur with digits masked)."""
    picked = random.Random(i).sample(_VOCAB, 9)
    return f"{picked[0].capitalize()} {' '.join(picked[1:])} in clause {i}."


def title_of(n: int) -> str:
    """A distinct section title for each n (up to 80)."""
    return f"{_TITLE_A[n % len(_TITLE_A)]} {_TITLE_B[(n // len(_TITLE_A)) % len(_TITLE_B)]}"


def paged_document(pages: int, sections_per_page: int = 3) -> str:
    """pdftotext-like text: a running header, numbered sections, a footer, form feeds."""
    out = []
    n = 0
    for page in range(1, pages + 1):
        out.append("Acme Mutual - Home Policy 2026\n\n")
        for _ in range(sections_per_page):
            n += 1
            out.append(f"{n} {title_of(n)}\n{words_of(n)}\n{words_of(n + 1000)}\n\n{words_of(n + 2000)}\n\n")
        out.append(f"Page {page} of {pages}\n\f")
    return "".join(out)


@pytest.fixture(scope="module")
def big_input(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Much more output than a pipe holds: RFC 2616 twenty times (or a stand-in)."""
    path = tmp_path_factory.mktemp("big") / "big.txt"
    source = CORPUS / "rfc2616.txt"
    text = source.read_bytes() if source.exists() else paged_document(200).encode()
    path.write_bytes(text * 20)
    return path


# -- JSON Lines out ----------------------------------------------------------------


def test_file_to_json_lines(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", EXAMPLE_TEXT)
    code, out, err = run_main([FAST, str(path)], capsys, monkeypatch)
    assert code == EXIT_OK and err == ""
    chunks = json_lines(out)
    assert all(set(c) == FIELDS for c in chunks)
    assert [(c["id"], c["heading_path"], c["text"], c["tokens"]) for c in chunks] == EXAMPLE_CHUNKS
    assert [c["lines"] for c in chunks] == [[3, 3], [5, 9], [12, 12]]
    assert all(c["pages"] == [1, 1] and c["real_tokens"] is None and c["oversize"] is False for c in chunks)


@pytest.mark.parametrize("argv", [[FAST], [FAST, "-"]], ids=["no-file", "dash"])
def test_stdin_to_json_lines(argv, tmp_path, capsys, monkeypatch):
    code, out, _ = run_main(argv, capsys, monkeypatch, stdin=EXAMPLE_TEXT.encode())
    assert code == EXIT_OK
    chunks = json_lines(out)
    assert all(set(c) == FIELDS for c in chunks) and "doc" not in chunks[0]
    assert [(c["id"], c["heading_path"], c["text"], c["tokens"]) for c in chunks] == EXAMPLE_CHUNKS


def test_real_tokens_are_integers_by_default(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", EXAMPLE_TEXT)
    code, out, err = run_main(["--stats", str(path)], capsys, monkeypatch)
    assert code == EXIT_OK
    chunks = json_lines(out)
    assert all(type(c["real_tokens"]) is int and c["real_tokens"] > 0 for c in chunks)
    report = json.loads(err)
    assert report["tokens"]["encoding"] == "cl100k_base"
    assert report["tokens"]["real_total"] == sum(c["real_tokens"] for c in chunks)


def test_several_files_are_chunked_each_on_its_own(tmp_path, capsys, monkeypatch):
    a = write(tmp_path / "home.txt", EXAMPLE_TEXT)
    b = write(tmp_path / "motor.txt", MOTOR_TEXT)
    code, out, err = run_main([FAST, "--stats", str(a), str(b)], capsys, monkeypatch)
    assert code == EXIT_OK
    both = json_lines(out)
    assert [c["doc"] for c in both] == [str(a)] * 3 + [str(b)] * 3
    assert all(set(c) == FIELDS | {"doc"} for c in both)
    # Each document reads as it would alone: same chunks, line numbers from 1.
    for path, part in ((a, both[:3]), (b, both[3:])):
        _, alone, _ = run_main([FAST, str(path)], capsys, monkeypatch)
        assert [{k: v for k, v in c.items() if k != "doc"} for c in part] == json_lines(alone)
    assert [c["id"] for c in both[3:]] == ["1.1", "1.1.1", "2"]
    assert both[3]["lines"] == [3, 4]
    report = json.loads(err)
    assert [d["doc"] for d in report["documents"]] == [str(a), str(b)]
    assert [d["chunks"] for d in report["documents"]] == [3, 3]
    assert [d["lines"] for d in report["documents"]] == [12, 8]


def test_several_files_diagnostics_name_their_document(tmp_path, capsys, monkeypatch):
    a = write(tmp_path / "home.txt", EXAMPLE_TEXT)
    b = write(tmp_path / "paged.txt", PAGED)
    diag = tmp_path / "why.jsonl"
    code, _, _ = run_main([FAST, "--diagnostics", str(diag), str(a), str(b)], capsys, monkeypatch)
    assert code == EXIT_OK
    events = json_lines(diag.read_text("utf-8"))
    assert {e["doc"] for e in events} == {str(a), str(b)}
    assert {"doc": str(a), "line": 8, "kind": "rejected_heading"}.items() <= next(
        e for e in events if e["doc"] == str(a)).items()


# -- reports -----------------------------------------------------------------------

REPORT_KEYS = {"lines", "chunks", "sections", "furniture_lines", "contents", "tokens", "elapsed_s", "peak_rss_mib"}


def test_stats_on_stderr(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "paged.txt", PAGED)
    code, out, err = run_main([FAST, "--stats", str(path)], capsys, monkeypatch)
    assert code == EXIT_OK
    assert [c["id"] for c in json_lines(out)] == ["1", "2"]  # the report does not go to stdout
    note, report_line = err.split("\n", 1)  # the replaced byte's note comes first
    assert "1 byte(s) that are not valid in its encoding replaced" in note
    report = json.loads(report_line)
    assert REPORT_KEYS <= set(report)
    assert (report["lines"], report["pages"], report["chunks"], report["sections"]) == (8, 2, 2, 2)
    assert report["furniture_lines"] == 2
    assert report["replaced_bytes"] == 1
    assert report["headings_rejected"] == 1
    assert report["tokens"]["estimate_total"] == sum(c["tokens"] for c in json_lines(out))
    assert report["tokens"]["real_total"] is None
    assert report["contents"]["missing"] == []
    assert isinstance(report["elapsed_s"], float) and report["elapsed_s"] >= 0
    assert isinstance(report["peak_rss_mib"], float) and report["peak_rss_mib"] > 0


def test_report_file(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", EXAMPLE_TEXT)
    report_path = tmp_path / "run.json"
    code, out, err = run_main([FAST, "--report", str(report_path), str(path)], capsys, monkeypatch)
    assert code == EXIT_OK and err == ""  # --report alone prints nothing on stderr
    assert len(json_lines(out)) == 3
    report = json.loads(report_path.read_text("utf-8"))
    assert REPORT_KEYS <= set(report)
    assert (report["lines"], report["chunks"], report["sections"], report["headings_rejected"]) == (12, 3, 5, 1)


def test_report_and_stats_agree(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", EXAMPLE_TEXT)
    report_path = tmp_path / "run.json"
    code, _, err = run_main([FAST, "--stats", "--report", str(report_path), str(path)], capsys, monkeypatch)
    assert code == EXIT_OK
    assert json.loads(err) == json.loads(report_path.read_text("utf-8"))


def test_diagnostics_file(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "paged.txt", PAGED)
    diag = tmp_path / "why.jsonl"
    code, out, _ = run_main([FAST, "--diagnostics", str(diag), str(path)], capsys, monkeypatch)
    assert code == EXIT_OK
    events = json_lines(diag.read_text("utf-8"))
    assert all(isinstance(e["line"], int) and isinstance(e["kind"], str) for e in events)
    by_kind: Dict[str, List[dict]] = {}
    for e in events:
        by_kind.setdefault(e["kind"], []).append(e)
    (rejected,) = by_kind["rejected_heading"]
    assert rejected["line"] == 4 and rejected["text"] == "14 days after the fire, cover ends."
    assert rejected["reason"]  # says why: lower-case title, not next in sequence, ...
    assert [(e["line"], e["text"]) for e in by_kind["furniture"]] == [(5, "Page 1 of 2"), (8, "Page 2 of 2")]
    assert [(e["line"], e["bytes"]) for e in by_kind["replaced_byte"]] == [(7, 1)]
    # Nothing lost: the rejected heading is body text of section 1.
    assert "14 days after the fire" in json_lines(out)[0]["text"]


def test_diagnostics_reason_not_next_in_sequence(tmp_path, capsys, monkeypatch):
    doc = "4 Exclusions\n4.1 Escape of water\nWe cover water.\n\n14 Days after the leak cover ends.\n"
    path = write(tmp_path / "wording.txt", doc)
    diag = tmp_path / "why.jsonl"
    code, out, _ = run_main([FAST, "--diagnostics", str(diag), str(path)], capsys, monkeypatch)
    assert code == EXIT_OK
    events = [e for e in json_lines(diag.read_text("utf-8")) if e["kind"] == "rejected_heading"]
    assert [(e["line"], e["reason"]) for e in events] == [(5, "not next in sequence")]
    assert json_lines(out)[0]["text"] == "We cover water.\n14 Days after the leak cover ends."


# -- bad input ---------------------------------------------------------------------


def test_invalid_utf8_is_replaced_and_reported(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "latin1.txt", "1 Cover\nWe cover the caf\xe9 too.\n2 Excess\nYours.\n".encode("latin-1"))
    diag = tmp_path / "why.jsonl"
    code, out, err = run_main([FAST, "--stats", "--diagnostics", str(diag), str(path)], capsys, monkeypatch)
    assert code == EXIT_OK
    chunks = json_lines(out)
    assert chunks[0]["text"] == "We cover the caf\ufffd too."
    assert [c["id"] for c in chunks] == ["1", "2"]
    note, report = err.split("\n", 1)
    assert note == (f"stream-chunker: {path}: 1 byte(s) that are not valid in its encoding replaced by U+FFFD "
                    "(is it Latin-1 or cp1252? give --input-encoding cp1252; --diagnostics gives their lines, "
                    "--strict refuses them)")
    assert json.loads(report)["replaced_bytes"] == 1
    assert {"line": 2, "kind": "replaced_byte", "bytes": 1} in json_lines(diag.read_text("utf-8"))


def test_invalid_utf8_under_strict_is_fatal_with_line_number(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "latin1.txt", "1 Cover\nOne.\n\nTwo.\nWe cover the caf\xe9 too.\n".encode("latin-1"))
    code, out, err = run_main([FAST, "--strict", str(path)], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT
    assert "line 5" in err and "UTF-8" in err and str(path) in err
    assert "\ufffd" not in out


def test_invalid_utf8_from_stdin_under_strict(capsys, monkeypatch):
    code, _, err = run_main([FAST, "--strict"], capsys, monkeypatch, stdin=b"1 Cover\nbad \xff byte\n")
    assert code == EXIT_BAD_INPUT and "line 2" in err


# A PDF named on the command line is read as a PDF (tests/test_pdf_input.py); on
# stdin it is refused, since a PDF is read by random access, not as a stream.
@pytest.mark.parametrize("data, hint, via", [(PDF_BYTES, "pdftotext", "stdin"), (GZIP_BYTES, "zcat", "file"),
                                             (PNG_BYTES, "OCR", "stdin"), (PNG_BYTES, "OCR", "file")],
                         ids=["stdin-pdf", "file-gzip", "stdin-png", "file-png"])
def test_binary_input_is_refused_with_a_hint(data, hint, via, tmp_path, capsys, monkeypatch):
    if via == "file":
        code, out, err = run_main([FAST, str(write(tmp_path / "in.bin", data))], capsys, monkeypatch)
    else:
        code, out, err = run_main([FAST], capsys, monkeypatch, stdin=data)
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert "binary input refused" in err and hint in err  # the hint: how to get text
    assert "line 1" in err


def test_pdf_refused_even_when_its_first_bytes_arrive_alone():
    """A pipe may hand over "%P" and then the rest: the signature is still seen."""
    proc = popen(FAST, stdin=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(b"%P")
    proc.stdin.flush()
    time.sleep(0.5)
    out, err = proc.communicate(PDF_BYTES[2:], timeout=CHILD_TIMEOUT)
    assert proc.returncode == EXIT_BAD_INPUT, err
    assert out == b"" and b"this is a PDF" in err and b"Traceback" not in err


def test_nul_bytes_under_strict_are_fatal(tmp_path, capsys, monkeypatch):
    # NUL bytes are dropped and reported wherever they are, or end the run
    # under --strict (tests/test_faults.py has them at every distance).
    doc = b"1 Cover\n" + b"We cover the house.\n" * 1000 + b"A stray\x00 byte.\n"
    path = write(tmp_path / "late-nul.txt", doc)
    code, _, err = run_main([FAST, "--strict", str(path)], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT and "line 1002" in err and "NUL" in err
    diag = tmp_path / "why.jsonl"
    code, out, err = run_main([FAST, "--stats", "--diagnostics", str(diag), str(path)], capsys, monkeypatch)
    assert code == EXIT_OK
    assert "\x00" not in out and "A stray byte." in json_lines(out)[-1]["text"]
    note, stats = err.split("\n", 1)
    assert note == f"stream-chunker: {path}: 1 NUL byte(s) dropped (text holds none: is this text? " \
                   "--diagnostics gives their lines, --strict refuses them)"
    assert json.loads(stats)["nul_bytes"] == 1
    assert {"line": 1002, "kind": "nul_byte"} in json_lines(diag.read_text("utf-8"))


def _line_end_variants(text: str) -> Dict[str, bytes]:
    lf = text.encode()
    return {"lf": lf, "crlf": lf.replace(b"\n", b"\r\n"), "cr": lf.replace(b"\n", b"\r")}


@pytest.mark.parametrize("final_newline", [True, False], ids=["final-eol", "no-final-eol"])
def test_cr_and_crlf_give_the_same_chunks_as_lf(final_newline, tmp_path, capsys, monkeypatch):
    text = paged_document(4) + EXAMPLE_TEXT
    if not final_newline:
        text = text.rstrip("\n")
    results = {}
    for name, data in _line_end_variants(text).items():
        code, out, err = run_main([FAST, "--stats", str(write(tmp_path / f"{name}.txt", data))], capsys, monkeypatch)
        assert code == EXIT_OK
        report = json.loads(err)
        results[name] = (json_lines(out), report["lines"], report["pages"], report["furniture_lines"])
    assert len(results["lf"][0]) > 10
    assert results["crlf"] == results["lf"]
    assert results["cr"] == results["lf"]


def test_crlf_split_between_reads_is_one_line_end():
    """A "\\r" at the end of one read and its "\\n" at the start of the next."""
    proc = popen(FAST, "--stats", stdin=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(b"1 Cover\r\nWe cover the house.\r")
    proc.stdin.flush()
    time.sleep(0.5)
    out, err = proc.communicate(b"\nIt is insured.\r\n\r\n2 Excess\r\nYours.\r\n", timeout=CHILD_TIMEOUT)
    assert proc.returncode == EXIT_OK
    chunks = json_lines(out.decode())
    assert [(c["id"], c["text"], c["lines"]) for c in chunks] == [
        ("1", "We cover the house. It is insured.", [2, 3]), ("2", "Yours.", [6, 6])]
    assert json.loads(err)["lines"] == 6


def test_missing_file(tmp_path, capsys, monkeypatch):
    missing = tmp_path / "no-such-policy.txt"
    code, out, err = run_main([FAST, str(missing)], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT and out == ""
    assert str(missing) in err and "No such file" in err


def test_a_directory_is_no_input_file(tmp_path, capsys, monkeypatch):
    code, _, err = run_main([FAST, str(tmp_path)], capsys, monkeypatch)
    assert code == EXIT_BAD_INPUT and str(tmp_path) in err


def test_unknown_encoding_is_bad_usage(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", EXAMPLE_TEXT)
    code, out, err = run_main(["--encoding", "no_such_base", str(path)], capsys, monkeypatch)
    assert code == EXIT_USAGE and out == ""
    assert "no_such_base" in err and "cl100k_base" in err  # names it, and what exists


@pytest.mark.parametrize("cap", ["0", "-5"])
def test_cap_of_zero_or_below_is_bad_usage(cap, tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", EXAMPLE_TEXT)
    code, out, err = run_main([FAST, "--max-tokens", cap, str(path)], capsys, monkeypatch)
    assert code == EXIT_USAGE and out == ""
    assert "max_tokens" in err and cap in err


def test_max_chars_zero_is_bad_usage(tmp_path, capsys, monkeypatch):
    code, _, err = run_main([FAST, "--max-chars", "0"], capsys, monkeypatch, stdin=EXAMPLE_TEXT.encode())
    assert code == EXIT_USAGE and "max_chars" in err


@pytest.mark.parametrize("argv", [["--no-such-flag"], ["--max-tokens", "many"], ["--profile", "novel"],
                                  ["--max-tokens", "10", "--max-chars", "10"]],
                         ids=["unknown-flag", "not-a-number", "unknown-profile", "two-caps"])
def test_bad_flags_are_bad_usage(argv, capsys, monkeypatch):
    code, out, err = run_main([FAST, *argv], capsys, monkeypatch, stdin=EXAMPLE_TEXT.encode())
    assert code == EXIT_USAGE and out == ""
    assert "usage: stream-chunker" in err


@pytest.mark.parametrize("flag", POLICY_STATUTE_FLAGS, ids=lambda f: f[0])
def test_statute_flags_with_the_policy_profile_are_bad_usage(flag, capsys, monkeypatch):
    code, out, err = run_main([FAST, *flag], capsys, monkeypatch, stdin=EXAMPLE_TEXT.encode())
    assert code == EXIT_USAGE and out == ""
    assert flag[0] in err and "statute" in err


def test_unusable_cite_template_is_bad_usage(capsys, monkeypatch):
    section = b"Sec. 16-112. Stopping.\n(a) A driver shall stop.\n(b) A driver shall yield.\n"
    code, out, err = run_main([FAST, "--profile", "statute", "--cite", "Md. {sectoin}"], capsys, monkeypatch,
                              stdin=section)
    assert code == EXIT_USAGE and out == ""
    assert "cite template" in err and "sectoin" in err


@pytest.mark.parametrize("flag", ["--report", "--diagnostics"])
def test_unwritable_output_file_is_bad_usage_before_any_work(flag, tmp_path, capsys, monkeypatch):
    target = tmp_path / "no-such-dir" / "out.json"
    code, out, err = run_main([FAST, flag, str(target)], capsys, monkeypatch, stdin=EXAMPLE_TEXT.encode())
    assert code == EXIT_USAGE and out == ""
    assert flag in err and str(target) in err


def test_output_is_utf8_whatever_the_locale(tmp_path):
    path = write(tmp_path / "latin1.txt", "1 Cover\nWe cover the caf\xe9 \u2014 too.\n".encode("utf-8"))
    env = dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C")
    proc = subprocess.run([sys.executable, "-m", "stream_chunker", FAST, str(path)], capture_output=True,
                          timeout=CHILD_TIMEOUT, env=env)
    assert proc.returncode == EXIT_OK, proc.stderr
    assert json.loads(proc.stdout.decode("utf-8"))["text"] == "We cover the caf\xe9 \u2014 too."


@pytest.mark.skipif(signal.getsignal(signal.SIGINT) is not signal.default_int_handler,
                    reason="SIGINT is not Python's default handler in this process")
def test_ctrl_c_during_a_write_still_leaves_complete_lines(capsys, monkeypatch):
    """A SIGINT that lands while a batch of JSON lines is being written takes
    effect after the batch: no half line is left behind."""

    class InterruptedStdout(io.StringIO):
        fired = False

        def write(self, s: str) -> int:
            half = len(s) // 2
            n = super().write(s[:half])
            if not self.fired:
                self.fired = True
                os.kill(os.getpid(), signal.SIGINT)  # Python runs the handler right here
            return n + super().write(s[half:])

    stdout = InterruptedStdout()
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stdin", FakeStdin(paged_document(6).encode()))
    assert main([FAST]) == EXIT_INTERRUPTED
    assert stdout.fired
    chunks = json_lines(stdout.getvalue())
    assert 1 <= len(chunks) < 18 and chunks[0]["id"] == "1"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back as it was


# -- --fsm, --version, --help ------------------------------------------------------


def test_fsm_prints_mermaid_with_every_state(capsys, monkeypatch):
    code, out, _ = run_main(["--fsm"], capsys, monkeypatch)
    assert code == EXIT_OK
    assert "stateDiagram-v2" in out
    for state in ("start", "in_header", "at_heading", "in_paragraph", "between_paragraphs", "at_label",
                  "in_contents"):
        assert state in out
    assert all(state in out for state in STATES)  # and whatever states the machine gains
    assert "heading_line" in out and "page_break" in out  # the triggers label the edges


def test_version(capsys, monkeypatch):
    code, out, _ = run_main(["--version"], capsys, monkeypatch)
    assert code == EXIT_OK
    assert out.strip() in (f"stream-chunker {__version__} (pure Python)", f"stream-chunker {__version__} (compiled)")


def test_help_shows_examples_and_exit_codes(capsys, monkeypatch):
    code, out, _ = run_main(["--help"], capsys, monkeypatch)
    assert code == EXIT_OK
    assert "pdftotext" in out and "stream-chunker" in out and "examples" in out
    for flag in ("--max-tokens", "--stats", "--report", "--diagnostics", "--strict", "--fsm", "--no-real-tokens"):
        assert flag in out
    assert "130" in out and "141" in out


# -- through real pipes and signals ------------------------------------------------


def close_pipe_early(big: Path, *argv: str) -> Tuple[int, bytes, bytes]:
    """``stream-chunker big | head -n 1``: read one line, close the pipe."""
    proc = popen(*argv, str(big))
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    return proc.wait(timeout=CHILD_TIMEOUT), first, err


@pytest.mark.parametrize("argv", [[FAST], []], ids=["estimate-only", "real-tokens"])
def test_closed_output_pipe_ends_quietly(big_input, argv):
    code, first, err = close_pipe_early(big_input, *argv)
    assert set(json.loads(first)) == FIELDS
    assert code == EXIT_PIPE_CLOSED
    assert err == b""  # no traceback, no "Exception ignored" either


def test_closed_output_pipe_in_a_shell_pipeline(big_input, tmp_path):
    script = (f'"{sys.executable}" -m stream_chunker {FAST} "{big_input}" 2>"{tmp_path / "err"}" | head -n 1; '
              'echo "status ${PIPESTATUS[0]}"')
    proc = subprocess.run(["bash", "-c", script], capture_output=True, timeout=CHILD_TIMEOUT)
    first, status = proc.stdout.decode().splitlines()
    assert set(json.loads(first)) == FIELDS
    assert status == f"status {EXIT_PIPE_CLOSED}"
    assert (tmp_path / "err").read_bytes() == b""


def interrupt_while_reading(*argv: str) -> Tuple[int, bytes, bytes, subprocess.Popen]:
    """Ctrl-C while the child waits for more of a slow stdin it has begun to chunk."""
    proc = popen(*argv, stdin=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(paged_document(6).encode())
    proc.stdin.flush()
    first = readline_within(proc.stdout, CHILD_TIMEOUT)  # the child is in its read loop now
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=CHILD_TIMEOUT)
        rest, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.stdin.close()
        if proc.poll() is None:
            proc.kill()
    return code, first + rest, err, proc


@pytest.mark.parametrize("argv", [[FAST], []], ids=["estimate-only", "real-tokens"])
def test_ctrl_c_ends_quietly_with_complete_json_lines(argv):
    code, out, err, _ = interrupt_while_reading(*argv)
    assert code == EXIT_INTERRUPTED
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    chunks = json_lines(out.decode())
    assert len(chunks) >= 1 and all(set(c) == FIELDS for c in chunks)
    assert chunks[0]["id"] == "1"


@pytest.mark.parametrize("argv", [[FAST], []], ids=["estimate-only", "real-tokens"])
def test_first_chunk_arrives_before_the_input_ends(argv):
    """A consumer reading the pipe sees chunks while the input is still open (§9)."""
    proc = popen(*argv, stdin=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        # Four pdftotext-like pages: the chunker holds back the last lines and
        # the open section, and a page's header until it knows it recurs.
        proc.stdin.write(paged_document(4).encode())
        proc.stdin.flush()
        first = readline_within(proc.stdout, 60)
        assert first, "no chunk came out while the input was open"
        assert proc.poll() is None  # still running: its stdin is open
        chunk = json.loads(first)
        assert (chunk["id"], chunk["heading_path"], chunk["pages"]) == ("1", title_of(1), [1, 1])
        assert chunk["text"] == "\n".join([f"{words_of(1)} {words_of(1001)}", words_of(2001)])
    finally:
        proc.stdin.close()  # the end of the input
    rest = proc.stdout.read()
    assert proc.wait(timeout=CHILD_TIMEOUT) == EXIT_OK
    ids = [chunk["id"]] + [c["id"] for c in json_lines(rest.decode())]
    assert ids == [str(n) for n in range(1, 13)]


# -- no traceback, whatever happens ------------------------------------------------


def _case_file(tmp: Path, name: str, data: bytes | str) -> str:
    return str(write(tmp / name, data))


# Each case: (argv builder, stdin bytes, expected exit status). Run as a child
# so that anything printed at interpreter exit is seen too.
NO_TRACEBACK_CASES: Dict[str, Tuple[Callable[[Path], List[str]], bytes, int]] = {
    "file": (lambda t: [FAST, _case_file(t, "a.txt", EXAMPLE_TEXT)], b"", EXIT_OK),
    "stdin": (lambda t: [FAST], EXAMPLE_TEXT.encode(), EXIT_OK),
    "real-tokens": (lambda t: [_case_file(t, "a.txt", EXAMPLE_TEXT)], b"", EXIT_OK),
    "several-files": (lambda t: [FAST, _case_file(t, "a.txt", EXAMPLE_TEXT), _case_file(t, "b.txt", MOTOR_TEXT)],
                      b"", EXIT_OK),
    "stats": (lambda t: [FAST, "--stats"], PAGED, EXIT_OK),
    "report": (lambda t: [FAST, "--report", str(t / "r.json")], PAGED, EXIT_OK),
    "diagnostics": (lambda t: [FAST, "--diagnostics", str(t / "d.jsonl")], PAGED, EXIT_OK),
    "invalid-utf8": (lambda t: [FAST], b"1 Cover\nbad \xff byte\n", EXIT_OK),
    "invalid-utf8-strict": (lambda t: [FAST, "--strict"], b"1 Cover\nbad \xff byte\n", EXIT_BAD_INPUT),
    "pdf": (lambda t: [FAST], PDF_BYTES, EXIT_BAD_INPUT),
    "nul": (lambda t: [FAST, _case_file(t, "nul.bin", NUL_BYTES)], b"", EXIT_OK),
    "png": (lambda t: [FAST, _case_file(t, "scan.png", PNG_BYTES)], b"", EXIT_BAD_INPUT),
    "cr": (lambda t: [FAST], EXAMPLE_TEXT.replace("\n", "\r").encode(), EXIT_OK),
    "crlf": (lambda t: [FAST], EXAMPLE_TEXT.replace("\n", "\r\n").encode(), EXIT_OK),
    "empty": (lambda t: [FAST], b"", EXIT_OK),
    "missing-file": (lambda t: [FAST, str(t / "missing.txt")], b"", EXIT_BAD_INPUT),
    "directory": (lambda t: [FAST, str(t)], b"", EXIT_BAD_INPUT),
    "unknown-encoding": (lambda t: ["--encoding", "no_such_base"], EXAMPLE_TEXT.encode(), EXIT_USAGE),
    "max-tokens-0": (lambda t: [FAST, "--max-tokens", "0"], EXAMPLE_TEXT.encode(), EXIT_USAGE),
    "max-tokens-neg": (lambda t: [FAST, "--max-tokens", "-5"], EXAMPLE_TEXT.encode(), EXIT_USAGE),
    "unknown-flag": (lambda t: [FAST, "--no-such-flag"], EXAMPLE_TEXT.encode(), EXIT_USAGE),
    "statute-flag-policy": (lambda t: [FAST, "--code", "MD"], EXAMPLE_TEXT.encode(), EXIT_USAGE),
    "bad-cite": (lambda t: [FAST, "--profile", "statute", "--cite", "{nope}"], b"Sec. 1. A.\n(a) B.\n", EXIT_USAGE),
    "unwritable-report": (lambda t: [FAST, "--report", str(t / "x" / "r.json")], EXAMPLE_TEXT.encode(), EXIT_USAGE),
    "fsm": (lambda t: ["--fsm"], b"", EXIT_OK),
    "version": (lambda t: ["--version"], b"", EXIT_OK),
    "help": (lambda t: ["--help"], b"", EXIT_OK),
}


@pytest.mark.parametrize("case", [*NO_TRACEBACK_CASES, "closed-pipe", "ctrl-c"])
def test_no_traceback(case, tmp_path, big_input):
    if case == "closed-pipe":
        code, _, err = close_pipe_early(big_input, FAST)
        expected = EXIT_PIPE_CLOSED
    elif case == "ctrl-c":
        code, _, err, _ = interrupt_while_reading(FAST)
        expected = EXIT_INTERRUPTED
    else:
        argv, stdin, expected = NO_TRACEBACK_CASES[case]
        proc = child(*argv(tmp_path), input=stdin, cwd=tmp_path)
        code, err = proc.returncode, proc.stderr
    assert b"Traceback" not in err, err.decode("utf-8", "replace")
    assert b"Exception ignored" not in err
    assert code == expected, err.decode("utf-8", "replace")


# -- progress bar -----------------------------------------------------------------

def test_progress_bar_goes_to_stderr_and_never_into_the_output(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", EXAMPLE_TEXT)
    code, out, err = run_main([FAST, "--progress", str(path)], capsys, monkeypatch)
    assert code == EXIT_OK
    assert [c["id"] for c in json_lines(out)] == ["4.1", "4.2", "5.1"]
    assert "wording.txt" in err and "B" in err  # tqdm's bar: file name and bytes


def test_no_progress_bar_in_a_pipe_unless_asked(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "wording.txt", EXAMPLE_TEXT)
    for flags in ([], ["--no-progress"]):
        code, out, err = run_main([FAST, *flags, str(path)], capsys, monkeypatch)
        assert code == EXIT_OK and err == ""

"""The command line: text in, JSON Lines out, one chunk per line as it is decided."""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
from contextlib import ExitStack, redirect_stdout
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from .. import __compiled__, __version__
from ..core.chunk import Chunk
from ..core.errors import ChunkerError, ConfigError, EncodingUnavailable, InputError, OutputError
from ..drivers.document import STDIN, Document, Reading, source_of
from ..drivers.documents import document_notes, json_line, peaks
from .gold import GoldCheck, gold_note, read_gold
from .outline import OutlineView
from .review import ReviewPage
from ..drivers.pdf import BACKENDS, Page
from ..drivers.workers import SPILL_BOUND, worker_count
from ..engine.options import AUTO, Options
from ..engine.sniff import WINDOW
from ..profiles.base import COMMON_OPTIONS, profiles
from .many import run_many
from .output import Output, progress_bar, report_outputs, review_output, say, to_devnull, utf8_stdout
from .signals import Signals, status_of, take

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2
EXIT_OUTPUT_FAILED = 74  # EX_IOERR, as sysexits.h numbers it
# 128 and the signal's number, as a shell reports a process that signal ended.
EXIT_INTERRUPTED, EXIT_PIPE_CLOSED, EXIT_TERMINATED = 130, 141, 143

BUILD = "compiled" if __compiled__ else "pure Python"
"""Which build runs, for ``--version``: a bug report should say."""

EXAMPLES = """\
examples:
  pdftotext policy.pdf - | stream-chunker > chunks.jsonl
  stream-chunker wording.pdf > chunks.jsonl
  stream-chunker --max-tokens 300 --stats wording.txt > chunks.jsonl
  stream-chunker --cap-by real --encoding cl100k_base manual.txt
  stream-chunker --profile statute --code MD --cite "Md. Code, Transp. § {section}" transp.txt
  stream-chunker --profile statute --section 16-112 --heading "Stopping" --code MD sec.txt
  stream-chunker --report run.json --diagnostics why.jsonl a.txt b.txt
  stream-chunker --jobs 4 --glob '*.txt' --glob '*.pdf' policies/ > chunks.jsonl
  stream-chunker --fsm > reader.mmd

exit status: 0 done, 1 bad input (the message names the line; with several
documents, one or more could not be chunked and the others were), 2 bad usage,
74 an output could not be written (the message names it), 130 SIGINT (Ctrl-C),
141 output pipe closed or SIGPIPE, 143 SIGTERM. Only complete JSON lines are
ever written.
"""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="stream-chunker",
        description="Cut long legal and insurance documents (text as pdftotext prints it) into "
                    "citable chunks, one line at a time, with bounded memory. Writes JSON Lines.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="files (text or PDF) and directories to chunk; '-' or none reads stdin")
    registry = profiles()
    p.add_argument("--profile", choices=tuple(registry) + (AUTO,), default="policy",
                   help="; ".join(f"{spec.name}: {spec.summary}" for spec in registry.values())
                   + f"; {AUTO}: the one the first {WINDOW:,} characters read like")
    cap = p.add_mutually_exclusive_group()
    cap.add_argument("--max-tokens", type=int, help="cap in tokens (policy default 400)")
    cap.add_argument("--max-chars", type=int, help="cap in characters (statute default 900)")
    p.add_argument("--cap-by", choices=("estimate", "real"), default="estimate",
                   help="measure the token cap by the 0.75-words estimate (default) or real tokens")
    p.add_argument("--encoding", default="cl100k_base", help="tiktoken encoding for real counts")
    p.add_argument("--no-real-tokens", dest="real_tokens", action="store_false",
                   help="skip real token counts (real_tokens is null)")
    p.add_argument("--count-worker", action=argparse.BooleanOptionalAction, default=None,
                   help="count a long document's real tokens mostly in a counting process on another core "
                        "(default: yes, unless --jobs leaves no core to spare for it)")
    for spec in registry.values():
        if spec.options:
            group = p.add_argument_group(f"--profile {spec.name}")
            for option in spec.options:
                group.add_argument("--" + option.name.replace("_", "-"), dest=option.name, type=option.type,
                                   help=option.help)
    common = p.add_argument_group("every profile")
    for option in COMMON_OPTIONS:
        common.add_argument("--" + option.name.replace("_", "-"), dest=option.name, type=option.type, metavar="N",
                            help=option.help if option.default is None else f"{option.help} (default {option.default:,})")
    many = p.add_argument_group("many documents")
    many.add_argument("--jobs", type=int, metavar="N",
                      help="documents chunked at once, each by a worker process (default: the usable cores; "
                           "1: one after another in this process); done documents wait in $TMPDIR, and none "
                           f"is handed out while they hold {SPILL_BOUND >> 20} MiB")
    many.add_argument("--glob", action="append", metavar="PATTERN",
                      help="names of the files to chunk in a directory (default: *.txt; give it again for "
                           "more, e.g. --glob '*.txt' --glob '*.pdf')")
    out = p.add_argument_group("reports")
    out.add_argument("--report", metavar="FILE", help="write the end-of-run report (JSON) to FILE")
    out.add_argument("--outline", action="store_true",
                     help="print the outline that was read (id, title, line, page, words; one line per "
                          "section, indented by depth) instead of the chunks")
    out.add_argument("--review", metavar="FILE.html",
                     help="also write a self-contained HTML page of what was read: the outline, each chunk with "
                          "its id and counts, the lines dropped and the headings refused, the report; over "
                          "several documents, a folder: a page each and index.html, the weakest structure first")
    out.add_argument("--json", action="store_true", help="with --outline: one JSON line per section, for tools")
    out.add_argument("--gold", metavar="FILE",
                     help="gold clause labels, one a line (4.2, III.C.2.b): report those no chunk cites and those "
                          "more than one section cites; with --strict, exit status 1 if any")
    out.add_argument("--stats", action="store_true", help="print the end-of-run report (JSON) on stderr")
    out.add_argument("--diagnostics", metavar="FILE",
                     help="write one JSON line per rejected heading, skipped number, ambiguous label, "
                          "furniture line, replaced byte ... to FILE")
    pdf = p.add_argument_group("PDF input (a file that starts with %PDF-)")
    pdf.add_argument("--pdf-backend", choices=BACKENDS, default="pdfium",
                     help="pdfium: PDFium, from the [pdf] extra (default); pdftotext: poppler's pdftotext")
    pdf.add_argument("--password", help="password of an encrypted PDF")
    pdf.add_argument("--layout", action="store_true",
                     help="pdftotext's -layout mode: columns side by side (pdftotext backend only)")
    p.add_argument("--input-encoding", default="utf-8", metavar="NAME",
                   help="encoding of text input (default utf-8; e.g. cp1252, latin-1): bytes not valid in it "
                        "are replaced, counted and noted")
    p.add_argument("--strict", action="store_true", help="invalid UTF-8 or NUL bytes end the run (exit 1)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    p.add_argument("--fsm", action="store_true", help="print the reader's state machine as Mermaid and exit")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__} ({BUILD})")
    return p


def _options(args: argparse.Namespace) -> Dict[str, Any]:
    opts: Dict[str, Any] = dict(profile=args.profile, max_tokens=args.max_tokens, max_chars=args.max_chars,
                                cap_by=args.cap_by, encoding=args.encoding, real_tokens=args.real_tokens)
    for option in COMMON_OPTIONS:
        if getattr(args, option.name) is not None:
            opts[option.name] = getattr(args, option.name)
    for spec in profiles().values():
        for option in spec.options:
            value = getattr(args, option.name)
            if value is None:
                continue
            if spec.name != args.profile:
                raise ConfigError(f"--{option.name.replace('_', '-')} belongs to --profile {spec.name}")
            opts[option.name] = value
    return opts


def _batches(args: argparse.Namespace, document: Document, name: str, stack: ExitStack) -> Iterator[List[Chunk]]:
    """The document's chunks, with a bar on a terminal: of pages for a PDF, of bytes for text."""
    if not document.is_pdf:
        progress = progress_bar(stack, args.progress, document.size, os.path.basename(name))
        return document.batches(progress=progress)
    advance: Optional[Callable[[Page], None]] = None
    if args.progress or (args.progress is None and sys.stderr.isatty()):
        from tqdm import tqdm

        bar = stack.enter_context(tqdm(unit="page", desc=os.path.basename(name), file=sys.stderr, leave=False))

        def advance(page: Page) -> None:
            bar.total = page.count  # known once the PDF is open (pdftotext: never)
            bar.update(1)

    return document.batches(pages=advance)


def _find_temp_dir(signals: Signals) -> None:
    """Python finds its temporary directory by making a file there and
    deleting it; a stop between the two would leave the file in $TMPDIR.
    So it is found once, first thing, with signals held. A $TMPDIR that is
    no use is said, by name, by the first file that needs it."""
    with signals.held():
        try:
            tempfile.gettempdir()
        except OSError:
            pass


def _run(args: argparse.Namespace, out: Output, signals: Signals) -> int:
    _find_temp_dir(signals)
    keywords = _options(args)
    workers = worker_count(args.jobs)
    options = Options.of(**keywords)
    reading = Reading(strict=args.strict, pdf_backend=args.pdf_backend, password=args.password, layout=args.layout,
                      input_encoding=args.input_encoding)
    if args.json and not args.outline:
        raise ConfigError("--json is a form of --outline: give both")
    files = args.files or [STDIN]
    if len(files) > 1 or any(name != STDIN and os.path.isdir(name) for name in files):
        if args.outline or args.gold:
            raise ConfigError(f"{'--outline' if args.outline else '--gold'} concerns one document: give one file")
        return EXIT_BAD_INPUT if run_many(args, options, reading, files, out, signals, workers) else EXIT_OK
    gold = GoldCheck(read_gold(args.gold)) if args.gold else None
    name = files[0]
    started = time.perf_counter()
    with ExitStack() as stack:
        diag_file, report_file = report_outputs(stack, args.diagnostics, args.report, signals)
        review = ReviewPage(review_output(stack, args.review, signals), name) if args.review else None
        outline = OutlineView(as_json=args.json) if args.outline else None
        on_diag = None
        if diag_file is not None or review is not None or outline is not None:
            def on_diag(event: Dict[str, Any]) -> None:
                if diag_file is not None:
                    diag_file.write(json.dumps(event, ensure_ascii=False) + "\n")
                if review is not None:
                    review.event(event)
                if outline is not None:
                    out.write(outline.refused(event))
        document = stack.enter_context(Document(source_of(name), options, reading=reading,
                                                count_worker=args.count_worker is not False, on_diagnostic=on_diag))
        if (args.password is not None or args.layout) and not document.is_pdf:
            given = "--password" if args.password is not None else "--layout"
            raise ConfigError(f"{given} concerns PDFs, and {name} is text: leave it out")
        try:
            for chunks in _batches(args, document, name, stack):
                if gold is not None:
                    gold.feed(chunks)
                if review is not None:
                    review.chunks(chunks)
                if chunks:
                    out.write(outline.feed(chunks) if outline is not None else "".join(json_line(c, None) for c in chunks))
            if outline is not None:
                out.write(outline.close())
        except InputError as err:
            raise InputError(f"{name}: {err}") from None
        summary = document.report
        for note in document_notes(summary, name):
            say(f"stream-chunker: {note}")
        if gold is not None:
            summary["gold"] = gold.report()
            say(f"stream-chunker: {gold_note(summary['gold'], name)}")
        summary["elapsed_s"] = round(time.perf_counter() - started, 3)
        summary.update(peaks())
        if review is not None:
            review.close(summary)
        text = json.dumps(summary, ensure_ascii=False, indent=2) + "\n"
        if report_file is not None:
            report_file.write(text)
    if args.stats:
        Output("stderr", sys.stderr, signals).write(text)
    if gold is not None and args.strict and (summary["gold"]["missing"] or summary["gold"]["ambiguous"]):
        return EXIT_BAD_INPUT
    return EXIT_OK


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    signals, restore = take()
    try:
        return _main(argv, signals)
    except BrokenPipeError:
        # The reader went away (| head): say nothing, and keep Python from
        # complaining when it flushes stdout at exit.
        to_devnull(sys.stdout)
        return EXIT_PIPE_CLOSED
    except OutputError as err:
        say(f"stream-chunker: {err}")
        return EXIT_OUTPUT_FAILED
    except ConfigError as err:
        say(f"stream-chunker: {err}")
        return EXIT_USAGE
    except EncodingUnavailable as err:
        say(f"stream-chunker: {err}")
        return EXIT_USAGE if "unknown encoding" in str(err) else EXIT_BAD_INPUT
    except ChunkerError as err:
        say(f"stream-chunker: {err}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as stop:
        return status_of(stop)
    finally:
        restore()


def _main(argv: Optional[Sequence[str]], signals: Signals) -> int:
    utf8_stdout()
    out = Output("stdout", sys.stdout, signals)
    # What argparse prints (--help, --version) is output like any other: it
    # would swallow a failed write, and leave the rest to fail at exit.
    with redirect_stdout(io.StringIO()) as printed:
        try:
            args = _parser().parse_args(argv)
        except SystemExit as exit_:
            args, status = None, int(exit_.code or 0)
    out.write(printed.getvalue())
    if args is None:
        return status
    if args.fsm:
        from ..core.machine import mermaid

        out.write(mermaid() + "\n")
        return EXIT_OK
    return _run(args, out, signals)

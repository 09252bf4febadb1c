"""The command line over several documents (files, directories, stdin): each
document's chunks together, in input order, on ``--jobs`` worker processes;
a document that fails is reported and the others go on; the report has an
entry a document and the totals.

The report's entries go to a spool file as each document ends, not into a
list: a run over a million documents holds none of them in memory.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap
import time
from contextlib import ExitStack
from typing import IO, Any, Dict, List, Optional, Tuple

from ..core.errors import OutputError
from ..drivers.document import Reading
from ..drivers.documents import (DEFAULT_GLOBS, Job, Outcome, Write, chunk_document, chunk_of, documents, jobs_for,
                                 peaks)
from ..drivers.workers import InOrder, counts_apart
from ..engine.options import Options
from .output import Output, document_bar, report_outputs, say
from .review import ReviewCorpus, ReviewPage
from .signals import Signals


class _Reports:
    """The run's report, its entries spooled as they come; written as
    ``json.dumps(report, indent=2)`` would write it."""

    def __init__(self, stack: ExitStack) -> None:
        try:
            self._spool = stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8"))
        except OSError as err:
            raise OutputError.of(self._NAME, err) from None
        self._entries = 0

    _NAME = "the report's spool file in $TMPDIR"

    def add(self, entry: Dict[str, Any]) -> None:
        try:
            self._spool.write(("," if self._entries else "") + "\n"
                              + textwrap.indent(json.dumps(entry, ensure_ascii=False, indent=2), "    "))
        except OSError as err:
            raise OutputError.of(self._NAME, err) from None
        self._entries += 1

    def write(self, out: Output, rest: Dict[str, Any]) -> None:
        """The whole report: ``{"documents": [...], **rest}``."""
        out.write('{\n  "documents": [')
        self._spool.seek(0)
        for block in iter(lambda: self._spool.read(1 << 16), ""):
            out.write(block)
        out.write("\n  ]" if self._entries else "]")
        out.write("," + json.dumps(rest, ensure_ascii=False, indent=2)[1:] + "\n")


class _Totals:
    def __init__(self) -> None:
        self.documents = self.failed = self.chunks = self.bytes = 0
        self.worker_peak = 0.0
        self.counting_peak: Optional[float] = None  # of the counting processes, workers' included

    def add(self, outcome: Outcome) -> None:
        self.documents += 1
        self.failed += outcome.error is not None
        self.chunks += outcome.chunks
        self.bytes += outcome.bytes
        self.worker_peak = max(self.worker_peak, outcome.peak_rss_mib)
        self.counting_peak = max(filter(None, (self.counting_peak, outcome.count_worker_peak_rss_mib)), default=None)

    def as_dict(self, seconds: float) -> Dict[str, Any]:
        return {"documents": self.documents, "failed": self.failed, "chunks": self.chunks, "bytes": self.bytes,
                "seconds": round(seconds, 3),
                "documents_per_s": round(self.documents / seconds, 2) if seconds else None,
                "mb_per_s": round(self.bytes / 1e6 / seconds, 2) if seconds else None,
                "worker_peak_rss_mib": self.worker_peak}


class _Reviewed:
    """One document of a run, its JSON lines and diagnostics passed on as
    ever and, with ``--review DIR``, read back into its review page."""

    def __init__(self, corpus: Optional[ReviewCorpus], job: Job, write: Write,
                 write_diagnostic: Optional[Write]) -> None:
        self._corpus, self._job, self._out, self._out_diagnostic = corpus, job, write, write_diagnostic
        self._page: Optional[Tuple[ReviewPage, IO[str], str]] = None
        self.write_diagnostic: Optional[Write] = write_diagnostic
        if corpus is not None:
            self._page = corpus.open(job.index, job.name)
            self.write_diagnostic = self._diagnostic

    def __enter__(self) -> "_Reviewed":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._page is not None:  # the run stopped before the document ended
            self._page[1].close()

    def write(self, text: str) -> None:
        self._out(text)
        if self._page is not None:
            self._page[0].chunks([chunk_of(json.loads(line)) for line in text.splitlines() if line])

    def _diagnostic(self, text: str) -> None:
        if self._out_diagnostic is not None:
            self._out_diagnostic(text)
        assert self._page is not None
        for line in text.splitlines():
            if line:
                self._page[0].event(json.loads(line))

    def done(self, entry: Dict[str, Any]) -> None:
        if self._corpus is not None and self._page is not None:
            page, stream, file = self._page
            self._page = None
            self._corpus.done(page, stream, file, self._job.name, entry)


def run_many(args: argparse.Namespace, options: Options, reading: Reading, inputs: List[str], out: Output,
             signals: Signals, workers: int) -> bool:
    """Chunk every document ``inputs`` name, each line with its ``doc``;
    returns whether some document failed."""
    globs = tuple(args.glob or DEFAULT_GLOBS)
    def skipped(path: str, why: str) -> None:
        say(f"stream-chunker: {path}: skipped: {why}")

    corpus = ReviewCorpus(args.review) if args.review else None
    jobs = jobs_for(documents(inputs, globs, skipped), options, reading, count_worker=counts_apart(args.count_worker, workers),
                    labelled=True, diagnostics=bool(args.diagnostics) or corpus is not None)
    started = time.perf_counter()
    totals = _Totals()
    with ExitStack() as stack:
        diag_file, report_file = report_outputs(stack, args.diagnostics, args.report, signals)
        reports = _Reports(stack)
        bar = document_bar(stack, args.progress, inputs, globs)

        def note(line: str) -> None:
            if bar is None:
                say(line)
            else:  # above the bar, which goes on below it
                bar.write(line, file=sys.stderr)

        write = out.write

        def done(outcome: Outcome) -> Dict[str, Any]:
            totals.add(outcome)
            entry: Dict[str, Any] = {"doc": outcome.name}
            if outcome.error is not None:
                note(f"stream-chunker: {outcome.name}: {outcome.error}")
                entry.update(error=outcome.error, chunks=outcome.chunks)
            else:
                entry.update(outcome.report or {})
            for line in outcome.notes:
                note(f"stream-chunker: {line}")
            entry.update(bytes=outcome.bytes, seconds=outcome.seconds)
            reports.add(entry)
            if bar is not None:
                bar.set_postfix_str(f"{totals.bytes / 1e6:.1f} MB", refresh=False)
                bar.update(1)
            return entry

        write_diagnostic: Optional[Write] = diag_file.write if diag_file is not None else None
        if workers == 1:
            for job in jobs:
                with _Reviewed(corpus, job, write, write_diagnostic) as doc:
                    doc.done(done(chunk_document(job, doc.write, doc.write_diagnostic)))
        else:
            pool = stack.enter_context(InOrder(workers, starting=signals.held))
            for run in pool.runs(jobs):
                with _Reviewed(corpus, run.job, write, write_diagnostic) as doc:
                    if run.local:
                        doc.done(done(chunk_document(run.job, doc.write, doc.write_diagnostic)))
                        continue
                    for text in run.chunk_texts():
                        doc.write(text)
                    outcome = run.outcome()
                    if doc.write_diagnostic is not None:
                        for text in run.diagnostic_texts():
                            doc.write_diagnostic(text)
                    doc.done(done(outcome))
        if corpus is not None:
            corpus.close()
        seconds = time.perf_counter() - started
        mine = peaks()
        # With workers, the counting processes are theirs: each document brought its figure back.
        mine["count_worker_peak_rss_mib"] = max(
            filter(None, (mine["count_worker_peak_rss_mib"], totals.counting_peak)), default=None)
        rest = {"totals": totals.as_dict(seconds), "elapsed_s": round(seconds, 3), **mine}
        if report_file is not None:
            reports.write(report_file, rest)
        if args.stats:
            reports.write(Output("stderr", sys.stderr, signals), rest)
    return totals.failed > 0

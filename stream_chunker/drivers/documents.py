"""Documents when many are named: files and directories (walked in sorted
order) into the documents they hold, and one document (through
``drivers.document``) chunked into JSON lines, failing alone if it must.

The walk never lists a whole tree first: it holds the sorted entries of the
directories it is in, so a corpus of a million files costs the size of its
largest directory, not of its list of paths. A named directory with nothing
to chunk, or one that cannot be listed, is a document that fails (with its
reason), so that it is reported where it stands in the input, as a missing
file is.
"""

from __future__ import annotations

import json
import os
import resource
import stat
import time
import warnings
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..core.chunk import Chunk
from ..core.errors import InputError
from ..engine.chunker import Chunker
from ..engine.options import AUTO, Options
from .counting import peak_rss_mib as count_worker_peak_rss_mib
from .document import STDIN, Document, Reading, source_of
from .pdf import OCR_HINT

DEFAULT_GLOBS = ("*.txt",)

Write = Callable[[str], object]
"""Where JSON lines go: a file's ``write``, or the command line's."""

Named = Tuple[str, Optional[str]]
"""A document's name (a path, or ``-`` for stdin) and, when it is known
before it is read, why it cannot be chunked."""


Skipped = Callable[[str, str], None]


def _warn(path: str, why: str) -> None:
    warnings.warn(f"{path}: skipped: {why}", stacklevel=2)


def documents(inputs: Iterable[str], globs: Sequence[str] = DEFAULT_GLOBS,
              skipped: Skipped = _warn) -> Iterator[Named]:
    """Every document that ``inputs`` name, in order: a file as it is named
    (whatever its name), ``-`` for stdin, and each directory's regular files
    whose names match one of ``globs``, at any depth, in the order their paths
    sort (code point by code point, as ``sorted`` sorts the paths). A walk
    reads no FIFO, socket or device (reading one could wait for ever) and
    follows no link to a directory: each that matches a glob is told to
    ``skipped`` with why (a warning, unless the caller says otherwise).

    >>> list(documents(["-", "no/such/file.txt"]))
    [('-', None), ('no/such/file.txt', None)]
    """
    for name in inputs:
        if name != STDIN and os.path.isdir(name):
            found = False
            for named in _walk(name, globs, skipped):
                found = True
                yield named
            if not found:
                yield name, f"no file in this directory matches {' or '.join(globs)} (--glob)"
        else:
            yield name, None


def _walk(directory: str, globs: Sequence[str], skipped: Skipped) -> Iterator[Named]:
    try:
        with os.scandir(directory) as listing:
            # A directory sorts as its name and a slash: the order of the paths themselves
            # ("a/b.txt" < "a/b/c.txt" < "a/b0.txt"), so a sorted list of them is the test.
            entries = sorted(((e.name + "/" if e.is_dir(follow_symlinks=False) else e.name), e.path)
                             for e in listing)
    except OSError as err:
        yield directory, f"cannot list this directory: {err.strerror}"
        return
    for key, path in entries:
        if key.endswith("/"):
            yield from _walk(path, globs, skipped)
        elif any(fnmatchcase(key, glob) for glob in globs):
            why = _not_regular(path)
            if why is None:
                yield path, None
            else:
                skipped(path, why)


def _not_regular(path: str) -> Optional[str]:
    """Why ``path`` is not a file to read, or None: a link to a directory is not
    followed (no cycles), and a FIFO, socket or device could block a read."""
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        if not os.path.islink(path):
            return None  # unreadable: its reader says why, as for a file named on the command line
        return f"a broken link ({err.strerror})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a link to a directory (links to directories are not followed)"
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return f"{kind}, not a regular file"


def document_notes(report: Dict[str, Any], name: str) -> Tuple[str, ...]:
    """The lines for stderr about a document that was read, but perhaps not
    well: NUL bytes dropped (text holds none: is it text?); a PDF with pages
    with no text layer; a text that reads like another profile, or whose
    outline labels come out of order (its chunks are written anyway, but are
    likely poor)."""
    notes = []
    if report["replaced_bytes"]:
        notes.append(f"{name}: {report['replaced_bytes']} byte(s) that are not valid in its encoding replaced by "
                     "U+FFFD (is it Latin-1 or cp1252? give --input-encoding cp1252; --diagnostics gives their "
                     "lines, --strict refuses them)")
    if report["nul_bytes"]:
        notes.append(f"{name}: {report['nul_bytes']} NUL byte(s) dropped (text holds none: is this text? "
                     "--diagnostics gives their lines, --strict refuses them)")
    scanned = report["diagnostics"].get("no_text_layer", 0)
    if scanned:
        notes.append(f"{name}: {scanned} page(s) with no text layer left out (a scan?): {OCR_HINT}")
    mismatch = report["profile_mismatch"]
    # The text this tool extracted itself is in reading order: the hint is for text given.
    if report["diagnostics"].get("labels_out_of_order") and mismatch is None and report["read_from"] == "text":
        notes.append(f"{name}: {report['outline_labels_refused']} outline labels came out of sequence: "
                     "if this is text from a two-column PDF, give the PDF itself or `pdftotext -raw` "
                     "(the default mode prints the columns out of order)")
    if report["words_unaccounted"]:
        notes.append(f"{name}: {report['words_unaccounted']} of its {report['words_in']} words are in no chunk "
                     "and not accounted for (a fault of stream_chunker: please report it with the document)")
    if report["structure"]["weak"] and mismatch is None:
        structure = report["structure"]
        notes.append(f"{name}: the structure is weak: {structure['words_outside']} of {structure['words']} words "
                     "are under no heading and no clause (--outline shows what was read; from a PDF, give the "
                     "PDF itself: its layout shows headings that carry no number)")
    if mismatch is not None:
        notes.append(f"{name}: this reads like --profile {mismatch['reads_like']} (line {mismatch['line']}: "
                     f"{mismatch['example']!r}), not {report['profile']}; try --profile {mismatch['reads_like']} "
                     f"or --profile {AUTO}")
    return tuple(notes)


def json_line(chunk: Chunk, doc: Optional[str]) -> str:
    """A chunk as one JSON line, with a ``doc`` field first when ``doc`` is given."""
    d = chunk.to_dict()
    if doc is not None:
        d = {"doc": doc, **d}
    return json.dumps(d, ensure_ascii=False) + "\n"


def chunk_of(fields: Dict[str, Any]) -> Chunk:
    """The chunk that a JSON line's fields (less ``doc``) came from."""
    fields.pop("doc", None)
    fields["lines"] = tuple(fields["lines"])
    fields["pages"] = tuple(fields["pages"])
    return Chunk(**fields)


@dataclass(frozen=True)
class Job:
    """One document to chunk, and how."""

    index: int
    """Its place in the input, from 0."""
    name: str
    """Its path, or ``-`` for stdin."""
    problem: Optional[str]
    """Why it cannot be chunked, when that is known before it is read."""
    options: Options
    """The chunker's options, checked."""
    reading: Reading = Reading()
    """How its bytes are read."""
    count_worker: bool = True
    """Whether its real tokens may go to a counting process (see ``drivers.counting``)."""
    label: Optional[str] = None
    """The ``doc`` field of its JSON lines and diagnostics (None: none)."""
    diagnostics: bool = False
    """Whether its diagnostics are written too."""


def jobs_for(named: Iterable[Named], options: Options, reading: Reading = Reading(), *, count_worker: bool = True,
             labelled: bool, diagnostics: bool = False) -> Iterator[Job]:
    for index, (name, problem) in enumerate(named):
        yield Job(index, name, problem, options, reading, count_worker, name if labelled else None, diagnostics)


@dataclass(frozen=True)
class Outcome:
    """What became of one document."""

    name: str
    error: Optional[str]
    """Why it failed (its chunks up to there were written), or None."""
    report: Optional[Dict[str, Any]]
    """The chunker's report, when it was read to the end."""
    chunks: int
    bytes: int
    seconds: float
    peak_rss_mib: float
    """The high-water mark of the process that chunked it, up to its end."""
    count_worker_peak_rss_mib: Optional[float]
    """That of the process's counting process, up to then (None when none ran)."""
    notes: Tuple[str, ...]
    """Lines for stderr when it was read, but perhaps not well (see ``document_notes``)."""


def peak_rss_mib() -> float:
    # ru_maxrss is in KiB on Linux.
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def peaks() -> Dict[str, Optional[float]]:
    """The report's peak RSS of this process, and apart from it that of its
    counting process (None when none ran)."""
    return {"peak_rss_mib": peak_rss_mib(), "count_worker_peak_rss_mib": count_worker_peak_rss_mib()}


def chunks_of(job: Job, on_diagnostic: Optional[Callable[[Dict[str, Any]], None]] = None,
              progress: Optional[Callable[[int], None]] = None) -> Iterator[Tuple[Chunker, List[Chunk]]]:
    """The chunks of one document a batch at a time, each with its chunker
    (whose report is complete after the last batch); raises
    :class:`InputError` when the document cannot be chunked."""
    if job.problem is not None:
        raise InputError(job.problem)
    with Document(source_of(job.name), job.options, reading=job.reading, count_worker=job.count_worker,
                  on_diagnostic=on_diagnostic) as document:
        for batch in document.batches(progress=progress):
            yield document.chunker, batch


def chunk_document(job: Job, write: Write, write_diagnostic: Optional[Write] = None) -> Outcome:
    """Chunk one document into JSON lines, handed to ``write`` a block at a
    time (its diagnostics to ``write_diagnostic``); a document that cannot be
    read or chunked fails alone, with its reason."""
    started = time.perf_counter()
    read = chunks = 0

    def count(size: int) -> None:
        nonlocal read
        read += size

    on_diagnostic = None
    if write_diagnostic is not None:
        def on_diagnostic(event: Dict[str, Any]) -> None:
            assert write_diagnostic is not None
            if job.label is not None:
                event = {"doc": job.label, **event}
            write_diagnostic(json.dumps(event, ensure_ascii=False) + "\n")

    error = report = None
    notes: Tuple[str, ...] = ()
    try:
        chunker = None
        for chunker, batch in chunks_of(job, on_diagnostic, count):
            if batch:
                write("".join([json_line(c, job.label) for c in batch]))
                chunks += len(batch)
        if chunker is not None:
            report = chunker.report
            notes = document_notes(report, job.name)
    except InputError as err:
        error = str(err)
    if not read and job.name != STDIN and job.problem is None:  # a PDF: its size on disk
        try:
            info = os.stat(job.name)
            read = info.st_size if stat.S_ISREG(info.st_mode) else 0
        except OSError:
            pass
    return Outcome(job.name, error, report, chunks, read, round(time.perf_counter() - started, 3),
                   peak_rss_mib(), count_worker_peak_rss_mib(), notes)

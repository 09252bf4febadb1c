"""Dask: a corpus chunked on a cluster (the ``[dask]`` extra).

:func:`chunk_bag` turns paths into a ``dask.bag`` of chunk records, one task
per document: the task opens the document on the worker that runs it, so
only paths go out to the workers and only records come back. A record is a
chunk's fields as the command line writes them, with ``doc`` first::

    {"doc": "policies/home.txt", "id": "4.2", "clause": "4.2", ..., "lines": [5, 9], ...}

:func:`to_parquet` writes records as a Parquet dataset with those columns
(``oversize`` is a string column, null where the chunk has ``false``).

>>> from dask.distributed import Client, LocalCluster                    # doctest: +SKIP
>>> with LocalCluster(n_workers=2) as cluster, Client(cluster):          # doctest: +SKIP
...     to_parquet(chunk_bag(["policies/"], max_tokens=400), "chunks.parquet")

A task holds its document's records until it ends (a Dask task's result is
a list): a 400-page wording makes about 1 MB of them. The command line and
:func:`stream_chunker.chunk_files` stream within a document too.
"""

from __future__ import annotations

import logging
import math
import os
from typing import Any, Dict, Iterable, List, Optional, Union

import dask.bag as db
import pandas as pd
import pyarrow as pa

from ..core.errors import ConfigError, InputError
from ..drivers.document import Reading
from ..drivers.documents import DEFAULT_GLOBS, Job, chunks_of, documents
from ..engine.options import Options

__all__ = ["SCHEMA", "chunk_bag", "to_parquet"]

ERRORS = ("raise", "skip")

DOCUMENTS_PER_FILE = 64
"""Partitions of the bag (documents, for a bag made from paths) written to
one Parquet file: a file a document would make a million files of a
million documents."""

SCHEMA = pa.schema([
    ("doc", pa.string()), ("id", pa.string()), ("clause", pa.string()), ("heading_path", pa.string()),
    ("text", pa.string()), ("words", pa.int64()), ("tokens", pa.int64()), ("real_tokens", pa.int64()),
    ("citation", pa.string()), ("lines", pa.list_(pa.int64())), ("pages", pa.list_(pa.int64())),
    ("oversize", pa.string()), ("part", pa.string()),
])
"""The Parquet columns of a chunk record."""

_log = logging.getLogger("stream_chunker")

PathLike = Union[str, "os.PathLike[str]"]


def chunk_bag(paths: Union[Iterable[PathLike], db.Bag], *, glob: Iterable[str] = DEFAULT_GLOBS,
              errors: str = "raise", strict: bool = False, pdf_backend: str = "pdfium",
              password: Optional[str] = None, layout: bool = False, count_worker: bool = False,
              **options: Any) -> db.Bag:
    """A bag of the chunk records of every document in ``paths``, a task a document.

    ``paths`` are files as the workers see them (a PDF, known by its
    signature, or UTF-8 text), or a ``dask.bag`` of them, which keeps its
    partitions (a task a partition). A directory that exists here is walked
    here, as :func:`stream_chunker.chunk_files` walks it (``glob``); its files
    must be at the same paths on the workers (a shared file system).

    A document that cannot be chunked fails its task, and the computation,
    with an :class:`InputError` naming it (``errors="raise"``); with
    ``errors="skip"`` it is logged on its worker (logger ``stream_chunker``,
    level WARNING) and the others go on, its records up to where it failed
    kept, as the command line keeps them. ``options`` are those of
    :func:`stream_chunker.chunk_lines`. Real tokens are counted by each
    worker itself (``count_worker=False``): a cluster has a thread a core,
    and no core to spare for a counting process.
    """
    if errors not in ERRORS:
        raise ConfigError(f"errors={errors!r}: choose one of {', '.join(ERRORS)}")
    checked = Options.of(**options)  # here, not on every worker
    reading = Reading(strict=strict, pdf_backend=pdf_backend, password=password, layout=layout)
    if isinstance(paths, db.Bag):
        bag = paths
    else:
        names = []
        for name, problem in documents([os.fspath(p) for p in paths], tuple(glob)):
            if problem is None:
                names.append(name)
            elif errors == "raise":
                raise InputError(f"{name}: {problem}")
            else:
                _log.warning("%s: %s", name, problem)
        bag = db.from_sequence(names, npartitions=max(1, len(names)))
    records: db.Bag = bag.map_partitions(_records, checked, reading, count_worker, errors)
    return records


def _records(names: Iterable[PathLike], options: Options, reading: Reading, count_worker: bool,
             errors: str) -> List[Dict[str, Any]]:
    """The task: the records of the documents of one partition."""
    records: List[Dict[str, Any]] = []
    for doc in (os.fspath(name) for name in names):
        try:
            for _, batch in chunks_of(Job(0, doc, None, options, reading, count_worker)):
                records.extend({"doc": doc, **chunk.to_dict()} for chunk in batch)
        except InputError as err:
            if errors == "raise":
                raise InputError(f"{doc}: {err}") from None
            _log.warning("%s: %s", doc, err)
    return records


def _row(record: Dict[str, Any]) -> Dict[str, Any]:
    return {**record, "oversize": record["oversize"] or None}


def to_parquet(records: db.Bag, path: str, **storage: Any) -> None:
    """Write chunk records as a Parquet dataset at ``path`` (a directory of
    ``part.NNNNNN.parquet`` files, read back in order by
    ``pyarrow.parquet.read_table(path)`` or ``dask.dataframe.read_parquet``),
    with the columns of :data:`SCHEMA`; ``storage`` goes to
    ``dask.dataframe.to_parquet`` (``storage_options=`` for object stores)."""
    rows = records.map(_row)
    rows = rows.repartition(npartitions=math.ceil(rows.npartitions / DOCUMENTS_PER_FILE))
    meta = pd.DataFrame({f.name: pd.Series(dtype="Int64" if pa.types.is_integer(f.type) else object)
                         for f in SCHEMA})
    rows.to_dataframe(meta=meta).to_parquet(path, schema=SCHEMA, write_index=False,
                                            name_function=lambda i: f"part.{i:06d}.parquet", **storage)

"""The Dask path (issue 16): a bag of chunk records on a local cluster of two
worker processes is what one process makes, and Parquet gives it back."""

from __future__ import annotations

import os
import pickle
from typing import Any, Dict, Iterator, List

import pytest

pytest.importorskip("distributed", reason="the Dask path needs the [dask] extra: pip install -e '.[test]'")

import dask.bag as db  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import stream_chunker.integrations.dask as chunk_dask  # noqa: E402
from stream_chunker import InputError, chunk_files  # noqa: E402
from stream_chunker.dask import SCHEMA, chunk_bag, to_parquet  # noqa: E402

from .test_cli import PNG_BYTES, write  # noqa: E402
from .test_corpus_run import files_under, mixed  # noqa: E402,F401  (the folder of mixed documents)

FAST = {"real_tokens": False}


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client


def serial(paths: List[Any], **options: Any) -> List[Dict[str, Any]]:
    return [{"doc": doc, **chunk.to_dict()} for doc, chunk in chunk_files(paths, jobs=1, **options)]


@pytest.mark.parametrize("options", [FAST, {}], ids=["estimate", "real-tokens"])
def test_the_cluster_makes_the_records_one_process_makes(client, mixed, options):
    paths = [str(mixed / name) for name in files_under(mixed, ".txt")]
    bag = chunk_bag(paths, **options)
    assert bag.npartitions == len(paths)  # a task a document
    assert bag.compute() == serial(paths, **options)


def test_only_paths_go_out_to_the_workers(mixed):
    paths = [str(mixed / name) for name in files_under(mixed, ".txt")]
    graph = pickle.dumps(dict(chunk_bag(paths, **FAST).__dask_graph__()))
    text = sum((mixed / name).stat().st_size for name in files_under(mixed, ".txt"))
    assert len(graph) < 20_000 < text  # the documents' text stays where the workers read it


def test_a_directory_is_walked_here_and_a_bag_of_paths_keeps_its_partitions(client, mixed):
    records = serial([mixed], **FAST)
    assert chunk_bag([mixed], **FAST).compute() == records
    paths = [str(mixed / name) for name in files_under(mixed, ".txt")]
    bag = chunk_bag(db.from_sequence(paths, npartitions=3), **FAST)
    assert bag.npartitions == 3
    assert bag.compute() == records


def test_parquet_reads_back_the_same_rows(client, mixed, tmp_path, monkeypatch):
    monkeypatch.setattr(chunk_dask, "DOCUMENTS_PER_FILE", 3)  # several files, read back in order
    paths = [str(mixed / name) for name in files_under(mixed, ".txt")]
    records = chunk_bag(paths, **FAST)
    to_parquet(records, str(tmp_path / "chunks"))
    files = sorted(os.listdir(tmp_path / "chunks"))
    assert len(files) == -(-len(paths) // 3) and files[0] == "part.000000.parquet"
    table = pq.read_table(tmp_path / "chunks")
    assert table.schema.names == SCHEMA.names
    assert table.to_pylist() == [{**r, "oversize": r["oversize"] or None} for r in records.compute()]


def test_a_failing_document_fails_the_computation_or_is_skipped(client, tmp_path):
    good = write(tmp_path / "good.txt", "1 Cover\nWe cover the house.\n")
    bad = write(tmp_path / "bad.txt", PNG_BYTES)
    with pytest.raises(InputError, match=f"{bad}: line 1: binary input refused"):
        chunk_bag([good, bad], **FAST).compute()
    assert chunk_bag([good, bad, good], errors="skip", **FAST).compute() == serial([good, good], **FAST)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="no file in this directory matches"):
        chunk_bag([empty, good], **FAST)  # found here, before any work


def test_an_unknown_errors_value_is_refused_before_any_work():
    with pytest.raises(ValueError, match="errors="):
        chunk_bag(["a.txt"], errors="ignore")

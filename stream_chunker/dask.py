"""Dask: a corpus chunked on a cluster (``pip install -e '.[dask]'``). The code
is in ``stream_chunker/integrations/dask.py``."""

from .integrations.dask import SCHEMA, chunk_bag, to_parquet

__all__ = ["SCHEMA", "chunk_bag", "to_parquet"]

"""stream_chunker: cut long legal and insurance documents into citable chunks,
one line at a time, with bounded memory.

>>> from stream_chunker import chunk_lines
>>> [c.id for c in chunk_lines(["1 Cover", "We cover the house."], real_tokens=False)]
['1']
"""

from ._chunk import Chunk
from ._chunker import Chunker
from ._corpus import chunk_files
from ._drive import chunk_lines
from ._errors import ChunkerError, ConfigError, EncodingUnavailable, InputError

__version__ = "0.1.0"

__all__ = [
    "Chunk",
    "Chunker",
    "ChunkerError",
    "ConfigError",
    "EncodingUnavailable",
    "InputError",
    "__version__",
    "chunk_files",
    "chunk_lines",
]

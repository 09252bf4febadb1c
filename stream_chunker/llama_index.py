"""A LlamaIndex node parser (``pip install -e '.[llama-index]'``). The code is
in ``stream_chunker/integrations/llama_index.py``."""

from .integrations.llama_index import StreamChunkerNodeParser

__all__ = ["StreamChunkerNodeParser"]

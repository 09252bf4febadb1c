"""LangChain adapters (``pip install -e '.[langchain]'``): a document loader
and a text splitter. The code is in ``stream_chunker/integrations/langchain.py``."""

from .integrations.langchain import StreamChunkerLoader, StreamChunkerSplitter

__all__ = ["StreamChunkerLoader", "StreamChunkerSplitter"]

"""Adapters for other frameworks: LangChain (``langchain``), LlamaIndex
(``llama_index``), what those two share (``frameworks``), and Dask
(``dask``). Their public homes are ``stream_chunker.langchain``,
``stream_chunker.llama_index`` and ``stream_chunker.dask``."""

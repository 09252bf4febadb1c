"""The engine: :class:`~stream_chunker.engine.chunker.Chunker`, sans-IO, which
puts the core's stages, the reader and a profile from the registry together
(``chunker``), and the look at a text's first lines that picks its profile
for ``profile="auto"`` (``sniff``)."""

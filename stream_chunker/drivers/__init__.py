"""Drivers: a Chunker fed from real sources, with the I/O the engine leaves out.

An iterable of lines (``lines``), a byte stream (``stream``), a PDF (``pdf``),
files and directories walked into documents and one document chunked whole
(``documents``), many documents at once on worker processes (``workers``), and
the counting process that takes real token counts beside any of them
(``counting``).
"""

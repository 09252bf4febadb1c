"""The core: what every document goes through, whatever its kind.

The records the scanner makes (``records``) and the chunk it all ends in
(``chunk``), how a line reads (``text``), the reader's state machine
(``machine``), the one packer and id scheme (``packing``), token counts
(``tokens``), the end-of-run report (``report``) and the errors (``errors``);
in ``stages``, the scanner that turns text into records. Nothing here knows a
profile or does I/O, and nothing here imports from a layer above it.
"""

"""``python -m stream_chunker``: the same as the ``stream-chunker`` command."""

import sys

from ._launch import main

sys.exit(main())

"""``python -m stream_chunker``: the same as the ``stream-chunker`` command."""

import sys

from .cli.launch import main

sys.exit(main())

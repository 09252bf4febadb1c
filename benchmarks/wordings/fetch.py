"""Bring the development corpus's PDFs into the git-ignored cache, checking each hash.

    python -m benchmarks.wordings.fetch          # download what is missing, where a network allows
    python -m benchmarks.wordings.fetch --list   # what is present, missing or damaged

Insurers' wordings are copyrighted: the repository keeps only their manifest entry
(repository, commit, path, sha256, licence) and our own ground truth, as pdf.js does
with its linked test PDFs. Public-domain ones are committed beside the manifest. A
PDF is fetched from the repository at the recorded commit, kept only when its sha256
is the recorded one, and written to ``benchmarks/wordings/cache/``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"
CACHE = HERE / "cache"
RAW_URL = "https://raw.githubusercontent.com/{repository}/{commit}/{path}"


@dataclass(frozen=True)
class Entry:
    name: str
    repository: str
    commit: str
    path: str
    sha256: str
    licence: str
    committed: bool

    @property
    def pdf(self) -> Path:
        """Where the PDF is read from: beside the manifest when committed, else the cache."""
        return (HERE / f"{self.name}.pdf") if self.committed else (CACHE / f"{self.name}.pdf")

    @property
    def truth(self) -> Path:
        return HERE / f"{self.name}.expected.tsv"

    def state(self) -> str:
        if not self.pdf.exists():
            return "missing"
        return "present" if sha256(self.pdf) == self.sha256 else "damaged"


def entries() -> List[Entry]:
    fields = Entry.__dataclass_fields__
    return [Entry(**{key: value for key, value in item.items() if key in fields})
            for item in json.loads(MANIFEST.read_text(encoding="utf-8"))["wordings"]]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def download(entry: Entry, timeout: float = 60.0) -> Optional[str]:
    """Fetch one PDF into the cache; the reason it could not be, or None."""
    url = RAW_URL.format(repository=entry.repository, commit=entry.commit,
                         path=urllib.parse.quote(entry.path))
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            data = response.read()
    except OSError as err:
        return f"{url}: {err}"
    if hashlib.sha256(data).hexdigest() != entry.sha256:
        return f"{url}: sha256 differs from the manifest's; not kept"
    CACHE.mkdir(exist_ok=True)
    partial = entry.pdf.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(entry.pdf)
    return None


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="only say what is present")
    args = parser.parse_args(argv)
    failed = 0
    for entry in entries():
        state = entry.state()
        if state != "present" and not args.list and not entry.committed:
            reason = download(entry)
            state = "fetched" if reason is None else f"missing ({reason})"
            failed += reason is not None
        print(f"{entry.name}: {state}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

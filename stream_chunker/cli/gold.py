"""``--gold labels.txt``: the clauses a QA lead expects, checked against the clauses the chunks cite.

A gold file holds one clause a line, as people write them (``4.2``,
``III.C.2.b``, ``Endorsement 12``); blank lines and lines starting with ``#``
are skipped. A label is *found* when some chunk's ``clause`` is it, or is it
without its leading word (``Endorsement 12`` is cited ``12``, as a prefixed
label's clause keeps its value only). It is *ambiguous* when the chunks that
cite it belong to more than one section (ids that differ beyond their piece
number: ``1`` and ``1~2``), so a citation cannot tell them apart.

Memory: the gold labels, and one set of section ids per label (the chunks'
other clauses are not kept).
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Set

from ..core.chunk import Chunk
from ..core.errors import ConfigError

MAX_LISTED = 50
"""Labels named in the report's lists; the counts are always whole."""


def read_gold(path: str) -> List[str]:
    """The labels of a gold file, in order, each once."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line.strip() for line in f]
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"cannot read the gold labels {os.fspath(path)}: {err}") from None
    labels = list(dict.fromkeys(line for line in lines if line and not line.startswith("#")))
    if not labels:
        raise ConfigError(f"{path}: no gold labels in it (one clause a line: 4.2, III.C.2.b)")
    return labels


def _forms(label: str) -> List[str]:
    """A label, and the label without its leading word (``Endorsement 12`` -> ``12``)."""
    word, _, rest = label.partition(" ")
    return [label, rest.strip()] if rest.strip() and word.isalpha() else [label]


class GoldCheck:
    """Chunks in, as they come; ``report`` at the end."""

    def __init__(self, labels: List[str]) -> None:
        self.labels = labels
        self._wanted: Dict[str, List[str]] = {}  # a clause as chunks cite it -> the labels it stands for
        for label in labels:
            for form in _forms(label):
                self._wanted.setdefault(form, []).append(label)
        self._sections: Dict[str, Set[str]] = {label: set() for label in labels}

    def feed(self, chunks: List[Chunk]) -> None:
        for chunk in chunks:
            if chunk.clause is not None and chunk.clause in self._wanted:
                section = chunk.id.split("#", 1)[0]
                for label in self._wanted[chunk.clause]:
                    self._sections[label].add(section)

    def report(self) -> Dict[str, Any]:
        missing = [label for label in self.labels if not self._sections[label]]
        ambiguous = [label for label in self.labels if len(self._sections[label]) > 1]
        return {"labels": len(self.labels), "found": len(self.labels) - len(missing),
                "missing": len(missing), "ambiguous": len(ambiguous),
                "missing_labels": missing[:MAX_LISTED], "ambiguous_labels": ambiguous[:MAX_LISTED]}


def gold_note(gold: Dict[str, Any], name: str) -> str:
    """One line for stderr."""
    said = f"{name}: gold labels: {gold['found']} of {gold['labels']} cited"
    if gold["missing"]:
        said += f"; cited by no chunk: {', '.join(gold['missing_labels'])}"
        if gold["missing"] > len(gold["missing_labels"]):
            said += f" and {gold['missing'] - len(gold['missing_labels'])} more"
    if gold["ambiguous"]:
        said += f"; cited by more than one section: {', '.join(gold['ambiguous_labels'])}"
    return said

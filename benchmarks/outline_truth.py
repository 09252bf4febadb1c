"""Ground-truth outlines of real wordings, read from the three formats the corpus uses.

The benchmark scores every tool against rows made without the chunker (a tagged PDF's
structure tree, fonts, the printed contents list; see each corpus README). One row is
one outline node: a heading or a labelled item, in reading order.

- ``*.expected.tsv`` with a header ``path  label  title_or_first_words  page`` (the
  wordings of ``shared/corpus/insurance/`` after FEMA's, and ``benchmarks/wordings/``):
  ``path`` joins the labels from the top with ``.``, an unlabelled heading is ``{Title}``,
  a repeated path ends ``~2``.
- FEMA's ``*.expected.tsv`` without a header: ``path  label  first words``, the path
  joined with ``/`` (``III/C/2/a/(1)``).
- Bajaj's ``*.expected.txt``: a heading per line, its numbered items indented beneath
  (``  N.<TAB>N. text``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

#: A label that starts with a word (``SECTION I -``, ``Coverage A``) marks a heading.
_PREFIXED = re.compile(r"^[A-Za-z]{2,}\s*[-–—]?\s+\S")
_TILDE = re.compile(r"~\d+$")


@dataclass(frozen=True)
class Row:
    """One outline node: ``path`` is the tuple of components from the top."""

    path: Tuple[str, ...]
    label: str
    title: str
    page: Optional[int]
    heading: bool

    @property
    def depth(self) -> int:
        return len(self.path)

    @property
    def values(self) -> Tuple[str, ...]:
        """The clause a reader cites: brace components gone, prefix words and decoration dropped."""
        return clause_values(self.path)


def clause_values(components: Tuple[str, ...]) -> Tuple[str, ...]:
    """``('SECTION I~2', '{Perils}', 'COVERAGE A', '(1)')`` -> ``('i', 'a', '1')``.

    Both sides of a comparison go through this, so that ``COVERAGE B.1``,
    ``B.1`` and ``Coverage B – 1.`` name the same clause, and so do ``IMT 5``
    and ``IMT5`` (a code with its number glued on).
    """
    values = []
    for component in components:
        component = _TILDE.sub("", component.strip())
        if not component or component.startswith("{"):
            continue
        words = re.findall(r"[^\W\d_]+|\d+", component.lower())
        if len(words) > 1 and words[0].isalpha() and len(words[0]) > 1:
            words = words[1:]  # the prefix word: SECTION, Coverage, Part
        if words:
            values.append(words[-1] if len(words) == 1 else " ".join(words))
    return tuple(values)


def split_path(path: str) -> Tuple[str, ...]:
    """Split a ``.``-joined path, keeping dots inside a ``{Title}`` component."""
    return tuple(re.findall(r"\{[^}]*\}(?:~\d+)?|[^.{}]+", path))


def read_outline(path: Path) -> List[Row]:
    """The rows of one ground-truth file, whichever of the three formats it is in."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".txt":
        return _read_headings_and_items(lines)
    if lines and lines[0].startswith("path\t"):
        return _read_dotted(lines[1:])
    return _read_slashed(lines)


def _read_dotted(lines: List[str]) -> List[Row]:
    rows = []
    for line in lines:
        if not line.strip():
            continue
        path, label, title, page = (line.split("\t") + ["", "", ""])[:4]
        components = split_path(path)
        last = components[-1] if components else ""
        heading = last.startswith("{") or bool(_PREFIXED.match(label.strip()))
        rows.append(Row(components, label.strip(), title.strip(), int(page) if page.strip() else None, heading))
    return rows


def _read_slashed(lines: List[str]) -> List[Row]:
    rows = []
    for line in lines:
        if not line.strip():
            continue
        path, label, title = (line.split("\t") + ["", ""])[:3]
        components = tuple(path.split("/"))
        rows.append(Row(components, label.strip(), title.strip(), None, len(components) == 1))
    return rows


_HEADING_LABEL = re.compile(r"^((?:SECTION|PART)\s+[A-Z]+\s*[)\-–]?)\s*(.*)$")


def _read_headings_and_items(lines: List[str]) -> List[Row]:
    rows: List[Row] = []
    heading: Tuple[str, ...] = ()
    seen: dict = {}
    for line in lines:
        if not line.strip():
            continue
        if line.startswith(" "):
            label, _, text = line.strip().partition("\t")
            text = text.strip()
            if text.startswith(label):
                text = text[len(label):].strip()
            rows.append(Row(heading + (label.rstrip("."),), label, text, None, False))
        else:
            match = _HEADING_LABEL.match(line.strip())
            label, title = (match.group(1), match.group(2)) if match else ("", line.strip())
            key = label or "{" + title + "}"
            seen[key] = seen.get(key, 0) + 1
            heading = (key if seen[key] == 1 else f"{key}~{seen[key]}",)
            rows.append(Row(heading, label, title, None, True))
    return rows

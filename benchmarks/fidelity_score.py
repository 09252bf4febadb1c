"""One scorer for every tool: how well a chunking keeps a wording's outline.

A tool's chunks come as :class:`Chunk` (text, the heading strings it attaches,
the clause it cites, if any). The ground truth is a list of
:class:`benchmarks.outline_truth.Row`. Words are compared lower-cased, letters
and digits only, ligatures unfolded and line-end hyphens joined, so that
extractors that differ in punctuation and spacing score alike.

**What a reader sees of a chunk.** Splitters that read headings (ours, and
LangChain's ``MarkdownHeaderTextSplitter``) move a heading line out of the text
into metadata. The first chunk of a run with the same metadata is therefore read
as ``label heading text`` -- the label and heading put back where they are not
already at the text's start -- so that moving a heading into metadata neither
loses its words nor hides where its item starts. Later chunks of the run are
read as their text alone. Where the tool says which heading holds which label
(``Chunk.labels``), each heading gets its own; else a clause with fewer
components than the chunk has headings labels the deepest headings (a heading
without a number, such as ``COMMON POLICY CONDITIONS``, is most often above the
numbered ones), and a decimal clause gives each heading its number up to it
(``3``, ``3.1``).

**The figures** (each a share of the rows it concerns, rows matched to chunks by
a key: the label's words then the first four words of the title or text):

- ``boundary``: an item starts a chunk -- its key within the chunk's first
  :data:`START_WORDS` words; ``boundary_top2`` the same for rows at depth ≤ 2.
- ``headings``: a heading row's title is (within a few words of label and
  decoration) one of the heading strings of some chunk, one chunk run each.
- ``purity``: chunks of at least :data:`PURE_MIN_WORDS` words in which at most
  one depth-≤2 row starts (its key anywhere, or at a line start for a short key,
  and a title of one or two words without a label only as a line of its own;
  a heading followed at once by its first sub-heading is one start).
- ``citable``: the chunk where an item starts names it or one of its ancestors:
  its clause is the item's (or an ancestor's) clause, or one of its heading
  strings holds the item's (or an ancestor's) key words. Where an item starts
  is where its key starts a chunk, when there are such places for every row
  with that key (a contents line naming it earlier is not its start).
- ``lost``: words of the reference text (``pdftotext -raw`` of the PDF) found in
  no chunk and not reported dropped (furniture, contents), as a share.

Keys that occur more than once are matched by count: ``n`` rows with one key and
``m`` chunks starting with it recall ``min(n, m)``.

**Pages.** Where the truth gives a row's page and the tool a chunk's pages, the
row's key counts only in chunks that touch that page, for every figure: a
benefits summary or a cross-reference that names a section pages before it
starts is neither that item's start nor a second start in its chunk.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from benchmarks.outline_truth import Row, clause_values, split_path

START_WORDS = 15
PURE_MIN_WORDS = 20
KEY_TITLE_WORDS = 4
#: A heading string may carry the label and a little decoration beside the title.
HEADING_SLACK_WORDS = 6
SMALL_TOKENS = 12
#: Keys this long are specific enough to be found mid-line.
DISTINCT_KEY_WORDS = 3

_WORD = re.compile(r"[^\W_]+")
_LINE_END_HYPHEN = re.compile(r"(\w)[-\u00ad]\s*\n\s*(\w)")
_INVISIBLE = str.maketrans({"\u00ad": None, "\ufffe": None, "\u200b": None})


@dataclass
class Chunk:
    text: str
    headings: List[str] = field(default_factory=list)
    clause: Optional[str] = None
    pages: List[int] = field(default_factory=list)
    labels: Optional[List[str]] = None
    """The label of each heading (``""`` for one without), where the tool says
    which is which; else the clause is aligned to the headings by a rule."""


def words(text: str) -> List[str]:
    text = _LINE_END_HYPHEN.sub(r"\1\2", unicodedata.normalize("NFKC", text).translate(_INVISIBLE))
    return _WORD.findall(text.lower())


def row_key(row: Row) -> Tuple[str, ...]:
    """The label's value then the first words of the title: ``SECTION B) DEFINITIONS`` -> ``b definitions``.

    A prefix word is left out (a chunker may keep it in its clause, as ``B``, not
    in the text); :func:`prefix_word` gives it back where a line start is judged.
    """
    title = row.title.split()
    while title and title[-1].endswith("-"):  # a word the line break cut: not all of it is printed
        title.pop()
    label = words(row.label)
    if prefix_word(row):
        label = label[1:]
    return tuple(label + words(" ".join(title))[:KEY_TITLE_WORDS])


def prefix_word(row: Row) -> Optional[str]:
    label = words(row.label)
    return label[0] if len(label) > 1 and label[0].isalpha() and len(label[0]) > 1 else None


@dataclass
class _View:
    words: List[str]
    line_starts: frozenset
    headings: List[Tuple[str, ...]]
    clause: Tuple[str, ...]
    text_words: int
    pages: Optional[Tuple[int, int]] = None
    """The first and last page the chunk touches, where the tool says."""

    def on(self, page: Optional[int]) -> bool:
        """The chunk may hold what the truth places on ``page`` (either unknown: it may)."""
        return page is None or self.pages is None or self.pages[0] <= page <= self.pages[1]


def _views(chunks: Sequence[Chunk]) -> List[_View]:
    views = []
    before: List[Tuple[str, str]] = []
    for chunk in chunks:
        lines = [words(line) for line in _LINE_END_HYPHEN.sub(r"\1\2", chunk.text).split("\n")]
        text = [w for line in lines for w in line]
        now = _labelled_headings(chunk)
        opened, before = _opened(before, now), now
        lead: List[str] = []
        starts = {0}
        for number, (label, heading) in enumerate(opened):
            element = words(label) + words(heading)
            if number == len(opened) - 1 and _holds(text[:len(element) + 3], element):
                break  # the text starts with its own heading: nothing was moved out of it
            if number == len(opened) - 1 and heading and _heading_first(text, words(label), words(heading)[:3]):
                # The heading is the text's start; only its label was moved. Said again
                # after other words (``AYUSH Hospital`` over ``An AYUSH Hospital is``)
                # it is the definition's text, and the heading was moved whole.
                element = words(label)
            starts.add(len(lead))
            lead += element
        at = len(lead)
        for line in lines:
            starts.add(at)
            at += len(line)
        views.append(_View(lead + text, frozenset(starts), [tuple(words(h)) for h in chunk.headings],
                           clause_values(split_path(chunk.clause.split("#")[0])) if chunk.clause else (),
                           len(text), (min(chunk.pages), max(chunk.pages)) if chunk.pages else None))
    return views


def _labelled_headings(chunk: Chunk) -> List[Tuple[str, str]]:
    """The chunk's heading strings, each with its label where the clause gives one per heading.

    A decimal clause is printed whole at each level (``3.1 Base Covers`` under
    ``3 COVERAGE``), where an outline's is one component a level (``C`` under ``III``).
    """
    if chunk.labels is not None and len(chunk.labels) == len(chunk.headings) and chunk.headings:
        return list(zip(chunk.labels, chunk.headings))
    labels = list(split_path(chunk.clause.split("#")[0])) if chunk.clause else []
    if len(labels) > 1 and all(label.isdigit() for label in labels):
        labels = [".".join(labels[:depth]) for depth in range(1, len(labels) + 1)]
    if not chunk.headings:
        return [(labels[-1], "")] if labels else []
    if len(labels) != len(chunk.headings):
        labels = ([""] * len(chunk.headings) + labels)[-len(chunk.headings):]
    return list(zip(labels, chunk.headings))


def _opened(before: List[Tuple[str, str]], now: List[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """The headings a chunk opens: those from the first place where they differ from the chunk before."""
    same = 0
    while same < min(len(before), len(now)) and before[same] == now[same]:
        same += 1
    return now[same:] if now != before else []


def _heading_first(text: Sequence[str], label: Sequence[str], head: Sequence[str]) -> bool:
    """``text`` starts with ``head``, or with a label as the line prints it then
    ``head``: the last words of ``label`` (``2 At the time`` under the clause
    ``2.2``), those after a prefix word (``Section 26 Medical`` under ``5.26``),
    or, where the tool gives no label, words that read as one (``5 2 11``)."""
    if not head:
        return False
    for at in range(min(len(text), max(len(label), _LONGEST_LABEL) + 2)):
        if list(text[at:at + len(head)]) == list(head):
            before = list(text[:at])
            if before and before[0].isalpha() and len(before) > 1:
                before = before[1:]
            if label:
                return not before or before == list(label[len(label) - len(before):])
            return all(_LABEL_WORD.fullmatch(word) for word in before)
    return False


_LONGEST_LABEL = 6
_LABEL_WORD = re.compile(r"\d+[a-z]?|[ivxlc]+|[a-z]")


def _holds(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """``needle`` is a run of consecutive words of ``haystack``."""
    n = len(needle)
    return n > 0 and any(tuple(haystack[i:i + n]) == tuple(needle) for i in range(len(haystack) - n + 1))


class _Index:
    """Where each key occurs in the views: ``key -> [(view, position)]``, built per key length."""

    def __init__(self, views: Sequence[_View]) -> None:
        self.views = views
        self._by_length: Dict[int, Dict[Tuple[str, ...], List[Tuple[int, int]]]] = {}

    def places(self, key: Tuple[str, ...]) -> List[Tuple[int, int]]:
        n = len(key)
        if n not in self._by_length:
            table: Dict[Tuple[str, ...], List[Tuple[int, int]]] = {}
            for number, view in enumerate(self.views):
                seq = view.words
                for at in range(len(seq) - n + 1):
                    table.setdefault(tuple(seq[at:at + n]), []).append((number, at))
            self._by_length[n] = table
        return self._by_length[n].get(key, [])

    def starting(self, key: Tuple[str, ...]) -> List[int]:
        """The views that hold ``key`` within their first words."""
        return sorted({number for number, at in self.places(key) if at + len(key) <= START_WORDS})

    def item_starts(self, key: Tuple[str, ...], prefix: Optional[str] = None, labelled: bool = True,
                    whole: Optional[int] = None, page: Optional[int] = None) -> List[Tuple[int, int]]:
        """The places (view, word), in order, where an item with this key may start.

        A labelled key of :data:`DISTINCT_KEY_WORDS` words or more is taken anywhere
        (a tool may join an item's lines into one paragraph); a shorter one
        (``1 cover``) or one without a label (``loss of sight``, which body text
        also says) only at a line start, after its prefix word if it has one.
        An unlabelled title of fewer words, ``whole`` the key (``Cover``,
        ``Home``), only as a line of its own: body text starts sentences with
        such words (``Cover includes telephone …``, ``You must …``).
        """
        found = []
        alone = not labelled and whole == len(key) < DISTINCT_KEY_WORDS
        for number, at in self.places(key):
            view = self.views[number]
            if not view.on(page):
                continue
            if alone and not (at + len(key) in view.line_starts or at + len(key) == len(view.words)):
                continue
            if ((labelled and len(key) >= DISTINCT_KEY_WORDS) or at in view.line_starts
                    or (prefix and at - 1 in view.line_starts and view.words[at - 1] == prefix)):
                found.append((number, at))
        return found


def _recalled(rows: Iterable[Row], index: _Index) -> Tuple[int, int]:
    """Rows matched to the chunks their key starts, one chunk a row, on the row's page.

    Rows are taken by page and each gets the open chunk that ends soonest (a
    chunk without pages may hold any row), which matches as many as can be.
    """
    wanted: Dict[Tuple[str, ...], List[int]] = {}
    for row in rows:
        if row_key(row):
            wanted.setdefault(row_key(row), []).append(row.page if row.page is not None else -1)
    got = 0
    for key, pages in wanted.items():
        spans = sorted((index.views[number].pages or (-1, 1 << 30)) for number in index.starting(key))
        for page in sorted(pages):
            fits = [span for span in spans if page < 0 or span[0] <= page <= span[1]]
            if fits:
                spans.remove(min(fits, key=lambda span: span[1]))
                got += 1
    return got, sum(len(pages) for pages in wanted.values())


def _heading_recall(rows: Sequence[Row], views: Sequence[_View]) -> Tuple[int, int]:
    runs: List[Tuple[str, ...]] = []
    before: Tuple[Tuple[str, ...], ...] = ()
    for view in views:
        current = tuple(view.headings)
        for depth, heading in enumerate(current):
            if depth >= len(before) or before[depth] != heading or before[:depth] != current[:depth]:
                runs.append(heading)
        before = current
    wanted = Counter(tuple(words(row.title)) for row in rows if row.heading and words(row.title))
    got = 0
    for title, count in wanted.items():
        fits = sum(1 for heading in runs
                   if len(heading) <= len(title) + HEADING_SLACK_WORDS and _holds(heading, title))
        got += min(count, fits)
    return got, sum(wanted.values())


def _purity(rows: Sequence[Row], index: _Index) -> Tuple[int, int]:
    spans: Dict[int, List[Tuple[int, int, int, int]]] = {}
    for key, prefix, labelled, whole, depth, page in {(row_key(row), prefix_word(row), bool(row.label),
                                                       _heading_words(row), row.depth, row.page)
                                                      for row in rows if row.depth <= 2 and row_key(row)}:
        for number, at in index.item_starts(key, prefix, labelled, whole, page):
            # (the row starts at its prefix word, which its key leaves out: ``List`` of ``List I``)
            begin = at - 1 if prefix and at and index.views[number].words[at - 1] == prefix else at
            spans.setdefault(number, []).append((begin, at + len(key), at + whole, depth))
    starts = {number: _separate(found) for number, found in spans.items()}
    judged = [number for number, view in enumerate(index.views) if view.text_words >= PURE_MIN_WORDS]
    return sum(1 for number in judged if starts.get(number, 0) <= 1), len(judged)


def _heading_words(row: Row) -> int:
    """How many words a row's label (its value) and whole title print."""
    label = words(row.label)[1 if prefix_word(row) else 0:]
    return len(label) + len(words(row.title))


def _separate(spans: List[Tuple[int, int, int, int]]) -> int:
    """How many starts the spans ``(start, key end, title end, depth)`` make.

    Keys that overlap are one start (``fire and theft`` inside ``2 fire and
    theft``), and so is a deeper row's start right where the one before it ends
    its whole title: a heading followed at once by its first sub-heading has no
    text of its own to mix with it (``2 Hospital Benefit`` ⏎ ``What is
    covered``). Siblings stay apart (``1 Cover 2 Baggage``, a contents line).
    """
    groups, end = 0, -1
    titled: Dict[int, int] = {}  # where a row's whole title ends -> its depth
    for start, stop, whole, depth in sorted(spans):
        if start >= end and titled.get(start, depth) >= depth:
            groups += 1
        end = max(end, stop)
        titled[whole] = min(depth, titled.get(whole, depth))
    return groups


def _ancestors(rows: Sequence[Row]) -> List[List[Row]]:
    """Each row's chain from itself up to the top, by path prefix."""
    latest: Dict[Tuple[str, ...], Row] = {}
    chains = []
    for row in rows:
        chain = [row]
        for depth in range(len(row.path) - 1, 0, -1):
            parent = latest.get(row.path[:depth])
            if parent is not None:
                chain.append(parent)
        latest[row.path] = row
        chains.append(chain)
    return chains


def _names(view: _View, chain: Sequence[Row]) -> bool:
    for row in chain:
        if view.clause and view.clause == row.values:
            return True
        key = tuple(words(row.title))[:KEY_TITLE_WORDS]
        if key and any(_holds(heading, key) for heading in view.headings):
            return True
    return False


def _citable(rows: Sequence[Row], index: _Index) -> Tuple[int, int]:
    """The ``n``-th row with a key is matched to the ``n``-th place its item
    starts: among the places that start a chunk, when there are as many of
    them as rows (a contents line or a cross-reference earlier in some chunk's
    text is not where the item starts), else among all."""
    taken: Counter = Counter()
    wanted = Counter((row_key(row), row.page) for row in rows)
    got = total = 0
    for row, chain in zip(rows, _ancestors(rows)):
        key = row_key(row)
        if not key:
            continue
        total += 1
        holders = index.item_starts(key, prefix_word(row), bool(row.label), page=row.page)
        opening = [(number, at) for number, at in holders if at + len(key) <= START_WORDS]
        if len(opening) >= wanted[key, row.page]:
            holders = opening
        nth = taken[key, row.page]
        taken[key, row.page] += 1
        if nth < len(holders) and _names(index.views[holders[nth][0]], chain):
            got += 1
    return got, total


def lost_share(reference: str, chunks: Sequence[Chunk], dropped: Iterable[str] = ()) -> float:
    want = Counter(words(reference))
    have = Counter(w for view in _views(chunks) for w in view.words)
    for text in dropped:
        have.update(words(text))
    total = sum(want.values())
    return sum(max(0, n - have[w]) for w, n in want.items()) / total if total else 0.0


def sizes(token_counts: Sequence[int], cap: int) -> Dict[str, float]:
    if not token_counts:
        return {"median": 0, "max": 0, "over_cap": 0.0, "small": 0.0}
    return {
        "median": statistics.median(token_counts),
        "max": max(token_counts),
        "over_cap": sum(1 for n in token_counts if n > cap) / len(token_counts),
        "small": sum(1 for n in token_counts if n < SMALL_TOKENS) / len(token_counts),
    }


def score(rows: Sequence[Row], chunks: Sequence[Chunk], *, reference: Optional[str] = None,
          dropped: Iterable[str] = ()) -> Dict[str, Optional[float]]:
    """Every figure of the module docstring, each a share from 0 to 1 (None where nothing to judge)."""
    views = _views(chunks)
    index = _Index(views)
    top2 = [row for row in rows if row.depth <= 2]
    figures = {
        "boundary": _recalled(rows, index),
        "boundary_top2": _recalled(top2, index),
        "headings": _heading_recall(rows, views),
        "purity": _purity(rows, index),
        "citable": _citable(rows, index),
    }
    shares: Dict[str, Optional[float]] = {name: (got / total if total else None)
                                          for name, (got, total) in figures.items()}
    shares["lost"] = lost_share(reference, chunks, dropped) if reference is not None else None
    return shares

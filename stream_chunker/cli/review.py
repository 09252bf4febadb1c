"""``--review FILE.html``: one self-contained page that shows what was read.

The page is written as the document is read: each chunk as it is decided,
with its id, clause, pages and token counts in the margin and its heading
path above its text; a line dropped as furniture or contents, struck through,
and a heading-shaped line read as text, highlighted with the reason, where the
reader met them; the rows of a table read as text (numbered lines that end
in an amount) are shown as a table, cell by cell. The outline -- one node
per section, as ``--outline`` prints it, nested by the heading path in
``<details>`` elements, so it folds without a script -- and the report's figures come last in the file and show first on
the page (CSS ``order``), as they are known only at the end.

Memory: the outline's nodes go to a temporary file as they come, so the page
holds no more than one chunk's text however long the document is. No network,
no script, no external asset: one file to open anywhere. Over many documents
``--review DIR`` writes a page per document and ``index.html`` (``ReviewCorpus``).
"""

from __future__ import annotations

import heapq
import html
import json
import os
import re
import tempfile
from typing import IO, Any, Dict, Iterable, List, Optional, Protocol, Tuple

from ..core.chunk import Chunk
from .outline import Node, Sections

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;display:flex;flex-direction:column;color:#1d1d1f}
header{order:-3;padding:12px 20px;background:#f3f4f6;border-bottom:1px solid #ddd}
#report{order:-2;padding:8px 20px;border-bottom:1px solid #ddd;font-size:13px}
#report table{border-collapse:collapse}#report td{padding:1px 10px 1px 0}
#outline{order:-1;padding:8px 20px;border-bottom:1px solid #ddd;font-size:13px;max-height:40vh;overflow:auto}
#outline details{margin-left:14px}#outline summary,#outline .leaf{cursor:pointer;list-style-position:outside}
#outline .leaf{margin-left:14px;display:block}#outline a{color:#0b57d0;text-decoration:none}
main{padding:8px 20px}
.chunk{display:grid;grid-template-columns:190px 1fr;gap:12px;border-top:2px solid #0b57d0;padding:6px 0}
.margin{font:12px/1.4 ui-monospace,monospace;color:#555;word-break:break-all}.margin b{color:#0b57d0}
.path{font-size:12px;color:#555;margin-bottom:2px}
.text{white-space:pre-wrap;margin:0}
.dropped{text-decoration:line-through;color:#999;margin:2px 0 2px 202px;font-size:13px}
.refused{background:#fff3c4;margin:2px 0 2px 202px;font-size:13px;padding:1px 4px}
.oversize{color:#b3261e}
.rows{margin:2px 0 2px 202px;border-collapse:collapse;font-size:13px;background:#fff3c4}
.rows td{border:1px solid #e0d49a;padding:1px 6px}.rows caption{text-align:left;font-size:12px;color:#555}
""".strip()

SHOWN_EVENTS = {"furniture": "dropped", "contents": "dropped", "rejected_heading": "refused"}
"""Diagnostics shown in the text where they happened, and how."""

MAX_ROWS = 200
"""Rows of a table held before they are shown: a longer table is shown as several."""


class Writes(Protocol):
    def write(self, text: str) -> Any: ...


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


class ReviewPage:
    """Chunks and events in, as the document is read; ``close`` with the report."""

    def __init__(self, out: Writes, name: str) -> None:
        self._out = out
        self._nodes = tempfile.TemporaryFile("w+", encoding="utf-8")  # the outline, one JSON line per node
        self._sections = Sections()
        self.nodes = 0
        self._rows: List[List[str]] = []  # a table's rows met in a row, shown together (bounded by MAX_ROWS)
        out.write(f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
                  f"<title>review: {_e(name)}</title><style>{STYLE}</style></head><body>\n"
                  f"<header><b>stream_chunker review</b> · {_e(name)}</header>\n<main>\n")

    # -- as the document is read ------------------------------------------------
    def chunks(self, chunks: List[Chunk]) -> None:
        write = self._out.write
        self._end_table()
        self._spool(self._sections.feed(chunks))
        for chunk in chunks:
            tokens = f"{chunk.tokens} est." + (f" · {chunk.real_tokens} real" if chunk.real_tokens is not None else "")
            over = f'<br><span class="oversize">oversize: {_e(chunk.oversize)}</span>' if chunk.oversize else ""
            pages = f"p. {chunk.pages[0]}" + (f"–{chunk.pages[1]}" if chunk.pages[1] != chunk.pages[0] else "")
            write(f'<section class="chunk" id="{_e(chunk.id)}"><div class="margin"><b>{_e(chunk.id)}</b>'
                  f"<br>clause {_e(chunk.clause) if chunk.clause is not None else '—'}<br>{pages} · "
                  f"lines {chunk.lines[0]}–{chunk.lines[1]}<br>{tokens}{over}</div><div>"
                  f'<div class="path">{_e(chunk.heading_path)}</div><p class="text">{_e(chunk.text)}</p>'
                  f"</div></section>\n")

    def event(self, event: Dict[str, Any]) -> None:
        """A diagnostic: furniture and contents struck through, refused headings highlighted."""
        shown = SHOWN_EVENTS.get(event.get("kind", ""))
        if shown is None or "text" not in event:
            return
        if "cells" in event:  # a table's row, read as one: shown in its table
            self._rows.append([str(cell) for cell in event["cells"]])
            if len(self._rows) >= MAX_ROWS:
                self._end_table()
            return
        self._end_table()
        why = f" — {_e(event['reason'])}" if event.get("reason") else ""
        what = "heading read as text: " if shown == "refused" else f"{_e(event['kind'])}: "
        self._out.write(f'<p class="{shown}" title="line {event.get("line")}">{what}{_e(event["text"])}{why}</p>\n')

    def _end_table(self) -> None:
        """The rows of a table met since the last thing shown, as one table."""
        rows, self._rows = self._rows, []
        if rows:
            body = "".join("<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in rows)
            self._out.write(f'<table class="rows"><caption>a table read as text (rows that end in an amount are '
                            f"no headings)</caption>{body}</table>\n")

    def _spool(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            self._nodes.write(json.dumps(list(node)) + "\n")
            self.nodes += 1

    # -- at the end ---------------------------------------------------------------
    def close(self, report: Dict[str, Any]) -> None:
        self._end_table()
        self._spool(self._sections.close())
        write = self._out.write
        write("</main>\n")
        self._outline()
        rows = "".join(f"<tr><td>{_e(key)}</td><td>{_e(json.dumps(value, ensure_ascii=False))}</td></tr>"
                       for key, value in report.items() if not isinstance(value, dict) or key in _SHOWN_DICTS)
        structure = report.get("structure", {})
        share = structure.get("share_under_heading")
        said = (f"{report.get('chunks')} chunks · {report.get('pages')} pages · "
                f"{report.get('headings_unnumbered', 0)} headings without a number · "
                f"{'—' if share is None else f'{100 * share:.1f} %'} of words under a heading · "
                f"{report.get('furniture_lines', 0)} furniture lines dropped"
                + (" · <b>structure weak</b>" if structure.get("weak") else ""))
        write(f'<section id="report"><details><summary>report: {said}</summary><table>{rows}</table>'
              f"</details></section>\n</body></html>\n")
        self._nodes.close()

    def _outline(self) -> None:
        """The nodes, nested by depth: a node with deeper nodes after it is a
        ``<details>`` whose ``<summary>`` links to its chunk, a node without one a link."""
        write = self._out.write
        write(f'<nav id="outline"><b>outline</b> · {self.nodes} sections\n')
        self._nodes.seek(0)
        stack: List[int] = []  # depths of the <details> open
        previous: Optional[List[Any]] = None
        for line in self._nodes:
            node = json.loads(line)
            if previous is not None:
                self._write_node(previous, node[2] > previous[2], stack)
            previous = node
            while stack and stack[-1] >= node[2]:
                stack.pop()
                write("</details>")
        if previous is not None:
            self._write_node(previous, False, stack)
        write("</details>" * len(stack) + "</nav>\n")

    def _write_node(self, node: List[Any], parent: bool, stack: List[int]) -> None:
        cid, title, depth, _, page, words = node[:6]
        if cid is None:  # a heading with no text of its own
            link = f"{_e(title)}"
        else:
            link = f'<a href="#{_e(cid)}">{_e(cid)}</a> {_e(title)} <small>p. {page} · {words} words</small>'
        if parent:
            self._out.write(f'<details class="node" open><summary class="node">{link}</summary>')
            stack.append(depth)
        else:
            self._out.write(f'<span class="node leaf">{link}</span>')


_SHOWN_DICTS = ("structure", "oversize", "contents", "gold")
"""The report's nested figures shown in the page's table (the rest are counts a reader seldom needs)."""



class ReviewCorpus:
    """``--review DIR`` over many documents: a page per document, and ``index.html``
    ranking them, the weakest structure first (the share of words under no heading).

    The index's rows go to a temporary file as documents end, and only the
    ``RANKED`` weakest are held to be ranked: a run over any number of documents
    holds a bounded part of its index in memory."""

    def __init__(self, directory: str) -> None:
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self._rows = tempfile.TemporaryFile("w+", encoding="utf-8")  # every document, in input order
        self._worst: List[Tuple[float, int, str]] = []  # a heap of (share under a heading, n, row)
        self._count = 0

    def open(self, index: int, name: str) -> Tuple[ReviewPage, IO[str], str]:
        """The page of document ``index``, named after it."""
        stem = re.sub(r"[^\w.-]+", "-", os.path.basename(name.rstrip("/")) or "stdin")[:80]
        file = f"{index + 1:05d}-{stem}.html"
        stream = open(os.path.join(self.directory, file), "w", encoding="utf-8")
        return ReviewPage(stream, name), stream, file

    def done(self, page: ReviewPage, stream: IO[str], file: str, name: str, entry: Dict[str, Any]) -> None:
        """A document ended: its page is closed with its report entry, its row kept."""
        page.close(entry)
        stream.close()
        structure = entry.get("structure") or {}
        share = structure.get("share_under_heading")
        failed = "error" in entry
        figures = (f"<td>{'failed: ' + _e(entry['error']) if failed else ('weak' if structure.get('weak') else '')}</td>"
                   f"<td>{'—' if share is None else f'{100 * share:.1f} %'}</td><td>{entry.get('chunks', 0)}</td>"
                   f"<td>{entry.get('pages', '')}</td><td>{entry.get('headings_unnumbered', '')}</td>")
        row = f'<tr><td><a href="{_e(file)}">{_e(name)}</a></td>{figures}</tr>'
        self._rows.write(row + "\n")
        rank = -1.0 if failed else (share if share is not None else 1.0)
        self._count += 1
        item = (-rank, -self._count, row)  # the heap's smallest is the strongest kept: the first to give way
        if len(self._worst) < RANKED:
            heapq.heappush(self._worst, item)
        elif item > self._worst[0]:
            heapq.heapreplace(self._worst, item)

    def close(self) -> None:
        """Write ``index.html``."""
        head = ("<tr><th>document</th><th>structure</th><th>words under a heading</th><th>chunks</th>"
                "<th>pages</th><th>headings without a number</th></tr>")
        with open(os.path.join(self.directory, "index.html"), "w", encoding="utf-8") as out:
            out.write(f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>review: '
                      f"{self._count} documents</title><style>{INDEX_STYLE}</style></head><body>\n"
                      f"<h1>stream_chunker review · {self._count} documents</h1>\n"
                      f"<h2>The weakest structure first</h2><table>{head}")
            for _, _, row in sorted(self._worst, reverse=True):
                out.write(row + "\n")
            out.write(f"</table>\n<h2>Every document, in input order</h2><table>{head}")
            self._rows.seek(0)
            for block in iter(lambda: self._rows.read(1 << 16), ""):
                out.write(block)
            out.write("</table>\n</body></html>\n")
        self._rows.close()


RANKED = 200
"""Documents ranked at the top of the index (the weakest); every one is listed below."""

INDEX_STYLE = ("body{font:14px/1.4 system-ui,sans-serif;margin:16px 20px}table{border-collapse:collapse}"
               "td,th{padding:2px 10px;border-bottom:1px solid #eee;text-align:left}a{color:#0b57d0}")

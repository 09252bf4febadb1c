#!/usr/bin/env python3
"""Ground-truth outline of the Allianz Australia "Personal Motor Insurance" PDS (POL011BA 02/22).

Independent of stream_chunker: reads cache/allianz-australia-motor-pds-2022.pdf with poppler's
`pdftohtml -xml -i -stdout` (text runs with position and font id; the fontspec table gives
size, face and colour), groups each page's runs into physical lines (same `top` within 3 px,
runs sorted by x) and reads the lines top to bottom. The pages are a single column (A5).

The PDS numbers nothing except the seven `a)`-`g)` water bodies of the `flood` definition;
its outline is unnumbered headings ranked by style, plus the run-in defined terms.

Heading ranks (fontspec ids of pdftohtml; all AllianzNeo medium, the body is AllianzNeo-Light 14):
  rank 1  id 4   36 px blue #194f99: the part titles (`Our agreement with you`, `Comprehensive
                 insurance`, ... `Definitions`), = the bold group entries of the printed contents.
  rank 2  id 6   21 px blue: `Your insurance contract`, `Other benefits we will pay`, each
                 exclusion title (`An unlicensed driver`), = the plain entries of the contents.
  rank 3  id 15  17 px blue: `Agreed value`, `Emergency repairs`, `Recovered vehicles`, ...
  rank 4  id 7   14 px black (bold against the Light body) on a line of its own: only
                 `Acquisition of goods, services or repairs`, `Payment as compensation` (p.36-37)
                 and the bulleted titles `Minimum basic excess`, `Voluntary excess`,
                 `Imposed excess` (p.39, the bullet run is skipped).
Defined terms: on the Definitions pages (52-54) a line whose first run is id 7 at the margin is a
  run-in term `{term}`: the line's text before ` means` (`{accidental, accident}`, `{we, our or
  us}`), a child of {Definitions}.
Items: a line of the Definitions pages that starts `x)` (a single letter and `)`) is an item under
  the current term (`{Definitions}.{flood}.a`); first words = the first 8 words after the label.
Depth: a heading closes every open heading of the same or a lower rank and becomes the child of
  the nearest open one of a higher rank (SPEC 5c); terms sit at rank 2 under Definitions, items
  one below their term. Consecutive lines wholly in one heading font, less than 32 px apart, are
  one wrapped heading. A repeated path gets `~n` on its last component (none occurs).
Not rows: the cover (pp.1-2), the snapshot and summary tables (pp.3-8: their id 7/10/11 row and
  column labels are table cells; only the id 4/6 headings above them are rows), the contents
  (pp.9-10), page numbers (id 3), the printer's slug below the trim (top > 892), the print code
  `Text 086 12.21` (p.54) and the back cover (p.56), plus the hand list EXCLUDE below.
Writes allianz-australia-motor-pds-2022.expected.tsv next to this script.
"""
import html
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "allianz-australia-motor-pds-2022"
PDF = HERE / "cache" / f"{NAME}.pdf"
OUT = HERE / f"{NAME}.expected.tsv"

RANK = {4: 1, 6: 2, 15: 3, 7: 4}
BODY_FONTS = {5}
DEF_PAGES = {52, 53, 54}
SKIP_PAGES = {1, 2, 9, 10, 55, 56}   # cover, preparation date, contents, blank page, back cover
TABLE_PAGES = {3, 4, 5, 6, 7, 8}     # snapshot/summary tables: only rank 1-2 headings count
MARGIN = 43
ITEM_RE = re.compile(r"^([a-z]\))\s+(.*)$")

# ---- hand decisions ----
# Lines in a heading font that are not headings: (page, top).
EXCLUDE = {
    (31, 111), (31, 130), (31, 150),  # blue 17 px note "Third Party Fire and Theft cover is no
                                      # longer available for new policies..." (three sentences)
}
# Bold id-7 lines that start with a bullet and are headings all the same (p.39, the three parts
# of the Basic excess, each an own-line title with its paragraph under it).
BULLET_TITLES = {(39, 384), (39, 448), (39, 540)}


def load_lines():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", str(PDF)],
                         capture_output=True, text=True, check=True).stdout
    fonts = {}
    for m in re.finditer(r'<fontspec id="(\d+)" size="(\d+)" family="([^"]+)" color="([^"]+)"', xml):
        fonts[int(m.group(1))] = (int(m.group(2)), m.group(3), m.group(4))
    pages = []
    for pm in re.finditer(r'<page number="(\d+)"[^>]*height="(\d+)"[^>]*>(.*?)</page>', xml, re.S):
        p, height = int(pm.group(1)), int(pm.group(2))
        runs = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="\d+" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(3)):
            top, left, font, raw = int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
            text = html.unescape(re.sub(r"<[^>]+>", "", raw))
            if top > height or not text.strip():
                continue  # printer's slug outside the trimmed page; empty runs
            runs.append(dict(top=top, left=left, font=font, text=text))
        runs.sort(key=lambda r: (r["top"], r["left"]))
        lines = []
        for r in runs:
            if lines and abs(lines[-1][0]["top"] - r["top"]) <= 3:
                lines[-1].append(r)
            else:
                lines.append([r])
        for ln in lines:
            ln.sort(key=lambda r: r["left"])
        pages.append((p, lines))
    return fonts, pages


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def candidates(pages):
    """Yield dicts: page, top, kind ('h', 'term', 'item'), rank, label, title."""
    out = []
    for p, lines in pages:
        if p in SKIP_PAGES:
            continue
        i = 0
        while i < len(lines):
            ln = lines[i]
            top = min(r["top"] for r in ln)
            text = norm("".join(r["text"] for r in ln))
            if ln[0]["font"] == 3 and re.fullmatch(r"\d+", text):
                i += 1
                continue  # page number
            if text == "Text 086 12.21":
                i += 1
                continue  # print code on the last text page
            runs = ln
            if (p, top) in BULLET_TITLES:
                runs = [r for r in ln if r["text"].strip() != "•"]
            font = runs[0]["font"]
            wholly = all(r["font"] == font for r in runs)
            if p in DEF_PAGES and font == 7 and runs[0]["left"] == MARGIN:
                term = norm("".join(r["text"] for r in runs)).split(" means")[0].strip()
                out.append(dict(page=p, top=top, kind="term", rank=2, label="", title=term))
                i += 1
                continue
            m = ITEM_RE.match(text)
            if p in DEF_PAGES and m and ln[0]["font"] in BODY_FONTS:
                words = m.group(2).split()[:8]
                out.append(dict(page=p, top=top, kind="item", rank=3, label=m.group(1),
                                title=" ".join(words)))
                i += 1
                continue
            rank = RANK.get(font)
            if rank is None or not wholly or (p, top) in EXCLUDE:
                i += 1
                continue
            if p in TABLE_PAGES and rank > 2:
                i += 1
                continue
            if rank == 4 and runs[0]["left"] != MARGIN and (p, top) not in BULLET_TITLES:
                i += 1
                continue
            title = norm("".join(r["text"] for r in runs))
            j = i
            while j + 1 < len(lines):
                nxt = lines[j + 1]
                if min(r["top"] for r in nxt) - min(r["top"] for r in lines[j]) >= 32 \
                        or (p, min(r["top"] for r in nxt)) in EXCLUDE \
                        or not all(r["font"] == font for r in nxt):
                    break
                title = norm(title + " " + "".join(r["text"] for r in nxt))
                j += 1
            out.append(dict(page=p, top=top, kind="h", rank=rank, label="", title=title))
            i = j + 1
    return out


def build(cands):
    rows = []
    stack = []   # (rank, component)
    seen = {}
    for c in cands:
        while stack and stack[-1][0] >= c["rank"]:
            stack.pop()
        if c["kind"] == "item":
            comp = c["label"].rstrip(")")
        else:
            comp = "{" + c["title"] + "}"
        parent = ".".join(s[1] for s in stack)
        key = (parent, comp)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            comp = f"{comp}~{seen[key]}"
        path = f"{parent}.{comp}" if parent else comp
        rows.append((path, c["label"], c["title"], c["page"]))
        stack.append((c["rank"], comp))
    return rows


def main():
    _, pages = load_lines()
    rows = build(candidates(pages))
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            fh.write("\t".join(str(x) for x in r) + "\n")
    print(f"{len(rows)} rows -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()

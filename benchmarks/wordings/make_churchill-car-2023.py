#!/usr/bin/env python3
"""Ground-truth outline of the Churchill "Your car insurance policy booklet" (B4C CH M PB 0923).

Independent of stream_chunker: reads the PDF from the cache path with poppler's
`pdftohtml -xml -i` (text runs with font ids; the fontspec table gives size, family, colour),
groups the runs of each page into physical lines per column (two columns, split at x = 300),
reads column 0 then column 1, and classifies each line by the font of its first run.

The booklet prints no numbered clauses (no `1.`, `a)`); its outline is unnumbered headings
ranked by style, `Section n:` prefixed titles, run-in defined terms, and the five numbered
steps of "If you're in an accident".

Heading ranks (fontspec ids; both embedded subsets TVTWUV+/EDEKSZ+ of a face count alike):
  rank 1  ids 15, 3, 30  OmnesSemiBold 20 (blue #2250a9, or white on the p.43 panel):
          the page-title headings = the printed contents list (`Section 1: Liability`, `Glossary`).
  rank 2  ids 16, 4      Poppins-SemiBold 14 white, in a coloured banner box: sub-section titles
          (`Liability to other people (third parties)`, `Fire and theft`, `Theft of car keys`).
  rank 3  ids 18, 27     Poppins-SemiBold 14 blue: `If you cause an accident`, `You're not
          covered for`, `What we'll do`, `Words with a specific meaning`.
  rank 4  ids 10, 2, 5   Poppins-SemiBold 11 (blue; white inside the p.2 box) starting a line at
          the column's left edge (x 43/336/49): own-line sub-headings (`Legal costs`,
          `Fraud`) and run-in defined terms (`Accessories Parts or products ...` -> `Accessories`).
          The same face inside a line or at a bullet indent (x 55/68/349/361) is an emphasised
          defined word, not a heading.
  items   p.43 step numbers `1`..`5` (id 16, a digit alone) with the next line (id 9) as text.
Consecutive lines of one rank in one column, less than 20 px apart, are one wrapped heading.
Depth: a heading closes every open heading of the same or a lower rank and becomes the child
of the nearest open one of a higher rank (SPEC 5c); the path component is `{Title}`, or
`Section n` for a `Section n:` title; a repeated path gets `~n` on its last component.
Writes NAME.expected.tsv next to this script.
"""
import os
import re
import subprocess
import xml.etree.ElementTree as ET

NAME = "churchill-car-2023"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

RANK = {"15": 1, "3": 1, "30": 1, "16": 2, "4": 2, "18": 3, "27": 3, "10": 4, "2": 4, "5": 4}
LEFT_EDGES = {43, 45, 49, 50, 336, 342}

# ---- hand decisions (judgement calls, see NAME.source.json) ----
# Lines in a heading face that are not outline headings: (page, column, top) of the first line.
EXCLUDE = {
    (44, 0, 736),           # "If you would like a Braille, large print ..." (a note, a sentence)
    (44, 0, 760),
    (40, 0, 523), (40, 0, 537), (40, 0, 540), (40, 0, 552), (40, 0, 555),  # NCD table header
    (42, 0, 385), (42, 1, 385),  # complaint communications table header
    (44, 0, 340), (44, 0, 386), (44, 1, 112), (44, 1, 158),  # "Email"/"Call"/"FAQs" field labels
}
# p.43 white intro sentence in the rank-2 face (not a heading): its lines.
EXCLUDE |= {(43, 1, t) for t in (85, 103, 121, 139, 157)}
# Headings that own no following material (an intro panel, a call-out box): emitted, then closed.
# Value = rank to give them.
LEAF = {
    (4, 0, 93): 2,    # "About the glossary" panel: the terms are children of Glossary itself
    (24, 1, 657): 3,  # "The motor legal helpline" call-out box inside About Motor Legal Cover
}
# p.43 numbered steps: label line (page, col, top) -> it is an item, text = next line.
STEP_PAGE = 43


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, check=True).stdout
    root = ET.fromstring(xml)
    pages = []
    for p in root.iter("page"):
        n = int(p.get("number"))
        lines = {}
        for te in p.iter("text"):
            s = "".join(te.itertext())
            top, left = int(te.get("top")), int(te.get("left"))
            col = 0 if left < 300 else 1
            lines.setdefault((col, top), []).append((left, te.get("font"), s))
        out = []
        for (col, top), segs in sorted(lines.items()):
            segs.sort()
            out.append((col, top, segs))
        pages.append((n, out))
    return pages


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def candidates(pages):
    """Yield dicts: page, col, top, rank, title, kind ('h' or 'item'), label."""
    res = []
    for n, lines in pages:
        if n == 1:
            continue  # cover page
        i = 0
        while i < len(lines):
            col, top, segs = lines[i]
            left, font, _ = segs[0]
            if top < 40 or top > 830:      # running header tab / page number
                i += 1
                continue
            rank = RANK.get(font)
            if rank is None or (n, col, top) in EXCLUDE:
                i += 1
                continue
            if rank == 4 and left not in LEFT_EDGES:
                i += 1
                continue
            if n == 2 and top >= 440:      # the contents list
                i += 1
                continue
            if n in (8, 9, 10) and rank != 1:   # "What your cover includes" table
                i += 1
                continue
            # bold lead = runs of the heading font at the start of the line
            lead_runs = []
            for l, f, s in segs:
                if f != font:
                    break
                lead_runs.append(s)
            lead = norm("".join(lead_runs))
            runin = len(lead_runs) < len(segs)
            # p.43 step numbers
            if n == STEP_PAGE and rank == 2 and re.fullmatch(r"\d", lead):
                # text = following line(s) in font 9 (white semibold), joined while wrapped
                j = i + 1
                parts = []
                while j < len(lines) and lines[j][2][0][1] == "9" and lines[j][0] == col:
                    parts.append(norm("".join(s for _, _, s in lines[j][2])))
                    if j + 1 < len(lines) and lines[j + 1][1] - lines[j][1] < 17 and lines[j + 1][2][0][1] == "9":
                        j += 1
                        continue
                    break
                res.append(dict(page=n, col=col, top=top, rank=5, title=" ".join(parts),
                                kind="item", label=lead))
                i = j + 1
                continue
            title = lead
            j = i
            # merge wrapped heading lines
            while not runin and j + 1 < len(lines):
                c2, t2, s2 = lines[j + 1]
                if c2 != col or s2[0][1] != font or t2 - lines[j][1] >= 20 \
                        or (n, c2, t2) in EXCLUDE or s2[0][0] not in LEFT_EDGES | {left}:
                    break
                runs2 = []
                for l, f, s in s2:
                    if f != font:
                        break
                    runs2.append(s)
                title = norm(title + " " + "".join(runs2))
                j += 1
                if len(runs2) < len(s2):
                    break
            res.append(dict(page=n, col=col, top=top, rank=rank, title=title, kind="h", label=""))
            i = j + 1
    return res


def build(cands):
    rows = []
    stack = []   # (rank, component)
    seen = {}
    for c in cands:
        key = (c["page"], c["col"], c["top"])
        rank = LEAF.get(key, c["rank"])
        while stack and stack[-1][0] >= rank:
            stack.pop()
        if c["kind"] == "item":
            comp, label, title = c["label"], c["label"], c["title"]
        else:
            m = re.match(r"(Section \d+):\s*(.*)", c["title"])
            if m and rank == 1:
                comp, label, title = m.group(1), m.group(1) + ":", m.group(2)
            else:
                comp, label, title = "{" + c["title"] + "}", "", c["title"]
        base = ".".join([s[1] for s in stack] + [comp])
        k = seen.get(base, 0) + 1
        seen[base] = k
        if k > 1:
            comp = comp + "~%d" % k
        path = ".".join([s[1] for s in stack] + [comp])
        if c["kind"] == "item":
            title = " ".join(title.split()[:8])
        rows.append((path, label, title, c["page"]))
        if key not in LEAF:
            stack.append((rank, comp))
    return rows


def main():
    rows = build(candidates(load()))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(len(rows), "rows ->", OUT)


if __name__ == "__main__":
    main()

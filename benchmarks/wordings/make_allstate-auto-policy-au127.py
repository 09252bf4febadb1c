#!/usr/bin/env python3
"""Ground-truth outline of the Allstate "Auto Insurance Policy" AU127-1 (Nevada).

Independent of stream_chunker: reads cache/NAME.pdf with poppler's `pdftohtml -xml -i`
(text runs with positions and font ids) and writes NAME.expected.tsv.

The PDF (18 letter pages, untagged, Xenos PDFOUT) is the carrier's specimen: p.1 cover,
p.2 table of contents, pp.3-18 the policy (printed pages 1-17 on physical 2-18), two
columns per page (left x 54, right x 389).  Every page carries a diagonal "SAMPLE
DOCUMENT" watermark of one letter per text run (font 0, white Helvetica 54): dropped.
The running header `Allstate Insurance Company` (font 4, top 43) and the footer `Page N`
(font 3) are dropped too.

Reading order: per page, the runs are split into the two columns at x = 380 and grouped
into lines (runs within 4 px of a line's top; the `__` dash runs of font 7 sit 2 px
higher than the text beside them); column 0 is read top to bottom, then column 1.

Rows and ranks:
  rank 1  font 4 (Helvetica-Condensed 24) outside the header: the `Part N` blocks.  The
          block's first line is the label (`Part 1`), the lines after it up to the first
          coverage-designation line (`Bodily Injury __ Coverage AA`, `Coverage CC` ...)
          are the title; the designation lines are the part's subtitle, not rows.
  rank 2  font 5 (Helvetica-Condensed bold 18): the section headings (`Insured Persons`,
          `Exclusions __ What is not covered`, `LIMITS OF LIABILITY`).  A heading line
          wraps onto the next font-5 line when the two are < 23 px apart and the first is
          at least 230 px wide (a full line); `COVERAGE XX` lines of Part 6 are a
          prefixed label whose title is the next (possibly wrapped) font-5 line.
  rank 3  hand table SUBHEADS: font-5 headings that sit under the heading before them;
          and unnumbered run-in defined terms (a bold quoted term at the column's left
          edge followed by `__ means`, only in Part 3's Definitions): `{Term}`, the
          quotes dropped for a single term and kept for `"Allstate", "We", or "Us"`.
  items   a line whose first run is `N.` at the column's left edge (level 1) or `a)` one
          indent (27 px) further in (level 2); a level-2 item is the child of the open
          level-1 item, a level-1 item the child of the open heading.  The document has
          no other label forms (checked: 153 `N.`, 38 `a)`).
Depth follows the stack rule: a heading closes every open heading of the same or a lower
rank (and every item) and becomes the child of the nearest open heading of a higher
rank; before Part 1 the general headings are at depth 1.  A path that recurs (a second
`1.`-`2.` list under one heading) gets `~2`, `~3` on its last component.
Title/first words: a heading's title as printed (wrapped lines joined); an item's first
8 words, from its label line and the lines under it at its text indent.
"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

NAME = "allstate-auto-policy-au127"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

FIRST_PAGE = 3          # p.1 cover, p.2 contents list: not rows
COLUMN_SPLIT = 380
COLUMN_LEFT = (54, 389)
INDENT = 27
WATERMARK, FOOTER, PART, HEADING = "0", "3", "4", "5"
BOLD_BODY = "2"         # body size, the line starting with a bold run (defined terms)

# ---- hand decisions (judgement calls) ----
# Lines in a heading font that are not outline headings: (page, top).
EXCLUDE = {
    (3, 110),  # `Allstate Insurance Company` above the preamble (company block, with
               # `The Company Named in the Policy Declarations` / `A Stock Company`)
}
# Font-5 headings that are children of the heading printed just before them
# (`Changes` has no text of its own: its two kinds follow it): (page, title) -> rank.
SUBHEADS = {
    (3, "Premium Changes"): 3,
    (3, "Coverage Changes"): 3,
}
# Lines of a Part block that start its coverage designation (subtitle, not the title).
DESIGNATION = re.compile(r"^(Bodily Injury|Coverage [A-Z]{2})\b")
COVERAGE_LABEL = re.compile(r"^COVERAGE [A-Z]{2}$")
LABEL = re.compile(r"^(\d+\.|[a-z]\))$")
LABEL_IN_RUN = re.compile(r"^(\d+\.)\s+(\S.*)$")   # `10. loss to a camper unit ...`


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, check=True).stdout
    root = ET.fromstring(xml)
    pages = []
    for p in root.iter("page"):
        n = int(p.get("number"))
        if n < FIRST_PAGE:
            continue
        cols = ([], [])
        for te in p.iter("text"):
            font = te.get("font")
            top, left = int(te.get("top")), int(te.get("left"))
            text = "".join(te.itertext())
            if not text.strip() or font in (WATERMARK, FOOTER):
                continue
            if font == PART and top < 60:
                continue  # running header
            run = dict(top=top, left=left, right=left + int(te.get("width")),
                       font=font, text=text)
            cols[0 if left < COLUMN_SPLIT else 1].append(run)
        lines = []
        for c, runs in enumerate(cols):
            runs.sort(key=lambda r: (r["top"], r["left"]))
            col_lines = []
            for r in runs:
                if col_lines and abs(col_lines[-1][0]["top"] - r["top"]) <= 4:
                    col_lines[-1].append(r)
                else:
                    col_lines.append([r])
            for ln in col_lines:
                ln.sort(key=lambda r: r["left"])
                # the line's top is that of its text runs (not of a raised `__`)
                tops = [r["top"] for r in ln if r["font"] != "7"] or [ln[0]["top"]]
                lines.append(dict(page=n, col=c, top=min(tops), left=ln[0]["left"],
                                  right=max(r["right"] for r in ln), runs=ln,
                                  font=ln[0]["font"],
                                  text=norm(" ".join(r["text"] for r in ln))))
        pages.append((n, lines))
    return pages


def candidates(pages):
    """Yield dicts: page, rank (1-3) or level (items), label, title."""
    res = []
    for n, lines in pages:
        i = 0
        while i < len(lines):
            ln = lines[i]
            base = COLUMN_LEFT[ln["col"]]
            if (n, ln["top"]) in EXCLUDE:
                i += 1
                continue
            if ln["font"] == PART:
                m = re.fullmatch(r"Part (\d+)", ln["text"])
                if not m:
                    sys.exit("font-4 line outside a Part block: %r p.%d" % (ln["text"], n))
                title, j = [], i + 1
                while j < len(lines) and lines[j]["font"] == PART and lines[j]["col"] == ln["col"]:
                    if not DESIGNATION.match(lines[j]["text"]) and not any(
                            DESIGNATION.match(lines[k]["text"]) for k in range(i + 1, j)):
                        title.append(lines[j]["text"])
                    j += 1
                res.append(dict(page=n, rank=1, label=ln["text"], comp=ln["text"],
                                title=" ".join(title)))
                i = j
                continue
            if ln["font"] == HEADING:
                label = ""
                if COVERAGE_LABEL.match(ln["text"]):
                    label, i = ln["text"], i + 1
                    ln = lines[i]
                parts, j = [ln["text"]], i
                while (j + 1 < len(lines) and lines[j + 1]["font"] == HEADING
                       and lines[j + 1]["col"] == ln["col"]
                       and lines[j + 1]["top"] - lines[j]["top"] < 23
                       and lines[j]["right"] - lines[j]["left"] >= 230):
                    j += 1
                    parts.append(lines[j]["text"])
                title = " ".join(parts)
                rank = SUBHEADS.get((n, title), 2)
                res.append(dict(page=n, rank=rank, label=label,
                                comp=label or "{%s}" % title, title=title))
                i = j + 1
                continue
            first = ln["runs"][0]["text"].strip()
            if ln["left"] == base and ln["runs"][0]["font"] == BOLD_BODY and first.startswith('"') \
                    and len(ln["runs"]) > 1 and ln["runs"][1]["text"].strip() == "__":
                # an unnumbered run-in defined term (Part 3's two definitions)
                term = first[1:-1] if first.count('"') == 2 else first
                res.append(dict(page=n, rank=3, label="", comp="{%s}" % term, title=term))
                i += 1
                continue
            m = LABEL_IN_RUN.match(first)
            if LABEL.match(first) or m:
                label = m.group(1) if m else first
                level = (ln["left"] - base) // INDENT + 1
                if level not in (1, 2) or (level == 1) != label.endswith("."):
                    sys.exit("unexpected label %r at x %d p.%d" % (label, ln["left"], n))
                rest = m.group(2) if m else norm(" ".join(r["text"] for r in ln["runs"][1:]))
                text_left = ln["runs"][1]["left"] if len(ln["runs"]) > 1 and not m \
                    else ln["left"] + INDENT
                words = rest.split()
                j = i + 1
                while len(words) < 8 and j < len(lines):
                    nxt = lines[j]
                    if nxt["col"] != ln["col"] or nxt["font"] in (PART, HEADING) \
                            or nxt["left"] < text_left - 3 \
                            or LABEL.match(nxt["runs"][0]["text"].strip()) \
                            or LABEL_IN_RUN.match(nxt["runs"][0]["text"].strip()):
                        break
                    words += nxt["text"].split()
                    j += 1
                res.append(dict(page=n, level=level, label=label,
                                comp=label.rstrip(".)"), title=" ".join(words[:8])))
            i += 1
    return res


def build(cands):
    rows, heads, item1, seen = [], [], None, {}

    def add(parent, comp, label, title, page):
        base = ".".join(parent + [comp])
        k = seen.get(base, 0) + 1
        seen[base] = k
        if k > 1:
            comp = "%s~%d" % (comp, k)
        rows.append((".".join(parent + [comp]), label, title, page))
        return comp

    for c in cands:
        if "rank" in c:
            while heads and heads[-1][0] >= c["rank"]:
                heads.pop()
            comp = add([h[1] for h in heads], c["comp"], c["label"], c["title"], c["page"])
            heads.append((c["rank"], comp))
            item1 = None
        elif c["level"] == 1:
            item1 = add([h[1] for h in heads], c["comp"], c["label"], c["title"], c["page"])
        else:
            if item1 is None:
                sys.exit("a) item without an open numbered item: %r" % c)
            add([h[1] for h in heads] + [item1], c["comp"], c["label"], c["title"], c["page"])
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

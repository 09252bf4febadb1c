#!/usr/bin/env python3
"""Ground-truth outline of HL Assurance "Car Protect360" private motor policy wording (MP102308).

Independent of stream_chunker: reads cache/hlas-car-protect360-2023.pdf with poppler's
`pdftohtml -xml -i` and nothing else.  The PDF (Word 2016, A4, 14 pages) is tagged, but its
structure tree has only P/L/LI/Table (no H tags), so ranks come from type and position.
Every page has two columns (left margin x 81, right margin x 468; split at x 450); runs are
grouped into physical lines (same column, tops within 3 px) and read column 0 then column 1.
The whole wording is Arial 14 (fontspec 4 regular, 2 bold); bold is the only heading style.

Rows, ranks and depths:
  rank 1  a wholly bold line at the column margin in capitals: YOUR CAR PROTECT360 POLICY,
          POLICY DEFINITIONS, EXCLUSIONS TO SECTION I, GENERAL CONDITONS (sic), ENDORSEMENTS ...
          `SECTION I – INSURANCE ON THE INSURED VEHICLE` gives label `SECTION I –`, path
          `SECTION I`; every other one is `{Title}`.
  rank 2  (a) a wholly bold line at the margin `N.  Title` = numbered clause heading (label
          `N.`, path `N`); (b) an endorsement title `MAE – ...`, `M01 – ...` (label `M01 –`,
          path `M01`); (c) a run-in defined term: a line at the margin that starts with a bold
          quoted term (“Accessories” refers to ...) or `*` + bold term (the two NCD terms) =
          `{Term}` (quotes and asterisk dropped).
  rank 3  a wholly bold mixed-case line at the margin (`Motor Emergency Assistance Services`),
          and the plain own-line sub-headings in PLAIN_HEADS and LEAF_HEADS (a leaf heading is
          a row but is closed at once, so what follows stays under its parent).
  A heading closes every open heading of its rank or lower and every open item (SPEC 5c).
  Consecutive wholly bold lines less than 18 px apart in one column are one wrapped heading.
  items   lines that start with a label: `1.`, `a.`, `i.`, `(a)`, `(i)` (a parenthesised number is
          never a label here: `(1)`-`(3)` are the Scale of Compensation table's rows, and `(12)`,
          `(65)` begin wrapped lines of text); a chained second label
          on the same line (`1.  (a)  the Excess ...`) gives a second row, the child of the
          first.  Nesting by indent: each item's offset is its x minus the column margin (the
          wording keeps a 27 px grid, with a few labels a few px off); an item is the child
          of the nearest open item whose offset is more than 8 px smaller, else of the
          innermost open heading.  A text line closes the open items whose label offset is
          at least its own offset - 3 (a paragraph back at a label's indent ends that list), so
          a later list is a sibling list and a repeated label gets `~2`.
  Not rows: the cover title `Car Protect360` (font 3), footers (`MP102308`, `Page N of 14`),
  the helpline box (font 5, p.11) and the closing notice (font 7, p.14), the tables in
  TABLES (their captions, header cells and the Scale of Compensation's (1)-(3)), and the
  lines in DROP (wrapped cross-references that start with a label-like token).
First words: the text after the label on its line, continued on the next line of the same
column (less than 18 px below, not a label) while under 60 characters; cut at a word
boundary to at most 60 characters.  Writes NAME.expected.tsv next to this script.
"""
import html
import re
import subprocess
import sys
from pathlib import Path

NAME = "hlas-car-protect360-2023"
HERE = Path(__file__).resolve().parent
PDF = HERE / "cache" / f"{NAME}.pdf"
OUT = HERE / f"{NAME}.expected.tsv"

MARGIN = {0: 81, 1: 468}
COL_SPLIT = 450
FOOTER_TOP = 1150
BODY_REGULAR, BODY_BOLD = 4, 2
BOX_FONTS = {3, 5, 7}   # cover title, p.11 helpline box, p.14 closing notice

# ---- hand decisions ----
# Tables: (page, column, top from, top to).  Captions, header cells and cells are not rows.
TABLES = [
    (4, 1, 580, 900),    # Scale of Compensation, its (1)-(3) rows (SECTION IV, after 2.c)
    (5, 1, 225, 372),    # NCD Table 1
    (5, 1, 640, 790),    # NCD Table 2
    (5, 1, 915, 1050),   # NCD Table 3
    (6, 1, 570, 830),    # General Conditions 5(b): refund scale
    (13, 0, 775, 900),   # M12: NCD protection table
]
# Lines that start with a label-shaped token but are not items: (page, column, top).
DROP = {
    (10, 1, 304),   # "(b) above which:" - wrapped reference "paragraphs (a) and (b) above"
}
# Plain (not bold) own-line sub-headings that head a restarted list: (page, text) -> rank.
PLAIN_HEADS = {
    (7, "Special Conditions for Cancellation"): 3,   # General Conditions 5: (a), (b) restart
    (12, "Exclusions"): 3,                           # M06: exclusions 1., 2. restart
}
# Plain underlined caption below the refund table: a leaf heading that owns only its footnote
# (`* Original Period of Insurance ...`); the refund exceptions i.-iv. after it stay under 5.
LEAF_HEADS = {(6, "Definition"): 3}
# Bold mixed-case headings whose rank is not 3: (page, first words) -> rank.
RANK_OVERRIDE = {
    # the one service under the group heading `Medical Evacuation / Repatriation Services`
    (11, "Arrangement and Payment of Emergency Medical"): 4,
}

LABEL = re.compile(r"^(\([a-z]\)|\([ivx]+\)|\d+\.|[a-z]\.|[ivx]+\.)\s+(\S.*)$")
INNER = re.compile(r"^(\([a-z]\)|\([ivx]+\))\s+(\S.*)$")


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", str(PDF)],
                         capture_output=True, text=True, check=True).stdout
    lines = []
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        page = int(pm.group(1))
        runs = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            top, left, width, font, raw = m.groups()
            text = html.unescape(re.sub(r"<.*?>", "", raw))
            if not text.strip():
                continue
            left = int(left)
            runs.append(dict(col=0 if left < COL_SPLIT else 1, top=int(top), left=left,
                             right=left + int(width), font=int(font),
                             bold="<b>" in raw or int(font) in (BODY_BOLD, 3, 5, 7), text=text))
        runs.sort(key=lambda r: (r["col"], r["top"], r["left"]))
        group = []
        for r in runs:
            if group and group[-1][0]["col"] == r["col"] and abs(group[-1][0]["top"] - r["top"]) <= 3:
                group[-1].append(r)
            else:
                group.append([r])
        for g in group:
            g.sort(key=lambda r: r["left"])
            text = ""
            for i, r in enumerate(g):
                if i and not text.endswith(" ") and not r["text"].startswith(" ") \
                        and r["left"] - g[i - 1]["right"] > 3:
                    text += " "
                text += r["text"]
            col = g[0]["col"]
            lines.append(dict(page=page, col=col, top=g[0]["top"], left=g[0]["left"],
                              off=g[0]["left"] - MARGIN[col], runs=g, text=norm(text),
                              bold=all(r["bold"] for r in g), font=g[0]["font"]))
    return lines


def in_table(ln):
    return any(ln["page"] == p and ln["col"] == c and a <= ln["top"] <= b for p, c, a, b in TABLES)


def cut(text, limit=60):
    text = norm(text)
    if len(text) <= limit:
        return text
    return text[:limit + 1].rsplit(" ", 1)[0]


def classify(lines):
    """Events in reading order: ('h', rank, comp, label, title, ln[, leaf]), ('i', offset, label,
    first words, ln), ('t', ln) for a text line."""
    out = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if ln["top"] >= FOOTER_TOP or ln["font"] in BOX_FONTS or in_table(ln):
            continue
        text = ln["text"]
        at_margin = abs(ln["off"]) <= 4
        first = ln["runs"][0]
        # run-in defined terms
        m = re.match(r"^“([^”]+)”", text)
        if at_margin and first["bold"] and m:
            term = norm(m.group(1))
            out.append(("h", 2, "{%s}" % term, "", term, ln))
            continue
        if at_margin and first["text"].strip() == "*" and len(ln["runs"]) > 1 and ln["runs"][1]["bold"]:
            term = norm(ln["runs"][1]["text"])
            out.append(("h", 2, "{%s}" % term, "", term, ln))
            continue
        if at_margin and ln["bold"] and ln["font"] == BODY_BOLD:
            # join wrapped heading lines
            last = ln
            while i < len(lines):
                nx = lines[i]
                if nx["page"] == ln["page"] and nx["col"] == ln["col"] and nx["bold"] \
                        and nx["font"] == BODY_BOLD and 0 < nx["top"] - last["top"] < 18 \
                        and not in_table(nx) and not re.match(r"^(\d+\.|MAE|M\d\d)\s", nx["text"]):
                    text = text + " " + nx["text"]
                    last = nx
                    i += 1
                else:
                    break
            text = norm(text)
            m = re.match(r"^(\d+)\.\s+(.*)$", text)
            if m:
                out.append(("h", 2, m.group(1), m.group(1) + ".", m.group(2), ln))
                continue
            m = re.match(r"^(MAE|M\d\d)\s*([–-])\s*(.*)$", text)
            if m:
                out.append(("h", 2, m.group(1), m.group(1) + " " + m.group(2), m.group(3), ln))
                continue
            m = re.match(r"^(SECTION [IVX]+)\s*–\s*(.*)$", text)
            if m:
                out.append(("h", 1, m.group(1), m.group(1) + " –", m.group(2), ln))
                continue
            if text == text.upper():
                out.append(("h", 1, "{%s}" % text, "", text, ln))
                continue
            rank = 3
            for (p, words), r in RANK_OVERRIDE.items():
                if p == ln["page"] and text.startswith(words):
                    rank = r
            out.append(("h", rank, "{%s}" % text, "", text, ln))
            continue
        if (ln["page"], text) in LEAF_HEADS:
            out.append(("h", LEAF_HEADS[(ln["page"], text)], "{%s}" % text, "", text, ln, True))
            continue
        if (ln["page"], text) in PLAIN_HEADS:
            out.append(("h", PLAIN_HEADS[(ln["page"], text)], "{%s}" % text, "", text, ln))
            continue
        m = LABEL.match(text)
        if m and (ln["page"], ln["col"], ln["top"]) not in DROP:
            labels = [(m.group(1), ln["off"], m.group(2))]
            m2 = INNER.match(m.group(2))
            if m2 and re.match(r"^\d+\.$", m.group(1)):
                # chained second label: its own run's x when it has one, else one grid step (27 px)
                runs = ln["runs"]
                inner_off = runs[1]["left"] - MARGIN[ln["col"]] if norm(runs[0]["text"]) == m.group(1) \
                    and len(runs) > 1 else ln["off"] + 27
                labels.append((m2.group(1), inner_off, m2.group(2)))
            cont = ""
            if len(labels[-1][2]) < 60 and i < len(lines):
                nx = lines[i]
                if nx["page"] == ln["page"] and nx["col"] == ln["col"] and 0 < nx["top"] - ln["top"] < 18 \
                        and not LABEL.match(nx["text"]) and not nx["bold"] and not in_table(nx):
                    # a line ending in a hyphen runs on without a space (self-/injury)
                    cont = nx["text"] if labels[-1][2].endswith("-") else " " + nx["text"]
            for lab, off, words in labels:
                out.append(("i", off, lab, cut(words + cont), ln))
            continue
        out.append(("t", ln))
    return out


def build(events):
    rows = []
    heads = []    # (rank, path)
    items = []    # (offset, path)
    seen = {}

    def add(parent, comp, label, title, page):
        key = (parent, comp)
        seen[key] = seen.get(key, 0) + 1
        c = comp if seen[key] == 1 else f"{comp}~{seen[key]}"
        path = f"{parent}.{c}" if parent else c
        rows.append((path, label, title, page))
        return path

    n_head = 0
    for ev in events:
        if ev[0] == "h":
            _, rank, comp, label, title, ln = ev[:6]
            items = []
            while heads and heads[-1][0] >= rank:
                heads.pop()
            parent = heads[-1][1] if heads else ""
            path = add(parent, comp, label, title, ln["page"])
            if len(ev) == 6:          # a leaf heading (LEAF_HEADS) is not left open
                heads.append((rank, path))
            n_head += 1
        elif ev[0] == "i":
            _, off, lab, title, ln = ev
            while items and items[-1][0] >= off - 8:
                items.pop()
            parent = items[-1][1] if items else (heads[-1][1] if heads else "")
            comp = re.sub(r"[().]", "", lab)
            path = add(parent, comp, lab, title, ln["page"])
            items.append((off, path))
        else:
            ln = ev[1]
            while items and items[-1][0] >= ln["off"] - 3:
                items.pop()
    return rows, n_head


def main():
    rows, n_head = build(classify(load()))
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            fh.write("\t".join(str(x) for x in r) + "\n")
    print(f"{len(rows)} rows ({n_head} headings, {len(rows) - n_head} items) -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()

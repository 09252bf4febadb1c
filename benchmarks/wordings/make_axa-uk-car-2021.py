#!/usr/bin/env python3
"""Ground-truth outline of AXA Car Insurance "Your policy booklet", April 2021 edition
(AXA Insurance UK plc, form APLD0144P-L(04/21)).

Independent of stream_chunker: reads the cached PDF with poppler's `pdftohtml -xml -i`
(text runs with position and font id; the fontspec table gives size, face and colour).

Reading order.  The booklet is A5, two columns per page.  Runs are grouped into physical
lines per column (column 1 when left >= 310 of 629; a run joins a line whose top is within
6 px), and each page is read column 0 top to bottom, then column 1.  The page title (at the
top of column 0) therefore comes first even where pdftotext prints it last.  Column edges
are x 51 / 325 on odd PDF pages and 68 / 342 on even ones (+-2 px).

Rows and ranks (all FranklinGothic; body is id 3, Book 14 black):
  rank 1  id 4  (Demi 26, blue): the page titles, one for one the 18 entries of the printed
          contents list (p. 2).  `Part X: Title` gives path component `Part X`, label
          `Part X:`; other titles are `{Title}`.
  rank 2  id 7  (Demi 18, blue) at a column edge: sub-headings (`What is covered`,
          `Cancellation`), the defined terms of `Meaning of defined terms` (as `{Term}`),
          `Endorsement N – Title` (component `Endorsement N`, label `Endorsement N –`), and
          Part F's numbered covers `1  No claims discount` (component and label `1`).
  rank 3  id 11 (Demi 14, black) at a column edge: sub-sub-headings (`Statutory
          cancellation rights`, `Glass damage exclusion`) and the numbered covers of Parts A
          and B (`2  Glass damage`).
  items   a bare label at the start of a line in id 5 (Demi 14 blue, General exclusions) or
          id 11 (Parts B and C): `1`-`6` at the column edge, `a`-`g` at the edge or 17 px in.
          A number item is the child of the innermost open heading; a letter item is the
          child of the open number item, else of the innermost heading.  First words: the
          text after the label and its wrapped lines, up to 8 words / 60 characters.
Consecutive lines of one heading face in one column, less than 32 px apart, neither
starting with a label, are one wrapped heading.  Depth follows the rank rule: a heading
closes every open row of its own or a lower rank and is the child of the nearest open row
of a higher rank; items close items of their own or a deeper kind.  A repeated path would
get `~n` on its last component (none occurs).

Not rows: the cover (p. 1), the contents (p. 2), the back cover (p. 31), the running
header `... continued` (top < 50), page numbers, bullets (ZapfDingbats `n`, `●`), the
tables (driver excess p. 15, injury benefits p. 21, NCD p. 23: fonts 15, 17-22 are never
read), and bold words inside sentences.  The hand decisions are the tables below.
Writes NAME.expected.tsv next to this script.
"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

NAME = "axa-uk-car-2021"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

RANK = {"4": 1, "7": 2, "11": 3}
ITEM_FONTS = {"5", "11"}
SKIP_PAGES = {1, 2, 31}          # cover, contents, back cover

# ---- hand decisions (judgement calls, see NAME.entry.json) ----
# Unnumbered id-11 headings printed between cover 1 and cover 2 of Part A belong to
# cover 1 (`Loss of or damage to your car or spare parts`): rank 4 under it.
# Key: (page, first words of the heading).
RANK_OVERRIDE = {
    (13, "New car replacement"): 4,
    (13, "Courtesy car"): 4,
}
# Own-line id-5 captions `Useful information:` over the italic notes (pp. 17, 19): headings
# with no outline below them, placed at rank 2 (under the Part) and not left open.
LEAF = {
    (17, "Useful information:"): 2,
    (19, "Useful information:"): 2,
}
# Other own-line id-5 lines are wrapped defined words inside sentences, not headings:
# (page, text).  Any id-5-only line not in LEAF or here stops the script.
F5_TEXT = {
    (9, "car"), (12, "insurance"), (12, "your certificate of insurance"), (17, "your schedule"),
}

LABEL = re.compile(r"^(\d{1,2}|[a-g])$")
NUM_HEAD = re.compile(r"^(\d{1,2})\s+(\S.*)$")
PART = re.compile(r"^(Part [A-F]):\s*(.*)$")
ENDORSEMENT = re.compile(r"^(Endorsement \d+)\s*–\s*(.*)$")


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, check=True).stdout
    root = ET.fromstring(xml)
    pages = []
    for p in root.iter("page"):
        n = int(p.get("number"))
        runs = sorted((int(t.get("top")), int(t.get("left")), t.get("font"), "".join(t.itertext()))
                      for t in p.iter("text"))
        lines = []                        # [col, top, [runs]]
        for top, left, font, s in runs:
            col = 0 if left < 310 else 1
            for ln in reversed(lines):
                if ln[0] == col and top - ln[1] <= 6:
                    ln[2].append((left, font, s))
                    break
            else:
                lines.append([col, top, [(left, font, s)]])
        out = []
        for col, top, rs in sorted(lines, key=lambda ln: (ln[0], ln[1])):
            rs.sort()
            nb = [r for r in rs if r[2].strip()]
            if nb:
                out.append(dict(page=n, col=col, top=top, runs=rs, nb=nb,
                                left=nb[0][0], font=nb[0][1],
                                text=norm("".join(r[2] for r in rs))))
        pages.append((n, out))
    return pages


def edge(page, col):
    return (51, 325)[col] if page % 2 else (68, 342)[col]


def at(x, target):
    return abs(x - target) <= 2


def candidates(pages):
    res = []
    for n, lines in pages:
        if n in SKIP_PAGES:
            continue
        i = 0
        while i < len(lines):
            ln = lines[i]
            e = edge(n, ln["col"])
            if ln["top"] < 50 and ln["font"] != "4":
                i += 1
                continue                                  # running header
            font, first = ln["font"], ln["nb"][0][2].strip()
            # labelled item: a bare label run, then text
            if font in ITEM_FONTS and LABEL.match(first) and len(ln["nb"]) > 1 and (
                    at(ln["left"], e) or (first.isalpha() and at(ln["left"], e + 17))):
                words = norm("".join(r[2] for r in ln["runs"] if r[0] > ln["nb"][0][0])).split()
                j = i + 1
                while len(words) < 8 and j < len(lines):
                    nx = lines[j]
                    if nx["col"] != ln["col"] or nx["left"] <= ln["left"] + 2 \
                            or nx["font"] in RANK or LABEL.match(nx["nb"][0][2].strip()):
                        break
                    words += nx["text"].split()
                    j += 1
                title = ""
                for w in words[:8]:
                    if len(title) + len(w) + 1 > 60:
                        break
                    title = (title + " " + w).strip()
                res.append(dict(page=n, kind="letter" if first.isalpha() else "number",
                                label=first, title=title))
                i += 1
                continue
            if font == "5" and all(r[1] == "5" for r in ln["nb"]):
                key = (n, ln["text"])
                if key in LEAF:
                    res.append(dict(page=n, kind="h", rank=LEAF[key], leaf=True, title=ln["text"]))
                elif key not in F5_TEXT:
                    sys.exit("unlisted own-line id-5 text: %r" % (key,))
                i += 1
                continue
            rank = RANK.get(font)
            if rank is None or not at(ln["left"], e) or not all(r[1] == font for r in ln["nb"]):
                i += 1
                continue
            title = ln["text"]
            j = i
            while j + 1 < len(lines):
                nx = lines[j + 1]
                if nx["col"] != ln["col"] or nx["font"] != font or nx["top"] - lines[j]["top"] >= 32 \
                        or LABEL.match(nx["nb"][0][2].strip()) \
                        or not all(r[1] == font for r in nx["nb"]):
                    break
                title = norm(title + " " + nx["text"])
                j += 1
            rank = RANK_OVERRIDE.get((n, title), rank)
            res.append(dict(page=n, kind="h", rank=rank, leaf=False, title=title))
            i = j + 1
    return res


ITEM_RANK = {"number": 10, "letter": 11}


def build(cands):
    rows, stack, seen = [], [], {}
    for c in cands:
        if c["kind"] == "h":
            rank = c["rank"]
            m = NUM_HEAD.match(c["title"])
            p = PART.match(c["title"])
            en = ENDORSEMENT.match(c["title"])
            if p and rank == 1:
                comp, label, title = p.group(1), p.group(1) + ":", p.group(2)
            elif en:
                comp, label, title = en.group(1), en.group(1) + " –", en.group(2)
            elif m:
                comp, label, title = m.group(1), m.group(1), m.group(2)
            else:
                comp, label, title = "{" + c["title"] + "}", "", c["title"]
        else:
            rank = ITEM_RANK[c["kind"]]
            comp, label, title = c["label"], c["label"], c["title"]
        while stack and stack[-1][0] >= rank:
            stack.pop()
        parent = ".".join(s[1] for s in stack)
        base = (parent + "." if parent else "") + comp
        k = seen.get(base, 0) + 1
        seen[base] = k
        if k > 1:
            comp += "~%d" % k
        path = (parent + "." if parent else "") + comp
        rows.append((path, label, title, c["page"]))
        if not c.get("leaf"):
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

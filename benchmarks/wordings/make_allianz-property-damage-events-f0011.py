#!/usr/bin/env python3
"""Ground-truth outline of Allianz F 0011 "Property Damage Events Section" (UK commercial).

Reads the PDF from the cache, runs `pdftohtml -xml -i -stdout`, and derives the rows
independently of stream_chunker:

* rank-1 headings: font id 1 (Arial-Bold 21 px, blue): Definitions, Cover, Events, ...
* rank-2 headings: (a) in Definitions, a line wholly in bold Arial 17 px (font id 2) = a
  defined term `{Term}`; (b) in Basis of Settlement Adjustments and Section Conditions,
  a wholly bold line `N.  Title` = a numbered clause heading.
* items: a line whose first text piece is a label (`1.`, `7a.`, `a.`, `A.`, `iv.`, `i)`,
  bare `1`); nesting by the label's indent relative to the page's left margin
  (odd pages 106 px, even pages 85 px), which the wording uses consistently; a label at
  the same indent as an open item closes it.  Numbered clause headings and defined terms
  are not closed by items at their own indent (their lists start at the margin).
* a label repeated under the same parent gets `~2`, `~3` (second/third list in one clause).
* hand corrections: SUBHEADS (bold unlabelled lines inside Event 1 that carry a list).
Writes benchmarks/wordings/allianz-property-damage-events-f0011.expected.tsv.
"""
import html
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "allianz-property-damage-events-f0011"
PDF = HERE / "cache" / f"{NAME}.pdf"
OUT = HERE / f"{NAME}.expected.tsv"

# Hand corrections: bold lines without a label that head a sub-list inside an item
# (Event 1 = Fire / Lightning / Explosion).  (page, text)
SUBHEADS = {(3, "Lightning"), (3, "Explosion")}
NUMBERED_HEADING_SECTIONS = {"Basis of Settlement Adjustments", "Section Conditions"}
DEFINITION_SECTIONS = {"Definitions"}

LABEL_RE = re.compile(r"^(\d+[a-z]?\.|\d+|[a-zA-Z]\.|[ivx]+\.|[ivx]+\))$")
HEAD_LABEL_RE = re.compile(r"^(\d+\.)\s+(.*\S)\s*$")
TOL = 5


def lines(xml):
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        p = int(pm.group(1))
        frags = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="\d+" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            top, left, f, t = m.groups()
            plain = html.unescape(re.sub(r"<.*?>", "", t))
            if not plain.strip():
                continue
            rest = re.sub(r"<.*?>", "", html.unescape(re.sub(r"<b>.*?</b>", "", t)))
            frags.append(dict(top=int(top), left=int(left), font=int(f),
                              text=plain.strip(), bold=rest.strip() == ""))
        frags.sort(key=lambda a: (a["top"], a["left"]))
        rows = []
        for fr in frags:
            if rows and abs(rows[-1][0]["top"] - fr["top"]) <= 3:
                rows[-1].append(fr)
            else:
                rows.append([fr])
        for r in rows:
            r.sort(key=lambda a: a["left"])
            text = " ".join(a["text"] for a in r)
            if r[0]["font"] == 4 or re.fullmatch(r"F 0011|Page \d+ of 26|F 0011 Page \d+ of 26", text):
                continue  # footer: company address block, form number, page number
            yield dict(page=p, left=r[0]["left"], frags=r, text=text)


def main():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", str(PDF)],
                         capture_output=True, text=True, check=True).stdout
    L = list(lines(xml))
    rows = []          # dicts: path, label, words, page
    children = {}      # parent path -> {component: count}
    stack = []         # entries: dict(kind, offset, path)
    section = None

    def add(parent, comp, label, words, page):
        seen = children.setdefault(parent, {})
        n = seen.get(comp, 0) + 1
        seen[comp] = n
        c = comp if n == 1 else f"{comp}~{n}"
        path = c if not parent else f"{parent}.{c}"
        rows.append(dict(path=path, label=label, words=words, page=page))
        return path

    def first_words(i, after_label):
        ln = L[i]
        words = after_label.split()
        rest_bold = all(f["bold"] for f in ln["frags"][1:]) and len(ln["frags"]) > 1
        if rest_bold and len(words) < 8:
            return " ".join(words)  # a bold run-in title ends at its line
        # continuation lines: same page, indented at least as far as the item's text
        # (text at the label's own indent belongs to the parent); a lone "or"/"and"
        # between two items is not part of either.
        text_left = ln["frags"][1]["left"] if len(ln["frags"]) > 1 else ln["left"]
        j = i + 1
        while len(words) < 8 and j < len(L) and L[j]["page"] == ln["page"]:
            nxt = L[j]
            if LABEL_RE.match(nxt["frags"][0]["text"]) or nxt["frags"][0]["font"] == 1 \
               or nxt["text"].startswith("- ") or nxt["left"] < text_left - 3 \
               or nxt["text"] in ("or", "and"):
                break
            words += nxt["text"].split()
            j += 1
        return " ".join(words[:8])

    for i, ln in enumerate(L):
        fr = ln["frags"]
        base = 106 if ln["page"] % 2 else 85
        off = ln["left"] - base
        if fr[0]["font"] == 0:
            continue  # the document title, above the outline
        if fr[0]["font"] == 1 and all(f["bold"] for f in fr):
            section = ln["text"]
            path = add("", "{%s}" % section, "", section, ln["page"])
            stack = [dict(kind="h1", offset=-99, path=path)]
            continue
        allbold = all(f["bold"] for f in fr)
        if section in DEFINITION_SECTIONS and allbold and fr[0]["font"] == 2 and abs(off) <= TOL:
            stack = stack[:1]
            path = add(stack[0]["path"], "{%s}" % ln["text"], "", ln["text"], ln["page"])
            stack.append(dict(kind="h2", offset=off, path=path))
            continue
        m = HEAD_LABEL_RE.match(ln["text"])
        if section in NUMBERED_HEADING_SECTIONS and allbold and m and abs(off) <= TOL:
            stack = stack[:1]
            lab, title = m.group(1), re.sub(r"\s+", " ", m.group(2))
            path = add(stack[0]["path"], lab.rstrip("."), lab, title, ln["page"])
            stack.append(dict(kind="h2", offset=off, path=path))
            continue
        if (ln["page"], ln["text"]) in SUBHEADS:
            while stack[-1]["kind"] == "sub" or (stack[-1]["kind"] == "item"
                                                 and stack[-1]["offset"] >= off - TOL):
                stack.pop()
            path = add(stack[-1]["path"], "{%s}" % ln["text"], "", ln["text"], ln["page"])
            stack.append(dict(kind="sub", offset=off, path=path))
            continue
        lab = fr[0]["text"]
        if LABEL_RE.match(lab) and len(fr) > 1:
            while True:
                top = stack[-1]
                if top["kind"] == "item" and top["offset"] >= off - TOL:
                    stack.pop()
                elif top["kind"] == "sub" and off < top["offset"] - TOL:
                    stack.pop()
                else:
                    break
            comp = lab.rstrip(".)")
            after = " ".join(f["text"] for f in fr[1:])
            path = add(stack[-1]["path"], comp, lab, first_words(i, after), ln["page"])
            stack.append(dict(kind="item", offset=off, path=path))
    with open(OUT, "w") as fh:
        fh.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            fh.write(f"{r['path']}\t{r['label']}\t{r['words']}\t{r['page']}\n")
    print(f"{len(rows)} rows -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Ground-truth outline of OneDegree Hong Kong "Pet CEO Plan(R) Insurance Policy" (ODHK-PET-AT-PPV-2025012).

Independent of stream_chunker: reads cache/NAME.pdf with poppler's `pdftohtml -xml -i`
(text runs with font ids), groups the runs of each page into physical lines (tops within
3 px), reads each single-column A4 page top to bottom, and classifies each line by the font
of its first run and the label its text starts with.  The PDF says Tagged, but its structure
tree (a macOS Quartz re-print of a Word file) is broken and carries no text, so it is unused.

The outline is numbered: three sections `Section A:`..`Section C:`, parts `1.`..`7.` whose
numbering runs on through the sections, sub-parts `1.1`..`6.10`, numbered clauses
`1.3.1`..`6.6.2`, lettered/roman items `a.`/`a)`/`i.`, and a two-column definitions table.

Rows and ranks (fontspec ids of this file):
  rank 1  id 29  NunitoSans-Bold 24 px teal  `Section A: What You Get From Your Cover`
                 -> path `Section A`, label `Section A:`; and the two front-matter headings
                 id 11 `Important Notes` (p.1) and id 18 `Thank you for choosing OneDegree`
                 (p.2) -> `{Title}`.
  rank 2  id 30  NunitoSans-Bold 21 px teal  `1. What Your Policy Covers` -> component `1`.
  rank 3  id 32  NunitoSans-Bold 18 px black `1.1  Covered Medical Conditions` -> the last
                 number (`1`) is the component, the label keeps `1.1`.
  rank 3  id 33  NunitoSans-Bold 17 px black at x 116, only inside part 7 (Definitions):
                 a defined term `{Term}`; consecutive term lines less than 35 px apart are
                 one wrapped term (`Acute Episode of a` / `Chronic Medical` / `Condition`).
  rank 4  a body line starting `N.N.N` (x 108): a numbered clause, component = last number.
  items   a line whose first run is `a.`..`e.`, `a)`, `b)`, `i.`, `ii.`: child of the
          nearest open numbered row; among items, nesting by the label's x (an item is the
          child of an open item more than 8 px to its left, else it closes it).
Depth follows the rank stack (a row closes every open row of the same or a lower rank);
a path repeated under one parent gets `~2`.  First words: the text after the label, run
on over the item's following lines (same page, at or right of its text's x) and cut at a
word boundary at 60 characters; heading titles are kept whole.
Not rows: the cover title block, the contents list (pp. 3-4, with its `Contents` heading),
the running footer (font 1: form number, insurer, `29 of 59`), section intro sentences,
`(Valid only if selected as per Policy Schedule)`, bullets, and the cells of the cover and
exclusion tables in 1.1, 1.2, 2.3, 2.4 (their bold row labels `Injuries`, `Surgery`, ...
and the bold `Chronic Medical Conditions` / `AND` inside a cell) - see TABLE_PARTS.
Writes NAME.expected.tsv next to this script.
"""
import html
import os
import re
import subprocess

NAME = "onedegree-pet-ceo-plan-2025"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

# ---- hand decisions (judgement calls, see NAME.entry.json) ----
# Pages holding the printed contents list (PDF pages 3-4): no rows.
CONTENTS_PAGES = {3, 4}
# Front-matter headings (page, font id): rank-1 `{Title}` rows before Section A.
FRONT_HEADINGS = {(1, "11"), (2, "18")}
# Sub-parts whose body is a two-column table ("This table sets out ..."): the bold row
# labels (font 33) are table cells, not rows; labelled items inside a cell (the i./ii.
# pairs of 1.1's `Illness` cell) are still items, children of the sub-part.
TABLE_PARTS = {"1.1", "1.2", "2.3", "2.4"}
# The part whose font-33 lines are defined terms.
DEFINITIONS_PART = "7"

SECTION_FONT, PART_FONT, SUBPART_FONT, TERM_FONT, FOOTER_FONT = "29", "30", "32", "33", "1"
ITEM_LABEL = re.compile(r"^([a-e][.)]|i{1,3}\.)$")
CLAUSE = re.compile(r"^(\d+\.\d+\.\d+)\s+(.*)$")
SUBPART = re.compile(r"^(\d+\.\d+)\s+(.*)$")
PART = re.compile(r"^(\d+)\.\s*(.*)$")
SECTION = re.compile(r"^(Section [A-C]):\s*(.*)$")
RANK = {"section": 1, "front": 1, "part": 2, "subpart": 3, "term": 3, "clause": 4}


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    """Pages as lists of lines; a line = dict(top, left, runs=[(left, right, font, text)])."""
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, check=True, text=True).stdout
    pages = []
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        runs = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2), re.S):
            top, left, width, font, raw = m.groups()
            text = html.unescape(re.sub(r"<.*?>", "", raw))
            if text.strip():
                runs.append((int(top), int(left), int(left) + int(width), font, text))
        runs.sort()
        lines = []
        for r in runs:
            if lines and abs(lines[-1]["top"] - r[0]) <= 3:
                lines[-1]["runs"].append(r[1:])
            else:
                lines.append(dict(top=r[0], runs=[r[1:]]))
        for ln in lines:
            ln["runs"].sort()
            ln["left"] = ln["runs"][0][0]
            ln["font"] = ln["runs"][0][2]
            ln["text"] = join(ln["runs"])
        pages.append((int(pm.group(1)), lines))
    return pages


def join(runs):
    """Join runs, with a space only where the PDF leaves a gap (`5` + `.2.1` stays 5.2.1)."""
    out = ""
    prev_right = None
    for left, right, _font, text in runs:
        if out and not out.endswith(" ") and not text.startswith(" ") and left - prev_right > 3:
            out += " "
        out += text
        prev_right = right
    return norm(out)


def first_words(lines, i, after, text_left):
    words = after.split()
    j = i + 1
    while len(" ".join(words)) < 60 and j < len(lines):
        nxt = lines[j]
        j += 1
        if nxt["font"] == TERM_FONT and nxt["left"] < 200:
            continue  # a table-row or term label interleaved with the item's lines
        if nxt["left"] < text_left - 3 or ITEM_LABEL.match(nxt["runs"][0][3].strip()) \
                or nxt["runs"][0][3].strip() == "\u2022" \
                or CLAUSE.match(nxt["text"]) or nxt["font"] in (SUBPART_FONT, PART_FONT, SECTION_FONT):
            break
        words += nxt["text"].split()
    text = " ".join(words)
    if len(text) > 60:
        text = text[:61].rsplit(" ", 1)[0]
    return text.rstrip()


def rows_of(pages):
    rows = []        # (path, label, title, page)
    stack = []       # dicts: rank, comp, key (numbering), left (items)
    seen = {}
    part = None
    subpart = None

    def emit(rank, comp, label, title, page, key=None, left=None):
        while stack and stack[-1]["rank"] >= rank:
            stack.pop()
        parent = ".".join(s["comp"] for s in stack)
        base = (parent + "." if parent else "") + comp
        n = seen.get(base, 0) + 1
        seen[base] = n
        if n > 1:
            comp = "%s~%d" % (comp, n)
        path = (parent + "." if parent else "") + comp
        rows.append((path, label, title, page))
        stack.append(dict(rank=rank, comp=comp, key=key, left=left))

    for page, lines in pages:
        if page in CONTENTS_PAGES:
            continue
        i = 0
        while i < len(lines):
            ln = lines[i]
            font, text = ln["font"], ln["text"]
            if font == FOOTER_FONT:
                i += 1
                continue
            if (page, font) in FRONT_HEADINGS:
                emit(RANK["front"], "{%s}" % text, "", text, page)
                i += 1
                continue
            if page == 1:
                i += 1
                continue  # cover title block and the Important Notes bullets
            if font == SECTION_FONT:
                m = SECTION.match(text)
                emit(RANK["section"], m.group(1), m.group(1) + ":", m.group(2), page)
                part = subpart = None
                i += 1
                continue
            if font == PART_FONT:
                m = PART.match(text)
                part, subpart = m.group(1), None
                emit(RANK["part"], part, part + ".", m.group(2), page, key=part)
                i += 1
                continue
            if font == SUBPART_FONT:
                m = SUBPART.match(text)
                subpart = m.group(1)
                emit(RANK["subpart"], subpart.split(".")[-1], subpart, m.group(2), page, key=subpart)
                i += 1
                continue
            if font == TERM_FONT and ln["left"] < 200:
                if part == DEFINITIONS_PART:
                    term_runs = [r for r in ln["runs"] if r[2] == TERM_FONT]
                    term = join(term_runs)
                    j = i + 1
                    last_top = ln["top"]
                    # wrapped term: later lines of the term column less than 35 px below
                    while j < len(lines):
                        nxt = lines[j]
                        if nxt["font"] == TERM_FONT and nxt["left"] < 200:
                            if nxt["top"] - last_top < 35:
                                term = norm(term + " " + join([r for r in nxt["runs"] if r[2] == TERM_FONT]))
                                last_top = nxt["top"]
                                lines[j] = dict(nxt, font="consumed")
                            else:
                                break
                        j += 1
                    emit(RANK["term"], "{%s}" % term, "", term, page)
                # elsewhere: a table cell label (TABLE_PARTS), not a row
                i += 1
                continue
            m = CLAUSE.match(text)
            if m and ln["left"] < 115:
                label = m.group(1)
                assert subpart and label.startswith(subpart + "."), (page, text)
                # the clause text's x: the second run when the label is a run of its own
                glued = ln["runs"][0][3].strip() != label or len(ln["runs"]) == 1
                text_left = 161 if glued else ln["runs"][1][0]
                emit(RANK["clause"], label.split(".")[-1], label,
                     first_words(lines, i, m.group(2), text_left), page, key=label)
                i += 1
                continue
            lab = ln["runs"][0][3].strip()
            if ITEM_LABEL.match(lab) and len(ln["runs"]) > 1:
                left = ln["left"]
                while stack and stack[-1]["left"] is not None and stack[-1]["left"] >= left - 8:
                    stack.pop()
                rank = stack[-1]["rank"] + 1
                after = join(ln["runs"][1:])
                emit(rank, lab.rstrip(".)"), lab, first_words(lines, i, after, ln["runs"][1][0]),
                     page, left=left)
                i += 1
                continue
            i += 1
    return rows


def main():
    rows = rows_of(load())
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(len(rows), "rows ->", OUT)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Ground-truth outline of the CommBank Home Insurance PDS (Hollard, 1 October 2022).

Independent of stream_chunker. The PDF (80 A5 pages, print code HIP 1516 011022, with
the two Key Facts Sheets HIP 3673/3674 appended as A4 pages 77-80) is tagged, and its
structure tree carries real heading tags, so the rows come from the tree:

* `pdfinfo -struct-text` (poppler) prints the tree in reading order, two-column pages
  already read column by column. The parser below keeps each element's type and the
  text of its subtree.
* Rows, in tree order:
  - H2 -> rank 1, H3 -> rank 2, H4 -> rank 3 (the H1 is the cover title, not a row).
    H2 are the page-title headings (font id 3, 30 px): exactly the 25 bold entries of
    the printed Index (p. 3; its plain entries are the H3 of Insured Events, Additional
    Benefits and Optional Covers) plus the unindexed `Important information` (p. 2) and
    the two Key Facts Sheet titles (font 31); H3 are the 18 px sub-headings (font 11), the glossary
    terms (font 10) and the STEP titles of the Key Facts Sheets; H4 are the 15 px
    `What is covered` / `What is not covered` level (font 17 and the KFS fonts 39/46).
  - list items whose tagged label (Lbl) is a number `N.` -> items, one level below the
    nearest open heading (General Exclusions 1.-48., Excesses 1.-3.). Bullet and dash
    labels (`•`, `–`, `*`) are never rows.
* Depth follows the stack rule: a heading closes every open heading of the same or a
  lower rank; items hang under the heading open at that moment.
* Path components: `{Title}` for a heading, `STEP n` (label `STEP n`) for the Key Facts
  Sheet steps, the number for an item; a repeated path gets `~n` on its last component.
* Page: each row is matched, in order, to a line of `pdftohtml -xml -i -nodrm` (the PDF
  forbids copying, so -nodrm is needed; pdftotext ignores that flag) in a heading font
  (headings) or to a body line starting with its label (items); lines are taken page by
  page, left column (x < 300) before right column, top to bottom, and never reused;
  within the page of the previous match any unused line may be taken, because
  full-width headings cut the two columns into bands.
  The page is the PDF page (printed page + 2).
Hand decisions are the small tables below. Writes NAME.expected.tsv next to this file.
"""
import html
import os
import re
import subprocess
import sys

NAME = "hollard-commbank-home-pds-2022"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

RANK = {"H2": 1, "H3": 2, "H4": 3}

# ---- hand decisions ----
# Tagged headings that are not outline rows (normalised text -> reason).
NOT_ROWS = {
    "Home Insurance": "H1 cover title (p. 1)",
    "Index": "the printed contents list (p. 3)",
    "Notes": "a blank ruled page for the reader's notes (p. 74)",
}
# Fonts (pdftohtml fontspec ids) a heading line may be printed in: 3 page titles, 10 the
# ExtraBold 12 px glossary terms, 11 the 18 px sub-headings, 17 the 15 px third level,
# 31/35 the Key Facts Sheet title and STEP lines, 39/46 their 15 px sub-headings.
HEADING_FONTS = {"3", "10", "11", "17", "31", "35", "39", "46"}
# Fonts used only for headings: every line in them must be a row (checked in main()).
HEADING_ONLY_FONTS = {"3", "11", "17", "31", "35", "39", "46"}
# Lines in a heading-only font that are deliberately not rows: (page, normalised text).
FONT_EXCEPTIONS = {
    (3, "Index"), (74, "Notes"),
}
# (p. 77 also carries a second, white copy of the KFS title in MinionPro, font 32, below
# the visible one; it is not in a heading font and needs no entry.)
ITEM_LABEL = re.compile(r"^(\d{1,2})\.$")
STEP = re.compile(r"^STEP\s*(\d)\s*(.*)$")


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def squash(s):
    return re.sub(r"\s+", "", s)


def struct_tree():
    """Parse `pdfinfo -struct-text` into nested dicts: type, children, text."""
    out = subprocess.run(["pdfinfo", "-struct-text", PDF], capture_output=True,
                         text=True, check=True).stdout
    root = {"type": "ROOT", "children": [], "text": []}
    stack = [(-1, root)]
    for line in out.split("\n"):
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        if body.startswith("/") or body.startswith("Object "):
            continue
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        if body.startswith('"'):
            parent["children"].append({"type": "#text", "children": [], "text": [body[1:-1]]})
            continue
        node = {"type": re.split(r"[\s:]", body, 1)[0], "children": [], "text": []}
        parent["children"].append(node)
        stack.append((indent, node))
    return root


def text_of(node):
    if node["type"] == "#text":
        return node["text"][0]
    return "".join(text_of(c) for c in node["children"])


def tree_rows(root):
    """Yield ('h', rank, text) and ('i', label, body) in document order."""
    res = []

    def walk(node):
        t = node["type"]
        if t in ("H1", "H2", "H3", "H4", "H5", "H6"):
            text = norm(text_of(node))
            if text in NOT_ROWS:
                return
            if t not in RANK:
                sys.exit("unexpected heading tag %s %r" % (t, text))
            res.append(("h", RANK[t], text))
            return
        if t == "LI":
            lbl = [c for c in node["children"] if c["type"] == "Lbl"]
            lbody = [c for c in node["children"] if c["type"] == "LBody"]
            label = norm(text_of(lbl[0])) if lbl else ""
            if ITEM_LABEL.match(label):
                # first words: the item's own text, without its nested bullet list
                own = "".join(text_of(c) for c in lbody[0]["children"] if c["type"] != "L") \
                    if lbody else ""
                res.append(("i", label, norm(own)))
            for c in lbody:
                walk(c)
            return
        for c in node["children"]:
            walk(c)

    walk(root)
    return res


def page_lines():
    """pdftohtml lines: list of (page, col, top, left, font, text), reading order."""
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-nodrm", "-stdout", PDF],
                         capture_output=True, text=True, check=True).stdout
    lines = []
    for pm in re.finditer(r'<page number="(\d+)"[^>]*>(.*?)</page>', xml, re.S):
        p = int(pm.group(1))
        runs = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="\d+" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            s = html.unescape(re.sub(r"<.*?>", "", m.group(4)))
            if not s.strip():
                continue  # the invisible TimesNewRoman spaces of some pages
            runs.append((int(m.group(1)), int(m.group(2)), m.group(3), s))
        runs.sort()
        grouped = []
        for top, left, font, s in runs:
            col = 0 if left < 300 or p >= 77 else 1   # the KFS pages are one column
            for g in grouped:
                if g["col"] == col and abs(g["top"] - top) <= 3:
                    g["runs"].append((left, font, s))
                    break
            else:
                grouped.append(dict(col=col, top=top, runs=[(left, font, s)]))
        for g in grouped:
            g["runs"].sort()
        grouped.sort(key=lambda g: (g["col"], g["top"]))
        for g in grouped:
            left, font, _ = g["runs"][0]
            text = norm(" ".join(s for _, _, s in g["runs"]))
            lines.append((p, g["col"], g["top"], left, font, text))
    return lines


def main():
    rows_src = tree_rows(struct_tree())
    lines = page_lines()
    used = set()
    pos = 0          # index of the first line of the page of the last match

    def find(pred):
        nonlocal pos
        for k in range(pos, len(lines)):
            if k not in used and pred(lines[k]):
                used.add(k)
                pos = next(j for j in range(k + 1) if lines[j][0] == lines[k][0])
                return lines[k][0]
        return None

    rows = []
    stack = []       # (rank, component)
    seen = {}
    for kind, a, b in rows_src:
        if kind == "h":
            rank, text = a, b
            m = STEP.match(text)
            if m:
                comp, label, title = "STEP %s" % m.group(1), "STEP %s" % m.group(1), m.group(2)
            else:
                comp, label, title = "{%s}" % text, "", text
            key = squash(title if m else text)
            # the heading's first printed line is a prefix of its text (wrapped titles)
            page = find(lambda ln: ln[4] in HEADING_FONTS and squash(ln[5]) and (
                key.startswith(squash(ln[5])) if not m else squash(ln[5]).startswith("STEP")
                and key.startswith(squash(ln[5])[4:].lstrip("0123456789"))))
            if page is None:
                sys.exit("heading not found: %r" % text)
            while stack and stack[-1][0] >= rank:
                stack.pop()
            parent = [s[1] for s in stack]
        else:
            label, body = a, b
            num = ITEM_LABEL.match(label).group(1)
            comp, rank = num, 99
            words = body.split()
            title = ""
            for w in words:
                if len(title) + len(w) + 1 > 60:
                    break
                title = (title + " " + w).strip()
            page = find(lambda ln: ln[4] not in HEADING_FONTS
                        and ln[5].startswith(num + ". ")
                        and squash(ln[5][len(num) + 1:])[:10] == squash(body)[:10])
            if page is None:
                sys.exit("item not found: %s %r" % (label, body[:40]))
            while stack and stack[-1][0] == 99:
                stack.pop()
            parent = [s[1] for s in stack]
        base = ".".join(parent + [comp])
        n = seen.get(base, 0) + 1
        seen[base] = n
        if n > 1:
            comp = "%s~%d" % (comp, n)
        rows.append((".".join(parent + [comp]), label, title, page))
        if kind == "h":
            stack.append((rank, comp))
        else:
            stack.append((99, comp))

    # every line in a heading-only font must have been taken by a heading row
    missed = [(ln[0], ln[5]) for k, ln in enumerate(lines)
              if ln[4] in HEADING_ONLY_FONTS and k not in used
              and (ln[0], ln[5]) not in FONT_EXCEPTIONS]
    # a wrapped heading's second line is not taken by the matcher: accept a line that
    # continues the heading taken just before it in the same column
    rest = []
    for p, t in missed:
        k = next(k for k, ln in enumerate(lines) if (ln[0], ln[5]) == (p, t) and k not in used)
        prev = lines[k - 1]
        if k - 1 in used and prev[0] == p and prev[4] == lines[k][4]:
            used.add(k)
            continue
        rest.append((p, t))
    if rest:
        for p, t in rest:
            print("heading-font line not a row: p.%d %r" % (p, t), file=sys.stderr)
        sys.exit(1)

    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(len(rows), "rows ->", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()

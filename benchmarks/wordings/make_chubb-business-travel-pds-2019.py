#!/usr/bin/env python3
"""Ground-truth outline of the Chubb Business Travel Insurance Policy Wording & PDS (Australia).

Chubb Insurance Australia Limited, published 05/2019 (19PDSBT01, Chubb14-23-0519), 56 A4
pages in three text columns. Independent of stream_chunker: reads cache/NAME.pdf with
poppler's `pdftohtml -xml -i` (text runs with font ids) and takes the purple rules drawn
under some headings from the page's vector objects with pypdfium2 (poppler's XML has no
graphics, and the rule is the only thing that tells the two bold heading levels apart).

Reading order: pages 4-55 (pp. 1-3 are the cover and the two contents pages; p. 3 also
carries invisible template text `Title Here` / `Sub Headings here`; p. 56 is the back cover),
each page column by column (x < 320, < 580, else), top to bottom, runs within 2 px of one
another on one line; the running header (top < 120) and footer/page number (top >= 1170)
are dropped.

Rows and ranks (fontspec ids of this file):
  rank 1    id 11, ChubbPublico 30 px purple, left column: the page titles = the printed
            contents (`Important Information`, `General Definitions`, `Section 1 - ...`,
            `Extensions Applicable to all Sections`, `General Exclusions ...`,
            `General Provisions and Conditions ...`); wrapped lines joined.
  rank 2    id 12 (ChubbPublicoText bold 14) at a column's left edge, with a rule under it
            (a horizontal path 12-26 px below its last line): `1. About this ... PDS`,
            `Extent of Cover`, `Definitions Under Section 4`, `Conditions Under ...`,
            `Table of Events`, the General Provisions (`Age Limitations`, `Subrogation`).
  rank 3    id 12 without a rule: `General Advice`, `Stage 1 - ...`, the Summary's
            `Section n - ...`, the Additional Cover benefits (`1. Exposure`, `Legal Costs`),
            `24/7 Travel Assistance`; and the white id 16 banners of the Table of Events
            (`Part A - Lump Sum Benefits`, group banners `Part B Bodily Injury Benefits`,
            `Part C - Sickness Benefits`; rank 4 for the banners inside a group).
  terms     id 15 (semibold 14) at a column's left edge: a defined term, child of the
            nearest open heading whose title contains `Definitions`.
  items     a body line (id 0; ids 19/20 in the Table of Events) starting `1.`, `a)`,
            `i.`, `(a)`: placed by label family, never by indent (p. 51 indents `i.` with
            space characters): an item is the sibling of the nearest open item of its own
            family, else the child of the innermost open item or heading. Any heading
            closes all items. Title = the words after the label, with the item's wrapped
            lines, cut to 60 characters at a word boundary.
Labels: `N.` at the start of a heading or item -> component `N`; `Section N -`, `Stage N -`
and `Part X -` keep their word (component `Section 3`); other headings are `{Title}` (full
title; the title column is cut to 60 characters). Depth: a heading closes every open
heading of the same or a lower rank (SPEC 5c stack rule); a repeated path gets `~n`.
Hand decisions are the tables below. Writes NAME.expected.tsv next to this script.
"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

NAME = "chubb-business-travel-pds-2019"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

FIRST_PAGE, LAST_PAGE = 4, 55      # 1-3 cover and contents, 56 back cover
HEADER_BOTTOM, FOOTER_TOP = 120, 1170
TITLE_FONT = "11"                  # rank 1
HEAD_FONT = "12"                   # rank 2 with a rule under it, else rank 3
TERM_FONT = "15"                   # defined terms
BANNER_FONT = "16"                 # Table of Events banners (white on purple)
ITEM_FONTS = {"0", "19", "20"}     # body, table cells, banner text
COLUMN_LEFTS = (60, 323, 587)      # left edge of the three text columns (+-2 px)

# ---- hand decisions ----
# Bold (id 12) lines at a column edge that are not headings: (page, first words).
NOT_HEADINGS = {
    (13, "Please note that any specific"),   # a bold note sentence closing General Definitions
}
# Table banners that only continue the previous one on a new page: not rows.
CONTINUED_BANNERS = {"Part A - Lump Sum Benefits, continued"}
# Table banners that group the following banners of the same Part (which rank one deeper
# and are unlabelled headings, since they repeat the Part letter in their names).
GROUP_BANNERS = {"Part B Bodily Injury Benefits", "Part C - Sickness Benefits"}

LABEL_RE = re.compile(r"^\s*(\d{1,2}\.|[a-z]\)|[ivx]{1,4}\.|\([a-z]\))\s+(\S.*)$")
NUM_HEAD_RE = re.compile(r"^(\d{1,2})\.\s+(.*)$")
PREFIX_RE = re.compile(r"^((?:Section|Stage|Part) (?:\d+|[A-Z]))\s*([–-])?\s+(.*)$")


def family(label):
    if re.fullmatch(r"\d+\.", label):
        return "arabic"
    if re.fullmatch(r"[ivx]+\.", label):
        return "roman"
    if label.startswith("("):
        return "paren-alpha"
    return "alpha"


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def cut(s, n=60):
    s = norm(s)
    if len(s) <= n:
        return s
    return s[:n].rsplit(" ", 1)[0]


def join_wrapped(parts):
    out = ""
    for p in parts:
        p = norm(p)
        if not out:
            out = p
        elif out.endswith(("-", "/")) and not out.endswith(" -"):
            out += p
        else:
            out += " " + p
    return out


def column(left):
    return 0 if left < 320 else (1 if left < 580 else 2)


def at_edge(left):
    return any(abs(left - c) <= 2 for c in COLUMN_LEFTS)


def load_lines():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, check=True).stdout
    root = ET.fromstring(xml)
    pages = {}
    for p in root.iter("page"):
        n = int(p.get("number"))
        if not FIRST_PAGE <= n <= LAST_PAGE:
            continue
        frags = []
        for te in p.iter("text"):
            s = "".join(te.itertext())
            top, left = int(te.get("top")), int(te.get("left"))
            if not s.strip() or top < HEADER_BOTTOM or top >= FOOTER_TOP:
                continue
            frags.append(dict(top=top, left=left, width=int(te.get("width")),
                              font=te.get("font"), text=s))
        frags.sort(key=lambda f: (column(f["left"]), f["top"], f["left"]))
        lines = []
        for f in frags:
            c = column(f["left"])
            if lines and lines[-1]["col"] == c and abs(lines[-1]["top"] - f["top"]) <= 2:
                lines[-1]["frags"].append(f)
            else:
                lines.append(dict(page=n, col=c, top=f["top"], frags=[f]))
        for ln in lines:
            ln["frags"].sort(key=lambda f: f["left"])
            ln["left"] = ln["frags"][0]["left"]
            ln["font"] = ln["frags"][0]["font"]
            text, end, lead = "", None, None
            for f in ln["frags"]:
                if lead is None and f["font"] != ln["font"] and f["text"].strip():
                    lead = text      # runs in the line's first font: a run-in term
                if end is not None and f["left"] - end > 2 and not text.endswith(" "):
                    text += " "
                text += f["text"]
                end = f["left"] + f["width"]
            ln["text"] = norm(text)
            ln["lead"] = norm(text if lead is None else lead)
            ln["runin"] = lead is not None
        pages[n] = lines
    return pages


def load_rules():
    """Thin horizontal vector paths per page, in pdftohtml pixels: (y, x0, x1)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c
    doc = pdfium.PdfDocument(PDF)
    rules = {}
    for i in range(len(doc)):
        page = doc[i]
        height = page.get_height()
        found = []
        for obj in page.get_objects(max_depth=5):
            if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
                continue
            left, bottom, right, top = obj.get_bounds()
            if top - bottom < 3 and right - left > 70:
                found.append(((height - top) * 1.5, left * 1.5, right * 1.5))
        rules[i + 1] = found
    return rules


def underlined(rules, page, left, last_top):
    return any(last_top + 12 <= y <= last_top + 26 and x0 <= left + 2 and x1 >= left + 100
               for y, x0, x1 in rules.get(page, ()))


def candidates(pages, rules):
    """Outline candidates in reading order: dicts kind (head/term/item), rank, text, ..."""
    out = []
    for n in sorted(pages):
        lines = pages[n]
        i = 0
        while i < len(lines):
            ln = lines[i]
            font = ln["font"]
            if font in (TITLE_FONT, HEAD_FONT, TERM_FONT) and at_edge(ln["left"]):
                parts, j = [ln["lead"]], i
                while j + 1 < len(lines) and not lines[j]["runin"]:
                    nx = lines[j + 1]
                    gap = 40 if font == TITLE_FONT else 20
                    if nx["col"] != ln["col"] or nx["font"] != font or nx["top"] - lines[j]["top"] > gap:
                        break
                    parts.append(nx["lead"])
                    j += 1
                if any(n == p and ln["text"].startswith(w) for p, w in NOT_HEADINGS):
                    i = j + 1
                    continue
                text = join_wrapped(parts)
                if font == TITLE_FONT:
                    rank = 1
                elif font == HEAD_FONT:
                    rank = 2 if underlined(rules, n, ln["left"], lines[j]["top"]) else 3
                else:
                    rank = None
                out.append(dict(kind="term" if font == TERM_FONT else "head", rank=rank,
                                text=text, page=n))
                i = j + 1
                continue
            if font == BANNER_FONT and n in (15, 16, 17, 18):
                if ln["text"] not in CONTINUED_BANNERS:
                    out.append(dict(kind="banner", rank=3, text=ln["text"], page=n))
                i += 1
                continue
            m = LABEL_RE.match(ln["text"]) if font in ITEM_FONTS else None
            if m:
                parts, j = [m.group(2)], i
                while j + 1 < len(lines) and len(" ".join(parts)) < 60:
                    nx = lines[j + 1]
                    if nx["col"] != ln["col"] or nx["top"] - lines[j]["top"] > 20 \
                            or nx["font"] != font or LABEL_RE.match(nx["text"]) \
                            or nx["left"] < ln["left"] + 5:
                        break
                    parts.append(nx["text"])
                    j += 1
                out.append(dict(kind="item", label=m.group(1), text=join_wrapped(parts),
                                page=n))
            i += 1
    return out


def build(cands):
    rows = []
    heads = []          # open headings: (rank, component, title)
    items = []          # open items: (family, component)
    seen = {}
    group = None        # open Table of Events group banner letter

    def emit(comp, label, title, page):
        parent = [h[1] for h in heads] + [it[1] for it in items]
        base = ".".join(parent + [comp])
        k = seen.get(base, 0) + 1
        seen[base] = k
        if k > 1:
            comp += "~%d" % k
        rows.append((".".join(parent + [comp]), label, cut(title), page))
        return comp

    for c in cands:
        if c["kind"] == "item":
            fam = family(c["label"])
            if any(f == fam for f, _ in items):
                while items:
                    f, _ = items.pop()
                    if f == fam:
                        break
            comp = emit(c["label"].strip("().").rstrip(")"), c["label"], c["text"], c["page"])
            items.append((fam, comp))
            continue
        items = []
        text = c["text"]
        if c["kind"] == "term":
            while heads and "definitions" not in heads[-1][2].lower():
                heads.pop()
            rank = heads[-1][0] + 0.5
            comp, label, title = "{%s}" % text, "", text
        else:
            rank = c["rank"]
            comp, label, title = "{%s}" % text, "", text
            if c["kind"] == "banner":
                letter = re.match(r"Part ([A-E])", text).group(1)
                if text in GROUP_BANNERS:
                    group = letter
                elif group == letter:
                    rank = 4
                else:
                    group = None
            m = PREFIX_RE.match(text)
            mn = NUM_HEAD_RE.match(text)
            if m and rank < 4:
                comp, title = m.group(1), m.group(3)
                label = m.group(1) + (" " + m.group(2) if m.group(2) else "")
            elif mn:
                comp, label, title = mn.group(1), mn.group(1) + ".", mn.group(2)
            while heads and heads[-1][0] >= rank:
                heads.pop()
        comp = emit(comp, label, title, c["page"])
        heads.append((rank, comp, text))
    return rows


def main():
    rows = build(candidates(load_lines(), load_rules()))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(len(rows), "rows ->", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()

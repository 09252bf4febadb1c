#!/usr/bin/env python3
"""Ground-truth outline of the Arkel "Adapt Home Insurance" policy wording (AmTrust Specialty).

Independent of stream_chunker: reads cache/NAME.pdf with poppler's `pdftohtml -xml -i`
(text runs with font ids and <b> marks) and writes NAME.expected.tsv next to this script.

The PDF (38 A4 pages, Microsoft Word, tagged but with almost no heading tags, so the tags
are not used) prints its outline by style only: bold page titles, bold sub-headings,
bold defined terms, numbered/lettered clauses, and two-column tables
`WHAT IS INSURED | WHAT IS NOT INSURED` (pp. 12-16, 19-25, 28-29; and the Contents
definition on p. 8).

Lines. The runs of a page are grouped into lines (tops within 5 px). Inside the table
regions (TABLES, by page and top) a run at x >= 415 belongs to the right cell (cell 1),
others to the left cell (cell 0). A line is "heading-styled" when at least 90 % of its
letters are in bold runs and it starts at the page or cell margin (x <= 101).

Reading order. Outside tables: top to bottom. Inside a table region the page is cut into
bands, one per table row: a band starts at a left-cell line that opens a row (a cause
`N.` on the cause pages CAUSE_PAGES, or a heading-styled left-cell line that is not a
cell sub-heading); each band is read left cell first, then right cell. The table header
cells (`WHAT IS INSURED`, `WHAT IS NOT INSURED`, `WHAT IS COVERED AS CONTENTS`) are not rows.

Headings (rank; a heading closes every open heading of the same or a lower rank and
every open item, and becomes the child of the nearest open heading of a higher rank):
  rank 1  page titles (font 7, Arial bold 18; font 24 `YOUR DUTIES`, font 54 `SECTION 3`).
          A title equal to the open rank-1 title after dropping `continued`, case, spaces
          and punctuation is a running repeat, not a row; a title that extends the open one
          (`SECTION 1: BUILDINGS OPTIONAL ACCIDENTAL DAMAGE`) is a rank-2 sub-part of it.
          `SECTION n:` is a prefixed label (path `SECTION n`).
  rank 2  part headings listed in PART_HEADINGS (`IMPORTANT NOTES`, `Extensions automatically
          included ...`, `Basis of Claims Settlement ...`, `Part A:`/`Part B:` (prefixed labels),
          ...) and the numbered General Policy Conditions `N. Title`; a part heading equal
          to the open rank-2 heading is a running repeat, not a row.
  rank 3  every other heading-styled line: sub-headings, defined terms (pp. 8-11), the
          lettered extension titles `A.  Additional Architect Fees ...` (label `A.`), the
          table cell titles (`Fixed Glass or Sanitary Ware`), the p. 7 `1`/`2` headings.
  rank 4/5  the hand ranks in RANKS (cell sub-headings, box titles, `Step n:`).
  Cell sub-headings (CELL_SUBHEADS) close when their cell ends.
Items: a line whose text starts with a label `1.`/`1)`, `a.`/`a)`/`(a)`, `i.`/`(i)`;
families arabic, letter, roman (`(i)` is a letter after `(h)`). A new item closes the open
items up to and including the nearest one of its own family (its sibling); if none is
open it is the child of the top open item when it is indented further or that item
ends with `:`, otherwise of the heading. A text line more than 8 px left of an item's text
indent (except KEEP_OPEN), or a bullet left of its label, closes that item; the last text
line read decides whether the open item ends with `:`. Numbered lines in bold outside the
General Policy Conditions (p.8 Contents `5.`, `8.`) are items. A second label at once
after the first (`11. (a) Cyber`) is the first one's child. Right-cell items hang under
their band's first row (a cause item or a cell title). First words: the label line's text, 8 words.
A repeated path gets `~n` on its last component. Hand decisions are the tables below.
"""
import html
import os
import re
import subprocess
import sys

NAME = "amtrust-adapt-home-2025"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

# ---- hand decisions ----
# Pages that are not outline: cover, the printed contents list, Arkel's back page.
SKIP_PAGES = {1, 2, 38}
# Two-column table regions: page -> (top from, top to) in pdftohtml px.
TABLES = {8: (585, 2000), 12: (115, 2000), 13: (70, 2000), 14: (105, 2000), 15: (105, 2000),
          16: (120, 2000), 19: (140, 2000), 20: (80, 2000), 21: (100, 2000), 22: (100, 2000),
          23: (100, 2000), 24: (100, 2000), 25: (118, 2000), 28: (150, 2000), 29: (100, 370)}
COL_SPLIT = 415
# Pages whose table rows start at the numbered causes `N.` of the left cell.
CAUSE_PAGES = {12, 13, 19, 20}
PAGE_TITLE_FONTS = {"7", "24"}        # font 54 too, for `SECTION 3` (p. 28/29), see below
# Part headings (rank 2), by normalised text prefix (upper case, letters and digits only).
PART_HEADINGS = ["IMPORTANTNOTES", "EXTENSIONSAUTOMATICALLYINCLUDEDINSECTION",
                 "BASISOFCLAIMSSETTLEMENTANDMAXIMUMCLAIMLIMIT", "PARTA", "PARTB",
                 "BASISOFCLAIMSSETTLEMENTPERSONALBELONGINGS", "WHATISNOTINSUREDBYSECTION3",
                 "FINANCIALSERVICESCOMPENSATIONSCHEME"]
# Subtitles printed under a sub-part's page title, restating it: not rows.
SUBTITLES = ["OPTIONALACCIDENTALDAMAGECOVERYOUCANCHOOSE"]
# Heading-styled lines that are not headings: (page, normalised text prefix).
NOT_HEADINGS = {
    (3, "PLEASEREADALLOFTHEPOLICY"), (3, "REQUIREMENTS"),   # bold capitals sentences
    (3, "PLEASEKEEPALLPOLICY"), (3, "CLAIM"),
    (6, "FORANDONBEHALF"), (6, "KRISLEE"), (6, "CHIEFUNDERWRITING"),  # signature block
    (17, "THAT"),              # `provided that:` ends a sentence in bold
    (19, "LOSSORDAMAGE"),      # bold first words of a sentence in the intro cell
    (28, "SCHEDULE"),          # wrapped defined term `Your Schedule`
    (34, "EXCEPT"),            # bold word inside General exclusion 5
    # bold defined words that end a wrapped sentence and so start a line at the margin
    (26, "COLLECTION"), (28, "INSURANCE"), (31, "YOURSCHEDULE"),
}
# Headings whose title wraps onto the next line(s) of the same cell:
# (page, top of first line) -> tops of the continuation lines.
WRAPS = {(7, 182): [200], (24, 608): [623, 639], (25, 157): [173], (35, 233): [251]}
WRAP_LINES = {(p, t) for (p, _), tops in WRAPS.items() for t in tops}
# Lines that are headings although not wholly bold or not at the margin: (page, top).
# p.5 the two centred box titles of the key to the table shading (`What is Insured`,
# `What is Not Insured`); p.25 the first cell title (`Accidental Damage to Contents when
# inside Your Home.`, mixed weight, parallel to p.16 `Accidental Damage to the Buildings`).
EXTRA_HEADINGS = {(5, 802), (5, 872), (25, 157)}
# Hand ranks for some headings (normalised text prefix -> rank).
RANKS = {
    "FORLOSSORDAMAGETOYOURPROPERTY": 4,   # box title (p.7, p.35)
    "CLAIMSADMINISTRATORS": 5,            # first field of that box (not the p.8 term)
    "WHATTODOIFYOUAREUNHAPPY": 4,         # p.37 under `IF YOUR COMPLAINT IS ABOUT YOUR CLAIM`
}
# Cell sub-headings inside a left cell (rank 4, closed when the cell ends; no new row).
CELL_SUBHEADS = {"HIGHRISKPROPERTYVALUABLES", "FINEART", "FORSTUDENTFAMILYMEMBERS",
                 "FORMATUREFAMILYMEMBERS"}

# Body lines printed under a run-in item title at the title's label position, that are
# still that item's text (p.34 General exclusion 11 `(a) Cyber` / `(b) Electronic Data`).
KEEP_OPEN = {(34, 815), (34, 901)}

ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]
LABEL = re.compile(r"^(?:\((?P<p>[a-z]|[ivx]{2,4})\)|(?P<d>\d{1,2})[.)]|(?P<l>[a-z]|[ivx]{2,4})[.)]"
                   r"|(?P<u>[A-Z])\.)(?=\s|$)")
BULLETS = ("•", "\uf0b7", "\uf0a7", "\uf0fc", "✓", "\uf0d8")


def norm(s):
    return re.sub(r"[^A-Z0-9]", "", s.upper().replace("CONTINUED", ""))


def squeeze(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, text=True, check=True).stdout
    pages = []
    for pm in re.finditer(r'<page number="(\d+)"[^>]*>(.*?)</page>', xml, re.S):
        p = int(pm.group(1))
        if p in SKIP_PAGES:
            continue
        region = TABLES.get(p)
        runs = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2), re.S):
            top, left, width = int(m.group(1)), int(m.group(2)), int(m.group(3))
            font, s = m.group(4), m.group(5)
            text = html.unescape(re.sub(r"<.*?>", "", s))
            cell = 1 if region and region[0] <= top < region[1] and left >= COL_SPLIT else 0
            runs.append(dict(top=top, left=left, width=width, font=font, bold="<b>" in s, text=text,
                             cell=cell, table=bool(region and region[0] <= top < region[1])))
        runs.sort(key=lambda r: (r["table"], r["cell"], r["top"], r["left"]))
        lines = []
        for r in runs:
            last = lines[-1] if lines else None
            if last and last["cell"] == r["cell"] and last["table"] == r["table"] \
                    and abs(last["top"] - r["top"]) <= 5:
                last["runs"].append(r)
            else:
                lines.append(dict(page=p, cell=r["cell"], table=r["table"], top=r["top"], runs=[r]))
        out = []
        for ln in lines:
            ln["runs"].sort(key=lambda r: r["left"])
            vis = [r for r in ln["runs"] if r["text"].strip()]
            if not vis:
                continue
            first = vis[0]
            if first["font"] == "0":
                continue  # footer `ArkelAmTrustAdaptPolicyWordingV4February2025` and page number
            ln["text"] = squeeze("".join(r["text"] for r in ln["runs"]))
            ln["left"] = first["left"]
            ln["font"] = first["font"]
            ln["bullet"] = ln["text"].startswith(BULLETS)
            letters = [(c, r["bold"]) for r in ln["runs"] for c in r["text"] if c.isalnum()]
            nb = sum(1 for _, b in letters if b)
            ln["styled"] = bool(letters) and nb >= 0.9 * len(letters)
            out.append(ln)
        pages.append((p, out))
    return pages


def reading_order(p, lines):
    """Lines of one page in reading order, each with the band it belongs to."""
    flow = sorted([l for l in lines if not l["table"]], key=lambda l: l["top"])
    table = [l for l in lines if l["table"]]
    if not table:
        return [(l, None) for l in flow]
    starts = [TABLES[p][0]]
    for l in table:
        if l["cell"] != 0 or l["left"] > 101:
            continue
        if p in CAUSE_PAGES and re.match(r"^\d{1,2}\.\s", l["text"]):
            starts.append(l["top"] - 4)
        elif (l["styled"] or (p, l["top"]) in EXTRA_HEADINGS) and not l["bullet"] \
                and (p, l["top"]) not in WRAP_LINES and not re.match(r"^\d{1,2}\.\s", l["text"]) \
                and norm(l["text"]) not in CELL_SUBHEADS and not not_heading(p, l["text"]):
            starts.append(l["top"] - 4)
    starts = sorted(set(starts)) + [10 ** 6]
    before = [l for l in flow if l["top"] < TABLES[p][0]]
    after = [l for l in flow if l["top"] >= TABLES[p][0]]
    seq = [(l, None) for l in before]
    for i in range(len(starts) - 1):
        band = [l for l in table if starts[i] <= l["top"] < starts[i + 1]]
        for cell in (0, 1):
            for l in sorted([l for l in band if l["cell"] == cell], key=lambda l: l["top"]):
                seq.append((l, (p, i)))
    seq += [(l, None) for l in after]
    return seq


def not_heading(p, text):
    n = norm(text)
    return any(p == q and (n == k or (len(k) >= 12 and n.startswith(k))) for q, k in NOT_HEADINGS)


def family(label, stack):
    """arabic / letter / roman / upper for a bare label value."""
    if label.isdigit():
        return "arabic"
    if label.isupper():
        return "upper"
    if label in ROMAN:
        if len(label) == 1:
            prev = chr(ord(label) - 1)
            for it in reversed(stack):
                if it["family"] == "letter":
                    return "letter" if it["value"] == prev else "roman"
            return "roman"
        return "roman"
    return "letter"


def tokens(ln):
    """(x, word) for every word of a line; x interpolated inside a run by character offset."""
    out = []
    for r in ln["runs"]:
        t = r["text"]
        for m in re.finditer(r"\S+", t):
            out.append((r["left"] + r["width"] * m.start() / max(len(t), 1), m.group(0)))
    return out


def split_label(text):
    m = LABEL.match(text)
    if not m:
        return None
    value = next(v for v in m.groups() if v)
    return m.group(0), value, text[m.end():].strip()


def build(pages):
    rows = []
    seen = {}
    heads = []   # open headings: dict(rank, comp, cell_sub, norm)
    items = []   # open items: dict(family, value, label_x, text_x, colon, comp, band_anchor)
    state = dict(band=None, cell=None, anchor_item=None)

    def path_of(comp):
        parts = [h["comp"] for h in heads] + [it["comp"] for it in items]
        base = ".".join(parts + [comp])
        k = seen.get(base, 0) + 1
        seen[base] = k
        return comp if k == 1 else "%s~%d" % (comp, k)

    def emit(comp, label, title, page, kind="heading"):
        comp = path_of(comp)
        parts = [h["comp"] for h in heads] + [it["comp"] for it in items]
        rows.append((".".join(parts + [comp]), label, title, page, kind))
        return comp

    def open_heading(rank, comp, label, title, page, cell_sub=False):
        del items[:]
        while heads and heads[-1]["rank"] >= rank:
            heads.pop()
        comp = emit(comp, label, title, page)
        heads.append(dict(rank=rank, comp=comp, cell_sub=cell_sub, norm=norm(title)))

    def close_cell_subheads():
        while heads and heads[-1]["cell_sub"]:
            heads.pop()

    def open_item(value, label, words, page, label_x, text_x, colon):
        fam = family(value, items)
        # find the sibling of the same family
        idx = None
        for i in range(len(items) - 1, -1, -1):
            if items[i]["family"] == fam:
                idx = i
                break
        if idx is not None:
            del items[idx:]
        else:
            while items and not (label_x > items[-1]["label_x"] + 5 or items[-1]["colon"]):
                items.pop()
        comp = emit(value, label, words, page, "item")
        items.append(dict(family=fam, value=value, label_x=label_x, text_x=text_x,
                          colon=colon, comp=comp))

    rank1 = None
    rank2 = None
    for p, lines in pages:
        order = reading_order(p, lines)
        for ln, band in order:
            text, left = ln["text"], ln["left"]
            if (p, ln["top"]) in WRAP_LINES:
                continue  # merged into the heading it continues
            # band / cell changes inside tables
            if band != state["band"]:
                state["band"], state["cell"] = band, ln["cell"]
                close_cell_subheads()
                del items[:]
            elif band is not None and ln["cell"] != state["cell"]:
                state["cell"] = ln["cell"]
                close_cell_subheads()
                while items and not items[-1].get("anchor"):
                    items.pop()
            key = (p, ln["top"])
            styled = (ln["styled"] and left <= 101 and not ln["bullet"]) or key in EXTRA_HEADINGS
            if styled and re.match(r"^\d{1,2}\.\s", text) and p not in (31, 32, 33):
                styled = False  # a numbered list item printed in bold (p.8 Contents 5., 8.)
            n = norm(text)
            if styled and not not_heading(p, text) and not any(n.startswith(s) for s in SUBTITLES):
                title = text
                if key in WRAPS:
                    cont = [l["text"] for l in lines
                            if l["cell"] == ln["cell"] and l["top"] in WRAPS[key]]
                    assert len(cont) == len(WRAPS[key]), key
                    title = squeeze(" ".join([text] + cont))
                n = norm(title)
                font = ln["font"]
                # rank 1: page titles
                if font in PAGE_TITLE_FONTS or (font == "54" and n.startswith("SECTION")):
                    if rank1 is not None and n == rank1:
                        continue  # running repeat of the open page title
                    if rank1 is not None and n.startswith(rank1) and n != rank1:
                        open_heading(2, "{%s}" % title, "", title, p)
                        rank2 = n
                        continue
                    m = re.match(r"^(SECTION \d+):\s*(.*)$", title)
                    if m:
                        open_heading(1, m.group(1), m.group(1) + ":", m.group(2), p)
                    else:
                        open_heading(1, "{%s}" % title, "", title, p)
                    rank1, rank2 = n, None
                    continue
                # rank 2: part headings and numbered general conditions
                m = re.match(r"^(\d{1,2})\.\s+(.*)$", title)
                if any(n.startswith(k) for k in PART_HEADINGS) or (m and p in (31, 32, 33)):
                    if n == rank2:
                        continue  # running repeat of the open part heading
                    rank2 = n
                    mp = re.match(r"^(Part [A-Z]):\s*(.*)$", title)
                    if mp:
                        open_heading(2, mp.group(1), mp.group(1) + ":", mp.group(2), p)
                    elif m:
                        open_heading(2, m.group(1), m.group(1) + ".", m.group(2), p)
                    else:
                        open_heading(2, "{%s}" % title, "", title, p)
                    continue
                # cell sub-headings
                if n in CELL_SUBHEADS:
                    open_heading(4, "{%s}" % title, "", title, p, cell_sub=True)
                    continue
                rank = next((r for k, r in RANKS.items() if n.startswith(k)), 3)
                if p == 8:
                    rank = 3  # `CLAIMS ADMINISTRATORS` on p.8 is the defined term
                ms = re.match(r"^(Step \d+):\s*(.*)$", title)
                mu = re.match(r"^([A-Z])\.\s+(.*)$", title)
                mn = re.match(r"^(\d)\s+(.*)$", title)
                if ms:
                    open_heading(5, ms.group(1), ms.group(1) + ":", ms.group(2), p)
                elif mu:
                    open_heading(3, mu.group(1), mu.group(1) + ".", mu.group(2), p)
                elif mn:
                    open_heading(3, mn.group(1), mn.group(1), mn.group(2), p)
                else:
                    open_heading(rank, "{%s}" % title, "", title, p)
                continue
            # items
            lab = split_label(text) if not ln["bullet"] else None
            if lab:
                label, value, rest = lab
                toks = tokens(ln)
                label_x = toks[0][0]
                lab2 = split_label(rest)
                words = " ".join(rest.split()[:8])
                text_x = toks[1][0] if len(toks) > 1 else left + 20
                open_item(value, label, words, p, label_x, text_x, rest.rstrip().endswith(":"))
                if band is not None and ln["cell"] == 0 and p in CAUSE_PAGES and value.isdigit() \
                        and len(items) == 1:
                    items[-1]["anchor"] = True
                if lab2:
                    label2, value2, rest2 = lab2
                    text2_x = toks[2][0] if len(toks) > 2 else text_x + 20
                    open_item(value2, label2, " ".join(rest2.split()[:8]), p, text_x,
                              text2_x, rest2.rstrip().endswith(":"))
                continue
            # text and bullet lines close items
            if ln["bullet"]:
                bx = left
                while items and items[-1]["label_x"] >= bx + 3 and not items[-1].get("anchor"):
                    items.pop()
            elif key not in KEEP_OPEN:
                while items and left < items[-1]["text_x"] - 8 and not items[-1].get("anchor"):
                    items.pop()
            if items:
                items[-1]["colon"] = text.rstrip().endswith(":")
    return rows


def main():
    rows = build(load())
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r[:4]) + "\n")
    heads = sum(1 for r in rows if r[4] == "heading")
    print("%d rows (%d headings, %d items) -> %s" % (len(rows), heads, len(rows) - heads, OUT),
          file=sys.stderr)


if __name__ == "__main__":
    main()

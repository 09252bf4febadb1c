#!/usr/bin/env python3
"""Ground-truth outline of the AXA "Buy to Let" landlord policy booklet (April 2025).

AXA Insurance UK plc, "Buildings and contents insurance for landlords - Your policy
booklet - AXA Buy to Let", print code APLD092P-R (04/25); 50 A4-ish pages, two columns,
untagged (InDesign).  Independent of stream_chunker: reads cache/NAME.pdf with poppler's
`pdftohtml -xml -i` only.

Lines.  The runs of each page are split into two columns at half the page width, grouped
into physical lines (tops within 3 px) and read column 0 then column 1.  The blue square
bullets (ZapfDingbats `n`, font 17, set 6 px below their line) are not text; a line that
has one is a bulleted line.  Column margins alternate: even pages 51 / 324 px, odd pages
68 / 341 px; every indent below is the line's first visible run minus its column margin.

Rows, by the font of the line (fontspec ids of this file):
  rank 1  font 5  (SourceSansPro-Semibold 26 blue): the page titles, which are exactly the
          19 entries of the printed contents list (p.3), e.g. `General conditions`.
  rank 2  font 6  (Semibold 18 blue): section headings - unnumbered (`You should:`,
          `What is the most we will pay?`), numbered (`1 Providing accurate and complete
          information` -> label `1`), and prefixed (`Cause 1 - Fire, smoke, ...`,
          `Cover 14 - Debris removal ...` -> label and path component `Cause 1`, `Cover 14`).
          Exception: `What is covered` / `What is not covered` (also font 6) are rank 3 when
          the open rank-2 heading is a `Cause n` / `Cover n` (they are its two halves);
          elsewhere (Using this booklet, Employer's liability, Legal expenses) rank 2.
  rank 3  font 18 (Semibold 14 black) alone on its line: sub-headings (`Statutory
          cancellation rights`) and the numbered general exclusions (`1  Riot/civil
          commotion` -> label `1`).
  rank 3  on the two definitions lists (pp. 9-11 and p. 40): a line wholly in font 15
          (Semibold 14 blue) at the column margin, not bulleted = a defined term `{Term}`,
          child of `Meanings that apply throughout your policy` / `Definitions`.
  items   a line whose first visible run is a font-15 label (`1`, `a`, `iv`) followed by
          text.  Nesting by indent: a label closes every open item whose label is at the
          same or a deeper indent; a text line (not a label) closes every open item whose
          text indent is to the right of it (a sentence back at the margin, like `arising
          from:` or `property under:`, ends the list; the a/b/c that follow are children of
          the heading, not of the last numbered item).  Items live under the latest
          heading; a heading closes all items.
Consecutive heading lines of one font in one column are one wrapped heading (font 6: gap
at most 22 px; font 18: at most 18 px).  Depth follows the SPEC 5c rank rule: a heading
closes every open heading of the same or a lower rank and becomes the child of the nearest
open heading of a higher rank.  The path component is `{Title}` for an unlabelled heading,
the label for a numbered heading/item, `Cause n`/`Cover n` for the prefixed headings; a
repeated path gets `~n` on its last component.  Item text = the words after the label and
on its continuation lines (same column, at the item's text indent), at most 8 words,
stopping at a paragraph gap or a nested label.

Not rows: cover (p.1), the contents list (p.3), back cover (p.50), running section headers
(font 4, top < 45), page numbers and page footers (top >= 840: `Defined terms are
highlighted ...`, `To make a claim under this section please call ...`), the phone numbers
set at the right of the p.2 headings, italic notes (fonts 16/19), bulleted lines, body
text that starts with the word `a` or a number (font 14, not a label; see RAW_NOT_LABELS).
The booklet has no tables of benefits.
Writes NAME.expected.tsv next to this script.
"""
import os
import re
import subprocess
import xml.etree.ElementTree as ET

NAME = "axa-buy-to-let-2025"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

BULLET_FONT = "17"
TITLE_FONT = "5"        # rank 1
SECTION_FONT = "6"      # rank 2 (or 3 for What is (not) covered under a Cause/Cover)
SUBHEAD_FONT = "18"     # rank 3
LABEL_FONT = "15"       # item labels and defined terms (semibold blue)
MARGINS = {0: (51, 324), 1: (68, 341)}   # page parity -> column margins
TOL = 4

# ---- hand decisions ----
# Pages that are not part of the outline: cover, printed contents list, back cover.
SKIP_PAGES = {1, 3, 50}
# Pages whose whole-line font-15 margin lines are defined terms (the two definitions lists).
DEFINITION_PAGES = {9, 10, 11, 40}
# p.2 "Helpful phone numbers": the right column holds only the phone numbers printed at
# the right end of the heading lines of the left column (part of those headings).
SKIP_COLUMNS = {(2, 1)}
# Headings that are the two halves of a Cause/Cover block (rank 3 there, else rank 2).
HALF_HEADINGS = {"What is covered", "What is not covered"}
# Lines of `pdftotext -raw` that start like a label but are not rows (checked by hand; the
# other such lines are the 123 ZapfDingbats bullets `n` and the even-page footer
# `N Defined terms are highlighted ...`).  Body text (font 14/4) starting with the article
# `a` or with a number:  (page, start of the line)
RAW_NOT_LABELS = [
    (2, "a new user."), (7, "a Gas Safe/Oftec/Hetas certified engineer,"),
    (10, "48 knots (55mph)* or"), (14, "a temperature no less than 10ºC"),  # 7.b wraps
    (15, "a payment that is due, we will contact"),
    (19, "a professional customer representative,"),
    (21, "a quotation, a repair or a replacement."), (32, "15 up to the limits shown."),
    (38, "a claim i.e. the cost of telephone"), (40, "33 St Mary Axe, London EC3A 8AA,"),
    (44, "a 51% or higher prospect of success"), (45, "a simple explanation of how we use"),
]
# Wrapped heading lines are merged when closer than this many px (by font).
WRAP_GAP = {SECTION_FONT: 22, SUBHEAD_FONT: 18}

LABEL_RUN_RE = re.compile(r"^(\d{1,2}|[a-z]|[ivx]+)(?:\s+(\S.*))?$")
HANG = 26   # the booklet's hanging indent: an item's text starts 25-26 px right of its label
NUMBERED_RE = re.compile(r"^(\d{1,2})\s+(\S.*)$")
PREFIXED_RE = re.compile(r"^((?:Cause|Cover)\s+\d+)\s*[–-]\s*(.*)$")
MAX_WORDS = 8
# Lines of one paragraph are 15-17 px apart, paragraphs 21-23 px: an item's first words
# stop at a paragraph break (a run-in title such as `2 Disputes` ends on its line).
PARA_GAP = 19


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    """[(page, [line, ...])]; a line is dict(col, top, left, runs (visible), all (with
    the space runs), bullet, text)."""
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, check=True).stdout
    root = ET.fromstring(xml)
    pages = []
    for p in root.iter("page"):
        n = int(p.get("number"))
        half = int(p.get("width")) // 2
        cols = {0: [], 1: []}
        for te in p.iter("text"):
            run = dict(top=int(te.get("top")), left=int(te.get("left")),
                       font=te.get("font"), s="".join(te.itertext()))
            cols[0 if run["left"] < half - 5 else 1].append(run)
        lines = []
        for c in (0, 1):
            runs = sorted(cols[c], key=lambda r: (r["top"], r["left"]))
            bullets = [r["top"] for r in runs if r["font"] == BULLET_FONT]
            grouped = []
            for r in runs:
                if r["font"] == BULLET_FONT:
                    continue
                if grouped and abs(grouped[-1][0]["top"] - r["top"]) <= 3:
                    grouped[-1].append(r)
                else:
                    grouped.append([r])
            for g in grouped:
                g.sort(key=lambda r: r["left"])
                vis = [r for r in g if r["s"].strip()]
                if not vis:
                    continue
                top = g[0]["top"]
                lines.append(dict(col=c, top=top, left=vis[0]["left"], runs=vis, all=g,
                                  bullet=any(0 <= b - top <= 9 for b in bullets),
                                  text=norm("".join(r["s"] for r in g))))
        pages.append((n, lines))
    return pages


def classify(pages):
    """Yield events: ('h', rank, title, page, font) and ('item', offset, text_offset,
    label, words, page) and ('text', offset, page)."""
    events = []
    for n, lines in pages:
        if n in SKIP_PAGES:
            continue
        margins = MARGINS[n % 2]
        i = 0
        while i < len(lines):
            ln = lines[i]
            i += 1
            if (n, ln["col"]) in SKIP_COLUMNS:
                continue
            if ln["top"] >= 840:
                continue                      # page number / page footer
            first = ln["runs"][0]
            if ln["top"] < 45 and first["font"] != TITLE_FONT:
                continue                      # running section header
            fonts = {r["font"] for r in ln["runs"]}
            off = ln["left"] - margins[ln["col"]]
            if first["font"] == TITLE_FONT:
                events.append(("h", 1, ln["text"], n, TITLE_FONT))
                continue
            if fonts == {SECTION_FONT} or fonts == {SUBHEAD_FONT}:
                font = first["font"]
                title = ln["text"]
                while i < len(lines):
                    nx = lines[i]
                    if nx["col"] != ln["col"] or {r["font"] for r in nx["runs"]} != {font} \
                            or nx["top"] - lines[i - 1]["top"] > WRAP_GAP[font]:
                        break
                    title = norm(title + " " + nx["text"])
                    i += 1
                events.append(("h", 2 if font == SECTION_FONT else 3, title, n, font))
                continue
            if n in DEFINITION_PAGES and fonts == {LABEL_FONT} and abs(off) <= TOL \
                    and not ln["bullet"]:
                events.append(("h", 3, ln["text"], n, LABEL_FONT))
                continue
            mlab = LABEL_RUN_RE.match(first["s"].strip())
            if first["font"] == LABEL_FONT and mlab and (mlab.group(2) or len(ln["runs"]) > 1):
                lab = mlab.group(1)
                after = ln["all"][ln["all"].index(first) + 1:]   # with the space runs
                if mlab.group(2):     # label and text in one run (`2 landslip`)
                    text_left = ln["left"] + HANG
                    rest = [mlab.group(2)] + [r["s"] for r in after]
                else:
                    text_left = ln["runs"][1]["left"]
                    rest = [r["s"] for r in after]
                words = norm("".join(rest)).split()
                j = i
                while len(words) < MAX_WORDS and j < len(lines):
                    nx, prev = lines[j], lines[j - 1]
                    nf = nx["runs"][0]
                    if nx["col"] != ln["col"] or abs(nx["left"] - text_left) > TOL \
                            or nx["bullet"] or nx["top"] >= 840 \
                            or nx["top"] - prev["top"] > PARA_GAP \
                            or (nf["font"] == LABEL_FONT and LABEL_RUN_RE.match(nf["s"].strip())):
                        break
                    words += nx["text"].split()
                    j += 1
                events.append(("item", off, text_left - margins[ln["col"]], lab,
                               " ".join(words[:MAX_WORDS]), n))
                continue
            events.append(("text", off, n))
    return events


def build(events):
    rows = []
    heads = []     # (rank, component, title)
    items = []     # (label offset, text offset, component)
    seen = {}

    def add(parent, comp, label, title, page):
        base = parent + (comp,)
        k = seen.get(base, 0) + 1
        seen[base] = k
        if k > 1:
            comp = "%s~%d" % (comp, k)
        rows.append((".".join(parent + (comp,)), label, title, page))
        return comp

    counts = {"h": 0, "item": 0}

    for ev in events:
        if ev[0] in counts:
            counts[ev[0]] += 1
        if ev[0] == "h":
            _, rank, title, page, font = ev
            if font == SECTION_FONT and title in HALF_HEADINGS:
                open2 = [h for h in heads if h[0] == 2]
                if open2 and PREFIXED_RE.match(open2[-1][2]):
                    rank = 3
            items = []
            while heads and heads[-1][0] >= rank:
                heads.pop()
            m = PREFIXED_RE.match(title)
            mn = NUMBERED_RE.match(title)
            if m and font == SECTION_FONT:
                comp, label, text = m.group(1), m.group(1), m.group(2)
            elif mn and font in (SECTION_FONT, SUBHEAD_FONT):
                comp, label, text = mn.group(1), mn.group(1), mn.group(2)
            else:
                comp, label, text = "{" + title + "}", "", title
            comp = add(tuple(h[1] for h in heads), comp, label, text, page)
            heads.append((rank, comp, title))
        elif ev[0] == "item":
            _, off, toff, lab, words, page = ev
            while items and items[-1][0] >= off - TOL:
                items.pop()
            parent = tuple(h[1] for h in heads) + tuple(it[2] for it in items)
            comp = add(parent, lab, lab, words, page)
            items.append((off, toff, comp))
        else:
            _, off, page = ev
            while items and items[-1][1] > off + TOL:
                items.pop()
    return rows, counts


def main():
    rows, counts = build(classify(load()))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(len(rows), "rows (%d headings, %d items) ->" % (counts["h"], counts["item"]), OUT)


if __name__ == "__main__":
    main()

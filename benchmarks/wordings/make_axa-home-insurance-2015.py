#!/usr/bin/env python3
"""Ground-truth outline of the AXA Home Insurance policy set, form ADH 15.10a (UK, 2015).

The PDF is AXA Insurance UK plc's specimen "full wording for all the covers we offer": the
AXA home sections (Buildings, Contents, Personal Possessions), the shared Essential
Information, two small optional covers (Bicycles, Student) and two wordings of other
insurers bound in as optional extras: Home Assistance (Inter Partner Assistance / AXA
Assistance) and Family Legal Protection (Arc Legal Assistance / IPA), each with its own
definitions, conditions and complaints procedure. Numbering restarts in every part and in
several divisions of a part, so the eight parts are the top-level rows.

Independent of stream_chunker: reads cache/NAME.pdf with poppler's `pdftohtml -xml -i`
(text pieces with position, font id and <b>), drops the cover and contents pages (1-2) and
the footer (`ADH 15.10a`, page number), and groups pieces into lines.

Reading order. Pages 3-18 are a two-column table (`What your policy covers:` |
`What your policy does not cover:`); pieces at x >= 455 are the right column. A table row
pairs a cover or cause (left) with its exclusions (right), so the page is read in bands:
a band starts at a left-column heading or a left-column first-level label (x <= 100); its
left lines are read first, then the right-column lines that start at or below the band's
top. Right-cell lists hang under the band's first row (the cover `13.` for its exclusions
a)-j)); where the band starts at a heading (the Contents intro, Personal Possessions) they
hang under that heading. Other pages are one column, read top to bottom.

Heading ranks (a line wholly in bold, unless a hand table says otherwise):
  rank 1  font 3 (Arial bold 27): the eight part titles (`Buildings Insurance`, ...
          `Family Legal Protection (optional extra)`) = the contents list of p.2.
  rank 2  font 3 `Cover` / `Causes` (the grey table bars inside Buildings and Contents,
          listed under them in the contents); font 20 (Arial bold 24) and font 32 (Arial
          bold 21): Essential Information's divisions, Home Assistance's and Family Legal
          Protection's capitals and bar headings.
  rank 3  font 6 (Arial bold 18): sub-headings (`Changes in your circumstances`,
          `Making a claim`, `Accidental Damage (optional extra)`); font 32 `Cover N – ...`
          (prefixed label, under `COVER`) and HOW TO MAKE A CLAIM / MAKING A COMPLAINT /
          AUTHORISATION (under CUSTOMER SERVICES INFORMATION) by RANK_OVERRIDE.
  rank 4  font 29 (`Statutory cancellation rights`); `What is insured:` /
          `What is not insured:` (font 6, under `Cover N –`) by RANK_OVERRIDE.
  Lines in the body-bold face (font 9) or plain that are headings are in EXTRA_HEADINGS
  with their rank; wholly bold lines that are not headings are in NOT_HEADINGS; the script
  stops on a short wholly bold line that is in neither. A heading closes open items and
  headings of its rank or lower.
Defined terms: in the three definitions tables (Essential Information `Definitions`, the
untitled Home Assistance list, Family Legal Protection `DEFINITIONS`) a bold term in the
term column is a `{Term}` heading one rank under its table's heading; a term wrapped on two
lines is joined.
Items: a line starting with a label (`1.`, `a)`, `a.`, `a.)`, `i)`, `i.`, `i.)`) is an item;
its parent is found by the label's x position: deeper than the open item -> child, within
12 px -> sibling. Path component = the label without punctuation; a repeated component
under one parent gets `~2`. First words = the text after the label on its line (a bold
title when the line is a bold `N.  Title`), cut at 60 characters.
Writes NAME.expected.tsv beside this script.
"""
import html
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "axa-home-insurance-2015"
PDF = HERE / "cache" / f"{NAME}.pdf"
OUT = HERE / f"{NAME}.expected.tsv"

TABLE_PAGES = range(3, 19)   # the covers | does-not-cover table pages
COL_SPLIT = 455              # x of the right table column (pdftohtml units)
FIRST_PAGE = 3               # p.1 cover, p.2 contents list: not rows
TOL = 12                     # label indents within 12 px are siblings

# Font id -> heading rank, for lines wholly in bold.
FONT_RANK = {"3": 1, "20": 2, "32": 2, "6": 3, "29": 4}
# Rank by text where the font alone does not say it.
RANK_OVERRIDE = {
    "Cover": 2, "Causes": 2,              # grey table bars in Buildings/Contents (font 3)
    "What is insured:": 4,                # Family Legal Protection, under `Cover N –`
    "What is not insured:": 4,
    "HOW TO MAKE A CLAIM": 3,             # under CUSTOMER SERVICES INFORMATION (same font,
    "MAKING A COMPLAINT": 3,              # which heads them and has no text of its own)
    "AUTHORISATION": 3,
}
PREFIXED = re.compile(r"^(Cover \d+ –)\s*(.*)$")   # `Cover 1 – Consumer Pursuit`: rank 3
# Body-bold (font 9) or plain own-line headings: (page, text) -> rank.
EXTRA_HEADINGS = {
    (17, "What is covered"): 2,                    # plain, heads Personal Possessions 1.-2.
    (22, "How to opt-out"): 4,                     # under Automatic Renewals
    (29, "The first thing you must do:"): 3,       # plain; parallel to `What you must not do:`
    (29, "What you should do in an emergency"): 3,
    (30, "Our promise"): 3,
    (39, "Parts availability"): 3,                 # plain, inside the General Conditions box
    (40, "Important information"): 3,
    (40, "Cancelling your cover"): 3,
    (40, "Additional cancellation provisions"): 3,
    (43, "Personal Information"): 3,               # plain, under Data Protection
    (44, "Making your complaint"): 3,
    (45, "Our promise to you"): 3,
    (46, "Legal Helpline"): 3,                     # under ASSISTANCE HELPLINE SERVICES
    (46, "Additional Legal Services"): 3,
    (56, "Data Protection Act"): 4,                # under HOW TO MAKE A CLAIM
    (57, "Making your complaint"): 4,              # under MAKING A COMPLAINT
    (57, "Our promise to You"): 4,
    (58, "Compensation"): 4,
}
# Wholly bold lines that are not headings: (page, start of text).
NOT_HEADINGS = {
    (5, "Arising from:"),                  # lead-in inside cover 6
    (8, "unfurnished"), (14, "unfurnished"),   # wrapped bold defined word
    (22, "By purchasing this policy"), (22, "means we are authorised"),
    (22, "account every year"),            # bold Tahoma paragraph (font 26)
    (24, "Exclusions 1-4 above do not apply"),  # bold sentence inside General Exclusions
    (29, "Bicycles"),                      # bold bullet in the list of covers
    (29, "We recommend that you check"),   # bold italic sentence (font 22)
    (49, "Claims:"), (50, "Claims:"), (51, "Claims:"), (52, "Claims:"), (53, "Claims"),
    (50, "Costs to pursue a Legal Action for damages"),   # bold body text of Cover 4
    (50, "injury or death against the person"),
    (58, "IPA address details are:"),      # lead-in to an address
}
SUBTITLE = re.compile(r"^Your ?policy schedule will show")       # under a part title
TABLE_BAR = re.compile(r"^What your policy (does not )?covers?:")  # column header bars
# Definitions tables: page -> (x of the term column, x where the definition text starts).
DEF_COLUMNS = {26: (81, 265), 27: (81, 265), 28: (81, 265),
               38: (100, 276), 39: (100, 276),
               47: (81, 302), 48: (81, 302), 49: (81, 302)}
DEF_HEADINGS = {"Definitions", "DEFINITIONS", "Home Assistance (optional extra)"}

LABEL = re.compile(r"^(\d{1,2}\.(?=\s|[A-Z])|[a-z]\.\)|(?:i|ii|iii|iv|v|vi|vii)\.\)"
                   r"|[a-z]\)|(?:ii|iii|iv|vi|vii)\)|(?:ii|iii|iv|vi|vii)\.(?=\s)"
                   r"|[a-z]\.(?=\s|[A-Za-z]))\s*")
NOT_LABEL = re.compile(r"^(e\.g\.|i\.e\.)")


def pieces(xml):
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        page = int(pm.group(1))
        if page < FIRST_PAGE:
            continue
        out = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            top, left, width, font, raw = m.groups()
            text = html.unescape(re.sub(r"<.*?>", "", raw))
            if not text.strip():
                continue
            if font in ("1", "2") and int(top) > 1150:
                continue  # footer: form number ADH 15.10a and page number
            col = 1 if page in TABLE_PAGES and int(left) >= COL_SPLIT else 0
            out.append(dict(page=page, top=int(top), left=int(left), right=int(left) + int(width),
                            font=font, bold="<b>" in raw, text=text, col=col))
        yield page, out


def make_lines(frags):
    frags = sorted(frags, key=lambda a: (a["col"], a["top"], a["left"]))
    lines = []
    for a in frags:
        if lines and lines[-1][0]["col"] == a["col"] and abs(lines[-1][0]["top"] - a["top"]) <= 4:
            lines[-1].append(a)
        else:
            lines.append([a])
    out = []
    for ln in lines:
        ln.sort(key=lambda a: a["left"])
        out.append(ln)
    # a label printed as its own piece a few px above its text (`a.` / `fixed glass in:`)
    merged = []
    for ln in out:
        if merged and len(merged[-1]) == 1 and LABEL.fullmatch(merged[-1][0]["text"].strip() + " ") \
                and merged[-1][0]["col"] == ln[0]["col"] and 0 < ln[0]["top"] - merged[-1][0]["top"] <= 8:
            merged[-1] = merged[-1] + ln
        else:
            merged.append(ln)
    return merged


def join(frags):
    s = ""
    prev = None
    for a in frags:
        t = a["text"]
        if prev is not None and not s.endswith(" ") and not t.startswith(" ") \
                and a["left"] - prev["right"] > 1:
            s += " "
        s += t
        prev = a
    return re.sub(r"\s+", " ", s).strip()


def line_info(ln):
    real = [a for a in ln if a["text"].strip()]
    return dict(page=ln[0]["page"], top=ln[0]["top"], left=ln[0]["left"], col=ln[0]["col"],
                frags=real, text=join(real), bold=all(a["bold"] for a in real),
                font=real[0]["font"])


def reading_order(page, lines):
    """Yield (line, side) in reading order; side 'L', 'R' (right table cell) or 'B' (band start)."""
    infos = [line_info(l) for l in lines]
    if page not in TABLE_PAGES:
        for i in sorted(infos, key=lambda a: a["top"]):
            yield i, "L"
        return
    left = sorted([i for i in infos if i["col"] == 0], key=lambda a: a["top"])
    right = sorted([i for i in infos if i["col"] == 1], key=lambda a: a["top"])
    starts = [i["top"] for i in left if is_boundary(i)]
    edges = [-1] + starts + [10 ** 6]
    for b in range(len(edges) - 1):
        lo, hi = edges[b], edges[b + 1]
        for i in left:
            if lo <= i["top"] < hi:
                yield i, ("B" if i["top"] == lo else "L")
        for i in right:
            if lo - 4 <= i["top"] < hi - 4 or (b == 0 and i["top"] < hi - 4):
                yield i, "R"


def heading_rank(i):
    t = i["text"]
    if (i["page"], t) in EXTRA_HEADINGS:
        return EXTRA_HEADINGS[(i["page"], t)]
    if not i["bold"] or any(i["page"] == p and t.startswith(s) for p, s in NOT_HEADINGS):
        return None
    if SUBTITLE.match(t) or TABLE_BAR.match(t):
        return None
    if PREFIXED.match(t):
        return 3
    if t in RANK_OVERRIDE:
        return RANK_OVERRIDE[t]
    return FONT_RANK.get(i["font"])


def is_boundary(i):
    if i["col"] != 0:
        return False
    if (i["page"], i["text"]) not in EXTRA_HEADINGS and heading_rank(i) is not None:
        return True
    m = LABEL.match(i["text"])
    return bool(m) and i["left"] <= 100


def main():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", str(PDF)],
                         capture_output=True, text=True, check=True).stdout
    rows = []
    children = {}
    stack = []        # dicts: kind h/item/term, rank, x, path, title
    band_depth = None
    right_started = False
    last_term = None  # (row index, page, top) of the last term, for wrapped terms

    def add(parent, comp, label, words, page):
        seen = children.setdefault(parent, {})
        n = seen.get(comp, 0) + 1
        seen[comp] = n
        c = comp if n == 1 else f"{comp}~{n}"
        path = c if not parent else f"{parent}.{c}"
        rows.append(dict(path=path, label=label, words=words, page=page))
        return path

    def open_heading(rank, comp, label, title, page, kind="h"):
        while stack and (stack[-1]["kind"] == "item" or stack[-1]["rank"] >= rank):
            stack.pop()
        parent = stack[-1]["path"] if stack else ""
        path = add(parent, comp, label, title, page)
        stack.append(dict(kind=kind, rank=rank, x=None, path=path, title=title))

    def heading_title():  # nearest open heading that is not a defined term
        for s in reversed(stack):
            if s["kind"] == "h":
                return s
        return None

    for page, frags in pieces(xml):
        for i, side in reading_order(page, make_lines(frags)):
            t = i["text"]
            if side == "B":
                right_started = False
            if side == "R" and not right_started:
                right_started = True
                if band_depth is not None:
                    del stack[band_depth:]
            if SUBTITLE.match(t) or TABLE_BAR.match(t):
                continue
            m = LABEL.match(t)
            if m and not NOT_LABEL.match(t):
                lab = m.group(1)
                words = t[m.end():].strip()
                if len(words) > 60:
                    words = words[:60].rsplit(" ", 1)[0]
                x = i["left"]
                while stack and stack[-1]["kind"] == "item" and stack[-1]["x"] > x + TOL:
                    stack.pop()
                if stack and stack[-1]["kind"] == "item" and abs(stack[-1]["x"] - x) <= TOL:
                    stack.pop()
                parent = stack[-1]["path"] if stack else ""
                comp = re.sub(r"[.)(]", "", lab)
                path = add(parent, comp, lab, words, page)
                stack.append(dict(kind="item", rank=99, x=x, path=path, title=words))
                if side == "B":
                    band_depth = len(stack)
                continue
            rank = heading_rank(i)
            if rank is not None:
                pm = PREFIXED.match(t)
                if pm:
                    open_heading(rank, pm.group(1)[:-2], pm.group(1), pm.group(2), page)
                else:
                    open_heading(rank, "{%s}" % t, "", t, page)
                if side == "B":
                    band_depth = len(stack)
                continue
            # defined terms
            h = heading_title()
            if page in DEF_COLUMNS and h and (h["title"] in DEF_HEADINGS):
                tx, dx = DEF_COLUMNS[page]
                termf = [a for a in i["frags"] if a["left"] < dx - 5]
                if termf and abs(termf[0]["left"] - tx) <= 4 and termf[0]["bold"]:
                    term = join(termf)
                    if last_term and last_term[1] == page and 0 < i["top"] - last_term[2] <= 22:
                        # wrapped term: join to the previous one
                        r = rows[last_term[0]]
                        full = r["words"] + " " + term
                        parent = r["path"].rsplit(".", 1)[0] if "." in r["path"] else ""
                        children[parent].pop("{%s}" % r["words"])
                        children[parent]["{%s}" % full] = 1
                        r["words"] = full
                        r["path"] = (parent + "." if parent else "") + "{%s}" % full
                        stack[-1]["path"] = r["path"]
                        stack[-1]["title"] = full
                        last_term = (last_term[0], page, i["top"])
                        continue
                    hr = h["rank"] + 1
                    while stack and (stack[-1]["kind"] in ("item", "term")):
                        stack.pop()
                    parent = stack[-1]["path"] if stack else ""
                    path = add(parent, "{%s}" % term, "", term, page)
                    stack.append(dict(kind="term", rank=hr, x=None, path=path, title=term))
                    last_term = (len(rows) - 1, page, i["top"])
                    continue
            if i["bold"] and len(t) < 80 and not any(page == p and t.startswith(s)
                                                     for p, s in NOT_HEADINGS):
                sys.exit(f"unclassified bold line p.{page} top {i['top']}: {t!r} font {i['font']}")
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            fh.write(f"{r['path']}\t{r['label']}\t{r['words']}\t{r['page']}\n")
    print(f"{len(rows)} rows -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()

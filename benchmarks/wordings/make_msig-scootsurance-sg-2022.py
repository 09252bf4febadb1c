#!/usr/bin/env python3
"""Ground-truth outline of the Scootsurance Travel Insurance wording (MSIG Singapore, QSR022206).

Independent of stream_chunker: reads the PDF from the cache path with poppler's
`pdftohtml -xml -i` (word boxes with font ids and <b> for the bold face), groups the text
elements of each physical line into cell segments (a gap of more than 18 px starts a new
segment, so the left and right cells of the two-column benefit tables stay apart), and
walks the segments in reading order (top, then left).

Heading ranks (from the fontspec table; bold = <b>, family XQTCSZ+Calibri-Bold):
  rank 1  font 8 (15 px bold): `PART n:` and the unnumbered OUR PROMISE OF SERVICE,
          COVID-19 BENEFITS, USEFUL PROCEDURES (the tag tree's H1s).
  rank 2  font 9/15/18 (14 px bold) at the left margin: `SECTION n –`, bold numbered
          headings `1. Purchase of Travel Insurance` (Parts 4, 6, 7, 8, Useful procedures),
          the bold defined terms of PART 3's TERM/MEANING table, and the hand-listed
          unnumbered headings below.
  rank 3  the regular-weight row labels of the benefit tables (`When We will pay`,
          `What We will pay`, `What You must do`, `What is not covered`) and `Conditions`.
  items   `(a)`, `(i)`, `1.`, `5(a)` at the start of a segment, depth by the label stack
          rule (SPEC §5b/§6): continue an open level, or open one deeper with a first value;
          a first value printed at the indentation of the open level starts a second list
          at that level (PART 7 item 3: `(a)`–`(k)` then `1.`–`8.`).
Writes NAME.expected.tsv next to this script.
"""
import html
import os
import re
import subprocess
import sys

NAME = "msig-scootsurance-sg-2022"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

# ---- hand decisions (judgement calls, see NAME.source.json) ----
# Regions that are tables of amounts, not outline: skipped entirely.
#   PART 1 schedule of benefits (pp. 1-2, rows numbered 1..36 as table cells);
#   SECTION 1's Scale of Compensation table (p. 6, `1.`-`3.`, `a)`-`h)` are table rows).
SKIP = [(1, 530, 2, 860), (6, 320, 6, 730)]  # (page_from, top_from, page_to, top_to)
# Unnumbered headings named by hand with their rank (font alone does not decide these).
HAND_HEADINGS = {
    "MSIG Assist 24-hour hotline": 2,      # boxed call-out (font 8, centred) before SECTION 22
    "KRISFLYER MEMBER EXCLUSIVE BENEFITS": 1,  # group title over SECTIONS 31-36, beside COVID-19 BENEFITS
    # (the wording: "Section 26 – 30 covers claims due to COVID-19"; an independent review found it)
    "POLICY OWNERS’ PROTECTION SCHEME": 2,
    "Conditions": 3,                       # under the MSIG Assist call-out (p. 15)
}
SUBHEADS = {"When We will pay", "What We will pay", "What You must do", "What is not covered"}
# Bold lines that continue the heading above them (two-line headings / terms).
CONTINUATIONS = {"Expenses", "(APPLICABLE TO KRISFLYER MEMBER ONLY)", "ONLY)"}
DEF_PAGES = (3, 4, 5)


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, text=True, check=True).stdout
    pages = []
    for pg in re.finditer(r'<page number="(\d+)".*?</page>', xml, re.S):
        p = int(pg.group(1))
        els = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pg.group(0)):
            raw = m.group(5)
            t = html.unescape(re.sub(r"<.*?>", "", raw))
            if not t.strip():
                continue
            top, left, width = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if top > 1180:  # footer: "QSR022206   n of 28"
                continue
            els.append(dict(top=top, left=left, right=left + width, font=int(m.group(4)),
                            bold="<b>" in raw, text=t))
        # lines: same top within 3 px (superscripts like "rd" sit 1 px lower)
        els.sort(key=lambda e: (e["top"], e["left"]))
        lines = []
        for e in els:
            if lines and abs(lines[-1][0]["top"] - e["top"]) <= 3:
                lines[-1].append(e)
            else:
                lines.append([e])
        segs = []
        for ln in lines:
            ln.sort(key=lambda e: e["left"])
            cur = None
            for e in ln:
                if cur is not None and e["left"] - cur["right"] <= 18:
                    sep = "" if (cur["text"].endswith(" ") or e["text"].startswith(" ")
                                 or e["font"] == 16) else " "
                    cur["text"] += sep + e["text"]
                    cur["right"] = e["right"]
                    cur["bold_all"] = cur["bold_all"] and e["bold"]
                else:
                    cur = dict(page=p, top=ln[0]["top"], left=e["left"], right=e["right"],
                               font=e["font"], bold=e["bold"], bold_all=e["bold"],
                               text=e["text"])
                    segs.append(cur)
        for s in segs:
            s["text"] = re.sub(r"\s+", " ", s["text"]).strip()
        pages.extend(segs)
    return pages


def skipped(s):
    for p0, t0, p1, t1 in SKIP:
        if (s["page"], s["top"]) >= (p0, t0) and (s["page"], s["top"]) <= (p1, t1):
            return True
    return False


LABEL = re.compile(r"^(\((?:[a-z]{1,4})\)|\d{1,2}\.(?=\s|$)|\d\([a-z]\))\s*")


def family_and_value(lab):
    """Return list of (family, value) readings of a label."""
    if re.fullmatch(r"\d+\.", lab):
        return [("arabic.", int(lab[:-1]))]
    if re.fullmatch(r"\d\([a-z]\)", lab):
        return [("num(letter)", ord(lab[2]) - 96)]
    inner = lab[1:-1]
    out = []
    if len(inner) == 1:
        out.append(("(letter)", ord(inner) - 96))
    if re.fullmatch(r"[ivx]+", inner):
        vals = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8,
                "ix": 9, "x": 10}
        if inner in vals:
            out.append(("(roman)", vals[inner]))
    return out


def first_words(segs, i, after_label, n=8):
    """First <= n words of the item: its first line, continued onto the next lines only
    while the text runs on (next line starts in lower case)."""
    words = after_label.split()
    left = segs[i]["left"]
    j = i + 1
    while len(words) < n and j < len(segs):
        s = segs[j]
        if LABEL.match(s["text"]) or s["bold"] or s["left"] < left - 5 or s["text"] in SUBHEADS:
            break
        if not words or not s["text"][:1].islower():
            if words:
                break
        words += s["text"].split()
        j += 1
    return " ".join(words[:n])


def main():
    segs = load()
    rows = []
    heads = []   # stack of (rank, component)
    items = []   # stack of dict(fam, val, comp, left)
    seen = {}
    in_krisflyer = False

    def emit(comps, label, title, page):
        path = ".".join(comps)
        k = seen.get(path, 0) + 1
        seen[path] = k
        if k > 1:
            path += "~%d" % k
        rows.append((path, label, title, page, len(comps)))

    def push_head(rank, comp, label, title, page):
        nonlocal items
        while heads and heads[-1][0] >= rank:
            heads.pop()
        heads.append((rank, comp))
        items = []
        emit([c for _, c in heads], label, title, page)

    i = 0
    while i < len(segs):
        s = segs[i]
        t = s["text"]
        if skipped(s):
            i += 1
            continue
        # two-line bold headings / terms: already merged below
        if s["bold"] and t in CONTINUATIONS:
            i += 1
            continue
        # rank 1 headings
        if s["bold"] and s["font"] == 8 and s["left"] < 100:
            m = re.match(r"^(PART (\d+):)\s*(.*)$", t)
            if m:
                push_head(1, "PART " + m.group(2), m.group(1), m.group(3), s["page"])
            else:
                push_head(1, "{%s}" % t, "", t, s["page"])
            in_krisflyer = False
            i += 1
            continue
        if t in HAND_HEADINGS and (s["bold"] or t == "Conditions"):
            rank = HAND_HEADINGS[t]
            push_head(rank, "{%s}" % t, "", t, s["page"])
            in_krisflyer = t.startswith("KRISFLYER")
            i += 1
            continue
        m = re.match(r"^(SECTION (\d+) –)\s*(.*)$", t)
        if m and s["bold"]:
            title = m.group(3)
            j = i + 1
            while j < len(segs) and segs[j]["bold"] and segs[j]["text"] in CONTINUATIONS:
                title += " " + segs[j]["text"]
                j += 1
            push_head(2.5 if in_krisflyer else 2, "SECTION " + m.group(2), m.group(1),
                      title.strip(), s["page"])
            i += 1
            continue
        # bold numbered headings `1. Purchase of Travel Insurance` (font 15; PART 8: 18 + 15)
        m = re.match(r"^(\d{1,2}\.)\s*(.*)$", t)
        if m and s["bold"] and s["font"] in (15, 18) and s["left"] < 100:
            push_head(2, m.group(1)[:-1], m.group(1), m.group(2), s["page"])
            i += 1
            continue
        # defined terms of PART 3 (bold, left column of the TERM/MEANING table)
        if (s["page"] in DEF_PAGES and s["bold"] and s["left"] < 100 and heads
                and heads[0][1] == "PART 3" and t not in ("TERM",)):
            title = t
            # two-line term: the bold continuation is a later segment (after the first
            # line of the meaning cell)
            for j in range(i + 1, min(i + 4, len(segs))):
                if segs[j]["bold"] and segs[j]["text"] in CONTINUATIONS:
                    title += " " + segs[j]["text"]
                    break
                if segs[j]["bold"]:
                    break
            push_head(2, "{%s}" % title, "", title, s["page"])
            i += 1
            continue
        # rank 3: row labels of the benefit tables
        if t in SUBHEADS and s["left"] < 120:
            push_head(3.5 if in_krisflyer else 3, "{%s}" % t, "", t, s["page"])
            i += 1
            continue
        # labelled items
        m = LABEL.match(t)
        if m and heads:
            lab = m.group(1)
            rest = t[m.end():]
            readings = family_and_value(lab)
            placed = None
            # 1) continue an open level (deepest first)
            for depth in range(len(items) - 1, -1, -1):
                for fam, val in readings:
                    if items[depth]["fam"] == fam and val == items[depth]["val"] + 1:
                        placed = (depth, fam, val)
                        break
                if placed:
                    break
            if not placed:
                open_fams = {it["fam"] for it in items}
                for fam, val in readings:
                    if val == 1 and fam not in open_fams:
                        if items and s["left"] <= items[-1]["left"] + 3:
                            placed = (len(items) - 1, fam, val)   # second list, same level
                        else:
                            placed = (len(items), fam, val)
                        break
            if not placed:
                print("UNPLACED label", s["page"], t[:60], [it["comp"] for it in items],
                      file=sys.stderr)
                i += 1
                continue
            depth, fam, val = placed
            items = items[:depth]
            comp = lab[:-1] if lab.endswith(".") else lab
            items.append(dict(fam=fam, val=val, comp=comp, left=s["left"]))
            emit([c for _, c in heads] + [it["comp"] for it in items], lab,
                 first_words(segs, i, rest), s["page"])
            i += 1
            continue
        i += 1

    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for path, label, title, page, _ in rows:
            f.write("%s\t%s\t%s\t%d\n" % (path, label, title, page))
    print("rows", len(rows), file=sys.stderr)


if __name__ == "__main__":
    main()

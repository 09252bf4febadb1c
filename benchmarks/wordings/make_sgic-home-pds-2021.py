#!/usr/bin/env python3
"""Ground-truth outline of the SGIC Home Insurance PDS (G018225 04/21) with its SPDS (SPDS012 07/21).

Made from the PDF alone (never from stream_chunker): `pdftohtml -xml -i` gives every text line with its
font id; heading rank comes from the font (the PDF is tagged, but its tree has only P/Span, no H tags):

  rank 1  f4/f14 FSJoey-Heavy 51-54pt orange  section titles `1. Key details about your policy`, `Definitions`,
                                              SPDS title `Supplementary Product Disclosure Statement`
  rank 2  f17 FSJoey-Heavy 21pt orange        `Who's covered by your policy`; SPDS f7 23pt `Changes to your PDS`
  rank 3  f29 FSJoey-Heavy 17pt orange        `More than one person insured`, listed events, defined terms,
                                              `Claim 1 – ...`; f33 21pt white-on-orange box `Pet lover's pack`;
                                              SPDS f6 FSJoey 17pt `Change 1 – ...`
  rank 4  f19 AkzidenzGroteskBE (bold) 14pt   `Covered`, `Not covered`, `Conditions`, `Your contract` ...;
                                              SPDS f6 replacement-section headings
  items   `1.`-`4.` (f19 bold run-in, p. 66-67), `(a)`-`(g)` (body font), `Step N` (f20 white label boxes
          with an f19 title beside them)

Reading order: three columns per page (left < 300, < 570, else), top to bottom within a column.
Multi-line headings are joined (same font, same column, next line <= 50 units below).
Excluded by rule or by the explicit lists below: the cover (p1-2), the intro page (p6), the diagram of
p8 and the boxes of p7, the contents (p9-11), the index and notes (p90-103), table captions (`Table 2.1 – ...`)
and table cells, shaded call-out boxes (f27, f34, f19 indented at left 60-70/326-345), the running side tabs
(f28/f31), page numbers (f13), inline bold fragments inside a sentence.
"""
import html
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PDF = HERE / "cache" / "sgic-home-pds-2021.pdf"
TSV = HERE / "sgic-home-pds-2021.expected.tsv"

PAGES = set(range(3, 6)) | {7} | set(range(12, 90))
RANK = {"4": 1, "14": 1, "7": 2, "17": 2, "29": 3, "33": 3, "19": 4, "6": 3}

# hand corrections, each (page, top, left) of the first line of a heading candidate
EXCLUDE = {
    (3, 234, 51),                       # f6 inline bold inside the SPDS's first sentence
    (22, 137, 325), (22, 215, 325), (22, 391, 325),   # Table 2.2 cells
    (72, 104, 205), (72, 121, 51), (72, 121, 158), (72, 137, 51),    # bold words run into a sentence
    (86, 0, 0),
}
RANK_OVERRIDE = {
    (3, 488, 51): 4, (5, 168, 51): 4,   # SPDS: the replacement section's own heading under `Change N –`
    (7, 45, 51): 1,                     # `Home Insurance at a glance` starts the PDS proper after the SPDS
    (55, 185, 51): 3.5, (55, 93, 321): 3.5, (55, 93, 590): 3.5,   # the 3 covers inside `Pet lover's pack`
}


def lines():
    x = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", str(PDF)], capture_output=True, text=True).stdout
    out = []
    for pg in re.split(r'<page number="', x)[1:]:
        pn = int(pg.split('"')[0])
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="(\d+)" font="(\d+)">(.*?)</text>', pg):
            t, l, w, h, f, s = m.groups()
            s = html.unescape(re.sub(r"<[^>]+>", "", s))
            out.append(dict(p=pn, top=int(t), left=int(l), f=f, s=s))
    return out


def col(left):
    return 0 if left < 300 else (1 if left < 570 else 2)


def norm(s):
    return re.sub(r"\s+", " ", s.replace("\u00ad", "")).strip()


def candidates(L):
    by_page = {}
    for r in L:
        if r["p"] in PAGES:
            by_page.setdefault(r["p"], []).append(r)
    res = []
    for p in sorted(by_page):
        rows = sorted(by_page[p], key=lambda r: (col(r["left"]), r["top"], r["left"]))
        # step boxes: f20 `Step N` label with the f19 title on the same line to its right
        steps = [r for r in rows if r["f"] == "20" and re.match(r"Step \d", r["s"].strip())]
        used = set()
        for st in steps:
            title = min((r for r in rows if r["f"] == "19" and abs(r["top"] - st["top"]) <= 3 and r["left"] > st["left"]),
                        key=lambda r: r["left"])
            used.add(id(title))
            st["item"] = ("step", st["s"].strip(), norm(title["s"]))
        cur = None
        for r in rows:
            if id(r) in used:
                continue
            f, s = r["f"], r["s"]
            if "item" in r:
                res.append(dict(p=p, top=r["top"], left=r["left"], kind="step", label=r["item"][1], text=r["item"][2], c=col(r["left"])))
                cur = None
                continue
            m = re.match(r"\s*\(([a-g])\)\s+(.*)", s)
            if m and f == "18":
                res.append(dict(p=p, top=r["top"], left=r["left"], kind="alpha", label=f"({m.group(1)})", text=norm(m.group(2)), c=col(r["left"])))
                cur = None
                continue
            if f not in RANK or not norm(s):
                cur = None if f not in RANK else cur
                continue
            if p in (7,) and f != "17":
                continue
            if f == "19" and (norm(s).startswith("Table ") or 60 <= r["left"] <= 70 or 326 <= r["left"] <= 345):
                cur = None
                continue
            if (p, r["top"], r["left"]) in EXCLUDE:
                cur = None
                continue
            if (cur and cur["f"] == f and cur["c"] == col(r["left"]) and cur["p"] == p
                    and 0 < r["top"] - cur["last"] <= (55 if f in ("4", "14") else 22)):
                cur["text"] += " " + s
                cur["last"] = r["top"]
                continue
            cur = dict(p=p, top=r["top"], left=r["left"], f=f, kind="head", text=s, last=r["top"], c=col(r["left"]))
            res.append(cur)
        # f19 numbered run-in items were joined with their following lines above; fine: they are one heading
    for c in res:
        c["text"] = norm(c["text"])
    return res


LABEL = [
    (re.compile(r"^(\d)\.\s+(.*)$"), lambda m: (m.group(1) + ".", m.group(1), m.group(2))),
    (re.compile(r"^((Claim|Change) (\d+)) – (.*)$"), lambda m: (m.group(1) + " –", m.group(1), m.group(4))),
]


def words(s, n=8):
    return " ".join(s.split()[:n])


def build(C):
    stack = []   # (rank, component)
    seen = {}
    rows = []
    for c in C:
        if c["kind"] == "head":
            rank = RANK_OVERRIDE.get((c["p"], c["top"], c["left"]), RANK[c["f"]])
            label, comp, title = "", "{" + c["text"] + "}", c["text"]
            for rx, fn in LABEL:
                m = rx.match(c["text"])
                if m:
                    label, comp, title = fn(m)
                    break
            if label and label[0].isdigit() and c["f"] == "19":
                # numbered option inside `How we settle your buildings claim`: an item at rank 4
                title = words(title)
                rank = 4
            elif not label and rank == 4 and any(r == 4 and not k.startswith("{") for r, k in stack):
                rank = 4.5   # unlabelled bold heading inside numbered option 2 (p. 66-67)
            while stack and stack[-1][0] >= rank:
                stack.pop()
            stack.append((rank, comp))
        else:
            rank = 20 if c["kind"] == "alpha" else 19
            while stack and stack[-1][0] >= rank:
                stack.pop()
            label = c["label"]
            comp = label.strip("()").rstrip(".") if c["kind"] == "alpha" else label
            comp = label if c["kind"] == "step" else comp
            if c["kind"] == "alpha":
                comp = label        # keep parentheses, as the README's format says
            title = words(c["text"]) if c["kind"] == "alpha" else c["text"]
            stack.append((rank, comp))
        path = ".".join(k for _, k in stack)
        n = seen.get(path, 0) + 1
        seen[path] = n
        if n > 1:
            path += f"~{n}"
        rows.append((path, label, title, c["p"]))
    return rows


def main():
    C = candidates(lines())
    rows = build(C)
    with open(TSV, "w") as fh:
        fh.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            fh.write("\t".join(map(str, r)) + "\n")
    print(len(rows), "rows ->", TSV, file=sys.stderr)


if __name__ == "__main__":
    main()

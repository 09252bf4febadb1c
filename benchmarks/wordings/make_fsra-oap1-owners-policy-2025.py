#!/usr/bin/env python3
"""Ground-truth outline of the Ontario Automobile Policy (OAP 1) Owner's Policy, FSRA, July 1 2025.

Independent of stream_chunker: reads cache/NAME.pdf with poppler's `pdftohtml -xml -i`
(text runs with positions and font ids), groups the runs of each page into physical
lines (tops within 3 px) and walks them top to bottom (the wording is one column).

The wording is numbered decimally inside eight Sections (`1.1`, `1.4.1`, `7.4.2`), with
unnumbered own-line headings (defined terms, benefit names), captioned boxes (`Example`,
`Warning – Offences`), short labelled lists (`1.`, `A.`) and, in Section 8, the Statutory
Conditions: captions set above their condition (`Material Change in Risk` / `1. (1) ...`) or
above a sub-condition (`Refund of Premium Overpayment` / `(2) ...`).

Fonts (fontspec ids): 12 = `Section N` (21 px bold, white on a band; also the two chart
titles of pp. 6-7), 6 = Section titles and front-matter titles (30 px bold), 3 = Times bold
18 (every heading and label of the body, and bold sentences), 7 = Times regular 18 (body,
`Example` box captions), 15/11/4 = footer (`Page N`, `OAP1 (2025)`, `©`, roman page numbers).

Ranks (a row closes every open row of the same or a higher rank number and becomes the child
of the nearest one with a lower number, SPEC 5c):
  1  `Section N` (label `Section N`, title = the font-6 line after it) and the unlabelled
     front-matter titles `About This Policy`, `What Insurance is Required by Law`.
  2  `N.N Title` (bold label at the margin); the chart titles of pp. 6-7 (font 12); in
     Section 8 a caption followed by a condition number (`Material Change in Risk`).
  3  `N.N.N` (bold label): a heading when bold title words follow on its line (`1.6.1 Payment
     of Claims`), else a numbered paragraph whose first words are the row's text (`1.4.1 You
     agree ...`); in Section 8 the condition numbers `1.`-`13.`, `10.1` at the margin.
  4  unnumbered headings: the defined terms under 1.3 (bold at x 118, pp. 8-10), the benefit
     names under 4.2 (bold at x 149, pp. 31-32), box captions (`Example`, `Example #2 (you are
     fully responsible ...)` with its parenthesised second line, `Examples`, `Warning –
     Offences`: leaf rows, as the frame closes before the next row, except the p. 54
     `Examples` box whose numbered examples 1.-3. are its children), and in Section 8 a
     caption followed by a sub-condition `(n)` (child of the open condition number).
  5+ labelled items: in Sections 1-7 `1.`-`7.` and `A.`-`D.` (rank 5); in Section 8 the
     sub-conditions `(1)`, `(1.1)` (5), clauses `(a)` and the numbered `1.`-`4.` of condition
     12 (6), sub-clauses `(i)`, `(ii)` (7). Two labels on one line (`1. (1) The insured ...`)
     are two rows, the second one level deeper.
Path components: `Section N`; the last number of a decimal label (`Section 1.4.1` for 1.4.1);
the label without its dot for `1.`/`A.`; `(a)`, `(1)` as printed; `{Title}` for unlabelled
headings; a label with an inner dot writes it as `-` in the path (`(1.1)` -> `(1-1)`,
`10.1` -> `10-1`) so that the path still splits on dots; the label column keeps it as
printed. A repeated path gets `~n` on its last component.

Not rows: the cover (p. 1), the contents (pp. 3-5), the charts of pp. 6-7 (cells), the
chart of p. 17 with its caption, the cross-reference chart of pp. 67-68, footers, bold
sentences (notes, `Special Condition:` lines, the box text of p. 11), bullets.
Writes NAME.expected.tsv next to this script.
"""
import html
import os
import re
import subprocess
import sys

NAME = "fsra-oap1-owners-policy-2025"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

# ---- hand decisions ----
# Pages that hold no outline: cover, contents (printed ii-v is 2-5; 3-5 are the list),
# and the "Where It Appears" chart of statutory conditions (pp. 67-68).
SKIP_PAGES = {1, 3, 4, 5, 67, 68}
# Chart pages: only the page title (font 6) and the chart titles (font 12) are rows.
CHART_PAGES = {6, 7}
# The p. 17 chart "What Types of Coverage Extend to Other Automobiles?" (caption and
# cells, tops 640-1000) is a table inside 2.2, not outline.
TABLE_ZONES = {17: (640, 1000)}
# Zones where a wholly bold own-line line starting at x (within 3 px) is an unnumbered
# heading: (first page, top from, last page, top to, x) -> what they are.
HEADING_ZONES = {
    (8, 662, 10, 600, 118): "defined terms under 1.3 Definitions",
    (31, 700, 32, 1040, 149): "benefit names under 4.2 Types and Benefits",
    (58, 380, 66, 1040, 64): "statutory condition captions (marginal notes set above the text)",
}
# Captions of framed boxes (rank 4 leaf rows under the open numbered heading).
BOX_CAPTION = re.compile(r"^(Examples?( #\d)?\*?|Warning – Offences)$")
# Wholly bold lines that are text, not headings: (page, top from, top to) -> what they are.
# Each zone must hold at least one such line (checked).
NOT_HEADINGS = {
    (2, 765, 786): "closing sentence of About This Policy",
    (10, 650, 670): "boxed warning sentence in 1.4",
    (11, 432, 761): "body of the Warning – Offences box",
    (18, 395, 415): "`Special Condition:` sentence (2.2.1)",
    (19, 144, 165): "`Special Condition:` sentence (2.2.2)",
    (19, 480, 501): "`Special Conditions: ... apply:` introducing the list of 2.2.3",
    (21, 62, 83): "`Special Conditions: ... apply:` introducing the list of 2.2.4",
    (25, 203, 245): "boxed note under the Section 3 title",
    (25, 513, 534): "bold sentence in 3.2",
    (29, 491, 538): "bold sentence in 3.5",
    (31, 191, 233): "boxed note under the Section 4 title",
    (31, 492, 492): "first line of the bold sentence opening 4.2",
    (31, 636, 657): "bold sentence in 4.2",
    (35, 215, 256): "boxed note under the Section 5 title",
    (36, 320, 362): "`Note:` sentence in 5.2.3 (tagged H5, a sentence)",
    (43, 230, 272): "boxed note under the Section 6 title",
    (44, 63, 84): "`Note:` sentence in 6.2",
    (55, 658, 658): "bold sentence in 7.4.4",
    (58, 136, 219): "boxed note under the Section 8 number",
}
# Lines of the body that start like a label but continue a sentence (page, top).
CONTINUATIONS = {
    (61, 910),   # "... referred to in subcondition / (2.1) of statutory condition 9 ..."
    (64, 662),   # "... under sub condition / (1) for the reason of non-payment ..."
}
# Box captions are leaf rows (the box text is the caption's, the rows after the frame are
# not); only this box holds labelled items, which are its children: (page, caption).
BOX_OWNS_ITEMS = {(54, "Examples")}

DECIMAL = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?$")
ITEM = re.compile(r"^(\d+\.\d+|\d+\.|[A-D]\.|\(\d+(?:\.\d+)?\)|\([a-d]\)|\((?:i|ii|iii|iv)\))(?=\s|$)")
WORDS = 8


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, check=True).stdout.decode("utf-8")
    pages = []
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        n = int(pm.group(1))
        runs = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            top, left, width, font, raw = m.groups()
            text = html.unescape(re.sub(r"<.*?>", "", raw))
            if not text.strip():
                continue
            if font in ("15", "11") or (font == "4" and re.fullmatch(r"\s*[ivx]+\s*", text)):
                continue    # footer: Page N, OAP1 (2025), (c) King's Printer, roman numbers
            runs.append(dict(top=int(top), left=int(left), right=int(left) + int(width),
                             font=font, text=text))
        runs.sort(key=lambda r: (r["top"], r["left"]))
        lines = []
        for r in runs:
            if lines and abs(lines[-1][0]["top"] - r["top"]) <= 3:
                lines[-1].append(r)
            else:
                lines.append([r])
        out = []
        for ln in lines:
            ln.sort(key=lambda r: r["left"])
            text = ""
            for r in ln:
                if text and r["left"] - prev_right > 2:
                    text += " "
                text += r["text"]
                prev_right = r["right"]
            out.append(dict(page=n, top=ln[0]["top"], left=ln[0]["left"], runs=ln,
                            text=norm(text), fonts={r["font"] for r in ln}))
        pages.append((n, out))
    return pages


def is_bold_line(ln):
    return ln["fonts"] <= {"3"}


def zone_heading(ln):
    for (p0, t0, p1, t1, x) in HEADING_ZONES:
        if (p0, t0) <= (ln["page"], ln["top"]) <= (p1, t1) and abs(ln["left"] - x) <= 3:
            return True
    return False


def main():
    pages = load()
    flat = [ln for n, lines in pages if n not in SKIP_PAGES for ln in lines]
    used_not = set()
    rows = []
    stack = []        # (rank, component)
    seen = {}
    section = None

    def emit(rank, comp, label, title, page):
        while stack and stack[-1][0] >= rank:
            stack.pop()
        parent = ".".join(c for _, c in stack)
        base = (parent + "." if parent else "") + comp
        k = seen.get(base, 0) + 1
        seen[base] = k
        if k > 1:
            comp = "%s~%d" % (comp, k)
        path = (parent + "." if parent else "") + comp
        rows.append((path, label, title, page))
        stack.append((rank, comp))

    def first_words(i, after):
        words = after.split()
        j = i + 1
        base = flat[i]
        while len(words) < WORDS and j < len(flat) and flat[j]["page"] == base["page"]:
            nxt = flat[j]
            if ITEM.match(nxt["text"]) or DECIMAL.match(nxt["runs"][0]["text"].strip()) \
                    or nxt["fonts"] & {"6", "12"}:
                break
            words += nxt["text"].split()
            j += 1
        words = [w for w in words if w != "•"]     # bullets are not words of the text
        out = ""
        for w in words[:WORDS]:
            if len(out) + len(w) + 1 > 60:
                break
            out = (out + " " + w).strip()
        return out

    def item_rank(label, ln, first):
        if section == 8:
            if first and ln["left"] < 100 and re.fullmatch(r"\d+\.|\d+\.\d+", label):
                return 3                      # condition number
            if label.startswith("(") and label[1].isdigit():
                return 5                      # sub-condition
            if label.startswith("(") and label[1:-1] in ("i", "ii", "iii", "iv"):
                return 7
            return 6                          # (a) clauses, condition 12's 1.-4.
        return 5

    def comp_of(label):
        c = label[:-1] if label.endswith(".") else label
        return c.replace(".", "-")

    i = 0
    pending_section = None
    while i < len(flat):
        ln = flat[i]
        p, text = ln["page"], ln["text"]
        if p in CHART_PAGES and not ln["fonts"] & {"6", "12"}:
            i += 1
            continue
        z = TABLE_ZONES.get(p)
        if z and z[0] <= ln["top"] <= z[1]:
            i += 1
            continue
        # Section N (font 12) and its title (font 6)
        m = re.fullmatch(r"Section (\d)", text)
        if m and ln["fonts"] == {"12"}:
            pending_section = (int(m.group(1)), p)
            i += 1
            continue
        if ln["fonts"] == {"6"}:
            title = text
            while i + 1 < len(flat) and flat[i + 1]["fonts"] == {"6"} and flat[i + 1]["page"] == p \
                    and flat[i + 1]["top"] - flat[i]["top"] < 50:
                i += 1
                title = norm(title + " " + flat[i]["text"])
            if pending_section:
                section = pending_section[0]
                emit(1, "Section %d" % section, "Section %d" % section, title, pending_section[1])
                pending_section = None
            else:
                section = None
                emit(1, "{%s}" % title, "", title, p)
            i += 1
            continue
        if ln["fonts"] == {"12"}:        # chart titles of pp. 6-7
            emit(2, "{%s}" % text, "", text, p)
            i += 1
            continue
        # decimal labels N.N / N.N.N (bold)
        r0 = ln["runs"][0]
        m = DECIMAL.match(r0["text"].strip())
        if m and r0["font"] == "3" and section and section < 8:
            assert int(m.group(1)) == section, (p, text)
            rest_runs = [r for r in ln["runs"][1:] if r["text"].strip()]
            label = r0["text"].strip()
            comp = m.group(3) or m.group(2)
            rank = 3 if m.group(3) else 2
            if rest_runs and all(r["font"] == "3" for r in rest_runs):
                emit(rank, comp, label, norm(" ".join(r["text"] for r in rest_runs)), p)
            else:
                after = norm(" ".join(r["text"] for r in rest_runs))
                emit(rank, comp, label, first_words(i, after), p)
            i += 1
            continue
        # box captions (regular face, centred in a frame; Warning box caption bold)
        if BOX_CAPTION.match(text) and ln["left"] > 300:
            title = text
            if i + 1 < len(flat) and flat[i + 1]["page"] == p and flat[i + 1]["top"] - ln["top"] < 50 \
                    and re.fullmatch(r"\(.*\)", flat[i + 1]["text"]):
                i += 1
                title = title + " " + flat[i]["text"]
            emit(4, "{%s}" % title, "", title, p)
            if (p, title) not in BOX_OWNS_ITEMS:
                stack.pop()
            i += 1
            continue
        # wholly bold own-line lines: unnumbered headings by zone, else listed as text
        if is_bold_line(ln) and not ITEM.match(text):
            if zone_heading(ln):
                rank = 4
                if section == 8:
                    nxt = flat[i + 1]["text"]
                    if re.match(r"^\d+(\.\d+)?\.?\s", nxt):
                        rank = 2              # caption of a whole condition
                    else:
                        assert nxt.startswith("("), (p, text, nxt)
                        while stack and stack[-1][0] > 3:
                            stack.pop()       # caption of a sub-condition: under the condition
                emit(rank, "{%s}" % text, "", text, p)
                i += 1
                continue
            key = next((k for k in NOT_HEADINGS if k[0] == p and k[1] <= ln["top"] <= k[2]), None)
            if key is None:
                sys.exit("unlisted bold line p.%d top %d: %s" % (p, ln["top"], text))
            used_not.add(key)
            i += 1
            continue
        # labelled items
        m = ITEM.match(text)
        if m and section and (p, ln["top"]) not in CONTINUATIONS:
            label = m.group(1)
            rest = text[m.end():].strip()
            m2 = ITEM.match(rest) if section == 8 else None
            emit(item_rank(label, ln, True), comp_of(label), label, first_words(i, rest), p)
            if m2:
                label2 = m2.group(1)
                emit(item_rank(label2, ln, False), comp_of(label2), label2,
                     first_words(i, rest[m2.end():].strip()), p)
            i += 1
            continue
        i += 1
    missing = [k for k in NOT_HEADINGS if k not in used_not]
    if missing:
        sys.exit("NOT_HEADINGS entries not met: %r" % missing)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(len(rows), "rows ->", OUT)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Ground-truth outline of ICICI Lombard's "Arogya Sanjeevani Policy - Policy Wordings" (India).

IRDAI's standard individual/floater health product (UIN ICIHLIP20178V011920), 13 pages,
CorelDRAW 2018, untagged, no contents list. Independent of stream_chunker: reads the PDF
from the cache with poppler only.

Text and geometry: the words of `pdftotext -bbox` (points). Boldness: each word takes the
bold flag of the `pdftohtml -xml -i` text run that covers it (runs in <b>, font id 2 =
ZurichBT bold 14 px; the body is font id 3). Pages 1-9 are set in two columns (split at
x = 300 pt, column margins 35.4 / 310 pt); words are grouped into lines per column (same
yMin within 2 pt), column 0 read before column 1. Running header ("For Buy/ Renew ..."
banner, "Arogya Sanjeevani Policy" top right, y < 46 pt; the body starts at 46.7 pt), the cover title (p. 1, y < 110 pt)
and the footer "UIN : ..." (y > 800 pt) are dropped.

Rows, in reading order:
  * section   a bold line `N. TITLE` whose label stands at the column margin (offset < 6 pt):
              `1. PREAMBLE` ... `11. TABLE OF BENEFITS`; path `N`; depth 1.
  * decimal   a line starting with `N.M.` / `N.M.K.` (also glued to the next word, as in
              `3.10.Congenital`, or letter-spaced `3 . 5 .`): depth = number of its numbers;
              it closes everything below its parent (the section, or the decimal with one
              number fewer). Path component = the last number (4.1.1 under 4.1 -> `4.1.1`).
  * note      a bold line that is only `Note:` / `Notes:` -> heading `{Note:}`; its parent
              is given by hand (NOTE_PARENT) because its indent equals the decimal's own.
  * item      a line whose first word is `1.`, `a.`, `a)`, `A.`, `i.`, `i)`, `I.` (not a
              section): nested by the label's x offset from its column margin (0 / 13 / 27 /
              41 / 54 pt steps, the same in both columns, so a list that runs on into the
              next column or page keeps its level). An item closes open items at the same or
              a deeper offset (tolerance 4 pt); decimals, sections and notes are never closed
              by items (10.18 prints its items at the decimal's own indent, 5.'s `Notes:`
              items at the Notes line's indent). Component = label without `.`/`)`.
  * annexure  pages 11-12: `Annexure A` (prefixed top-level heading, no title printed, so
              the label is repeated as title) and its `List I` ... `List IV` headings
              (`List I –` + title).
Title column: a section/decimal whose words after the label on its first line are all bold,
or stand alone on that line (a paragraph gap of >= 13 pt follows before the clause's hanging
text), is a heading and gets that title (joined with a following all-bold line, 10.19
"... Premium / Rates"); otherwise (run-in defined terms `3.1. Accident means ...`, clauses in
body type) the first 8 words, continued over the item's hanging lines. Items the same: a
title alone on its line gives its text (3.10 a) "Internal Congenital Anomaly"), otherwise the
first 8 words.
Not rows: the cover title, "Explanation:" paragraphs, the two numbered tables (1.2's time
limits, 10.11's refund grid), every cell of 11. TABLE OF BENEFITS, the numbered item tables of
Annexure A (List I 1-68, II 1-37, III 1-23, IV 1-18) with their repeated p. 12 headers, and
the unheaded ombudsman address table on p. 13. One label printed mid-line (10.14 `iii.`) is a
row (INLINE).
A repeated path gets `~2` on its last component (the misnumbered `1.1.`/`1.2.` of section 9
against the later `9.1.`/`9.2.`). Hand decisions are the small tables below.
Writes NAME.expected.tsv next to this script.
"""
import html
import os
import re
import subprocess

NAME = "icicilombard-arogya-sanjeevani-2021"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

COL_SPLIT = 300.0          # pt
MARGIN = {0: 35.4, 1: 310.0}
TOL = 4.0

# ---- hand decisions ----
# Regions that are tables (cells numbered 1., 2. are not clauses): (page, col, y_from, y_to) pt.
TABLES = [
    (6, 1, 90.0, 185.0),    # 1.2 "No / Type of Claim / Prescribed Time limit" table (rows 1., 2.)
    (7, 1, 690.0, 800.0),   # 10.11 a) refund-of-premium grid
]
# Pages whose content is a table or an address list: only the listed kinds of line count.
TABLE_OF_BENEFITS_PAGE = 10   # only the `11. TABLE OF BENEFITS` section line; cells give no rows
ANNEXURE_PAGES = (11, 12)     # only `Annexure A` / `List N –` headings; item tables give no rows
SKIP_PAGES = {13}             # ombudsman CONTACT DETAILS / JURISDICTION table, no heading printed
# Continuation headers repeated at the top of p. 12 (same list continues): not new rows.
REPEATED_HEADERS = {(12, "Annexure A"), (12, "List II")}
# Parent (path) of each Note/Notes line, keyed (page, col): its indent equals the clause's.
NOTE_PARENT = {
    (3, 1): "4.1",     # after 4.1.1 v.: the notes (24 h minimum, proportionate deduction) are 4.1's
    (4, 0): "5",       # Notes i.-vii. of 5. CUMULATIVE BONUS
    (6, 1): "9.2~2",   # after 9.2 xiv): notes 1.-3. on bills/documents belong to 9.2 Documents
}
# Items hoisted out of the open item (their indent is deeper than 6.3 e), but the lists of
# 24- and 48-month conditions are 6.3's own, the "listed conditions" of 6.3 a)).
HOIST = {(5, 0, "i."), (5, 0, "ii.")}
# Letter-spaced first line of 3.5 (`3 . 5 . A n AY U S H H o s p i t a l ...`): printed title.
SPACED_TITLE = {(1, "3.5."): "An AYUSH Hospital is a healthcare facility wherein"}
# Bold unlabelled lines that are statements, not headings (p. 9 after 10.25).
NOT_HEADINGS = {"No loading shall apply on renewals based on individual claims experience.",
                "Insurance is the subject matter of solicitation."}
# A label printed inside a running line (10.14 ii. "... in respect of the policy, iii. It is
# hereby ..."): the item is real; inserted after the row whose path is the key.
INLINE = {"10.14.ii": ("10.14.iii", "iii.", 8)}

DEC_RE = re.compile(r"^(\d+(?:\.\d+)+)\.?$")
GLUED_RE = re.compile(r"^(\d+(?:\.\d+)+\.)([^\d\s]\S*)$")
SEC_RE = re.compile(r"^(\d+)\.$")
ITEM_RE = re.compile(r"^(\d+\.|[A-Za-z]\.|[a-z]\)|[ivxlIVXL]+\.|[ivxl]+\))$")
LIST_RE = re.compile(r"^(List (?:I|II|III|IV))\s*–\s*(.*)$")


def run(args):
    return subprocess.run(args, capture_output=True, check=True).stdout.decode("utf-8")


def load_runs():
    """page -> list of (top_px, left_px, right_px, bold)."""
    xml = run(["pdftohtml", "-xml", "-i", "-stdout", PDF])
    runs = {}
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        p = int(pm.group(1))
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="\d+" '
                             r'font="\d+">(.*?)</text>', pm.group(2)):
            top, left, width, t = int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
            runs.setdefault(p, []).append((top, left, left + width, t.strip().startswith("<b>")))
    return runs


def load_lines():
    runs = load_runs()
    bbox = run(["pdftotext", "-bbox", PDF, "-"])
    lines = []
    for pno, pm in enumerate(re.finditer(r"<page [^>]*>(.*?)</page>", bbox, re.S), 1):
        groups = {}
        for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                             r'yMax="[\d.]+">(.*?)</word>', pm.group(1)):
            x, y, x2, w = float(m.group(1)), float(m.group(2)), float(m.group(3)), html.unescape(m.group(4))
            cx, ty = (x + x2) / 2 * 1.5, y * 1.5
            bold = any(abs(r[0] - ty) <= 3 and r[1] - 1 <= cx <= r[2] + 1 and r[3]
                       for r in runs.get(pno, []))
            col = 0 if x < COL_SPLIT else 1
            key = None
            for (c, yy) in groups:
                if c == col and abs(yy - y) <= 2:
                    key = (c, yy)
                    break
            groups.setdefault(key or (col, y), []).append((x, w, bold))
        for (col, y) in sorted(groups):
            words = sorted(groups[(col, y)])
            lines.append(dict(page=pno, col=col, y=y, x=words[0][0], words=words,
                              text=" ".join(w for _, w, _ in words)))
    return lines


def keep(ln):
    p, y = ln["page"], ln["y"]
    if p in SKIP_PAGES or y > 800 or (p == 1 and y < 110):
        return False
    if y < 46 and (ln["text"] == "Arogya Sanjeevani Policy" or ln["text"].startswith("For Buy/")):
        return False
    return not any(p == tp and ln["col"] == tc and a <= y <= b for tp, tc, a, b in TABLES)


def split_label(ln):
    """(kind, label, rest_words) or None.  rest_words: list of (x, word, bold)."""
    ws = ln["words"]
    w0 = ws[0][1]
    # letter-spaced label: single digits and dots
    if re.fullmatch(r"\d", w0) and len(ws) > 1 and ws[1][1] == ".":
        i, lab = 0, ""
        while i < len(ws) and re.fullmatch(r"[\d.]", ws[i][1]):
            lab += ws[i][1]
            i += 1
        return ("dec", lab, ws[i:])
    m = GLUED_RE.match(w0)
    if m:
        return ("dec", m.group(1), [(ws[0][0], m.group(2), ws[0][2])] + ws[1:])
    if DEC_RE.match(w0):
        return ("dec", w0, ws[1:])
    if SEC_RE.match(w0) and ln["x"] - MARGIN[ln["col"]] < 6 and ws[0][2]:
        return ("sec", w0, ws[1:])
    if ITEM_RE.match(w0):
        return ("item", w0, ws[1:])
    return None


def first_words(L, i, rest, label_x, n=8):
    words = [w for _, w, _ in rest]
    ln = L[i]
    j = i + 1
    while len(words) < n and j < len(L):
        nx = L[j]
        if (nx["page"], nx["col"]) != (ln["page"], ln["col"]) or nx["y"] - L[j - 1]["y"] > 20 \
                or nx["x"] <= label_x + 2 or split_label(nx):
            break
        words += [w for _, w, _ in nx["words"]]
        j += 1
    return " ".join(words[:n])


def standalone(L, i, rest):
    """The words after the label are a title alone on their line: all bold, or followed by a
    paragraph gap (>= 13 pt; the leading is 10.2 pt) before the clause's hanging text
    (3.10 a) "Internal Congenital Anomaly" and 7.13 "Unproven Treatments:" are in body type)."""
    if rest and all(b for _, _, b in rest):
        return True
    ln = L[i]
    if i + 1 < len(L):
        nx = L[i + 1]
        if (nx["page"], nx["col"]) == (ln["page"], ln["col"]) and nx["y"] - ln["y"] >= 13 \
                and nx["x"] > ln["x"] + 2 and not split_label(nx):
            return True
    return False


def main():
    L = [ln for ln in load_lines() if keep(ln)]
    rows = []            # (path, label, title, page)
    heads = set()        # paths of rows whose title column is a title (for the manifest counts)
    seen = {}            # path -> count
    stack = []           # dicts: kind (sec/dec/note/item), depth, off, path

    def add(parent, comp, label, title, page):
        base = (parent + "." if parent else "") + comp
        k = seen.get(base, 0) + 1
        seen[base] = k
        path = base if k == 1 else base + "~%d" % k
        rows.append((path, label, title, page))
        return path

    for i, ln in enumerate(L):
        p, col = ln["page"], ln["col"]
        off = ln["x"] - MARGIN[col]
        text = ln["text"]
        if p == TABLE_OF_BENEFITS_PAGE and not text.startswith("11. "):
            continue
        if p in ANNEXURE_PAGES:
            m = LIST_RE.match(text)
            if text == "Annexure A" and (p, text) not in REPEATED_HEADERS:
                path = add("", "Annexure A", "Annexure A", "Annexure A", p)
                heads.add(path)
                stack = [dict(kind="sec", depth=1, off=0, path=path)]
            elif m and (p, m.group(1)) not in REPEATED_HEADERS:
                parent = stack[0]["path"]
                path = add(parent, m.group(1), m.group(1) + " –", m.group(2), p)
                heads.add(path)
                stack = stack[:1] + [dict(kind="dec", depth=2, off=0, path=path)]
            continue
        if text in ("Note:", "Notes:") and all(b for _, _, b in ln["words"]):
            parent = NOTE_PARENT[(p, col)]
            while stack[-1]["path"] != parent:
                stack.pop()
            path = add(parent, "{%s}" % text, "", text, p)
            heads.add(path)
            stack.append(dict(kind="note", depth=None, off=off, path=path))
            continue
        lab = split_label(ln)
        if lab is None:
            if all(b for _, _, b in ln["words"]) and text not in NOT_HEADINGS and rows \
                    and not (L[i - 1]["page"] == p and ln["y"] - L[i - 1]["y"] < 20):
                raise SystemExit("unclassified bold line p%d: %s" % (p, text))
            continue
        kind, label, rest = lab
        alone = standalone(L, i, rest)
        if kind == "sec":
            title = " ".join(w for _, w, _ in rest)
            path = add("", label.rstrip("."), label, title, p)
            heads.add(path)
            stack = [dict(kind="sec", depth=1, off=off, path=path)]
            continue
        if kind == "dec":
            nums = label.rstrip(".").split(".")
            depth = len(nums)
            while stack and not (stack[-1]["kind"] in ("sec", "dec") and stack[-1]["depth"] < depth):
                stack.pop()
            if (p, label) in SPACED_TITLE:
                title = SPACED_TITLE[(p, label)]
            elif alone:
                title = " ".join(w for _, w, _ in rest)
                nx = L[i + 1]
                if (nx["page"], nx["col"]) == (p, col) and nx["y"] - ln["y"] < 12 \
                        and all(b for _, _, b in nx["words"]) and not split_label(nx):
                    title += " " + nx["text"]
            else:
                title = first_words(L, i, rest, ln["x"])
            path = add(stack[-1]["path"], nums[-1], label, title, p)
            if alone:
                heads.add(path)
            stack.append(dict(kind="dec", depth=depth, off=off, path=path))
            continue
        # item
        if (p, col, label) in HOIST:
            while stack[-1]["kind"] == "item":
                stack.pop()
        while stack[-1]["kind"] == "item" and stack[-1]["off"] >= off - TOL:
            stack.pop()
        title = " ".join(w for _, w, _ in rest) if alone else first_words(L, i, rest, ln["x"])
        comp = label.strip("().")
        path = add(stack[-1]["path"], comp, label, title, p)
        if alone:
            heads.add(path)
        stack.append(dict(kind="item", depth=None, off=off, path=path))
        if path in INLINE:
            ipath, ilabel, n = INLINE[path]
            body = " ".join(x["text"] for x in L[i:i + 12] if x["page"] == p and x["col"] == col)
            after = body.split(" " + ilabel + " ", 1)[1]
            rows.append((ipath, ilabel, " ".join(after.split()[:n]), p))
            seen[ipath] = 1

    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(len(rows), "rows (%d headings, %d items) ->" % (len(heads), len(rows) - len(heads)), OUT)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Ground-truth outline of the Blue Cross (Canassurance) "Travel Insurance Policy", 11XVV0196A (2024-07).

Independent of stream_chunker; run with /work/main/.venv/bin/python (needs pypdfium2).
The cached PDF is AES-encrypted with "copy: no", which poppler's pdftohtml honours, so the
script first writes a decrypted copy to a temporary directory with pypdfium2
(FPDF_REMOVE_SECURITY; the text layer is unchanged: pdftotext of both copies is
byte-identical) and then reads `pdftohtml -xml -i` of that copy: text runs with
position and font id.  Rows are decided as follows.

Reading order.  Runs are grouped into lines (same top +-3 px) inside a cell.  Cells:
  * two-column regions (COLUMNS: the exclusion pages, the general provisions, the p. 4 side
    panel): the left column (x < split) is read top to bottom before the right column;
  * benefit tables (BENEFIT_REGIONS: `Hospitalization | The fees ...`): left cell x < 270 holds
    the benefit name, right cell its clause; each right-cell line is read after the benefit name
    whose first line is at or above it (+6 px), so the name comes before its text.
Skipped: cover (p. 1), contents (p. 3), footers (top >= 1110), the tables of benefits and other
tables of amounts / check marks / dates (TABLES), the `NOTICE` call-out labels.

Heading ranks (fontspec ids of this file; MuseoSans faces, size in px at pdftohtml zoom):
  1    ids 8, 49, 41 (33/32 px page titles: `EMERGENCY MEDICAL CARE COVERAGE`, `TO EXTEND A TRIP`,
       `DEFINITIONS` ...), 13 (21 px bold blue: `INSURANCE CONTRACT`, `LEGAL NOTICE`), 56 (the two
       back pages `CLAIMS`, `TO REACH US`).  Wrapped title lines (<= 35 px apart) are joined.
  1.5  id 51 `OPTIONAL PROTECTION: PANDEMIC` (inside Trip Cancellation; owns its own
       `What is covered` and `WARNING - EXCLUSIONS`, so it ranks above them).
  2    ids 16 (orange banners `IN CASE OF ...`), 40 (`What is covered`, `Beginning and end of
       coverage`, `Limitations and reductions of coverage` ...), 36 (`WARNING - EXCLUSIONS` only),
       34 (`Single-trip solutions`), 4 (p. 2 subtitle), 21 (`YOU ARE INSURED IF`, back-page
       blocks); hand ranks in HAND_RANK.
  3    ids 35 (`INDIVIDUAL`, `ANNUAL` ...), 19 (`A) Exclusions due to ...`, `B) Other exclusions`,
       `Exclusions`), 18 (`Emergency Medical Care coverage:`), 48, 50 (`Coverage purchased with
       or without insured travel expenses`), and `Benefits` (id 40, demoted: it is part of
       `What is covered` per the contents list).
  3.5  id 39 `Specific provisions of the Annual product` (under `ANNUAL`).
  4    id 45 (white banners of the benefit tables: `Transportation expenses`); own lines wholly
       in bold id 9 (+15 bold italic) that start a cell and carry no label (`Covered
       destination(s)`, `Supporting documents`, the general provisions, the `For people aged ...`
       group captions; wrapped lines joined), except the sentences in NOT_HEADINGS and lines
       <= 22 px under the previous line of their cell (wrapped bold titles of items); run-in
       defined terms (id 42 starting a line on the Definitions pages) -> {Term}.
  5    ids 46, 47 in the left cell of a benefit table: the benefit names (`Physicians`).
A heading closes every open item and every open heading of its rank or lower and becomes the
child of the nearest open heading of a higher rank (SPEC 5c).  SUBHEADS_IN_ITEM are bold
captions inside a numbered item (children of the item).

Items: a cell line that starts with a label `1.`, `a)`, `A)`, `i)` (or the big box letters
`A`/`B` of the pandemic section, BOX_LETTERS).  Placement by label family: an item is the
sibling of the nearest open item of the same family below the nearest heading (closing what is
above it), otherwise the child of the current top; `i)`, `v)`, `x)` are letters when they follow
`h)`, `u)`, `w)` in an open letter list, else roman.  A repeated path gets `~n`.
First words: a bold run-in title (the whole line bold, wrapped bold lines joined) is the title;
otherwise up to 8 words, continued onto the next lines of the same cell while they are not a new
label, heading, dash or bullet.  Path components: `{Title}` for unlabelled headings, the label
without its `.`/`)` for labelled rows.  Dash and bullet lists are not rows.
Writes NAME.expected.tsv next to this script.
"""
import html
import os
import re
import subprocess
import sys
import tempfile

NAME = "bluecross-canassurance-travel-2024"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

SKIP_PAGES = {1, 3}          # cover; table of contents
FOOTER_TOP = 1110            # `BLUE CROSS TRAVEL INSURANCE | INSURANCE POLICY | n`, form number

# ---- hand decisions (each one a judgement call, see the entry's judgement_calls) ----
# Tables whose cells are not outline rows: page -> [(top_from, top_to)].
TABLES = {
    6: [(170, 720)],                          # products table (coverages x products) + legend
    7: [(215, 390), (585, 845), (920, 1030)], # TABLE OF BENEFITS: Coverages | Maximum coverage ...
    8: [(140, 380), (460, 575)],              # Canada Package check-mark table, table of benefits
    9: [(370, 625), (725, 840)],              # Annual check-mark table, table of benefits
    11: [(285, 400)],                         # Versions | Authorized destination(s)
    12: [(415, 840)],                         # Coverage versions | Effective date | Termination date
    21: [(290, 670)],                         # With or without insured travel expenses | dates
    22: [(140, 430)],                         # Benefits included in the coverage (check marks)
    27: [(580, 830)],                         # Expenses incurred during a delayed return (check marks)
    28: [(210, 470)],                         # Benefits included ... (check marks)
    29: [(258, 400), (735, 910)],             # dates table; Accidental loss of ... $40,000 ...
    30: [(285, 405)],                         # Accidental loss of ... All ages $300,000
    33: [(80, 225)],                          # Effective date | Termination date
    34: [(240, 550)],                         # Category | Description | Maximum reimbursement (+ note)
}
# Two-column regions: page -> (split_x, top_from, top_to); left column read first.
COLUMNS = {
    4: (590, 0, 450),        # side panel `TO HELP YOU UNDERSTAND THIS POLICY`
    18: (460, 395, 1100), 19: (460, 0, 1100), 25: (460, 440, 1100), 26: (460, 0, 1100),
    28: (460, 700, 1100), 31: (460, 150, 1100), 35: (460, 150, 1100),
    41: (460, 130, 1100), 42: (460, 0, 1100),
}
# Benefit tables (name | clause): page -> (top_from, top_to); cell split at x = 270.
BENEFIT_REGIONS = {13: (395, 1010), 14: (50, 800), 15: (50, 1020), 16: (50, 800),
                   22: (500, 1000), 23: (50, 620), 33: (345, 660)}
BENEFIT_SPLIT = 270
# Bold own lines that are sentences or addresses, not headings: (page, top).
NOT_HEADINGS = {
    (4, 117), (4, 135), (4, 411), (4, 429),   # wrapped bold sentence `These documents contain ...`
    (27, 529),                                # `All other expenses related to a pandemic are excluded.`
    (38, 383),                                # `Applicable to Individual, Package Plus, and Canada Package products` (scope note)
    (40, 468),                                # `Blue Cross - Travel Claims` (address block)
    (42, 431), (42, 449), (42, 467), (42, 485),  # bold sentence `If you refuse this repatriation ...`
    (50, 770),                                # `Canassurance Insurance Company` (address)
    (52, 666),                                # `Blue Cross Canassurance` (address)
}
# Headings whose font rank is overridden: (page, title) -> rank.
HAND_RANK = {
    (4, "INSURANCE POLICY"): 2,               # parts of INSURANCE CONTRACT (same font as it)
    (4, "INSURANCE CERTIFICATE"): 2,
    (4, "TO HELP YOU UNDERSTAND THIS POLICY"): 2,   # side panel of INSURANCE CONTRACT
    (13, "Benefits"): 3,                      # part of `What is covered` (contents list)
    (22, "Benefits"): 3,
}
# Bold captions inside a numbered item: children of that item.
SUBHEADS_IN_ITEM = {(10, "Renewal notice"), (10, "Expiry notice")}
# Big box letters of Optional Protection: Pandemic (`see points A and B under "What is covered"`).
BOX_LETTERS = {(27, "A"), (28, "B")}

RANK = {8: 1, 49: 1, 41: 1, 13: 1, 56: 1, 51: 1.5, 16: 2, 40: 2, 36: 2, 34: 2, 4: 2, 21: 2,
        35: 3, 19: 3, 18: 3, 48: 3, 50: 3, 39: 3.5, 45: 4}
BOLD = {9, 15}
BENEFIT_NAME_FONTS = {46, 47}
TERM_FONT = 42
DEFINITION_PAGES = range(43, 48)
LABEL_RE = re.compile(r"^(\d{1,2}\.|[a-z]\)|[A-Z]\)|[ivx]{1,4}\))(?=\s|$)")


def decrypted_xml():
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain.pdf")
        doc = pdfium.PdfDocument(PDF)
        doc.save(plain, flags=raw.FPDF_REMOVE_SECURITY)
        doc.close()
        return subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", plain],
                              capture_output=True, text=True, check=True).stdout


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def join_runs(frags):
    """Join the text runs of one line, adding the space a gap between runs stands for."""
    out = ""
    prev = None
    for f in frags:
        t = f["text"]
        if prev is not None and f["left"] - prev["right"] >= 2 and out and not out[-1].isspace() \
                and not t[:1].isspace():
            out += " "
        out += t
        prev = f
    return norm(out)


def in_ranges(top, ranges):
    return any(a <= top <= b for a, b in ranges)


def page_lines(xml):
    """Yield per page the ordered list of lines: dict(page, cell, top, left, frags, text)."""
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        p = int(pm.group(1))
        if p in SKIP_PAGES:
            continue
        frags = []
        for m in re.finditer(r'<text top="(-?\d+)" left="(-?\d+)" width="(\d+)" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            top, left, width, font, t = m.groups()
            text = html.unescape(re.sub(r"<.*?>", "", t))
            top, left = int(top), int(left)
            if not text.strip() or top >= FOOTER_TOP or in_ranges(top, TABLES.get(p, [])):
                continue
            frags.append(dict(top=top, left=left, right=left + int(width), font=int(font), text=text))
        # lines per cell
        frags.sort(key=lambda f: (f["top"], f["left"]))
        lines = []
        for f in frags:
            for ln in reversed(lines[-6:]):
                if ln["cell"] == cellof(p, f) and abs(ln["top"] - f["top"]) <= 3:
                    ln["frags"].append(f)
                    break
            else:
                lines.append(dict(page=p, cell=cellof(p, f), top=f["top"], frags=[f]))
        for ln in lines:
            ln["frags"].sort(key=lambda f: f["left"])
            ln["left"] = ln["frags"][0]["left"]
            ln["text"] = join_runs(ln["frags"])
        yield p, order(p, lines)


def cellof(p, f):
    col = COLUMNS.get(p)
    if col and col[1] <= f["top"] <= col[2] and f["left"] >= col[0]:
        return 1
    ben = BENEFIT_REGIONS.get(p)
    if ben and ben[0] <= f["top"] <= ben[1] and f["left"] >= BENEFIT_SPLIT:
        return 1
    return 0


def order(p, lines):
    col = COLUMNS.get(p)
    ben = BENEFIT_REGIONS.get(p)
    if col:
        for ln in lines:
            if ln["cell"] == 0 and col[1] <= ln["top"] <= col[2]:
                bad = [f for f in ln["frags"] if f["left"] >= col[0] - 5]
                assert not bad, (p, ln["top"], "left-column run too close to the split")
        before = [l for l in lines if l["top"] < col[1]]
        region = [l for l in lines if col[1] <= l["top"] <= col[2]]
        after = [l for l in lines if l["top"] > col[2]]
        region.sort(key=lambda l: (l["cell"], l["top"]))
        return before + region + after
    if ben:
        anchors = []     # tops of benefit names / banners in the left cell
        prev = None
        for ln in sorted((l for l in lines if l["cell"] == 0 and ben[0] <= l["top"] <= ben[1]),
                         key=lambda l: l["top"]):
            if prev is not None and ln["top"] - prev["top"] <= 22 and \
                    ln["frags"][0]["font"] in BENEFIT_NAME_FONTS and \
                    prev["frags"][0]["font"] in BENEFIT_NAME_FONTS:
                ln["anchor"] = prev["anchor"]
            else:
                ln["anchor"] = ln["top"]
                anchors.append(ln["top"])
            prev = ln
        for ln in lines:
            if ln["cell"] == 1:
                cand = [a for a in anchors if a <= ln["top"] + 6]
                ln["anchor"] = max(cand) if cand else ben[0] - 1
            elif "anchor" not in ln:
                ln["anchor"] = ln["top"]
        return sorted(lines, key=lambda l: (l["anchor"], l["cell"], l["top"]))
    return sorted(lines, key=lambda l: (l["top"], l["left"]))


def fonts(ln):
    return [f["font"] for f in ln["frags"] if f["text"].strip()]


def classify(L):
    """Turn lines into candidate rows: dict(kind, rank/label, title, page, idx)."""
    out = []
    used = set()
    for i, ln in enumerate(L):
        if i in used:
            continue
        p, fs = ln["page"], fonts(ln)
        f0 = fs[0]
        key = (p, ln["top"])
        if f0 == 36 and ln["text"].startswith("NOTICE"):
            continue
        # big box letters
        if f0 == 35 and (p, ln["text"]) in BOX_LETTERS:
            title = " ".join(x["text"] for x in L
                             if x["page"] == p and x["frags"][0]["font"] == 25
                             and ln["top"] - 10 <= x["top"] <= ln["top"] + 15)
            out.append(dict(kind="item", label=ln["text"], fam="BOX", title=norm(title), page=p, idx=i))
            continue
        rank = RANK.get(f0)
        if rank is not None and not (f0 == 36 and not ln["text"].startswith("WARNING")):
            title = ln["text"]
            j = i
            while j + 1 < len(L) and L[j + 1]["page"] == p and L[j + 1]["cell"] == ln["cell"] \
                    and 0 < L[j + 1]["top"] - L[j]["top"] <= 35 \
                    and RANK.get(fonts(L[j + 1])[0]) == rank:
                j += 1
                title = title + " " + L[j]["text"]
                used.add(j)
            title = norm(title)
            m = re.match(r"^([A-Z]\))\s+(.*)$", title)
            r = HAND_RANK.get((p, title), rank)
            if m:
                out.append(dict(kind="head", rank=r, label=m.group(1), title=m.group(2), page=p, idx=i))
            else:
                out.append(dict(kind="head", rank=r, label="", title=title, page=p, idx=i))
            continue
        if f0 in BENEFIT_NAME_FONTS and ln["cell"] == 0 and p in BENEFIT_REGIONS \
                and BENEFIT_REGIONS[p][0] <= ln["top"] <= BENEFIT_REGIONS[p][1]:
            parts = [x["text"] for x in ln["frags"] if x["font"] in BENEFIT_NAME_FONTS]
            j = i
            while j + 1 < len(L) and L[j + 1]["page"] == p and L[j + 1]["cell"] == 0 \
                    and L[j + 1].get("anchor") == ln.get("anchor") \
                    and fonts(L[j + 1])[0] in BENEFIT_NAME_FONTS:
                j += 1
                parts += [x["text"] for x in L[j]["frags"] if x["font"] in BENEFIT_NAME_FONTS]
                used.add(j)
            out.append(dict(kind="head", rank=5, label="", title=norm(" ".join(parts)), page=p, idx=i))
            continue
        if f0 == TERM_FONT and p in DEFINITION_PAGES and ln["left"] < 90:
            term = join_runs([x for x in ln["frags"] if x["font"] == TERM_FONT])
            out.append(dict(kind="head", rank=4, label="", title=term, page=p, idx=i))
            continue
        m = LABEL_RE.match(ln["frags"][0]["text"].strip())
        if m:
            words, more = item_words(L, i, m.group(1))
            used.update(more)
            out.append(dict(kind="item", label=m.group(1), fam=None, title=words, page=p, idx=i))
            continue
        # a bold own line is a heading unless it continues the line just above (<= 22 px) in its
        # cell (wrapped bold text of an item or a dash entry) or is listed in NOT_HEADINGS
        prev = next((x for x in reversed(L[max(0, i - 8):i])
                     if x["page"] == p and x["cell"] == ln["cell"]), None)
        wrapped = prev is not None and 0 < ln["top"] - prev["top"] <= 22
        if f0 == 9 and all(f in BOLD for f in fs) and key not in NOT_HEADINGS and not wrapped:
            title = ln["text"]
            j = i
            while j + 1 < len(L) and L[j + 1]["page"] == p and L[j + 1]["cell"] == ln["cell"] \
                    and 0 < L[j + 1]["top"] - L[j]["top"] <= 20 \
                    and fonts(L[j + 1])[0] == 9 and all(f in BOLD for f in fonts(L[j + 1])) \
                    and not LABEL_RE.match(L[j + 1]["text"]):
                j += 1
                title += " " + L[j]["text"]
                used.add(j)
            kind = "sub" if (p, norm(title)) in SUBHEADS_IN_ITEM else "head"
            out.append(dict(kind=kind, rank=4, label="", title=norm(title), page=p, idx=i))
            continue
    return out


def starts_block(ln):
    t = ln["text"]
    f0 = fonts(ln)[0]
    return bool(LABEL_RE.match(ln["frags"][0]["text"].strip())) or t.startswith(("-", "•", "✔")) \
        or f0 in RANK or f0 in BENEFIT_NAME_FONTS or f0 == TERM_FONT


def item_words(L, i, label):
    """(first words or bold run-in title, indices of the further lines the title used)."""
    ln = L[i]
    first = dict(ln["frags"][0])
    first["text"] = first["text"].lstrip()[len(label):]
    frags = [first] + ln["frags"][1:]
    body_fonts = [f["font"] for f in frags if f["text"].strip()]
    used = []
    if body_fonts and all(f in BOLD for f in body_fonts):
        title = join_runs(frags)
        j = i
        while j + 1 < len(L) and L[j + 1]["page"] == ln["page"] and L[j + 1]["cell"] == ln["cell"] \
                and 0 < L[j + 1]["top"] - L[j]["top"] <= 20 \
                and all(f in BOLD for f in fonts(L[j + 1])) and not starts_block(L[j + 1]):
            j += 1
            used.append(j)
            title += " " + L[j]["text"]
        return norm(title), used
    words = join_runs(frags).split()
    j = i
    while len(words) < 8 and j + 1 < len(L) and L[j + 1]["page"] == ln["page"] \
            and L[j + 1]["cell"] == ln["cell"] and 0 < L[j + 1]["top"] - L[j]["top"] <= 25 \
            and not starts_block(L[j + 1]) and L[j + 1]["left"] > ln["left"] + 5:
        j += 1
        words += L[j]["text"].split()
    return " ".join(words[:8]), used


def family(label, stack):
    core = label.rstrip(".)")
    if label.endswith("."):
        return "num"
    if core.isupper():
        return "UP"
    if re.fullmatch(r"[ivx]+", core):
        if len(core) == 1:
            succ = {"i": "h", "v": "u", "x": "w"}[core]
            for e in reversed(stack):
                if e["kind"] != "item":
                    break
                if e["fam"] == "low":
                    if e["label"].rstrip(")") == succ:
                        return "low"
                    break
        return "rom"
    return "low"


def build(cands):
    rows = []
    stack = []    # dict(kind: head|sub|item, rank, fam, comp, label)
    seen = {}

    def emit(comp, label, title, page, kind):
        parent = ".".join(e["comp"] for e in stack)
        base = parent + "." + comp if parent else comp
        n = seen.get(base, 0) + 1
        seen[base] = n
        if n > 1:
            comp = "%s~%d" % (comp, n)
        path = parent + "." + comp if parent else comp
        if len(title) > 60:
            title = title[:60].rsplit(" ", 1)[0]
        rows.append((path, label, title, page, kind))
        return comp

    for c in cands:
        if c["kind"] == "head":
            while stack and (stack[-1]["kind"] in ("item", "sub") or stack[-1]["rank"] >= c["rank"]):
                stack.pop()
            comp = c["label"].rstrip(".)") if c["label"] else "{%s}" % c["title"]
            comp = emit(comp, c["label"], c["title"], c["page"], "heading")
            stack.append(dict(kind="head", rank=c["rank"], comp=comp))
        elif c["kind"] == "sub":
            # a caption inside a numbered item: closes a previous caption, child of the item
            while stack and stack[-1]["kind"] == "sub":
                stack.pop()
            comp = emit("{%s}" % c["title"], "", c["title"], c["page"], "heading")
            stack.append(dict(kind="sub", rank=99, comp=comp))
        else:
            fam = c["fam"] or family(c["label"], stack)
            k = None
            for n in range(len(stack) - 1, -1, -1):
                if stack[n]["kind"] != "item":
                    break
                if stack[n]["fam"] == fam:
                    k = n
                    break
            if k is not None:
                del stack[k:]
            elif stack and stack[-1]["kind"] == "sub":
                stack.pop()
            comp = emit(c["label"].rstrip(".)"), c["label"], c["title"], c["page"], "item")
            stack.append(dict(kind="item", fam=fam, comp=comp, label=c["label"], rank=99))
    return rows


def main():
    xml = decrypted_xml()
    L = []
    for p, lines in page_lines(xml):
        L.extend(lines)
    rows = build(classify(L))
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            fh.write("\t".join(str(x) for x in r[:4]) + "\n")
    heads = sum(1 for r in rows if r[4] == "heading")
    print("%d rows (%d headings, %d items) -> %s" % (len(rows), heads, len(rows) - heads, OUT),
          file=sys.stderr)


if __name__ == "__main__":
    main()

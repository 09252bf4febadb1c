#!/usr/bin/env python3
"""Ground-truth outline of TATA AIG "Auto Secure - Private Car Package Policy" wording
(UIN IRDAN108RPMT0002V02200001, PDF of 10 Apr 2025), an Indian motor package policy.

Independent of stream_chunker: reads cache/NAME.pdf with poppler's `pdftohtml -xml -i`
(text runs with positions and font ids) and writes NAME.expected.tsv next to this script.

Reading: every page has two columns (left margin x 54, right margin x 455 at zoom 1.5);
runs left of x 440 are the left column, read before the right one.  Runs whose tops lie
within 4 px form one line.  Not read: the cover (p. 1), the running header (top < 100:
`Auto Secure - Private Car Package Policy` / UIN), the footer address block and page
number (font 17, top > 1180), and the tables listed in TABLE_ZONES (depreciation schedules,
NCB table, Ombudsman list).  Table header runs (fonts 24, 30: white on blue) are never rows.

All headings are set in one face, OpenSans-Bold 14/15 (font ids 21, 25), whatever their
level, so the rank of an unlabelled or prefixed heading comes from the wording's own
structure, written out in RANK below (the script stops on a bold line it does not know):
  rank 1  the standard policy's parts in capitals (SECTION I-III, GENERAL EXCEPTIONS,
          DEDUCTIBLE, GENERAL CONDITIONS, ...), `Auto Secure Endorsements`, the add-on
          part title and `Redressal of Grievance`;
  rank 2  the IMT endorsements (`IMT1.`, `IMT. 3.`, ... prefixed label `IMT n`), the add-on
          covers (`TA01-` ... prefixed label `TA nn`), the add-ons' Definitions, the
          depreciation schedule title, the Escalation levels and the Ombudsman list title;
  rank 3  `What is covered` / `What is not Covered` / `Special Condition` / ... inside an
          add-on, and the Road Side Assistance groups; ranks 4-5 the RSA services.
A heading closes every open heading of the same or lower rank and every open item, and
becomes the child of the nearest open heading of higher rank (SPEC 5c).

Items and labelled headings: a line starting with a label (`1.`, `1)`, `(1)`, `a.`, `(a)`,
`A)`, `(i)`, `i)`, `I.`, and bare `1`-`7` under LIMITATIONS) is a row.  Its depth is its
indentation: the label's offset from the column margin in 30 px steps (level 0 at the
margin, 1 at +30, ...); a row closes open rows of the same or deeper level and hangs under
the nearest open row of a smaller level, else under the current heading.  A second label
on the same line (`4. (a) any ...`, `(a) (i) the price ...`) is a row one level deeper.
A labelled line whose label and text are bold (`A) Conditions precedent to contract`,
`1. Duties and Obligations ...`, `I. Cancellation by Insurer`) is a labelled heading: its
title is the bold text, wrapped lines joined; other items get their first words (up to
8 words from the label's line and its continuation lines).  Bold unlabelled lines printed
inside a labelled clause (SUBS) and a few own-line titles set in the body face (REGULAR)
are sub-headings placed by their indentation like items.  Path components: `{Title}` for
an unlabelled heading, `SECTION I`, `IMT n`, `TA nn` for prefixed ones, the label without
its closing `.`/`)` for items (`(i)` keeps its brackets); a repeated path gets `~n`.
"""
import html
import os
import re
import subprocess
import sys

NAME = "tataaig-auto-secure-private-car-2025"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

SPLIT_X = 440                  # left column < 440 <= right column
MARGIN = {0: 54, 1: 455}       # column margins (level 0 labels)
HEADING_FONTS = {"21", "25"}   # OpenSans-Bold 14 / 15, black
SKIP_FONTS = {"17", "14", "16", "24", "30", "38"}  # footer, header, table headers, side code

# ---- hand decisions ----
# Table regions (page, column, top_from, top_to): cells are not rows.
TABLE_ZONES = [
    (2, 1, 100, 480),    # "Age of the vehicle / % of Depreciation" (parts depreciation, cont.)
    (3, 0, 725, 995),    # THE SCHEDULE OF DEPRECIATION FOR FIXING IDV (table body)
    (7, 1, 700, 1110),   # No Claim Bonus table
    (10, 0, 370, 440), (10, 1, 290, 440),  # IMT.4 change-of-vehicle particulars table
    (27, 0, 420, 1180), (27, 1, 420, 1180),  # Insurance Ombudsman list (SN 1-17 are cells)
    (28, 0, 0, 1180), (28, 1, 0, 1180), (29, 0, 0, 780), (29, 1, 0, 780),
]

# Rank of every unlabelled bold heading, by its (joined) title; prefixed SECTION/IMT/TA
# headings are ranked by rule (1 / 2 / 2).  Same face everywhere: ranks are a reading of
# the wording's structure (see the module docstring and the judgement calls).
RANK = {
    "NOW THIS POLICY WITNESSETH:": 1,
    "SUM INSURED - INSURED’S DECLARED VALUE (IDV)": 1,
    "THE SCHEDULE OF DEPRECIATION FOR FIXING IDV OF THE VEHICLE": 2,  # table title in SUM INSURED
    "AVOIDANCE OF CERTAIN TERMS AND RIGHT OF RECOVERY": 1,
    "APPLICATION OF LIMITS OF INDEMNITY": 1,
    "GENERAL EXCEPTIONS": 1,
    "DEDUCTIBLE": 1,
    "GENERAL CONDITIONS": 1,
    "Auto Secure Endorsements": 1,          # bold lead of "... (attached to and forming part of Policy)"
    "Auto Secure – Private Car Package Policy Add On Covers": 1,
    "Redressal of Grievance": 1,
    "Escalation Level 1": 2,
    "Escalation Level 2": 2,
    "INSURANCE OMBUDSMAN CENTRES": 2,       # the list the Escalation text introduces
    "Grievance Redressal Procedure:": 2,    # p. 29 below the list: one line citing IRDAI rules
    # inside an add-on cover
    "What is Covered:": 3, "What is covered:": 3, "What is Covered": 3, "What is covered": 3,
    "What is not Covered:": 3, "What is not covered:": 3, "What is not Covered": 3,
    "What is not covered": 3,
    "Special Condition:": 3, "Coverage Conditions": 3, "Deductible:": 3,
    "Important Conditions": 3,
    # TA19 Road Side Assistance: two service groups, each service a heading
    "Repair and Towing Assistance": 3,
    "Service for Flat Tyre": 4,
    "Flat Battery – Jump Start Service": 4,
    "Repair on the spot": 4,
    "Spare Key Retrieval / Service for Keys Locked Inside": 4,
    "Fuel Support (Emergency Fuel Delivery)": 4,
    "Emergency Towing Assistance": 4,
    "In case of Break-down:": 5,
    "In case of an Accident:": 5,
    "Concierge Services:": 3,
    "SMS Relays/Emergency Message Service": 4,
    "Continuation / Return Journey (Taxi Support)": 4,
    "Hotel Accommodation": 4,
    "Pick up of repaired vehicle": 4,
    "Geographical territory:": 3,
    "LIMITATIONS:": 3,
    "Procedure of receiving services:": 3,
}
# "Definitions:" is rank 3 inside TA35 (p. 25) and rank 2 for the add-ons' common list (p. 26).
RANK_BY_PAGE = {(25, "Definitions:"): 3, (26, "Definitions:"): 2}

# Bold lines that are not headings: (page, start of text).
NOT_HEADINGS = {
    (9, "NOTE:-"),                                   # run-in note in IMT1
    (12, "{For vehicles rated as Private cars"),     # IMT16 scope note in braces, under its title
    (21, "Important Note:"),                         # run-in note in TA19
    (22, "To avail this services all you have to do"),  # bold sentence (phone number)
}
# Bold unlabelled lines inside a labelled clause: sub-headings placed by indentation.
SUBS = {
    (6, "Double Insurance:"),   # under General Condition B.4.III, beside its a./b.
    (25, "If You do not want to avail Daily Allowance or Courtesy/ Hire benefit then -"),
}
# Own-line titles in the body face, read as headings: (page, text) -> rank or "sub".
REGULAR = {
    (9, "Renewal Notice"): "sub",     # under D) Conditions for renewal of the contract
    (23, "Special Condition:"): 3,    # TA29 (bold "Special Condition:" in TA16)
    (25, "Special Condition:"): 3,    # TA35
}
# Labels printed at the column margin that belong deeper: the No Claim Bonus rules 1-9
# (p. 8, above `C) Conditions when a claim arises`) are General Condition B.8's rules
# (IMT.3 cites "general condition B.8.3"): (page, column, top_from, top_to) -> level.
LEVEL_OVERRIDE = {(8, 0, 100, 1180): 2, (8, 1, 100, 640): 2}
# Full-width bands read between the two-column parts of a page: (page, top_from, top_to).
FULL_WIDTH = [
    (10, 255, 545),    # IMT.4 Change of Vehicle (with its particulars table)
    (27, 370, 1180),   # INSURANCE OMBUDSMAN CENTRES below the two Escalation levels
]
BARE_NUMBER_PAGES = {21, 22}  # LIMITATIONS 1-7 of TA19 print bare numbers

LABEL = re.compile(r"^(\((?:\d{1,2}|[ivx]{1,4}|[a-zA-Z])\)|(?:\d{1,2}|[ivx]{1,4}|[IVX]{1,4}|[a-zA-Z])[.)])(?=\s|$)")
PREFIX = re.compile(r"^(SECTION\s+[IV]+\s*[–-])\s*(.*)$|^(IMT[\s.]*(\d+A?)\.?)\s*(.*)$|^(TA\s*(\d\d)\s*-?)\s*(.*)$")


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF], capture_output=True,
                         text=True, check=True).stdout
    out = []
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        page = int(pm.group(1))
        if page == 1:
            continue  # cover
        cols = {}
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="\d+" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            top, left, font, raw = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
            text = html.unescape(re.sub(r"<.*?>", "", raw))
            if not text.strip() or font in SKIP_FONTS or top < 100 or top > 1180:
                continue
            col = 0 if left < SPLIT_X else 1
            if any(p == page and c == col and a <= top <= b for p, c, a, b in TABLE_ZONES):
                continue
            band = 0
            for n, (p, a, b) in enumerate(FULL_WIDTH):
                if p == page:
                    if a <= top <= b:
                        band, col = 2 * n + 1, 0   # one full-width column
                    elif top > b:
                        band = 2 * n + 2
            cols.setdefault((band, col), []).append(
                dict(top=top, left=left, font=font, text=text, bold="<b>" in raw))
        for band, col in sorted(cols):
            lines = []
            for fr in sorted(cols[(band, col)], key=lambda a: (a["top"], a["left"])):
                if lines and abs(lines[-1][0]["top"] - fr["top"]) <= 4:
                    lines[-1].append(fr)
                else:
                    lines.append([fr])
            for frs in lines:
                frs.sort(key=lambda a: a["left"])
                out.append(dict(page=page, col=col, band=band, top=frs[0]["top"], left=frs[0]["left"],
                                frs=frs, text=norm(" ".join(f["text"] for f in frs))))
    return out


def level_of(line, x):
    off = x - MARGIN[line["col"]]
    lv = 0 if off < 15 else 1 if off < 45 else 2 if off < 75 else 3 if off < 105 else 4
    for (p, c, a, b), new in LEVEL_OVERRIDE.items():
        if (line["page"], line["col"]) == (p, c) and a <= line["top"] <= b:
            lv = new
    return lv


def bold_heading(frs):
    return all(f["bold"] and f["font"] in HEADING_FONTS for f in frs)


def bold_lead(frs):
    lead = []
    for f in frs:
        if not (f["bold"] and f["font"] in HEADING_FONTS):
            break
        lead.append(f["text"])
    return norm(" ".join(lead))


def split_labels(text, allow_bare):
    """Leading labels of a line (at most two) and the rest of its text."""
    labels = []
    rest = text
    while True:
        m = LABEL.match(rest)
        if not m and allow_bare and not labels:
            m = re.match(r"^([1-9])(?=\s)", rest)
        if not m:
            break
        labels.append(m.group(1))
        rest = rest[m.end():].strip()
        if len(labels) == 2:
            break
    return labels, rest


def component(label):
    lab = label.strip()
    if lab.startswith("("):
        return lab
    return lab.rstrip(".)")


TABLE_VALUE = re.compile(r"^(\d+%|NIL|Nil)$")   # a rate cell printed beside a table row


def first_words(lines, i, rest, label_left):
    """Up to 8 words: the label's line, then its continuation lines (same page, column and
    band, indented past the label; not a new row, a bullet, or a lone OR/and between items)."""
    words = [w for w in rest.split() if not TABLE_VALUE.match(w)]
    ln = lines[i]
    j = i + 1
    while len(words) < 8 and j < len(lines):
        nx = lines[j]
        if (nx["page"], nx["col"], nx["band"]) != (ln["page"], ln["col"], ln["band"]) \
                or nx["left"] < label_left + 15 or nx.get("kind") \
                or nx["text"][:1] in "•-" or nx["text"] in ("OR", "or", "and", "AND"):
            break
        words += [w for w in nx["text"].split() if not TABLE_VALUE.match(w)]
        j += 1
    out = " ".join(words[:8])
    while len(out) > 60 and " " in out:
        out = out.rsplit(" ", 1)[0]
    return out


def classify(lines):
    """Mark each line with kind: 'head' (unlabelled/prefixed heading), 'lab' (labelled row),
    'sub' (sub-heading by indentation), 'cont' (continuation of a wrapped heading), or None."""
    for ln in lines:
        ln["kind"] = None
    in_limitations = False
    for k, ln in enumerate(lines):
        if ln["kind"] == "cont":
            continue
        frs, text, page = ln["frs"], ln["text"], ln["page"]
        if any(page == p and text.startswith(s) for p, s in NOT_HEADINGS):
            j, prev = k + 1, ln   # its wrapped bold lines are not headings either
            while j < len(lines) and (lines[j]["page"], lines[j]["col"], lines[j]["band"]) == \
                    (page, ln["col"], ln["band"]) \
                    and lines[j]["top"] - prev["top"] < 22 and bold_heading(lines[j]["frs"]):
                lines[j]["kind"] = "cont"
                prev = lines[j]
                j += 1
            continue
        if text.startswith("(UIN") or text.startswith("(IRDAN"):
            if frs[0]["bold"]:
                continue  # an add-on's UIN line below its title: part of the heading, no row
        pm = PREFIX.match(text) if frs[0]["bold"] and frs[0]["font"] in HEADING_FONTS else None
        allow_bare = page in BARE_NUMBER_PAGES and in_limitations
        labels, rest = split_labels(text, allow_bare)
        if pm:
            ln["kind"] = "head"
            ln["prefixed"] = pm
        elif labels:
            ln["kind"] = "lab"
            ln["labels"], ln["rest"] = labels, rest
            # labelled heading: label and text bold
            ln["lhead"] = bold_heading(frs)
            ln["runin"] = (not ln["lhead"]) and len(frs) > 1 and all(
                f["bold"] and f["font"] in HEADING_FONTS for f in frs[1:])
        elif (page, text) in REGULAR:
            ln["kind"] = "sub" if REGULAR[(page, text)] == "sub" else "head"
        elif frs[0]["bold"] and frs[0]["font"] in HEADING_FONTS:
            ln["kind"] = "head"
        else:
            continue
        # join wrapped bold lines (same column, < 22 px below, bold, no label, not a UIN line)
        if ln["kind"] in ("head", "sub") or (ln["kind"] == "lab" and (ln["lhead"] or ln["runin"])):
            title = bold_lead(frs) if ln["kind"] != "lab" else ""
            j, prev = k + 1, ln
            while j < len(lines):
                nx = lines[j]
                if (nx["page"], nx["col"], nx["band"]) != (page, ln["col"], ln["band"]) \
                        or nx["top"] - prev["top"] >= 22:
                    break
                if not bold_heading(nx["frs"]) or LABEL.match(nx["text"]) or \
                        nx["text"].startswith("(UIN") or nx["text"].startswith("(IRDAN"):
                    break
                if ln["kind"] == "lab" and ln["runin"]:
                    break
                nx["kind"] = "cont"
                title += " " + nx["text"]
                ln.setdefault("more", []).append(nx["text"])
                prev = nx
                j += 1
            ln["title"] = norm(title)
        if ln["kind"] == "head":
            in_limitations = ln.get("title", "") == "LIMITATIONS:"
    return lines


def build(lines):
    rows = []
    stack = []  # dicts: kind ('h' heading with rank, 'i' item/sub with level), comp
    seen = {}
    n_head = n_item = 0

    def add(comp, label, title, page):
        parent = ".".join(s["comp"] for s in stack)
        base = (parent + "." if parent else "") + comp
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            comp = "%s~%d" % (comp, seen[base])
        path = (parent + "." if parent else "") + comp
        rows.append((path, label, title, page))
        return comp

    for i, ln in enumerate(lines):
        kind = ln["kind"]
        if kind in (None, "cont"):
            continue
        page = ln["page"]
        if kind == "head":
            pm = ln.get("prefixed")
            if pm:
                full = norm(" ".join([ln["text"]] + ln.get("more", [])))
                pm = PREFIX.match(full)
                if pm.group(1):
                    rank, label = 1, norm(pm.group(1))
                    comp, title = re.sub(r"\s*[–-]$", "", label), pm.group(2)
                elif pm.group(3):
                    rank, label = 2, norm(pm.group(3))
                    comp, title = "IMT " + pm.group(4), pm.group(5)
                else:
                    rank, label = 2, norm(pm.group(6))
                    comp, title = "TA " + pm.group(7), pm.group(8)
                title = re.sub(r"\s*\((?:UIN|IRDAN).*$", "", title)   # the cover's UIN
                title = re.sub(r"\s*-\s*$", "", title).strip()
            else:
                title = ln["title"] if ln["title"] else ln["text"]
                if (page, title) in RANK_BY_PAGE:
                    rank = RANK_BY_PAGE[(page, title)]
                elif (page, ln["text"]) in REGULAR:
                    rank, title = REGULAR[(page, ln["text"])], ln["text"]
                elif title in RANK:
                    rank = RANK[title]
                else:
                    sys.exit("unranked bold line p.%d: %r" % (page, title))
                label, comp = "", "{%s}" % title
            while stack and (stack[-1]["kind"] == "i" or stack[-1]["rank"] >= rank):
                stack.pop()
            comp = add(comp, label, title, page)
            stack.append(dict(kind="h", rank=rank, comp=comp))
            n_head += 1
            continue
        if kind == "sub":
            title = ln.get("title") or ln["text"]
            lv = level_of(ln, ln["left"])
            while stack and stack[-1]["kind"] == "i" and stack[-1]["level"] >= lv:
                stack.pop()
            comp = add("{%s}" % title, "", title, page)
            stack.append(dict(kind="i", level=lv, comp=comp))
            n_head += 1
            continue
        # labelled row(s)
        labels, rest = ln["labels"], ln["rest"]
        lv = level_of(ln, ln["left"])
        for n, lab in enumerate(labels):
            this_lv = lv + n
            while stack and stack[-1]["kind"] == "i" and stack[-1]["level"] >= this_lv:
                stack.pop()
            if ln["lhead"]:
                title = norm(" ".join([rest] + ln.get("more", [])))
                n_head += 1
            elif ln["runin"] and n == len(labels) - 1:
                title = rest
                n_item += 1
            else:
                # first words: after this label (a following label's text included)
                after = " ".join(labels[n + 1:] + [rest]).strip()
                title = first_words(lines, i, after, ln["left"])
                n_item += 1
            comp = add(component(lab), lab, title, page)
            stack.append(dict(kind="i", level=this_lv, comp=comp))
    return rows, n_head, n_item


def main():
    lines = classify(load())
    # SUBS are bold unlabelled lines: mark them as sub-headings before building
    for ln in lines:
        if ln["kind"] == "head" and not ln.get("prefixed") and (ln["page"], ln.get("title")) in SUBS:
            ln["kind"] = "sub"
    rows, n_head, n_item = build(lines)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print("%d rows (%d headings, %d items) -> %s" % (len(rows), n_head, n_item, OUT),
          file=sys.stderr)


if __name__ == "__main__":
    main()

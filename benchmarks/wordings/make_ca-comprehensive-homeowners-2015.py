#!/usr/bin/env python3
"""Ground-truth outline of ca-comprehensive-homeowners-2015.pdf (independent of stream_chunker).

A Canadian "COMPREHENSIVE HOMEOWNERS POLICY" wording (Word file Comprehensive_Homeowners_Policy_E_004,
distilled 2015-03-17), 13 letter pages, two columns, untagged.

Evidence used:
  * `pdftohtml -xml -i` word fragments: position (top, left, width) and font id.
      font 2  Verdana 12 (bold)            -> top-level headings (rank 1)
      font 11 BookAntiqua 12 bold (JEEIFH) -> sub-headings ("Coverage A - ...", "Tear Out", "Misrepresentation")
      font 7  BookAntiqua 11 bold (JEEIFH) -> capitals headings (DEFINITIONS, COVERAGE, ...), bold group lines
                                              ("Property not insured :"), defined terms inside quotes, run-in
                                              item titles ("1. Loss of Life")
      font 5  BookAntiqua 11 regular (JEEIFF) -> body; labels are body-font fragments at the line start.
  * Reading order: a fragment that straddles the column gutter (x=459 at zoom 1.5) is full width and splits
    the page into bands; inside a band, left column then right column, top to bottom.
  * Heading depth: an explicit table (HEADINGS below, in reading order) because the fonts do not rank the
    headings consistently (12pt "Coverage A" sits under 11pt "COVERAGE"; 12pt "Insured Perils" is a
    Section I division, like 11pt "BASIS OF CLAIM PAYMENT"). Every font-2/11 line and every own-line
    font-7 line must be in HEADINGS or in NOT_HEADINGS, or the script stops.
  * Item depth: labels are their own fragments at the start of a line; the depth under the open heading
    (or defined term) is the label's indentation: column base (54 / 486) = level 1, each 27 units one
    level deeper. A second label right after the first on one line ("14. a. data", "5. (1) This") is one
    level deeper. Paths that repeat (a second 1., 2. list under one heading) get ~2, ~3.
Writes NAME.expected.tsv next to this script.
"""
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "ca-comprehensive-homeowners-2015"
PDF = HERE / "cache" / f"{NAME}.pdf"
OUT = HERE / f"{NAME}.expected.tsv"
MID = 459
BASES = (54, 486)
STEP = 27

# (page, text as printed (whitespace-normalised, joined lines), depth, label, title)
# label "" = unlabelled heading ({title} path component).
HEADINGS = [
    (1, "COMPREHENSIVE HOMEOWNERS POLICY", 1, "", "COMPREHENSIVE HOMEOWNERS POLICY"),
    (1, "INSURING AGREEMENT", 1, "", "INSURING AGREEMENT"),
    (1, "SECTION I - PROPERTY COVERAGES", 1, "SECTION I -", "PROPERTY COVERAGES"),
    (1, "DEFINITIONS", 2, "", "DEFINITIONS"),
    (2, "COVERAGE", 2, "", "COVERAGE"),
    (2, "Coverage A - Dwelling Building", 3, "Coverage A -", "Dwelling Building"),
    (2, "Extensions of Coverage", 4, "", "Extensions of Coverage"),
    (2, "Tear Out", 5, "", "Tear Out"),
    (2, "Building Fixtures and Fittings", 5, "", "Building Fixtures and Fittings"),
    (2, "Outdoor Trees, Plants, Shrubs and Lawns", 5, "", "Outdoor Trees, Plants, Shrubs and Lawns"),
    (3, "Coverage B - Detached Private Structures", 3, "Coverage B -", "Detached Private Structures"),
    (3, "Coverage C - Personal Property", 3, "Coverage C -", "Personal Property"),
    (3, "Extensions of Coverage", 4, "", "Extensions of Coverage"),
    (3, "Change of Temperature", 5, "", "Change of Temperature"),
    (3, "Moving to Another Home", 5, "", "Moving to Another Home"),
    (3, "Special Limits of Insurance", 4, "", "Special Limits of Insurance"),
    (3, "Coverage D - Additional Living Expense", 3, "Coverage D -", "Additional Living Expense"),
    (4, "SPECIAL COVERAGE FEATURES", 2, "", "SPECIAL COVERAGE FEATURES"),
    (4, "By-Laws Coverage", 3, "", "By-Laws Coverage"),
    (4, "Credit Card, Automated Teller Card, Forgery and Counterfeit Money Coverage", 3, "",
     "Credit Card, Automated Teller Card, Forgery and Counterfeit Money Coverage"),
    (4, "Debris Removal", 3, "", "Debris Removal"),
    (4, "Fire Department Charges", 3, "", "Fire Department Charges"),
    (4, "Frozen Food Protection", 3, "", "Frozen Food Protection"),
    (4, "Inflation Guard", 3, "", "Inflation Guard"),
    (4, "Lock Replacement", 3, "", "Lock Replacement"),
    (4, "Mortgage Rate Protector", 3, "", "Mortgage Rate Protector"),
    (4, "Personal Records Stored in a Personal Computer", 3, "", "Personal Records Stored in a Personal Computer"),
    (4, "Property Removed", 3, "", "Property Removed"),
    (5, "Reward Coverage", 3, "", "Reward Coverage"),
    (5, "Notice to Authorities", 3, "", "Notice to Authorities"),
    (5, "Insured Perils", 2, "", "Insured Perils"),
    (5, "Exclusions – Section 1", 2, "", "Exclusions – Section 1"),
    (5, "Property not insured:", 3, "", "Property not insured"),
    (5, "Loss or damage not insured:", 3, "", "Loss or damage not insured"),
    (5, "Nor do we insure loss or damage:", 3, "", "Nor do we insure loss or damage"),
    (6, "BASIS OF CLAIM PAYMENT", 2, "", "BASIS OF CLAIM PAYMENT"),
    (6, "Amounts Not Reduced", 3, "", "Amounts Not Reduced"),
    (6, "Actual Cash Value", 3, "", "Actual Cash Value"),
    (6, "Deductible", 3, "", "Deductible"),
    (6, "Dwelling and Detached Private Structures", 3, "", "Dwelling and Detached Private Structures"),
    (6, "Guaranteed Replacement Cost on Dwelling Buildings", 3, "", "Guaranteed Replacement Cost on Dwelling Buildings"),
    (6, "Insurance Under More Than One Policy", 3, "", "Insurance Under More Than One Policy"),
    (6, "Personal Property", 3, "", "Personal Property"),
    (7, "Single Limit of Insurance", 3, "", "Single Limit of Insurance"),
    (7, "CONDITIONS", 2, "", "CONDITIONS"),
    (7, "Pair and Set", 3, "", "Pair and Set"),
    (7, "Parts", 3, "", "Parts"),
    (7, "Permissions Granted", 3, "", "Permissions Granted"),
    (7, "Statutory Conditions", 3, "", "Statutory Conditions"),
    (7, "Subrogation", 3, "", "Subrogation"),
    (7, "SECTION II INSURANCE OF YOUR LIABILITY TO OTHERS", 1, "SECTION II", "INSURANCE OF YOUR LIABILITY TO OTHERS"),
    (7, "Definitions", 2, "", "Definitions"),
    (7, "Coverages", 2, "", "Coverages"),
    (8, "Coverage E - Your Personal Liability Protection", 3, "Coverage E -", "Your Personal Liability Protection"),
    (8, "Defence, Settlement Supplementary Payments", 4, "", "Defence, Settlement Supplementary Payments"),
    (8, "Action Against Us", 4, "", "Action Against Us"),
    (8, "Unauthorized Settlements", 4, "", "Unauthorized Settlements"),
    (8, "Coverage F - Voluntary Medical Payments", 3, "Coverage F -", "Voluntary Medical Payments"),
    (8, "Notice of Accident or Occurrence", 4, "", "Notice of Accident or Occurrence"),
    (8, "Coverage G - Voluntary Payment for Damage to Property", 3, "Coverage G -", "Voluntary Payment for Damage to Property"),
    (8, "Basis of Payment", 4, "", "Basis of Payment"),
    (9, "Coverage H - Voluntary Compensation for Residence Employees", 3, "Coverage H -",
     "Voluntary Compensation for Residence Employees"),
    (9, "Schedule of Benefits", 4, "", "Schedule of Benefits"),
    (9, "Loss Assessment Coverage (Condominium Unit Owner)", 3, "", "Loss Assessment Coverage (Condominium Unit Owner)"),
    (9, "Special Limitations", 2, "", "Special Limitations"),
    (9, "Watercraft and Motorized Vehicles", 3, "", "Watercraft and Motorized Vehicles"),
    (9, "Watercraft and Motorized Vehicles You Do Not Own", 3, "", "Watercraft and Motorized Vehicles You Do Not Own"),
    (9, "Trailers", 3, "", "Trailers"),
    (10, "Business and Business Property", 3, "", "Business and Business Property"),
    (10, "Exclusions - Section II", 2, "", "Exclusions - Section II"),
    (10, "CONDITIONS", 2, "", "CONDITIONS"),
    (10, "GENERAL POLICY CONDITIONS", 1, "", "GENERAL POLICY CONDITIONS"),
    (10, "Notice of Accident or Occurrence", 2, "", "Notice of Accident or Occurrence"),
    (10, "Co-operation", 2, "", "Co-operation"),
    (10, "Examination", 2, "", "Examination"),
    (10, "Waiver", 2, "", "Waiver"),
    (10, "Cancellation Provision following a Declaration of Emergency", 2, "",
     "Cancellation Provision following a Declaration of Emergency"),
    (11, "STATUTORY CONDITIONS", 1, "", "STATUTORY CONDITIONS"),
    (11, "Misrepresentation", 2, "", "Misrepresentation"),
    (11, "Property of Others", 2, "", "Property of Others"),
    (11, "Change of Interest", 2, "", "Change of Interest"),
    (11, "Material Change", 2, "", "Material Change"),
    (11, "Termination", 2, "", "Termination"),
    (11, "Requirements After Loss", 2, "", "Requirements After Loss"),
    (11, "Fraud", 2, "", "Fraud"),
    (11, "Who May Give Notice and Proof", 2, "", "Who May Give Notice and Proof"),
    (11, "Salvage", 2, "", "Salvage"),
    (12, "Entry, Control, Abandonment", 2, "", "Entry, Control, Abandonment"),
    (12, "Appraisal", 2, "", "Appraisal"),
    (12, "When Loss Payable", 2, "", "When Loss Payable"),
    (12, "Replacement", 2, "", "Replacement"),
    (12, "Action", 2, "", "Action"),
    (12, "Notice", 2, "", "Notice"),
]

# Bold lines that are not outline nodes (page, start of text).
NOT_HEADINGS = [
    (1, "SECTION I describes"),      # run-in bold words in the Insuring Agreement's prose
    (1, "SECTION II describes"),
    (1, "SECTION III describes"),
    (3, "The following special limits of insurance"),  # bold sentence inside the 1-18 list (two lines)
    (3, "a Specified Peril:"),
    (5, "You are insured against all risks"),          # bold body text (font 14)
    (9, "FOR LOSS OF:"),                                # table header of the Injury Benefits table
    (10, "The following conditions apply to all sections"),  # bold intro sentence (font 9)
]

# Definitions headings: defined terms ("Term" means ...) are {Term} children of these.
DEF_HEADINGS = {(1, "DEFINITIONS"), (7, "Definitions")}

LABEL_RE = re.compile(r"^(\(\d{1,2}\)|\([ivx]+\)|\([a-z]\)|\d{1,2}\.|[a-z]\.|[a-z]\)|[A-D]\.|[ivx]+\.)(?=\s|$)")


def norm(s):
    return re.sub(r"\s+", " ", s.replace("\u00a0", " ")).strip()


def fragments():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", str(PDF)], capture_output=True, text=True).stdout
    pages = re.split(r'<page number="', xml)[1:]
    out = []
    for pg in pages:
        pn = int(pg.split('"')[0])
        items = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="\d+" font="(\d+)">(.*?)</text>', pg):
            t, l, w, f, s = int(m[1]), int(m[2]), int(m[3]), m[4], m[5]
            s = re.sub("<.*?>", "", s).replace("&#34;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
            if not s.strip():
                continue
            items.append(dict(p=pn, t=t, l=l, w=w, f=f, s=s, span=(l < MID - 20 and l + w > MID + 20)))
        spans = sorted({i["t"] for i in items if i["span"]})
        for i in items:
            band = sum(1 for s in spans if i["t"] >= s)
            col = 0 if i["span"] or i["l"] < MID else 1
            i["col"] = col
            i["ord"] = (band, -1 if i["span"] else col, i["t"], i["l"])
        items.sort(key=lambda i: i["ord"])
        out.extend(items)
    return out


def lines():
    """Merge fragments of one page/column/top into a line: list of (x, font, text)."""
    res = []
    for fr in fragments():
        key = (fr["p"], fr["col"], fr["span"], fr["t"])
        if res and res[-1]["key"] == key:
            res[-1]["frags"].append((fr["l"], fr["f"], fr["s"]))
            res[-1]["ws"].append(fr["w"])
        else:
            res.append(dict(key=key, p=fr["p"], col=fr["col"], span=fr["span"], frags=[(fr["l"], fr["f"], fr["s"])],
                            ws=[fr["w"]]))
    for ln in res:
        txt = ""
        for k, (l, f, s) in enumerate(ln["frags"]):
            if k and l > ln["frags"][k - 1][0] + ln["ws"][k - 1] + 1:
                txt += " "
            txt += s
        ln["text"] = norm(txt)
        ln["x"] = ln["frags"][0][0]
        ln["f0"] = ln["frags"][0][1]
    return res


def term_title(ln):
    """'"We", "us" or "our" means ...' -> '"We", "us" or "our"' (up to the last bold fragment + quote)."""
    fr = ln["frags"]
    last = max(i for i, (_, f, _) in enumerate(fr) if f == "7")
    txt = norm("".join(s for _, _, s in fr[: last + 1]) + '"')
    if txt.count('"') == 2:          # a single term: drop its quotes ("Flood" -> Flood)
        txt = txt.strip('"').strip()
    return txt


def main():
    L = lines()
    rows = []          # [path, label, title, page]
    seen = {}
    stack = []         # list of (depth, component)
    heads = list(HEADINGS)
    hi = 0
    in_defs = False
    base_depth = 0     # depth of the node items hang under
    pending = None     # first line of a two-line heading

    def add(depth, comp, label, title, page):
        nonlocal stack
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack and stack[-1][0] != depth - 1:
            sys.exit(f"depth jump at p{page} {label} {title}: {stack}")
        if not stack and depth != 1:
            sys.exit(f"no parent at p{page} {label} {title}")
        stack.append((depth, comp))
        path = ".".join(c for _, c in stack)
        n = seen.get(path, 0) + 1
        seen[path] = n
        if n > 1:
            path += f"~{n}"
            stack[-1] = (depth, comp + f"~{n}")
        rows.append([path, label, title, page])

    i = 0
    while i < len(L):
        ln = L[i]
        p, txt = ln["p"], ln["text"]
        is_bold_line = ln["f0"] in ("2", "11") or (ln["f0"] == "7" and not LABEL_RE.match(txt))
        # two-line headings
        if hi < len(heads) and heads[hi][0] == p and is_bold_line:
            want = heads[hi][1]
            cand = txt
            j = i
            while cand != want and want.startswith(cand) and j + 1 < len(L):
                j += 1
                cand = norm(cand + " " + L[j]["text"])
            if cand == want:
                _, _, depth, label, title = heads[hi]
                comp = label[:-2].strip() if label.endswith(" -") else (label if label else "{" + title + "}")
                add(depth, comp, label, title, p)
                in_defs = (p, want) in DEF_HEADINGS
                base_depth = depth
                hi += 1
                i = j + 1
                continue
        if is_bold_line and not (ln["frags"][0][2].strip() == '"'):
            if any(p == q and txt.startswith(s) for q, s in NOT_HEADINGS):
                i += 1
                continue
            if txt in (";", "."):
                i += 1
                continue
            sys.exit(f"unclassified bold line p{p}: {txt!r} (next heading expected: {heads[hi][:2] if hi < len(heads) else None})")
        # defined term
        if in_defs and ln["frags"][0][2].strip() == '"' and len(ln["frags"]) > 1 and ln["frags"][1][1] == "7":
            t = term_title(ln)
            # defs depth: heading depth + 1
            ddepth = [d for d, c in stack if c in ("{DEFINITIONS}", "{Definitions}")][-1] + 1
            add(ddepth, "{" + t + "}", "", t, p)
            base_depth = ddepth
            i += 1
            continue
        # labelled item(s)
        m = LABEL_RE.match(txt)
        if m and not ln["span"]:
            base = BASES[ln["col"]]
            lvl = (ln["x"] - base) // STEP + 1
            if (ln["x"] - base) % STEP not in (0,):
                sys.exit(f"odd indent p{p} x{ln['x']}: {txt}")
            rest = txt
            labels = []
            while True:
                m = LABEL_RE.match(rest)
                if not m:
                    break
                labels.append(m.group(1))
                rest = rest[m.end():].strip()
            words = rest.split()
            for k, lab in enumerate(labels):
                tail = re.sub(r"\s*\.{2,}.*$", "", rest)   # dot leaders of the benefits table
                after = " ".join(labels[k + 1:] + [tail]).split()
                first = " ".join(after[:8])
                comp = lab.rstrip(".)") if not lab.startswith("(") else lab
                add(base_depth + lvl + k, comp, lab, first, p)
            i += 1
            continue
        i += 1
    if hi != len(heads):
        sys.exit(f"headings not all found: next {heads[hi]}")
    with OUT.open("w") as fh:
        fh.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            fh.write("\t".join(str(c) for c in r) + "\n")
    nh = sum(1 for r in rows if not r[1] or r[1].startswith(("SECTION", "Coverage")))
    print(f"{len(rows)} rows, {nh} headings (incl. defined terms), {len(rows) - nh} items -> {OUT}")


if __name__ == "__main__":
    main()

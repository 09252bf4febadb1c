#!/usr/bin/env python3
"""Ground-truth outline of the Auto-Owners Insurance Company commercial auto policy (issued 10-27-2023).

Independent of stream_chunker.  Reads cache/auto-owners-commercial-auto-2023.pdf with poppler's
`pdftohtml -xml -i` (text runs with position, font id and <b> bold flag) and writes
auto-owners-commercial-auto-2023.expected.tsv next to this script.

The PDF (65 pages, Oracle Documaker output) is one issued policy: billing letter (p.1), privacy and
Minnesota guaranty notices (pp.2-4), declarations (pp.5-13), the policy jacket 58023 (pp.14-15), the
Quick Reference contents page 58000 (p.16), the Commercial Auto Policy 58001 (pp.17-32) and sixteen
endorsements (pp.33-65; fifteen forms, 58650 printed once per named individual).

Reading order.  Runs are grouped into physical lines by vertical centre (+-3 px); a line is cut into a
left and a right column segment where a run starts right of x = 449 after a gap (the page is 918 px
wide, columns start at x = 54 and x = 486).  A segment that starts in the left column and runs past
x = 489 is full width.  Full-width segments split the page into bands; inside a band the left column is
read before the right column.  The running header (`Agency Code ... Policy Number ...`, top < 45), the
form number line (`58001 (1-15)`) and the footer (`... Includes copyrighted material ...`,
`Page N of M`) are dropped.

Rows.
  * rank 0, parts (path `{Title}`): the notices' and forms' titles: pdftohtml font 6 (Albany-Bold 21 px)
    on pp.2, 4 and 17, font 10 (45 px) for the jacket cover (p.14), font 11 (30 px) for endorsement
    titles (consecutive title lines joined); the declarations title (font 3) once, on p.5 (pp.7 and 13
    repeat it on continuation sheets).  An endorsement printed twice (58650, once per named
    individual, pp.33-34) gets `~2`.
  * rank 1: `SECTION I - ...` headings of form 58001 (font 6, label `SECTION I -`, component
    `SECTION I`), and the quoted `SECTION IV - INDIVIDUAL NAMED INSURED` heading of the replacement
    text on p.62 (font 5); the `ITEM ONE/TWO/THREE` boxes and the `Scheduled Drivers List` of the
    declarations; the bold sub-headings of the privacy notice (font 5, pp.2-3) and of the jacket
    (font 9, p.15).
  * items: a column segment whose text starts with a label (`A.` `1.` `a.` `i.` `(1)` `(a)` `1)` `a)`)
    in bold (every label in this PDF is bold).  Nesting by indent: the wording indents every level by
    27 px from the column start (54 / 486), so level = round((x - column start) / 27); an item is the
    child of the nearest open item of a smaller level, else of the open SECTION heading, else of the
    part.  A text line printed on the 27 px grid at the label indent of an open item (or left of it)
    is text of that item's parent and closes the item, so a second list after such a paragraph
    becomes a sibling list of the parent (`a.`~2) rather than children of the last item.  A chained
    label (`D. 1.`, `(1) (a)`, `7. a.`) gives two rows, the second one level deeper (the first row's
    words are the rest of its line); when the second label is a reference to the policy text being
    amended (`1. A. LOSS CONDITIONS is amended.`) it is text instead (REF_CHAINS).  A label repeated
    under one parent gets `~2`, `~3`.
  * not items: a label-shaped line that continues a bold amendment reference (`SECTION III -
    PHYSICAL DAMAGE COVERAGE, / A. COVERAGE is amended.`: the previous line of the column is a bold
    `SECTION ...` line not ending in `.` or `:`), and the wrapped citations listed in DROP
    (`a. above.`, `6.c. of the definition ...`).  `python3 make_NAME.py --debug` prints every chain,
    dropped line and wrapped reference, and label lines whose previous line does not end a clause,
    for review.
  * hand tables below: FRONT (rows of pp.1-16), DROP, REF_CHAINS, SUBHEADS (bold unlabelled quoted
    headings of added provisions whose list hangs under them) and DEF_TERMS (the unlabelled run-in
    defined terms of the nuclear endorsement); SUBHEADS and DEF_TERMS rows sit half a level above
    their indent, so the items printed at their indent become their children.
Title/first words: the text after the label, continued over the item's wrapped lines, cut to <= 60
characters at a word end; for headings the heading text.
"""
import html
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "auto-owners-commercial-auto-2023"
PDF = HERE / "cache" / f"{NAME}.pdf"
OUT = HERE / f"{NAME}.expected.tsv"

MID = 459          # column split (x of the right column start is 486)
BASE = {"L": 54, "R": 486}
STEP = 27          # indent of one outline level
FIRST_BODY_PAGE = 17
DEBUG = "--debug" in sys.argv

# ---- hand decisions -------------------------------------------------------------------------
# Rows of the front matter (pp.1-16), which is letters, notices, declarations and the jacket:
# (page, rank, text as printed at the start of the line, label, title).  rank 0 = part.
FRONT = [
    # p.2-3 notice of privacy practices: title (font 6) and its bold (font 5) sub-headings
    (2, 0, "NOTICE OF PRIVACY PRACTICES", "", "NOTICE OF PRIVACY PRACTICES"),
    (2, 1, "What We Do To Protect Your Privacy", "", "What We Do To Protect Your Privacy"),
    (2, 1, "Protecting Confidentiality", "", "Protecting Confidentiality"),
    (2, 1, "Information We Obtain", "", "Information We Obtain"),
    (2, 1, "The Internet and Your Information", "", "The Internet and Your Information"),
    (2, 1, "Limited Disclosure", "", "Limited Disclosure"),
    (3, 1, "How Long We Retain Your Information", "", "How Long We Retain Your Information"),
    (3, 1, "Changes to the Privacy Policy", "", "Changes to the Privacy Policy"),
    (3, 1, "Contact Us", "", "Contact Us"),
    # p.4 guaranty association notice: 3-line title under the company name line (letterhead)
    (4, 0, "NOTICE CONCERNING POLICYHOLDER RIGHTS IN AN", "",
     "NOTICE CONCERNING POLICYHOLDER RIGHTS IN AN INSOLVENCY UNDER THE MINNESOTA INSURANCE "
     "GUARANTY ASSOCIATION LAW"),
    # pp.5-13 declarations: title once, the numbered ITEM boxes the policy cites ("Item Two of
    # the Declarations"), and the drivers list sheet; schedule contents are not rows
    (5, 0, "COMMERCIAL AUTO POLICY DECLARATIONS", "", "COMMERCIAL AUTO POLICY DECLARATIONS"),
    (5, 1, "ITEM  ONE", "ITEM ONE", "NAMED INSURED"),
    (5, 1, "ITEM TWO - SCHEDULE OF COVERED AUTOS AND COVERAGES", "ITEM TWO -",
     "SCHEDULE OF COVERED AUTOS AND COVERAGES"),
    (7, 1, "ITEM THREE - SCHEDULE OF COVERED AUTOS, ADDITIONAL COVERAGES AND ENDORSEMENTS",
     "ITEM THREE -", "SCHEDULE OF COVERED AUTOS, ADDITIONAL COVERAGES AND ENDORSEMENTS"),
    (13, 1, "Scheduled Drivers List", "", "Scheduled Drivers List"),
    # pp.14-15 policy jacket 58023: cover title and its three headed provisions
    (14, 0, "Commercial Auto", "", "Commercial Auto Policy"),
    (15, 1, "POLICY NON-ASSESSABLE", "", "POLICY NON-ASSESSABLE"),
    (15, 1, "PARTICIPATING", "", "PARTICIPATING"),
    (15, 1, "NOTICE OF MEMBERSHIP AND ANNUAL MEETING", "", "NOTICE OF MEMBERSHIP AND ANNUAL MEETING"),
    # p.16 "QUICK REFERENCE" is the contents list of form 58001: no rows.
]
FRONT_ITEM_PATH = {"ITEM ONE": "ITEM ONE", "ITEM TWO -": "ITEM TWO", "ITEM THREE -": "ITEM THREE"}

# Label-shaped starts that are wrapped text (a citation continued from the line before):
# (page, column, rounded line centre, label).  Each was read on the page.
DROP = {
    (21, "R", 216, "6."),    # "... listed in Paragraphs 6.b. and / 6.c. of the definition of ..."
    (25, "L", 756, "a."),    # "... described in Paragraph 1. / a. above."
    (28, "R", 146, "b."),    # "... in Paragraph / b.(1), b.(2) or b.(3) above ..."
    (28, "R", 484, "a."),    # "Regardless of the provisions of Paragraph / a. above, ..."
    (31, "R", 706, "4."),    # "Vehicles not described in Paragraph 1., 2., 3. or / 4. above ..."
    (31, "R", 892, "4."),    # same wording in mobile equipment 6.
    (51, "R", 910, "(1)"),   # "... designed for use with equipment described in / (1) immediately above."
    (64, "R", 720, "(1)"),   # "... Limit of Insurance provided in Paragraph / (1)(b)4) above."
    (61, "L", 516, "a."),    # "a. Comprehensive Coverage and b. Collision Coverage is extended to
                             #  an auto ..." (cites the policy's coverages 1.a./1.b., a sentence)
}
# Reference lines "SECTION III - PHYSICAL DAMAGE COVERAGE, / A. COVERAGE is amended." whose second
# line starts with a label-shaped reference: dropped by rule (the previous segment of the column
# starts with "SECTION" and ends with "," or "-"); listed in REF_LINE_PAGES for the record.

# Chained labels whose second label is a reference to the amended policy text, not a new level:
# (page, rounded centre of the line).  The row keeps the first label; the rest is its text.
REF_CHAINS = {
    (48, 232),   # "1. A. LOSS CONDITIONS is amended."
    (48, 248),   # "a. 1. Duties in the Event of Accident, Claim, Suit or Loss is ..." and (right
                 # column, same height) "2. B. GENERAL CONDITIONS is amended."
    (48, 164),   # "c. 5. Our Right to Recover Payments is amended ..."
    (48, 756),   # "b. 7. Duplication of Coverage is amended as follows"
    (48, 892),   # "b. 2. Legal Action Against Us is deleted and replaced ..."
    (51, 436),   # "d. B. EXCLUSIONS is amended.  Exclusion 1. is deleted ..."
    (58, 314),   # "a. 1. Duties in the Event of Accident, Claim, ..."
    (58, 348),   # "1. A. COVERAGE is amended."
    (58, 466),   # "b. 3. Appraisal for Physical Damage Loss is ..."
    (58, 686),   # "c. 2. Coverage Extensions, a. ..."
    (58, 822),   # "2. C. LIMIT OF INSURANCE is amended."
    (58, 992),   # "1. A. LOSS CONDITIONS is amended."
    (59, 98),    # "2. B. GENERAL CONDITIONS is amended."
    (59, 130),   # "c. 5. Our Right to Recover Payments is ..."
    (59, 232),   # "b. 6. Concealment, Misrepresentation or ..."
    (60, 742),   # "1. B. is deleted and replaced by the following definition."
    (60, 760),   # "2. U. is deleted and replaced by the following definition."
}

# Bold unlabelled quoted headings of added provisions whose list hangs under them:
# (page, text) -> the heading takes half a level less than its indent, so the items printed at
# its own indent become its children.
SUBHEADS = {
    (35, "Exclusion of Terrorism"),   # added exclusion under A. and again under B.
    (42, "Our Right to Recover Payments"),  # replacement condition (E.3), its a.-f. under it
    (42, "Arbitration"),              # added condition (E.4), its a.-b. under it
    (65, "Auto Sharing Program"),     # added exclusion under A. and again under B.
}
# Unlabelled run-in defined terms of IL 00 21 (58200) paragraph 2. "As used in this endorsement:"
# (bold term at the start of its paragraph; two of them carry (a)-(d) lists): rows {Term}, treated
# like SUBHEADS.  (page, start of the paragraph's first line) -> term as printed.
DEF_TERMS = {
    (37, "Hazardous properties"): "Hazardous properties",
    (37, "Nuclear material"): "Nuclear material",
    (37, "Source material, special nuclear material, and"):
        "Source material, special nuclear material, and by-product material",
    (37, "Spent fuel"): "Spent fuel",
    (37, "Waste"): "Waste",
    (38, "Nuclear facility"): "Nuclear facility",
    (38, "Nuclear reactor"): "Nuclear reactor",
    (38, "Property damage"): "Property damage",
}

LABEL_RE = re.compile(
    r"^(\(\d{1,2}\)|\([a-z]{1,3}\)|\d{1,2}\)|[a-z]\)|\d{1,2}\.|[A-Z]\.|[ivx]{1,4}\.|[a-z]\.)\s*")
FURNITURE = re.compile(r"^(Agency Code|\d{5} \(\d{1,2}-\d{2}\)|Page \d+ of \d+)")


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", str(PDF)],
                         capture_output=True, text=True, check=True).stdout
    pages = {}
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        runs = []
        for t in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="(\d+)" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            top, left, w, h, font, raw = t.groups()
            text = html.unescape(re.sub(r"<[^>]+>", "", raw))
            if not text.strip():
                continue
            runs.append(dict(top=int(top), left=int(left), w=int(w), h=int(h), font=int(font),
                             bold="<b>" in raw, text=text))
        pages[int(pm.group(1))] = runs
    return pages


def join(runs):
    out = ""
    prev = None
    for r in runs:
        t = r["text"]
        if prev is not None and r["left"] > prev["left"] + prev["w"] + 1 \
                and not out.endswith(" ") and not t.startswith(" "):
            out += " "
        out += t
        prev = r
    return re.sub(r"\s+", " ", out).strip()


def segments(runs):
    """Physical lines cut into column segments, in reading order (bands, left before right)."""
    runs = sorted(runs, key=lambda r: (r["top"] + r["h"] / 2, r["left"]))
    lines = []
    for r in runs:
        c = r["top"] + r["h"] / 2
        if lines and abs(lines[-1]["c"] - c) <= 3:
            lines[-1]["runs"].append(r)
        else:
            lines.append(dict(c=c, runs=[r]))
    segs = []
    for ln in lines:
        rr = sorted(ln["runs"], key=lambda r: r["left"])
        parts, cur = [], []
        for r in rr:
            if cur and r["left"] >= MID - 10 and cur[0]["left"] < MID - 10 \
                    and cur[-1]["left"] + cur[-1]["w"] < r["left"] - 8:
                parts.append(cur)
                cur = []
            cur.append(r)
        parts.append(cur)
        for p in parts:
            end = p[-1]["left"] + p[-1]["w"]
            if p[0]["left"] < MID - 10 and end > MID + 30:
                col = "F"
            else:
                col = "L" if p[0]["left"] < MID - 10 else "R"
            segs.append(dict(c=round(ln["c"], 1), col=col, left=p[0]["left"], runs=p,
                             text=join(p), font=p[0]["font"], bold=p[0]["bold"],
                             allbold=all(x["bold"] for x in p)))
    # bands
    ordered, band = [], []

    def flush():
        band.sort(key=lambda s: (0 if s["col"] == "L" else 1, s["c"]))
        ordered.extend(band)
        band.clear()
    for s in segs:
        if s["col"] == "F":
            flush()
            ordered.append(s)
        else:
            band.append(s)
    flush()
    return ordered


def body_segments(pages):
    out = []
    for p in sorted(pages):
        for s in segments(pages[p]):
            s["page"] = p
            if s["c"] < 45 or s["c"] > 1030 or FURNITURE.match(s["text"]) \
                    or "Includes copyrighted material" in s["text"]:
                continue
            out.append(s)
    return out


def cut(text, limit=60):
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= limit:
        return text
    t = text[:limit + 1]
    return t[:t.rfind(" ")] if " " in t else t[:limit]


def main():
    pages = load()
    segs = body_segments(pages)
    rows = []            # dicts: path, label, title, page
    children = {}        # parent path -> {component: count}

    def add(parent, comp, label, title, page):
        seen = children.setdefault(parent, {})
        n = seen.get(comp, 0) + 1
        seen[comp] = n
        c = comp if n == 1 else f"{comp}~{n}"
        path = c if not parent else f"{parent}.{c}"
        rows.append(dict(path=path, label=label, title=title, page=page))
        return path

    # ---- front matter (pp.1-16) from the FRONT table; each text must be on its page -------
    part = None
    for page, rank, start, label, title in FRONT:
        texts = [s["text"] for s in segments(pages[page])]
        if not any(t.startswith(start) or t.replace(" ", "").startswith(start.replace(" ", ""))
                   for t in texts):
            sys.exit(f"FRONT text not found on p.{page}: {start}")
        if rank == 0:
            part = add("", "{%s}" % title, "", title, page)
        else:
            comp = FRONT_ITEM_PATH.get(label, "{%s}" % title)
            add(part, comp, label, title, page)

    # ---- form 58001 and the endorsements (pp.17-65) --------------------------------------
    body = [s for s in segs if s["page"] >= FIRST_BODY_PAGE]
    stack = []           # open items and sub-headings: dict(level, path[, sub])
    part = section = None
    i = 0
    while i < len(body):
        s = body[i]
        p, t = s["page"], s["text"]
        # part titles: font 6 "COMMERCIAL AUTO POLICY" (p.17), font 11 endorsement titles
        if s["col"] == "F" and s["allbold"] and (s["font"] == 11 or
                                                 (s["font"] == 6 and not t.startswith("SECTION"))):
            title = t
            j = i + 1
            while j < len(body) and body[j]["page"] == p and body[j]["font"] == 11 \
                    and body[j]["allbold"]:
                title += " " + body[j]["text"]
                j += 1
            if j < len(body) and body[j]["page"] == p and body[j]["text"] == "(Broad Form)":
                title += " (Broad Form)"      # IL 00 21 prints its subtitle in font 9
                j += 1
            title = re.sub(r"\s+", " ", title).strip()
            part = add("", "{%s}" % title, "", title, p)
            section, stack = None, []
            i = j
            continue
        # SECTION headings (font 6 in 58001, font 5 quoted heading on p.62)
        m = re.match(r"^(SECTION [IVX]+) [-–] (.*)$", t)
        if s["col"] == "F" and s["allbold"] and m and s["font"] in (5, 6):
            section = add(part, m.group(1), m.group(1) + " -", m.group(2), p)
            stack = []
            i += 1
            continue
        term = next((d for (pg, st), d in DEF_TERMS.items() if pg == p and s["bold"]
                     and s["col"] in "LR" and t.startswith(st)), None)
        if (p, t) in SUBHEADS or term:
            head = term or t
            lvl = (s["left"] - BASE["L" if s["col"] != "R" else "R"]) / STEP - 0.5
            while stack and stack[-1]["level"] >= lvl:
                stack.pop()
            parent = stack[-1]["path"] if stack else (section or part)
            path = add(parent, "{%s}" % head, "", head, p)
            stack.append(dict(level=lvl, path=path, sub=True))
            i += 1
            continue
        m = LABEL_RE.match(t)
        if not (m and s["bold"] and s["col"] in "LR") \
                or (p, s["col"], round(s["c"]), m.group(1)) in DROP:
            # text: a line printed at the label indent of an open item (or left of it) is text
            # of that item's parent, so the item is closed (sub-headings stay open)
            off = s["left"] - BASE.get(s["col"], 0)
            if s["col"] in "LR" and abs(off - STEP * round(off / STEP)) <= 2:
                # (table cells, e.g. the p.41 priority table at x 59, are off the 27 px grid)
                lx = round(off / STEP)
                while stack and not stack[-1].get("sub") and stack[-1]["level"] >= lx:
                    stack.pop()
            if m and DEBUG:
                print("DROPPED", (p, s["col"], round(s["c"]), m.group(1)), t[:50], file=sys.stderr)
            i += 1
            continue
        label = m.group(1)
        key = (p, s["col"], round(s["c"]), label)
        # wrapped reference line: previous segment in this column is a bold "SECTION ..." line
        prev = body[i - 1]
        if prev["page"] == p and prev["col"] == s["col"] and prev["bold"] \
                and re.match(r"^(SECTION [IVX]+|[A-Z]\. SECTION [IVX]+)", prev["text"]) \
                and not re.search(r"[.:]$", prev["text"].rstrip()):
            if DEBUG:
                print("REFWRAP", key, "| prev:", prev["text"][-50:], "| this:", t[:50], file=sys.stderr)
            i += 1
            continue
        rest = t[m.end():]
        labels = [label]
        m2 = LABEL_RE.match(rest)
        if m2:
            if DEBUG:
                print("CHAIN", (p, round(s["c"])), t[:70], file=sys.stderr)
            if (p, round(s["c"])) not in REF_CHAINS:
                labels.append(m2.group(1))
                chain_text = rest
                rest = rest[m2.end():]
        if DEBUG:
            pt = prev["text"].rstrip()
            if prev["page"] != p or prev["col"] != s["col"]:
                pass
            elif not re.search(r"([.:;]|\bor|\band)$", pt) or re.match(r"[a-z]|above", rest):
                print("FLAG", key, "| prev:", pt[-40:], "| this:", t[:50], file=sys.stderr)
        level = round((s["left"] - BASE[s["col"]]) / STEP)
        # text: this line's rest plus following lines of the same column until the next label
        words = rest
        j = i + 1
        while len(words) < 70 and j < len(body):
            n = body[j]
            nm = LABEL_RE.match(n["text"])
            if n["page"] != p or n["col"] != s["col"] \
                    or (nm and (p, n["col"], round(n["c"]), nm.group(1)) not in DROP) \
                    or n["left"] < s["left"] + 10 or n["c"] - body[j - 1]["c"] > 25:
                break
            words += " " + n["text"]
            j += 1
        for k, lab in enumerate(labels):
            lv = level + k
            while stack and stack[-1]["level"] >= lv:
                stack.pop()
            parent = stack[-1]["path"] if stack else (section or part)
            comp = lab.strip("().").rstrip(")")
            title = cut(words) if k == len(labels) - 1 else cut(chain_text + words[len(rest):])
            path = add(parent, comp, lab, title, p)
            stack.append(dict(level=lv, path=path))
        i += 1

    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            fh.write(f"{r['path']}\t{r['label']}\t{r['title']}\t{r['page']}\n")
    print(f"{len(rows)} rows -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()

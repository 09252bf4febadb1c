#!/usr/bin/env python3
"""Ground-truth outline of Aviva "Your House Insurance Policy" booklet (BHHHG15133 07.2024).

Independent of stream_chunker: reads cache/aviva-your-house-2024.pdf through poppler's
`pdftohtml -xml -i` (text runs with position and font id), groups each page's runs into
physical lines (same `top` within 3 px, sorted by `left`), and classifies every line by the
font id of its first run. The page is one column (left margin x 85 at zoom 1.5; shaded
call-out boxes start at x 137).

Fonts (fontspec ids; all SourceSansPro):
  1   30 px bold blue    page titles (`Buildings`, `Contents – optional covers`, `Questions & Answers`)
  7   21 px bold blue    sub-headings (`What’s covered?`, `Our standard Buildings cover also
                         includes:`, `Loss of rent ...`) and numbered condition titles (`1. Claims`)
  11  18 px bold blue    minor headings at the margin (`What you need to do`, `Loss or theft of keys`),
                         numbered exclusion titles (`1. Gradually occurring damage`, x 137), and the
                         run-in defined terms of `Words with special meanings` (`Flood A substantial ...`)
  14  18 px bold         the one box heading `To help us settle your claim` (p. 10)
  8/9, 17/18             body text (list labels `1.` `a.` `(i)` are body text)
  5, 6, 19, 20           print slug, page numbers, back-cover imprint: never rows

Ranks (a heading closes every open heading of the same or a lower rank; SPEC 5c):
  1    a font-1 title that is an entry of the printed contents list on p. 3 (same page, title
       starts with the entry): Welcome, Words with special meanings, General Conditions, General
       Exclusions, Buildings, Contents, Personal belongings, Your legal liabilities, Family Legal
       Protection
  2    any other font-1 title (`Buildings – what’s not covered?`, `Buildings conditions`,
       `Questions & Answers`): a part of the contents entry whose page range holds it
  2.5  the five insured-event titles (hand table INSURED_EVENTS): children of
       `Your Cover and Insured Events`
  3    font 7; a generic cover heading (`What’s covered?`, `What is not covered?`, `Common
       examples of ...`, `Our standard ... cover also includes:`) is 3.5 when a named font-7
       heading (`Contents at the home`, `Extra accidental damage to buildings`, `Added benefit if
       you are renting your home`) is open, so it sits under that cover; font-7 headings that
       follow a font-7 heading ending in `:` (the Buildings `also includes:` list, pp. 15-16) are
       3.7, its children, until the next font-1 title; hand table SUBTERMS gives 3.7 too
  4    font 11 (at the margin, or with a label)
  5    font 14
Items: a body line that starts with a label `1.`, `a.`, `(i)`; the label families nest
arabic > letter > (roman) as the wording prints them; a family already open closes the deeper
levels (a new list of the same family after text is a sibling run and gets `~2`); any heading
closes all items. An item's first words are the rest of its line plus continuation lines that
are indented beyond the label (max ~60 characters); hand table FIRST_WORDS for the liabilities
table on p. 29.
Path components: `{Title}` for unlabelled headings and defined terms, the label without its
final `.` for numbered headings and items (`(i)` kept); a repeated path gets `~n`.
Not rows: the cover (p. 1), the contents list (`Finding your way around`, p. 3), the schedule
of limits table (pp. 5-6, only its title is a row), the kicker `Insured Event` (p. 33), blank
p. 43 and the back cover (p. 44); bullets `•` and dashes `-`; bold lead-ins in the body font
(`Important note:`, `Terrorism means:`, `Outbuildings are not:`); the bold cover names in the
second column of the p. 29 table (`Your Liability to the public` ...).
Checked against pdftotext (not part of this script): every row's label and first words occur on
its page (-raw for two rows), and every -raw line that starts with a label is a row.
Writes NAME.expected.tsv next to this script.
"""
import html
import os
import re
import subprocess

NAME = "aviva-your-house-2024"
HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, "cache", NAME + ".pdf")
OUT = os.path.join(HERE, NAME + ".expected.tsv")

MARGIN = 85
SKIP_PAGES = {1, 43, 44}           # cover, blank page, back cover
CONTENTS_PAGE = 3                  # `Finding your way around` list: lines above KEY_TOP
KEY_TOP = 450                      # p.3 `Key` legend starts below this
TABLE_PAGES = {5, 6}               # schedule of limits: only the font-1 title is a row

# ---- hand decisions (judgement calls) ----
# Wrapped headings: (page, top of first line) -> number of lines to join.
WRAPPED = {
    (38, 420): 2,   # `Where and when does the issue/incident ... covered under` / `the policy?`
    (40, 77): 2,    # `Assessing your case, including ‘Prospects of success’` / `and ‘Proportionality’`
}
# Font-7 kicker printed above the page title on p.33 only: a tag, not a heading.
KICKERS = {(33, 80)}
# The insured events (font-1 page titles) are children of `Your Cover and Insured Events`.
INSURED_EVENTS = {(33, 123), (34, 77), (35, 77), (36, 77), (37, 77)}
# Q&A p.38: `Costs and expenses`, `Lawyer` (font 7) are the definitions the question
# `Some words are in bold in this booklet, what does it mean?` introduces: its children.
SUBTERMS = {(38, 294), (38, 357)}
# Liabilities table p.29: first words = the row-label cell (`Where you are legally liable:`);
# the second cell's bold cover name is not a row.
FIRST_WORDS = {
    (29, 676): "as owner",
    (29, 864): "as occupier",
    (29, 939): "in a personal capacity",
    (29, 1060): "as employer",
}

GENERIC = re.compile(r"^(What’s covered\??|What is covered\??|What’s not covered\??|"
                     r"What is not covered\??|Common examples of .*|Our standard .* also includes:)$")
LABEL = re.compile(r"^(\d{1,2}\.|[a-q]\.|\((?:i|ii|iii|iv|v|vi)\))\s+(\S.*)$")


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def load():
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", PDF],
                         capture_output=True, text=True, check=True).stdout
    pages = []
    for pm in re.finditer(r'<page number="(\d+)"[^>]*>(.*?)</page>', xml, re.S):
        n = int(pm.group(1))
        frags = []
        for m in re.finditer(r'<text top="(\d+)" left="(\d+)" width="\d+" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2)):
            text = html.unescape(re.sub(r"<[^>]*>", "", m.group(4)))
            frags.append((int(m.group(1)), int(m.group(2)), m.group(3), text))
        frags.sort()
        lines = []
        for f in frags:
            if lines and abs(lines[-1][0][0] - f[0]) <= 3:
                lines[-1].append(f)
            else:
                lines.append([f])
        out = []
        for ln in lines:
            ln.sort(key=lambda a: a[1])
            runs = [(left, font, text) for _, left, font, text in ln]
            out.append(dict(page=n, top=ln[0][0], left=runs[0][0], runs=runs,
                            text=norm("".join(t for _, _, t in runs))))
        pages.append((n, out))
    return pages


def first_font(line):
    for _, font, text in line["runs"]:
        if text.strip():
            return font
    return None


def contents_entries(pages):
    """(title, page) pairs of the printed contents list on p.3."""
    entries = []
    for n, lines in pages:
        if n != CONTENTS_PAGE:
            continue
        for ln in lines:
            runs = [t.strip() for _, _, t in ln["runs"] if t.strip()]
            if ln["top"] < KEY_TOP and first_font(ln) == "9" and len(runs) >= 2 \
                    and runs[-1].isdigit():
                entries.append((norm(" ".join(runs[:-1])), int(runs[-1])))
    return entries


def lead_text(line, fonts):
    """Text of the leading runs in `fonts` (blank runs of any font are passed over)."""
    parts = []
    for _, font, text in line["runs"]:
        if font in fonts or not text.strip():
            parts.append(text)
        else:
            break
    return norm("".join(parts))


def classify(pages):
    entries = contents_entries(pages)
    cands = []
    for n, lines in pages:
        if n in SKIP_PAGES:
            continue
        skip_until = -1
        for i, ln in enumerate(lines):
            if i <= skip_until:
                continue
            font = first_font(ln)
            key = (n, ln["top"])
            if font in ("5", "6", "19", "20") or font is None:
                continue
            if n == CONTENTS_PAGE and ln["top"] < KEY_TOP:
                continue
            if n in TABLE_PAGES and font != "1":
                continue
            if key in KICKERS:
                continue
            title, label = None, ""
            if font in ("1", "7", "14") or (font == "11" and (ln["left"] <= MARGIN + 5
                                                            or LABEL.match(ln["text"]))):
                # font 11: only its own runs (a defined term runs into its definition)
                title = lead_text(ln, {"11"}) if font == "11" else ln["text"]
                nlines = WRAPPED.get(key, 1)
                for j in range(1, nlines):
                    title = norm(title + " " + lines[i + j]["text"])
                skip_until = i + nlines - 1
                m = LABEL.match(title)
                if m:
                    label, title = m.group(1), m.group(2)
                if font == "1":
                    listed = any(p == n and title.lower().startswith(e.lower()) for e, p in entries)
                    rank = 1 if listed else 2
                    if key in INSURED_EVENTS:
                        rank = 2.5
                elif font == "7":
                    rank = 3
                elif font == "11":
                    rank = 4
                else:
                    rank = 5
                cands.append(dict(kind="h", page=n, top=ln["top"], font=font, rank=rank,
                                  label=label, title=title))
                continue
            m = LABEL.match(ln["text"])
            if m:
                words = FIRST_WORDS.get(key)
                if words is None:
                    words = m.group(2)
                    j = i + 1
                    while len(words) < 60 and j < len(lines):
                        nxt = lines[j]
                        if nxt["left"] <= ln["left"] + 10 or LABEL.match(nxt["text"]) \
                                or nxt["text"][:1] in "•-" or first_font(nxt) in ("1", "7", "11", "5", "6") \
                                or nxt["top"] - lines[j - 1]["top"] > 40:
                            break
                        words = norm(words + " " + nxt["text"])
                        j += 1
                cands.append(dict(kind="item", page=n, top=ln["top"], label=m.group(1),
                                  title=clip(words)))
    return cands


def clip(s, limit=60):
    if len(s) <= limit:
        return s
    cut = s[:limit + 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:")


def family(label):
    if label.startswith("("):
        return "roman"
    return "num" if label[0].isdigit() else "alpha"


def comp_of(label):
    return label[:-1] if label.endswith(".") else label


def build(cands):
    rows = []
    hstack = []     # (rank, component, font, title)
    istack = []     # (family, component)
    seen = {}
    colon_open = False

    def emit(parent, comp, label, title, page):
        base = ".".join(parent + [comp])
        k = seen.get(base, 0) + 1
        seen[base] = k
        if k > 1:
            comp = "%s~%d" % (comp, k)
        rows.append((".".join(parent + [comp]), label, title, page))
        return comp

    for c in cands:
        if c["kind"] == "h":
            rank = c["rank"]
            key = (c["page"], c["top"])
            if c["font"] == "1":
                colon_open = False
            elif c["font"] == "7" and not c["label"]:
                named_open = any(h[2] == "7" and h[0] == 3 and not GENERIC.match(h[3])
                                 for h in hstack)
                if GENERIC.match(c["title"]) and named_open:
                    rank = 3.5
                elif colon_open or key in SUBTERMS:
                    rank = 3.7
                if c["title"].endswith(":") and rank == 3:
                    colon_open = True
            istack = []
            while hstack and hstack[-1][0] >= rank:
                hstack.pop()
            comp = comp_of(c["label"]) if c["label"] else "{%s}" % c["title"]
            comp = emit([h[1] for h in hstack], comp, c["label"], c["title"], c["page"])
            hstack.append((rank, comp, c["font"], c["title"]))
        else:
            fam = family(c["label"])
            fams = [f for f, _ in istack]
            if fam in fams:
                del istack[fams.index(fam):]
            parent = [h[1] for h in hstack] + [i[1] for i in istack]
            comp = emit(parent, comp_of(c["label"]), c["label"], c["title"], c["page"])
            istack.append((fam, comp))
    return rows


def main():
    rows = build(classify(load()))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("path\tlabel\ttitle_or_first_words\tpage\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(len(rows), "rows ->", OUT)


if __name__ == "__main__":
    main()

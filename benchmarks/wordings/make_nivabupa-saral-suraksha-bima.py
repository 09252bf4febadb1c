#!/usr/bin/env python3
"""Ground-truth outline of Niva Bupa's Saral Suraksha Bima policy document (IRDAI standard
personal accident product), made from the PDF's fonts and word positions, not from stream_chunker.

Reads  cache/nivabupa-saral-suraksha-bima.pdf  (next to this script)
Writes nivabupa-saral-suraksha-bima.expected.tsv

Evidence: `pdftohtml -xml -i` (poppler): font 0/7 = Gotham-Bold 15 (the six numbered sections),
font 2/8 = Gotham-Medium 15 (sub-headings, decimal clause titles, run-in defined terms),
font 1/6 = Gotham-Book 15 (body).  Lines = text elements sharing page+top; x = left of the first
non-blank element.  Labels at a line start: decimal (2.5.1.), a) / a. / A. / i. / I. / (i) / (a) / 1.
Depth: a decimal label hangs under its decimal parent (2.5.1 under 2.5; 2.1 under the latest
unlabelled sub-heading of 2, if any); any other label hangs under the nearest open row whose label
x is smaller (indent stack), inside the latest decimal clause or heading.  Tables (PPD scale,
cancellation grids, table of benefits, annexure lists) give no rows.  Hand corrections: HAND below.
"""
import html, os, re, subprocess, sys, collections

HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, 'cache', 'nivabupa-saral-suraksha-bima.pdf')
OUT = os.path.join(HERE, 'nivabupa-saral-suraksha-bima.expected.tsv')

BOLD = {0, 7}          # Gotham-Bold 15: section headings 1.-6.
MEDIUM = {2, 8}        # Gotham-Medium 15: sub-headings / clause titles / defined terms

# table regions (page, top_from, top_to): no rows from them
TABLES = [(3, 1030, 2000), (4, 0, 800), (7, 1010, 2000), (8, 230, 530), (13, 735, 2000)]

# unlabelled headings: (page, exact line text) -> (title, rank) ; rank 2 = under the current section
UNLABELLED = {
    (1, 'OPERATIVE CLAUSE'): 'OPERATIVE CLAUSE',
    (1, 'Standard deﬁnitions'): 'Standard deﬁnitions',
    (2, 'Speciﬁc Deﬁnitions'): 'Speciﬁc Deﬁnitions',
    (6, 'Exclusions speciﬁc to section 3.2(b) "Hospitalisation Expenses due to Accident"'):
        'Exclusions speciﬁc to section 3.2(b) "Hospitalisation Expenses due to Accident"',
}
# heading title continued on the next medium-font line
TITLE_CONT = {(6, 'applicable to all sections of the policy')}

# annexures (pages 14-18): prefixed headings, hand-listed from the page text
ANNEX = [
    ('ANNEXURE A', 'ANNEXURE - A', 'List of Insurance Ombudsmen', 14, 1),
    ('ANNEXURE B', 'Annexure - B', 'Annexure - B', 17, 1),
    ('ANNEXURE B.List I', 'List I -', 'Items for which coverage is not available in the policy', 17, 2),
    ('ANNEXURE B.List II', 'List II -', 'Items that are to be subsumed into Room Charges', 17, 2),
    ('ANNEXURE B.List III', 'List III -', 'Items that are to be subsumed into Procedure Charges', 18, 2),
    ('ANNEXURE B.List IV', 'List IV -', 'Items that are to be subsumed into costs of treatment', 18, 2),
]

# hand corrections of the path computed by the indent stack: computed path -> wanted path
HAND = {
    # second list printed inside 3.2(b) ("The following other expenses ... shall also be covered"):
    # its i.-iv. sit at the text indent of vi. but are a new list of b), as Travelers' 4.a~2
    '3.2.b.vi.i': '3.2.b.i~2', '3.2.b.vi.ii': '3.2.b.ii~2',
    '3.2.b.vi.iii': '3.2.b.iii~2', '3.2.b.vi.iv': '3.2.b.iv~2',
}

def lines_of(pdf):
    x = subprocess.run(['pdftohtml', '-xml', '-i', '-stdout', pdf], capture_output=True,
                       text=True, check=True).stdout
    out = []
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', x, re.S):
        p = int(pm.group(1))
        g = collections.defaultdict(list)
        for t in re.finditer(r'<text top="(\d+)" left="(\d+)" width="\d+" height="\d+" '
                             r'font="(\d+)">(.*?)</text>', pm.group(2), re.S):
            top, left, f, s = t.groups()
            g[int(top)].append((int(left), int(f), html.unescape(re.sub(r'<[^>]+>', '', s))))
        for top in sorted(g):
            es = sorted(g[top])
            txt = re.sub(r'\s+', ' ', ''.join(e[2] for e in es)).strip()
            if not txt:
                continue
            vis = [e for e in es if e[2].strip()]
            out.append(dict(page=p, top=top, x=vis[0][0], fonts={e[1] for e in vis},
                            font0=vis[0][1], text=txt))
    return out

DEC = re.compile(r'^(\d+(?:\.\d+)+)\.?(?![\d(])\s*(.*)$')
TOP = re.compile(r'^(\d+)\.\s+(.*)$')
PAREN = re.compile(r'^\(([ivx]+|[a-z])\)\s*(.*)$')
LETP = re.compile(r'^([a-zA-Z])\)\s*(.*)$')
DOT = re.compile(r'^([ivxIVX]+|[a-zA-Z])\.\s*(?=[A-Za-z])(.*)$')
ARAB = re.compile(r'^(\d+)\.\s+(.*)$')

def first_words(s, n=8):
    return ' '.join(s.split()[:n])

def main():
    L = lines_of(PDF)
    rows = []          # dicts: path, label, text, page, kind
    section = None     # path of current top section ('1'..'6')
    sub = None         # path of latest unlabelled sub-heading in the section
    dec = {}           # decimal label -> path
    stack = []         # (x, path) of open non-decimal items, bottom = anchor
    anchor = None
    seen = collections.Counter()
    def add(path, label, text, page, kind):
        seen[path] += 1
        if seen[path] > 1:
            path = '%s~%d' % (path, seen[path])
        rows.append(dict(path=path, label=label, text=text, page=page, kind=kind))
        return path
    for i, ln in enumerate(L):
        p, t, s = ln['page'], ln['top'], ln['text']
        if p > 13 or s.startswith('Product Name: Saral Suraksha Bima'):
            continue
        if any(p == a and b <= t <= c for a, b, c in TABLES):
            continue
        if (p, s) in TITLE_CONT:
            rows[-1]['text'] += ' ' + s
            continue
        if (p, s) in UNLABELLED:
            sub = add('%s.{%s}' % (section, UNLABELLED[(p, s)]), '', UNLABELLED[(p, s)], p, 'heading')
            # a sub-heading inside a decimal clause (4.1) hangs under that clause
            if p == 6:
                rows[-1]['path'] = '%s.{%s}' % (dec['4.1'], UNLABELLED[(p, s)])
                sub = None
            anchor = rows[-1]['path']; stack = [(-1, anchor)]
            continue
        m = TOP.match(s)
        if m and ln['font0'] in BOLD:
            section = m.group(1); sub = None; dec = {}
            anchor = add(section, m.group(1) + '.', m.group(2).rstrip(), p, 'heading')
            stack = [(-1, anchor)]
            continue
        m = DEC.match(s)
        if m and (ln['font0'] in MEDIUM or ln['x'] <= 215):
            lab, rest = m.group(1), m.group(2)
            parts = lab.split('.')
            parent = '.'.join(parts[:-1])
            if len(parts) == 2:
                ppath = sub if sub else section
            else:
                ppath = dec[parent]
            # a clause title alone on its line (medium font first, no run-in ': text', no
            # 'X means ...' definition) is a heading; otherwise the row is an item
            heading_only = bool(rest) and ln['font0'] in MEDIUM and not re.search(
                r'\bmeans\b|:\s*\S', rest)
            txt = rest.rstrip() if heading_only else first_words(rest)
            path = add(ppath + '.' + parts[-1], lab + '.', txt, p, 'heading' if heading_only else 'item')
            dec[lab] = path
            anchor = path; stack = [(-1, anchor)]
            continue
        for rx in (PAREN, LETP, DOT, ARAB):
            m = rx.match(s)
            if m:
                break
        if not m or section is None:
            continue
        lab, rest = m.group(1), m.group(2)
        printed = s[:len(s) - len(rest)].rstrip() if rest else s
        while len(stack) > 1 and stack[-1][0] >= ln['x']:
            stack.pop()
        comp = '(%s)' % lab if rx is PAREN else lab
        path = stack[-1][1] + '.' + comp
        path = HAND.get(path, path)
        path = add(path, printed, first_words(rest), p, 'item')
        stack.append((ln['x'], path))
    for path, label, title, page, rank in ANNEX:
        add(path, label, title, page, 'heading')
    with open(OUT, 'w', encoding='utf-8') as f:
        f.write('path\tlabel\ttitle_or_first_words\tpage\n')
        for r in rows:
            f.write('%s\t%s\t%s\t%d\n' % (r['path'], r['label'], r['text'], r['page']))
    k = collections.Counter(r['kind'] for r in rows)
    print('rows', len(rows), dict(k), file=sys.stderr)

if __name__ == '__main__':
    main()

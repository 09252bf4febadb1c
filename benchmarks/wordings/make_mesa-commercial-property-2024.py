#!/usr/bin/env python3
"""Ground-truth outline of mesa-commercial-property-2024.pdf (independent of stream_chunker).

Evidence: pdftohtml -xml -i (poppler): per text run its position, font size and bold flag (<b>).
Reading order: runs grouped into lines by vertical centre; a line is split where a run starts in the
right column (x >= 455 of 918) after a gap; full-width lines separate bands; within a band the left
column is read before the right column.
Rows:
  * part headings: bold runs of size >= 22 (ISO and Mesa form titles), plus the 17/19-size bold titles
    of the privacy notice, the Colorado service-of-suit endorsement and the declarations pages
    (declarations contents = customer schedule, not rows); consecutive title lines are joined; a
    repeated title on the following page (continuation sheet) is not a new row.
  * labelled items: a label at the start of a column line (bold in ISO forms, plain in Mesa forms,
    '1)' in the privacy notice), accepted by the label stack rule of SPEC 5b/6 (continue an open
    level or open a new one with a first value), wrapped-reference rule (line before must end a
    clause), reset at every part heading.
  * HAND lists below: extra unlabelled sub-headings, labels to drop (cross-references) and notes.
"""
import re, html, subprocess, sys, collections, os

HERE = os.path.dirname(os.path.abspath(__file__))
PDF = os.path.join(HERE, 'cache', 'mesa-commercial-property-2024.pdf')
OUT = os.path.join(HERE, 'mesa-commercial-property-2024.expected.tsv')

SKIP_ITEMS_PAGES = {1, 2, 3, 4, 10, 11, 12}       # cover page and declarations/schedules
# bold unlabelled sub-headings with body text after them: (page, first line) -> (title, lines used)
EXTRA_HEADINGS = {(14, 'ASBESTOS'): ('ASBESTOS', 1),
                  (64, 'CONCEALMENT, MISREPRESENTATION OR'): ('CONCEALMENT, MISREPRESENTATION OR FRAUD', 2)}
# (page, label, first word of its text) of line-start label shapes that are cross-references
DROP = {(13, 'E.', 'LOSS')}
# CP 03 29 schedule legend (1)-(6) "Applicable Covered Causes of Loss": part of the schedule table, not items
DROP |= {(47, '(%d)' % k, w) for k, w in zip(range(1, 7), ['All', 'All', 'All', 'All', 'Windstorm', 'Theft'])}
FURN = re.compile(r'(Insured Copy|Page \d+ of \d+|Insurance Services Office|ISO Properties|^MUS 01|'
                  r'^POLICY NUMBER|^MESA UNDERWRITERS|^INSURANCE COMPANY|THIS ENDORSEMENT CHANGES)')

def load(pdf):
    xml = subprocess.run(['pdftohtml', '-xml', '-i', '-stdout', pdf], capture_output=True, text=True).stdout
    fonts = {m.group(1): int(m.group(2)) for m in re.finditer(r'<fontspec id="(\d+)" size="(\d+)"', xml)}
    pages = {}
    for pm in re.finditer(r'<page number="(\d+)"(.*?)</page>', xml, re.S):
        els = []
        for t in re.finditer(r'<text top="(\d+)" left="(\d+)" width="(\d+)" height="(\d+)" font="(\d+)">(.*?)</text>', pm.group(2)):
            top, left, w, h, font, raw = t.groups()
            txt = html.unescape(re.sub(r'<[^>]+>', '', raw))
            if txt.strip():
                els.append(dict(top=int(top), left=int(left), w=int(w), h=int(h), size=fonts[font], bold='<b>' in raw, text=txt))
        pages[int(pm.group(1))] = els
    return pages

MID = 455
def order(els):
    els = sorted(els, key=lambda e: (e['top'] + e['h'] / 2, e['left']))
    lines = []
    for e in els:
        c = e['top'] + e['h'] / 2
        if lines and abs(lines[-1]['c'] - c) <= 3: lines[-1]['els'].append(e)
        else: lines.append(dict(c=c, els=[e]))
    segs = []
    for ln in lines:
        es = sorted(ln['els'], key=lambda e: e['left'])
        groups, cur = [], [es[0]]
        for e in es[1:]:
            pe = cur[-1]['left'] + cur[-1]['w']
            if e['left'] >= MID and pe < MID and e['left'] - pe > 12: groups.append(cur); cur = [e]
            else: cur.append(e)
        groups.append(cur)
        for g in groups:
            start, end = g[0]['left'], max(x['left'] + x['w'] for x in g)
            kind = 'R' if start >= MID else ('F' if end > 480 else 'L')
            segs.append(dict(left=start, kind=kind, els=g))
    out, band = [], []
    def flush():
        out.extend(s for s in band if s['kind'] == 'L'); out.extend(s for s in band if s['kind'] == 'R')
    for s in segs:
        if s['kind'] == 'F': flush(); band = []; out.append(s)
        else: band.append(s)
    flush()
    return out

def stext(s):
    out = ''; prev = None
    for e in s['els']:
        if prev is not None and e['left'] - (prev['left'] + prev['w']) > 2 and not out.endswith(' ') and not e['text'].startswith(' '):
            out += ' '
        out += e['text']; prev = e
    return re.sub(r'\s+', ' ', out).strip()

ROM = ['i','ii','iii','iv','v','vi','vii','viii','ix','x','xi','xii','xiii','xiv','xv','xvi','xvii','xviii','xix','xx']
LAB = re.compile(r'^(\((?:[a-z]{1,4}|[A-Z]{1,4}|\d{1,2})\)|\d{1,2}\)|\d{1,2}\.|[A-Za-z]\.|[IVX]{1,4}\.|[ivx]{1,4}\.)(?=\s|[A-Z“"(]|$)')

def interps(lab):
    """possible (family, index) readings of a label"""
    r = []
    core = lab.strip('().')
    paren = lab.startswith('(')
    if lab.endswith(')') and not paren:  # 1)
        if core.isdigit(): r.append(('N)', int(core)))
        return r
    if core.isdigit(): r.append(('(N)' if paren else 'N.', int(core)))
    elif core.isalpha():
        if core.islower():
            if len(set(core)) == 1 and len(core) <= 3: r.append(('(a)' if paren else 'a.', (len(core) - 1) * 26 + ord(core[0]) - 96))
            if core in ROM: r.append(('(i)' if paren else 'i.', ROM.index(core) + 1))
        else:
            lc = core.lower()
            if len(set(core)) == 1 and len(core) <= 3: r.append(('(A)' if paren else 'A.', (len(core) - 1) * 26 + ord(lc[0]) - 96))
            if lc in ROM: r.append(('(I)' if paren else 'I.', ROM.index(lc) + 1))
    return r

CLAUSE_END = re.compile(r'([.:;—\-–”")]|\b(or|and))$')

def main():
    pages = load(PDF)
    rows, notes = [], []
    part = None; stack = []; seen = collections.Counter(); prev_text = ''
    pending_title = None; prev_lab = False; sub = None
    def add(path_parts, label, words, page):
        p = '.'.join(path_parts); seen[p] += 1
        if seen[p] > 1: p += '~%d' % seen[p]
        rows.append([p, label, words, str(page), len(path_parts)])
    flat = []   # (page, seg)
    for pg in sorted(pages):
        for s in order(pages[pg]): flat.append((pg, s))
    i = 0
    last_part_page = {}
    while i < len(flat):
        pg, s = flat[i]; t = stext(s)
        sz = max(e['size'] for e in s['els']); allbold = all(e['bold'] for e in s['els'])
        # ---- part headings
        if pg == 3 and t.startswith('SCHEDULE OF FORMS AND ENDORSEMENTS'): allbold = True; sz = 19
        is_title = allbold and not FURN.search(t) and (
            (sz >= 22 and s['kind'] in 'FL' and pg not in (1,)) or
            (sz in (17, 19) and t in ('PRIVACY POLICY', 'SERVICE OF SUIT COLORADO', 'COMMON POLICY DECLARATIONS')) or
            (sz == 19 and t.startswith('SCHEDULE OF FORMS AND ENDORSEMENTS')))
        if is_title and pg != 1:
            title = t.replace(' INSURANCE COMPANY', '') if t.startswith('SCHEDULE OF FORMS') else t
            j = i + 1
            while j < len(flat) and flat[j][0] == pg and all(e['bold'] for e in flat[j][1]['els']) and max(e['size'] for e in flat[j][1]['els']) == sz and sz >= 22 and flat[j][1]['kind'] == 'F':
                title += ' ' + stext(flat[j][1]); j += 1
            if not (part == title and last_part_page.get(title) == pg - 1):
                part = title; stack = []; sub = None
                add(['{%s}' % title], '', title, pg)
            last_part_page[title] = pg
            i = j; prev_text = ''; continue
        if part is None or pg in SKIP_ITEMS_PAGES or FURN.search(t):
            i += 1; continue
        if (pg, t) in EXTRA_HEADINGS:
            title, n = EXTRA_HEADINGS[(pg, t)]
            stack = []  # heading closes the part's open levels; items after it nest under it
            add(['{%s}' % part, '{%s}' % title], '', title, pg); sub = '{%s}' % title
            i += n; prev_text = title; continue
        m = LAB.match(t)
        el0 = s['els'][0]['text'].strip()
        core = LAB.pattern[1:LAB.pattern.index('(?=')]
        chain = None
        mc = re.fullmatch(r'([a-z]\.|\d{1,2}\.)(\(\d{1,2}\)|\([a-z]\))', el0)
        if mc:                      # chained labels printed as one run: d.(1)
            chain = mc.group(2)
            m = re.match(re.escape(mc.group(1)), t)
        elif not m and re.fullmatch(core, el0):   # label run glued to lower-case text: (a)structure
            m = re.match(re.escape(el0), t)
        # in ISO forms labels are bold: a line-start label shape in plain type inside an ISO form is text
        if m:
            lab = m.group(0).strip(); rest = t[m.end():].strip()
            first_el_bold = s['els'][0]['bold']
            # wrapped-reference rule: after a line that does not end a clause, a label whose text starts
            # in lower case or with another label/bracket is a citation that a line break put first
            ok_prev = (prev_text == '' or CLAUSE_END.search(prev_text) or not re.match(r'[a-z(\[,.;]', rest or 'x')
                       or (prev_lab and re.fullmatch(r'\d\)', lab)))   # privacy-notice list 1) ... 5)
            if rest == '' and not (prev_text == '' or CLAUSE_END.search(prev_text)): ok_prev = ok_prev
            fw = rest.split(' ')[0] if rest else ''
            accepted = None
            if (pg, lab, fw) in DROP: notes.append('dropped (hand) p%d %s %s' % (pg, lab, rest[:40]))
            elif not ok_prev: notes.append('wrapped ref p%d %r after %r' % (pg, t[:40], prev_text[-30:]))
            else:
                cands = interps(lab)
                # continuation of an open level, deepest first
                for depth in range(len(stack) - 1, -1, -1):
                    fam, idx, _ = stack[depth]
                    if any(f == fam and k == idx + 1 for f, k in cands):
                        accepted = ('cont', depth, fam); break
                if not accepted and not stack and cands:
                    c1 = [c for c in cands if c[1] == 1] or cands   # first label of a part may start anywhere
                    accepted = ('new', 0, c1[0][0])
                if not accepted:
                    fams = {f for f, _, _ in stack}
                    for f, k in cands:
                        if k == 1 and f not in fams: accepted = ('new', len(stack), f); break
                if not accepted: notes.append('rejected by stack p%d %r stack=%s' % (pg, t[:50], [x[2] for x in stack]))
            if accepted:
                kind, depth, fam = accepted
                idx = [k for f, k in interps(lab) if f == fam][0]
                stack = stack[:depth] + [(fam, idx, lab)]
                # first words: rest of line + following lines of the item
                words = rest; j = i + 1
                while len(words.split()) < 8 and j < len(flat) and flat[j][0] == pg:
                    nt = stext(flat[j][1])
                    if LAB.match(nt) or FURN.search(nt): break
                    words = (words + ' ' + nt).strip(); j += 1
                if len(words.split()) < 8 and j < len(flat) and flat[j][0] == pg + 1 and not words:
                    pass
                words = ' '.join(words.split()[:8])
                comp = [re.sub(r'[.)]$', '', x[2]) if not x[2].startswith('(') else x[2] for x in stack]
                comp = ([sub] if sub else []) + comp
                add(['{%s}' % part] + comp, lab, words, pg)
                if chain:
                    fam2 = interps(chain)[0][0]
                    stack = stack + [(fam2, 1, chain)]
                    w2 = ' '.join(rest[len(chain):].split()[:8])
                    add(['{%s}' % part] + comp + [chain], chain, w2, pg)
        prev_text = t; prev_lab = bool(m)
        i += 1
    with open(OUT, 'w') as f:
        f.write('path\tlabel\ttitle_or_first_words\tpage\n')
        for r in rows: f.write('\t'.join(r[:4]) + '\n')
    for n in notes: print(n, file=sys.stderr)
    print('rows', len(rows), 'headings', sum(1 for r in rows if not r[1]), 'items', sum(1 for r in rows if r[1]), 'maxdepth', max(r[4] for r in rows), file=sys.stderr)

if __name__ == '__main__':
    main()

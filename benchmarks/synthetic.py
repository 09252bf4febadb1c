"""A synthetic insurance policy manual, printed the way ``pdftotext`` (non-layout) prints one.

The benchmarks and tests need a long, realistic input that anyone can rebuild
byte for byte without a PDF and without the network. This module writes one:
a cover page, a contents list with dot leaders, then numbered parts, sections
and subsections (``4``, ``4.2``, ``4.2.1``) with wrapped body paragraphs. Every
page carries the same running header and a ``Page N of M`` footer, and pages are
separated by a form feed at the start of the next page's first line, as
``pdftotext`` does.

It also plants the traps that real manuals contain: wrapped body lines that
start with a number ("14 days after the loss is discovered, ..."), numbered
lists with a trailing dot (``1. The alarm was set ...``) inside clauses whose
headings have none, and paragraphs interrupted by a page break.

Everything comes from one ``random.Random(seed)``, so the output depends only on
``pages`` and ``seed``.

>>> text = generate(pages=12, seed=1)
>>> text.count("\\f")
11
>>> text.splitlines()[0]
'Acme Mutual — Home Insurance Policy Wording 2026'
>>> outline(pages=12, seed=1)[0]
('1', 'Definitions')
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

HEADER = "Acme Mutual — Home Insurance Policy Wording 2026"
#: Body lines on a full page. With the header, the footer and their blank lines a
#: page is 51 lines at most; 340 pages come to about 17,000 lines and 0.84 MB, the
#: size the peers were measured on in PEERS.md.
BODY_LINES = 47
#: A paragraph wraps at a width drawn from this range, as text blocks of a PDF
#: differ a little in width. Wider lines would make the 340 pages bigger than
#: the peers' figures.
WRAP_WIDTHS = (62, 80)
#: How many subsections a section gets; the mean (about 4.4) makes about one
#: heading per page, so 340 pages hold the 12 parts.
SUBSECTION_COUNTS = (0, 3, 4, 5, 5, 6, 6, 6)

PART_TITLES = (
    "Definitions", "Your cover", "Buildings", "Contents", "Exclusions", "Claims",
    "General conditions", "Personal possessions", "Liability to others",
    "Legal expenses", "Home emergency", "Cancellation and complaints",
)
SECTION_TITLES = (
    "Escape of water", "Storm and flood", "Fire, lightning and explosion",
    "Theft or attempted theft", "Subsidence, heave and landslip", "Falling trees",
    "Malicious damage", "Riot and civil commotion", "Impact by vehicles or animals",
    "Accidental damage", "Fixed glass and sanitary ware", "Underground services",
    "Alternative accommodation", "Loss of keys", "Frozen food", "Home office equipment",
    "Garden plants and furniture", "Bicycles", "Money and payment cards",
    "Personal liability", "Tenant's liability", "Unoccupied homes", "Wear and tear",
    "Pests and vermin", "Domestic pets", "Cyber events", "Pollution and contamination",
    "War and terrorism", "Sonic bangs", "The excess", "Sums insured", "Index linking",
    "Other insurance", "Reasonable care", "Changes you must tell us about",
    "Making a claim", "Settling claims", "Our right to recover costs", "Fraud",
    "Data protection", "The law that applies", "Students living away from home",
    "Building work and renovations", "Trace and access", "Oil and heating fuel",
)
SUBSECTION_TITLES = (
    "Frozen pipes", "Tracing the leak", "What is not covered", "Limits", "Conditions",
    "Evidence we need", "How we settle", "Waiting period", "Excess that applies",
    "Examples", "When cover ends", "Reporting to the police", "Repairs by our contractors",
    "Cash settlement", "Matching sets and suites", "Emergency repairs", "Valuations",
    "Items away from the home", "Proof of ownership", "Temporary repairs",
    "Disputes about the amount", "Salvage", "Replacement as new", "Deductions for wear",
    "Your duty to prevent further loss", "Contractors' fees", "Drying out the property",
    "Lodgers and paying guests", "Holiday lets", "Outbuildings and garages",
)

SUBJECTS = (
    "We", "You", "The policyholder", "Anyone living in your home", "Our loss adjuster",
    "The claims team", "A member of your household", "The lender named in the schedule",
    "Each insured person", "Any contractor we appoint",
)
VERBS = (
    "will pay for", "will not pay for", "must tell us about", "may claim for",
    "must take reasonable steps to prevent", "will repair or replace", "must keep evidence of",
    "will not be liable for", "may ask for proof of", "will settle", "must report",
    "may be asked to contribute towards",
)
OBJECTS = (
    "loss or damage to the buildings", "accidental damage to your contents",
    "theft of personal possessions away from the home",
    "escape of water or oil from a fixed installation", "the cost of alternative accommodation",
    "legal costs and expenses", "damage caused by storm or flood", "loss of metered water",
    "the cost of tracing and accessing a leak", "damage to underground pipes and cables",
    "food spoiled by a power cut", "replacement locks after the loss of your keys",
    "damage caused by subsidence, heave or landslip", "any claim arising from a business activity",
    "damage caused by wear, tear or gradual deterioration", "loss of rent payable to you",
    "the first £250 of each claim", "fees charged by architects and surveyors",
    "removal of debris after an insured event", "damage to decorations caused by a leak",
)
QUALIFIERS = (
    "while the home is unoccupied", "during the period of insurance",
    "up to the sum insured shown in your schedule", "unless we have agreed otherwise in writing",
    "after the excess has been deducted", "if the damage happens suddenly",
    "within the territorial limits", "as long as you have taken reasonable care",
    "where the loss is reported to the police within 24 hours", "subject to the limits in the schedule",
    "for the remainder of the period of insurance", "in line with the conditions of this policy",
    "once we have received all the information we need",
    "less any amount already paid under another policy", "up to £1,000 for any one claim",
    "within 30 days of the loss", "as set out in the general conditions",
    "for as long as the home cannot be lived in", "where the damage was caused deliberately",
)
DEFINITIONS = (
    "“Buildings” means the home, its fixtures and fittings, and its garages and outbuildings.",
    "“Contents” means household goods and personal possessions that belong to you.",
    "“Excess” means the amount you must pay towards each claim.",
    "“Unoccupied” means not lived in by you or a member of your family overnight.",
    "“Period of insurance” means the time for which we have accepted your premium.",
)
#: Sentences that pdftotext may wrap so that the number opens a line; the
#: generator forces that wrap. None of them is a heading: a lower-case word follows.
LINE_START_TRAPS = (
    "{n} days after the loss is discovered, cover for the damaged item ends unless you have told us.",
    "14 days after the leak is found, cover ends unless the leak has been reported to us.",
    "2 or more occupants must be named in the schedule before cover starts.",
    "{n} consecutive nights is the longest the home may be left unoccupied without telling us.",
    "{n} months after the start date we may review the premium and the excess.",
    "1.5 times the sum insured is the most we will pay for any one event.",
    "3 or more claims in any 12 months may lead us to change the terms of your cover.",
    "{n} per cent of the sum insured is the limit for any single article.",
)
LIST_INTROS = (
    "We will only pay a claim under this clause if all of the following apply:",
    "Cover under this clause applies only when:",
    "Before we accept a claim you must show that:",
)
LIST_ITEMS = (
    "Treatment has been given by a registered medical practitioner",
    "The damage was reported to us as soon as possible",
    "You have paid the premium for the current period",
    "The property was lived in at the time of the loss",
    "All doors and windows were locked and the keys removed",
    "The alarm was set and in working order",
    "You have kept receipts or valuations for the items claimed",
    "The loss was reported to the police and a crime reference obtained",
    "The building was in a good state of repair before the loss",
    "No other insurance covers the same loss",
    "Repairs are carried out by a contractor we have approved",
    "Any heating system was serviced in the last twelve months",
)
COVER_LINES = (
    "Acme Mutual Insurance Company",
    "Home Insurance Policy Wording",
    "Effective from 1 January 2026",
)
FRONT_MATTER = (
    "Thank you for choosing Acme Mutual to insure your home.",
    "This booklet, your schedule and any endorsements together form your contract with us.",
    "Please read them carefully and keep them in a safe place.",
    "If anything in your schedule is wrong, tell us straight away so that we can correct it.",
    "Words printed in the definitions part have the same meaning wherever they appear.",
    "Your cover depends on the information you gave us being true and complete.",
    "You can ask for this booklet in large print, in braille or as an audio recording.",
    "Calls to our claims line may be recorded for training and to prevent fraud.",
    "Acme Mutual is authorised and regulated by the financial services regulator.",
    "We will write to you at least three weeks before your renewal date.",
)


@dataclass(frozen=True, slots=True)
class _Heading:
    number: str
    """Section number as printed: ``4``, ``4.2`` or ``4.2.1``."""
    title: str
    """Title as printed after the number."""
    is_leaf: bool
    """True when no subsection follows it; a leaf always gets body text."""

    @property
    def line(self) -> str:
        return f"{self.number} {self.title}"

    @property
    def depth(self) -> int:
        return self.number.count(".") + 1


@dataclass(slots=True)
class _Flow:
    """Pours blocks of lines into pages of ``BODY_LINES`` body lines each."""

    pages: list[list[str]] = field(default_factory=lambda: [[]])
    heading_pages: dict[str, int] = field(default_factory=dict)

    @property
    def used(self) -> int:
        """Body lines consumed so far, counting unused ends of earlier pages."""
        return (len(self.pages) - 1) * BODY_LINES + len(self.pages[-1])

    def room(self) -> int:
        """Lines still free on the current page, after the blank line that would separate."""
        page = self.pages[-1]
        return BODY_LINES - len(page) - (1 if page else 0)

    def would_open_page(self, block: Sequence[str]) -> bool:
        return len(block) > self.room()

    def add(self, block: Sequence[str], keep: int = 2, heading: _Heading | None = None) -> None:
        """Place ``block``; split it at the page end unless that leaves an orphan.

        ``keep`` is how many lines must stay together at the start (a heading and
        two lines of its text); the part carried over must be two lines or more.
        """
        lines = list(block)
        room = self.room()
        if len(lines) > room:
            if room >= keep and len(lines) - room >= 2:
                self._record(heading)
                heading = None
                self._put(lines[:room])
                lines = lines[room:]
            self.pages.append([])
        self._record(heading)
        self._put(lines)

    def _record(self, heading: _Heading | None) -> None:
        if heading is not None:
            self.heading_pages[heading.number] = len(self.pages) - 1

    def _put(self, lines: list[str]) -> None:
        page = self.pages[-1]
        if page:
            page.append("")
        page.extend(lines)


def _wrap(words: Sequence[str], width: int, break_before: frozenset[int] = frozenset()) -> list[str]:
    """Greedy wrap; ``break_before`` holds word indices that must open a line."""
    lines: list[str] = []
    current: list[str] = []
    length = 0
    for index, word in enumerate(words):
        if current and (index in break_before or length + 1 + len(word) > width):
            lines.append(" ".join(current))
            current, length = [], 0
        length += len(word) + (1 if current else 0)
        current.append(word)
    if current:
        lines.append(" ".join(current))
    return lines


class _Writer:
    """Draws every piece of text from one seeded random generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def sentence(self) -> str:
        rng = self.rng
        if rng.random() < 0.08:
            return rng.choice(DEFINITIONS)
        qualifiers = rng.choices((0, 1, 2), weights=(3, 5, 2))[0]
        parts = [rng.choice(SUBJECTS), rng.choice(VERBS), rng.choice(OBJECTS)]
        return " ".join(parts + rng.sample(QUALIFIERS, qualifiers)) + "."

    def paragraph(self) -> list[str]:
        """A body paragraph of about 2-9 lines, sometimes with a number opening a line."""
        rng = self.rng
        width = rng.randint(*WRAP_WIDTHS)
        wanted = rng.choice((2, 2, 3, 3, 3, 4, 4, 5, 6, 7, 8, 9))
        trap_after = rng.randrange(3) if rng.random() < 0.12 else -1
        words: list[str] = []
        forced: set[int] = set()
        sentences = 0
        while len(" ".join(words)) < (wanted - 0.5) * (width - 6):
            if sentences == trap_after:
                forced.add(len(words))
                trap = rng.choice(LINE_START_TRAPS).format(n=rng.choice((7, 14, 21, 28, 45, 60, 90)))
                words += trap.split()
            else:
                words += self.sentence().split()
            sentences += 1
        return _wrap(words, width, frozenset(forced))

    def numbered_list(self) -> list[str]:
        """An introduction ending in a colon, then ``1.``, ``2.`` … items, one block."""
        rng = self.rng
        width = rng.randint(*WRAP_WIDTHS)
        items = rng.sample(LIST_ITEMS, rng.randint(2, 6))
        lines = _wrap(rng.choice(LIST_INTROS).split(), width)
        for number, item in enumerate(items, start=1):
            end = "." if number == len(items) else ";"
            lines += _wrap(f"{number}. {item}{end}".split(), width)
        return lines

    def front_paragraph(self) -> list[str]:
        sentences = self.rng.sample(FRONT_MATTER, self.rng.randint(2, 4))
        return _wrap(" ".join(sentences).split(), self.rng.randint(*WRAP_WIDTHS))


def _make_outline(rng: random.Random, parts: int, most: int) -> list[_Heading]:
    """Headings in order: ``parts`` parts, 4-6 sections each, 0-6 subsections each.

    ``most`` caps the count, so that a document of a few pages can hold its outline.
    """
    headings: list[_Heading] = []
    for part in range(1, parts + 1):
        if len(headings) >= most:
            break
        part_title = PART_TITLES[part - 1] if part <= len(PART_TITLES) else rng.choice(SECTION_TITLES)
        part_at = len(headings)
        headings.append(_Heading(str(part), part_title, is_leaf=True))
        for section, section_title in enumerate(rng.sample(SECTION_TITLES, rng.randint(4, 6)), start=1):
            if len(headings) >= most:
                break
            count = max(0, min(rng.choice(SUBSECTION_COUNTS), most - len(headings) - 1))
            headings.append(_Heading(f"{part}.{section}", section_title, is_leaf=count == 0))
            for sub, sub_title in enumerate(rng.sample(SUBSECTION_TITLES, count), start=1):
                headings.append(_Heading(f"{part}.{section}.{sub}", sub_title, is_leaf=True))
        if len(headings) > part_at + 1:  # the part has sections, so its own text is optional
            headings[part_at] = replace(headings[part_at], is_leaf=False)
    return headings


@dataclass(frozen=True, slots=True)
class _Manual:
    pages: list[list[str]]
    """Body lines of every page, furniture not yet added."""
    headings: list[_Heading]


def _contents_entries(headings: list[_Heading]) -> list[_Heading]:
    """Every heading when the list fits on two pages, else the first two levels."""
    if len(headings) + 1 <= 2 * BODY_LINES:
        return headings
    return [h for h in headings if h.depth <= 2]


def _build(pages: int, seed: int) -> _Manual:
    if pages < 3:
        raise ValueError(f"pages must be 3 or more (a cover, a contents page, a body page), not {pages}")
    rng = random.Random(seed)
    writer = _Writer(rng)
    parts = max(1, round(pages * len(PART_TITLES) / 340))
    headings = _make_outline(rng, parts, most=max(3, 2 * (pages - 3)))
    entries = _contents_entries(headings)
    contents_pages = math.ceil((len(entries) + 1) / BODY_LINES)
    body_pages = pages - 1 - contents_pages
    if body_pages < 1:
        raise ValueError(f"{pages} pages leave no room for the body after {contents_pages} contents pages")

    # Each leaf's text ends near a target position, so the text fills the body
    # pages evenly and the last page ends part-way down.
    weights = [rng.uniform(0.4, 1.6) if h.is_leaf else 0.0 for h in headings]
    end = body_pages * BODY_LINES - rng.randint(12, 24)
    running, targets = 0.0, []
    for weight in weights:
        running += weight
        targets.append(end * running / sum(weights))

    flow = _Flow()
    last_page = body_pages - 1
    for heading, target in zip(headings, targets, strict=True):
        owes_text = heading.is_leaf or rng.random() < (0.6 if heading.depth == 2 else 0.3)
        block = [heading.line]
        if owes_text and rng.random() < 0.5:
            block += writer.paragraph()  # the text runs on right under the heading
            owes_text = False
        flow.add(_clip(flow, block, last_page, required=True), keep=3, heading=heading)
        while owes_text or flow.used < target:
            block = writer.numbered_list() if heading.is_leaf and rng.random() < 0.03 else writer.paragraph()
            block = _clip(flow, block, last_page, required=owes_text)
            if not block:
                break
            flow.add(block)
            owes_text = False

    cover = [*COVER_LINES]
    for _ in range(4):
        cover += ["", *writer.front_paragraph()]
    first_body = 1 + contents_pages
    contents = ["Contents"] + [
        _leader(h, first_body + 1 + flow.heading_pages[h.number], rng) for h in entries
    ]
    contents_split = [contents[i : i + BODY_LINES] for i in range(0, len(contents), BODY_LINES)]
    body = flow.pages + [[] for _ in range(body_pages - len(flow.pages))]
    return _Manual([cover, *contents_split, *body], headings)


def _clip(flow: _Flow, block: list[str], last_page: int, required: bool) -> list[str]:
    """What of ``block`` may still be placed: on the last page, only what fits there."""
    if len(flow.pages) - 1 < last_page or not flow.would_open_page(block):
        return block
    if not required:
        return []
    if flow.room() < 1:
        raise RuntimeError("the outline does not fit in the pages asked for; ask for more pages")
    return block[: flow.room()]


def _leader(heading: _Heading, page: int, rng: random.Random) -> str:
    """A contents line: number, title, a dot leader to about column 66, page number."""
    start = f"{heading.line} "
    dots = max(3, 66 - len(start) - len(str(page)) + rng.randint(-2, 2))
    return f"{start}{'.' * dots} {page}"


def generate(pages: int = 340, seed: int = 2026) -> str:
    """The whole manual as one string: pages separated by form feeds, ending in a newline.

    >>> generate(pages=20, seed=7) == generate(pages=20, seed=7)
    True
    """
    manual = _build(pages, seed)
    printed = []
    for number, body in enumerate(manual.pages, start=1):
        lines = [HEADER, "", *body, "", f"Page {number} of {pages}"]
        printed.append("\n".join(lines) + "\n")
    return "\f".join(printed)


def outline(pages: int = 340, seed: int = 2026) -> list[tuple[str, str]]:
    """``(number, title)`` of every body heading of ``generate(pages, seed)``, in order.

    >>> outline(pages=20, seed=7)[:2]
    [('1', 'Definitions'), ('1.1', 'Accidental damage')]
    """
    return [(h.number, h.title) for h in _build(pages, seed).headings]


def write_copies(path: str | Path, copies: int = 1, pages: int = 340, seed: int = 2026) -> int:
    """Write ``copies`` manuals back to back, each starting on a new page; return bytes written."""
    return write_repeated(path, generate(pages, seed).encode("utf-8"), copies)


def write_repeated(path: str | Path, data: bytes, copies: int) -> int:
    """Write ``data`` ``copies`` times joined by a form feed; return bytes written.

    The form feed makes each copy start on a new page, as concatenated
    ``pdftotext`` outputs do.
    """
    with open(path, "wb") as out:
        for copy in range(copies):
            if copy:
                out.write(b"\f")
            out.write(data)
    return copies * len(data) + copies - 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.synthetic",
        description="Write a synthetic insurance policy manual as pdftotext prints it.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: python -m benchmarks.synthetic --pages 340 --copies 10 -o /tmp/manual10.txt",
    )
    parser.add_argument("--pages", type=int, default=340, help="pages per copy (default 340)")
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    parser.add_argument("--copies", type=int, default=1, help="copies written back to back (default 1)")
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    if args.copies < 1:
        parser.error("--copies must be 1 or more")
    try:
        if args.output:
            size = write_copies(args.output, args.copies, args.pages, args.seed)
            print(f"wrote {size:,} bytes to {args.output}", file=sys.stderr)
        else:
            text = generate(args.pages, args.seed)
            sys.stdout.write("\f".join([text] * args.copies))
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

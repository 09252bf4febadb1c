"""The policy profile: a wording cut by the outline it prints.

Why one module of this length: it is the profile's state and the one place
that changes it -- open levels, a heading's title still open, labels alone
waiting for their text, a first guess not yet confirmed -- and every change
follows from what came before, so it is read best in one piece. What a line
*is* is decided elsewhere: the label families (``profiles.policy.families``)
and the rules (``profiles.policy.rules``) of its ``Preset`` return a
decision, and this module only keeps it (``_verdict``) and acts on it.

Decimal sections (SPEC §5) and outlines (SPEC §5b): a heading opens a level
when the preset's rules give it a place by the stack rule of
``profiles.labels``. A label whose text is a title is a heading; one whose
text reads as a sentence starts an item, and its text is body text. A label
alone on its line takes the next line with text as its text. Lists inside a
decimal clause are the clause's text: under a decimal level, outline labels
open nothing.

Evidence. A label-shaped line after a line that stops mid-sentence is text
("Cover lasts for" / "3 Months after the date of the loss."), as is a number
before a sentence or a date ("1 January 2026"). The first label may carry any
value, but until a label follows it by the rules it is a guess: a heading of
the same family that does not follow it takes its place, and the guess and
its text become front matter ("24 Hour Emergency Helpline" on a cover page
gives way to "1 Definitions").

Pieces. A decimal section's text is a unit; so is a heading's own text, and
an item at the first level under a heading, with the items nested in it (see
``core.packing``). Ids are the label path joined by dots: ``4.2``, ``III.A.1``,
``C.A.I.1`` for ``SECTION C)`` › ``PART A-`` › ``I.`` › ``1.``.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, Final, List, Optional, Pattern, Sequence, Set, Tuple

from ...core.chunk import Chunk
from ...core.layout import CAPITALS, CODED_TITLE_WORDS, LEADING_ON, MAX_TERMS, RUN_IN, TEXT_TITLE
from ...core.contents_page import CONTENTS_TITLE
from ...core.errors import ConfigError
from ...core.packing import Cap, Key, Packer, UniqueIds
from ...core.records import HEADING, LABEL, STYLED, TEXT, Line, Run, new
from ...core.text import DASHES, ends_clause, ends_sentence, first_letter, reads_as_sentence, short_title, title_case
from ..base import Diagnose, Option, ProfileSpec, Rule, Settings, register
from ..labels import DECIMAL, Level, Meaning, Number, is_first, is_next_number, meanings
from ..paragraphs import ParagraphProfile
from .contents import LEADER, ReadsContents
from .outline import (CODE_WORD, NOTE_TITLE, continues_title, ends_in_amount, goes_on, heads_list, is_title, leads_on, own_word,
                      prefix_label, row_cells, styled_title, wraps_onto)
from .parts import Parts
from .held import HELD_LINES, Held
from .placing import BARE, Ended, Placement, is_list_style, is_next_sibling
from .rules import (LISTED, MID_SENTENCE, NOT_NEXT, PARTS, POLICY, QUIET, TABLE_ROW, HeadingLine, LabelLine, Preset,
                    Refusal, Verdict, line_before_allows, stands_alone)
from .state import UNNUMBERED, Frame, Open, deepest_numbered, is_own_word, is_prefixed, restated, restated_below


def chunk_id(key: Key, n: int, only: bool) -> str:
    """``4.2`` for a section in one chunk, ``4.2#1``, ``4.2#2`` for one in several."""
    return key.base if only else f"{key.base}#{n}"


_RULES: Final[Sequence[Rule]] = POLICY.classes
_OUTLINE_LINES: Final = POLICY.special


class PolicyProfile(ParagraphProfile, ReadsContents):
    """Wordings by their outline, packed paragraph by paragraph under a cap."""

    # Module constants marked Final, not values made in the class body: mypyc
    # sets a compiled class's defaults on each instance, and only from constants.
    RULES = _RULES
    special = _OUTLINE_LINES
    leader: Optional[Pattern[str]] = LEADER

    def __init__(self, settings: Settings, emit: Callable[[Chunk], None], diagnose: Diagnose, cap: Cap,
                 preset: Preset = POLICY) -> None:
        ParagraphProfile.__init__(self, settings, emit, diagnose, cap)
        ReadsContents.__init__(self)
        self.preset = preset
        self.RULES = preset.classes
        self._outline_lines = preset.special
        # Under a decimal section an outline label is text: only lines that
        # start with a digit (decimal headings, ``4.10.`` alone, ``6.``) need
        # a look, and the cutter's search gets cheaper -- and, once the
        # document has opened a prefixed label, that word (``Section 3``
        # after ``2.5``): most decimal documents print none, and pay nothing.
        self._decimal_lines = preset.decimal_special
        self._worded_decimal_lines = preset.worded_decimal_special
        self._own_word_decimal_lines = preset.own_word_decimal_special
        self._worded = False  # a prefixed label has opened
        self._own_word = False  # a label of the document's own word has opened (``LIST:upper-roman``)
        self.special = preset.special
        self.max_words: int = self.settings.profile_options.get("max_title_words", MAX_TITLE_WORDS)
        self.packer = Packer(self.cap, self.emit, "\n", chunk_id)
        self.packer.open(0, Key(FRONT, None, "", None))
        self._ids = UniqueIds()
        self.parts = Parts()  # the parts of a policy set (``Chunk.part``)
        self.stack: List[Open] = []
        self.decimal_depth: Optional[int] = None  # the depth of the open decimal level (the deepest, if any)
        self.path: List[Frame] = []  # the open decimal sections, the outermost first
        self._root = Frame((), "")  # the frame above the top-level decimal sections
        self.started = False  # a label has opened a level
        self.confirmed = False  # a label has followed the first by the rules
        self.ended: Dict[str, Ended] = {}  # per family, a level a heading without a number ended
        # Per family, where a heading without a number ended the heading its level was
        # under: the levels open above it then, and the line (``placing.restoring``).
        self.ended_above: Dict[str, Tuple[Tuple[Open, ...], int]] = {}
        # The last decision of the rules on a line, kept by the condition that
        # asked them for the action that follows (``open_*`` or ``reject_*``).
        self._verdict: Verdict = QUIET
        self._heading_line = HeadingLine()  # the line the rules judge, read into these
        self._label_line = LabelLine(preset.families[0])
        self.waiting: List[Tuple[Open, Line, List[Open]]] = []  # labels alone: each, its line, the stack then
        self.licensed = False  # the last line was a heading's, or a label's alone: a label may follow
        self._fresh: Optional[Open] = None  # the heading just opened, whose title the next line may go on with
        self._title_is_text = False  # the decimal heading just opened is a clause: its text is body text
        self._title_at: Optional[Line] = None  # that heading's line, and its title
        self._title = ""
        self._title_lines: List[Line] = []  # the lines of the outline heading just opened
        self._title_set: Optional[float] = None  # how its title is set, where not as its label (``Section 7`` ⏎ a title larger)
        self._wrapping: Optional[Open] = None  # that heading, while its title may wrap onto the next line
        self._guess: Optional[Line] = None  # the first label's line, while it is a guess
        self._guess_unit = False  # that guess opened a unit of its own
        self._guess_lines: List[Line] = []  # the guess's lines read into its heading, not its unit's text
        self._in_front = False  # the last label was a guess that replaced another: front matter too
        self.after_contents = False  # the last line was a contents entry
        self._growing: Optional[Open] = None  # the item whose title the next line may go on with
        self._refused_at = 0  # the line of the last outline label refused
        self._list_title_at = 0  # the line of the last label found under a list's heading taken back
        # That heading's paragraph stays open across a blank line, from the label's verdict to its
        # action (``end_paragraph``, the row's first action, runs between them).
        self._title_held = False
        self.missed: Optional[Tuple[Meaning, int]] = None  # see ``rules.after_missed``
        self._held: Optional[Held] = None  # a list's first label read as text, for now
        self._proved: Optional[Open] = None  # the last label of a list opened in hindsight
        self._holder: Optional[Open] = None  # the item that holds headings of its own (``_held_by_item``); asked
        # only of the level open above a heading, by identity, so one that has left the stack answers nothing
        self._rejected_at = 0  # the last line of the last heading refused
        self._styled_at: Optional[int] = None  # where the styled line just judged goes (``opens_styled``)
        # The section it goes inside, and in place of which heading (``_inside_decimal``).
        self._styled_within: Optional[Tuple[Frame, int]] = None
        # The decimal level a heading without a number ended, its path and root, and that heading
        # (``_resume_decimal``).
        self._ended_decimal: Optional[Tuple[Open, List[Frame], Frame, Open]] = None
        self._empty: Optional[Tuple[Open, int, int]] = None  # the heading just opened, its line and page, while it has no text
        self._empty_words: List[str] = []  # the lines of that heading read into heading paths
        self._headed: Set[str] = set()  # the lines of more than a word that opened a heading without a number; MAX_TERMS

    def classes(self) -> Tuple[str, ...]:
        return ParagraphProfile.classes(self) + (STYLED,)

    def listed_on_page(self, rec: Line) -> bool:
        return self.layout is not None and self.layout.listed(rec.first)

    def starts_entry_on_page(self, rec: Line) -> bool:
        return self.layout is not None and self.layout.starts_entry(rec.first)

    def yields_to_layout(self, found: Tuple[str, "re.Match[str]"]) -> bool:
        return found[0] == LABEL and self.preset.family_of(found[1]).yields_to_layout

    # -- the rules' decisions ---------------------------------------------------
    def opens_section(self, rec: Line) -> bool:
        """A decimal number and a title: the preset's heading rules decide (see
        ``profiles.policy.rules``)."""
        assert rec.match is not None
        if self.listed(rec):
            self._verdict = LISTED
            return False
        line = self._heading_line
        line.read(self, rec.match)
        line.set_apart = self._set_apart(rec)
        for rule in self.preset.headings:  # the first decision wins
            verdict = rule(self, line)
            if verdict is not None:
                break
        else:
            verdict = line.placed or NOT_NEXT  # no rule refused it: its place stands
        self._verdict = verdict
        return isinstance(verdict, Placement) or self._refused(rec, verdict)

    def opens_label(self, rec: Line) -> bool:
        """An outline label (or a decimal number alone, or ``6.`` where decimal
        sections are open): the preset's label rules decide."""
        assert rec.match is not None
        if self.listed(rec):
            self._verdict = LISTED
            return False
        fresh = self._fresh
        if fresh is not None and not self._title_is_text and leads_on(self._fresh_title(fresh)) \
                and self._set_alike_below(rec, fresh):
            self._verdict = QUIET  # the heading's title goes on (``… COVER UNDER`` ⏎ ``SECTION C) BENEFITS …``)
            return False
        line = self._label_line
        line.read(self.preset.families, self, rec.match)
        line.set_apart = self._set_apart(rec)
        line.plain = line.family.name in PARTS and self.layout is not None and self.layout.plain(rec.first)
        line.under_title = fresh is not None and not self._title_is_text and self._set_alike_below(rec, fresh, False)
        line.first = rec.first
        for rule in self.preset.outline_labels if line.decimal is None else self.preset.decimal_labels:
            verdict = rule(self, line)
            if verdict is not None:
                break
        else:
            verdict = NOT_NEXT
        verdict = self._list_title(rec, line, verdict)
        self._verdict = verdict
        if isinstance(verdict, Refusal) and verdict.counted:
            self._hold(rec, verdict, self._nested_anew(line))
        return isinstance(verdict, Placement) or self._refused(rec, verdict)

    def _list_title(self, rec: Line, line: LabelLine, verdict: Verdict) -> Verdict:
        """Bounded hindsight, one line back, where no layout tells: a first
        label (``1. The excess.``) right after a short title that follows a
        sentence (``What is not covered``, see ``heads_list``) makes that line
        the heading of its list. Where the label's family is open, the heading
        ends that level (a list of the same kind before it: ``What is
        covered``'s items), and that list's heading if it has one; else it goes
        under the deepest level."""
        if line.decimal is not None or line.text is None or self.decimal_depth is not None or self.waiting \
                or not self.started or (self.layout is not None and self.layout.body() is not None) \
                or verdict is TABLE_ROW:  # (a table of benefits' first row heads no list)
            return verdict
        if not self.heads_list:
            return verdict
        m = line.match
        assert m is not None
        firsts = [o for o in line.family.meanings(m) if is_first(o) and not is_prefixed(o.style)]
        if not firsts:
            return verdict
        level = Level(firsts[0].style, firsts[0].value, line.family.printed(m))
        for depth, opened in enumerate(self.stack):
            if any(o.style == opened.level.style for o in firsts):
                if depth and self.stack[depth - 1].level.style == UNNUMBERED:
                    depth -= 1  # that list's own heading too: this one is its sibling
                self._list_title_at = rec.first
                self._title_held = True
                return Placement(depth, level, under_title=True)
        if isinstance(verdict, Placement) and verdict.depth == len(self.stack) and not verdict.replaces:
            self._list_title_at = rec.first
            self._title_held = True
            return Placement(verdict.depth, verdict.level, under_title=True)
        return verdict

    @property
    def guess_alone(self) -> bool:
        """Nothing came after the first label's line while it is a guess: it
        titles no text, as a contents entry does not."""
        guess = self._guess
        return guess is not None and not self.confirmed and (self.licensed or self._para_last.last == guess.last)

    @property
    def heads_list(self) -> bool:
        """The open paragraph's last line reads as the heading of a list after
        it: a short title after the end of a sentence (see ``heads_list``)."""
        before = self.line_before_last()
        return bool(before) and heads_list(before, self.last_line())

    def end_paragraph(self, rec: Optional[Line] = None) -> None:
        """As ever -- but where the label after a blank line takes the line
        before it for its list's heading (``_list_title``), that line's
        paragraph stays open until ``_open_list_title`` takes the line back."""
        if not self._title_held:
            ParagraphProfile.end_paragraph(self, rec)

    def _open_list_title(self, placed: Placement) -> Placement:
        """The heading ``_list_title`` found, taken back from the text and opened
        at ``placed.depth``; the label's placement under it."""
        title = self.take_back_last_line()
        if title is None:
            return Placement(placed.depth, placed.level)
        self.end_paragraph()
        self._settle_waiting()
        del self.stack[placed.depth:]
        opened = Open(Level(UNNUMBERED, (0, 0), slug(title.text)), title.text, True)
        opened.last = title.first
        self._push(opened)
        self._open_unit(len(self.stack) - 1)
        self.count("headings_unnumbered")
        self.in_heading(title.text)
        return Placement(len(self.stack), placed.level)

    def opens_styled(self, rec: Line) -> bool:
        """A line that no rule takes but the layout sets above the body is a
        heading without a number (``What is covered``) when it reads as a
        title: a capital first, no end of a sentence, no amount (a table's
        row), no more words than a title has. Or it goes on with the one just
        opened, set alike on the line before. A label alone takes it as its
        text. Where it goes is kept for ``open_styled``."""
        self._styled_at = self._styled_place(rec)
        return self._styled_at is not None

    def _styled_place(self, rec: Line) -> Optional[int]:
        """``CONTINUES``, the depth the stack is cut to before it, or None (text)."""
        self._styled_within = None
        if self.layout is None or self.listed(rec) or self.waiting and not self._own_label(rec):
            return None
        value = self.layout.prominence(rec.first)
        if self._continues_styled(rec, value):
            return CONTINUES
        if self._fresh is not None and self._fresh is (self.stack[-1] if self.stack else None) \
                and not self._title_is_text and self._set_alike_below(rec, self._fresh):
            return None  # (the title of the numbered heading goes on: ``continue_heading``)
        if self._wrapping is not None and self._wraps_again(rec, self._wrapping):
            return None  # (and goes on again: ``continue_paragraph``)
        assert value is not None
        if value == RUN_IN and self.decimal_depth is not None:
            return None  # (a term defined in a decimal clause is the clause's text, as its list is)
        labelled = prefix_label(rec.text)  # (a code's title after it: ``IMT5. HIRE PURCHASE AGREEMENT``)
        # A title may end in a comma where it wraps: set larger than the body,
        # or onto a line the layout marks with it (``TERMINATION - CANCELLATION,
        # NONRENEWAL,`` ⏎ ``AUTOMATIC TERMINATION, …``, all bold).
        wraps = self.layout.larger(value) or rec.text.endswith(",") and self.layout.prominence(rec.first + 1) == value
        if self.layout.term(rec.first) is None and not styled_title(
                rec.text if labelled is None else labelled[1], self._title_words(rec.text, value), wraps, alone=True):
            return None  # (a run-in term's line is its text: the layout checked the term)
        stack = self.stack
        inside = self._inside_decimal(value)
        if inside is not None:
            return inside
        if self._fresh_decimal_heading(value):
            return len(stack)
        depth = self._family_of(rec.text, stack)
        if depth is None:
            depth = styled_depth(stack, value)
        if self._held_by_item(rec, value, depth):
            return depth
        if depth == len(stack) and stack and not self._heads(stack[-1]) and not self._ends_items(rec, value, labelled):
            # Under the deepest level only as a heading's subheading (a decimal
            # section is one): under an item a term or a line set in bold is
            # emphasis within its text; one set larger or in capitals is a
            # heading, and ends the items (``ENDORSEMENT`` after a notice's ``6.``).
            return None
        while depth and not self._heads(stack[depth - 1]):
            depth -= 1  # a heading never goes under an item: it ends the items
        depth = self._past_contents(depth)
        # It ends every decimal section open or none: the numbers go on around it.
        if any(o.level.style == DECIMAL for o in stack[:depth]) and any(o.level.style == DECIMAL for o in stack[depth:]):
            return None
        return depth

    def _heads(self, opened: Open) -> bool:
        """``opened`` is a heading, or a label alone the line being placed
        leaves with no text, which makes it one (``_settle_waiting``)."""
        return opened.heading or any(opened is waiting[0] for waiting in self.waiting)

    def _held_by_item(self, rec: Line, value: float, depth: int) -> bool:
        """A marked line going at ``depth`` is a heading under the item open
        there, where a term or a bold line under an item is emphasis in its text:
        a run-in term of a definitions list that the item leads into, its text
        ending in a colon before the first (``2. As used in this endorsement:``
        ⏎ ``Hazardous properties includes …``), or a title centred in the body's
        face (``Example`` over an example of the item's rule); and the next
        marked alike is their sibling, still under the item."""
        stack = self.stack
        assert self.layout is not None
        if depth == len(stack) and stack and not stack[-1].heading and (
                value == RUN_IN and self.last_line().endswith(":") or self.layout.centred(rec.first)):
            self._holder = stack[-1]
            return True
        return depth > 0 and depth == len(stack) - 1 and stack[depth - 1] is self._holder \
            and stack[depth].prominence == value

    @staticmethod
    def _family_of(text: str, stack: Sequence[Open]) -> Optional[int]:
        """Where a heading labelled with its own word goes when a heading of the
        same word is open: at that heading's place, its sibling, however the
        typesetter sized the two (``IMT.4. Change of Vehicle`` in 10 points,
        ``IMT5. HIRE PURCHASE AGREEMENT`` in 9.5)."""
        word = own_word(text)
        if word is None:
            return None  # (a word of the list's value is ranked by style, as ever)
        for at, opened in enumerate(stack):
            printed = _OWN_WORD.match(opened.level.printed)
            if opened.cites and opened.level.style == UNNUMBERED and printed is not None and printed.group() == word:
                return at
        return None

    def _own_label(self, rec: Line) -> bool:
        """Line ``rec``, marked by the layout after labels alone, is a heading
        of its own, not their text: it prints a label of its own (``Annexure
        A`` ⏎ ``List I – Items …``, as text reads it), or it is the next
        page's first, set larger than the body, after labels alone at the foot
        of a page (a form's stamp ``1 1`` ⏎ page ⏎ ``COLORADO CHANGES –``)."""
        assert self.layout is not None
        labelled = prefix_label(rec.text)
        if labelled is not None and any(is_first(o) for o in meanings(labelled[0].rsplit(None, 1)[-1])):
            return True  # (a list's first: not a title that starts with a word and a number, ``Covid 19 – …``)
        value = self.layout.prominence(rec.first)
        return value is not None and self.layout.larger(value) and rec.page > self.waiting[-1][1].page

    def _inside_decimal(self, value: float) -> Optional[int]:
        """Where a heading without a number goes beside one already inside a
        decimal section (``Specific Definitions`` after ``Standard
        definitions`` and ``2.1``-``2.23``): in that section, in place of the
        first set no larger; the sections deeper in it end. Kept for
        ``open_styled`` in ``_styled_within``."""
        d = self.decimal_depth
        if d is None:
            return None
        for frame in self.path:
            for at, sub in enumerate(frame.subs):
                if sub.prominence is None or sub.prominence <= value:
                    self._styled_within = (frame, at)
                    return d + 1
        for depth in range(d + 1, len(self.stack)):
            opened = self.stack[depth]
            if opened.within is not None and (opened.prominence is None or opened.prominence <= value):
                self._styled_within = (opened.within, len(opened.within.subs))
                return depth
        return None

    def _fresh_decimal_heading(self, value: float) -> bool:
        """A heading right after a decimal heading, before any text, goes
        inside it (``4.1 Standard Exclusions`` ⏎ ``Exclusions specific to
        section 3.2(b)``), if that heading stands apart as well: set apart by
        the layout, or a title in text with no layout, and has words for a
        title (a number before a schedule's row, ``001 39520 COUNTY ROAD``,
        has figures)."""
        stack = self.stack
        if not stack or self._fresh is not stack[-1] or stack[-1].level.style != DECIMAL or self._title_is_text \
                or not self._title[:1].isalpha():
            return False
        assert self.layout is not None
        return value != RUN_IN and (stack[-1].prominence is not None or self.layout.body() is None)

    def _section_of(self, depth: int) -> Optional[Frame]:
        """The decimal section a heading without a number opened at ``depth``
        is inside: the deepest open one that is a heading, not a clause
        (``2.23 Surgery means …`` holds no headings), if it goes right above
        the decimal level."""
        if self._styled_within is not None:
            return self._styled_within[0]
        if self.decimal_depth is None or depth != self.decimal_depth + 1:
            return None
        return next((frame for frame in reversed(self.path) if not frame.clause), None)

    def _past_contents(self, depth: int) -> int:
        """A heading after a contents list is the list heading's sibling at most:
        the body is not inside its contents (``Table of contents`` is set
        larger than any heading of the body)."""
        for at, opened in enumerate(self.stack[:depth]):
            if opened.level.style == UNNUMBERED and CONTENTS_TITLE.fullmatch(opened.title):
                return at
        return depth

    def _ends_items(self, rec: Line, value: float, labelled: Optional[Tuple[str, str]]) -> bool:
        """A line the layout marks ends the items above it, as a heading, when it
        is set larger, or in capitals, or is a title in Title Case after a full
        stop (``Pairs, Sets or Suites`` in bold after item ``(c)``'s last
        sentence), or opens with a word and a value of its own, ``labelled``
        (``prefix_label``: ``IMT1. Extension of Geographical Area`` after
        ``part of Policy)``; a sentence's emphasis has no label), or heads a
        part of the document already, word for word and case for case, in more
        than one word (``What is not covered`` in a section with no ``What is
        covered`` over its items; not the defined term ``Unoccupied`` in use
        after ``UNOCCUPIED`` headed its definition); bold words
        that go on a sentence are its emphasis. In text with no layout a title alone stood between two sentences to be marked:
        of two words or more it ends them (``Right of subrogation``); a word
        alone may be a sentence's emphasis."""
        layout = self.layout
        if value == RUN_IN or layout is None:
            return False
        text = rec.text
        if layout.body() is None:
            return text.isupper() and len(text) > 3 or len(text.split()) > 1
        return (layout.larger(value) or text.isupper() and len(text) > 3 or labelled is not None
                or title_case(text) and len(text.split()) > 1 and ends_sentence(self.last_line())
                or text in self._headed)

    def _continues_styled(self, rec: Line, value: Optional[float]) -> bool:
        top = self.stack[-1] if self.stack else None
        if top is None or top.level.style != UNNUMBERED or top.last != rec.first - 1:
            return False
        title = f"{top.title} {rec.text}"
        # (An endorsement's name in capitals after its code runs long, and may
        # end with a full stop: ``IMT29. LEGAL LIABILITY … EMPLOYER’S CAR.``.)
        coded = top.cites and title.isupper() and _OWN_WORD.match(top.level.printed) is not None
        return ((self._set_alike(top, rec, value) or _qualifies(top, rec.text, value)) and not self._para
                and (value != RUN_IN or self.layout is not None and self.layout.term_goes_on(rec.first))
                and styled_title(title.removesuffix(".") if coded else title,  # (not a table's row)
                                 CODED_TITLE_WORDS if coded else self._title_words(rec.text, value))
                and (self.layout is None or self.layout.body() is not None or wraps_onto(top.title, rec.text)))
        # (Two titles alone in text, one under the other, are two headings unless
        # the first leads on to the second: ``Extensions of Coverage`` ⏎ ``Tear Out``.)

    def _title_words(self, last: str, value: Optional[float]) -> int:
        """The words a heading the layout marks (at ``value``) may have, up to
        and with its line ``last``: twice as many where it is set larger than
        the body, or ends as a question -- a list of questions and answers
        titles its answers so (``Where and when does the issue/incident need to
        have happened to be covered under`` ⏎ ``the policy?`` in 14-point bold)."""
        larger = value is not None and self.layout is not None and self.layout.larger(value)
        return 2 * self.max_words if larger or last.endswith("?") else self.max_words

    def _set_alike(self, top: Open, rec: Line, value: Optional[float]) -> bool:
        """Line ``rec`` is set as the heading ``top`` is: in its style, or, both in
        capitals and set larger than the body, within a tenth of its size (a
        title whose last word the typesetter set otherwise: ``ACCIDENTAL DEATH
        OR DISMEMBERMENT`` in bold, ``COVERAGE`` a point larger and not)."""
        if top.prominence == value:
            return True
        assert self.layout is not None
        return (top.prominence is not None and value is not None and top.title.isupper() and rec.text.isupper()
                and self.layout.larger(value) and self.layout.larger(top.prominence)
                and abs(top.prominence - value) <= ALIKE * max(top.prominence, value))

    def open_styled(self, rec: Line) -> None:
        """Open the heading at its rank: it ends the levels below the first
        unnumbered heading set no larger, else those of labelled lines set
        smaller (or headings in the body's style: a contents line that took a number),
        else it goes under the deepest level; the numbers under it start again."""
        assert self.layout is not None
        value = self.layout.prominence(rec.first)
        depth = self._styled_at
        assert value is not None and depth is not None
        if depth == CONTINUES:
            self.in_heading(rec.text)
            top = self.stack[-1]
            top.title += " " + rec.text
            top.last = rec.first
            self.packer.retitle(self._heading_path())
            return
        self.end_paragraph()
        self._settle_waiting()
        self._fresh = self._growing = None
        self._title_is_text = self.after_contents = False
        if depth < len(self.stack):
            self._keep_empty_heading()  # (one it ends; one it goes under shows in its heading path)
        within = self._section_of(depth)
        ended: Optional[Tuple[Open, List[Frame], Frame]] = None
        # A sibling of the heading that ended the decimal sections takes its
        # place: the numbers go on after it as they would have after the first
        # (``What is covered``, ``What is not covered``, then ``2 Claims``).
        succeeds = self._ended_decimal if depth < len(self.stack) and self.stack[depth] is self.ender else None
        if within is not None:  # the decimal sections deeper in it end, and the headings it replaces
            del self.path[self.path.index(within) + 1:]
            if self._styled_within is not None:
                del within.subs[self._styled_within[1]:]
        for at in range(len(self.stack) - 1, depth - 1, -1):  # the outermost of each family it ends, kept
            style = self.stack[at].level.style
            if style in (DECIMAL, BARE):  # (their numbers may go on: ``_resume_decimal``)
                ended = (self.stack[at], list(self.path), self._root)
            if style == DECIMAL:
                self.ended[style] = (depth, self.stack[at].level.value, self.stack[depth - 1] if depth else None)
            elif style != UNNUMBERED:
                self.ended[style] = (at, self.stack[at].level.value, self.stack[at - 1] if at else None)
                # It ends the heading the level was under as well, right after a
                # lead-in to what follows (``… in respect of parts replaced:``): kept
                # for ``placing.restoring``; else no older ending stays beside this one.
                if depth < at and (self.last_line() or self._closed).endswith(":"):
                    self.ended_above[style] = (tuple(self.stack[:at]), rec.first)
                else:
                    self.ended_above.pop(style, None)
        del self.stack[depth:]
        if not any(o.level.style == DECIMAL for o in self.stack):
            self.path, self._root = [], Frame((), "")
        term = self.layout.term(rec.first)
        title = rec.text if term is None else term
        labelled = prefix_label(title) if term is None else None
        cited = labelled[0] if labelled is not None else None
        opened = Open(Level(UNNUMBERED, (0, 0), cited or slug(title)), title if labelled is None else labelled[1],
                      True, value)
        opened.cites = cited is not None
        opened.last = rec.first
        opened.within = within
        if ended is not None:
            self._ended_decimal = (*ended, opened)
        elif succeeds is not None:
            self._ended_decimal = (*succeeds[:3], opened)
        self._push(opened)
        self._open_unit(len(self.stack) - 1)
        self._may_stay_empty(opened, rec)
        self.in_contents_list = CONTENTS_TITLE.fullmatch(title) is not None
        if term is None and len(self._headed) < MAX_TERMS and " " in rec.text:
            self._headed.add(rec.text)
        self.count("headings_unnumbered")
        if term is not None:  # a run-in term: its line is the text under it, and the lines after it
            self.open_paragraph(rec)
            self._title_is_text = True
            return
        self.in_heading(rec.text)
        self.licensed = True

    def _set_apart(self, rec: Line) -> bool:
        return self.layout is not None and self.layout.prominence(rec.first) is not None

    def follows_clause_end(self, rec: Line) -> bool:
        """The line before could end a clause -- or the layout sets this one apart
        from it, as a heading is (the line before may be a table's last row)."""
        if self._set_apart(rec) or self._list_title_at == rec.first:
            return True  # (the line before is the list's heading: see ``_list_title``)
        if self._next_section_titled(rec):
            return True
        refusal = line_before_allows(self)
        if refusal is None:
            return True
        if refusal is MID_SENTENCE:  # (not a number after a contents entry: that one is the list's)
            self._note_missed(rec)
            if self._held_at(rec, self._verdict) >= 0 or self._goes_on_proved(self._verdict):
                return True  # (the list a label held starts, or goes on: ``open_label``)
            self._hold(rec, refusal, self._verdict if isinstance(self._verdict, Placement) else None)
        self._verdict = refusal
        return self._refused(rec, refusal)

    def _next_section_titled(self, rec: Line) -> bool:
        """Label ``rec`` is the next value of a level open: a word of the list's
        with a title (``SECTION 4 – EMERGENCY DENTAL EXPENSES …`` under
        ``SECTION 3 –``) stands on its own, as a decimal heading with a title
        does, whatever the line before (``(b) expenses that arise from any
        Illness``: a list's last item without its full stop); any other with
        text that starts with a capital, unless the line before stops on a word
        that leads on (a strong sign: ``… up to`` ⏎ ``3. …``), where its only
        sign against it is a weak one: no full stop (``11. DISCLOSURE … any
        material fact`` ⏎ ``12. EMERGENCY CARE …``), or a comma after a word
        that does not lead on, as a bullet list's items under the item before
        end (``• The cost of removal … below ground,`` ⏎ ``12. Falling …``)."""
        placed, line = self._verdict, self._label_line
        if rec.cls != LABEL or not isinstance(placed, Placement) or line.text is None:
            return False
        if is_prefixed(placed.level.style):
            if not is_title(line.text, self.max_words):
                return False
        elif self.after_contents or not first_letter(line.text).isupper() \
                or leads_on(self.last_line().removesuffix(",")) or _REFERS.search(self.last_line()) \
                or ends_in_amount(line.text) or ends_in_amount(self.last_line()):
            return False  # (nor a reference's number, ``… set out in Section`` ⏎ ``3. Waiting periods …``,
            # nor a table's row, numbered as a list is: ``3. Medical expenses £10,000``)
        stack, depth = self.stack, placed.depth
        return depth < len(stack) and is_next_sibling(placed.level, stack[depth].level)

    # -- hindsight over a list's first label (``held.Held``) ---------------------
    def _hold(self, rec: Line, refusal: Refusal, placed: Optional[Placement]) -> None:
        """A list's first label read as text, where it would have gone: held.
        A list's: not a decimal number, nor a word's (``Section 1:`` lines a
        contents list as often as it heads a section)."""
        if self._after_refused_heading():
            return  # (the place of a list after it is not known)
        if placed is not None and rec.cls == LABEL and is_list_style(placed.level.style) \
                and is_first(Meaning(placed.level.style, placed.level.value)):
            self._held = Held(rec, placed, self._para_last, refusal.counted)

    def _nested_anew(self, line: LabelLine) -> Optional[Placement]:
        """Where a first label the stack rule refuses (its family is open
        above) would go as a list of its own under the heading open last
        (``6. Living Donor Medical Costs`` … ``provided that,`` ⏎ ``1. The
        organ donor …``), or under the item open last whose own first paragraph
        leads into it (``(c) The Company will not pay for:`` ⏎ ``(i) Any tax``,
        under ``(ii) Online Purchase Protection``; not a list after a paragraph
        of its own, which may start a list of the heading's anew) -- where a
        PDF's layout marks paragraphs (``-raw`` text has no blank lines: every
        line is in its item's first paragraph): for ``_hold``, as only its
        next can show it."""
        stack = self.stack
        if not stack or line.match is None or not stack[-1].heading and not (
                self._para and self._para_first.cls == LABEL and self.last_line().endswith(":")
                and self.layout is not None and self.layout.styled()):
            return None
        options = [o for o in line.family.meanings(line.match) if is_first(o)]
        if not options or not any(o.level.style == options[0].style for o in stack):
            return None
        return Placement(len(stack), Level(options[0].style, options[0].value, line.family.printed(line.match)))

    @property
    def held(self) -> Optional[Tuple[Meaning, int]]:
        held = self._held
        if held is None or self._held_piece() < 0:
            return None
        return Meaning(held.placed.level.style, held.placed.level.value), held.placed.depth

    def _held_piece(self) -> int:
        """Where in the open paragraph the held label's line is, while it is
        there and within ``HELD_LINES`` of its last line; else -1."""
        held, para = self._held, self._para
        if held is None or self._para_last.last - held.rec.first > HELD_LINES:
            return -1
        for at in range(len(para) - 1, -1, -1):
            if para[at] == held.rec.text:
                return at
        return -1

    def _held_at(self, rec: Line, placed: Verdict) -> int:
        """``_held_piece``, when label ``rec``, placed so, is the held label's
        next (or -1): it proves the held one a list's first."""
        held = self._held
        if held is None or rec.cls != LABEL or not isinstance(placed, Placement) or placed.depth != held.placed.depth \
                or not is_next_sibling(placed.level, held.placed.level):
            return -1
        return self._held_piece()

    def _goes_on_proved(self, placed: Verdict) -> bool:
        """``placed`` is the next of a list's label opened in hindsight, still open."""
        proved = self._proved
        return proved is not None and isinstance(placed, Placement) and placed.depth < len(self.stack) \
            and self.stack[placed.depth] is proved and is_next_sibling(placed.level, proved.level)

    def _open_held(self, at: int) -> None:
        """The label held opens after all, the open paragraph's text from its
        line (piece ``at``) on its text."""
        held, self._held = self._held, None
        assert held is not None
        verdict, last = self._verdict, self._para_last
        taken = self.take_back_from(at, held.before)
        if held.counted:
            self.count("outline_labels_refused", -1)
        self.end_paragraph()
        self._verdict = held.placed
        self._open_label(held.rec)
        self._verdict = verdict
        if len(taken) > 1:
            rest = Line(held.rec.last + 1, last.page, "\n".join(taken[1:]), last.last, TEXT)
            if self.continues_heading(rest):
                self.continue_heading(rest)
            else:
                self.continue_paragraph(rest)

    def _after_refused_heading(self) -> bool:
        """The line before is a heading refused (its text is the open paragraph's last)."""
        return bool(self._para) and self._para_last.last == self._rejected_at

    def _note_missed(self, rec: Line) -> None:
        """A numbered heading refused for the line before it alone: where it would
        have gone is kept, for ``rules.after_missed`` to judge by the next number."""
        assert rec.match is not None
        if self._after_refused_heading():
            return  # (this one's place is not known)
        if rec.cls == HEADING:  # (its rules have not run: the line before is asked first)
            self._heading_line.read(self, rec.match)
            placed = self._heading_line.placed
        else:  # a label's rules placed it already
            placed = self._verdict if isinstance(self._verdict, Placement) else None
        if placed is not None and not placed.replaces:
            self.missed = (Meaning(placed.level.style, placed.level.value), placed.depth)

    def heading_licensed(self, rec: Line) -> bool:
        assert rec.match is not None
        return stands_alone(self, rec.match) or self.follows_clause_end(rec)

    def _refused(self, rec: Line, refusal: Verdict) -> bool:
        """A refusal is counted where it says so; the line is text."""
        if isinstance(refusal, Refusal) and refusal.counted:
            self.count("outline_labels_refused")
            self._refused_at = rec.first
        return False

    # -- what the rules read (``profiles.policy.placing.Reads``) -----------------
    def seen(self, clause: str) -> bool:
        return self._ids.seen(clause)

    def reject_heading(self, rec: Line) -> None:
        verdict = self._verdict
        if self.after_contents or not isinstance(verdict, Refusal) or not verdict.reason:
            return  # a contents number, or a list inside a clause: no heading was refused
        self.count("headings_rejected")
        self._rejected_at = rec.last
        if verdict is TABLE_ROW:  # (its cells, for whoever shows it as a table: ``cli.review``)
            self.diagnose("rejected_heading", rec.first, text=rec.text, reason=verdict.reason,
                          cells=list(row_cells(rec.text)))
            return
        self.diagnose("rejected_heading", rec.first, text=rec.text, reason=verdict.reason)

    def reject_label(self, rec: Line) -> None:
        self._title_held = False  # (the line before did not license the label after all)
        self.reject_heading(rec)

    # -- opening levels --------------------------------------------------------
    def open_section(self, rec: Line) -> None:
        m, placed = rec.match, self._verdict
        assert m is not None and isinstance(placed, Placement)
        title = (m["title"] if m["title"] is not None else m["glued"]).strip()
        titled = not self.started and not reads_as_sentence(title, self.max_words) and not goes_on(title)
        placed = self._above_smaller(rec, self._first_at_top(placed, titled))  # (asked only before the first label)
        self._open_decimal(rec, placed, m["num"], title, bool(m["dot"]))

    def open_label(self, rec: Line) -> None:
        placed = self._verdict
        at = self._held_at(rec, placed)
        proved = at >= 0 or self._goes_on_proved(placed)
        if at >= 0:
            self._open_held(at)
        self._open_label(rec)
        if proved:
            self._proved = self.stack[-1]

    def _open_label(self, rec: Line) -> None:
        self._title_held = False  # (``end_paragraph`` has run: the title's paragraph is still open)
        m, placed = rec.match, self._verdict
        assert m is not None and isinstance(placed, Placement)
        text = m["text"] if m["glued"] is None else m["glued"]
        text = text.strip() if text is not None else None
        placed = self._above_smaller(rec, self._first_at_top(placed, text is not None and is_title(text, self.max_words)))
        depth = self._past_contents(placed.depth)
        if depth < placed.depth:
            placed = Placement(depth, placed.level, placed.replaces, placed.converts)
        if placed.under_title:
            placed = self._open_list_title(placed)
        if placed.level.style == DECIMAL:
            self._open_decimal(rec, placed, placed.level.printed, text, self.preset.family_of(m).dotted)
        else:
            self._open_outline(rec, placed, text)

    def _first_at_top(self, placed: Placement, titled: bool) -> Placement:
        """The first label goes under the headings without a number open before
        it (``Definitions`` › ``What is covered`` › ``1. Storm …``), unless it
        is a heading itself: then those were front matter (a cover's title) and
        the outline starts at the top."""
        if self.started or not titled or not placed.depth:
            return placed
        return Placement(0, placed.level, placed.replaces, placed.converts)

    def _above_smaller(self, rec: Line, placed: Placement) -> Placement:
        """A labelled line the layout sets above the body ends the headings
        without a number set no larger than it, as one of those would: it is
        their sibling or above them (``1. Key details`` after ``Table of
        contents``). Decimal sections keep their own order."""
        value = self.layout.prominence(rec.first) if self.layout is not None else None
        if value is None or placed.level.style == DECIMAL:
            return placed
        stack = self.stack
        for depth in range(placed.depth):
            opened = stack[depth]
            if opened.level.style == UNNUMBERED and opened.prominence is not None and opened.prominence <= value:
                if any(o.level.style == DECIMAL for o in stack[depth:]):
                    return placed
                return Placement(depth, placed.level, placed.replaces, placed.converts)
        return placed

    def _enter(self, rec: Line, placed: Placement, alone: bool = False) -> None:
        """Common to every label that opens: the paragraph before it ends, labels
        waiting for their text get none (unless this is one more label alone), a
        wrong first guess gives way."""
        self.end_paragraph()
        if not alone and self.waiting:
            self._settle_waiting()
        if placed.depth < len(self.stack):  # (one the label goes under has a level under it)
            self._keep_empty_heading()
        self._in_front = False
        if placed.replaces:  # the guess, and the text after it, were front matter
            guess = self._guess
            assert guess is not None
            if self._guess_unit:
                self.packer.close(1)
                key = new(Key, (self._ids.unique(FRONT), None, "", None, True, self.parts.current))
                lines = self._guess_lines
                if lines:  # (its heading's lines go back to the text; lines its text holds already stay)
                    text = "\n".join(line.text for line in lines)
                    self.in_heading(text, -1)
                    self.packer.rekey(key, (text, len(text.split()), (lines[0].first, lines[-1].last),
                                            (lines[0].page, lines[-1].page)))
                else:
                    self.packer.rekey(key)
                self._guess_unit = False
            self.stack = []
            self._deepest()
            self.path = []
            # A guess that replaces one, and is no first value either, is more of the same.
            self._in_front = not is_first(Meaning(placed.level.style, placed.level.value))
        elif self.started and not placed.converts:
            self.confirmed = True
        if not self.started or placed.replaces:
            self._guess = rec
            self._guess_unit = not self._in_front
            self._guess_lines = [rec]
        self.started = True
        self._fresh = None
        self._title_is_text = self.after_contents = False
        self.count("sections")

    def _open_decimal(self, rec: Line, placed: Placement, number_text: str, title: Optional[str],
                      dot: bool) -> None:
        number = placed.level.value
        if placed.resumes:
            placed = self._resume_decimal(placed)
        moved = self._headings_kept(placed, number)
        empty = self._empty[0] if self._empty is not None else None
        if empty is not None and (empty in moved or empty.level.style == DECIMAL
                                  and number[:len(empty.level.value)] == empty.level.value
                                  or placed.converts and empty is self.stack[placed.depth]):
            # (its title is in the heading path of what follows: it, a section
            # under it, or the bare ``5.`` that ``5.1`` makes section 5)
            self._empty = None
        self._enter(rec, placed)
        d = self.decimal_depth
        if placed.converts:  # the bare "x." open is decimal section x: its title stays
            self.path = [Frame(number[:1], self.stack[placed.depth].title)]
            self._root = Frame((), "")
        elif d is None:
            self.path, self._root = [], Frame((), "")
        if d is not None and self.path and not is_next_number(self.stack[d].level.value, number):
            self.diagnose("skipped_number", rec.first, number=number_text.rstrip("."),
                          after=".".join(map(str, self.stack[d].level.value)))
        del self.stack[placed.depth:]
        if self._in_front:
            self._push(Open(placed.level, "", True))
            self.path = [Frame(number, title or "")]
            self.open_paragraph(rec)
            return
        parent = self.parent_frame(number)
        if parent.children is None and title is not None:
            parent.children = (dot, title.isupper())
        while self.path and not (self.path[-1].number == number[: len(self.path[-1].number)]
                                 and len(self.path[-1].number) < len(number)):
            self.path.pop()
        for opened in moved:
            if placed.converts:
                opened.within = self.path[0]
            section = opened.within
            if section is not None and any(frame is section for frame in self.path):
                section.subs.append(opened)
        max_words = self.max_words
        is_text = title is not None and reads_as_sentence(title, max_words)
        frame = Frame(number, title or "")
        if is_text:
            frame.read_as_clause(frame.title, max_words)
        self.path.append(frame)
        self._push(Open(placed.level, "", True), rec.first)  # (its label as printed: a decimal number has no dot in it)
        self.reach_section(number)
        self._open_unit(len(self.stack) - 1)
        self._may_stay_empty(self.stack[-1], rec)
        self._title_at, self._title = rec, title or ""
        self.in_heading(rec.text)
        if title is None:
            self.waiting = [(self.stack[-1], rec, list(self.stack))]
        elif is_text:  # clause text on the number's line is body text as well as a title
            self._title_is_text = True
            self._open_title_paragraph()
            self.in_heading(title, -1)
        else:
            self.licensed = True
            self._fresh = self.stack[-1]

    def _headings_kept(self, placed: Placement, number: Number) -> List[Open]:
        """The headings without a number inside a decimal section that a number
        under it keeps (they group the section's children after them): those
        right above the decimal level, if that level is the one cut, or above
        the bare ``x.`` that ``x.1`` makes a decimal section."""
        depth = placed.depth
        if depth != self.decimal_depth and not placed.converts:
            return []
        kept = []
        for opened in self.stack[depth + 1:]:
            frame = opened.within
            if opened.level.style != UNNUMBERED or (frame is None and not placed.converts) \
                    or NOTE_TITLE.fullmatch(opened.title):
                break  # (a note's heading heads the note alone: ``Note`` after 2.1.1 ends before 2.1.2)
            if frame is None or frame.number == number[:len(frame.number)] and len(frame.number) < len(number):
                kept.append(opened)
        return kept

    def _resume_decimal(self, placed: Placement) -> Placement:
        """The decimal sections that a heading without a number ended go on
        (see ``placing.after_ended_decimal``): a number under one of them puts
        that heading inside it, in hindsight; one at the top ends it, as does
        any number once a list has opened under the heading."""
        assert self._ended_decimal is not None  # (``placing.after_ended_decimal`` found its heading open)
        slot, path, root, _ = self._ended_decimal
        number, depth = placed.level.value, placed.depth
        self.path, self._root = list(path), root
        section = next((frame for frame in reversed(path) if not frame.clause
                        and frame.number == number[:len(frame.number)] and len(frame.number) < len(number)), None)
        if placed.converts:  # the bare ``x.`` goes back, the headings above it: ``_open_decimal`` converts it
            self.stack.insert(depth, slot)
            self.packer.retitle(self._heading_path())
            self._deepest()
            return Placement(depth, placed.level, converts=True)
        if section is None or any(o.level.style != UNNUMBERED for o in self.stack[depth:]):
            # (at the top, or a list under the heading: a table's header, set like a heading, is no heading)
            self.stack.insert(depth, slot)
            del self.stack[depth + 1:]
        else:
            del self.path[path.index(section) + 1:]
            for opened in self.stack[depth:]:
                opened.within = section
            self.stack.insert(depth, slot)
            self.packer.retitle(self._heading_path())
        self._deepest()
        return Placement(depth, placed.level)

    @property
    def ender(self) -> Optional[Open]:
        """The heading without a number that ended the decimal sections last."""
        return self._ended_decimal[3] if self._ended_decimal is not None else None

    def _open_outline(self, rec: Line, placed: Placement, text: Optional[str]) -> None:
        self._enter(rec, placed, alone=text is None and bool(self.waiting))
        if placed.restores is not None:  # (the headings since were inside its last item: a table's, a box's)
            self.stack[:] = placed.restores
            self._deepest()
        replaced = self.stack[placed.depth] if placed.depth < len(self.stack) else None
        if is_prefixed(placed.level.style) or replaced is not None and replaced.heading \
                and replaced.level.style == placed.level.style:
            # (its items' numbers may go on under it, as under the heading it follows: ``after_ended``)
            for at in range(len(self.stack) - 1, placed.depth, -1):
                style = self.stack[at].level.style
                if not is_prefixed(style) and style not in (DECIMAL, UNNUMBERED):
                    self.ended[style] = (at, self.stack[at].level.value, self.stack[at - 1])
                    self.ended_above.pop(style, None)  # (a labelled heading ended it: no box's)
        del self.stack[placed.depth:]
        opened = Open(placed.level, "", False)
        self._push(opened, rec.first)
        if self._in_front:
            self.open_paragraph(rec)
        elif text is None:
            self.waiting.append((opened, rec, list(self.stack)))
        else:
            self._take_label_text(opened, rec, text)

    def _push(self, opened: Open, line: int = 0) -> None:
        self._closed = ""  # (a heading came between: the text before it is no line before the next)
        self.missed = self._held = None
        self.in_contents_list = False
        parent = self.stack[-1].cid if self.stack else ""
        self._worded = self._worded or is_prefixed(opened.level.style)
        if not self._own_word and opened.level.style != DECIMAL:  # (a call saved for each decimal section)
            self._own_word = is_own_word(opened.level.style)
        self._wrapping = None  # (a title before it wraps no more)
        if opened.level.style == DECIMAL and self.stack and restated(self.stack[-1].level, opened.level):
            parent = self.stack[-2].cid if len(self.stack) > 1 else ""
        if opened.within is not None:
            parent = opened.within.cited
        printed = opened.level.printed
        if opened.level.style == UNNUMBERED and not opened.cites:  # (``is_unlabelled``, inline: a call per push)
            if not parent and printed == FRONT:
                printed += "-heading"  # (``front`` is the text before the first heading)
            opened.cid = self._ids.unique(f"{parent}/{printed}" if parent else printed)
        else:
            if printed.endswith(")") and not printed.startswith("("):
                printed = printed[:-1]  # an id keeps no one-sided bracket (``5.c``, cited ``5.c)``)
            opened.cid = self._ids.unique(f"{parent}.{printed}" if parent else printed)
            if line and self.layout is not None and opened.prominence is None:
                opened.prominence = self.layout.prominence(line)
        self.ended.pop(opened.level.style, None)  # (its family is open again, or starts again)
        self.ended_above.pop(opened.level.style, None)
        self.stack.append(opened)
        self._deepest()

    def _deepest(self) -> None:
        """The deepest level decides which lines may open anything (see
        ``_decimal_lines``) and where a decimal number goes."""
        stack = self.stack
        deepest = deepest_numbered(stack)  # (headings without a number inside a decimal section: its numbers go on)
        decimal = deepest >= 0 and stack[deepest].level.style == DECIMAL
        self.decimal_depth = deepest if decimal else None  # the depth of the open decimal level
        if decimal:
            self.special = self._own_word_decimal_lines if self._own_word and any(
                is_own_word(o.level.style) for o in stack[:deepest]) else \
                self._worded_decimal_lines if self._worded else self._decimal_lines
        else:
            self.special = self._outline_lines

    def _take_label_text(self, opened: Open, label: Line, text: str, set_alike: bool = False) -> None:
        """A label's text, on its line or the next: a title makes it a heading;
        a sentence an item, whose lines are body text, its label with them. A
        line ``set_alike`` the label, larger than the body, is its title even
        where it wraps on a comma (``Section 4 –`` ⏎ ``Medical,`` ⏎
        ``Evacuation`` ⏎ …, in 20-point type): no item's text is set so."""
        max_words = self.max_words
        if is_title(text, max_words) or (opened.prominence is not None or is_prefixed(opened.level.style)) \
                and styled_title(text, max_words) or set_alike and leads_on(text):
            # (a phrase the layout sets above the body is a title in any case:
            # ``1. Key details about your policy``; so is one after a word of
            # the list, which names a part: ``Section 2: Fire and theft``)
            opened.heading, opened.title = True, text
            self._open_unit(len(self.stack) - 1)
            self._may_stay_empty(opened, label)
            self.licensed = True
            self._fresh = opened
            self._title_lines = [label]
            if label is self._guess:
                self._guess_lines = self._title_lines  # (its title may wrap onto more lines)
            self._title_set = None
            self.in_heading(label.text)
            return
        opened.title = short_title(text, max_words)
        self._open_unit(len(self.stack) - 1)
        if label is self._guess:
            self._guess_lines = []  # (an item's label line is its text)
        self.open_paragraph(label)
        if opened.title == text and len(text.split()) < max_words:
            self._growing = opened  # its first clause may go on on the next line
        self.licensed = len(text.split()) <= 3 and text.endswith(",")

    def _open_unit(self, index: int) -> None:
        """Open the packer's node for the level at ``index``: a unit for a heading
        or a decimal section (its own text), for an item at the first level
        under one, and for an item under an item a node nested in that item's."""
        opened = self.stack[index]
        parent = self.stack[index - 1] if index else None
        depth = 0
        if not opened.heading and parent is not None and not parent.heading and parent.node is not None:
            depth = parent.node + 1
        for other in self.stack:
            if other.node is not None and other.node >= depth:
                other.node = None
        levels = self.stack[: index + 1]
        clause = ".".join([opened.within.cited if o.level.style == DECIMAL and opened.within is not None
                           else o.level.printed for at, o in enumerate(levels)
                           if (o.level.style != UNNUMBERED or o.cites)
                           and (o.level.style == DECIMAL or not restated_below(levels, at))])
        if opened.heading and opened.level.style != UNNUMBERED and self.confirmed:
            self.parts.opening(self.stack[:index], opened)  # (a first guess may be a contents line)
        self.packer.open(depth, new(Key, (opened.cid, clause or None, self._heading_path(), None, True,
                                          self.parts.current)))
        opened.node = depth

    def _heading_path(self) -> str:
        titles: List[str] = []
        for opened in self.stack:
            if opened.level.style == DECIMAL:
                for frame in self.path:
                    if frame.title:
                        titles.append(frame.title)
                    if frame.subs:
                        titles.extend(sub.title for sub in frame.subs if sub.title)
            elif opened.title:
                titles.append(opened.title)
        path = " > ".join(titles)
        return path if "  " not in path else " ".join(path.split())  # -layout text spaces its columns out

    def parent_frame(self, number: Number) -> Frame:
        """The open decimal frame that is ``number``'s nearest ancestor, or the root."""
        for frame in reversed(self.path):
            prefix = frame.number
            if prefix == number[: len(prefix)] and len(prefix) < len(number):
                return frame
        return self._root

    def _settle_waiting(self) -> None:
        """Labels alone that got no text before the next label: they title
        nothing, and each one the next does not go under is a chunk of its
        line (``1.`` ``2.`` ``3.``, a table's column of numbers)."""
        waiting, self.waiting = self.waiting, []
        for opened, label, stack in waiting:
            if opened.level.style != DECIMAL:
                if self._empty is not None and all(o is not self._empty[0] for o in stack):
                    self._keep_empty_heading()
                self.stack = stack
                self._deepest()
                opened.heading = True
                if is_prefixed(opened.level.style) and not opened.title:
                    # (``Annexure - B`` over ``List I - …``: the label is its title, or its words are in no chunk)
                    opened.title = " ".join(label.text.split())
                self._open_unit(len(stack) - 1)
                self._may_stay_empty(opened, label)
                self.in_heading(label.text)

    # -- the lines after a heading ---------------------------------------------
    def continues_heading(self, rec: Line) -> bool:
        """The line right after a heading or a label (with no blank line
        between) may belong to it: labels alone take it as their text; a line
        that starts in lower case makes a title a clause's text; a short Title
        Case line goes on with an outline title; a decimal clause's next line,
        and an item's title not yet at a clause end, go on with it. Whatever
        the heading or label left pending is settled on this one line (see
        ``continue_heading``), so that the lines of a paragraph cost nothing more."""
        return bool(self.waiting) or self._growing is not None or self.licensed or self._title_goes_on(rec)

    def _title_goes_on(self, rec: Line) -> bool:
        if self._title_is_text:
            return True
        fresh = self._fresh
        if fresh is None:
            return False
        if fresh.prominence is not None and self.layout is not None and self.layout.prominence(rec.first) is None:
            return False  # the layout sets the title apart from the line after it: the title is whole
        if self._set_alike_below(rec, fresh):
            return True  # (``SECTION D) EXCLUSIONS- STANDARD …`` ⏎ ``UNDER SECTION C) BENEFITS …``)
        if rec.text[:1].islower():
            return True
        return fresh.level.style != DECIMAL and continues_title(rec.text.split("\n", 1)[0])

    def _set_alike_below(self, rec: Line, fresh: Open, wraps: bool = True) -> bool:
        """Line ``rec`` is set as the numbered heading just opened is, or as its
        title on the line below a label alone (``Section 7`` ⏎ ``Loss or Damage
        Coverages`` ⏎ ``(Optional)``), on the line right below: the title wraps
        onto it (or, not ``wraps``, may go on with it)."""
        layout = self.layout
        if fresh.prominence is None or layout is None:
            return False
        value = layout.prominence(rec.first)
        if value is None or value != fresh.prominence and (fresh.level.style == DECIMAL or value != self._title_set):
            return False
        if fresh.level.style == DECIMAL:
            below = self._title_at is not None and self._title_at.last == rec.first - 1
        else:
            below = bool(self._title_lines) and self._title_lines[-1].last == rec.first - 1
        return below and (not wraps or wraps_onto(self._fresh_title(fresh), rec.text, layout.larger(fresh.prominence)))

    def _fresh_title(self, fresh: Open) -> str:
        """The title of ``fresh``, the heading just opened, so far."""
        if fresh.level.style == DECIMAL:
            return self.path[-1].title if self.path else ""
        return fresh.title

    def continue_heading(self, rec: Line) -> None:
        if self.waiting:
            self._take_waiting(rec)
            return
        goes_on = self._title_goes_on(rec)
        fresh = self._fresh
        if not goes_on or self._title_is_text or fresh is None:
            self._after_label(rec)  # a paragraph starts, or goes on (an item's text)
            return
        self._fresh = None
        # The title goes on, and a label may still follow it; in lower case only
        # where the layout sets the line as the title (``1 Loss of or damage to
        # your car or`` ⏎ ``spare parts``, both in bold).
        if not rec.text[:1].islower() or self._set_alike_below(rec, fresh):
            lines = rec.text.split("\n")
            for number, text in enumerate(lines):
                line = rec._replace(first=rec.first + number, last=rec.first + number, text=text)
                if number and not self._wraps_again(line, fresh):
                    ParagraphProfile.continue_paragraph(self, line._replace(text="\n".join(lines[number:]),
                                                                            last=rec.last))
                    return
                self.in_heading(text)
                if fresh.level.style == DECIMAL:
                    self.path[-1].title += " " + text
                else:
                    fresh.title += " " + text
                    self._title_lines.append(line)
                self.packer.retitle(self._heading_path())
            self._wrapping = fresh if fresh.level.style != DECIMAL else None
            return
        self.licensed = False
        max_words = self.max_words
        if fresh.level.style == DECIMAL:
            frame = self.path[-1]
            frame.read_as_clause(frame.title, max_words)
            self.packer.retitle(self._heading_path())
            self._open_title_paragraph()
            self.in_heading(self._title, -1)
        else:  # an item after all: its label's lines are body text
            fresh.heading, fresh.title = False, short_title(fresh.title, max_words)
            self.packer.retitle(self._heading_path())
            self.end_paragraph()
            for line in self._title_lines:
                self.in_heading(line.text, -1)
                ParagraphProfile.continue_paragraph(self, line)
            if self._title_lines is self._guess_lines:
                self._guess_lines = []
        self._title_is_text = True
        ParagraphProfile.continue_paragraph(self, rec)

    def _wraps_again(self, line: Line, fresh: Open) -> bool:
        """A title set apart wraps onto one more line set alike (``Section 20 -
        Winter Sports`` ⏎ ``(only operative if indicated in your`` ⏎ ``Policy
        Schedule)``): not a decimal section's, and not in lower case (its text)
        -- unless the title is set larger than the body, as no text is
        (``Chubb Assistance`` ⏎ ``and Security`` ⏎ ``Advice`` in 20-point type)."""
        return fresh.level.style != DECIMAL and self._set_alike_below(line, fresh) and (
            not line.text[:1].islower() or self.layout is not None and self.layout.larger(fresh.prominence))

    def continue_paragraph(self, rec: Line) -> None:
        wrapping, self._wrapping = self._wrapping, None
        if wrapping is not None and "\n" not in rec.text and self._wraps_again(rec, wrapping):
            self._fresh = wrapping
            self.continue_heading(rec)
            return
        ParagraphProfile.continue_paragraph(self, rec)

    def _after_label(self, rec: Line) -> None:
        """A line of an item's text after its label's: its title may go on."""
        self._fresh = None
        self.licensed = False
        if self._growing is not None:
            self._grow_title(rec)
        ParagraphProfile.continue_paragraph(self, rec)

    def _open_title_paragraph(self) -> None:
        """The decimal heading's text, as the first line of its section's body."""
        at = self._title_at
        assert at is not None
        self.open_paragraph(Line(at.first, at.page, self._title, at.first, HEADING))

    # -- paragraphs and the end ----------------------------------------------
    def open_paragraph(self, rec: Line) -> None:
        if self.waiting:
            self._take_waiting(rec)
            return
        self.licensed = self.after_contents = False
        self._fresh = self._growing = None
        ParagraphProfile.open_paragraph(self, rec)


    def _grow_title(self, rec: Line) -> None:
        """An item's title is its text up to the first clause end, however the
        lines wrap (``B. Except as allowed under Article`` ⏎ ``I.G, one …``)."""
        opened, self._growing = self._growing, None
        if not self._para or not self.stack or opened is not self.stack[-1]:
            return  # a blank line or a label came between
        if _starts_anew(opened.title, rec.text):
            return  # ``1. Flood endorsement`` ⏎ ``This endorsement removes …``: its title was whole
        max_words = self.max_words
        text = opened.title + " " + rec.text.split("\n", 1)[0]  # one line, however the lines came
        opened.title = short_title(text, max_words)
        self.packer.retitle(self._heading_path())
        if opened.title == " ".join(text.split()) and len(opened.title.split()) < max_words:
            self._growing = opened

    def _take_waiting(self, rec: Line) -> None:
        """The lines with text after labels alone are their text. One label takes
        the next line; several in a row share the lines out, each up to a line
        that ends a clause, the last the rest (``a.`` ``b.`` ``c.``, then their
        three items, as ``pdftotext`` prints a list's numbers as a column)."""
        lines = rec.text.split("\n")
        at = 0
        waiting, self.waiting = self.waiting, []  # each gets its text once: none takes another's label line
        while waiting and at < len(lines):
            opened, label, stack = waiting.pop(0)
            end = len(lines)
            if waiting:
                end = next((i + 1 for i in range(at, len(lines)) if ends_clause(lines[i])
                            and not lines[i].endswith(",")), len(lines))
            self.stack = stack
            self._deepest()
            self.end_paragraph()
            self._give_text(opened, label, rec._replace(first=rec.first + at, last=rec.first + end - 1,
                                                        text="\n".join(lines[at:end])))
            at = end
        self.waiting = waiting
        if at < len(lines):
            self.continue_paragraph(rec._replace(first=rec.first + at, text="\n".join(lines[at:])))

    def _give_text(self, opened: Open, label: Line, rec: Line) -> None:
        """A label alone gets its text: the first line decides what it is."""
        first, _, rest = rec.text.partition("\n")
        line = rec._replace(last=rec.first, text=first)
        if opened.level.style == DECIMAL:
            self._title_at, self._title = label, first
            if reads_as_sentence(first, self.max_words) or not first_letter(first).isupper():
                self.path[-1].read_as_clause(first, self.max_words)
                self.packer.retitle(self._heading_path())
                self._title_is_text = True
                self.continue_paragraph(line)
            else:
                self.path[-1].title = first
                self.packer.retitle(self._heading_path())
                self.licensed = True
                self._fresh = opened
                self.in_heading(first)
        else:
            layout = self.layout
            set_as = layout.prominence(line.first) if layout is not None else None
            self._take_label_text(opened, label, first, set_as is not None and set_as == opened.prominence
                                  and layout is not None and layout.larger(set_as))
            if opened.heading:
                self._title_lines.append(line)
                self._title_set = set_as
                self._wrapping = opened  # (the line after may go on with it: ``continue_paragraph``)
                self.in_heading(first)
            else:
                ParagraphProfile.continue_paragraph(self, line)
        if rest:
            self._after_label(rec._replace(first=rec.first + 1, text=rest))

    def take_run(self, run: Run) -> None:
        spans = run.spans
        while self.waiting and spans:  # labels alone still wait for their text
            span, spans = spans[0], spans[1:]
            self.end_paragraph()
            self._take_waiting(Line(span.first, run.page, span.text, span.last, TEXT, None, True))
        if spans:  # (the run itself where nothing waited: most runs, and no new one made)
            ParagraphProfile.take_run(self, run if spans is run.spans else Run(run.page, spans))

    def take_paragraph(self, text: str, words: int, lines: Tuple[int, int], pages: Tuple[int, int],
                       cut: bool) -> None:
        self._fresh = None
        self._empty = None
        self.packer.add(text, words, lines, pages, cut)

    def _may_stay_empty(self, opened: Open, rec: Line) -> None:
        """``opened``, a heading on ``rec``, has no text yet (see ``_keep_empty_heading``)."""
        if opened.level.style != UNNUMBERED:
            opened.last = rec.last
        self._empty, self._empty_words = (opened, rec.first, rec.page), []

    def in_heading(self, text: str, n: int = 1) -> None:
        ParagraphProfile.in_heading(self, text, n)
        if n > 0 and self._empty is not None and self.stack and self.stack[-1] is self._empty[0]:
            self._empty_words.append(text)

    def _keep_empty_heading(self, at_end: bool = False) -> None:
        """A heading that got no text and no level under it before the next
        that ends it would make no chunk, and its words would be in none: its
        lines become its text (``Fire and theft`` over a table's column, an
        event covered that is a title alone: ``5. Earthquake``). A numbered
        heading that ends the text makes none (SPEC's seed: ``3 Theft`` last)."""
        empty = self._empty
        if empty is None or self._para:
            return
        self._empty = None
        opened, line, page = empty
        if at_end and opened.level.style != UNNUMBERED:
            return
        text = " ".join(self._empty_words)
        if self.stack and self.stack[-1] is opened and text:
            self.in_heading(text, -1)
            self.packer.add(text, len(text.split()), (line, max(line, opened.last)), (page, page))

    def add_contents(self, rec: Line) -> None:
        self._settle_waiting()
        self.licensed = False
        self.after_contents = True
        ReadsContents.add_contents(self, rec)

    def finish(self) -> None:
        self._settle_waiting()
        self.end_paragraph()
        self._keep_empty_heading(at_end=True)
        self.packer.close()
        refused = self.counts.get("outline_labels_refused", 0)
        if refused >= OUT_OF_ORDER[0] and refused >= OUT_OF_ORDER[1] * self.counts.get("sections", 0):
            self.diagnose("labels_out_of_order", self._refused_at, refused=refused,
                          opened=self.counts.get("sections", 0))

    def report(self) -> Dict[str, Any]:
        return {"contents": self.contents_report(),
                "outline_labels_refused": self.counts.get("outline_labels_refused", 0),
                "headings_unnumbered": self.counts.get("headings_unnumbered", 0),
                "parts": self.parts.count}


def _starts_anew(title: str, line: str) -> bool:
    """``line`` starts a sentence of its own after an item's ``title``: the
    title ends on a word in lower case that leads on to nothing (``Flood
    endorsement``, not ``the cost of repairs to`` nor ``under Article``), and
    the line starts with a capital and a word in lower case (``This
    endorsement …``, ``A storm damages …``).

    >>> _starts_anew("Flood endorsement", "This endorsement removes flood cover."), _starts_anew("repairs to", "Your home.")
    (True, False)
    >>> _starts_anew("Except as allowed under Article", "I.G, one of"), _starts_anew("walls", "Floors and ceilings")
    (False, True)
    >>> _starts_anew("Repairing your home", "A storm damages your roof.")
    True
    """
    last = title.rsplit(None, 1)[-1] if title.strip() else ""
    if not last.isalpha() or not last.islower() or last in LEADING_ON:
        return False
    words = line.split(None, 2)
    if len(words) < 2:
        return False
    first = words[0]
    return first[:1].isupper() and (len(first) == 1 or first[1:].islower()) and words[1][:1].islower()


_OWN_WORD = re.compile(CODE_WORD)
ALIKE = 0.1
"""How far two sizes of one heading in capitals may differ, as a share of the larger."""


def _qualifies(top: Open, text: str, value: Optional[float]) -> bool:
    """A line wholly in brackets, set no larger than the heading above it, is
    that title's qualifier (``NUCLEAR ENERGY LIABILITY EXCLUSION ENDORSEMENT``
    in 20 points, ``(Broad Form)`` in 10 under it), not a heading of its own."""
    return (text.startswith("(") and text.endswith(")") and ")" not in text[:-1]
            and top.prominence is not None and value is not None and value <= top.prominence)


_REFERS = re.compile(r"\b(?:Section|SECTION|Clause|CLAUSE|Part|PART|Article|ARTICLE|Condition|Item|Paragraph"
                     r"|Exclusion|Endorsement|No\.)\s*$")
"""A line that stops on the word of a reference to one, with its capital
(``… set out in Section`` ⏎ ``3.``): the number on the next line is its.
Not ``the General Conditions`` nor ``refer to your schedule``, which name no
number."""


def styled_depth(stack: Sequence[Open], value: float) -> int:
    """Where an unnumbered heading set at ``value`` goes in ``stack`` (see ``open_styled``).

    >>> big, small = Open(Level(UNNUMBERED, (0, 0), "a"), "A", True, 15.0), Open(Level("digit", (1, 0), "1"), "", False)
    >>> styled_depth([big, small], 15.0), styled_depth([big, small], 11.0)
    (0, 2)
    >>> styled_depth([Open(Level("digit", (9, 0), "9"), "Claims", True), small], 11.0)
    0
    """
    for depth, opened in enumerate(stack):  # the outermost level it ends
        if opened.level.style == UNNUMBERED:
            if opened.prominence is None or opened.prominence <= value:
                return depth  # (one with none, a list's title read from the text, is the least of headings)
        elif opened.prominence is None and opened.heading and (value > TEXT_TITLE + CAPITALS
                                                                or not is_prefixed(opened.level.style)):
            return depth  # (``What is covered`` alone in text goes under ``Section 1 -``, as in bold it would)
        elif opened.prominence is not None and (opened.prominence < value or opened.prominence == value
                                                and opened.heading and not is_prefixed(opened.level.style)):
            return depth  # (a heading set alike is a sibling, numbered or not; SECTION I sits above, as ever)
    return len(stack)


def slug(title: str) -> str:
    """An unnumbered heading's part of an id: its first words, lower case, joined by hyphens.

    >>> slug("What is not covered"), slug("Who’s covered by your policy?")
    ('what-is-not-covered', 'whos-covered-by-your-policy')
    """
    words = re.findall(r"[^\W_]+", title.replace("\u2019", "").replace("'", "").lower())
    return "-".join(words[:SLUG_WORDS]) or "heading"


CONTINUES = -1
"""A styled line that goes on with the heading opened on the line before."""

SLUG_WORDS = 6
FRONT = "front"
"""The id of the text before the first heading."""


OUT_OF_ORDER = (20, 0.1)
"""So many outline labels refused as out of sequence, and at least this share
of the levels opened, say that the text's order is scrambled: ``pdftotext``'s
default mode prints a two-column page's blocks out of order (FEMA's Dwelling
form: 106 refused against 375 opened; in reading order, 1 against 493)."""

SIGNATURE = re.compile(
    r"\d{1,3}(?:\.\d{1,3})+\.?[ \t]+[A-Z]"  # 4.2 Escape of water
    r"|\d{1,3}\.?[ \t]+[A-Z]{2,}(?:[ \t,&-]+[A-Z]{2,})*[ \t]*$"  # 3 EXCLUSIONS
    r"|[IVX]{1,5}\.[ \t]+[A-Z]{2,}(?:[ \t,&-]+[A-Z]{2,})*[ \t]*$"  # I. AGREEMENT
    rf"|(?:SECTION|PART|ARTICLE|Section|Part|Article)[ \t]+[A-Z0-9]{{1,4}}[ \t]*[).:{DASHES}][ \t]*[A-Z]"  # SECTION A)
)
"""Headings of wordings: decimal numbers with a title, numbers and roman numerals
with a title in capitals, prefixed labels."""

MAX_TITLE_WORDS = 12
"""A numbered line with more words than this is a clause, not a title (SPEC §5)."""


def _check(options: Dict[str, Any]) -> None:
    words = options.get("max_title_words")
    if words is not None and (isinstance(words, bool) or not isinstance(words, int) or words <= 0):
        raise ConfigError(f"max_title_words must be a whole number above 0, got {words!r}")


register(ProfileSpec(
    name="policy",
    summary="numbered sections and outlines: 4.2 Escape of water, III.C.2.a (the default)",
    factory=PolicyProfile,
    default_cap=("estimate", 400),
    options=(Option("max_title_words", "a numbered line with more words than this is a clause, not a title",
                    MAX_TITLE_WORDS, int),),
    check=_check,
    signature=SIGNATURE,
))

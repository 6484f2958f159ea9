"""Phase reference cards: poker-card size (63 x 88 mm), one set per player.

A card is a *fold pair*: two card faces side by side, cut out together and
folded along the dashed line, so it has a front and a back without a duplex
printer. The front lists the phases (as large as they fit), the back explains
sets, runs, colour groups, Wild and Skip, the variant's own rules and the
points. A player's set is as few cards as the text allows at a legible size:
what the back cannot hold goes first into the room left under the phases,
then on to another face; a phase list too long for one face carries on to a
second. Pages are landscape, four pairs to a page, as many whole sets as fit,
with cut marks in the margins and a line saying how many cards a player needs
and how many players the page serves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass
from io import BytesIO
from itertools import zip_longest
from typing import NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from ..i18n import _, ngettext
from ..rules.house_rules import profile_title, progression_note, rules_line
from ..rules.options import Progression
from ..rules.ruleset import Rules
from . import text
from .labels import fit_label
from .layout import (
    FONT,
    FONT_BOLD,
    INK,
    LIGHT,
    MIN_FONT_SIZE,
    Fitted,
    LayoutError,
    TextRun,
    escape,
    measure,
    new_canvas,
    page_size,
    style,
)
from .press import MARK_GAP, MARK_LENGTH, cut_boxes
from .tagging import TableTags, artifact, tag

CARD_WIDTH = 63 * mm
CARD_HEIGHT = 88 * mm
PAIR_WIDTH = 2 * CARD_WIDTH
PAD = 3.5 * mm  # inside each face, so a slightly off cut takes no text
GRID_COLUMNS, GRID_ROWS = 2, 2  # fold pairs per page, across and down
PAIRS_PER_PAGE = GRID_COLUMNS * GRID_ROWS
PAGE_EDGE = 6 * mm  # nothing printed nearer the page's edge than this
CHECK_BAR = 50 * mm  # printed at true size, it measures 50 mm
NUMBER_SPACE = 1.5 * mm  # between a phase number and its words
PHASE_MAX_SIZE = 13
PHASE_MIN_SIZE = 9  # below this, carry on to another face instead
PHASE_GAP = 0.12  # least space between two phases, in lines; more when there is room
BACK_SIZE = 9  # the explanations, at the size of the rules text everywhere
LABEL_SIZE = 9  # "PHASE 10" at the top of a face: the least any text is printed
INNER_WIDTH = CARD_WIDTH - 2 * PAD
INNER_HEIGHT = CARD_HEIGHT - 2 * PAD
ORDER_BOX = 5.2 * mm  # a box to write a phase number in (Mixed-up Masters)
NUMBERS = 11  # pt: the row of numbers under the boxes, at 9 pt
SECTION_GAP = 0.75  # lines between the sections of the explanations


class Block(NamedTuple):
    """A paragraph of a face, or a gap; ``kind``: what it is to a reader ("" when the
    paragraph tags itself, as a table does)."""

    offset: float  # the paragraph's x offset, or the gap's height
    paragraph: Fitted | None
    number: str = ""  # a phase's number, in the gutter
    kind: str = "P"


@dataclass(frozen=True)
class Face:
    """What goes on one 63 x 88 mm face: drawn by ``draw(canvas, x, y)``."""

    blocks: tuple[Block, ...]

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        """The blocks from the top; the phases one after another as a list."""
        top = y + CARD_HEIGHT - PAD
        with ExitStack() as phases:
            listed = False
            for offset, paragraph, number, kind in self.blocks:
                if paragraph is None:  # a gap
                    top -= offset
                    continue
                if number and not listed:
                    phases.enter_context(tag(canvas, "L"))
                elif not number and listed:
                    phases.close()
                listed = bool(number)
                if not number:
                    with tag(canvas, kind) if kind else nullcontext():
                        top = paragraph.draw(canvas, x + PAD + offset, top)
                    continue
                with tag(canvas, "LI"):
                    with tag(canvas, "Lbl"):  # its gutter was made as wide as the widest number
                        canvas.setFont(FONT_BOLD, paragraph.size)
                        canvas.setFillColor(INK)
                        canvas.drawRightString(
                            x + PAD + offset - NUMBER_SPACE, top - paragraph.size, number
                        )
                    with tag(canvas, "LBody"):
                        top = paragraph.draw(canvas, x + PAD + offset, top)


class OrderRow(Flowable):
    """Boxes to write one's own order of the phases in, numbered underneath (Mixed-up)."""

    def __init__(self, count: int, width: float):
        super().__init__()
        self.count = count
        self.box = min(ORDER_BOX, width / count)
        self.width = self.box * count
        self.height = self.box + NUMBERS

    def draw(self) -> None:
        canvas = self.canv
        with artifact(canvas, "Layout"):  # boxes to write in: the numbers under them are read
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(0.6)
            for index in range(self.count):
                canvas.rect(index * self.box, NUMBERS, self.box, self.box, stroke=1, fill=0)
        run = TextRun(canvas)
        for index in range(self.count):
            put = (index + 0.5) * self.box, 2.5, str(index + 1), FONT, MIN_FONT_SIZE, "centre"
            run.put(*put)
        run.close()


def _gap(height: float) -> Block:
    return Block(height, None)


def _height(blocks: Sequence[Block]) -> float:
    return sum(block.paragraph.height if block.paragraph else block.offset for block in blocks)


def _label_block(words: str, size: float, *, bold: bool = True, kind: str = "P") -> Block:
    """A one-line heading or label, fitted to the face's width."""
    fitted = fit_label(words, FONT_BOLD if bold else FONT, INNER_WIDTH, size=size, lines=2)
    markup = "<br/>".join(escape(line) for line in fitted.lines)
    return Block(0.0, measure(markup, style(fitted.size, bold=bold), INNER_WIDTH), kind=kind)


class ReferenceCards:
    """A page (or more) of phase reference cards; ``build()`` returns the PDF."""

    def __init__(self, rules: Rules, *, pagesize: str = "letter", copies: int | None = None):
        if copies is not None and not 1 <= copies <= 24:
            raise ValueError(_("print 1 to 24 copies of the reference cards"))
        self.rules = rules
        self.width, self.height = page_size(pagesize, turned=True)
        self.faces = self._faces()
        self.pairs_each = len(self.faces) // 2
        self.sets_per_page = max(1, PAIRS_PER_PAGE // self.pairs_each)
        self.copies = copies or self.sets_per_page

    # --- what is on the faces ---------------------------------------------------------

    def _faces(self) -> list[Face]:
        """The fewest cards a player needs; then the phase list on the fewest faces, as
        large as that allows."""
        sections = self._sections()
        rows = text.phase_rows(self.rules)
        for count in range(1, len(rows) + 1):
            best: tuple[int, list[list[Block]]] | None = None
            size: float = PHASE_MAX_SIZE
            while size >= PHASE_MIN_SIZE:
                fronts = self._fronts(rows, count, size)
                if fronts is not None:
                    faces = _flow(fronts, sections)
                    cards = math.ceil(len(faces) / 2)
                    if best is None or cards < best[0]:  # the first is the largest
                        best = (cards, faces)
                size -= 0.25
            if best is not None:  # more faces for the phases would never need fewer cards
                faces = best[1]
                if len(faces) % 2:
                    faces.append(self._notes())
                return [Face(tuple(_spread(blocks))) for blocks in faces]
        raise LayoutError(_("a phase is too long for a card"))

    def _heading(self, label: str, title: str, subtitle: str) -> list[Block]:
        blocks: list[Block] = [
            _label_block(label, LABEL_SIZE),
            _label_block(title, 12, kind="H1"),
        ]
        if subtitle:
            blocks += [_gap(0.5 * mm), Block(0.0, measure(escape(subtitle), style(9), INNER_WIDTH))]
        blocks.append(_gap(2 * mm))
        return blocks

    def _fronts(
        self, rows: list[tuple[int, str]], count: int, size: float
    ) -> list[list[Block]] | None:
        """The phase list on ``count`` faces at ``size``, or None when it does not fit."""
        share = math.ceil(len(rows) / count)
        chunks = [rows[i : i + share] for i in range(0, len(rows), share)]
        title = text.phase_list_title(self.rules)
        faces = []
        for index, chunk in enumerate(chunks):
            if index == 0:
                heading = self._heading("PHASE 10", title, progression_note(self.rules, brief=True))
            else:
                label = _("Phases %(first)s to %(last)s", first=chunk[0][0], last=chunk[-1][0])
                heading = self._heading(label.upper(), title, "")
            blocks = self._phase_blocks(chunk, size)
            if blocks is None or _height(heading + blocks) > INNER_HEIGHT:
                return None
            faces.append([*heading, *blocks])
        return faces

    def _phase_blocks(self, rows: list[tuple[int, str]], size: float) -> list[Block] | None:
        blocks: list[Block] = []
        widest = text.numbered(max(self.rules.sequence))
        gutter = stringWidth(widest, FONT_BOLD, size) + NUMBER_SPACE
        width = INNER_WIDTH - gutter
        for index, (number, words) in enumerate(rows):
            paragraph = measure(escape(words), style(size), width)
            if paragraph.paragraph.minWidth() > width:
                return None
            if index:
                blocks.append(_gap(size * PHASE_GAP))
            blocks.append(Block(gutter, paragraph, text.numbered(number)))
        return blocks

    def _sections(self) -> list[list[list[Block]]]:
        """The explanations, section by section (a heading and its notes), each in pieces
        (the heading with the first note, then each further note) in case one section is
        taller than a face."""
        size = BACK_SIZE
        sections: list[list[list[Block]]] = []
        if self.rules.progression is Progression.MIXED_UP:
            row = OrderRow(len(self.rules.sequence), INNER_WIDTH)
            title = _heading_block(_("My order of the phases"), size)
            sections.append([[title, Block(0.0, _fitted(row, size))]])
        for heading, notes in [
            (_("Groups"), text.group_notes(self.rules)),
            (_("Wild and Skip"), text.wild_skip_notes(self.rules)),
            text.variant_notes(self.rules),
        ]:
            if not notes:
                continue
            pieces: list[list[Block]] = []
            for index, (name, words) in enumerate(notes):
                markup = f"<b>{escape(name)}:</b> {escape(words)}"
                note = Block(0.0, measure(markup, style(size), INNER_WIDTH))
                if index:
                    pieces.append([_gap(size * 0.25), note])
                else:
                    pieces.append([_heading_block(heading, size), note])
            sections.append(pieces)
        table = points_table(self.rules, size, INNER_WIDTH)
        points = Block(0.0, table, kind="")  # a table: it tags its rows and cells
        sections.append([[_heading_block(_("Points left in hand"), size), points]])
        return sections

    def _notes(self) -> list[Block]:
        return [_label_block(_("NOTES"), LABEL_SIZE)]

    # --- the page --------------------------------------------------------------------

    def build(self) -> bytes:
        buffer = BytesIO()
        title = _("Phase 10 reference cards - %(rules)s", rules=profile_title(self.rules))
        canvas = new_canvas(buffer, (self.width, self.height), title, rules_line(self.rules))
        canvas.setViewerPreference("PrintScaling", "None")  # ask viewers not to "fit to page"
        pairs = [(self.faces[2 * i], self.faces[2 * i + 1]) for i in range(self.pairs_each)]
        sets = list(range(self.copies))
        per_page = self.sets_per_page
        for start in range(0, len(sets), per_page):
            on_page = sets[start : start + per_page]
            page_pairs = pairs * len(on_page)
            for first in range(0, len(page_pairs), PAIRS_PER_PAGE):  # a set of more than 4
                self._page(canvas, page_pairs[first : first + PAIRS_PER_PAGE], len(on_page))
                canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _page(self, canvas: Canvas, pairs: list[tuple[Face, Face]], players: int) -> None:
        grid_width = GRID_COLUMNS * PAIR_WIDTH
        grid_height = GRID_ROWS * CARD_HEIGHT
        left = (self.width - grid_width) / 2
        bottom = (self.height - grid_height) / 2
        for index, (front, back) in enumerate(pairs):
            row, column = divmod(index, GRID_COLUMNS)
            x = left + column * PAIR_WIDTH
            y = bottom + grid_height - (row + 1) * CARD_HEIGHT
            self._fold(canvas, x, y)
            with tag(canvas, "Div"):  # a card: its front, then its back
                front.draw(canvas, x, y)
                back.draw(canvas, x + CARD_WIDTH, y)
        used_rows = math.ceil(len(pairs) / GRID_COLUMNS)
        used_columns = min(len(pairs), GRID_COLUMNS)
        self._marks(canvas, left, bottom + grid_height, used_columns, used_rows)
        # the cards a print shop cuts out, and 3 mm of bleed around them
        trim = (
            left,
            bottom + grid_height - used_rows * CARD_HEIGHT,
            left + used_columns * PAIR_WIDTH,
            bottom + grid_height,
        )
        cut_boxes(canvas, trim)
        self._instructions(canvas, trim, players)

    def _fold(self, canvas: Canvas, x: float, y: float) -> None:
        """The dashed fold between front and back. Nothing is drawn on the cut: a line there
        would leave a sliver of itself on the edge of a card cut a hair off."""
        with artifact(canvas, "Layout"):
            canvas.saveState()
            canvas.setStrokeColor(LIGHT)
            canvas.setLineWidth(0.3)
            canvas.setDash(3, 2)
            canvas.line(x + CARD_WIDTH, y, x + CARD_WIDTH, y + CARD_HEIGHT)
            canvas.restoreState()

    def _marks(self, canvas: Canvas, left: float, top: float, columns: int, rows: int) -> None:
        """Crop marks (solid) and fold marks (dashed) in the margins around the grid, outside
        the bleed. Below the grid only its corners are marked (each cut between two cards is
        marked above it), so that the instructions fit under it on A4."""
        with artifact(canvas, "Layout"):
            canvas.saveState()
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(0.5)
            cut_lines(canvas, left, top, columns, rows, PAIR_WIDTH, CARD_HEIGHT, inner_below=False)
            canvas.setDash(2, 1.5)
            for column in range(columns):
                x = left + column * PAIR_WIDTH + CARD_WIDTH
                canvas.line(x, top + MARK_GAP, x, top + MARK_GAP + MARK_LENGTH)
            canvas.restoreState()
        self._check_bar(canvas, left, top + MARK_GAP + MARK_LENGTH + 1.5 * mm)

    def _instructions(
        self, canvas: Canvas, trim: tuple[float, float, float, float], players: int
    ) -> None:
        """How to make the cards, how many a player needs, and how many players this page serves."""
        cards = self.pairs_each
        words = " ".join(
            (
                _(
                    "Cut on the solid marks, fold on the dashed line (the fold marks), glue the "
                    "halves back to back."
                ),
                ngettext(
                    "Each player needs %(num)s card.", "Each player needs %(num)s cards.", cards
                ),
                ngettext(
                    "This page has cards for %(num)s player.",
                    "This page has cards for %(num)s players.",
                    players,
                ),
            )
        )
        left, bottom, right, _top = trim
        top = bottom - MARK_GAP  # outside the bleed, between the corners' crop marks
        room = top - PAGE_EDGE
        width = right - left - 2 * mm
        label = fit_label(words, FONT, width, size=9, lines=2, height=room)
        with tag(canvas, "P"):
            run = TextRun(canvas)
            label.draw(run, (left + right) / 2, top, "centre")
            run.close()

    def _check_bar(self, canvas: Canvas, left: float, y: float) -> None:
        """A 50 mm bar and "print at 100 %": the cards are poker size only at true size."""
        with artifact(canvas, "Layout"):
            canvas.saveState()
            canvas.setFillColor(INK)
            canvas.rect(left, y, CHECK_BAR, 1.2 * mm, stroke=0, fill=1)
            canvas.restoreState()
        caption = fit_label(
            _("Print at 100 % (actual size, not \u201cfit to page\u201d): this bar is 50 mm long."),
            FONT,
            self.width - left - PAGE_EDGE - CHECK_BAR - 3 * mm,
            size=9,
        )
        with tag(canvas, "P"):
            run = TextRun(canvas)
            caption.at(run, left + CHECK_BAR + 3 * mm, y)
            run.close()


def _fitted(flowable: Flowable, size: float) -> Fitted:
    return Fitted(flowable, flowable.width, flowable.height, size)


def _heading_block(words: str, size: float) -> Block:
    return Block(
        0.0,
        measure(
            escape(words.upper()), style(max(size * 0.85, MIN_FONT_SIZE), bold=True), INNER_WIDTH
        ),
        kind="H2",
    )


def _flow(fronts: list[list[Block]], sections: list[list[list[Block]]]) -> list[list[Block]]:
    """The faces: the phase faces, then each section where it first fits (the room under
    the phases first), else on a face of its own; a section taller than a face goes on
    piece by piece."""
    faces = [list(face) for face in fronts]
    first = len(faces) - 1  # the last phase face: its free room comes first
    gap = [_gap(BACK_SIZE * SECTION_GAP)]
    for pieces in sections:
        section = [block for piece in pieces for block in piece]
        if _height(section) <= INNER_HEIGHT:
            for face in faces[first:]:
                if _height(face + gap + section) <= INNER_HEIGHT:
                    face += gap + section
                    break
            else:
                faces.append(list(section))
            continue
        for piece in pieces:
            if _height(piece) > INNER_HEIGHT:
                raise LayoutError(_("a note is too long for the back of a card"))
            if _height(faces[-1] + piece) <= INNER_HEIGHT:
                faces[-1] += piece
            else:
                top = piece[1:] if piece[0].paragraph is None else list(piece)  # no gap on top
                faces.append(top)
    return faces


def _spread(blocks: list[Block]) -> list[Block]:
    """Share out spare height between the phases (up to most of a line each)."""
    gaps = [
        i
        for i, block in enumerate(blocks)
        if block.paragraph is None and i + 1 < len(blocks) and blocks[i + 1].number
    ]
    if not gaps:
        return blocks
    size = blocks[gaps[0] + 1].paragraph.size  # type: ignore[union-attr]
    extra = min((INNER_HEIGHT - _height(blocks)) / len(gaps), size * 0.8)
    return [
        block._replace(offset=block.offset + extra) if index in gaps else block
        for index, block in enumerate(blocks)
    ]


def points_table(rules: Rules, size: float, width: float) -> Fitted:
    """Card points in two columns of (cards, points), going out included, with room
    between the first column's points and the second column's cards."""
    rows = [*text.card_points(rules), (_("Going out"), 0)]
    half = math.ceil(len(rows) / 2)
    widths = [width * share for share in (0.34, 0.12, 0.08, 0.34, 0.12)]

    def cards(words: str) -> Paragraph | str:
        if not words:
            return ""
        label = fit_label(words, FONT, widths[0], size=size, lines=2)
        return Paragraph("<br/>".join(escape(line) for line in label.lines), style(label.size))

    data = [
        [cards(left[0]), str(left[1]), "", cards(right[0]), str(right[1])]
        for left, right in zip_longest(rows[:half], rows[half:], fillvalue=("", ""))
    ]
    table = Table(data, colWidths=widths, renderCB=TableTags(header_rows=0, header_columns={0, 3}))
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, size),
                ("FONT", (1, 0), (1, -1), FONT_BOLD, size),
                ("FONT", (4, 0), (4, -1), FONT_BOLD, size),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("ALIGN", (4, 0), (4, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("LINEBELOW", (0, 0), (1, -2), 0.3, LIGHT),
                ("LINEBELOW", (3, 0), (4, -2), 0.3, LIGHT),
            ]
        )
    )
    height = table.wrap(width, 1000)[1]
    return Fitted(table, width, height, size)


def reference_cards(rules: Rules, *, pagesize: str = "letter", copies: int | None = None) -> bytes:
    """Phase reference cards as PDF bytes: by default one page, as many sets as fit."""
    return ReferenceCards(rules, pagesize=pagesize, copies=copies).build()


def cut_lines(
    canvas: Canvas,
    left: float,
    top: float,
    columns: int,
    rows: int,
    width: float,
    height: float,
    *,
    inner_below: bool = True,
) -> None:
    """Crop marks: short lines in the margin, in line with every edge of a grid of cards
    ``width`` by ``height`` whose top left corner is (left, top), to cut along (in the
    canvas's own stroke); they start outside the bleed (``press.MARK_GAP``). Without
    ``inner_below``, only the grid's corners are marked below it."""
    right, bottom = left + columns * width, top - rows * height
    for column in range(columns + 1):
        x = left + column * width
        canvas.line(x, top + MARK_GAP, x, top + MARK_GAP + MARK_LENGTH)
        if inner_below or column in (0, columns):
            canvas.line(x, bottom - MARK_GAP, x, bottom - MARK_GAP - MARK_LENGTH)
    for row in range(rows + 1):
        y = top - row * height
        canvas.line(left - MARK_GAP, y, left - MARK_GAP - MARK_LENGTH, y)
        canvas.line(right + MARK_GAP, y, right + MARK_GAP + MARK_LENGTH, y)

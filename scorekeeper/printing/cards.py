"""Phase reference cards: poker-card size (63 x 88 mm), one set per player.

A card is a *fold pair*: two card faces side by side, cut out together and
folded along the dashed line, so it has a front and a back without a duplex
printer. The front lists the phases (as large as they fit), the back explains
sets, runs, colour groups, Wild and Skip, and the points. A phase list too long
for one face (a custom list of 30) carries on to a second pair rather than
shrinking below a legible size. Pages are landscape, four pairs to a page,
with cut marks in the margins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from io import BytesIO
from itertools import zip_longest

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Table, TableStyle

from ..i18n import _
from ..rules.house_rules import profile_title, progression_note, rules_line
from ..rules.phases import Rules
from . import text
from .layout import (
    FONT,
    FONT_BOLD,
    INK,
    LIGHT,
    Fitted,
    LayoutError,
    escape,
    fit,
    measure,
    new_canvas,
    page_size,
    style,
)

CARD_WIDTH = 63 * mm
CARD_HEIGHT = 88 * mm
PAIR_WIDTH = 2 * CARD_WIDTH
PAD = 3.5 * mm  # inside each face, so a slightly off cut takes no text
GRID_COLUMNS, GRID_ROWS = 2, 2  # fold pairs per page, across and down
PAIRS_PER_PAGE = GRID_COLUMNS * GRID_ROWS
MARK_GAP = 1 * mm  # cut marks start this far from the card edge...
MARK_LENGTH = 3.5 * mm  # ...and are this long, so the margins keep 6 mm clear on A4
CHECK_BAR = 50 * mm  # printed at true size, it measures 50 mm
NUMBER_SPACE = 1.5 * mm  # between a phase number and its words
PHASE_MAX_SIZE = 13
PHASE_MIN_SIZE = 9  # below this, carry on to another face instead
PHASE_GAP = 0.12  # least space between two phases, in lines; more when there is room
BACK_MAX_SIZE = 9
BACK_MIN_SIZE = 9  # below this, the explanations carry on to another face
INNER_WIDTH = CARD_WIDTH - 2 * PAD
INNER_HEIGHT = CARD_HEIGHT - 2 * PAD


@dataclass(frozen=True)
class Face:
    """What goes on one 63 x 88 mm face: drawn by ``draw(canvas, x, y)``."""

    blocks: tuple[tuple[float, Fitted | None, str], ...]  # (x offset, paragraph, number)

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        top = y + CARD_HEIGHT - PAD
        for offset, paragraph, number in self.blocks:
            if paragraph is None:  # a gap
                top -= offset
                continue
            if number:
                canvas.setFont(FONT_BOLD, paragraph.size)
                canvas.setFillColor(INK)
                canvas.drawRightString(
                    x + PAD + offset - NUMBER_SPACE, top - paragraph.size, number
                )
            top = paragraph.draw(canvas, x + PAD + offset, top)


def _gap(height: float) -> tuple[float, None, str]:
    return (height, None, "")


class ReferenceCards:
    """A page (or more) of phase reference cards; ``build()`` returns the PDF."""

    def __init__(self, rules: Rules, *, pagesize: str = "letter", copies: int | None = None):
        if copies is not None and not 1 <= copies <= 24:
            raise ValueError(_("print 1 to 24 copies of the reference cards"))
        self.rules = rules
        self.width, self.height = page_size(pagesize, turned=True)
        self.faces = self._faces()
        pairs_each = math.ceil(len(self.faces) / 2)
        self.copies = copies or max(1, PAIRS_PER_PAGE // pairs_each)
        self.pairs_each = pairs_each

    # --- what is on the faces ---------------------------------------------------------

    def _faces(self) -> list[Face]:
        faces = self._phase_faces() + self._back_faces()
        if len(faces) % 2:
            faces.append(self._notes())
        return faces

    def _heading(self, title: str, subtitle: str, *, label: str = "PHASE 10") -> tuple[list, float]:
        blocks: list[tuple[float, Fitted | None, str]] = [
            (0.0, fit(escape(label), INNER_WIDTH, 12, size=7, bold=True), ""),
            (0.0, fit(escape(title), INNER_WIDTH, 30, size=12, min_size=9, bold=True), ""),
        ]
        if subtitle:
            blocks += [
                _gap(0.5 * mm),
                (0.0, fit(escape(subtitle), INNER_WIDTH, 40, size=9, min_size=9), ""),
            ]
        blocks.append(_gap(2 * mm))
        height = sum(b[1].height if b[1] else b[0] for b in blocks)
        return blocks, height

    def _phase_faces(self) -> list[Face]:
        """The phase list on as few faces as keep it legible, shared out evenly."""
        rows = text.phase_rows(self.rules)
        title = text.phase_list_title(self.rules)
        note = progression_note(self.rules, brief=True)
        for count in range(1, len(rows) + 1):
            share = math.ceil(len(rows) / count)
            chunks = [rows[i : i + share] for i in range(0, len(rows), share)]
            headings = [
                self._heading(title, note)
                if index == 0
                else self._heading(title, "", label=_("PHASE 10, CONTINUED"))
                for index in range(len(chunks))
            ]
            size: float = PHASE_MAX_SIZE
            while size >= PHASE_MIN_SIZE:
                faces = []
                for chunk, (heading, heading_height) in zip(chunks, headings, strict=True):
                    blocks = self._phase_blocks(chunk, size)
                    room = INNER_HEIGHT - heading_height
                    if blocks is None or _height(blocks) > room:
                        break
                    faces.append(Face(tuple(heading + _spread(blocks, room, size))))
                else:
                    return faces
                size -= 0.25
        raise LayoutError(_("a phase is too long for a card"))

    def _phase_blocks(self, rows: list[tuple[int, str]], size: float) -> list | None:
        blocks: list = []
        widest = str(max(self.rules.sequence))
        gutter = stringWidth(widest, FONT_BOLD, size) + NUMBER_SPACE
        width = INNER_WIDTH - gutter
        for index, (number, words) in enumerate(rows):
            paragraph = measure(escape(words), style(size), width)
            if paragraph.paragraph.minWidth() > width:
                return None
            if index:
                blocks.append(_gap(size * PHASE_GAP))
            blocks.append((gutter, paragraph, str(number)))
        return blocks

    def _back_items(self, size: float) -> list[list]:
        """The explanations as items that stay together (a note with its heading)."""
        sections = [
            (_("Groups"), text.group_notes(self.rules)),
            (_("Wild and Skip"), text.wild_skip_notes(self.rules)),
        ]
        items: list[list] = []
        for heading, notes in sections:
            for index, (name, words) in enumerate(notes):
                markup = f"<b>{escape(name)}:</b> {escape(words)}"
                item = [(0.0, measure(markup, style(size), INNER_WIDTH), "")]
                if index == 0:
                    item.insert(0, _heading_block(heading, size))
                gap = size * (0.75 if index == len(notes) - 1 else 0.25)
                items.append([*item, _gap(gap)])
        items.append(
            [
                _heading_block(_("Points left in hand"), size),
                (0.0, points_table(self.rules, size, INNER_WIDTH), ""),
            ]
        )
        return items

    def _back_faces(self) -> list[Face]:
        """One back at the largest size that fits, or several at a comfortable size."""
        size: float = BACK_MAX_SIZE
        while size >= BACK_MIN_SIZE:
            blocks = [block for item in self._back_items(size) for block in item]
            if _height(blocks) <= INNER_HEIGHT:
                return [Face(tuple(blocks))]
            size -= 0.25
        faces: list[list] = [[]]
        for item in self._back_items(BACK_MIN_SIZE):
            if _height(item) > INNER_HEIGHT:
                raise LayoutError(_("a note is too long for the back of a card"))
            if _height(faces[-1] + item) > INNER_HEIGHT:
                faces.append([])
            faces[-1] += item
        return [Face(tuple(blocks)) for blocks in faces]

    def _notes(self) -> Face:
        notes = escape(_("NOTES"))
        return Face(((0.0, fit(notes, INNER_WIDTH, 12, size=7, bold=True), ""),))

    # --- the page --------------------------------------------------------------------

    def build(self) -> bytes:
        buffer = BytesIO()
        title = _("Phase 10 reference cards - %(rules)s", rules=profile_title(self.rules))
        canvas = new_canvas(buffer, (self.width, self.height), title, rules_line(self.rules))
        canvas.setViewerPreference("PrintScaling", "None")  # ask viewers not to "fit to page"
        pairs = [
            (self.faces[2 * i], self.faces[2 * i + 1])
            for _copy in range(self.copies)
            for i in range(self.pairs_each)
        ]
        for start in range(0, len(pairs), PAIRS_PER_PAGE):
            self._page(canvas, pairs[start : start + PAIRS_PER_PAGE])
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _page(self, canvas: Canvas, pairs: list[tuple[Face, Face]]) -> None:
        grid_width = GRID_COLUMNS * PAIR_WIDTH
        grid_height = GRID_ROWS * CARD_HEIGHT
        left = (self.width - grid_width) / 2
        bottom = (self.height - grid_height) / 2
        for index, (front, back) in enumerate(pairs):
            row, column = divmod(index, GRID_COLUMNS)
            x = left + column * PAIR_WIDTH
            y = bottom + grid_height - (row + 1) * CARD_HEIGHT
            self._outline(canvas, x, y)
            front.draw(canvas, x, y)
            back.draw(canvas, x + CARD_WIDTH, y)
        used_rows = math.ceil(len(pairs) / GRID_COLUMNS)
        used_columns = min(len(pairs), GRID_COLUMNS)
        self._marks(canvas, left, bottom + grid_height, used_columns, used_rows)

    def _outline(self, canvas: Canvas, x: float, y: float) -> None:
        """A faint edge to cut along, and the dashed fold between front and back."""
        canvas.saveState()
        canvas.setStrokeColor(LIGHT)
        canvas.setLineWidth(0.3)
        canvas.rect(x, y, PAIR_WIDTH, CARD_HEIGHT, stroke=1, fill=0)
        canvas.setDash(3, 2)
        canvas.line(x + CARD_WIDTH, y, x + CARD_WIDTH, y + CARD_HEIGHT)
        canvas.restoreState()

    def _marks(self, canvas: Canvas, left: float, top: float, columns: int, rows: int) -> None:
        """Cut marks (solid) and fold marks (dashed) in the margins around the grid."""
        right = left + columns * PAIR_WIDTH
        bottom = top - rows * CARD_HEIGHT
        canvas.saveState()
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.5)
        for column in range(columns + 1):
            x = left + column * PAIR_WIDTH
            canvas.line(x, top + MARK_GAP, x, top + MARK_GAP + MARK_LENGTH)
            canvas.line(x, bottom - MARK_GAP, x, bottom - MARK_GAP - MARK_LENGTH)
        for row in range(rows + 1):
            y = top - row * CARD_HEIGHT
            canvas.line(left - MARK_GAP, y, left - MARK_GAP - MARK_LENGTH, y)
            canvas.line(right + MARK_GAP, y, right + MARK_GAP + MARK_LENGTH, y)
        canvas.setDash(2, 1.5)
        for column in range(columns):
            x = left + column * PAIR_WIDTH + CARD_WIDTH
            canvas.line(x, top + MARK_GAP, x, top + MARK_GAP + MARK_LENGTH)
            canvas.line(x, bottom - MARK_GAP, x, bottom - MARK_GAP - MARK_LENGTH)
        canvas.restoreState()
        canvas.setFont(FONT, 9)
        canvas.setFillColor(INK)
        below = bottom - MARK_GAP - MARK_LENGTH - 3.5 * mm
        canvas.drawCentredString(
            self.width / 2,
            below,
            _(
                "Cut on the solid marks, fold on the dashed line (the fold marks), glue the "
                "halves back to back: one card per player."
            ),
        )
        self._check_bar(canvas, left, top + MARK_GAP + MARK_LENGTH + 1.5 * mm)

    def _check_bar(self, canvas: Canvas, left: float, y: float) -> None:
        """A 50 mm bar and "print at 100 %": the cards are poker size only at true size."""
        canvas.saveState()
        canvas.setFillColor(INK)
        canvas.rect(left, y, CHECK_BAR, 1.2 * mm, stroke=0, fill=1)
        canvas.setFont(FONT, 9)
        canvas.drawString(
            left + CHECK_BAR + 3 * mm,
            y,
            _("Print at 100 % (actual size, not \u201cfit to page\u201d): this bar is 50 mm long."),
        )
        canvas.restoreState()


def _heading_block(words: str, size: float) -> tuple[float, Fitted, str]:
    return (0.0, measure(escape(words.upper()), style(size * 0.85, bold=True), INNER_WIDTH), "")


def _spread(blocks: list, room: float, size: float) -> list:
    """Share out spare height between the phases (up to most of a line each)."""
    gaps = [i for i, (_, paragraph, _) in enumerate(blocks) if paragraph is None]
    if not gaps:
        return blocks
    extra = min((room - _height(blocks)) / len(gaps), size * 0.8)
    return [
        (offset + extra, None, number) if paragraph is None else (offset, paragraph, number)
        for offset, paragraph, number in blocks
    ]


def points_table(rules: Rules, size: float, width: float) -> Fitted:
    """Card points in two columns of (cards, points), going out included."""
    rows = [*text.card_points(rules), (_("Going out"), 0)]
    half = math.ceil(len(rows) / 2)
    data = [
        [left[0], str(left[1]), right[0], str(right[1])]
        for left, right in zip_longest(rows[:half], rows[half:], fillvalue=("", ""))
    ]
    table = Table(data, colWidths=[width * 0.34, width * 0.14, width * 0.38, width * 0.14])
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, size),
                ("FONT", (1, 0), (1, -1), FONT_BOLD, size),
                ("FONT", (3, 0), (3, -1), FONT_BOLD, size),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("ALIGN", (3, 0), (3, -1), "RIGHT"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("LINEBELOW", (0, 0), (-1, -2), 0.3, LIGHT),
            ]
        )
    )
    height = table.wrap(width, 1000)[1]
    return Fitted(table, width, height, size)


def _height(blocks: list) -> float:
    return sum(paragraph.height if paragraph else offset for offset, paragraph, _ in blocks)


def reference_cards(rules: Rules, *, pagesize: str = "letter", copies: int | None = None) -> bytes:
    """Phase reference cards as PDF bytes: by default one page, as many sets as fit."""
    return ReferenceCards(rules, pagesize=pagesize, copies=copies).build()

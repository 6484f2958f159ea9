"""What a row of a score sheet's table says: its label, who dealt, and each player's
phase (ticked when made), points ("out" beside them for who went out) and running total
(the winner's boxed).

The ticks and the winner's box are lines a reader skips: they are kept as the cells are
written and drawn afterwards with the table's grid (``marks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..i18n import _
from ..rules.ruleset import Rules
from .labels import MIDDLE, Label, fit_label, line_width
from .layout import FONT, FONT_BOLD, INK, TextRun, plain
from .record import Cell, Row
from .sheet_page import CENTRED_PAD, PAD, SheetPage
from .tagging import spoken

TICK = 0.7  # a tick's width, in ems of the phase number beside it
MIN_TICK = 4.5  # pt: the smallest tick, beside a two-digit phase in a narrow column
TEN_HANDS_TICK = 0.6  # in ems of the points beside it
BOX = 0.8 * mm  # the winner's box, inside the total's cell
TICK_SAID = "\u2713"  # what a tick reads as (it is drawn as lines)


class Slot(NamedTuple):
    """One column of a player's cell in one row, in points: where its words go."""

    x: float
    top: float
    width: float
    height: float
    baseline: float  # of a number, in the middle of the row


@dataclass
class RowCells:
    """Writes a row's cells. ``dealer_by_seat``: the dealer column gives the dealer's seat
    (the number over each name), as some name does not fit it."""

    page: SheetPage
    rules: Rules
    players: Sequence[str]
    dealer_by_seat: bool
    ticks: list[tuple[float, float, float]] = field(default_factory=list)  # (x, baseline, size)
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)  # the winner's

    # --- the first two columns ----------------------------------------------------------

    def label(
        self, run: TextRun, row: Row, x: float, top: float, width: float, height: float
    ) -> None:
        """The hand's number (and, in a ten-hands game, its phase), or a word: "Carried",
        "Tie", "End"."""
        size = self.page.scale.number
        room = width - 2 * CENTRED_PAD
        if row.kind in ("carried", "result"):
            words = fit_label(
                self.page.word_or_short(row.label, FONT_BOLD, room),
                FONT_BOLD,
                room,
                size=max(self.page.floor, min(size, 9)),
            )
            words.draw_middle(run, x + width / 2, top, height, "centre")
            return
        if not self.page.ten_hands or not row.label.isdigit():  # a hand's number, or "Tie"
            words = fit_label(self.page.word_or_short(row.label, FONT, room), FONT, room, size=size)
            words.draw_middle(run, x + width / 2, top, height, "centre")
            return
        number_width = 8 * mm
        hand = fit_label(row.label, FONT_BOLD, number_width - 2 * PAD, size=12)
        hand.draw_middle(run, x + number_width - PAD, top, height, "right")
        number = self.rules.sequence[int(row.label) - 1]
        self._ten_hands_phase(run, number, x + number_width + PAD, top, width - 10 * mm, height)

    def _ten_hands_phase(
        self, run: TextRun, number: int, x: float, top: float, width: float, height: float
    ) -> None:
        """ "Phase 4" above its groups, or on one line with them when the row is short."""
        words = str(self.rules.phase(number))
        heading = fit_label(
            _("Phase %(number)s", number=number), FONT_BOLD, width, size=10, min_size=9
        )
        room = height - 2 * PAD - heading.height - 0.5 * mm
        groups = fit_label(words, FONT, width, size=10, min_size=9, lines=3, height=room)
        if not groups.cut and not heading.cut:
            block = heading.height + 0.5 * mm + groups.height
            y = top - (height - block) / 2
            heading.draw(run, x, y)
            groups.draw(run, x, y - heading.height - 0.5 * mm)
            return
        line = fit_label(
            _("Phase %(number)s: %(phase)s", number=number, phase=words),
            FONT,
            width,
            size=10,
            lines=2,
            height=height - 2 * PAD,
        )
        line.draw_middle(run, x, top, height)

    def dealer(
        self, run: TextRun, row: Row, x: float, top: float, width: float, height: float
    ) -> None:
        if row.dealer:
            dealer = fit_label(
                self._dealer_word(row.dealer),
                FONT,
                width - 2 * CENTRED_PAD,
                size=self.page.scale.label,
            )
            dealer.draw_middle(run, x + width / 2, top, height, "centre")

    def _dealer_word(self, dealer: str) -> str:
        """The dealer's name, or their seat when some name is too long for the column."""
        if not self.dealer_by_seat:
            return dealer
        return str(self.players.index(plain(dealer)) + 1)

    # --- a player's cell ----------------------------------------------------------------

    def cell(
        self, run: TextRun, cell: Cell, x: float, top: float, width: float, height: float
    ) -> None:
        """One player's phase (ticked when made), points (and "out") and total."""
        scale = self.page.scale
        widths = [share * width for share in self.page.shares]
        baseline = top - height / 2 - scale.number * MIDDLE
        if not self.page.ten_hands:
            phase_width = widths.pop(0)
            if cell.phase:
                self._phase(run, cell, Slot(x, top, phase_width, height, baseline))
            x += phase_width
        points_width, total_width = widths
        if cell.points.lstrip("-").isdigit():
            tick = scale.number * TEN_HANDS_TICK if self.page.ten_hands and cell.made else 0.0
            self._points(run, cell, Slot(x, top, points_width, height, baseline), tick)
        elif cell.points:  # "won", "tied", or "-" for a player who sat out a tiebreak
            font = FONT if cell.points == "-" else FONT_BOLD
            word = fit_label(
                self.page.word_or_short(cell.points, font, points_width - 2 * CENTRED_PAD),
                font,
                points_width - 2 * CENTRED_PAD,
                size=scale.label,
                lines=2,
                height=height,
            )
            word.draw_middle(run, x + points_width / 2, top, height, "centre")
        if cell.total:
            self._total(run, cell, Slot(x + points_width, top, total_width, height, baseline))

    def _phase(self, run: TextRun, cell: Cell, slot: Slot) -> None:
        """The phase tried (a number, ticked when made), or the phase reached (words)."""
        x, top, width, height, baseline = slot
        scale = self.page.scale
        if not cell.phase.isdigit():  # "all made", "on 7": up to two lines
            room = width - 2 * CENTRED_PAD
            if cell.reached and line_width(cell.phase, FONT, self.page.floor) > room:
                # a narrow column: the phase reached as a number, ticked when all are made
                cell = Cell(phase=str(cell.reached), made=cell.finished)
            else:
                words = fit_label(cell.phase, FONT, room, size=scale.label, lines=2, height=height)
                words.draw_middle(run, x + width / 2, top, height, "centre")
                return
        reserve = TICK + 1 / scale.number if cell.made else 0.0
        floor = self.page.floor  # a tick smaller before the number is under the floor
        room = width - 2 * PAD
        number = fit_label(
            cell.phase, FONT, room, size=scale.number, min_size=floor, reserve=reserve
        )
        if not cell.made:
            run.put(x + width / 2, baseline, cell.phase, FONT, number.size, "centre")
            return
        tick = number.size * TICK
        if number.cut:  # "20" and its tick at 9 pt are too wide: a smaller tick
            number = fit_label(cell.phase, FONT, room, size=floor, min_size=floor)
            tick = max(MIN_TICK, min(tick, room - number.width - 1))
        shift = (number.width + tick + 1) / 2
        with spoken(run, f"{cell.phase} {TICK_SAID}"):  # the tick is lines, drawn later
            run.put(x + width / 2 - shift, baseline, cell.phase, FONT, number.size)
        self.ticks.append((x + width / 2 + shift - tick, baseline, tick))

    def _points(self, run: TextRun, cell: Cell, slot: Slot, tick: float = 0.0) -> None:
        """The hand's points at the right, and "out" or "float" beside them or, when there is
        no room, above them; ``tick``: a ten-hands tick's size, at the left of the points."""
        x, top, width, height, baseline = slot
        scale = self.page.scale
        ticked = tick + PAD if tick else 0.0
        points = fit_label(cell.points, FONT, width - ticked - 2 * PAD, size=scale.number)
        if cell.note:
            beside = self._note_beside(cell, width - ticked, points.size)
            if beside is not None:  # on the points' line, the points smaller if need be
                note, points = beside
                note.at(run, x + ticked + PAD, baseline)
            else:  # a narrow column: the word in place of the 0 that going out scores
                room = width - ticked - 2 * PAD
                word = fit_label(
                    self.page.word_or_short(cell.note, FONT, room), FONT, room, size=scale.label
                )
                word.at(run, x + width - PAD, baseline, "right")
                return
        if not tick:
            run.put(x + width - PAD, baseline, cell.points, FONT, points.size, "right")
            return
        self.ticks.append((x + PAD, baseline, tick))
        with spoken(run, f"{TICK_SAID} {cell.points}"):
            run.put(x + width - PAD, baseline, cell.points, FONT, points.size, "right")

    def _note_beside(self, cell: Cell, width: float, size: float) -> tuple[Label, Label] | None:
        """ "out" and the points side by side, the points down to 9 pt; None if no room."""
        label_size = self.page.scale.label
        note_width = line_width(cell.note, FONT, label_size)
        while size >= self.page.floor - 1e-9:
            if note_width + line_width(cell.points, FONT, size) + 3 * PAD <= width:
                note = fit_label(cell.note, FONT, note_width + 0.01, size=label_size)
                return note, fit_label(cell.points, FONT, width, size=size)
            size = round(size - 0.25, 2)
        return None

    def _total(self, run: TextRun, cell: Cell, slot: Slot) -> None:
        """The running total; the winner's is bigger, and boxed with room to spare."""
        x, top, width, height, baseline = slot
        scale = self.page.scale
        if not cell.strong:
            total = fit_label(cell.total, FONT_BOLD, width - 2 * PAD, size=scale.number)
            run.put(x + width - PAD, baseline, cell.total, FONT_BOLD, total.size, "right")
            return
        inner = width - 2 * BOX - 2 * PAD
        total = fit_label(cell.total, FONT_BOLD, inner, size=scale.number + 1)
        run.put(x + width / 2, baseline, cell.total, FONT_BOLD, total.size, "centre")
        self.boxes.append((x + BOX, top - height + BOX, width - 2 * BOX, height - 2 * BOX))

    # --- what is drawn after the words --------------------------------------------------

    def marks(self, canvas: Canvas) -> None:
        """The ticks and the winner's box of the rows written since the last call."""
        _draw_ticks(canvas, self.ticks)
        self.ticks.clear()
        canvas.setLineWidth(1)
        canvas.setStrokeColor(INK)
        for x, y, width, height in self.boxes:  # the winner's total, boxed: not a colour alone
            canvas.rect(x, y, width, height, stroke=1, fill=0)
        self.boxes.clear()


def _draw_ticks(canvas: Canvas, ticks: Sequence[tuple[float, float, float]]) -> None:
    """Check marks drawn as lines ("made the phase"), so no font needs the glyph.

    (x, baseline, size) each; all the ticks of one size are one path.
    """
    if not ticks:
        return
    canvas.saveState()
    canvas.setStrokeColor(INK)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    for size in sorted({tick[2] for tick in ticks}):
        canvas.setLineWidth(max(0.9, size * 0.14))
        path = canvas.beginPath()
        for x, baseline, tick in ticks:
            if tick == size:
                path.moveTo(x, baseline + size * 0.45)
                path.lineTo(x + size * 0.35, baseline + size * 0.05)
                path.lineTo(x + size, baseline + size * 0.9)
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()

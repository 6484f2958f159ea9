"""The bottom margin of a score sheet's page: the points of the cards left in hand, the
phase list and a short legend, so nobody has to look them up mid-game.

Drawn first on each page (the table of hands is measured from its ``top``) and read
last; on later pages it is one form, marked as a repeat a reader skips.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..i18n import _
from ..rules.options import Progression
from ..rules.ruleset import Rules
from . import text
from .labels import ASCENT, fit_label
from .layout import FONT, FONT_BOLD, INK, Fitted, LayoutError, TextRun, escape, fit
from .sheet_page import CENTRED_PAD, MARGIN, SheetPage
from .tagging import Element, artifact, tag

POINTS_STRIP = 9 * mm
LEGEND_SIZE = 9
LEGEND_HEIGHT = 20 * mm  # the longest legend: 5 lines at 9 pt (7 at 14 pt in large print)
PHASE_ROWS_PER_COLUMN = 5
PHASE_SIZE = 9
MAX_PHASE_BLOCK = 36 * mm


@dataclass(frozen=True)
class PhaseBlock:
    """The phase list of a sheet's foot: its height, and where each phase goes (its words'
    left, their top above the block's foot, its number and its words), or a note instead."""

    height: float
    places: tuple[tuple[float, float, str, Fitted], ...] = ()
    note: Fitted | None = None


def legend(rules: Rules) -> str:
    """What the columns are for and how the game is won, under ``rules``."""
    if rules.progression is Progression.TEN_HANDS:
        return _(
            "Each row is one hand and its phase: everyone moves on one phase each hand, "
            "made or not; tick the points of a player who made it. Dealer: who dealt the "
            "hand. Write the points for the cards left in hand (going out scores 0) and "
            "the running total. After the last hand the lowest total wins; an exact tie "
            "is a tie."
        )
    finish = (
        _("once someone has made the last phase, the lowest total wins.")
        if rules.lowest_total_wins
        else _(
            "the game ends with the hand in which someone makes the last phase; "
            "if several do, the fewest points wins."
        )
    )
    tie = (
        _(
            "A tie on points is played off: the tied players play one more hand of their "
            "own last phase, and whoever goes out first wins."
        )
        if rules.tiebreak_own_phase
        else _(
            "A tie on points is played off: the tied players play one more hand of the "
            "last phase, and whoever goes out first wins."
        )
    )
    if rules.lowest_total_wins:
        tie = _("An exact tie on points is a tie.")
    # Translators: %(finish)s and %(tie)s are sentences of their own; "Carried" is the
    # label of the sheet's first row (the totals carried from the sheet before).
    return _(
        "Phase: the phase tried this hand, ticked when laid down. Points: the cards left "
        "in hand (going out scores 0). Total: the running total. Winning: %(finish)s "
        "%(tie)s A long game goes on to another sheet: copy the totals into its Carried row.",
        finish=finish,
        tie=tie,
    )


@dataclass
class SheetFoot:
    """The bottom margin of each page of a sheet played by ``rules``; ``legend_words``: what
    its columns are for and how the game is won (``legend``)."""

    page: SheetPage
    rules: Rules
    legend_words: str

    @cached_property
    def legend_box(self) -> Fitted:
        return fit(
            escape(self.legend_words),
            self.page.width - 2 * MARGIN,
            LEGEND_HEIGHT * self.page.grow**2,  # longer lines wrap more often in large print
            size=self.page.type_size(LEGEND_SIZE),
            min_size=self.page.floor,
        )

    @property
    def strip_bottom(self) -> float:
        """The y of the points strip's foot: above the legend and the phases."""
        y = MARGIN + self.legend_box.height + 2 * mm
        return y if self.page.ten_hands else y + self.phase_layout.height

    @property
    def top(self) -> float:
        return self.strip_bottom + POINTS_STRIP * self.page.grow

    def draw(self, canvas: Canvas, *, first: bool) -> Element | None:
        """The foot on the first page, as an element to read last; on later pages a form,
        as an artifact."""
        if not first:
            with artifact(canvas, "Pagination"):
                self.page.form(canvas, "footer", self._draw)
            return None
        with tag(canvas, "Div") as foot:
            self._draw(canvas)
        return foot

    def _draw(self, canvas: Canvas) -> None:
        left, width = MARGIN, self.page.width - 2 * MARGIN
        legend = self.legend_box
        self._points_strip(canvas, left, width, self.strip_bottom)
        if not self.page.ten_hands:
            self._phase_block(canvas, left, MARGIN + legend.height + 2 * mm)
        with tag(canvas, "P"):
            legend.draw(canvas, left, MARGIN + legend.height)

    def _points_strip(self, canvas: Canvas, left: float, width: float, y: float) -> None:
        """The points of each kind of card: a table under its caption, a column (row, to a
        reader) for each kind."""
        grow, floor, size = self.page.grow, self.page.floor, self.page.type_size
        rows = [*text.card_points(self.rules), (_("Going out"), 0)]
        label_width = 30 * mm * grow
        strip = POINTS_STRIP * grow
        cell = (width - label_width) / len(rows)
        heading = fit_label(
            _("Points for cards left in hand"),
            FONT_BOLD,
            label_width - 2 * mm,
            size=size(9),
            min_size=floor,
            lines=2,
            height=strip - 1 * mm,
        )
        with tag(canvas, "Table"):
            with artifact(canvas, "Layout"):
                canvas.setStrokeColor(INK)
                canvas.setLineWidth(0.8)
                canvas.rect(left, y, width, strip, stroke=1, fill=0)
                canvas.setLineWidth(0.5)
                for index in range(len(rows)):
                    x = left + label_width + index * cell
                    canvas.line(x, y, x, y + strip)
            run = TextRun(canvas)
            with tag(run, "Caption"):
                heading.draw_middle(run, left + 1.5 * mm, y + strip, strip)
            for index, (cards, points) in enumerate(rows):
                x = left + label_width + index * cell
                name = fit_label(cards, FONT, cell - 2 * CENTRED_PAD, size=size(9), min_size=floor)
                value = fit_label(
                    str(points), FONT_BOLD, cell - 2 * CENTRED_PAD, size=size(10), min_size=floor
                )
                with tag(run, "TR"):
                    with tag(run, "TH", scope="Row"):
                        name.draw(run, x + cell / 2, y + strip - 1.2 * mm, "centre")
                    with tag(run, "TD"):
                        value.draw(run, x + cell / 2, y + 1.5 * mm + ASCENT * value.size, "centre")
            run.close()

    @cached_property
    def phase_layout(self) -> PhaseBlock:
        """The phase list in columns above the legend, or a line saying where it is."""
        rows = text.phase_rows(self.rules)
        width = self.page.width - 2 * MARGIN
        columns = min(4, math.ceil(len(rows) / PHASE_ROWS_PER_COLUMN))
        per_column = math.ceil(len(rows) / columns)
        gutter = 5 * mm * self.page.grow
        size = self.page.type_size(PHASE_SIZE)
        # Give each column the width its longest phase wants, when they all fit.
        wants = [
            max(stringWidth(words, FONT, size) for _, words in rows[i : i + per_column])
            + gutter
            + 3 * mm
            for i in range(0, len(rows), per_column)
        ]
        if sum(wants) <= width:
            spare = (width - sum(wants)) / len(wants)
            widths = [want + spare for want in wants]
        else:
            widths = [width / len(wants)] * len(wants)
        lefts = [MARGIN + sum(widths[:i]) for i in range(len(widths))]
        try:
            cells = [
                fit(
                    escape(words),
                    widths[i // per_column] - gutter - 2 * mm,
                    3 * size * 1.2,
                    size=size,
                    min_size=size,
                )
                for i, (_, words) in enumerate(rows)
            ]
        except LayoutError:
            cells = []
        block = max(
            (
                sum(c.height for c in cells[i : i + per_column])
                for i in range(0, len(cells), per_column)
            ),
            default=0,
        )
        if not cells or block > MAX_PHASE_BLOCK * self.page.grow:
            note = fit(
                _("<b>Phases:</b> see the phase reference cards."),
                width,
                5 * mm * self.page.grow,
                size=size,
                min_size=size,
            )
            return PhaseBlock(note.height + 2 * mm, note=note)
        places: list[tuple[float, float, str, Fitted]] = []
        for index, ((number, _words), cell) in enumerate(zip(rows, cells, strict=True)):
            column, place = divmod(index, per_column)
            top = block if place == 0 else places[-1][1] - cells[index - 1].height
            places.append((lefts[column] + gutter, top, text.numbered(number), cell))
        return PhaseBlock(block + 1 * mm, tuple(places))

    def _phase_block(self, canvas: Canvas, left: float, y: float) -> None:
        """The phase list, from ``y`` up: a list of numbered phases."""
        layout = self.phase_layout
        if layout.note is not None:
            with tag(canvas, "P"):
                layout.note.draw(canvas, left, y + layout.note.height)
            return
        with tag(canvas, "L"):
            for x, top, number, cell in layout.places:
                with tag(canvas, "LI"):
                    with tag(canvas, "Lbl"):  # the gutter is as wide as the widest number
                        canvas.setFont(FONT_BOLD, cell.size)
                        canvas.setFillColor(INK)
                        canvas.drawRightString(x - 1 * mm, y + top - cell.size, number)
                    with tag(canvas, "LBody"):
                        cell.draw(canvas, x, y + top)

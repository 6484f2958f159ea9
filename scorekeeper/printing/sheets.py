"""Score sheets: blank, or for one game with its players, rules and a QR link.

One page, portrait. A row per hand; each player has three columns (the phase
reached, the hand's points, the running total). In a ten-hands game everyone
moves on each hand, so each row is labelled with its phase and a player needs
only points and total. The card points and the phase list sit in the bottom
margin so nobody has to look them up mid-game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from io import BytesIO

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..rules.phases import Progression, Rules
from . import text
from .layout import (
    FONT,
    FONT_BOLD,
    GREY,
    INK,
    LIGHT,
    SHADE,
    LayoutError,
    escape,
    fit,
    fit_user_text,
    new_canvas,
    page_size,
    plain,
    shorten,
)
from .qr import draw_qr

MIN_PLAYERS, MAX_PLAYERS = 2, 6

MARGIN = 12 * mm
GAP = 4 * mm
QR_SIZE = 25 * mm
TITLE_SIZE = 18
RULES_SIZE = 9
NAME_ROW = 12 * mm  # names, up to two lines
SUB_ROW = 5 * mm  # "Phase / Points / Total"
ROW = 6.5 * mm  # a hand: like narrow-ruled paper, room for a handwritten total
MAX_ROW = 21 * mm  # ten-hands rows are taller: there are only ten of them
MIN_ROW = 6 * mm
HAND_COLUMN = 11 * mm
TEN_HANDS_COLUMN = 50 * mm
MAX_PLAYER_COLUMN = 60 * mm  # with few players, wider columns, then centred
POINTS_STRIP = 9 * mm
PHASE_ROWS_PER_COLUMN = 5
PHASE_SIZE = 8
MAX_PHASE_BLOCK = 34 * mm
LEGEND_SIZE = 7.5


@dataclass
class ScoreSheet:
    """One score sheet; ``build()`` returns the PDF."""

    rules: Rules
    players: Sequence[str] = ()
    title: str = ""
    view_url: str | None = None
    pagesize: str = "letter"
    player_columns: int | None = None
    columns: int = field(init=False)

    def __post_init__(self) -> None:
        self.players = [plain(name) for name in self.players]
        if len(self.players) > MAX_PLAYERS:
            raise ValueError(f"a score sheet has room for at most {MAX_PLAYERS} players")
        wanted = self.player_columns or (
            max(MIN_PLAYERS, len(self.players)) if self.players else MAX_PLAYERS
        )
        if not MIN_PLAYERS <= wanted <= MAX_PLAYERS:
            raise ValueError(f"a score sheet has {MIN_PLAYERS} to {MAX_PLAYERS} player columns")
        if wanted < len(self.players):
            raise ValueError(f"{len(self.players)} players need {len(self.players)} columns")
        self.columns = wanted
        self.width, self.height = page_size(self.pagesize)
        self.ten_hands = self.rules.progression is Progression.TEN_HANDS

    # --- the page ----------------------------------------------------------------

    def build(self) -> bytes:
        buffer = BytesIO()
        canvas = new_canvas(
            buffer,
            (self.width, self.height),
            self.title or "Phase 10 score sheet",
            f"Score sheet - {text.rules_line(self.rules)}",
        )
        top = self._header(canvas)
        bottom = self._footer(canvas)
        self._table(canvas, top - GAP, bottom + GAP)
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _header(self, canvas: Canvas) -> float:
        """Title, rules and (for a game) the QR link; returns the y below it."""
        left, top = MARGIN, self.height - MARGIN
        right = self.width - MARGIN
        qr_bottom = top
        if self.view_url:
            draw_qr(canvas, self.view_url, right - QR_SIZE, top - QR_SIZE, QR_SIZE)
            right -= QR_SIZE + GAP
            qr_bottom = top - QR_SIZE
        width = right - left
        title = fit_user_text(
            self.title or "Phase 10 score sheet",
            width,
            TITLE_SIZE * 2.5,
            size=TITLE_SIZE,
            min_size=11,
            bold=True,
            max_lines=2,
        )
        y = title.draw(canvas, left, top)
        rules = fit_user_text(
            text.rules_line(self.rules), width, 24 * mm, size=RULES_SIZE, prefix="<b>Rules:</b> "
        )
        y = rules.draw(canvas, left, y - 1 * mm)
        if self.view_url:
            link = fit_user_text(
                self.view_url,
                width,
                10 * mm,
                size=8,
                prefix="<b>Live scores:</b> scan the code, or open ",
                split_words=True,
            )
            y = link.draw(canvas, left, y - 1 * mm)
        elif not self.players:
            y -= 6 * mm
            canvas.setFont(FONT, 9)
            canvas.setFillColor(INK)
            canvas.drawString(left, y, "Date")
            canvas.drawString(left + 70 * mm, y, "Where")
            canvas.setStrokeColor(GREY)
            canvas.setLineWidth(0.5)
            canvas.line(left + 9 * mm, y - 1, left + 62 * mm, y - 1)
            canvas.line(left + 81 * mm, y - 1, right, y - 1)
        return min(y, qr_bottom)

    # --- the table of hands -------------------------------------------------------

    def _table(self, canvas: Canvas, top: float, bottom: float) -> None:
        label_width = TEN_HANDS_COLUMN if self.ten_hands else HAND_COLUMN
        space = self.width - 2 * MARGIN - label_width
        player_width = min(MAX_PLAYER_COLUMN, space / self.columns)
        table_width = label_width + player_width * self.columns
        left = (self.width - table_width) / 2

        body_top = top - NAME_ROW - SUB_ROW
        rows, row_height = self._rows(body_top - bottom)
        body_bottom = body_top - rows * row_height

        for row in range(rows):  # shade every other hand so a row is easy to follow
            if row % 2:
                canvas.setFillColor(SHADE)
                y = body_top - (row + 1) * row_height
                canvas.rect(left, y, table_width, row_height, stroke=0, fill=1)

        canvas.setFillColor(INK)
        canvas.setFont(FONT_BOLD, 9)
        canvas.drawCentredString(
            left + label_width / 2,
            top - NAME_ROW - SUB_ROW + 1.5 * mm,
            "Hand and phase" if self.ten_hands else "Hand",
        )
        for index in range(self.columns):
            x = left + label_width + index * player_width
            name = self.players[index] if index < len(self.players) else ""
            self._name_cell(canvas, name, x, top, player_width)
            self._sub_headings(canvas, x, top - NAME_ROW, player_width)

        for row in range(rows):
            self._row_label(canvas, row, left, body_top - row * row_height, label_width, row_height)

        # Grid: light lines inside a player's columns, strong lines between players.
        canvas.setStrokeColor(LIGHT)
        canvas.setLineWidth(0.5)
        for row in range(1, rows):
            y = body_top - row * row_height
            canvas.line(left, y, left + table_width, y)
        for index in range(self.columns):
            x = left + label_width + index * player_width
            for share in self._shares()[:-1]:
                x += share * player_width
                canvas.line(x, top - NAME_ROW, x, body_bottom)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8)
        canvas.line(left, body_top, left + table_width, body_top)
        canvas.line(left + label_width, top - NAME_ROW, left + table_width, top - NAME_ROW)
        for index in range(self.columns + 1):
            x = left + label_width + index * player_width
            canvas.line(x, top, x, body_bottom)
        canvas.setLineWidth(1.2)
        canvas.rect(left, body_bottom, table_width, top - body_bottom, stroke=1, fill=0)

    def _rows(self, space: float) -> tuple[int, float]:
        """How many hand rows fit, and how tall each is."""
        if self.ten_hands:
            rows = len(self.rules.sequence)
            height = min(MAX_ROW, space / rows)
            if height < MIN_ROW:
                raise LayoutError(f"{rows} hands do not fit on one sheet")
            return rows, height
        return int(space // ROW), ROW

    def _shares(self) -> tuple[float, ...]:
        return (0.45, 0.55) if self.ten_hands else (0.26, 0.34, 0.40)

    def _headings(self) -> tuple[str, ...]:
        return ("Points", "Total") if self.ten_hands else ("Phase", "Points", "Total")

    def _name_cell(self, canvas: Canvas, name: str, x: float, top: float, width: float) -> None:
        inner = width - 2 * mm
        if not name:
            canvas.setFont(FONT, 6.5)
            canvas.setFillColor(GREY)
            canvas.drawString(x + 1 * mm, top - 3 * mm, "Name")
            canvas.setFillColor(INK)
            return
        cell = fit_user_text(
            name,
            inner,
            NAME_ROW - 2 * mm,
            size=11,
            min_size=7,
            bold=True,
            centred=True,
            max_lines=2,
        )
        # Centre the name vertically in its cell.
        cell.draw(canvas, x + 1 * mm, top - (NAME_ROW - cell.height) / 2)

    def _sub_headings(self, canvas: Canvas, x: float, top: float, width: float) -> None:
        canvas.setFont(FONT, 6.5)
        canvas.setFillColor(INK)
        for share, heading in zip(self._shares(), self._headings(), strict=True):
            cell = share * width
            canvas.drawCentredString(
                x + cell / 2, top - SUB_ROW + 1.6 * mm, shorten(heading, cell - 0.6 * mm, FONT, 6.5)
            )
            x += cell

    def _row_label(
        self, canvas: Canvas, row: int, x: float, top: float, width: float, height: float
    ) -> None:
        canvas.setFillColor(INK)
        if not self.ten_hands:
            canvas.setFont(FONT, 9)
            canvas.drawCentredString(x + width / 2, top - height / 2 - 3, str(row + 1))
            return
        number = self.rules.sequence[row]
        canvas.setFont(FONT_BOLD, 12)
        canvas.drawRightString(x + 7 * mm, top - height / 2 - 4, str(row + 1))
        words = str(self.rules.phase(number))
        try:  # "Phase 4" above its groups, or on one line when the row is short
            phase = fit(
                f"<b>Phase {number}</b><br/>{escape(words)}",
                width - 10 * mm,
                height - 1 * mm,
                size=10,
                min_size=8,
            )
        except LayoutError:
            phase = fit_user_text(
                words, width - 10 * mm, height - 1 * mm, size=10, prefix=f"<b>Phase {number}:</b> "
            )
        phase.draw(canvas, x + 9 * mm, top - (height - phase.height) / 2)

    # --- the bottom margin -------------------------------------------------------------

    def _footer(self, canvas: Canvas) -> float:
        """Card points, the phases and a short legend; returns the y above them."""
        left, right = MARGIN, self.width - MARGIN
        width = right - left
        legend = fit(escape(self._legend()), width, 14 * mm, size=LEGEND_SIZE)
        y = MARGIN + legend.height
        legend.draw(canvas, left, y)
        y += 2 * mm
        if not self.ten_hands:
            y = self._phase_block(canvas, left, width, y)
        self._points_strip(canvas, left, width, y)
        return y + POINTS_STRIP

    def _legend(self) -> str:
        if self.ten_hands:
            return (
                "Each row is one hand and its phase: everyone moves on one phase each hand, "
                "made or not. Write the points for the cards left in hand and the running "
                "total. After the last hand the lowest total wins; an exact tie is a tie."
            )
        finish = (
            "once someone has made the last phase, the lowest total wins."
            if self.rules.lowest_total_wins
            else "the game ends with the hand in which someone makes the last phase; "
            "if several do, the fewest points wins."
        )
        made = (
            "the phase made in this hand (blank if none)"
            if self.rules.progression in (Progression.MASTERS, Progression.MIXED_UP)
            else "the last phase made (blank until the first)"
        )
        return (
            f"Phase: {made}. Points: what the cards "
            f"left in hand score (going out scores 0). Total: the running total. Winning: "
            f"{finish} A longer game carries its totals on to a second sheet."
        )

    def _points_strip(self, canvas: Canvas, left: float, width: float, y: float) -> None:
        rows = [*text.card_points(self.rules), ("Going out", 0)]
        label = "Points for cards left in hand"
        label_width = 30 * mm
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8)
        canvas.rect(left, y, width, POINTS_STRIP, stroke=1, fill=0)
        heading = fit(escape(label), label_width - 2 * mm, POINTS_STRIP - 1 * mm, size=8, bold=True)
        heading.draw(canvas, left + 1.5 * mm, y + (POINTS_STRIP + heading.height) / 2)
        cell = (width - label_width) / len(rows)
        canvas.setLineWidth(0.5)
        for index, (cards, points) in enumerate(rows):
            x = left + label_width + index * cell
            canvas.line(x, y, x, y + POINTS_STRIP)
            canvas.setFont(FONT, 7.5)
            canvas.drawCentredString(
                x + cell / 2, y + POINTS_STRIP - 3.5 * mm, shorten(cards, cell - 1 * mm, FONT, 7.5)
            )
            canvas.setFont(FONT_BOLD, 10)
            canvas.drawCentredString(x + cell / 2, y + 1.5 * mm, str(points))

    def _phase_block(self, canvas: Canvas, left: float, width: float, y: float) -> float:
        """The phase list in columns above the legend; returns the y above it."""
        rows = text.phase_rows(self.rules)
        columns = min(4, math.ceil(len(rows) / PHASE_ROWS_PER_COLUMN))
        per_column = math.ceil(len(rows) / columns)
        gutter = 5 * mm
        # Give each column the width its longest phase wants, when they all fit.
        wants = [
            max(stringWidth(words, FONT, PHASE_SIZE) for _, words in rows[i : i + per_column])
            + gutter
            + 3 * mm
            for i in range(0, len(rows), per_column)
        ]
        if sum(wants) <= width:
            spare = (width - sum(wants)) / len(wants)
            widths = [want + spare for want in wants]
        else:
            widths = [width / len(wants)] * len(wants)
        lefts = [left + sum(widths[:i]) for i in range(len(widths))]
        try:
            cells = [
                fit(
                    escape(words),
                    widths[i // per_column] - gutter - 2 * mm,
                    3 * PHASE_SIZE * 1.2,
                    size=PHASE_SIZE,
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
        if not cells or block > MAX_PHASE_BLOCK:
            note = fit("<b>Phases:</b> see the phase reference cards.", width, 5 * mm, size=8)
            note.draw(canvas, left, y + note.height)
            return y + note.height + 2 * mm
        top = y + block
        cell_top = top
        for index, ((number, _), cell) in enumerate(zip(rows, cells, strict=True)):
            column, place = divmod(index, per_column)
            x = lefts[column]
            if place == 0:
                cell_top = top
            canvas.setFont(FONT_BOLD, cell.size)
            canvas.setFillColor(INK)
            canvas.drawRightString(x + gutter - 1 * mm, cell_top - cell.size, str(number))
            cell_top = cell.draw(canvas, x + gutter, cell_top)
        return top + 1 * mm


def score_sheet(
    rules: Rules,
    *,
    players: Sequence[str] = (),
    title: str = "",
    view_url: str | None = None,
    pagesize: str = "letter",
    player_columns: int | None = None,
) -> bytes:
    """A one-page score sheet as PDF bytes (blank when no players are given)."""
    return ScoreSheet(
        rules,
        players=players,
        title=title,
        view_url=view_url,
        pagesize=pagesize,
        player_columns=player_columns,
    ).build()

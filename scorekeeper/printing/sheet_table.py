"""A score sheet's table of hands: its columns, the headings and names over them, and the
grid; the rows' words are written by ``sheet_cells``.

A column for the hand (with its phase in a ten-hands game), one for who dealt, and for
each player three (phase, points, total; two in a ten-hands game) under their name.
Every heading fits its column: a name takes the lines it needs, whole, and the row of
names grows for it; a word too long for its column at the floor gives its short form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..i18n import pgettext
from ..rules.ruleset import Rules
from .labels import ASCENT, DESCENT, Label, fit_label, line_width
from .layout import FONT, FONT_BOLD, INK, LIGHT, SHADE, TextRun
from .record import Row
from .sheet_cells import RowCells
from .sheet_page import CENTRED_PAD, MARGIN, PAD, SheetPage
from .tagging import artifact, tag

NAME_ROW = 12 * mm  # names: taller when a long name needs more than two lines
NAME_LINES = 4
MOST_NAME_LINES = 12  # 40 letters in a narrow column at the floor (the name row grows)
SUB_ROW = 5 * mm  # (at least) "Phase / Points / Total"
TEN_HANDS_COLUMN = 50 * mm
MAX_PLAYER_COLUMN = 60 * mm  # with few players, wider columns, then centred
WIDER = 3 * mm  # how much wider the first column may grow for its words


@dataclass
class HandsTable:
    """The table of a sheet's page: ``columns`` players' columns, the first
    ``len(players)`` headed by their names."""

    page: SheetPage
    rules: Rules
    players: Sequence[str]
    columns: int

    @cached_property
    def cells(self) -> RowCells:
        return RowCells(self.page, self.rules, self.players, self.dealer_by_seat)

    # --- the columns --------------------------------------------------------------------

    def dealer_width(self) -> float:
        """The dealer column: wide enough for its heading's longest word, clear of the next."""
        scale = self.page.scale
        words = pgettext("score sheet", "Dealer").split()
        need = max(line_width(word, FONT_BOLD, scale.label) for word in words)
        return max(scale.dealer_column, need + 4 * PAD)

    def label_width(self) -> float:
        """The first column: wide enough for its heading's longest word and for "Tie",
        "Carried" and "End" at the sheet's smallest type (up to ``WIDER`` more; beyond that
        their short forms)."""
        if self.page.ten_hands:
            return TEN_HANDS_COLUMN
        scale, short = self.page.scale, self.page.word_or_short
        room = scale.hand_column + WIDER - 2 * CENTRED_PAD  # else a word's short form
        words = [
            short(pgettext("score sheet", "Tie"), FONT_BOLD, room),
            short(pgettext("score sheet", "Carried"), FONT_BOLD, room),
            short(pgettext("score sheet", "End"), FONT_BOLD, room),
            *pgettext("score sheet", "Hand").split(),
        ]
        need = max(line_width(word, FONT_BOLD, self.page.floor) for word in words)
        return max(scale.hand_column, need + 2 * CENTRED_PAD + 0.5)

    def player_width(self) -> float:
        """A player's columns together: the page shared between them, up to a limit."""
        space = self.page.width - 2 * MARGIN - self.label_width() - self.dealer_width()
        return min(MAX_PLAYER_COLUMN, space / self.columns)

    @property
    def sub_row(self) -> float:
        """The row of "Phase / Points / Total": its words and a little room."""
        return max(SUB_ROW, (ASCENT + DESCENT) * self.page.scale.label + 1.5 * mm)

    @cached_property
    def name_row(self) -> float:
        """The row of names: two lines, or as many as the longest name needs at 9 pt."""
        heights = [self.name_label(name).height for name in self.players if name]
        return max([NAME_ROW, *(height + 2 * mm for height in heights)])

    @cached_property
    def dealer_by_seat(self) -> bool:
        """True when some name does not fit the dealer column: the column then gives the
        dealer's seat, the number printed over each name."""
        width = self.dealer_width() - 2 * CENTRED_PAD
        size = self.page.scale.label
        return any(
            fit_label(name, FONT, width, size=size).size < size
            or line_width(name, FONT, size) > width
            for name in self.players
        )

    def name_label(self, name: str) -> Label:
        """A player's name, whole: wrapped (hyphenated only if it must be) down to 9 pt (14 in
        large print); a name that needs more than four lines even then gets them."""
        floor = self.page.floor
        seat = 2 * (stringWidth("6", FONT, floor) + 1 * mm) if self.dealer_by_seat else 0
        width = self.player_width() - 2 * mm - seat
        for lines in (NAME_LINES, MOST_NAME_LINES):
            label = fit_label(
                name, FONT_BOLD, width, size=self.page.scale.name, min_size=floor, lines=lines
            )
            if not label.cut:
                break
        return label

    # --- a page's table -----------------------------------------------------------------

    def draw(self, canvas: Canvas, rows: list[Row], top: float, row_height: float) -> None:
        """The headings and ``rows`` from ``top`` down, each ``row_height`` tall."""
        label_width = self.label_width()
        dealer_width = self.dealer_width()
        player_width = self.player_width()
        players_left = label_width + dealer_width
        table_width = players_left + player_width * self.columns
        left = (self.page.width - table_width) / 2

        body_top = top - self.name_row - self.sub_row
        body_bottom = body_top - len(rows) * row_height
        cells = self.cells

        with tag(canvas, "Table"):
            with artifact(canvas, "Layout"):
                for index, row in enumerate(rows):  # every other row shaded, easy to follow
                    y = body_top - (index + 1) * row_height
                    if row.kind in ("carried", "result") or index % 2:
                        canvas.setFillColor(SHADE)
                        canvas.rect(left, y, table_width, row_height, stroke=0, fill=1)
            canvas.setFillColor(INK)
            run = TextRun(canvas)
            with tag(run, "THead"), tag(run, "TR"):
                self._headings(run, left, top, label_width, dealer_width, player_width)
            with tag(run, "TBody"):
                for index, row in enumerate(rows):
                    y = body_top - index * row_height
                    with tag(run, "TR"):
                        with tag(run, "TH", scope="Row"):
                            cells.label(run, row, left, y, label_width, row_height)
                        with tag(run, "TD"):
                            cells.dealer(run, row, left + label_width, y, dealer_width, row_height)
                        for column in range(self.columns):
                            x = left + players_left + column * player_width
                            with tag(run, "TD"):  # a player's phase, points and total
                                if column < len(row.cells):
                                    cell = row.cells[column]
                                    cells.cell(run, cell, x, y, player_width, row_height)
            run.close()
            with artifact(canvas, "Layout"):
                cells.marks(canvas)
                self._grid(canvas, rows, left, top, body_bottom, row_height)

    def _grid(
        self,
        canvas: Canvas,
        rows: list[Row],
        left: float,
        top: float,
        body_bottom: float,
        row_height: float,
    ) -> None:
        """Light lines inside a player's columns, strong lines between players, a strong line
        above the result, a box round it all: marks a reader skips."""
        label_width = self.label_width()
        player_width = self.player_width()
        players_left = label_width + self.dealer_width()
        table_width = players_left + player_width * self.columns
        body_top = top - self.name_row - self.sub_row
        canvas.setStrokeColor(LIGHT)
        canvas.setLineWidth(0.5)
        for index in range(1, len(rows)):
            y = body_top - index * row_height
            canvas.line(left, y, left + table_width, y)
        for index in range(self.columns):
            x = left + players_left + index * player_width
            for share in self.page.shares[:-1]:
                x += share * player_width
                canvas.line(x, top - self.name_row, x, body_bottom)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8)
        canvas.line(left, body_top, left + table_width, body_top)
        canvas.line(
            left + players_left, top - self.name_row, left + table_width, top - self.name_row
        )
        canvas.line(left + label_width, top - self.name_row, left + label_width, body_bottom)
        for index in range(self.columns + 1):
            x = left + players_left + index * player_width
            canvas.line(x, top, x, body_bottom)
        for index, row in enumerate(rows):  # a strong line above the result
            if row.kind == "result":
                y = body_top - index * row_height
                canvas.line(left, y, left + table_width, y)
        canvas.setLineWidth(1.2)
        canvas.rect(left, body_bottom, table_width, top - body_bottom, stroke=1, fill=0)

    # --- the headings -------------------------------------------------------------------

    def _headings(
        self,
        run: TextRun,
        left: float,
        top: float,
        label_width: float,
        dealer_width: float,
        player_width: float,
    ) -> None:
        """The names over the players' columns, and every column's heading: to a reader, one
        row of headings, a player's name with the words over their columns."""
        scale = self.page.scale
        row_top = top - self.name_row
        hand = (
            pgettext("score sheet", "Hand and phase")
            if self.page.ten_hands
            else pgettext("score sheet", "Hand")
        )
        shares = self.page.shares
        for words, x, width in (
            (hand, left, label_width),
            (pgettext("score sheet", "Dealer"), left + label_width, dealer_width),
        ):
            label = fit_label(
                words,
                FONT_BOLD,
                width - 2 * CENTRED_PAD,
                size=scale.label,
                lines=2,
                height=self.name_row,
            )
            last = row_top - self.sub_row + 1.5 * mm  # the last line's baseline, as the headings'
            first = last + (len(label.lines) - 1) * label.leading
            with tag(run, "TH", scope="Column"):
                label.at(run, x + width / 2, first, "centre")
        headings = self._sub_headings(player_width)
        for index in range(self.columns):
            x = left + label_width + dealer_width + index * player_width
            name = self.players[index] if index < len(self.players) else ""
            with tag(run, "TH", scope="Column"):
                self._name_cell(run, name, x, top, player_width)
                for share, heading in zip(shares, headings, strict=True):
                    cell = share * player_width
                    heading.draw_middle(run, x + cell / 2, row_top, self.sub_row, "centre")
                    x += cell

    def _sub_headings(self, player_width: float) -> list[Label]:
        """'Phase / Points / Total', each in its column, all at the size the longest allows;
        their short forms ("Ph.") when a word does not fit its column at 9 pt."""
        size, shares = self.page.scale.label, self.page.shares
        words = self._headings_words()
        if any(
            line_width(heading, FONT, size) > share * player_width - 2 * CENTRED_PAD
            for share, heading in zip(shares, words, strict=True)
        ):
            words = self._headings_words(short=True)
        fitted = [
            fit_label(heading, FONT, share * player_width - 2 * CENTRED_PAD, size=size)
            for share, heading in zip(shares, words, strict=True)
        ]
        least = min(label.size for label in fitted)
        return [
            fit_label(heading, FONT, share * player_width - 2 * CENTRED_PAD, size=least)
            for share, heading in zip(shares, words, strict=True)
        ]

    def _headings_words(self, short: bool = False) -> tuple[str, ...]:
        if short:
            # Translators: short forms of "Phase", "Points" and "Total" for narrow columns.
            phase = pgettext("score sheet, short", "Ph.")
            points = pgettext("score sheet, short", "Pts")
            total = pgettext("score sheet, short", "Tot.")
        else:
            phase = pgettext("score sheet", "Phase")
            points = pgettext("score sheet", "Points")
            total = pgettext("score sheet", "Total")
        if self.page.ten_hands:
            return (points, total)
        return (phase, points, total)

    def _name_cell(self, run: TextRun, name: str, x: float, top: float, width: float) -> None:
        scale = self.page.scale
        inner = width - 2 * mm
        if not name:
            label = fit_label(pgettext("score sheet", "Name"), FONT, inner, size=scale.label)
            label.draw(run, x + 1 * mm, top - 1 * mm)
            return
        label = self.name_label(name)
        if self.dealer_by_seat:  # the seat number the dealer column gives
            seat = str(self.players.index(name) + 1)
            floor = self.page.floor
            run.put(x + 1 * mm, top - 1 * mm - ASCENT * floor, seat, FONT, floor)
        label.draw_middle(run, x + width / 2, top, self.name_row, "centre")

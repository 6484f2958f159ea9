"""Score sheets: blank, or a game's own record with its players, hands and QR link.

Portrait. A row per hand: its number, who dealt, and for each player three
columns (the phase played, with a tick when made; the hand's points, marked
"out" for who went out; the running total). In a ten-hands game everyone moves
on each hand, so each row is labelled with its phase and a player needs only
points and total. A game's sheet fills in every hand played, ends with who
reached which phase and who won, and leaves blank rows for the hands to come;
a long game carries its totals on to further pages. The card points and the
phase list sit in the bottom margin so nobody has to look them up mid-game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from io import BytesIO

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..i18n import _, ngettext, pgettext
from ..rules.game import Game
from ..rules.house_rules import rules_line
from ..rules.phases import Progression, Rules
from ..rules.replay import Kept
from . import text
from .layout import (
    FONT,
    FONT_BOLD,
    FONT_MONO,
    GREY,
    INK,
    LIGHT,
    SHADE,
    Fitted,
    LayoutError,
    TextRun,
    escape,
    fit,
    fit_user_text,
    new_canvas,
    page_size,
    plain,
    shorten,
)
from .qr import draw_qr
from .record import Cell, Record, Row, game_record

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_LARGE_PLAYERS = 4

MARGIN = 12 * mm
GAP = 3.5 * mm
QR_SIZE = 25 * mm
TITLE_SIZE = 18
RULES_SIZE = 9
SUMMARY_HEIGHT = 2 * 11 * 1.2  # two lines at 11 pt, the same on every page
NAME_ROW = 12 * mm  # names, up to two lines
SUB_ROW = 5 * mm  # "Phase / Points / Total"
MAX_ROW = 21 * mm  # ten-hands rows are taller: there are only ten of them
MIN_ROW = 6 * mm
TEN_HANDS_COLUMN = 50 * mm
MAX_PLAYER_COLUMN = 60 * mm  # with few players, wider columns, then centred
POINTS_STRIP = 9 * mm
PHASE_ROWS_PER_COLUMN = 5
PHASE_SIZE = 9
MAX_PHASE_BLOCK = 36 * mm
LEGEND_SIZE = 9
LINK_GROUP = 4  # characters of a game's code read aloud together


@dataclass(frozen=True)
class Scale:
    """Row height and type sizes: regular, or large print for children and older eyes."""

    row: float
    hand_column: float
    dealer_column: float
    number: float  # points, totals and hand numbers
    name: float
    label: float  # column headings, "out", the dealer's name


REGULAR = Scale(
    row=6.35 * mm,  # like narrow-ruled paper: room for a handwritten total
    hand_column=12 * mm,
    dealer_column=16 * mm,
    number=10,
    name=11,
    label=8,
)
LARGE = Scale(
    row=8.5 * mm, hand_column=13 * mm, dealer_column=22 * mm, number=14, name=15, label=10
)


@dataclass
class ScoreSheet:
    """A score sheet, blank or filled in from a game; ``build()`` returns the PDF."""

    rules: Rules
    players: Sequence[str] = ()
    title: str = ""
    view_url: str | None = None
    pagesize: str = "letter"
    player_columns: int | None = None
    game: Game | None = None
    large: bool = False
    kept: Sequence[Kept] | None = None  # the game's state after each hand, if the store kept it
    columns: int = field(init=False)

    def __post_init__(self) -> None:
        if self.game is not None:
            self.rules, self.players = self.game.rules, self.game.players
        if not self.title:
            self.title = (
                _("Phase 10 score sheet, large print") if self.large else _("Phase 10 score sheet")
            )
        self.players = [plain(name) for name in self.players]
        most = MAX_LARGE_PLAYERS if self.large else MAX_PLAYERS
        if len(self.players) > most:
            raise ValueError(
                _("a large-print sheet has room for at most %(most)s players", most=most)
                if self.large
                else _("a score sheet has room for at most %(most)s players", most=most)
            )
        wanted = self.player_columns or (
            max(MIN_PLAYERS, len(self.players)) if self.players else most
        )
        if not MIN_PLAYERS <= wanted <= most:
            raise ValueError(
                _(
                    "a score sheet has %(least)s to %(most)s player columns",
                    least=MIN_PLAYERS,
                    most=most,
                )
            )
        if wanted < len(self.players):
            raise ValueError(
                _("%(players)s players need %(players)s columns", players=len(self.players))
            )
        self.columns = wanted
        self.width, self.height = page_size(self.pagesize)
        self.ten_hands = self.rules.progression is Progression.TEN_HANDS
        self.scale = LARGE if self.large else REGULAR
        self.record: Record | None = (
            game_record(self.game, self.kept) if self.game is not None else None
        )
        self.forms: set[str] = set()
        self.titles: dict[float, tuple[tuple[float, Fitted], ...]] = {}
        self.ticks: list[tuple[float, float, float]] = []  # (x, baseline, size) on this page

    # --- the pages -----------------------------------------------------------------

    def build(self) -> bytes:
        buffer = BytesIO()
        canvas = new_canvas(
            buffer,
            (self.width, self.height),
            self.title or _("Phase 10 score sheet"),
            _("Score sheet - %(rules)s", rules=rules_line(self.rules)),
        )
        # What every page repeats is drawn once, as a form each page refers to.
        canvas.beginForm("footer")
        bottom = self._footer(canvas) + GAP
        canvas.endForm()
        if self.view_url:
            canvas.beginForm("qr")
            right, top = self.width - MARGIN, self.height - MARGIN
            draw_qr(canvas, self.view_url, right - QR_SIZE, top - QR_SIZE, QR_SIZE)
            canvas.endForm()
        top = self._header_height()
        space = top - GAP - NAME_ROW - SUB_ROW - bottom
        pages = self._pages(space)
        for number, rows in enumerate(pages, start=1):
            canvas.doForm("footer")
            label = self._page_label(number, len(pages)) if len(pages) > 1 else ""
            y = self._header(canvas, label)
            self._table(canvas, rows, y - GAP, bottom)
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _pages(self, space: float) -> list[list[Row]]:
        """The rows of each page: a long game carries its totals on to the next page."""
        if self.ten_hands:
            rows = list(self.record.rows) if self.record else []
            numbered = sum(1 for row in rows if row.label.isdigit())
            count = len(self.rules.sequence)
            rows += [Row(str(n), kind="blank") for n in range(numbered + 1, count + 1)]
            return [rows]
        capacity = int(space // self.scale.row)
        if capacity < 4:
            raise LayoutError(_("no room for the hands on this page"))
        carried_label = pgettext("score sheet", "Carried")
        if self.record is None:
            blank = [Row(str(n), kind="blank") for n in range(1, capacity)]
            return [[Row(carried_label, kind="carried"), *blank]]
        pending = list(self.record.rows)
        pages: list[list[Row]] = []
        carried = None
        while pending:
            rows = [carried] if carried else []
            take = capacity - len(rows)
            if len(pending) - 1 == take:  # never leave the result row alone on a page
                take -= 1
            rows += pending[:take]
            pending = pending[take:]
            pages.append(rows)
            totals = next((r for r in reversed(rows) if r.kind == "hand"), None)
            if totals is not None:
                cells = tuple(Cell(total=cell.total) for cell in totals.cells)
                carried = Row(carried_label, kind="carried", cells=cells)
        if not self.record.over:  # blank rows for the hands to come
            last = pages[-1]
            number = self.record.next_hand
            while len(last) < capacity:
                last.append(Row(str(number), kind="blank"))
                number += 1
        return pages

    # --- the top of each page ----------------------------------------------------------

    @staticmethod
    def _page_label(number: int, pages: int) -> str:
        return _("Page %(number)s of %(pages)s.", number=number, pages=pages)

    def _header_blocks(self, width: float, page_label: str) -> list[tuple[float, Fitted]]:
        """(space above, block) for the title, rules and result sentence."""
        blocks = [*self._title_blocks(width)]
        if self.record is not None:
            words = " ".join(filter(None, (self.record.summary, page_label)))
            blocks.append(
                (1.5 * mm, fit_user_text(words, width, SUMMARY_HEIGHT, size=11, bold=True))
            )
        return blocks

    def _title_blocks(self, width: float) -> tuple[tuple[float, Fitted], ...]:
        """The title and the rules line: the same on every page, so laid out once."""
        if width not in self.titles:
            self.titles[width] = self._lay_out_title(width)
        return self.titles[width]

    def _lay_out_title(self, width: float) -> tuple[tuple[float, Fitted], ...]:
        return (
            (
                0.0,
                fit_user_text(
                    self.title or _("Phase 10 score sheet"),
                    width,
                    TITLE_SIZE * 2.5,
                    size=TITLE_SIZE,
                    min_size=11,
                    bold=True,
                    max_lines=2,
                ),
            ),
            (
                1 * mm,
                fit_user_text(
                    rules_line(self.rules),
                    width,
                    24 * mm,
                    size=RULES_SIZE,
                    prefix=_("<b>Rules:</b> "),
                ),
            ),
        )

    def _header_height(self) -> float:
        """The y where the table may start (the same on every page)."""
        width, qr_bottom = self._header_width()
        blocks = self._header_blocks(width, self._page_label(1, 2))
        y = self.height - MARGIN - sum(gap + block.height for gap, block in blocks)
        if self.record is not None:
            y -= SUMMARY_HEIGHT - blocks[-1][1].height
        y -= self._extra_height()
        return min(y, qr_bottom)

    def _header_width(self) -> tuple[float, float]:
        width = self.width - 2 * MARGIN
        if self.view_url:
            return width - QR_SIZE - GAP, self.height - MARGIN - QR_SIZE
        return width, self.height - MARGIN

    def _extra_height(self) -> float:
        if self.view_url:
            return 1 * mm + 2 * 10 * 1.25
        return 7 * mm if not self.players else 0.0

    def _header(self, canvas: Canvas, page_label: str) -> float:
        """Title, rules, the result so far and (for a game) the QR link; returns the y below."""
        left, top = MARGIN, self.height - MARGIN
        width, qr_bottom = self._header_width()
        if self.view_url:
            canvas.doForm("qr")
        y = top
        for gap, block in self._header_blocks(width, page_label):
            y = block.draw(canvas, left, y - gap)
        if self.record is not None:
            y -= SUMMARY_HEIGHT - block.height
        if self.view_url:  # the same on every page: drawn once
            form = f"link{round(y * 100)}"
            if form not in self.forms:
                self.forms.add(form)
                canvas.beginForm(form)
                self._link(canvas, left, y - 1 * mm, width)
                canvas.endForm()
            canvas.doForm(form)
        elif not self.players:
            line = y - 6 * mm
            canvas.setFont(FONT, 9)
            canvas.setFillColor(INK)
            canvas.drawString(left, line, _("Date"))
            canvas.drawString(left + 70 * mm, line, _("Where"))
            canvas.setStrokeColor(GREY)
            canvas.setLineWidth(0.5)
            canvas.line(left + 9 * mm, line - 1, left + 62 * mm, line - 1)
            canvas.line(left + 81 * mm, line - 1, left + width, line - 1)
        return min(y - self._extra_height(), qr_bottom)

    def _link(self, canvas: Canvas, left: float, top: float, width: float) -> None:
        """The view link for anyone without a camera, easy to read out and type.

        In a monospaced font whose 0/O and 1/l/I differ; a game's code (the last
        part of the link) is spaced out in groups of four, with gaps that are
        not characters, so what is typed is exactly the link.
        """
        canvas.setFillColor(INK)
        canvas.setFont(FONT_BOLD, 9)
        canvas.drawString(left, top - 9, _("Live scores: scan the code, or type this link:"))
        url = plain(self.view_url or "")
        base, _slash, code = url.rpartition("/")
        if not base or len(code) < 2 * LINK_GROUP or "?" in code:
            base, code = url, ""
        else:
            base += "/"
        size: float = 10
        groups = [code[i : i + LINK_GROUP] for i in range(0, len(code), LINK_GROUP)]
        gap = 1.8 * mm
        while size > 6 and (
            stringWidth(base + code, FONT_MONO, size) + gap * max(0, len(groups) - 1) > width
        ):
            size -= 0.5
        line = top - 9 - size * 1.25
        canvas.setFont(FONT_MONO, size)
        shown = (
            base
            if stringWidth(base, FONT_MONO, size) <= width
            else shorten(base, width, FONT_MONO, size)
        )
        canvas.drawString(left, line, shown)
        x = left + stringWidth(shown, FONT_MONO, size)
        for group in groups:
            canvas.drawString(x, line, group)
            x += stringWidth(group, FONT_MONO, size) + gap

    # --- the table of hands -------------------------------------------------------

    def _label_width(self) -> float:
        return TEN_HANDS_COLUMN if self.ten_hands else self.scale.hand_column

    def _table(self, canvas: Canvas, rows: list[Row], top: float, bottom: float) -> None:
        scale = self.scale
        label_width = self._label_width()
        dealer_width = scale.dealer_column
        space = self.width - 2 * MARGIN - label_width - dealer_width
        player_width = min(MAX_PLAYER_COLUMN, space / self.columns)
        players_left = label_width + dealer_width
        table_width = players_left + player_width * self.columns
        left = (self.width - table_width) / 2

        body_top = top - NAME_ROW - SUB_ROW
        row_height = self._row_height(body_top - bottom, len(rows))
        body_bottom = body_top - len(rows) * row_height

        for index, row in enumerate(rows):  # shade every other row so it is easy to follow
            y = body_top - (index + 1) * row_height
            if row.kind in ("carried", "result") or index % 2:
                canvas.setFillColor(SHADE)
                canvas.rect(left, y, table_width, row_height, stroke=0, fill=1)

        if "headings" not in self.forms:  # the same on every page: drawn once
            self.forms.add("headings")
            canvas.beginForm("headings")
            canvas.setFillColor(INK)
            canvas.setFont(FONT_BOLD, scale.label)
            heading_y = body_top + 1.5 * mm
            canvas.drawCentredString(
                left + label_width / 2,
                heading_y,
                pgettext("score sheet", "Hand and phase")
                if self.ten_hands
                else pgettext("score sheet", "Hand"),
            )
            canvas.drawCentredString(
                left + label_width + dealer_width / 2, heading_y, pgettext("score sheet", "Dealer")
            )
            for index in range(self.columns):
                x = left + players_left + index * player_width
                name = self.players[index] if index < len(self.players) else ""
                self._name_cell(canvas, name, x, top, player_width)
                self._sub_headings(canvas, x, top - NAME_ROW, player_width)
            canvas.endForm()
        canvas.doForm("headings")
        canvas.setFillColor(INK)

        run = TextRun(canvas)
        for index, row in enumerate(rows):
            y = body_top - index * row_height
            self._row_label(canvas, run, row, left, y, label_width, row_height)
            if row.dealer:
                name = plain(row.dealer)
                inner = dealer_width - 1.5 * mm
                while len(name) > 1 and run.user_width(name, FONT, scale.label) > inner:
                    name = name[:-2] + "\u2026"
                run.put_user(
                    left + label_width + dealer_width / 2,
                    y - row_height / 2 - scale.label * 0.35,
                    name,
                    FONT,
                    scale.label,
                    align="centre",
                )
            for column, cell in enumerate(row.cells):
                x = left + players_left + column * player_width
                self._cell(canvas, run, cell, x, y, player_width, row_height)
        run.close()
        _draw_ticks(canvas, self.ticks)
        self.ticks.clear()

        # Grid: light lines inside a player's columns, strong lines between players.
        canvas.setStrokeColor(LIGHT)
        canvas.setLineWidth(0.5)
        for index in range(1, len(rows)):
            y = body_top - index * row_height
            canvas.line(left, y, left + table_width, y)
        for index in range(self.columns):
            x = left + players_left + index * player_width
            for share in self._shares()[:-1]:
                x += share * player_width
                canvas.line(x, top - NAME_ROW, x, body_bottom)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8)
        canvas.line(left, body_top, left + table_width, body_top)
        canvas.line(left + players_left, top - NAME_ROW, left + table_width, top - NAME_ROW)
        canvas.line(left + label_width, top - NAME_ROW, left + label_width, body_bottom)
        for index in range(self.columns + 1):
            x = left + players_left + index * player_width
            canvas.line(x, top, x, body_bottom)
        for index, row in enumerate(rows):  # a strong line above the result
            if row.kind == "result":
                y = body_top - index * row_height
                canvas.line(left, y, left + table_width, y)
        canvas.setLineWidth(1.2)
        canvas.rect(left, body_bottom, table_width, top - body_bottom, stroke=1, fill=0)

    def _row_height(self, space: float, rows: int) -> float:
        if not self.ten_hands:
            return self.scale.row
        height = min(MAX_ROW, space / rows)
        if height < MIN_ROW:
            raise LayoutError(
                ngettext(
                    "%(num)s hand does not fit on one sheet",
                    "%(num)s hands do not fit on one sheet",
                    rows,
                )
            )
        return height

    def _shares(self) -> tuple[float, ...]:
        return (0.45, 0.55) if self.ten_hands else (0.26, 0.34, 0.40)

    def _headings(self) -> tuple[str, ...]:
        points, total = pgettext("score sheet", "Points"), pgettext("score sheet", "Total")
        if self.ten_hands:
            return (points, total)
        return (pgettext("score sheet", "Phase"), points, total)

    def _cell(
        self,
        canvas: Canvas,
        run: TextRun,
        cell: Cell,
        x: float,
        top: float,
        width: float,
        height: float,
    ) -> None:
        """One player's phase (ticked when made), points (and "out") and total."""
        scale = self.scale
        widths = [share * width for share in self._shares()]
        baseline = top - height / 2 - scale.number * 0.35
        if not self.ten_hands:
            phase_width = widths.pop(0)
            size = scale.number if len(cell.phase) <= 3 else scale.label
            words = shorten(cell.phase, phase_width - 1 * mm, FONT, size)
            if cell.made:
                tick = size * 0.7
                shift = (run.width(words, FONT, size) + tick + 1) / 2
                run.put(x + phase_width / 2 - shift, baseline, words, FONT, size)
                self.ticks.append((x + phase_width / 2 + shift - tick, baseline, tick))
            elif words:
                run.put(x + phase_width / 2, baseline, words, FONT, size, "centre")
            x += phase_width
        elif cell.made:
            self.ticks.append((x + 1 * mm, baseline, scale.number * 0.6))
        points_width, total_width = widths
        points = cell.points if cell.points.lstrip("-").isdigit() or not cell.points else ""
        word = cell.points if not points else cell.note
        if points:
            run.put(x + points_width - 1 * mm, baseline, points, FONT, scale.number, "right")
        if word and points:
            run.put(x + 0.8 * mm, top - scale.label - 0.4 * mm, word, FONT, scale.label)
        elif word:
            run.put(x + points_width / 2, baseline, word, FONT_BOLD, scale.label, "centre")
        if cell.total:
            size = scale.number + (1 if cell.strong else 0)
            right = x + points_width + total_width - 1 * mm
            run.put(right, baseline, cell.total, FONT_BOLD, size, "right")
            if cell.strong:  # the winner's total, boxed: not a colour alone
                canvas.setLineWidth(1)
                canvas.setStrokeColor(INK)
                canvas.rect(
                    x + points_width + 0.8 * mm,
                    top - height + 0.8 * mm,
                    total_width - 1.6 * mm,
                    height - 1.6 * mm,
                    stroke=1,
                    fill=0,
                )

    def _name_cell(self, canvas: Canvas, name: str, x: float, top: float, width: float) -> None:
        inner = width - 2 * mm
        if not name:
            canvas.setFont(FONT, 8)
            canvas.setFillColor(GREY)
            canvas.drawString(x + 1 * mm, top - 3.5 * mm, pgettext("score sheet", "Name"))
            canvas.setFillColor(INK)
            return
        cell = fit_user_text(
            name,
            inner,
            NAME_ROW - 2 * mm,
            size=self.scale.name,
            min_size=7,
            bold=True,
            centred=True,
            max_lines=2,
        )
        # Centre the name vertically in its cell.
        cell.draw(canvas, x + 1 * mm, top - (NAME_ROW - cell.height) / 2)

    def _sub_headings(self, canvas: Canvas, x: float, top: float, width: float) -> None:
        size = self.scale.label
        widest = pgettext("score sheet", "Phase")
        while size > 6.5 and stringWidth(widest, FONT, size) > self._shares()[0] * width - 1 * mm:
            size -= 0.5
        canvas.setFont(FONT, size)
        canvas.setFillColor(INK)
        for share, heading in zip(self._shares(), self._headings(), strict=True):
            cell = share * width
            canvas.drawCentredString(
                x + cell / 2,
                top - SUB_ROW + 1.5 * mm,
                shorten(heading, cell - 0.6 * mm, FONT, size),
            )
            x += cell

    def _row_label(
        self,
        canvas: Canvas,
        run: TextRun,
        row: Row,
        x: float,
        top: float,
        width: float,
        height: float,
    ) -> None:
        size = self.scale.number
        if row.kind in ("carried", "result"):
            size = min(size, 9)
            words = shorten(row.label, width - 1 * mm, FONT_BOLD, size)
            run.put(x + width / 2, top - height / 2 - size * 0.35, words, FONT_BOLD, size, "centre")
            return
        if not self.ten_hands or not row.label.isdigit():
            font = FONT
            while size > 7 and stringWidth(row.label, font, size) > width - 1 * mm:
                size -= 0.5  # a word ("Tie", "Stechen") rather than a hand's number
            words = shorten(row.label, width - 1 * mm, font, size)
            run.put(x + width / 2, top - height / 2 - size * 0.35, words, font, size, "centre")
            return
        canvas.setFillColor(INK)
        index = int(row.label) - 1
        number = self.rules.sequence[index]
        canvas.setFont(FONT_BOLD, 12)
        canvas.drawRightString(x + 7 * mm, top - height / 2 - 4, row.label)
        words = str(self.rules.phase(number))
        try:  # "Phase 4" above its groups, or on one line when the row is short
            phase = fit(
                _("<b>Phase %(number)s</b><br/>%(phase)s", number=number, phase=escape(words)),
                width - 10 * mm,
                height - 1 * mm,
                size=10,
                min_size=9,
            )
        except LayoutError:
            phase = fit_user_text(
                words,
                width - 10 * mm,
                height - 1 * mm,
                size=10,
                min_size=9,
                prefix=_("<b>Phase %(number)s:</b> ", number=number),
            )
        phase.draw(canvas, x + 9 * mm, top - (height - phase.height) / 2)

    # --- the bottom margin -------------------------------------------------------------

    def _footer(self, canvas: Canvas) -> float:
        """Card points, the phases and a short legend; returns the y above them."""
        left, right = MARGIN, self.width - MARGIN
        width = right - left
        legend = fit(escape(self._legend()), width, 20 * mm, size=LEGEND_SIZE, min_size=9)
        y = MARGIN + legend.height
        legend.draw(canvas, left, y)
        y += 2 * mm
        if not self.ten_hands:
            y = self._phase_block(canvas, left, width, y)
        self._points_strip(canvas, left, width, y)
        return y + POINTS_STRIP

    def _legend(self) -> str:
        if self.ten_hands:
            return _(
                "Each row is one hand and its phase: everyone moves on one phase each hand, "
                "made or not; tick the points of a player who made it. Dealer: who dealt the "
                "hand. Write the points for the cards left in hand (going out scores 0) and "
                "the running total. After the last hand the lowest total wins; an exact tie "
                "is a tie."
            )
        finish = (
            _("once someone has made the last phase, the lowest total wins.")
            if self.rules.lowest_total_wins
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
            if self.rules.tiebreak_own_phase
            else _(
                "A tie on points is played off: the tied players play one more hand of the "
                "last phase, and whoever goes out first wins."
            )
        )
        if self.rules.lowest_total_wins:
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

    def _points_strip(self, canvas: Canvas, left: float, width: float, y: float) -> None:
        rows = [*text.card_points(self.rules), (_("Going out"), 0)]
        label = _("Points for cards left in hand")
        label_width = 30 * mm
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8)
        canvas.rect(left, y, width, POINTS_STRIP, stroke=1, fill=0)
        heading = fit(
            escape(label),
            label_width - 2 * mm,
            POINTS_STRIP - 1 * mm,
            size=9,
            min_size=9,
            bold=True,
        )
        heading.draw(canvas, left + 1.5 * mm, y + (POINTS_STRIP + heading.height) / 2)
        cell = (width - label_width) / len(rows)
        canvas.setLineWidth(0.5)
        for index, (cards, points) in enumerate(rows):
            x = left + label_width + index * cell
            canvas.line(x, y, x, y + POINTS_STRIP)
            canvas.setFont(FONT, 9)
            canvas.drawCentredString(
                x + cell / 2, y + POINTS_STRIP - 3.6 * mm, shorten(cards, cell - 1 * mm, FONT, 9)
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
                    min_size=PHASE_SIZE,
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
            note = fit(_("<b>Phases:</b> see the phase reference cards."), width, 5 * mm, size=9)
            note.draw(canvas, left, y + note.height)
            return y + note.height + 2 * mm
        top = y + block
        cell_top = top
        for index, ((number, _words), cell) in enumerate(zip(rows, cells, strict=True)):
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
    large: bool = False,
) -> bytes:
    """A blank score sheet as PDF bytes (with names at the top when players are given)."""
    return ScoreSheet(
        rules,
        players=players,
        title=title,
        view_url=view_url,
        pagesize=pagesize,
        player_columns=player_columns,
        large=large,
    ).build()


def game_sheet(
    game: Game,
    *,
    title: str = "",
    view_url: str | None = None,
    pagesize: str = "letter",
    large: bool = False,
    kept: Sequence[Kept] | None = None,
) -> bytes:
    """A game's record as PDF bytes: every hand, the result, blank rows for hands to come.

    ``kept``: the state the store kept after each hand; with it nothing is replayed.
    """
    return ScoreSheet(
        game.rules,
        title=title or f"Phase 10: {', '.join(game.players)}",
        view_url=view_url,
        pagesize=pagesize,
        game=game,
        large=large,
        kept=kept,
    ).build()


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

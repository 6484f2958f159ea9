"""Score sheets: blank, or a game's own record with its players, hands and QR link.

Portrait. A row per hand: its number, who dealt, and for each player three
columns (the phase played, with a tick when made; the hand's points, marked
"out" for who went out; the running total). In a ten-hands game everyone moves
on each hand, so each row is labelled with its phase and a player needs only
points and total. A game's sheet fills in every hand played, ends with who
reached which phase and who won, and leaves blank rows for the hands to come;
a long game carries its totals on to further pages. The card points and the
phase list sit in the bottom margin so nobody has to look them up mid-game.

Every word in a cell, heading or caption is fitted by ``labels.fit_label``:
smaller until it fits, never over its neighbour.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import cached_property
from io import BytesIO
from typing import NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..i18n import _, ngettext, pgettext
from ..rules.game import Game
from ..rules.house_rules import rules_line
from ..rules.options import Progression
from ..rules.replay import Kept
from ..rules.ruleset import Rules
from . import bidi, text
from .labels import ASCENT, DESCENT, MIDDLE, Label, fit_label, line_width
from .layout import (
    FONT,
    FONT_BOLD,
    FONT_MONO,
    GREY,
    INK,
    LIGHT,
    MIN_FONT_SIZE,
    SHADE,
    Fitted,
    LayoutError,
    TextRun,
    escape,
    fit,
    new_canvas,
    page_size,
    plain,
)
from .link import printed_link
from .qr import draw_qr
from .record import Cell, Played, Record, Row, game_record
from .tagging import Element, artifact, read_last, spoken, tag

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_LARGE_PLAYERS = 4

MARGIN = 12 * mm
GAP = 3.5 * mm
QR_SIZE = 25 * mm
TITLE_SIZE = 18
RULES_SIZE = 9
SUMMARY_SIZE = 11
SUMMARY_HEIGHT = 2 * SUMMARY_SIZE * 1.2  # at least two lines at 11 pt, the same on every page
TITLE_LINES = 4  # six names of 40 letters each, whole
FACTS_GAP = 0.8 * mm  # between the rules and when the game was played
LINK_HEIGHT = 1 * mm + 2 * 10 * 1.25  # the caption and the link under the summary
NAME_ROW = 12 * mm  # names: taller when a long name needs more than two lines
NAME_LINES = 4
MOST_NAME_LINES = 12  # 40 letters in a narrow column at the floor (the name row grows)
SUB_ROW = 5 * mm  # (at least) "Phase / Points / Total"
MAX_ROW = 21 * mm  # ten-hands rows are taller: there are only ten of them
MIN_ROW = 6 * mm
SQUEEZE = 0.88  # a finished game's rows may be this much shorter to stay on one page
LAST_PAGE_ROWS = 4  # a further page carries at least this many rows (the result included)
TEN_HANDS_COLUMN = 50 * mm
MAX_PLAYER_COLUMN = 60 * mm  # with few players, wider columns, then centred
POINTS_STRIP = 9 * mm
PHASE_ROWS_PER_COLUMN = 5
PHASE_SIZE = 9
MAX_PHASE_BLOCK = 36 * mm
LEGEND_SIZE = 9
PAD = 0.6 * mm  # between a cell's edge (or a neighbour) and its words
CENTRED_PAD = 0.3 * mm  # the same for words centred in their cell
ACCENTS = 0.2  # of the size: how far accents reach above capitals, kept inside the margin
TICK = 0.7  # a tick's width, in ems of the phase number beside it
WIDER = 3 * mm  # how much wider the first column may grow for its words
MIN_TICK = 4.5  # pt: the smallest tick, beside a two-digit phase in a narrow column
TEN_HANDS_TICK = 0.6  # in ems of the points beside it
EDGE = 0.1 * mm  # between stacked words and their cell's top and foot
BOX = 0.8 * mm  # the winner's box, inside the total's cell
TICK_SAID = "\u2713"  # what a tick reads as (it is drawn as lines)


def short_forms() -> dict[str, str]:
    """Short forms of the words a narrow column cannot hold at 9 pt, by the word they stand
    for, in the language being spoken."""
    # Translators: short forms of the score sheet's words for a narrow column (five or six
    # players, or large print); as short as the table reads them.
    return {
        pgettext("score sheet", "out"): pgettext("score sheet, short", "out"),
        pgettext("score sheet", "float"): pgettext("score sheet, short", "float"),
        pgettext("score sheet", "won"): pgettext("score sheet, short", "won"),
        pgettext("score sheet", "tied"): pgettext("score sheet, short", "tied"),
        pgettext("score sheet", "Tie"): pgettext("score sheet, short", "Tie"),
        pgettext("score sheet", "Carried"): pgettext("score sheet, short", "Carried"),
        pgettext("score sheet", "End"): pgettext("score sheet, short", "End"),
    }


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
    label=9,
)
LARGE = Scale(
    row=8.5 * mm, hand_column=13 * mm, dealer_column=22 * mm, number=14, name=15, label=14
)
LARGE_FLOOR = 14  # large print: nothing smaller


class Slot(NamedTuple):
    """One column of a player's cell in one row, in points: where its words go."""

    x: float
    top: float
    width: float
    height: float
    baseline: float  # of a number, in the middle of the row


@dataclass
class ScoreSheet:
    """A score sheet, blank or filled in from a game; ``build()`` returns the PDF.

    ``view_url``: the game's watch link, in the QR code; ``code``: the game's
    short code (``codes``), printed with the app's address as the link to type.
    """

    rules: Rules
    players: Sequence[str] = ()
    title: str = ""
    view_url: str | None = None
    pagesize: str = "letter"
    player_columns: int | None = None
    game: Game | None = None
    large: bool = False
    kept: Sequence[Kept] | None = None  # the game's state after each hand, if the store kept it
    code: str | None = None
    played: Played | None = None  # when, how long and where, for a game's record
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
        self.row_height = self.scale.row
        self.record: Record | None = (
            game_record(self.game, self.kept) if self.game is not None else None
        )
        self.forms: set[str] = set()
        self.ticks: list[tuple[float, float, float]] = []  # (x, baseline, size) on this page
        self.boxes: list[tuple[float, float, float, float]] = []  # the winner's, on this page

    # --- the pages -----------------------------------------------------------------

    def build(self) -> bytes:
        buffer = BytesIO()
        canvas = new_canvas(
            buffer,
            (self.width, self.height),
            self.title,
            _("Score sheet - %(rules)s", rules=rules_line(self.rules)),
            created=self.played.started if self.played is not None else None,
        )
        bottom = self._footer_top + GAP
        header = self._header_bottom()
        space = header - GAP - self._name_row - self._sub_row - bottom
        pages = self._pages(space)
        for number, rows in enumerate(pages, start=1):
            foot = self._footer(canvas, first=number == 1)
            label = self._page_label(number, len(pages)) if len(pages) > 1 else ""
            self._header(canvas, label, first=number == 1)
            self._table(canvas, rows, header - GAP, bottom)
            read_last(foot)
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _form(self, canvas: Canvas, name: str, draw: Callable[[Canvas], object]) -> None:
        """What every page repeats, drawn once as a form each page refers to."""
        if name not in self.forms:
            self.forms.add(name)
            canvas.beginForm(name)
            draw(canvas)
            canvas.endForm()
        canvas.doForm(name)

    @staticmethod
    def _repeated(canvas: Canvas, first: bool) -> AbstractContextManager[object]:
        """What a page repeats from the first: read there, skipped as an artifact after."""
        return nullcontext() if first else artifact(canvas, "Pagination")

    def _pages(self, space: float) -> list[list[Row]]:
        """The rows of each page: a long game carries its totals on to the next page."""
        if self.ten_hands:
            rows = list(self.record.rows) if self.record else []
            numbered = sum(1 for row in rows if row.label.isdigit())
            count = len(self.rules.sequence)
            rows += [Row(str(n), kind="blank") for n in range(numbered + 1, count + 1)]
            self.row_height = self._ten_hands_row(space, len(rows))
            return [rows]
        capacity = int(space // self.scale.row)
        if capacity < LAST_PAGE_ROWS + 1:
            raise LayoutError(_("no room for the hands on this page"))
        carried_label = pgettext("score sheet", "Carried")
        if self.record is None:
            blank = [Row(str(n), kind="blank") for n in range(1, capacity)]
            return [[Row(carried_label, kind="carried"), *blank]]
        pending = list(self.record.rows)
        if self.record.over and capacity < len(pending) <= space // (self.scale.row * SQUEEZE):
            self.row_height = space / len(pending)  # a little tighter, rather than a page more
            return [pending]
        pages: list[list[Row]] = []
        carried = None
        while pending:
            rows = [carried] if carried else []
            take = min(capacity - len(rows), len(pending))
            left = len(pending) - take
            if 0 < left < LAST_PAGE_ROWS:  # never a page with a hand or two (and the result)
                take -= LAST_PAGE_ROWS - left
            rows += pending[:take]
            pending = pending[take:]
            pages.append(rows)
            totals = next((r for r in reversed(rows) if r.kind == "hand"), None)
            if totals is not None:
                cells = tuple(Cell(total=cell.total) for cell in totals.cells)
                carried = Row(carried_label, kind="carried", cells=cells)
        if not self.record.over and not self.record.tiebreak:  # rows for the hands to come
            last = pages[-1]
            number = self.record.next_hand
            while len(last) < capacity:
                last.append(Row(str(number), kind="blank"))
                number += 1
        return pages

    def _ten_hands_row(self, space: float, rows: int) -> float:
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

    # --- the top of each page ----------------------------------------------------------

    @staticmethod
    def _page_label(number: int, pages: int) -> str:
        return _("Page %(number)s of %(pages)s.", number=number, pages=pages)

    def _header_width(self) -> float:
        width = self.width - 2 * MARGIN
        return width - QR_SIZE - GAP if self.view_url else width

    @cached_property
    def _title(self) -> Label:
        return fit_label(
            self.title,
            FONT_BOLD,
            self._header_width(),
            size=TITLE_SIZE,
            min_size=self._type(11),
            lines=TITLE_LINES,
        )

    @property
    def _title_height(self) -> float:
        return self._title.height + ACCENTS * self._title.size

    @cached_property
    def _rules(self) -> Fitted:
        """The rules line in its box; with every house rule at once it cannot fit there even
        at the floor, so it takes the lines it needs at the floor and the table starts lower."""
        markup = _("<b>Rules:</b> ") + escape(rules_line(self.rules))
        width = self._header_width()
        try:
            return fit(
                markup,
                width,
                24 * mm * self._grow**2,
                size=self._type(RULES_SIZE),
                min_size=self.floor,
            )
        except LayoutError:
            return fit(markup, width, self.height, size=self.floor, min_size=self.floor)

    @cached_property
    def _facts(self) -> Label | None:
        """When the game was played (in the table's time zone), how long it took, where."""
        if self.played is None:
            return None
        return fit_label(
            self.played.words(),
            FONT,
            self._header_width(),
            size=self._type(RULES_SIZE),
            min_size=self.floor,
            lines=3,
        )

    @property
    def _rules_height(self) -> float:
        """The rules and, for a game, when and where it was played."""
        facts = self._facts
        return self._rules.height + (FACTS_GAP + facts.height if facts is not None else 0.0)

    def _summary(self, page_label: str, height: float | None = None) -> Label:
        words = " ".join(filter(None, (self.record.summary if self.record else "", page_label)))
        return fit_label(
            words,
            FONT_BOLD,
            self._header_width(),
            size=self._type(SUMMARY_SIZE),
            min_size=self.floor,
            lines=NAME_LINES,
            height=height or self._summary_height,
        )

    @cached_property
    def _summary_height(self) -> float:
        """Room for the sentence under the title on every page: two lines, or what long
        names need (with the longest page label)."""
        longest = self._summary(self._page_label(99, 99), height=10_000)
        return max(SUMMARY_HEIGHT * self._grow, longest.height + DESCENT * longest.size)

    @property
    def _sub_row(self) -> float:
        """The row of "Phase / Points / Total": its words and a little room."""
        return max(SUB_ROW, (ASCENT + DESCENT) * self.scale.label + 1.5 * mm)

    @cached_property
    def _name_row(self) -> float:
        """The row of names: two lines, or as many as the longest name needs at 9 pt."""
        heights = [self._name_label(name).height for name in self.players if name]
        return max([NAME_ROW, *(height + 2 * mm for height in heights)])

    @cached_property
    def _dealer_by_seat(self) -> bool:
        """True when some name does not fit the dealer column: the column then gives the
        dealer's seat, the number printed over each name."""
        width = self._dealer_width() - 2 * CENTRED_PAD
        return any(
            fit_label(name, FONT, width, size=self.scale.label).size < self.scale.label
            or line_width(name, FONT, self.scale.label) > width
            for name in self.players
        )

    def _header_bottom(self) -> float:
        """The y where the table may start (the same on every page)."""
        y = self.height - MARGIN - self._title_height - 1 * mm - self._rules_height
        if self.record is not None:
            y -= 1.5 * mm + self._summary_height
        if self.view_url:
            y -= LINK_HEIGHT * self._grow
        elif not self.players:
            y -= 7 * mm
        qr_bottom = self.height - MARGIN - QR_SIZE if self.view_url else self.height
        return min(y, qr_bottom)

    def _header(self, canvas: Canvas, page_label: str, *, first: bool) -> None:
        """Title, rules, the result so far and (for a game) the QR link: the title a
        heading, each other part a paragraph, the code a figure."""
        left, top = MARGIN, self.height - MARGIN
        below_rules = top - self._title_height - 1 * mm - self._rules_height
        with self._repeated(canvas, first):
            with tag(canvas, "H1"):
                self._form(canvas, "title", self._draw_title)
            with tag(canvas, "P"):
                self._form(canvas, "rules", self._draw_rules)
            if self._facts is not None:
                with tag(canvas, "P"):
                    self._form(canvas, "facts", self._draw_facts)
        if self.record is not None:
            with tag(canvas, "P"):
                run = TextRun(canvas)
                self._summary(page_label).draw(run, left, below_rules - 1.5 * mm)
                run.close()
            below_rules -= 1.5 * mm + self._summary_height
        with self._repeated(canvas, first):
            if self.view_url:
                with tag(canvas, "P"):
                    self._form(
                        canvas,
                        "link",
                        lambda c: self._link(c, left, below_rules - 1 * mm, self._header_width()),
                    )
                right = self.width - MARGIN
                corner = (right - QR_SIZE, top - QR_SIZE, right, top)
                with tag(canvas, "Figure", alt=self.view_url, bbox=corner):
                    self._form(
                        canvas,
                        "qr",
                        lambda c: draw_qr(c, self.view_url or "", *corner[:2], QR_SIZE),
                    )
            elif not self.players:
                with tag(canvas, "P"):
                    self._form(
                        canvas,
                        "date",
                        lambda c: self._date_and_place(
                            c, left, below_rules - 6 * mm, self._header_width()
                        ),
                    )

    def _draw_title(self, canvas: Canvas) -> None:
        run = TextRun(canvas)
        self._title.draw(run, MARGIN, self.height - MARGIN - ACCENTS * self._title.size)
        run.close()

    def _draw_rules(self, canvas: Canvas) -> None:
        self._rules.draw(canvas, MARGIN, self.height - MARGIN - self._title_height - 1 * mm)

    def _draw_facts(self, canvas: Canvas) -> None:
        if self._facts is None:
            return
        top = self.height - MARGIN - self._title_height - 1 * mm - self._rules.height
        run = TextRun(canvas)
        self._facts.draw(run, MARGIN, top - FACTS_GAP)
        run.close()

    def _date_and_place(self, canvas: Canvas, left: float, line: float, width: float) -> None:
        """A blank sheet's lines to write the date and the place on."""
        run = TextRun(canvas)
        date = fit_label(_("Date"), FONT, 20 * mm, size=self._type(9), min_size=self.floor)
        where = fit_label(_("Where"), FONT, 20 * mm, size=self._type(9), min_size=self.floor)
        date.draw(run, left, line + ASCENT * date.size)
        where.draw(run, left + 70 * mm, line + ASCENT * where.size)
        run.close()
        canvas.setStrokeColor(GREY)
        canvas.setLineWidth(0.5)
        canvas.line(left + date.width + 2 * mm, line - 1, left + 62 * mm, line - 1)
        canvas.line(left + 70 * mm + where.width + 2 * mm, line - 1, left + width, line - 1)

    def _link(self, canvas: Canvas, left: float, top: float, width: float) -> None:
        """The link for anyone without a camera, to read aloud and type.

        In a monospaced font whose 0/O and 1/l/I differ: with the game's short
        code, the app's address and the code in groups of four.
        """
        run = TextRun(canvas)
        caption = fit_label(
            _("Live scores: scan the code, or type this link:"),
            FONT_BOLD,
            width,
            size=self._type(9),
            min_size=self.floor,
        )
        caption.draw(run, left, top)
        link = fit_label(
            printed_link(self.view_url or "", self.code),
            FONT_MONO,
            width,
            size=self._type(10),
            min_size=self.floor,
        )
        link.draw(run, left, top - caption.height - 2)
        run.close()

    # --- the table of hands -------------------------------------------------------

    def _dealer_width(self) -> float:
        """The dealer column: wide enough for its heading's longest word, clear of the next."""
        words = pgettext("score sheet", "Dealer").split()
        need = max(line_width(word, FONT_BOLD, self.scale.label) for word in words)
        return max(self.scale.dealer_column, need + 4 * PAD)

    def _label_width(self) -> float:
        """The first column: wide enough for its heading's longest word and for "Tie",
        "Carried" and "End" at the sheet's smallest type (up to ``WIDER`` more; beyond that
        their short forms)."""
        if self.ten_hands:
            return TEN_HANDS_COLUMN
        room = self.scale.hand_column + WIDER - 2 * CENTRED_PAD  # else a word's short form
        words = [
            self._word_or_short(pgettext("score sheet", "Tie"), FONT_BOLD, room),
            self._word_or_short(pgettext("score sheet", "Carried"), FONT_BOLD, room),
            self._word_or_short(pgettext("score sheet", "End"), FONT_BOLD, room),
            *pgettext("score sheet", "Hand").split(),
        ]
        need = max(line_width(word, FONT_BOLD, self.floor) for word in words)
        return max(self.scale.hand_column, need + 2 * CENTRED_PAD + 0.5)

    def _table(self, canvas: Canvas, rows: list[Row], top: float, bottom: float) -> None:
        label_width = self._label_width()
        dealer_width = self._dealer_width()
        space = self.width - 2 * MARGIN - label_width - dealer_width
        player_width = min(MAX_PLAYER_COLUMN, space / self.columns)
        players_left = label_width + dealer_width
        table_width = players_left + player_width * self.columns
        left = (self.width - table_width) / 2

        body_top = top - self._name_row - self._sub_row
        row_height = self.row_height
        body_bottom = body_top - len(rows) * row_height

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
                            self._row_label(canvas, run, row, left, y, label_width, row_height)
                        with tag(run, "TD"):
                            self._dealer(run, row, left + label_width, y, dealer_width)
                        for column in range(self.columns):
                            x = left + players_left + column * player_width
                            with tag(run, "TD"):  # a player's phase, points and total
                                if column < len(row.cells):
                                    cell = row.cells[column]
                                    self._cell(run, cell, x, y, player_width, row_height)
            run.close()
            with artifact(canvas, "Layout"):
                self._lines(canvas, rows, left, top, body_bottom, label_width, player_width)

    def _dealer(self, run: TextRun, row: Row, x: float, top: float, width: float) -> None:
        if row.dealer:
            dealer = fit_label(
                self._dealer_word(row.dealer),
                FONT,
                width - 2 * CENTRED_PAD,
                size=self.scale.label,
            )
            dealer.draw_middle(run, x + width / 2, top, self.row_height, "centre")

    def _lines(
        self,
        canvas: Canvas,
        rows: list[Row],
        left: float,
        top: float,
        body_bottom: float,
        label_width: float,
        player_width: float,
    ) -> None:
        """The ticks, the winner's box and the grid: marks a reader skips (a tick is said by
        its cell's /ActualText)."""
        players_left = label_width + self._dealer_width()
        table_width = players_left + player_width * self.columns
        body_top = top - self._name_row - self._sub_row
        row_height = self.row_height
        _draw_ticks(canvas, self.ticks)
        self.ticks.clear()
        canvas.setLineWidth(1)
        canvas.setStrokeColor(INK)
        for x, y, width, height in self.boxes:  # the winner's total, boxed: not a colour alone
            canvas.rect(x, y, width, height, stroke=1, fill=0)
        self.boxes.clear()

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
                canvas.line(x, top - self._name_row, x, body_bottom)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8)
        canvas.line(left, body_top, left + table_width, body_top)
        canvas.line(
            left + players_left, top - self._name_row, left + table_width, top - self._name_row
        )
        canvas.line(left + label_width, top - self._name_row, left + label_width, body_bottom)
        for index in range(self.columns + 1):
            x = left + players_left + index * player_width
            canvas.line(x, top, x, body_bottom)
        for index, row in enumerate(rows):  # a strong line above the result
            if row.kind == "result":
                y = body_top - index * row_height
                canvas.line(left, y, left + table_width, y)
        canvas.setLineWidth(1.2)
        canvas.rect(left, body_bottom, table_width, top - body_bottom, stroke=1, fill=0)

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
        scale = self.scale
        row_top = top - self._name_row
        hand = (
            pgettext("score sheet", "Hand and phase")
            if self.ten_hands
            else pgettext("score sheet", "Hand")
        )
        shares = self._shares()
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
                height=self._name_row,
            )
            last = row_top - self._sub_row + 1.5 * mm  # the last line's baseline, as the headings'
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
                    heading.draw_middle(run, x + cell / 2, row_top, self._sub_row, "centre")
                    x += cell

    def _sub_headings(self, player_width: float) -> list[Label]:
        """'Phase / Points / Total', each in its column, all at the size the longest allows;
        their short forms ("Ph.") when a word does not fit its column at 9 pt."""
        words = self._headings_words()
        if any(
            line_width(heading, FONT, self.scale.label) > share * player_width - 2 * CENTRED_PAD
            for share, heading in zip(self._shares(), words, strict=True)
        ):
            words = self._headings_words(short=True)
        fitted = [
            fit_label(heading, FONT, share * player_width - 2 * CENTRED_PAD, size=self.scale.label)
            for share, heading in zip(self._shares(), words, strict=True)
        ]
        size = min(label.size for label in fitted)
        return [
            fit_label(heading, FONT, share * player_width - 2 * CENTRED_PAD, size=size)
            for share, heading in zip(self._shares(), words, strict=True)
        ]

    def _shares(self) -> tuple[float, ...]:
        return (0.45, 0.55) if self.ten_hands else (0.26, 0.38, 0.36)  # "sin desc." fits

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
        if self.ten_hands:
            return (points, total)
        return (phase, points, total)

    def _cell(
        self, run: TextRun, cell: Cell, x: float, top: float, width: float, height: float
    ) -> None:
        """One player's phase (ticked when made), points (and "out") and total."""
        scale = self.scale
        widths = [share * width for share in self._shares()]
        baseline = top - height / 2 - scale.number * MIDDLE
        if not self.ten_hands:
            phase_width = widths.pop(0)
            if cell.phase:
                self._phase(run, cell, Slot(x, top, phase_width, height, baseline))
            x += phase_width
        points_width, total_width = widths
        if cell.points.lstrip("-").isdigit():
            tick = scale.number * TEN_HANDS_TICK if self.ten_hands and cell.made else 0.0
            self._points(run, cell, Slot(x, top, points_width, height, baseline), tick)
        elif cell.points:  # "won", "tied", or "-" for a player who sat out a tiebreak
            font = FONT if cell.points == "-" else FONT_BOLD
            word = fit_label(
                self._word_or_short(cell.points, font, points_width - 2 * CENTRED_PAD),
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
        scale = self.scale
        if not cell.phase.isdigit():  # "all made", "on 7": up to two lines
            room = width - 2 * CENTRED_PAD
            if cell.reached and line_width(cell.phase, FONT, self.floor) > room:
                # a narrow column: the phase reached as a number, ticked when all are made
                cell = Cell(phase=str(cell.reached), made=cell.finished)
            else:
                words = fit_label(cell.phase, FONT, room, size=scale.label, lines=2, height=height)
                words.draw_middle(run, x + width / 2, top, height, "centre")
                return
        reserve = TICK + 1 / scale.number if cell.made else 0.0
        number = fit_label(cell.phase, FONT, width - 2 * PAD, size=scale.number, reserve=reserve)
        if not cell.made:
            run.put(x + width / 2, baseline, cell.phase, FONT, number.size, "centre")
            return
        tick = number.size * TICK
        if number.cut:  # "20" and its tick at 9 pt are too wide: a smaller tick
            number = fit_label(cell.phase, FONT, width - 2 * PAD, size=self.floor)
            tick = max(MIN_TICK, min(tick, width - 2 * PAD - number.width - 1))
        shift = (number.width + tick + 1) / 2
        with spoken(run, f"{cell.phase} {TICK_SAID}"):  # the tick is lines, drawn later
            run.put(x + width / 2 - shift, baseline, cell.phase, FONT, number.size)
        self.ticks.append((x + width / 2 + shift - tick, baseline, tick))

    def _points(self, run: TextRun, cell: Cell, slot: Slot, tick: float = 0.0) -> None:
        """The hand's points at the right, and "out" or "float" beside them or, when there is
        no room, above them; ``tick``: a ten-hands tick's size, at the left of the points."""
        x, top, width, height, baseline = slot
        scale = self.scale
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
                    self._word_or_short(cell.note, FONT, room), FONT, room, size=self.scale.label
                )
                word.at(run, x + width - PAD, baseline, "right")
                return
        if not tick:
            run.put(x + width - PAD, baseline, cell.points, FONT, points.size, "right")
            return
        self.ticks.append((x + PAD, baseline, tick))
        with spoken(run, f"{TICK_SAID} {cell.points}"):
            run.put(x + width - PAD, baseline, cell.points, FONT, points.size, "right")

    def _word_or_short(self, word: str, font: str, room: float) -> str:
        """A word of the sheet ("out", "won"), or its short form when it does not fit."""
        if line_width(word, font, self.floor) <= room:
            return word
        return short_forms().get(word, word)

    def _note_beside(self, cell: Cell, width: float, size: float) -> tuple[Label, Label] | None:
        """ "out" and the points side by side, the points down to 9 pt; None if no room."""
        note_width = line_width(cell.note, FONT, self.scale.label)
        while size >= self.floor - 1e-9:
            if note_width + line_width(cell.points, FONT, size) + 3 * PAD <= width:
                note = fit_label(cell.note, FONT, note_width + 0.01, size=self.scale.label)
                return note, fit_label(cell.points, FONT, width, size=size)
            size = round(size - 0.25, 2)
        return None

    def _type(self, size: float) -> float:
        """A size of the regular sheet, at least the sheet's smallest type."""
        return max(size, self.floor)

    @property
    def _grow(self) -> float:
        """How much taller a box of words is in large print."""
        return self.floor / MIN_FONT_SIZE

    @property
    def floor(self) -> float:
        """The smallest type on this sheet: 9 pt, 14 pt in large print."""
        return LARGE_FLOOR if self.large else MIN_FONT_SIZE

    def _total(self, run: TextRun, cell: Cell, slot: Slot) -> None:
        """The running total; the winner's is bigger, and boxed with room to spare."""
        x, top, width, height, baseline = slot
        scale = self.scale
        if not cell.strong:
            total = fit_label(cell.total, FONT_BOLD, width - 2 * PAD, size=scale.number)
            run.put(x + width - PAD, baseline, cell.total, FONT_BOLD, total.size, "right")
            return
        inner = width - 2 * BOX - 2 * PAD
        total = fit_label(cell.total, FONT_BOLD, inner, size=scale.number + 1)
        run.put(x + width / 2, baseline, cell.total, FONT_BOLD, total.size, "centre")
        self.boxes.append((x + BOX, top - height + BOX, width - 2 * BOX, height - 2 * BOX))

    def _dealer_word(self, dealer: str) -> str:
        """The dealer's name, or their seat when some name is too long for the column."""
        if not self._dealer_by_seat:
            return dealer
        return str(self.players.index(plain(dealer)) + 1)

    def _name_width(self) -> float:
        space = self.width - 2 * MARGIN - self._label_width() - self._dealer_width()
        return min(MAX_PLAYER_COLUMN, space / self.columns)

    def _name_label(self, name: str) -> Label:
        """A player's name, whole: wrapped (hyphenated only if it must be) down to 9 pt (14 in
        large print); a name that needs more than four lines even then gets them."""
        seat = 2 * (stringWidth("6", FONT, self.floor) + 1 * mm) if self._dealer_by_seat else 0
        width = self._name_width() - 2 * mm - seat
        for lines in (NAME_LINES, MOST_NAME_LINES):
            label = fit_label(
                name, FONT_BOLD, width, size=self.scale.name, min_size=self.floor, lines=lines
            )
            if not label.cut:
                break
        return label

    def _name_cell(self, run: TextRun, name: str, x: float, top: float, width: float) -> None:
        inner = width - 2 * mm
        if not name:
            label = fit_label(pgettext("score sheet", "Name"), FONT, inner, size=self.scale.label)
            label.draw(run, x + 1 * mm, top - 1 * mm)
            return
        label = self._name_label(name)
        if self._dealer_by_seat:  # the seat number the dealer column gives
            seat = str(self.players.index(name) + 1)
            run.put(x + 1 * mm, top - 1 * mm - ASCENT * self.floor, seat, FONT, self.floor)
        label.draw_middle(run, x + width / 2, top, self._name_row, "centre")

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
        room = width - 2 * CENTRED_PAD
        if row.kind in ("carried", "result"):
            words = fit_label(
                self._word_or_short(row.label, FONT_BOLD, room),
                FONT_BOLD,
                room,
                size=max(self.floor, min(size, 9)),
            )
            words.draw_middle(run, x + width / 2, top, height, "centre")
            return
        if not self.ten_hands or not row.label.isdigit():  # a hand's number, or "Tie"
            words = fit_label(self._word_or_short(row.label, FONT, room), FONT, room, size=size)
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

    # --- the bottom margin -------------------------------------------------------------

    @cached_property
    def _legend_box(self) -> Fitted:
        return fit(
            escape(self._legend()),
            self.width - 2 * MARGIN,
            20 * mm * self._grow**2,  # longer lines wrap more often in large print
            size=self._type(LEGEND_SIZE),
            min_size=self.floor,
        )

    @property
    def _strip_bottom(self) -> float:
        """The y of the points strip's foot: above the legend and the phases."""
        y = MARGIN + self._legend_box.height + 2 * mm
        return y if self.ten_hands else y + self._phase_layout.height

    @property
    def _footer_top(self) -> float:
        return self._strip_bottom + POINTS_STRIP * self._grow

    def _footer(self, canvas: Canvas, *, first: bool) -> Element | None:
        """Card points, the phases and a short legend: the foot of the page, drawn first (the
        table is measured from it) and read last; on later pages a form, as an artifact."""
        if not first:
            with artifact(canvas, "Pagination"):
                self._form(canvas, "footer", self._draw_footer)
            return None
        with tag(canvas, "Div") as foot:
            self._draw_footer(canvas)
        return foot

    def _draw_footer(self, canvas: Canvas) -> None:
        left, width = MARGIN, self.width - 2 * MARGIN
        legend = self._legend_box
        self._points_strip(canvas, left, width, self._strip_bottom)
        if not self.ten_hands:
            self._phase_block(canvas, left, MARGIN + legend.height + 2 * mm)
        with tag(canvas, "P"):
            legend.draw(canvas, left, MARGIN + legend.height)

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
        """The points of each kind of card: a table under its caption, a column (row, to a
        reader) for each kind."""
        rows = [*text.card_points(self.rules), (_("Going out"), 0)]
        label_width = 30 * mm * self._grow
        strip = POINTS_STRIP * self._grow
        cell = (width - label_width) / len(rows)
        heading = fit_label(
            _("Points for cards left in hand"),
            FONT_BOLD,
            label_width - 2 * mm,
            size=self._type(9),
            min_size=self.floor,
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
                name = fit_label(
                    cards, FONT, cell - 2 * CENTRED_PAD, size=self._type(9), min_size=self.floor
                )
                value = fit_label(
                    str(points),
                    FONT_BOLD,
                    cell - 2 * CENTRED_PAD,
                    size=self._type(10),
                    min_size=self.floor,
                )
                with tag(run, "TR"):
                    with tag(run, "TH", scope="Row"):
                        name.draw(run, x + cell / 2, y + strip - 1.2 * mm, "centre")
                    with tag(run, "TD"):
                        value.draw(run, x + cell / 2, y + 1.5 * mm + ASCENT * value.size, "centre")
            run.close()

    @cached_property
    def _phase_layout(self) -> PhaseBlock:
        """The phase list in columns above the legend, or a line saying where it is."""
        rows = text.phase_rows(self.rules)
        width = self.width - 2 * MARGIN
        columns = min(4, math.ceil(len(rows) / PHASE_ROWS_PER_COLUMN))
        per_column = math.ceil(len(rows) / columns)
        gutter = 5 * mm * self._grow
        size = self._type(PHASE_SIZE)
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
        if not cells or block > MAX_PHASE_BLOCK * self._grow:
            note = fit(
                _("<b>Phases:</b> see the phase reference cards."),
                width,
                5 * mm * self._grow,
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
        layout = self._phase_layout
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


@dataclass(frozen=True)
class PhaseBlock:
    """The phase list of a sheet's foot: its height, and where each phase goes (its words'
    left, their top above the block's foot, its number and its words), or a note instead."""

    height: float
    places: tuple[tuple[float, float, str, Fitted], ...] = ()
    note: Fitted | None = None


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
        title=bidi.isolate(title) if title else "",
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
    code: str | None = None,
    pagesize: str = "letter",
    large: bool = False,
    kept: Sequence[Kept] | None = None,
    played: Played | None = None,
) -> bytes:
    """A game's record as PDF bytes: every hand, the result, blank rows for hands to come.

    ``view_url``: the watch link (the QR code); ``code``: the game's short code,
    printed as the link to read aloud (``link.printed_link``). ``kept``: the
    state the store kept after each hand; with it nothing is replayed. ``played``:
    when the game started (in the time zone it is to be read in), how long it took and
    its table, printed under the rules and as the PDF's creation date.
    """
    return ScoreSheet(
        game.rules,
        title=bidi.isolate(title) if title else f"Phase 10: {bidi.listed(game.players)}",
        view_url=view_url,
        code=code,
        pagesize=pagesize,
        game=game,
        large=large,
        kept=kept,
        played=played,
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

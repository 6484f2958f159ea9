"""A round of a club night on paper (rule 11): a seating card for each table, and the room
list of who sits where.

- ``seating_cards``: a card per table to cut out and lay on it (its number, large, the
  round, the seats in order with who deals first in words, the table's watch code and a QR
  code of its watch link), four to a page with cut marks; then the room list.
- ``seating_list``: the room list alone: everyone in alphabetical order with their table
  and seat, to pin by the door.

Built from the engine's own seating (``rules.nights.TableSeating``), never recomputed.
Every name and word goes through ``labels.fit_label``, so a name prints whole in any
script (smaller, or on a second line, never cut) and nothing is under 9 pt. Words are in
the language being spoken when the renderer runs (``i18n.using`` around it).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from io import BytesIO

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .. import codes as short_codes
from ..i18n import _, pgettext
from ..rules.nights import TableSeating
from .bidi import isolate
from .cards import cut_lines
from .labels import Label, fit_label
from .layout import (
    FONT,
    FONT_BOLD,
    FONT_MONO,
    INK,
    LIGHT,
    MIN_FONT_SIZE,
    SHADE,
    LayoutError,
    TextRun,
    new_canvas,
    page_size,
)
from .link import site
from .night_tables import (
    GAP,
    MARGIN,
    TITLE_SIZE,
    Column,
    FittedRow,
    Line,
    draw_page_label,
    draw_table,
    fit_rows,
    headings,
    paginate,
    stack,
    stacked,
)
from .press import cut_boxes
from .qr import draw_qr
from .tagging import artifact, tag
from .text import code_words, number

CARD_WIDTH = 92 * mm  # four to a Letter or A4 page, with room for cut marks around them
CARD_HEIGHT = 125 * mm
CARD_COLUMNS, CARD_ROWS = 2, 2
CARDS_PER_PAGE = CARD_COLUMNS * CARD_ROWS
CARD_PAD = 5 * mm  # inside the cut: a slightly off cut takes no text
CARD_GAP = 3 * mm  # between a card's words and its QR code, and above its footer
CARD_QR = 28 * mm
TABLE_NUMBER_SIZE = 80  # read from across the room
SEAT_SIZES = (20, 18, 16, 15, 14, 13, 12, 11, 10, 9)  # the names, as large as six of them allow
NAME_FLOOR = 0.75  # of the table's size: the smallest a name is before it is cut or shrinks
SEAT_COLUMN = 9 * mm  # the seat's number before its name
SEAT_GAP = 1.2 * mm  # above and below a seat's words
LIST_COLUMNS = 2
LIST_COLUMN_GAP = 8 * mm


@dataclass(frozen=True)
class SeatingCards:
    """A round's seating cards, four to a page; ``build()`` returns the PDF.

    ``codes``: each table's watch code (16 letters, ``codes``) by table number, printed to
    read aloud; ``links``: each table's watch link by table number, printed as a QR code
    and as the link to type (with a code: the app's address and the code, as a game's
    sheet prints it). ``room_list``: the pages of who sits where (``RoomList``) follow
    the cards.
    """

    night: str
    round_number: int
    seating: Sequence[TableSeating]
    codes: Mapping[int, str] = field(default_factory=dict)
    links: Mapping[int, str] = field(default_factory=dict)
    pagesize: str = "letter"
    room_list: bool = True

    def build(self) -> bytes:
        width, height = page_size(self.pagesize)
        buffer = BytesIO()
        title = _(
            "%(night)s: seating for round %(round)s",
            night=isolate(self.night),
            round=self.round_number,
        )
        canvas = new_canvas(buffer, (width, height), title, _("Seating cards, one for each table"))
        canvas.setViewerPreference("PrintScaling", "None")  # a card is its size only at 100 %
        grid_width, grid_height = CARD_COLUMNS * CARD_WIDTH, CARD_ROWS * CARD_HEIGHT
        left, top = (width - grid_width) / 2, (height + grid_height) / 2
        tables = self.seating
        for start in range(0, len(tables), CARDS_PER_PAGE):
            on_page = tables[start : start + CARDS_PER_PAGE]
            for index, table in enumerate(on_page):
                row, column = divmod(index, CARD_COLUMNS)
                card = _Card(
                    self.night,
                    self.round_number,
                    table,
                    self.codes.get(table.number),
                    self.links.get(table.number),
                )
                card.draw(canvas, left + column * CARD_WIDTH, top - (row + 1) * CARD_HEIGHT)
            rows = math.ceil(len(on_page) / CARD_COLUMNS)
            columns = min(len(on_page), CARD_COLUMNS)
            _cut_marks(canvas, left, top, columns, rows)
            # the cards a print shop cuts out, and 3 mm of bleed around them
            cut_boxes(canvas, (left, top - rows * CARD_HEIGHT, left + columns * CARD_WIDTH, top))
            canvas.showPage()
        cut_boxes(canvas, None)  # the room list is a plain page
        if self.room_list:
            RoomList(self.night, self.round_number, self.seating, self.pagesize).draw(canvas)
        canvas.save()
        return buffer.getvalue()


def seating_cards(
    night: str,
    round_number: int,
    seating: Sequence[TableSeating],
    *,
    codes: Mapping[int, str] | None = None,
    links: Mapping[int, str] | None = None,
    pagesize: str = "letter",
    room_list: bool = True,
) -> bytes:
    """A round's seating cards as PDF bytes: one card per table, four to a page, then (with
    ``room_list``) who sits where; ``SeatingCards`` says what ``codes`` and ``links`` are."""
    return SeatingCards(
        night, round_number, seating, codes or {}, links or {}, pagesize, room_list
    ).build()


def seating_list(
    night: str, round_number: int, seating: Sequence[TableSeating], *, pagesize: str = "letter"
) -> bytes:
    """Who sits where in a round, as PDF bytes: every player in alphabetical order with
    their table and seat, so that a room finds its tables at a glance."""
    return RoomList(night, round_number, seating, pagesize).build()


# --- a card ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Card:
    """One table's card: what is printed on it, drawn with its bottom left at (x, y)."""

    night: str
    round_number: int
    table: TableSeating
    code: str | None
    link: str | None

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        """The card: to a reader, the night, "Table 3" as its heading, the round, the seats
        as a list, how to watch, and the QR code (a figure whose words are its link)."""
        inner = CARD_WIDTH - 2 * CARD_PAD
        left, top, floor = x + CARD_PAD, y + CARD_HEIGHT - CARD_PAD, y + CARD_PAD
        # nothing on the cut: a line there leaves a sliver on a card cut a hair off
        with tag(canvas, "Div"):
            run = TextRun(canvas)
            below = top
            night, table, table_number, round_number = self._heading(
                inner - (CARD_QR + CARD_GAP if self.link else 0)
            )
            for kind, labels in (
                ("P", (night,)),
                ("H1", (table, table_number)),  # "Table" over its number: read "Table 3"
                ("P", (round_number,)),
            ):
                with tag(run, kind):
                    for label in labels:
                        label.draw(run, left, below)
                        below -= label.height + 1.2 * mm
            if self.link:
                below = min(below, top - CARD_QR - 1.2 * mm)
            footer = self._footer(inner)
            footer_height = sum(label.height for label in footer) + mm * len(footer)
            line = below - 0.8 * mm
            seats_top = line - 2 * mm
            room = seats_top - floor - footer_height - CARD_GAP
            self._seats(canvas, run, left, seats_top, inner, room)
            at = floor + footer_height
            with tag(run, "P"):
                for label in footer:
                    label.draw(run, left, at)
                    at -= label.height + mm
            run.close()
            if self.link:
                corner = (left + inner - CARD_QR, top - CARD_QR)
                box = (*corner, corner[0] + CARD_QR, corner[1] + CARD_QR)
                with tag(canvas, "Figure", alt=code_words("table", self.link), bbox=box):
                    draw_qr(canvas, self.link, *corner, CARD_QR)
        with artifact(canvas, "Layout"):
            canvas.saveState()
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(0.8)
            canvas.line(left, line, left + inner, line)
            canvas.restoreState()

    def _heading(self, width: float) -> list[Label]:
        """The night, "Table", its number as large as it fits, and the round."""
        return [
            fit_label(self.night, FONT, width, size=10, lines=2),
            fit_label(pgettext("club night", "Table"), FONT_BOLD, width, size=14),
            fit_label(number(self.table.number), FONT_BOLD, width, size=TABLE_NUMBER_SIZE),
            fit_label(
                pgettext("club night", "Round %(number)s", number=number(self.round_number)),
                FONT_BOLD,
                width,
                size=14,
            ),
        ]

    def _footer(self, width: float) -> list[Label]:
        """How to watch the table's game: the link to type under the QR code, or the code.

        With a code, the app's address and the code are two lines, the code whole on its
        own: a line never breaks inside it (at one of its dashes), where it would read as
        two codes."""
        if self.link:
            caption = fit_label(
                _("Live scores: scan the code, or type this link:"),
                FONT_BOLD,
                width,
                size=9,
                lines=2,
            )
            if not self.code:
                return [caption, fit_label(self.link, FONT_MONO, width, size=10, lines=3)]
            return [
                caption,
                fit_label(site(self.link) + "/", FONT_MONO, width, size=10, lines=2),
                fit_label(short_codes.grouped(self.code), FONT_MONO, width, size=10),
            ]
        if self.code:
            return [
                fit_label(
                    _("Live scores: the code to read aloud"), FONT_BOLD, width, size=9, lines=2
                ),
                fit_label(short_codes.grouped(self.code), FONT_MONO, width, size=13),
            ]
        return []

    def _seats(
        self, canvas: Canvas, run: TextRun, left: float, top: float, width: float, room: float
    ) -> None:
        """The seats in order, each with its number; seat 1's player deals first, in words.

        The names are as large as the room for them allows, tried at one size for the whole
        table so that no one's name looks more important; a long name takes a second line
        (or, failing that, a smaller size)."""
        caption = fit_label(_("Seats, clockwise from seat 1"), FONT_BOLD, width, size=9, lines=2)
        rows = room - caption.height - 1.5 * mm
        for size in SEAT_SIZES:
            seats = [
                self._seat(seat, name, width, size)
                for seat, name in enumerate(self.table.seats, start=1)
            ]
            if sum(height for *_labels, height in seats) <= rows:
                break
        else:
            raise LayoutError(_("the seats do not fit on a seating card"))
        with tag(run, "P"):
            caption.draw(run, left, top)
        y = top - caption.height - 1.5 * mm
        with artifact(canvas, "Layout"):
            canvas.saveState()
            for index, (_seat, _name, deals, height) in enumerate(seats):
                if deals is not None:  # shaded too, but the words say it
                    canvas.setFillColor(SHADE)
                    canvas.rect(left, y - height, width, height, stroke=0, fill=1)
                if index:
                    canvas.setStrokeColor(LIGHT)
                    canvas.setLineWidth(0.5)
                    canvas.line(left, y, left + width, y)
                y -= height
            canvas.restoreState()
        y = top - caption.height - 1.5 * mm
        with tag(run, "L"):
            for seat, name, deals, height in seats:
                with tag(run, "LI"):
                    with tag(run, "Lbl"):
                        seat.draw(run, left + SEAT_COLUMN - 2 * mm, y - SEAT_GAP, "right")
                    with tag(run, "LBody"):
                        name.draw(run, left + SEAT_COLUMN, y - SEAT_GAP)
                        if deals is not None:
                            below = y - SEAT_GAP - name.height - 0.8 * mm
                            deals.draw(run, left + SEAT_COLUMN, below)
                y -= height

    def _seat(
        self, seat: int, name: str, width: float, size: float
    ) -> tuple[Label, Label, Label | None, float]:
        """(the seat's number, the name, "deals first" or None, the row's height)."""
        room = width - SEAT_COLUMN
        numeral = fit_label(number(seat), FONT_BOLD, SEAT_COLUMN - 2.5 * mm, size=size)
        # a long word wraps rather than shrinking far below its neighbours' size (issue 42: a
        # 40-letter word at 10.8 pt among 20 pt names); only a name too long for that shrinks
        floor = max(MIN_FONT_SIZE, NAME_FLOOR * size)
        label = fit_label(name, FONT, room, size=size, min_size=floor, lines=2)
        if label.cut:
            label = fit_label(name, FONT, room, size=size, lines=2)
        deals = None
        height = label.height + 2 * SEAT_GAP
        if name == self.table.dealer:
            deals = fit_label(_("deals first"), FONT_BOLD, room, size=min(size, 12), lines=2)
            height += deals.height + 0.8 * mm
        return numeral, label, deals, height


def _cut_marks(canvas: Canvas, left: float, top: float, columns: int, rows: int) -> None:
    """Crop marks in the margin, in line with every edge of the cards, outside the bleed."""
    with artifact(canvas, "Layout"):
        canvas.saveState()
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.5)
        cut_lines(canvas, left, top, columns, rows, CARD_WIDTH, CARD_HEIGHT)
        canvas.restoreState()


# --- who sits where ------------------------------------------------------------------------


def alphabetical(name: str) -> tuple[str, str]:
    """How the room list sorts a name: by its letters without accents, whatever the case
    ("Émile" with the E's), then as written."""
    letters = unicodedata.normalize("NFKD", name.casefold())
    return "".join(char for char in letters if not unicodedata.combining(char)), name


@dataclass(frozen=True)
class RoomList:
    """Every player of a round in alphabetical order, with their table and seat, in two
    columns a page; ``build()`` returns the PDF, ``draw`` adds its pages to another's."""

    night: str
    round_number: int
    seating: Sequence[TableSeating]
    pagesize: str = "letter"

    def build(self) -> bytes:
        width, height = page_size(self.pagesize)
        buffer = BytesIO()
        title = _(
            "%(night)s: who sits where in round %(round)s",
            night=isolate(self.night),
            round=self.round_number,
        )
        canvas = new_canvas(buffer, (width, height), title, _("Who sits where"))
        self.draw(canvas)
        canvas.save()
        return buffer.getvalue()

    def draw(self, canvas: Canvas) -> None:
        """The list's pages, from the canvas's next page on."""
        width, height = page_size(self.pagesize)
        places = sorted(
            (
                (name, table.number, seat)
                for table in self.seating
                for seat, name in enumerate(table.seats, start=1)
            ),
            key=lambda place: alphabetical(place[0]),
        )
        inner = width - 2 * MARGIN
        column_width = (inner - (LIST_COLUMNS - 1) * LIST_COLUMN_GAP) / LIST_COLUMNS
        numbers = 17 * mm
        columns = [
            Column(pgettext("club night", "Player"), column_width - 2 * numbers, "left"),
            Column(pgettext("club night", "Table"), numbers, "centre", bold=True),
            Column(pgettext("club night", "Seat"), numbers, "centre"),
        ]
        lines = [Line((name, number(table), number(seat))) for name, table, seat in places]
        header = [
            fit_label(self.night, FONT, inner, size=11, lines=2),
            fit_label(
                pgettext(
                    "club night",
                    "Round %(number)s: who sits where",
                    number=number(self.round_number),
                ),
                FONT_BOLD,
                inner,
                size=TITLE_SIZE,
                lines=2,
            ),
            fit_label(
                _("Find your name: your table and your seat are beside it. Seat 1 deals first."),
                FONT,
                inner,
                size=10,
                lines=3,
            ),
        ]
        heads = headings(columns)
        table_top = height - MARGIN - stacked(header) - GAP
        room = table_top - heads.height - (MARGIN + 2 * mm)
        blocks = _columns(fit_rows(lines, columns), room)
        pages = math.ceil(len(blocks) / LIST_COLUMNS)
        for page in range(pages):
            run = TextRun(canvas)
            kinds = ("P", "H1") if page == 0 else ("Artifact",) * len(header)  # repeated: skipped
            stack(run, header, MARGIN, height - MARGIN, kinds)
            for column in range(LIST_COLUMNS):
                index = page * LIST_COLUMNS + column
                if index < len(blocks):
                    left = MARGIN + column * (column_width + LIST_COLUMN_GAP)
                    draw_table(canvas, run, left, table_top, columns, heads, blocks[index])
            draw_page_label(run, page + 1, pages, width)
            run.close()
            canvas.showPage()


def _columns(rows: list[FittedRow], room: float) -> list[list[FittedRow]]:
    """The room list's columns: shared evenly when one page holds them all, else each
    column filled in turn."""
    share = math.ceil(len(rows) / LIST_COLUMNS)
    even = [rows[start : start + share] for start in range(0, len(rows), share or 1)]
    if all(sum(row.height for row in column) <= room for column in even):
        return even or [[]]
    return paginate(rows, lambda _column: room)

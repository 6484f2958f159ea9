"""A club night's printables (rule 11): each round's seating cards and room list, and the
night's standings.

- ``seating_cards``: a card per table to cut out and lay on it (its number, large, the
  round, the seats in order with who deals first in words, the table's watch code and a QR
  code of its watch link), four to a page with cut marks; then the room list.
- ``seating_list``: the room list alone: everyone in alphabetical order with their table
  and seat, to pin by the door.
- ``standings_sheet``: the night's leaderboard as ``rules.nights.night_standings`` ranks
  it, with the scheme in words, over as many pages as the room needs.

Built from the engine's own values (``Seating``, ``NightRow``), never recomputed. Every
name and word goes through ``labels.fit_label``, so a name prints whole in any script
(smaller, or on a second line, never cut) and nothing is under 9 pt; no text reaches a
``Paragraph``, so nothing a player typed is read as markup. Words are in the language
being spoken when the function runs (``i18n.using`` around it), as for every printable.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from io import BytesIO

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .. import codes as short_codes
from ..i18n import _, ngettext, pgettext
from ..rules.nights import NightRow, Scheme, TableSeating
from .bidi import isolate, joined
from .cards import cut_lines
from .labels import Label, fit_label
from .layout import (
    FONT,
    FONT_BOLD,
    FONT_MONO,
    INK,
    LIGHT,
    SHADE,
    LayoutError,
    TextRun,
    new_canvas,
    page_size,
)
from .link import printed_link
from .qr import draw_qr
from .tagging import artifact, tag
from .text import number

# --- seating cards --------------------------------------------------------------------

CARD_WIDTH = 92 * mm  # four to a Letter or A4 page, with room for cut marks around them
CARD_HEIGHT = 125 * mm
CARD_COLUMNS, CARD_ROWS = 2, 2
CARDS_PER_PAGE = CARD_COLUMNS * CARD_ROWS
CARD_PAD = 5 * mm  # inside the cut: a slightly off cut takes no text
CARD_QR = 28 * mm
TABLE_NUMBER_SIZE = 80  # read from across the room
SEAT_SIZES = (20, 18, 16, 15, 14, 13, 12, 11, 10, 9)  # the names, as large as six of them allow
SEAT_COLUMN = 9 * mm  # the seat's number before its name
SEAT_GAP = 1.2 * mm  # above and below a seat's words

# --- the room list and the standings ---------------------------------------------------

MARGIN = 12 * mm
GAP = 3 * mm
ROW = 6.5 * mm  # a row of one line; a long name's row is taller
CELL_PAD = 1.2 * mm  # between a cell's edge and its words
BODY_SIZE = 11
HEADING_SIZE = 9.5
TITLE_SIZE = 18
LIST_COLUMNS = 2
LIST_COLUMN_GAP = 8 * mm
PLACE_WIDTH = 16 * mm
NUMBER_WIDTH = 21 * mm  # each column of numbers in the standings


@dataclass(frozen=True)
class Column:
    """A column of a printed table: its heading, width and how its cells line up."""

    heading: str
    width: float
    align: str = "right"  # numbers line up on the right
    bold: bool = False


@dataclass(frozen=True)
class Line:
    """One row of a printed table: each cell's text, and whether it is printed in bold."""

    cells: tuple[str, ...]
    bold: bool = False


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
    """A round's seating cards as PDF bytes: one card per table, four to a page.

    ``codes``: each table's watch code (16 letters, ``codes``) by table number, printed to
    read aloud; ``links``: each table's watch link by table number, printed as a QR code
    and as the link to type (with a code: the app's address and the code, as a game's
    sheet prints it). ``room_list``: the pages of who sits where (``seating_list``) follow
    the cards.
    """
    codes, links = codes or {}, links or {}
    width, height = page_size(pagesize)
    buffer = BytesIO()
    title = _("%(night)s: seating for round %(round)s", night=isolate(night), round=round_number)
    canvas = new_canvas(buffer, (width, height), title, _("Seating cards, one for each table"))
    canvas.setViewerPreference("PrintScaling", "None")  # a card is its size only at 100 %
    grid_width, grid_height = CARD_COLUMNS * CARD_WIDTH, CARD_ROWS * CARD_HEIGHT
    left, top = (width - grid_width) / 2, (height + grid_height) / 2
    tables = seating
    for start in range(0, len(tables), CARDS_PER_PAGE):
        on_page = tables[start : start + CARDS_PER_PAGE]
        for index, table in enumerate(on_page):
            row, column = divmod(index, CARD_COLUMNS)
            card = _Card(
                night, round_number, table, codes.get(table.number), links.get(table.number)
            )
            card.draw(canvas, left + column * CARD_WIDTH, top - (row + 1) * CARD_HEIGHT)
        rows = math.ceil(len(on_page) / CARD_COLUMNS)
        columns = min(len(on_page), CARD_COLUMNS)
        _cut_marks(canvas, left, top, columns, rows)
        # the cards a print shop cuts out: nothing is printed past them, so no bleed
        trim = [left, top - rows * CARD_HEIGHT, left + columns * CARD_WIDTH, top]
        canvas.setTrimBox(trim)
        canvas.setBleedBox(trim)
        canvas.showPage()
    canvas.setTrimBox(None)  # the room list is a plain page
    canvas.setBleedBox(None)
    if room_list:
        _room_list(canvas, night, round_number, seating, width, height)
    canvas.save()
    return buffer.getvalue()


def seating_list(
    night: str, round_number: int, seating: Sequence[TableSeating], *, pagesize: str = "letter"
) -> bytes:
    """Who sits where in a round, as PDF bytes: every player in alphabetical order with
    their table and seat, so that a room finds its tables at a glance."""
    width, height = page_size(pagesize)
    buffer = BytesIO()
    title = _(
        "%(night)s: who sits where in round %(round)s", night=isolate(night), round=round_number
    )
    canvas = new_canvas(buffer, (width, height), title, _("Who sits where"))
    _room_list(canvas, night, round_number, seating, width, height)
    canvas.save()
    return buffer.getvalue()


def standings_sheet(
    night: str,
    played_on: str,
    rows: Sequence[NightRow],
    scheme: Scheme,
    *,
    rounds: int,
    tables_per_round: Sequence[int] | None = None,
    final: bool = True,
    pagesize: str = "letter",
) -> bytes:
    """The night's standings as PDF bytes, in the order ``night_standings`` gives.

    ``played_on``: the night's date, already written in the reader's language;
    ``rounds``: the rounds played; ``tables_per_round``: the number of tables in each
    round, said under the title. ``final``: the last round is over (the winner is named);
    else the standings so far (the leader is). Under the placement scheme a row has its
    points, games, total score and phases made; under the cumulative one its points are its
    total score, printed once. Shared places read "2=" on each row that shares them.
    """
    width, height = page_size(pagesize)
    buffer = BytesIO()
    subtitle = (
        ngettext(
            "Final standings after %(num)s round", "Final standings after %(num)s rounds", rounds
        )
        if final
        else ngettext("Standings after %(num)s round", "Standings after %(num)s rounds", rounds)
    )
    title = _("%(night)s: %(standings)s", night=isolate(night), standings=subtitle)
    canvas = new_canvas(buffer, (width, height), title, scheme.label)
    sheet = _Standings(night, played_on, rows, scheme, rounds, tables_per_round, final, subtitle)
    sheet.draw(canvas, width, height)
    canvas.save()
    return buffer.getvalue()


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
        with artifact(canvas, "Layout"):
            canvas.saveState()
            canvas.setStrokeColor(LIGHT)
            canvas.setLineWidth(0.3)
            canvas.rect(x, y, CARD_WIDTH, CARD_HEIGHT, stroke=1, fill=0)  # a faint edge to cut on
            canvas.restoreState()
        with tag(canvas, "Div"):
            run = TextRun(canvas)
            below = top
            night, table, table_number, round_number = self._heading(
                inner - (CARD_QR + GAP if self.link else 0)
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
            room = seats_top - floor - footer_height - GAP
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
                with tag(canvas, "Figure", alt=self.link, bbox=box):
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
        """How to watch the table's game: the link to type under the QR code, or the code."""
        if self.link:
            return [
                fit_label(
                    _("Live scores: scan the code, or type this link:"),
                    FONT_BOLD,
                    width,
                    size=9,
                    lines=2,
                ),
                fit_label(printed_link(self.link, self.code), FONT_MONO, width, size=10, lines=3),
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
        label = fit_label(name, FONT, room, size=size, lines=2)
        deals = None
        height = label.height + 2 * SEAT_GAP
        if name == self.table.dealer:
            deals = fit_label(_("deals first"), FONT_BOLD, room, size=min(size, 12), lines=2)
            height += deals.height + 0.8 * mm
        return numeral, label, deals, height


def _cut_marks(canvas: Canvas, left: float, top: float, columns: int, rows: int) -> None:
    """Short lines in the margin, in line with every edge of the cards, to cut along."""
    with artifact(canvas, "Layout"):
        canvas.saveState()
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.5)
        cut_lines(canvas, left, top, columns, rows, CARD_WIDTH, CARD_HEIGHT)
        canvas.restoreState()


# --- tables of rows, over pages ------------------------------------------------------------


@dataclass(frozen=True)
class _Row:
    """A row fitted to its columns: each cell's label, and the row's height."""

    labels: tuple[Label, ...]
    height: float


def _fit_rows(lines: Sequence[Line], columns: Sequence[Column]) -> list[_Row]:
    rows = []
    for line in lines:
        labels = tuple(
            fit_label(
                words,
                FONT_BOLD if line.bold or column.bold else FONT,
                column.width - 2 * CELL_PAD,
                size=BODY_SIZE,
                lines=3,
            )
            for words, column in zip(line.cells, columns, strict=True)
        )
        height = max(ROW, max(label.height for label in labels) + 2 * CELL_PAD)
        rows.append(_Row(labels, height))
    return rows


def _headings(columns: Sequence[Column]) -> _Row:
    labels = tuple(
        fit_label(
            column.heading, FONT_BOLD, column.width - 2 * CELL_PAD, size=HEADING_SIZE, lines=2
        )
        for column in columns
    )
    return _Row(labels, max(ROW, max(label.height for label in labels) + 2 * CELL_PAD))


def _paginate(rows: Sequence[_Row], rooms: Callable[[int], float]) -> list[list[_Row]]:
    """The rows of each block (a page, or a column of one), in order: block ``n`` holds
    ``rooms(n)`` points of rows, and at least one row."""
    blocks: list[list[_Row]] = [[]]
    used = 0.0
    for row in rows:
        if blocks[-1] and used + row.height > rooms(len(blocks) - 1):
            blocks.append([])
            used = 0.0
        blocks[-1].append(row)
        used += row.height
    return blocks


def _draw_table(
    canvas: Canvas,
    run: TextRun,
    left: float,
    top: float,
    columns: Sequence[Column],
    headings: _Row,
    rows: Sequence[_Row],
    row_heading: int = 0,
) -> None:
    """The headings and the rows under them, every other row shaded, in a box; to a
    reader, a table whose column ``row_heading`` (the player's) heads each row."""
    width = sum(column.width for column in columns)
    body = top - headings.height
    bottom = body - sum(row.height for row in rows)
    with tag(run, "Table"):
        with artifact(canvas, "Layout"):
            canvas.saveState()
            canvas.setFillColor(SHADE)
            y = body
            for index, row in enumerate(rows):
                if index % 2:
                    canvas.rect(left, y - row.height, width, row.height, stroke=0, fill=1)
                y -= row.height
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(0.8)
            canvas.line(left, body, left + width, body)
            canvas.setLineWidth(1)
            canvas.rect(left, bottom, width, top - bottom, stroke=1, fill=0)
            canvas.restoreState()
        y = top
        for index, row in enumerate((headings, *rows)):
            x = left
            with tag(run, "TR"):
                for place, (label, column) in enumerate(zip(row.labels, columns, strict=True)):
                    at = {
                        "left": x + CELL_PAD,
                        "centre": x + column.width / 2,
                        "right": x + column.width - CELL_PAD,
                    }[column.align]
                    if index == 0:
                        cell = tag(run, "TH", scope="Column")
                    elif place == row_heading:
                        cell = tag(run, "TH", scope="Row")
                    else:
                        cell = tag(run, "TD")
                    with cell:
                        label.draw_middle(run, at, y, row.height, column.align)
                    x += column.width
            y -= row.height


def _page_label(run: TextRun, number_: int, pages: int, width: float) -> None:
    """'Page 2 of 5.' at the foot of the page, when there is more than one."""
    if pages > 1:
        words = _("Page %(number)s of %(pages)s.", number=number_, pages=pages)
        label = fit_label(words, FONT, width - 2 * MARGIN, size=9)
        with artifact(run, "Pagination"):
            label.at(run, width / 2, MARGIN - 3 * mm, "centre")


def _stack(
    run: TextRun, labels: Sequence[Label], left: float, top: float, kinds: Sequence[str] = ()
) -> float:
    """Labels one under another from ``top``, each a paragraph or what ``kinds`` says (a
    heading: "H1"; an artifact, for a reader to skip: "Artifact"); returns the y under the
    last."""
    for index, label in enumerate(labels):
        kind = kinds[index] if index < len(kinds) else "P"
        with artifact(run, "Pagination") if kind == "Artifact" else tag(run, kind):
            label.draw(run, left, top)
        top -= label.height + 1.5 * mm
    return top


def _stacked(labels: Sequence[Label]) -> float:
    return sum(label.height + 1.5 * mm for label in labels)


# --- who sits where ------------------------------------------------------------------------


def alphabetical(name: str) -> tuple[str, str]:
    """How the room list sorts a name: by its letters without accents, whatever the case
    ("Émile" with the E's), then as written."""
    letters = unicodedata.normalize("NFKD", name.casefold())
    return "".join(char for char in letters if not unicodedata.combining(char)), name


def _room_list(
    canvas: Canvas,
    night: str,
    round_number: int,
    seating: Sequence[TableSeating],
    width: float,
    height: float,
) -> None:
    """Every player of the round in alphabetical order, with their table and seat, in two
    columns a page."""
    places = sorted(
        (
            (name, table.number, seat)
            for table in seating
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
        fit_label(night, FONT, inner, size=11, lines=2),
        fit_label(
            pgettext("club night", "Round %(number)s: who sits where", number=number(round_number)),
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
    headings = _headings(columns)
    table_top = height - MARGIN - _stacked(header) - GAP
    room = table_top - headings.height - (MARGIN + 2 * mm)
    blocks = _columns(_fit_rows(lines, columns), room)
    pages = math.ceil(len(blocks) / LIST_COLUMNS)
    for page in range(pages):
        run = TextRun(canvas)
        kinds = ("P", "H1") if page == 0 else ("Artifact",) * len(header)  # repeated: skipped
        _stack(run, header, MARGIN, height - MARGIN, kinds)
        for column in range(LIST_COLUMNS):
            index = page * LIST_COLUMNS + column
            if index < len(blocks):
                left = MARGIN + column * (column_width + LIST_COLUMN_GAP)
                _draw_table(canvas, run, left, table_top, columns, headings, blocks[index])
        _page_label(run, page + 1, pages, width)
        run.close()
        canvas.showPage()


def _columns(rows: list[_Row], room: float) -> list[list[_Row]]:
    """The room list's columns: shared evenly when one page holds them all, else each
    column filled in turn."""
    share = math.ceil(len(rows) / LIST_COLUMNS)
    even = [rows[start : start + share] for start in range(0, len(rows), share or 1)]
    if all(sum(row.height for row in column) <= room for column in even):
        return even or [[]]
    return _paginate(rows, lambda _column: room)


# --- the night's standings ---------------------------------------------------------------


@dataclass(frozen=True)
class _Standings:
    """The standings sheet's words and pages."""

    night: str
    played_on: str
    rows: Sequence[NightRow]
    scheme: Scheme
    rounds: int
    tables_per_round: Sequence[int] | None
    final: bool
    subtitle: str

    def draw(self, canvas: Canvas, width: float, height: float) -> None:
        inner = width - 2 * MARGIN
        columns = self._columns(inner)
        headings = _headings(columns)
        first, later = self._header(inner), self._short_header(inner)
        bottom = MARGIN + 2 * mm  # the page label sits under it
        rooms = [
            height - MARGIN - _stacked(header) - GAP - headings.height - bottom
            for header in (first, later)
        ]
        rows = _fit_rows(self._lines(), columns)
        pages = _paginate(rows, lambda page: rooms[min(page, 1)])
        for index, page_rows in enumerate(pages):
            header = first if index == 0 else later
            run = TextRun(canvas)
            _stack(
                run, header, MARGIN, height - MARGIN, ("H1", "H2") if index == 0 else ("Artifact",)
            )
            top = height - MARGIN - _stacked(header) - GAP
            _draw_table(canvas, run, MARGIN, top, columns, headings, page_rows, row_heading=1)
            _page_label(run, index + 1, len(pages), width)
            run.close()
            canvas.showPage()

    def _columns(self, inner: float) -> list[Column]:
        numbers = [
            Column(pgettext("night standings", "Games"), NUMBER_WIDTH),
            Column(pgettext("night standings", "Total score"), NUMBER_WIDTH),
            Column(pgettext("night standings", "Phases made"), NUMBER_WIDTH),
        ]
        if self.scheme is Scheme.PLACEMENT:
            numbers.insert(0, Column(pgettext("night standings", "Points"), NUMBER_WIDTH))
        name = inner - PLACE_WIDTH - NUMBER_WIDTH * len(numbers)
        return [
            Column(pgettext("night standings", "Place"), PLACE_WIDTH, "centre"),
            Column(pgettext("night standings", "Player"), name, "left"),
            *numbers,
        ]

    @property
    def _shared(self) -> Counter[int]:
        return Counter(row.place for row in self.rows)

    @property
    def _first(self) -> list[str]:
        """Who is first, once anyone has played a game."""
        return [row.name for row in self.rows if row.place == 1 and row.games]

    def _lines(self) -> list[Line]:
        shared, first = self._shared, self._first
        lines = []
        for row in self.rows:
            place = number(row.place)
            if shared[row.place] > 1:
                # Translators: a place several players share in the night's standings ("2=").
                place = pgettext("night standings", "%(place)s=", place=place)
            name = row.name
            if row.name in first:
                name = self._first_words(row.name, len(first))
            numbers = [row.games, row.score, row.phases]
            if self.scheme is Scheme.PLACEMENT:
                numbers.insert(0, row.points)
            cells = (place, name, *(number(value) for value in numbers))
            lines.append(Line(cells, bold=row.name in first))
        return lines

    def _first_words(self, name: str, sharing: int) -> str:
        """A first-placed row's name, with its place in words."""
        if not self.final:
            return pgettext("night standings", "%(name)s (leads)", name=isolate(name))
        if sharing > 1:
            return pgettext("night standings", "%(name)s (shares the win)", name=isolate(name))
        return pgettext("night standings", "%(name)s (winner)", name=isolate(name))

    def _header(self, inner: float) -> list[Label]:
        """The first page's: the night, the standings, when, the scheme, the winner."""
        labels = [
            fit_label(self.night, FONT_BOLD, inner, size=TITLE_SIZE, lines=2),
            fit_label(self.subtitle, FONT_BOLD, inner, size=13, lines=2),
            fit_label(self._facts(), FONT, inner, size=10, lines=3),
            fit_label(self.scheme.label, FONT_BOLD, inner, size=10, lines=2),
            fit_label(self.scheme.explained, FONT, inner, size=10, lines=4),
        ]
        first = self._first
        if first:
            if not self.final:
                words = _("In the lead: %(names)s", names=joined(first))
            elif len(first) > 1:
                words = _("The win is shared: %(names)s", names=joined(first))
            else:
                words = _("Winner of the night: %(name)s", name=isolate(first[0]))
            labels.append(fit_label(words, FONT_BOLD, inner, size=12, lines=4))
        if any(count > 1 for count in self._shared.values()):
            legend = _("A place with “=” is shared: the scheme cannot tell those players apart.")
            labels.append(fit_label(legend, FONT, inner, size=9, lines=2))
        return labels

    def _short_header(self, inner: float) -> list[Label]:
        """Every later page's: the night and the standings, on one line if they fit."""
        words = _("%(night)s: %(standings)s", night=isolate(self.night), standings=self.subtitle)
        return [fit_label(words, FONT_BOLD, inner, size=12, lines=3)]

    def _facts(self) -> str:
        """'Friday 27 November 2026 · 4 tables in each round · 14 players'."""
        said = [self.played_on] if self.played_on else []
        tables = list(self.tables_per_round or [])
        if tables and len(set(tables)) == 1:
            said.append(
                ngettext("%(num)s table in each round", "%(num)s tables in each round", tables[0])
            )
        elif tables:
            said.append(
                _("tables in each round: %(tables)s", tables=", ".join(map(number, tables)))
            )
        said.append(ngettext("%(num)s player", "%(num)s players", len(self.rows)))
        return " \u00b7 ".join(said)

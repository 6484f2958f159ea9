"""Score sheets: blank, or a game's own record with its players, hands and QR link.

Portrait. A row per hand: its number, who dealt, and for each player three
columns (the phase played, with a tick when made; the hand's points, marked
"out" for who went out; the running total). In a ten-hands game everyone moves
on each hand, so each row is labelled with its phase and a player needs only
points and total. A game's sheet fills in every hand played, ends with who
reached which phase and who won, and leaves blank rows for the hands to come;
a long game carries its totals on to further pages. The card points and the
phase list sit in the bottom margin so nobody has to look them up mid-game.

``ScoreSheet`` puts the parts on pages, each part a module of its own: the top
(``sheet_header``), the table of hands (``sheet_table``, its cells ``sheet_cells``)
and the foot (``sheet_foot``), sharing the page (``sheet_page``). Every word in a
cell, heading or caption is fitted by ``labels.fit_label``: smaller until it fits,
never over its neighbour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from io import BytesIO

from reportlab.lib.units import mm

from ..i18n import _, ngettext, pgettext
from ..rules.game import Game
from ..rules.house_rules import rules_line
from ..rules.options import Progression
from ..rules.replay import Kept
from ..rules.ruleset import Rules
from . import bidi
from .layout import LayoutError, new_canvas, page_size, plain
from .record import Cell, Played, Record, Row, game_record
from .sheet_foot import SheetFoot, legend
from .sheet_header import SheetHeader, page_label
from .sheet_page import GAP, SheetPage
from .sheet_table import HandsTable
from .tagging import read_last

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_LARGE_PLAYERS = 4
MAX_ROW = 21 * mm  # ten-hands rows are taller: there are only ten of them
MIN_ROW = 6 * mm
SQUEEZE = 0.88  # a finished game's rows may be this much shorter to stay on one page
LAST_PAGE_ROWS = 4  # a further page carries at least this many rows (the result included)


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
        width, height = page_size(self.pagesize)
        ten_hands = self.rules.progression is Progression.TEN_HANDS
        self.page = SheetPage(width, height, large=self.large, ten_hands=ten_hands)
        self.row_height = self.page.scale.row
        self.record: Record | None = (
            game_record(self.game, self.kept) if self.game is not None else None
        )
        # the parts, each drawing its own share of every page
        self.header = SheetHeader(
            self.page,
            rules_line(self.rules),
            self.title,
            self.players,
            self.view_url,
            self.code,
            self.played,
            self.record,
        )
        self.table = HandsTable(self.page, self.rules, self.players, self.columns)
        self.foot = SheetFoot(self.page, self.rules, legend(self.rules))

    def build(self) -> bytes:
        """Each page: the foot first (the table is measured from it, and it is read last),
        then the top, then the page's rows."""
        buffer = BytesIO()
        canvas = new_canvas(
            buffer,
            (self.page.width, self.page.height),
            self.title,
            _("Score sheet - %(rules)s", rules=rules_line(self.rules)),
            created=self.played.started if self.played is not None else None,
        )
        header = self.header.bottom()
        try:
            pages = self._pages(self._space(header))
            alone = False
        except LayoutError:  # the top fills the first page: the hands start on the next
            header = self.header.continued_bottom()
            pages = [[], *self._pages(self._space(header))]
            alone = True
        for number, rows in enumerate(pages, start=1):
            foot = self.foot.draw(canvas, first=number == 1)
            label = page_label(number, len(pages)) if len(pages) > 1 else ""
            if alone and number > 1:
                self.header.draw_continued(canvas, label)
            else:
                self.header.draw(canvas, label, first=number == 1)
            if rows:
                self.table.draw(canvas, rows, header - GAP, self.row_height)
            read_last(foot)
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _space(self, header: float) -> float:
        """The room for rows between the top ending at ``header`` and the foot."""
        table = self.table.name_row + self.table.sub_row
        return header - GAP - table - (self.foot.top + GAP)

    def _pages(self, space: float) -> list[list[Row]]:
        """The rows of each page: a long game carries its totals on to the next page."""
        if self.page.ten_hands:
            rows = list(self.record.rows) if self.record else []
            numbered = sum(1 for row in rows if row.label.isdigit())
            count = len(self.rules.sequence)
            rows += [Row(str(n), kind="blank") for n in range(numbered + 1, count + 1)]
            self.row_height = self._ten_hands_row(space, len(rows))
            return [rows]
        capacity = int(space // self.page.scale.row)
        if capacity < LAST_PAGE_ROWS + 1:
            if self.large:  # the real reason, and what to do (issue 42)
                raise LayoutError(
                    _(
                        "in large print, the names and the game's details at the top leave no "
                        "room for the hands on a page: print it in regular size"
                    )
                )
            raise LayoutError(_("no room for the hands on this page"))
        carried_label = pgettext("score sheet", "Carried")
        if self.record is None:
            blank = [Row(str(n), kind="blank") for n in range(1, capacity)]
            return [[Row(carried_label, kind="carried"), *blank]]
        pending = list(self.record.rows)
        if self.record.over and capacity < len(pending) <= space // (self.page.scale.row * SQUEEZE):
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

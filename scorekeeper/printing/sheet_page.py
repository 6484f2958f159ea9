"""What every part of a score sheet shares: the page, its type sizes and its repeated forms.

A sheet is drawn by parts, each a module of its own: the top of the page
(``sheet_header``), the table of hands (``sheet_table``, its cells in ``sheet_cells``)
and the bottom margin (``sheet_foot``); ``sheets`` puts them on pages. Each part is
given the ``SheetPage``: the page's size, regular or large print, whether each row is
one of ten hands, the columns a player's cell is shared into, and the forms every
page repeats.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..i18n import pgettext
from .labels import line_width
from .layout import MIN_FONT_SIZE
from .tagging import artifact

MARGIN = 12 * mm
GAP = 3.5 * mm
PAD = 0.6 * mm  # between a cell's edge (or a neighbour) and its words
CENTRED_PAD = 0.3 * mm  # the same for words centred in their cell


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


@dataclass
class SheetPage:
    """A sheet's page (its size in points), its print (regular or large), whether its rows
    are ten hands', and the names of the forms already drawn (``form``)."""

    width: float
    height: float
    large: bool
    ten_hands: bool
    forms: set[str] = field(default_factory=set)

    @property
    def scale(self) -> Scale:
        return LARGE if self.large else REGULAR

    @property
    def floor(self) -> float:
        """The smallest type on this sheet: 9 pt, 14 pt in large print."""
        return LARGE_FLOOR if self.large else MIN_FONT_SIZE

    @property
    def grow(self) -> float:
        """How much taller a box of words is in large print."""
        return self.floor / MIN_FONT_SIZE

    def type_size(self, size: float) -> float:
        """A size of the regular sheet, at least the sheet's smallest type."""
        return max(size, self.floor)

    @property
    def shares(self) -> tuple[float, ...]:
        """How a player's cell is shared between its columns: phase, points and total (points
        and total in a ten-hands game)."""
        return (0.45, 0.55) if self.ten_hands else (0.26, 0.38, 0.36)  # "sin desc." fits

    def word_or_short(self, word: str, font: str, room: float) -> str:
        """A word of the sheet ("out", "won"), or its short form when it does not fit."""
        if line_width(word, font, self.floor) <= room:
            return word
        return short_forms().get(word, word)

    def form(self, canvas: Canvas, name: str, draw: Callable[[Canvas], object]) -> None:
        """What every page repeats, drawn once as a form each page refers to."""
        if name not in self.forms:
            self.forms.add(name)
            canvas.beginForm(name)
            draw(canvas)
            canvas.endForm()
        canvas.doForm(name)

    @staticmethod
    def repeated(canvas: Canvas, first: bool) -> AbstractContextManager[object]:
        """What a page repeats from the first: read there, skipped as an artifact after."""
        return nullcontext() if first else artifact(canvas, "Pagination")

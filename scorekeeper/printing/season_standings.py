"""A season's standings on paper (rule 12): the board as ``rules.seasons.season_standings``
ranks it, made as the night's standings are (``night_standings``, ``night_tables``): the
same title and facts, a table of labelled rows over as many pages as the club needs,
tagged for screen readers, every name whole in any script and nothing under 9 pt.

Built from the engine's own rows (``SeasonRow``), never recomputed. Words are in the
language being spoken when the renderer runs (``i18n.using`` around it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import _, ngettext, pgettext
from ..rules.nights import Scheme
from ..rules.seasons import SeasonRow, explained
from .bidi import isolate, joined
from .labels import Label, fit_label
from .layout import FONT, FONT_BOLD
from .night_standings import NUMBER_WIDTH, PLACE_WIDTH
from .night_tables import (
    TITLE_SIZE,
    Column,
    Line,
    board_pdf,
)
from .text import number


@dataclass(frozen=True)
class SeasonSheet:
    """The season's board, in the order ``season_standings`` gives; ``build()`` returns the
    PDF.

    ``days``: its first and last day, already written in the reader's language;
    ``nights``: the nights played so far; ``final``: the season is over (its winner is
    named), else the standings so far. ``best``: only each player's best N nights count
    (their "Nights" cell then reads "3 of 5"). Shared places read "2=".
    """

    season: str
    days: str
    rows: Sequence[SeasonRow]
    scheme: Scheme
    nights: int
    best: int | None = None
    final: bool = False
    pagesize: str = "letter"

    @property
    def subtitle(self) -> str:
        count = self.nights
        if self.final:
            return ngettext(
                "Final season standings after %(num)s night",
                "Final season standings after %(num)s nights",
                count,
            )
        return ngettext(
            "Season standings after %(num)s night", "Season standings after %(num)s nights", count
        )

    def build(self) -> bytes:
        title = _("%(night)s: %(standings)s", night=isolate(self.season), standings=self.subtitle)
        return board_pdf(self.pagesize, title, self.scheme.label, self._lines(), self._parts)

    def _parts(self, inner: float) -> tuple[list[Column], list[Label], list[Label]]:
        return self._columns(inner), self._header(inner), self._short_header(inner)

    def _columns(self, inner: float) -> list[Column]:
        numbers = [
            Column(pgettext("season standings", "Nights"), NUMBER_WIDTH),
            Column(pgettext("season standings", "Games"), NUMBER_WIDTH),
            Column(pgettext("season standings", "Total score"), NUMBER_WIDTH),
        ]
        if self.scheme is Scheme.PLACEMENT:
            numbers.insert(0, Column(pgettext("season standings", "Points"), NUMBER_WIDTH))
        name = inner - PLACE_WIDTH - NUMBER_WIDTH * len(numbers)
        return [
            Column(pgettext("season standings", "Place"), PLACE_WIDTH, "centre"),
            Column(pgettext("season standings", "Player"), name, "left"),
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
                # Translators: a place several players share in the season's standings ("2=").
                place = pgettext("season standings", "%(place)s=", place=place)
            nights = number(row.nights)
            if row.counted < row.nights:
                nights = pgettext(
                    "season standings",
                    "%(counted)s of %(came)s",
                    counted=number(row.counted),
                    came=number(row.nights),
                )
            cells = [place, row.name, nights, number(row.games), number(row.score)]
            if self.scheme is Scheme.PLACEMENT:
                cells.insert(2, number(row.points))
            lines.append(Line(tuple(cells), bold=row.name in first))
        return lines

    def _header(self, inner: float) -> list[Label]:
        """The first page's: the season, the standings, its days, the scheme, the leader."""
        said = [self.days, ngettext("%(num)s player", "%(num)s players", len(self.rows))]
        counting = [explained(self.scheme)]
        if self.best is not None:
            counting.append(
                ngettext(
                    "Each player's best night counts.",
                    "Each player's best %(num)s nights count.",
                    self.best,
                )
            )
        labels = [
            fit_label(self.season, FONT_BOLD, inner, size=TITLE_SIZE, lines=2),
            fit_label(self.subtitle, FONT_BOLD, inner, size=13, lines=2),
            fit_label(" \u00b7 ".join(said), FONT, inner, size=10, lines=3),
            fit_label(self.scheme.label, FONT_BOLD, inner, size=10, lines=2),
            fit_label(" ".join(counting), FONT, inner, size=10, lines=5),
        ]
        first = self._first
        if first:
            if not self.final:
                words = _("In the lead: %(names)s", names=joined(first))
            elif len(first) > 1:
                words = _("The season is shared: %(names)s", names=joined(first))
            else:
                words = _("Winner of the season: %(name)s", name=isolate(first[0]))
            labels.append(fit_label(words, FONT_BOLD, inner, size=12, lines=4))
        if any(count > 1 for count in self._shared.values()):
            legend = _("A place with “=” is shared: the scheme cannot tell those players apart.")
            labels.append(fit_label(legend, FONT, inner, size=9, lines=2))
        return labels

    def _short_header(self, inner: float) -> list[Label]:
        words = _("%(night)s: %(standings)s", night=isolate(self.season), standings=self.subtitle)
        return [fit_label(words, FONT_BOLD, inner, size=12, lines=3)]

"""A club night's standings on paper (rule 11): the leaderboard as
``rules.nights.night_standings`` ranks it, with the scheme in words, over as many pages
as the room needs.

Built from the engine's own rows (``NightRow``), never recomputed. Every name and word
goes through ``labels.fit_label`` (``night_tables``), so a name prints whole in any
script and nothing is under 9 pt. Words are in the language being spoken when the
renderer runs (``i18n.using`` around it), as for every printable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm

from ..i18n import _, ngettext, pgettext
from ..rules.nights import NightRow, Scheme
from .bidi import isolate, joined
from .labels import Label, fit_label
from .layout import FONT, FONT_BOLD
from .night_tables import (
    TITLE_SIZE,
    Column,
    Line,
    board_pdf,
)
from .text import number

PLACE_WIDTH = 16 * mm
NUMBER_WIDTH = 21 * mm  # each column of numbers in the standings


@dataclass(frozen=True)
class StandingsSheet:
    """The night's standings, in the order ``night_standings`` gives; ``build()`` returns
    the PDF.

    ``played_on``: the night's date, already written in the reader's language;
    ``rounds``: the rounds played to the end; ``tables_per_round``: the number of tables
    in each round, said under the title. ``final``: the night is over (the winner is
    named); else the standings so far (the leader is), ``playing`` the round being played
    if one is (its finished games count already). Under the placement scheme a row has its
    points, games, total score and phases made; under the cumulative one its points are its
    total score, printed once. Shared places read "2=" on each row that shares them.
    """

    night: str
    played_on: str
    rows: Sequence[NightRow]
    scheme: Scheme
    rounds: int
    tables_per_round: Sequence[int] | None = None
    final: bool = True
    pagesize: str = "letter"
    playing: int | None = None

    @property
    def subtitle(self) -> str:
        """'Final standings after 3 rounds', 'Standings during round 2' while it is played,
        or 'Standings after 2 rounds' between rounds."""
        rounds = self.rounds
        if self.final:
            return ngettext(
                "Final standings after %(num)s round",
                "Final standings after %(num)s rounds",
                rounds,
            )
        if self.playing is not None:
            return _("Standings during round %(round)s", round=number(self.playing))
        return ngettext("Standings after %(num)s round", "Standings after %(num)s rounds", rounds)

    def build(self) -> bytes:
        title = _("%(night)s: %(standings)s", night=isolate(self.night), standings=self.subtitle)
        return board_pdf(self.pagesize, title, self.scheme.label, self._lines(), self._parts)

    def _parts(self, inner: float) -> tuple[list[Column], list[Label], list[Label]]:
        return self._columns(inner), self._header(inner), self._short_header(inner)

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
    playing: int | None = None,
) -> bytes:
    """The night's standings as PDF bytes; ``StandingsSheet`` says what each argument is."""
    return StandingsSheet(
        night, played_on, rows, scheme, rounds, tables_per_round, final, pagesize, playing
    ).build()

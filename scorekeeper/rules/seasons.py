"""A season of club nights: the nights added up (rule 12).

A season is a table's nights over some weeks or months. Its board adds up each
player's nights under one points scheme (the night's own, ``rules.nights.Scheme``),
counts the nights each player came to and, when the organiser asks, counts only each
player's best N nights. It is plain arithmetic over the engine's own results of each
finished game (``rules.nights.results``), so the board is the nights' boards added up
and ranked by the night's own rule (``night_standings``): a season is one long night
whose games are each player's counted nights.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..i18n import N_, _
from .nights import NightRow, Result, Scheme, night_standings

MOST_BEST = 99  # "count each player's best N nights": N from 1 to this

_EXPLAINED = {
    Scheme.PLACEMENT: N_(
        "Each game gives 120 points to the winner and 0 to the last, the places between "
        "evenly spaced; the most points over the season's nights lead."
    ),
    Scheme.CUMULATIVE: N_(
        "Every game's score is added up over the season's nights; the most games, then the "
        "lowest total, lead."
    ),
}


def explained(scheme: Scheme) -> str:
    """How a season adds up under ``scheme``, in one line in the reader's language."""
    return _(_EXPLAINED[scheme])


@dataclass(frozen=True)
class NightPlayed:
    """One night as a season counts it: who came, and each finished game's results."""

    came: tuple[str, ...]
    games: tuple[tuple[Result, ...], ...]

    @property
    def players(self) -> list[str]:
        """Everyone who came or played, in the order they came."""
        names = dict.fromkeys(self.came)
        for game in self.games:
            names.update(dict.fromkeys(result.name for result in game))
        return list(names)


@dataclass(frozen=True)
class SeasonRow:
    """One line of the season's board.

    ``points``, ``games``, ``score``, ``phases``, ``tiebreak`` and ``place`` are the
    night's (``NightRow``), over the nights counted. ``nights``: the nights the player
    came to (attendance); ``counted``: how many of them count (all, or their best N).
    """

    place: int
    name: str
    points: int
    nights: int
    counted: int
    games: int
    score: int
    phases: int
    tiebreak: int


def night_key(row: NightRow, scheme: Scheme) -> tuple[int, ...]:
    """How one player's night compares with another of theirs, the better first (lower):
    as the night's own board orders its rows."""
    if scheme is Scheme.PLACEMENT:
        return (-row.points, row.score)
    return (-row.games, row.score, -row.phases)


def counted_nights(
    nights: Sequence[NightPlayed], scheme: Scheme, best: int | None = None
) -> dict[str, list[int]]:
    """Player -> the indexes of the nights that count for them, in the season's order:
    every night they came to, or only their ``best`` ones (the better night first when two
    are equal on points: the earlier)."""
    came: dict[str, list[tuple[tuple[int, ...], int]]] = {}
    for index, night in enumerate(nights):
        rows = {row.name: row for row in night_standings(night.games, scheme, night.players)}
        for name in night.players:
            came.setdefault(name, []).append((night_key(rows[name], scheme), index))
    counted = {}
    for name, played in came.items():
        chosen = sorted(played)[:best] if best is not None else played
        counted[name] = sorted(index for _key, index in chosen)
    return counted


def season_standings(
    nights: Sequence[NightPlayed], scheme: Scheme, best: int | None = None
) -> list[SeasonRow]:
    """The season's board (rule 12): each player's counted nights' games, ranked by the
    night's rule for ``scheme``; ``best``: count only each player's best N nights (None:
    every night)."""
    if best is not None and not 1 <= best <= MOST_BEST:
        raise ValueError(f"best {best} nights: from 1 to {MOST_BEST}")
    counted = counted_nights(nights, scheme, best)
    kept: list[tuple[Result, ...]] = []
    for index, night in enumerate(nights):
        for game in night.games:
            kept.append(tuple(r for r in game if index in counted.get(r.name, ())))
    came = _attendance(nights)
    rows = night_standings((game for game in kept if game), scheme, came)
    return [
        SeasonRow(
            place=row.place,
            name=row.name,
            points=row.points,
            nights=came[row.name],
            counted=len(counted.get(row.name, ())),
            games=row.games,
            score=row.score,
            phases=row.phases,
            tiebreak=row.tiebreak,
        )
        for row in rows
    ]


def _attendance(nights: Iterable[NightPlayed]) -> dict[str, int]:
    """Player -> the nights they came to, in the order they first came."""
    came: dict[str, int] = {}
    for night in nights:
        for name in night.players:
            came[name] = came.get(name, 0) + 1
    return came

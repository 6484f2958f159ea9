"""Ratings across a season's nights: how strong each player is, and how sure that is.

Worked out by openskill's Plackett-Luce model (docs/decisions.md says why this library and
model): every player starts at 25, give or take 8, and each finished game of the season,
in the order they were played, moves its players' ratings by the places the engine gave
them (``rules.nights.results``: a shared place is a tie). Nothing is stored: the ratings
are worked out again from the games as they stand, so a corrected game counts at once.

A rating is shown as its middle and its spread in whole numbers: "about 28, give or take
4" is openskill's mu and sigma (the real strength lies within one sigma about two times
in three). The board lists them by their low end, mu minus three sigma (openskill's
``ordinal``), so one lucky win does not put a newcomer above players the app is sure of.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from ..rules.nights import Result

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
SURE = 3  # the low end is mu - SURE sigma


@dataclass(frozen=True)
class Rating:
    """One player's rating after the games counted: ``mu`` the middle, ``sigma`` the spread."""

    name: str
    mu: float
    sigma: float
    games: int

    @property
    def about(self) -> int:
        """The rating in words: about this..."""
        return round(self.mu)

    @property
    def give_or_take(self) -> int:
        """...give or take this (never 0: the app is never certain)."""
        return max(1, round(self.sigma))

    @property
    def low(self) -> float:
        """What the rating almost surely is at least: the board's order."""
        return self.mu - SURE * self.sigma


def rate(games: Iterable[Sequence[Result]]) -> list[Rating]:
    """Each player's rating after ``games`` (each a finished game's results, in the order
    they were played), the surest strongest first."""
    ratings: dict[str, PlackettLuceRating] = {}
    played: dict[str, int] = {}
    for game in games:
        if len(game) < 2:
            continue
        teams = [[ratings.get(r.name) or MODEL.rating(name=r.name)] for r in game]
        rated = MODEL.rate(teams, ranks=[float(r.place) for r in game])
        for result, (rating,) in zip(game, rated, strict=True):
            ratings[result.name] = rating
            played[result.name] = played.get(result.name, 0) + 1
    found = [
        Rating(name, rating.mu, rating.sigma, played[name]) for name, rating in ratings.items()
    ]
    return sorted(found, key=lambda r: (-r.low, -r.mu, r.name.casefold(), r.name))

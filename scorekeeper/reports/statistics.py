"""Lifetime statistics of a table, from its recorded hands by the engine's replay.

Plain Python (no Flask, SQLite or reportlab): the web layer hands in the games
and the roster's merged spellings. Only finished games count; a game in
progress joins the figures the moment it ends. Each game's part is worked out
from its hands (``figures``), once per version of the game, and a table's
statistics are their sum (``add_up``).

Who "finishes ahead" of whom in a game: the winner first, then whoever made
more phases, then whoever has fewer points. Equal phases and points is a draw.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from .. import clock
from ..rules.game import Game, Standings
from ..rules.nights import NightRow, Scheme
from ..rules.replay import standings_by_hand


@dataclass(frozen=True)
class PlayedGame:
    game: Game
    date: str  # when it was played (its start), ISO format; the games come oldest first
    steps: Sequence[Standings] | None = None  # standings_by_hand, when already worked out
    minutes: int | None = None  # its playing time (clock.py)


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)  # final score of each game, in order
    hands_to_finish: list[int] = field(default_factory=list)  # games where every phase was made
    hands_on_phase: Counter[int] = field(default_factory=Counter)  # phase -> hands spent on it
    results: list[bool] = field(default_factory=list)  # won each game, in order
    best_score: int | None = None
    best_date: str = ""

    @property
    def best_time(self) -> datetime | None:
        """When the best game was played, for the pages' ``day_of`` (which shows the day it
        was on the family's own clock); None if unknown."""
        try:
            return clock.moment(self.best_date) if self.best_date else None
        except ValueError:
            return None

    @property
    def win_percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0

    @property
    def average_score(self) -> float:
        return round(sum(self.scores) / len(self.scores), 1) if self.scores else 0.0

    @property
    def average_hands_to_finish(self) -> float | None:
        if not self.hands_to_finish:
            return None
        return round(sum(self.hands_to_finish) / len(self.hands_to_finish), 1)

    @property
    def stuck_on(self) -> int | None:
        """The phase this player has spent most hands on (the lowest, on a tie)."""
        if not self.hands_on_phase:
            return None
        most = max(self.hands_on_phase.values())
        return min(p for p, n in self.hands_on_phase.items() if n == most)

    @property
    def longest_streak(self) -> int:
        """Most wins in a row among this player's games."""
        return max(
            (len(list(run)) for won, run in itertools.groupby(self.results) if won), default=0
        )


@dataclass
class TableStats:
    players: dict[str, PlayerStats]  # first appearance order
    games: int = 0
    hands: int = 0
    ahead: Counter[tuple[str, str]] = field(default_factory=Counter)  # (a, b): a finished ahead
    together: Counter[tuple[str, str]] = field(default_factory=Counter)  # sorted pair: games
    winners: list[tuple[str, str | None]] = field(default_factory=list)  # (date, winner) in order
    ended_early: int = 0  # games the table ended before anyone finished
    lengths: list[int] = field(default_factory=list)  # minutes each game took, where known

    @property
    def average_length(self) -> int | None:
        """Minutes a game takes on average; None when no game's length is known."""
        return clock.average(self.lengths)

    @property
    def average_hands(self) -> float:
        return round(self.hands / self.games, 1) if self.games else 0.0

    def head_to_head(self, a: str, b: str) -> tuple[int, int, int]:
        """(a ahead of b, b ahead of a, games both played)."""
        return self.ahead[(a, b)], self.ahead[(b, a)], self.together[_pair(a, b)]

    def rivals(self) -> list[tuple[str, str, int, int, int]]:
        """Every pair that has played together: (a, b, a ahead, b ahead, games)."""
        return self.rivals_of(list(self.players), self.opponents())

    def opponents(self, most: int | None = None) -> dict[str, tuple[str, ...]]:
        """Whom each player has played with, in the players' order; with ``most``, only
        the ``most`` they played most games with (a club's table has thousands of pairs)."""
        order = {name: i for i, name in enumerate(self.players)}
        found: dict[str, list[tuple[int, int, str]]] = {name: [] for name in self.players}
        for (a, b), games in self.together.items():
            if a in found and b in found:
                found[a].append((-games, order[b], b))
                found[b].append((-games, order[a], a))
        kept = {}
        for name, others in found.items():
            chosen = sorted(others)[:most] if most is not None else others
            kept[name] = tuple(other for *_, other in sorted(chosen, key=lambda o: o[1]))
        return kept

    def rivals_of(
        self, names: Sequence[str], opponents: Mapping[str, Sequence[str]]
    ) -> list[tuple[str, str, int, int, int]]:
        """``rivals`` for the players ``names`` (a page of them), each against their
        ``opponents``; a pair both sides list is shown once, under the first of them."""
        pairs = []
        earlier: set[str] = set()
        for a in names:
            for b in opponents.get(a, ()):
                if b in earlier and a in opponents.get(b, ()):
                    continue  # shown already, under b
                ahead_a, ahead_b, together = self.head_to_head(a, b)
                pairs.append((a, b, ahead_a, ahead_b, together))
            earlier.add(a)
        return pairs


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def finishing_order(standings: Standings) -> list[list[str]]:
    """Players from first to last; players level on phases and points share a place."""

    def key(name: str) -> tuple[int, int, int]:
        p = standings.player(name)
        return (0 if name == standings.winner else 1, -len(p.phases_done), p.score)

    names = sorted((p.name for p in standings.players), key=key)
    return [list(group) for _, group in itertools.groupby(names, key=key)]


@dataclass(frozen=True)
class GameFigures:
    """What one finished game adds to its table's statistics, under the names it was played
    with: worked out once per version of the game, so a table's figures are a sum."""

    date: str
    minutes: int | None
    players: tuple[str, ...]
    hands: int
    ended_early: bool
    winner: str | None
    scores: tuple[tuple[str, int], ...]  # each player's final score, in seat order
    places: tuple[tuple[str, ...], ...]  # finishing order; a place may be shared
    hands_on_phase: tuple[tuple[str, int, int], ...]  # (player, phase, hands spent on it)
    hands_to_finish: tuple[tuple[str, int], ...]  # (player, the hand that made the last phase)

    def to_json(self) -> str:
        """As the file keeps them (store/game_figures.py), in ``FIGURES_FORMAT``."""
        fields = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameFigures:
        """Read back from ``to_json``; ValueError (or KeyError, TypeError) when they are not."""
        data = json.loads(text)
        return cls(
            date=str(data["date"]),
            minutes=data["minutes"],
            players=tuple(data["players"]),
            hands=int(data["hands"]),
            ended_early=bool(data["ended_early"]),
            winner=data["winner"],
            scores=tuple((name, score) for name, score in data["scores"]),
            places=tuple(tuple(place) for place in data["places"]),
            hands_on_phase=tuple((n, phase, hands) for n, phase, hands in data["hands_on_phase"]),
            hands_to_finish=tuple((name, hand) for name, hand in data["hands_to_finish"]),
        )


# What ``GameFigures.to_json`` holds: figures the file kept in another format (or worked out
# by a replay that has changed since) are worked out again. Raise it whenever either changes.
FIGURES_FORMAT = 1


def figures(entry: PlayedGame) -> GameFigures | None:
    """``entry``'s part of the statistics; None while it is not over."""
    steps = entry.steps or standings_by_hand(entry.game)  # checked when saved
    final = steps[-1]
    if not final.over:
        return None
    on_phase: Counter[tuple[str, int]] = Counter()
    finished: list[tuple[str, int]] = []
    for number, (hand, before, after) in enumerate(
        zip(entry.game.hands, steps, steps[1:], strict=False), start=1
    ):
        if hand.tiebreak:
            continue
        for standing in before.players:
            if standing.finished:
                continue
            on_phase[(standing.name, standing.phase)] += 1
            if after.player(standing.name).finished:
                finished.append((standing.name, number))
    return GameFigures(
        date=entry.date,
        minutes=entry.minutes,
        players=tuple(entry.game.players),
        hands=len(entry.game.hands),
        ended_early=bool(final.ended_early),
        winner=final.winner,
        scores=tuple((standing.name, standing.score) for standing in final.players),
        places=tuple(tuple(place) for place in finishing_order(final)),
        hands_on_phase=tuple((name, phase, n) for (name, phase), n in on_phase.items()),
        hands_to_finish=tuple(finished),
    )


def table_stats(
    played: Sequence[PlayedGame], aliases: Mapping[str, str] | None = None
) -> TableStats:
    """Everything the statistics page shows, for the finished games among ``played``."""
    return add_up([found for found in map(figures, played) if found is not None], aliases)


def add_up(
    games: Sequence[GameFigures],
    aliases: Mapping[str, str] | None = None,
    pause: Callable[[], object] = lambda: None,
) -> TableStats:
    """A table's statistics from its finished games' figures, oldest first, each player under
    the spelling the roster merged their names into. ``pause`` is called between every
    hundred games (the web layer lets other requests run)."""
    aliases = aliases or {}
    stats = TableStats(players={})

    def known(name: str) -> str:
        return aliases.get(name, name)

    def person(name: str) -> PlayerStats:
        found = stats.players.get(known(name))
        if found is None:
            found = stats.players[known(name)] = PlayerStats(known(name))
        return found

    for number, game in enumerate(games, start=1):
        if number % 100 == 0:
            pause()
        stats.games += 1
        stats.hands += game.hands
        stats.ended_early += game.ended_early
        if game.minutes is not None:
            stats.lengths.append(game.minutes)
        stats.winners.append((game.date, known(game.winner) if game.winner else None))
        for name, score in game.scores:
            p = person(name)
            p.games += 1
            won = name == game.winner
            p.wins += won
            p.results.append(won)
            p.scores.append(score)
            if p.best_score is None or score < p.best_score:
                p.best_score, p.best_date = score, game.date
        for name, phase, hands in game.hands_on_phase:
            person(name).hands_on_phase[phase] += hands
        for name, number in game.hands_to_finish:
            person(name).hands_to_finish.append(number)
        for i, place in enumerate(game.places):
            for name in place:
                for later in itertools.chain.from_iterable(game.places[i + 1 :]):
                    stats.ahead[(known(name), known(later))] += 1
        for a, b in itertools.combinations(game.players, 2):
            stats.together[_pair(known(a), known(b))] += 1
    return stats


# --- club nights ----------------------------------------------------------------------


@dataclass(frozen=True)
class NightFigures:
    """One player's club nights: how many they played a game in, their best place, and the
    points of each night counted by placement points (rules/nights.py, Scheme.PLACEMENT)."""

    name: str
    nights: int
    best_place: int
    points: tuple[int, ...]

    @property
    def points_per_night(self) -> float | None:
        """Placement points a night, on average; None when no night was counted so."""
        return sum(self.points) / len(self.points) if self.points else None


def night_figures(
    boards: Sequence[tuple[Scheme, Sequence[NightRow]]], aliases: Mapping[str, str]
) -> list[NightFigures]:
    """Each player's nights from each night's leaderboard (only nights they played a game
    in), under the roster's current names; the best placed first."""
    nights: Counter[str] = Counter()
    best: dict[str, int] = {}
    points: dict[str, list[int]] = {}
    for scheme, rows in boards:
        for row in rows:
            if not row.games:
                continue
            name = aliases.get(row.name, row.name)
            nights[name] += 1
            best[name] = min(best.get(name, row.place), row.place)
            if scheme is Scheme.PLACEMENT:
                points.setdefault(name, []).append(row.points)
    found = [
        NightFigures(name, nights[name], best[name], tuple(points.get(name, ()))) for name in nights
    ]
    return sorted(found, key=lambda f: (f.best_place, -f.nights, f.name.casefold()))

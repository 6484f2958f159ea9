"""A night of several tables and rounds: who sits where, and the night's standings (rule 11).

A club night seats the players who are here at tables of 2-6, plays a round (one
game at every table), seats them again, and keeps one standing over the night.
This module is the arithmetic of it, as plain functions over names and the
engine's own results; the pages, storage, screen and printing build on it.

- ``table_sizes``: how many seats each table gets (rule 11, "Tables").
- ``seat_round``: who sits at which table, in which seat, and who deals first,
  in one of three ``Mode``s, repeatable from a seed (rule 11, "Seating"). Each
  round is seated from the players present at that round, so a late arrival or
  a player who left needs nothing special.
- ``results`` and ``night_standings``: each finished game's places, as the
  engine ranks them (``rules.ranking.final_order``), turned into the night's
  leaderboard under one of two ``Scheme``s (rule 11, "Points for the night").
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from ..i18n import N_, _
from . import reasons as rule
from .game import MAX_PLAYERS, MIN_PLAYERS, Standings
from .new_opponents import fewest_repeats
from .ranking import final_order
from .reasons import Reason, cite, pinned
from .ruleset import Rules
from .seating_lines import rounds_of

# --- tables --------------------------------------------------------------------------

FEWEST_AT_A_TABLE = MIN_PLAYERS  # 2: a game of Phase 10 needs two
MOST_AT_A_TABLE = MAX_PLAYERS  # 6; a night of Mixed-up Masters passes most=4
USUAL_AT_A_TABLE = 4  # what the app suggests: 14 players sit 4, 4, 3, 3 (issue 31)


class NightError(ValueError):
    """A night that cannot be seated as asked; ``problems`` says why, in words for the organiser."""

    def __init__(self, problems: Sequence[Reason]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(problem) for problem in self.problems))


def table_counts(players: int, *, most: int = MOST_AT_A_TABLE) -> range:
    """How many tables ``players`` people may be seated at: each table with 2 to ``most``.

    The fewest keeps every table at ``most``; the most gives every table two players.
    Empty when fewer than two are here.
    """
    if players < FEWEST_AT_A_TABLE:
        return range(0)
    return range(math.ceil(players / most), players // FEWEST_AT_A_TABLE + 1)


def seating_problems(
    players: Sequence[str], tables: int | None = None, *, most: int = MOST_AT_A_TABLE
) -> list[Reason]:
    """Everything that stops seating these players at ``tables`` tables; [] when fine.

    Reason fields: ``players`` (too few, or a name twice) and ``tables``.
    """
    problems = _count_problems(len(players), tables, most)
    seen: set[str] = set()
    for name in players:
        if name.casefold() in seen:
            message = _("two players have this name: give one of them another")
            problems.append(pinned(message, name, "players"))
        seen.add(name.casefold())
    return problems


def _count_problems(count: int, tables: int | None, most: int) -> list[Reason]:
    if not FEWEST_AT_A_TABLE + 1 <= most <= MOST_AT_A_TABLE:
        raise ValueError(f"a table seats at most 3 to 6 players, not {most}")
    problems: list[Reason] = []
    if count < FEWEST_AT_A_TABLE:
        message = _(
            "a night needs at least %(least)s players, not %(count)s",
            least=FEWEST_AT_A_TABLE,
            count=count,
        )
        problems.append(pinned(cite(message, rule.NIGHT_TABLES), None, "players"))
    choices = table_counts(count, most=most)
    if tables is not None and choices and tables not in choices:
        if len(choices) == 1:
            message = _("%(count)s players play at one table", count=count)
        else:
            message = _(
                "%(count)s players sit at %(least)s to %(most)s tables, not %(tables)s",
                count=count,
                least=choices[0],
                most=choices[-1],
                tables=tables,
            )
        problems.append(pinned(cite(message, rule.NIGHT_TABLES), None, "tables"))
    return problems


def table_sizes(
    players: int, tables: int | None = None, *, most: int = MOST_AT_A_TABLE
) -> tuple[int, ...]:
    """The number of seats at each table, largest first (rule 11, "Tables").

    Without ``tables``: tables of at most 4 (``USUAL_AT_A_TABLE``), that is players / 4
    rounded up (and never a table of one). The players are then shared out as evenly
    as possible, so two tables differ by one seat at most and the larger tables come
    first: 5 -> 3, 2; 7 -> 4, 3; 13 -> 4, 3, 3, 3; 14 -> 4, 4, 3, 3. The organiser
    may ask for fewer or more (``tables``, within ``table_counts``): 14 at 3 tables
    -> 5, 5, 4. Raises NightError otherwise.
    """
    if problems := _count_problems(players, tables, most):
        raise NightError(problems)
    if tables is None:
        fewest = table_counts(players, most=most)[0]
        tables = max(fewest, min(math.ceil(players / USUAL_AT_A_TABLE), players // 2))
    count = tables
    size, larger = divmod(players, count)
    return tuple(size + 1 if number < larger else size for number in range(count))


# --- seating -------------------------------------------------------------------------


class Mode(Enum):
    """How the organiser has a round seated."""

    RANDOM = "random"  # any round: tables drawn at random
    NEW_OPPONENTS = "new_opponents"  # later rounds: meet people not met yet tonight
    BY_STANDING = "by_standing"  # strongest together, by the night's standing

    @property
    def label(self) -> str:
        """The mode's name in the reader's language, for the organiser's form."""
        return _(_MODE_WORDS[self][0])

    @property
    def explained(self) -> str:
        """One line saying what the mode does, in the reader's language."""
        return _(_MODE_WORDS[self][1])


_MODE_WORDS = {
    Mode.RANDOM: (N_("At random"), N_("Everyone is seated at random.")),
    Mode.NEW_OPPONENTS: (
        N_("New opponents"),
        N_("Players sit with people they have not played with tonight, wherever possible."),
    ),
    Mode.BY_STANDING: (
        N_("By standing"),
        N_("The leaders sit together at table 1, the next at table 2, and so on."),
    ),
}


@dataclass(frozen=True)
class TableSeating:
    """One table in one round: its number, the players in seat order, who deals first.

    ``seats`` run clockwise from seat 1, as a ``Game``'s players do, and the player
    in seat 1 deals the first hand: ``Game(rules, table.seats, table.dealer)``.
    """

    number: int  # 1, 2, ...: table 1 is the largest (by standing: the leaders')
    seats: tuple[str, ...]

    @property
    def dealer(self) -> str:
        return self.seats[0]


@dataclass(frozen=True)
class Seating:
    """Every table of one round, and how many pairs sit together again.

    ``repeats``: pairs at one table this round who already sat at one table earlier
    tonight (in the rounds passed to ``seat_round``), whatever the mode.
    """

    mode: Mode
    tables: tuple[TableSeating, ...]
    repeats: int

    def table_of(self, name: str) -> TableSeating | None:
        """The table a player sits at this round ("Round 2: go to table 3"); None if not here."""
        return next((table for table in self.tables if name in table.seats), None)


def swapped(tables: Sequence[TableSeating], first: str, second: str) -> tuple[TableSeating, ...]:
    """The seating with two players changing places (rule 11, "Changes during the night"):
    each takes the other's table and seat. NightError when either is not seated."""
    _seated(tables, first, second)
    trade = {first: second, second: first}
    return tuple(
        TableSeating(table.number, tuple(trade.get(name, name) for name in table.seats))
        for table in tables
    )


def moved(
    tables: Sequence[TableSeating], name: str, number: int, *, most: int = MOST_AT_A_TABLE
) -> tuple[TableSeating, ...]:
    """The seating with one player moved to the last seat of table ``number`` (rule 11,
    "Changes during the night"); every table keeps 2 to ``most`` players. NightError
    otherwise."""
    (source,) = _seated(tables, name)
    target = next((table for table in tables if table.number == number), None)
    problems = []
    if target is None:
        message = _("there is no table %(number)s in this round", number=number)
        problems.append(pinned(message, name, "table"))
    elif target is source:
        message = _("already sits at table %(number)s", number=number)
        problems.append(pinned(message, name, "table"))
    else:
        if len(source.seats) <= FEWEST_AT_A_TABLE:
            message = _(
                "table %(number)s would keep only one player: swap two players instead",
                number=source.number,
            )
            problems.append(pinned(cite(message, rule.NIGHT_TABLES), name, "table"))
        if len(target.seats) >= most:
            message = _("table %(number)s seats %(most)s already", number=number, most=most)
            problems.append(pinned(cite(message, rule.NIGHT_TABLES), name, "table"))
    if problems:
        raise NightError(problems)
    return tuple(
        TableSeating(
            table.number,
            tuple(seat for seat in table.seats if seat != name)
            + ((name,) if table.number == number else ()),
        )
        for table in tables
    )


def _seated(tables: Sequence[TableSeating], *names: str) -> list[TableSeating]:
    """The table each player sits at; NightError for one not seated this round."""
    found = []
    for name in names:
        table = next((table for table in tables if name in table.seats), None)
        if table is None:
            message = _("is not seated in this round")
            raise NightError([pinned(message, name, "player")])
        found.append(table)
    return found


def times_met(earlier: Iterable[Iterable[str]]) -> Counter[frozenset[str]]:
    """How often each pair of players sat at one table, over the tables played so far."""
    met: Counter[frozenset[str]] = Counter()
    for table in earlier:
        for pair in itertools.combinations(sorted(set(table)), 2):
            met[frozenset(pair)] += 1
    return met


def seat_round(
    players: Sequence[str],
    mode: Mode,
    *,
    seed: int | str,
    tables: int | None = None,
    earlier: Iterable[Iterable[str]] = (),
    standing: Sequence[str] = (),
    most: int = MOST_AT_A_TABLE,
    keep: Mapping[str, int] | None = None,
) -> Seating:
    """Seat the players present at this round (rule 11, "Seating").

    ``earlier``: every table played tonight so far, as its players (for
    ``new_opponents``, and to count ``repeats``); players who have left since are
    simply not in ``players``. ``standing``: the night's leaderboard, best first
    (for ``by_standing``; players not in it, such as late arrivals, come after it
    in an order drawn from the seed). ``tables``: as ``table_sizes``. ``keep``:
    players who keep one table (an accessible seat), by its number; a table not set
    up this round is the last one (rule 11, "Changes during the night").

    The same players (in any order), mode, history and seed give the same seating:
    every draw comes from ``random.Random(seed)``. Seats at each table are drawn
    at random, and seat 1 deals first. Raises NightError for players that cannot
    be seated.
    """
    if problems := seating_problems(players, tables, most=most):
        raise NightError(problems)
    sizes = table_sizes(len(players), tables, most=most)
    pins = kept_tables(keep or {}, players, sizes)
    rng = random.Random(seed)
    here = sorted(players)
    played = [tuple(table) for table in earlier]
    met = times_met(played)
    if mode is Mode.BY_STANDING:
        present = set(here)
        ranked = [name for name in dict.fromkeys(standing) if name in present]
        rest = sorted(present - set(ranked))
        rng.shuffle(rest)
        groups = _filled([*ranked, *rest], sizes, pins)
    elif mode is Mode.NEW_OPPONENTS:
        groups = fewest_repeats(here, sizes, met, rng, pins, rounds_of(played))
    else:
        rng.shuffle(here)
        groups = _filled(here, sizes, pins)
    seated = []
    for number, group in enumerate(groups, start=1):
        seats = list(group)
        rng.shuffle(seats)
        seated.append(TableSeating(number, tuple(seats)))
    repeats = sum(1 for group in groups for pair in _pairs(group) if met[pair])
    return Seating(mode, tuple(seated), repeats)


def kept_tables(
    keep: Mapping[str, int], players: Sequence[str], sizes: Sequence[int]
) -> dict[str, int]:
    """Each player here who keeps a table, with its index among ``sizes`` (a table not set
    up this round: the last); NightError when more keep a table than it seats."""
    here = set(players)
    pins = {name: min(number, len(sizes)) - 1 for name, number in keep.items() if name in here}
    problems = []
    for index, count in sorted(Counter(pins.values()).items()):
        if count > sizes[index]:
            message = _(
                "%(count)s players keep table %(table)s, which seats %(size)s this round",
                count=count,
                table=index + 1,
                size=sizes[index],
            )
            problems.append(pinned(cite(message, rule.NIGHT_CHANGES), None, "tables"))
    if problems:
        raise NightError(problems)
    return pins


def _filled(names: Sequence[str], sizes: Sequence[int], pins: Mapping[str, int]) -> list[list[str]]:
    """The tables filled in order from ``names``, each player who keeps a table at it first."""
    if not pins:
        return _chunks(names, sizes)
    groups: list[list[str]] = [[] for _ in sizes]
    for name, index in pins.items():
        groups[index].append(name)
    table = 0
    for name in names:
        if name in pins:
            continue
        while len(groups[table]) >= sizes[table]:
            table += 1
        groups[table].append(name)
    return groups


def _chunks(names: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    starts = list(itertools.accumulate(sizes, initial=0))
    return [list(names[start : start + size]) for start, size in zip(starts, sizes, strict=False)]


def _pairs(group: Iterable[str]) -> Iterable[frozenset[str]]:
    return (frozenset(pair) for pair in itertools.combinations(group, 2))


# --- points for the night ------------------------------------------------------------


class Scheme(Enum):
    """How a night's standing is counted, chosen per night."""

    PLACEMENT = "placement"  # points for each game's place, the same at every size of table
    CUMULATIVE = "cumulative"  # every game's score added up, the lowest first

    @property
    def label(self) -> str:
        return _(_SCHEME_WORDS[self][0])

    @property
    def explained(self) -> str:
        return _(_SCHEME_WORDS[self][1])


_SCHEME_WORDS = {
    Scheme.PLACEMENT: (
        N_("Points for places"),
        N_(
            "Each game gives 120 points to the winner and 0 to the last, the places "
            "between evenly spaced; the most points win the night."
        ),
    ),
    Scheme.CUMULATIVE: (
        N_("Total score"),
        N_("Every game's score is added up; the lowest total wins the night."),
    ),
}

WIN_POINTS = 120  # a game's winner; the last gets 0. 120 splits into whole points at any table


def placement_points(place: int, sharing: int, players: int) -> int:
    """A game's placement points (rule 11, "Points for the night").

    At a table of k players, each player beaten is worth 120 / (k - 1) points and
    each player sharing your place half of that: the winner gets 120 and the last 0
    at every size of table, the places between are evenly spaced (a table of 4:
    120, 80, 40, 0), and every table gives out 60 points a player on average.
    ``sharing`` players tied on ``place`` (the engine's shared place) share the
    points of the places they span: two tied for 2nd at a table of 4 get 60 each.
    Whole numbers always: a place is worth a multiple of 60 / (k - 1), whole for k up to 6.
    """
    if not (2 <= players and 1 <= sharing and 1 <= place and place + sharing - 1 <= players):
        raise ValueError(f"place {place} shared by {sharing} at a table of {players}")
    beaten = players - place - sharing + 1
    points, rest = divmod(WIN_POINTS * (2 * beaten + sharing - 1), 2 * (players - 1))
    assert not rest, "120 divides evenly among 2 to 6 players"
    return points


@dataclass(frozen=True)
class Result:
    """One player's result in one finished game of the night, as the engine ranked it."""

    name: str
    place: int  # the place in the game's final order; tied players share it
    sharing: int  # how many players have this place (1 unless tied)
    players: int  # how many played at that table
    score: int  # their total at the end of the game
    phases: int  # how many phases they made
    left: bool = False  # taken out of the game part way: placed after everyone who stayed


def results(standings: Standings, rules: Rules) -> tuple[Result, ...]:
    """Each player's place in a finished game, from the engine's own final order.

    ``rules.ranking.final_order`` decides the places, so a ten-hands game is
    ranked by total, a game ended early by its leader, and a tie is a shared place.
    """
    if not standings.over:
        raise ValueError("a night counts only finished games")
    order = final_order(standings, rules)
    ties = Counter(place for place, _player in order)
    count = len(order)
    return tuple(
        Result(
            p.name,
            place,
            ties[place],
            count,
            p.score,
            len(p.phases_done),
            left=p.left_after is not None,
        )
        for place, p in order
    )


@dataclass(frozen=True)
class NightRow:
    """One line of the night's leaderboard.

    ``points``: placement points (most first), or under the cumulative scheme the
    total score (lowest first). ``tiebreak``: what decides between equal points: the
    total score (placement) or the phases made (cumulative). Rows that the scheme
    cannot tell apart share a ``place``.
    """

    place: int
    name: str
    points: int
    games: int
    score: int  # the game scores added up over the night
    phases: int  # the phases made, added up over the night
    tiebreak: int


def night_standings(
    games: Iterable[Sequence[Result]], scheme: Scheme, players: Iterable[str] = ()
) -> list[NightRow]:
    """The night's leaderboard from its finished games (rule 11, "Points for the night").

    ``games``: each finished game's ``results``. ``players``: names to list even
    before their first game (with 0 games). A player who left keeps the games they
    played.

    Placement: most points first, then the most games (fewer games never help: a
    player with no game is never above one who played), then the lowest total score.
    Cumulative: the most games first (a missed game cannot count as a good one), then
    the lowest total score, then the most phases made. Players equal on all of these
    share a place; within a place, rows are in alphabetical order.

    A player taken out of a game part way is placed in it after everyone who stayed:
    under placement they get that place's points and the game counts as played; under
    cumulative the game counts as one they missed (its partial score would flatter them).
    """
    listed: dict[str, None] = dict.fromkeys(players)
    points: Counter[str] = Counter()
    played: Counter[str] = Counter()
    scores: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    for game in games:
        names = [result.name for result in game]
        if len(set(names)) != len(names):
            raise ValueError(f"a player is in one game twice: {names}")
        for result in game:
            listed[result.name] = None
            if scheme is Scheme.PLACEMENT:
                points[result.name] += placement_points(
                    result.place, result.sharing, result.players
                )
            elif result.left:
                continue
            played[result.name] += 1
            scores[result.name] += result.score
            phases[result.name] += result.phases
    rows: list[NightRow] = []

    def key(name: str) -> tuple[int, ...]:
        if scheme is Scheme.PLACEMENT:
            return (-points[name], -played[name], scores[name])
        return (-played[name], scores[name], -phases[name])

    ordered = sorted(listed, key=lambda name: (key(name), name.casefold(), name))
    for i, name in enumerate(ordered):
        same = i and key(name) == key(ordered[i - 1])
        rows.append(
            NightRow(
                place=rows[-1].place if same else i + 1,
                name=name,
                points=points[name] if scheme is Scheme.PLACEMENT else scores[name],
                games=played[name],
                score=scores[name],
                phases=phases[name],
                tiebreak=scores[name] if scheme is Scheme.PLACEMENT else phases[name],
            )
        )
    return rows

"""A game and where it stands: the model the replay and the game file share (rules 3, 9).

A game is its rules, its players in seating order, who dealt first, the hands
played (``HandRecord``), who left it part way (``left_after``) and whether the table
ended it early. Nothing else is
stored: phases, totals, the next dealer and the winner (``Standings``) all come
from replaying the hands in order (``rules.replay``); ``rules.gamefile`` reads
and writes the JSON form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..i18n import _, join
from . import reasons as rule
from .names import kept_name_problem, name_problem
from .options import Progression
from .reasons import Reason, Rule, cite, pinned
from .ruleset import Rules
from .scoring import CardsLeft
from .words import listed

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_MIXED_UP_PLAYERS = 4


class GameError(ValueError):
    """A game or hand that cannot be replayed; says which hand and which player."""

    def __init__(
        self,
        reason: str,
        *,
        hand: int | None = None,
        player: str | None = None,
        rule: Rule | None = None,
        problems: Sequence[Reason] = (),
    ) -> None:
        self.reason = reason
        self.rule = rule  # the rule the reason comes from, when there is one
        self.hand = hand
        self.player = player
        self.problems = tuple(problems)  # everything wrong with that hand, when known
        super().__init__(str(self))

    def __str__(self) -> str:
        hand = self.hand and _("hand %(number)s", number=self.hand)
        where = [part for part in (hand, self.player) if part]
        return f"{', '.join(where)}: {self.reason}" if where else self.reason


@dataclass(frozen=True)
class HandRecord:
    """One hand as the table reports it.

    ``made``: who laid down their phase this hand (the player who went out too).
    ``points``: each player's total; the player who went out and floaters may be
    left out (they score 0). ``attempts``: the phase each player tried (Masters).
    ``cards``: the exact cards left, counted by kind, for the players who gave them.
    ``tiebreak``: only the tied players play, and whoever goes out wins the game.
    """

    went_out: str | None
    made: tuple[str, ...] = ()
    points: Mapping[str, int] = field(default_factory=dict)
    attempts: Mapping[str, int] = field(default_factory=dict)
    floaters: tuple[str, ...] = ()
    cards: Mapping[str, CardsLeft] = field(default_factory=dict)
    tiebreak: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "made", tuple(self.made))
        object.__setattr__(self, "floaters", tuple(self.floaters))
        for name in ("points", "attempts", "cards"):
            object.__setattr__(self, name, dict(getattr(self, name)))

    def scores(self, rules: Rules) -> dict[str, int]:
        """Points for the hand of each player it names: as given, else from their cards, else 0.

        Use this rather than ``points`` alone: a player may have given only cards.
        """
        named = dict.fromkeys(name for _, name in self.named())
        return {
            name: self.points[name]
            if name in self.points
            else self.cards[name].points(rules)
            if name in self.cards
            else 0
            for name in named
        }

    def named(self) -> list[tuple[str, str]]:
        """(field, name) for every player this hand mentions."""
        pairs = [("went_out", self.went_out)] if self.went_out is not None else []
        pairs += [("made", name) for name in self.made]
        pairs += [("floaters", name) for name in self.floaters]
        for key in ("points", "attempts", "cards"):
            pairs += [(key, name) for name in getattr(self, key)]
        return pairs


@dataclass(frozen=True)
class Game:
    """Rules, players in seating order (clockwise), the first dealer, and the hands.

    ``ended_early``: the table stopped after the hands played; the leader by the
    game's own order (``rules.ranking``) wins. ``left_after``: players who left the game
    part way (a club night's organiser took them out), each with the hands they played;
    the others play on without them, and they are placed after everyone who stayed
    (rule 11, "Changes during the night").
    """

    rules: Rules
    players: tuple[str, ...]
    dealer: str
    hands: tuple[HandRecord, ...] = ()
    orders: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # Mixed-up Masters
    ended_early: bool = False
    left_after: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "hands", tuple(self.hands))
        object.__setattr__(self, "orders", {k: tuple(v) for k, v in self.orders.items()})
        object.__setattr__(self, "left_after", dict(self.left_after))
        for problem in game_problems(self.rules, self.players, self.dealer, self.orders):
            raise GameError(problem.message, player=problem.player, rule=problem.rule)
        for problem in leaving_problems(self.players, self.left_after):
            raise GameError(problem.message, player=problem.player, rule=problem.rule)

    def playing(self, number: int) -> tuple[str, ...]:
        """The players of hand ``number``, in seating order: those who had not left before it."""
        return tuple(
            name
            for name in self.players
            if name not in self.left_after or self.left_after[name] >= number
        )

    def dealer_of(self, number: int) -> str:
        """Who deals hand ``number``: the deal passes clockwise, over anyone who has left."""
        seats = self.players
        at = seats.index(self.dealer)
        for hand in range(1, number + 1):
            if hand > 1:
                at = (at + 1) % len(seats)
            playing = self.playing(hand)
            while seats[at] not in playing:
                at = (at + 1) % len(seats)
        return seats[at]

    def with_hand(self, hand: HandRecord) -> Game:
        return replace(self, hands=(*self.hands, hand))

    def before(self, number: int) -> Game:
        """The game as it stood before hand ``number``: the hands before it, not ended yet,
        nobody gone who left after it."""
        left = {name: after for name, after in self.left_after.items() if after < number}
        return replace(self, hands=self.hands[: number - 1], ended_early=False, left_after=left)


def game_problems(
    rules: Rules,
    players: Sequence[str],
    dealer: str | None,
    orders: Mapping[str, Sequence[int]] | None = None,
    *,
    new: bool = False,
) -> list[Reason]:
    """Everything wrong with a game's players, dealer and phase orders; [] when fine.

    ``new``: the names are entering the app now, so they meet the whole name rule
    (``names.valid_name``); a stored game is held only to the rule it was saved under.

    Reason fields: ``players`` (the count, or one player's name), ``dealer``,
    ``orders``. ``orders`` None: not chosen yet (the new-game form shuffles them).
    """
    problems: list[Reason] = []

    def add(player: str | None, message: str | Reason, where: str = "players") -> None:
        problems.append(pinned(message, player, where))

    mixed_up = rules.progression is Progression.MIXED_UP
    most = MAX_MIXED_UP_PLAYERS if mixed_up else MAX_PLAYERS
    if not MIN_PLAYERS <= len(players) <= most:
        values = {"least": MIN_PLAYERS, "most": most, "count": len(players)}
        if mixed_up:
            message = _(
                "Mixed-up Masters is for %(least)s-%(most)s players, not %(count)s", **values
            )
        else:
            message = _("Phase 10 is for %(least)s-%(most)s players, not %(count)s", **values)
        add(None, cite(message, rule.MIXED_UP if mixed_up else rule.PLAYERS))
    seen: set[str] = set()
    for name in players:
        if not isinstance(name, str) or not name.strip():
            add(None, _("every player needs a name"))
            continue
        if name != name.strip():
            add(name, _("a name cannot start or end with spaces"))
        if problem := name_problem(name) if new else kept_name_problem(name):
            add(name, problem)
        if name.casefold() in seen:
            add(name, _("two players have this name: give one of them another"))
        seen.add(name.casefold())
    if dealer not in players:
        add(
            dealer,
            _("the dealer must be one of the players (%(names)s)", names=join(players)),
            "dealer",
        )
    if orders is None:
        return problems
    if not mixed_up:
        if orders:
            add(
                None,
                _("phase orders are only for Mixed-up Masters (option progression=mixed-up)"),
                "orders",
            )
        return problems
    sequence = sorted(rules.sequence)
    for name in players:
        order = orders.get(name)
        if order is None:
            add(name, cite(_("needs their own order of the phases"), rule.MIXED_UP), "orders")
        elif sorted(order) != sequence:
            add(
                name,
                cite(
                    _(
                        "the order %(order)s must hold each of the phases %(phases)s exactly once",
                        order=listed(order),
                        phases=listed(sequence),
                    ),
                    rule.MIXED_UP,
                ),
                "orders",
            )
    for name in orders:
        if name not in players:
            add(name, _("has a phase order but is not a player in this game"), "orders")
    return problems


def leaving_problems(players: Sequence[str], left_after: Mapping[str, int]) -> list[Reason]:
    """Why these players cannot have left the game so; [] when fine. Two must stay."""
    problems = []
    for name, after in left_after.items():
        if name not in players:
            message = _("is not a player in this game (%(names)s)", names=join(players))
            problems.append(pinned(message, name, "left_after"))
        elif isinstance(after, bool) or not isinstance(after, int) or after < 0:
            message = _("left after a number of hands played: 0 or more")
            problems.append(pinned(message, name, "left_after"))
    if len(set(players) - set(left_after)) < MIN_PLAYERS:
        stay = _("at least %(least)s players stay in a game", least=MIN_PLAYERS)
        problems.append(pinned(cite(stay, rule.NIGHT_CHANGES), None, "left_after"))
    return problems


@dataclass(frozen=True)
class PlayerStanding:
    name: str
    phase: int  # the phase they attempt next hand (Masters: their lowest not made yet)
    score: int
    phases_done: tuple[int, ...]  # in the order they were made
    finished: bool  # made every phase (ten hands: played every hand)
    tiebreak_phase: int | None = None  # the phase they replay, while a tiebreak is due
    left_after: int | None = None  # left the game after this many hands (None: still in)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "name": self.name,
            "phase": self.phase,
            "score": self.score,
            "phases_done": list(self.phases_done),
            "finished": self.finished,
        }
        if self.tiebreak_phase is not None:
            data["tiebreak_phase"] = self.tiebreak_phase
        if self.left_after is not None:
            data["left_after"] = self.left_after
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerStanding:
        return cls(
            name=data["name"],
            phase=data["phase"],
            score=data["score"],
            phases_done=tuple(data["phases_done"]),
            finished=data["finished"],
            tiebreak_phase=data.get("tiebreak_phase"),
            left_after=data.get("left_after"),
        )


@dataclass(frozen=True)
class Standings:
    """Where a game stands after its recorded hands.

    ``over`` is true once nothing more can be recorded: there is a winner, or a
    ten-hands game ended in a tie (``tied``). While a tiebreak is due the game
    is not over: ``tiebreak`` names who must play it. ``ended_early``: the table
    ended it before anyone finished, after the last hand played.
    """

    players: tuple[PlayerStanding, ...]  # in seating order
    dealer: str  # deals the next hand
    hand_number: int  # the next hand's number
    over: bool
    winner: str | None
    tiebreak: tuple[str, ...] = ()
    tied: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    ended_early: bool = False

    @property
    def hands_played(self) -> int:
        return self.hand_number - 1

    def player(self, name: str) -> PlayerStanding:
        return next(p for p in self.players if p.name == name)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "players": [p.to_json() for p in self.players],
            "dealer": self.dealer,
            "over": self.over,
            "winner": self.winner,
            "tiebreak": list(self.tiebreak),
            "hand": self.hand_number,
            "tied": list(self.tied),
            "warnings": list(self.warnings),
        }
        if self.ended_early:
            data["ended_early"] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Standings:
        """Read back ``to_json``: the kept standings of a stored game."""
        return cls(
            players=tuple(PlayerStanding.from_json(p) for p in data["players"]),
            dealer=data["dealer"],
            hand_number=data["hand"],
            over=data["over"],
            winner=data["winner"],
            tiebreak=tuple(data["tiebreak"]),
            tied=tuple(data["tied"]),
            warnings=tuple(data["warnings"]),
            ended_early=bool(data.get("ended_early", False)),
        )

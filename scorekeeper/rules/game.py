"""Replay recorded hands into standings: phases, scores, dealer, winner (rules 3, 8, 9).

A game is its rules, its players in seating order, who dealt first, and the
hands played. Nothing else is stored: phases, totals, the next dealer and the
winner all come from replaying the hands in order, so correcting hand 2
recomputes everything after it. The JSON form (``load_game`` / ``game_to_json``)
is documented in docs/game-format.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ..i18n import _
from . import reasons as rule
from .names import name_problem
from .phases import Progression, Rules, RulesError, make_rules
from .reasons import Reason, Rule, cite
from .scoring import (
    RULE_FLOATER,
    RULE_GOING_OUT,
    CardsLeft,
    PlayerHand,
    join_names,
    player_problems,
    table_problems,
)

T = TypeVar("T")

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_MIXED_UP_PLAYERS = 4
MAX_NAME = 40

RULE_PLAYERS = rule.PLAYERS
RULE_MIXED_UP = rule.MIXED_UP
RULE_MASTERS = rule.MASTERS
RULE_ONE_PHASE = rule.ONE_PHASE
RULE_END = rule.END_OF_GAME
RULE_TIEBREAK = rule.TIES


def _numbers(phases: Sequence[int]) -> str:
    return ", ".join(str(n) for n in phases)


class GameError(ValueError):
    """A game or hand that cannot be replayed; says which hand and which player."""

    def __init__(
        self,
        reason: str,
        *,
        hand: int | None = None,
        player: str | None = None,
        rule: Rule | None = None,
        problems: Sequence[Problem] = (),
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


Problem = Reason  # one thing wrong with a hand or game, pinned to a player and a field


def _reason(message: str | Reason, player: str | None, field: str, warning: bool = False) -> Reason:
    reason = message if isinstance(message, Reason) else Reason(message)
    return replace(reason, player=player, field=field, warning=warning)


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
    """Rules, players in seating order (clockwise), the first dealer, and the hands."""

    rules: Rules
    players: tuple[str, ...]
    dealer: str
    hands: tuple[HandRecord, ...] = ()
    orders: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # Mixed-up Masters

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "hands", tuple(self.hands))
        object.__setattr__(self, "orders", {k: tuple(v) for k, v in self.orders.items()})
        for problem in game_problems(self.rules, self.players, self.dealer, self.orders):
            raise GameError(problem.message, player=problem.player, rule=problem.rule)

    def with_hand(self, hand: HandRecord) -> Game:
        return replace(self, hands=(*self.hands, hand))


def game_problems(
    rules: Rules,
    players: Sequence[str],
    dealer: str | None,
    orders: Mapping[str, Sequence[int]] | None = None,
) -> list[Problem]:
    """Everything wrong with a game's players, dealer and phase orders; [] when fine.

    Problem fields: ``players`` (the count, or one player's name), ``dealer``,
    ``orders``. ``orders`` None: not chosen yet (the new-game form shuffles them).
    """
    problems: list[Problem] = []

    def add(player: str | None, message: str | Reason, where: str = "players") -> None:
        problems.append(_reason(message, player, where))

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
        add(None, cite(message, RULE_MIXED_UP if mixed_up else RULE_PLAYERS))
    seen: set[str] = set()
    for name in players:
        if not isinstance(name, str) or not name.strip():
            add(None, _("every player needs a name"))
            continue
        if name != name.strip():
            add(name, _("a name cannot start or end with spaces"))
        if problem := name_problem(name):
            add(name, problem)
        if len(name) > MAX_NAME:
            add(name, _("a name has at most %(most)s characters", most=MAX_NAME))
        if name.casefold() in seen:
            add(name, _("two players have this name: give one of them another"))
        seen.add(name.casefold())
    if dealer not in players:
        add(
            dealer,
            _("the dealer must be one of the players (%(names)s)", names=join_names(players)),
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
            add(name, cite(_("needs their own order of the phases"), RULE_MIXED_UP), "orders")
        elif sorted(order) != sequence:
            add(
                name,
                cite(
                    _(
                        "the order %(order)s must hold each of the phases %(phases)s exactly once",
                        order=_numbers(order),
                        phases=_numbers(sequence),
                    ),
                    RULE_MIXED_UP,
                ),
                "orders",
            )
    for name in orders:
        if name not in players:
            add(name, _("has a phase order but is not a player in this game"), "orders")
    return problems


# --- standings ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStanding:
    name: str
    phase: int  # the phase they attempt next hand (Masters: their lowest not made yet)
    score: int
    phases_done: tuple[int, ...]  # in the order they were made
    finished: bool  # made every phase (ten hands: played every hand)
    tiebreak_phase: int | None = None  # the phase they replay, while a tiebreak is due

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
        )


@dataclass(frozen=True)
class Standings:
    """Where a game stands after its recorded hands.

    ``over`` is true once nothing more can be recorded: there is a winner, or a
    ten-hands game ended in a tie (``tied``). While a tiebreak is due the game
    is not over: ``tiebreak`` names who must play it.
    """

    players: tuple[PlayerStanding, ...]  # in seating order
    dealer: str  # deals the next hand
    hand_number: int  # the next hand's number
    over: bool
    winner: str | None
    tiebreak: tuple[str, ...] = ()
    tied: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def player(self, name: str) -> PlayerStanding:
        return next(p for p in self.players if p.name == name)

    def to_json(self) -> dict[str, object]:
        return {
            "players": [p.to_json() for p in self.players],
            "dealer": self.dealer,
            "over": self.over,
            "winner": self.winner,
            "tiebreak": list(self.tiebreak),
            "hand": self.hand_number,
            "tied": list(self.tied),
            "warnings": list(self.warnings),
        }

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
        )


# --- replay ---------------------------------------------------------------------


@dataclass
class _Seat:
    name: str
    score: int = 0
    done: list[int] = field(default_factory=list)
    last_attempt: int | None = None


class _Replay:
    """The state between hands; ``problems`` checks a hand, ``play`` records it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = game.rules
        self.seats = {name: _Seat(name) for name in game.players}
        self.hands_played = 0
        self.normal_hands = 0  # hands that are not tiebreaks
        self.over = False
        self.winner: str | None = None
        self.ended_in: int | None = None
        self.tiebreak: tuple[str, ...] = ()
        self.tiebreak_phases: dict[str, int] = {}
        self.tied: tuple[str, ...] = ()
        self.warnings: list[str] = []

    # what each player is on

    def sequence(self, name: str) -> tuple[int, ...]:
        return self.game.orders.get(name) or self.rules.sequence

    def left(self, name: str) -> tuple[int, ...]:
        done = self.seats[name].done
        return tuple(n for n in self.sequence(name) if n not in done)

    def finished(self, name: str) -> bool:
        if self.rules.progression is Progression.TEN_HANDS:
            return self.normal_hands >= len(self.rules.sequence)
        return not self.left(name)

    def next_phase(self, name: str) -> int | None:
        """The phase this player attempts in the next normal hand (None: finished)."""
        if self.rules.progression is Progression.TEN_HANDS:
            sequence = self.rules.sequence
            return sequence[self.normal_hands] if self.normal_hands < len(sequence) else None
        left = self.left(name)
        return left[0] if left else None

    def choices(self, name: str) -> tuple[int, ...]:
        """The phases this player may attempt in the next hand."""
        if self.over:
            return ()
        if self.tiebreak:
            return (self.tiebreak_phases[name],) if name in self.tiebreak else ()
        if self.rules.progression is Progression.MASTERS:
            return self.left(name)
        phase = self.next_phase(name)
        return (phase,) if phase is not None else ()

    def phase_in_hand(self, hand: HandRecord, name: str) -> tuple[int | None, Reason | None]:
        """(the phase this player attempted in this hand, or why that cannot be told)."""
        attempt = hand.attempts.get(name)
        if hand.tiebreak:
            expected: int | None = self.tiebreak_phases[name]
            if attempt is not None and attempt != expected:
                return None, cite(
                    _(
                        "replays phase %(phase)s in the tiebreak, not %(attempt)s",
                        phase=expected,
                        attempt=attempt,
                    ),
                    RULE_TIEBREAK,
                )
            return expected, None
        if self.rules.progression is Progression.MASTERS:
            left = self.left(name)
            if attempt is None:
                return None, cite(
                    _(
                        "say which phase they attempted: any phase not made yet (%(phases)s)",
                        phases=_numbers(left),
                    ),
                    RULE_MASTERS,
                )
            if attempt not in self.rules.sequence:
                return None, cite(
                    _(
                        "there is no phase %(phase)s in this game: choose one of %(phases)s",
                        phase=attempt,
                        phases=_numbers(left),
                    ),
                    RULE_MASTERS,
                )
            if attempt not in left:
                return None, cite(
                    _(
                        "already made phase %(phase)s: choose one not made yet (%(phases)s)",
                        phase=attempt,
                        phases=_numbers(left),
                    ),
                    RULE_MASTERS,
                )
            return attempt, None
        expected = self.next_phase(name)
        if expected is None:
            return None, cite(_("has already made every phase"), RULE_END)
        if attempt is not None and attempt != expected:
            return None, cite(
                _("is on phase %(phase)s, not %(attempt)s", phase=expected, attempt=attempt),
                RULE_ONE_PHASE,
            )
        return expected, None

    # checking a hand

    def problems(self, hand: HandRecord) -> list[Problem]:
        problems: list[Problem] = []

        def add(
            player: str | None, where: str, message: str | Reason, warning: bool = False
        ) -> None:
            problems.append(_reason(message, player, where, warning))

        for where, name in hand.named():
            if name not in self.seats:
                add(
                    name,
                    where,
                    _(
                        "is not a player in this game (%(names)s)",
                        names=join_names(self.game.players),
                    ),
                )
        if problems:
            return problems
        if self.over:
            if self.winner:
                message = _(
                    "the game is over: %(name)s won in hand %(hand)s; "
                    "no more hands can be recorded",
                    name=self.winner,
                    hand=self.ended_in,
                )
            else:
                message = _(
                    "the game is over: %(names)s tied after hand %(hand)s; "
                    "no more hands can be recorded",
                    names=join_names(self.tied),
                    hand=self.ended_in,
                )
            add(None, "hand", cite(message, RULE_END))
            return problems
        if hand.tiebreak and not self.tiebreak:
            add(
                None,
                "tiebreak",
                cite(_("no tiebreak is due: this is a normal hand"), RULE_TIEBREAK),
            )
            return problems
        if self.tiebreak and not hand.tiebreak:
            add(
                None,
                "tiebreak",
                cite(
                    _(
                        "%(names)s are tied: the next hand is their tiebreak, "
                        "played by them alone (mark it as a tiebreak)",
                        names=join_names(self.tiebreak),
                    ),
                    RULE_TIEBREAK,
                ),
            )
            return problems
        playing = self.tiebreak if hand.tiebreak else self.game.players
        if hand.tiebreak:
            for where, name in hand.named():
                if name not in playing:
                    message = _(
                        "is not in the tiebreak: only %(names)s play it", names=join_names(playing)
                    )
                    add(name, where, message)
            if problems:
                return problems

        for where, names in (("made", hand.made), ("floaters", hand.floaters)):
            for name in dict.fromkeys(n for n in names if names.count(n) > 1):
                add(name, where, _("is listed twice"))
        went_out = hand.went_out
        if went_out is None:
            add(
                None,
                "went_out",
                cite(
                    _("nobody went out: a hand ends when one player goes out, so say who did"),
                    RULE_GOING_OUT,
                ),
            )

        phases: dict[str, int] = {}
        for name in playing:
            phase, reason = self.phase_in_hand(hand, name)
            if reason is not None:
                add(name, "made" if reason.rule is RULE_END else "attempts", reason)
            if phase is not None:
                phases[name] = phase

        made = set(hand.made)
        if went_out is not None and went_out not in made:
            add(
                went_out,
                "made",
                cite(
                    _("went out, so they made their phase: list them in made as well"),
                    RULE_GOING_OUT,
                ),
            )
        for name in hand.floaters:
            if not self.rules.going_out_needs_discard:
                add(
                    name,
                    "floaters",
                    cite(
                        _(
                            "cannot be a floater with these rules: hitting the last card goes out "
                            "(the option going_out=discard brings floaters in)"
                        ),
                        RULE_FLOATER,
                    ),
                )
            elif name == went_out:
                add(name, "floaters", cite(_("cannot both go out and float"), RULE_FLOATER))
            elif name not in made:
                add(
                    name,
                    "floaters",
                    cite(_("a floater has laid down their phase: list them in made"), RULE_FLOATER),
                )

        if not hand.tiebreak:
            for name in playing:
                out = name == went_out or name in hand.floaters
                if not out and name not in hand.points and name not in hand.cards:
                    add(
                        name,
                        "points",
                        _(
                            "has no points for this hand: everyone but the player who went out "
                            "scores the cards left in hand"
                        ),
                    )
        if any(not p.warning for p in problems):
            return problems

        warning = not self.rules.strict_totals
        ends = self.ends(hand, phases)
        for name, end in ends.items():
            where = "cards" if end.cards is not None else "points"
            for reason in player_problems(self.rules, end):
                add(name, where, reason, warning)
        if not problems:
            for reason in table_problems(self.rules, ends):
                add(None, "points", reason, warning)
        return problems

    def ends(self, hand: HandRecord, phases: Mapping[str, int]) -> dict[str, PlayerHand]:
        return {
            name: PlayerHand(
                points=hand.points.get(name),
                cards=hand.cards.get(name),
                went_out=name == hand.went_out,
                floater=name in hand.floaters,
                laid_down=name in hand.made,
                phase=phase,
            )
            for name, phase in phases.items()
        }

    # recording a hand

    def play(self, hand: HandRecord) -> None:
        self.hands_played += 1
        playing = self.tiebreak if hand.tiebreak else self.game.players
        phases: dict[str, int] = {}
        for name in playing:
            phase, why = self.phase_in_hand(hand, name)
            if phase is None:  # problems() refuses such a hand before it is played
                raise GameError(
                    str(why) if why else _("no phase to play"), hand=self.hands_played, player=name
                )
            phases[name] = self.seats[name].last_attempt = phase
        if hand.tiebreak:
            self.winner, self.over, self.ended_in = hand.went_out, True, self.hands_played
            self.tiebreak, self.tiebreak_phases = (), {}
            return
        for name, end in self.ends(hand, phases).items():
            self.seats[name].score += end.total(self.rules)
        for name in hand.made:
            self.seats[name].done.append(phases[name])
        self.normal_hands += 1
        self.settle(hand)

    def settle(self, hand: HandRecord) -> None:
        """End the game if this hand ended it (RULES.md 9)."""
        players = self.game.players
        if self.rules.progression is Progression.TEN_HANDS:
            if self.normal_hands < len(self.rules.sequence):
                return
            pool = players
        else:
            finishers = [name for name in players if name in hand.made and self.finished(name)]
            if not finishers:
                return
            pool = players if self.rules.lowest_total_wins else tuple(finishers)
        lowest = min(self.seats[name].score for name in pool)
        best = tuple(name for name in pool if self.seats[name].score == lowest)
        self.ended_in = self.hands_played
        if len(best) == 1:
            self.over, self.winner = True, best[0]
        elif self.rules.progression is Progression.TEN_HANDS:
            self.over, self.tied = True, best  # shown as a tie, never settled silently
        else:
            self.tiebreak = best
            self.tiebreak_phases = {name: self.tiebreak_phase(name) for name in best}

    def tiebreak_phase(self, name: str) -> int:
        """The last phase, or with tiebreak=own-phase the phase each last attempted."""
        last = self.seats[name].last_attempt
        if self.rules.tiebreak_own_phase and last is not None:
            return last
        return self.sequence(name)[-1]

    def standings(self) -> Standings:
        players = []
        for name in self.game.players:
            seat = self.seats[name]
            phase = self.next_phase(name)
            if self.rules.progression is Progression.TEN_HANDS and phase is None:
                phase = self.rules.sequence[-1]
            players.append(
                PlayerStanding(
                    name=name,
                    phase=phase if phase is not None else self.sequence(name)[-1],
                    score=seat.score,
                    phases_done=tuple(seat.done),
                    finished=self.finished(name),
                    tiebreak_phase=self.tiebreak_phases.get(name),
                )
            )
        seats = self.game.players
        dealer = seats[(seats.index(self.game.dealer) + self.hands_played) % len(seats)]
        return Standings(
            players=tuple(players),
            dealer=dealer,
            hand_number=self.hands_played + 1,
            over=self.over,
            winner=self.winner,
            tiebreak=self.tiebreak,
            tied=self.tied,
            warnings=tuple(self.warnings),
        )

    def run(self, start: int = 0) -> list[Kept]:
        """Check and play the hands from ``start`` on; return the state kept after each."""
        kept = []
        for number, hand in enumerate(self.game.hands[start:], start=start + 1):
            problems = self.problems(hand)
            errors = [p for p in problems if not p.warning]
            if errors:
                first = errors[0]
                raise GameError(
                    first.message,
                    hand=number,
                    player=first.player,
                    rule=first.rule,
                    problems=problems,
                )
            added = [str(GameError(p.message, hand=number, player=p.player)) for p in problems]
            self.warnings += added
            self.play(hand)
            kept.append(self.keep(added))
        return kept

    # the state between hands, kept so a later change replays only from where it applies

    def keep(self, warnings: Sequence[str] = ()) -> Kept:
        """This state as plain JSON data; ``warnings`` are the ones the last hand added."""
        data: Kept = {
            "seats": [
                [seat.score, list(seat.done), seat.last_attempt] for seat in self.seats.values()
            ],
            "normal": self.normal_hands,
        }
        extra = {
            "over": self.over,
            "winner": self.winner,
            "ended_in": self.ended_in,
            "tiebreak": list(self.tiebreak),
            "tiebreak_phases": self.tiebreak_phases,
            "tied": list(self.tied),
            "warnings": list(warnings),
        }
        data.update({key: value for key, value in extra.items() if value})
        return data

    def resume(self, kept: Sequence[Kept]) -> None:
        """Stand where the game stood after ``len(kept)`` hands, without replaying them."""
        if not kept:
            return
        last = kept[-1]
        for seat, (score, done, attempt) in zip(self.seats.values(), last["seats"], strict=True):
            seat.score, seat.done, seat.last_attempt = score, list(done), attempt
        self.hands_played = len(kept)
        self.normal_hands = last["normal"]
        self.over = last.get("over", False)
        self.winner = last.get("winner")
        self.ended_in = last.get("ended_in")
        self.tiebreak = tuple(last.get("tiebreak", ()))
        self.tiebreak_phases = dict(last.get("tiebreak_phases", {}))
        self.tied = tuple(last.get("tied", ()))
        self.warnings = [w for step in kept for w in step.get("warnings", ())]


Kept = dict[str, Any]  # the engine's state after one hand, as JSON data (_Replay.keep)


@dataclass(frozen=True)
class Replayed:
    """Standings, and the state after each hand to resume from when a hand changes."""

    standings: Standings
    kept: tuple[Kept, ...]


def replay_from(game: Game, kept: Sequence[Kept] = ()) -> Replayed:
    """Like ``replay``, but trusting the state kept after the first ``len(kept)`` hands.

    Those hands were checked when they were recorded; only the later ones are
    checked and played, so recording a hand plays one hand and correcting hand k
    replays from k. Raises GameError for the first bad hand after the kept ones.
    """
    start = len(kept)
    if start > len(game.hands):
        raise ValueError(f"{start} hands kept, but the game has {len(game.hands)}")
    state = _resume(game, kept)
    kept = (*kept, *state.run(start))
    return Replayed(state.standings(), kept)


def _resume(game: Game, kept: Sequence[Kept]) -> _Replay:
    state = _Replay(game)
    state.resume(kept)
    return state


def replay(game: Game) -> Standings:
    """Standings after every recorded hand; raises GameError for the first bad hand."""
    state = _Replay(game)
    state.run()
    return state.standings()


@dataclass(frozen=True)
class PlayedHand:
    """One recorded hand as a score sheet shows it: who dealt, what each player did."""

    number: int
    hand: HandRecord
    dealer: str
    phases: Mapping[str, int]  # the phase each player tried (only the tied, in a tiebreak)
    points: Mapping[str, int]  # what each player scored in this hand (a tiebreak's too)
    totals: Mapping[str, int]  # each player's running total after it


def played_hands(
    game: Game, kept: Sequence[Kept] | None = None
) -> tuple[list[PlayedHand], Standings]:
    """Every hand with its dealer, phases tried, points and totals; then the standings.

    ``kept``: the state after each hand (``replay_from``), as the store keeps it;
    the record is then read off those states without replaying or re-checking
    anything. Without it (or when it does not cover every hand), one replay,
    hand by hand. Raises GameError like ``replay``.
    """
    if kept is not None and len(kept) == len(game.hands):
        return _played_from_kept(game, kept), _resume(game, kept).standings()
    state = _Replay(game)
    seats = game.players
    first = seats.index(game.dealer)
    played = []
    for number, hand in enumerate(game.hands, start=1):
        errors = [p for p in state.problems(hand) if not p.warning]
        if errors:
            raise GameError(errors[0].message, hand=number, player=errors[0].player)
        playing = state.tiebreak if hand.tiebreak else seats
        tried = {name: state.phase_in_hand(hand, name)[0] for name in playing}
        state.play(hand)
        played.append(
            PlayedHand(
                number,
                hand,
                dealer=seats[(first + number - 1) % len(seats)],
                phases={name: phase for name, phase in tried.items() if phase is not None},
                points=_hand_points(game, hand, playing),
                totals={name: state.seats[name].score for name in seats},
            )
        )
    return played, state.standings()


def _hand_points(game: Game, hand: HandRecord, playing: Sequence[str]) -> dict[str, int]:
    """What each player scored in the hand, read off the hand itself.

    Not the change in their total: a tiebreak's points are never added to it.
    """
    scores = hand.scores(game.rules)
    return {name: scores.get(name, 0) for name in playing}


def _played_from_kept(game: Game, kept: Sequence[Kept]) -> list[PlayedHand]:
    """The hands as ``played_hands`` replays them, read off the state kept after each.

    ``play`` sets each playing player's last attempt to the phase they tried.
    """
    seats = game.players
    first = seats.index(game.dealer)
    before: Kept = _Replay(game).keep()
    played = []
    for number, (hand, after) in enumerate(zip(game.hands, kept, strict=True), start=1):
        playing = tuple(before.get("tiebreak", ())) if hand.tiebreak else seats
        totals, tried = {}, {}
        for name, (score, _done, attempt) in zip(seats, after["seats"], strict=True):
            totals[name] = score
            if name in playing and attempt is not None:
                tried[name] = attempt
        played.append(
            PlayedHand(
                number,
                hand,
                dealer=seats[(first + number - 1) % len(seats)],
                phases=tried,
                points=_hand_points(game, hand, playing),
                totals=totals,
            )
        )
        before = after
    return played


def standings_by_hand(game: Game, *, checked: bool = True) -> list[Standings]:
    """The standings before the first hand and after each hand, in one replay.

    For statistics that need every step (hands spent on each phase) without
    replaying the game once per hand. Raises GameError like ``replay``.
    ``checked=False`` skips checking each hand's totals (most of a replay's
    time), for lists of games that were checked when they were saved.
    """
    if checked:
        replay(game)
    state = _Replay(game)
    steps = [state.standings()]
    for hand in game.hands:
        state.play(hand)
        steps.append(state.standings())
    return steps


def hand_problems(
    game_before: Game, hand: HandRecord, kept: Sequence[Kept] | None = None
) -> list[Problem]:
    """Everything wrong with a hand about to be added (for the web form); [] when fine.

    Warnings (impossible totals with option totals=warn) come back too, marked
    ``warning``; the hand may still be recorded. ``kept``: the state after each of
    ``game_before``'s hands (``replay_from``), to judge without replaying them.
    """
    if kept is not None and len(kept) == len(game_before.hands):
        return _resume(game_before, kept).problems(hand)
    state = _Replay(game_before)
    state.run()
    return state.problems(hand)


def next_phases(game: Game, kept: Sequence[Kept] | None = None) -> dict[str, tuple[int, ...]]:
    """Which phases each player may attempt in the next hand.

    One phase each in most games; every phase not made yet in Masters; only the
    tied players' tiebreak phase while a tiebreak is due; nothing once it is over.
    """
    if kept is not None and len(kept) == len(game.hands):
        state = _resume(game, kept)
    else:
        state = _Replay(game)
        state.run()
    return {name: state.choices(name) for name in game.players}


# --- JSON interchange (docs/game-format.md) --------------------------------------

_GAME_KEYS = ("rules", "options", "players", "dealer", "orders", "hands")


def _given(data: Mapping[str, object], key: str, empty: object) -> object:
    """``data[key]``, or ``empty`` when it is absent or null; "" or 0 stay, to be refused."""
    value = data.get(key)
    return empty if value is None else value


_HAND_KEYS = ("went_out", "made", "points", "attempts", "floaters", "cards", "tiebreak")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unknown(data: Mapping[Any, object], known: Sequence[str]) -> str | None:
    extra = [str(key) for key in data if key not in known]
    if not extra:
        return None
    return _(
        "unknown key %(keys)s: the keys are %(known)s",
        keys=", ".join(map(repr, extra)),
        known=", ".join(known),
    )


def _name_expected(what: str, value: object) -> str:
    """'the dealer must be a player's name, not 3' (``what`` names the JSON entry)."""
    return _("%(what)s must be a player's name, not %(value)r", what=what, value=value)


def load_game(data: object) -> Game:
    """Read a game from its JSON form, checking its shape (``replay`` checks the rules)."""
    if not isinstance(data, Mapping):
        raise GameError(_("a game is a JSON object with rules, options, players, dealer and hands"))
    if message := _unknown(data, _GAME_KEYS):
        raise GameError(message)
    profile = data.get("rules", "official")
    options = _given(data, "options", {})
    if not isinstance(profile, str):
        raise GameError(_("rules must be the name of a rules profile, such as 'official'"))
    if not isinstance(options, Mapping):
        raise GameError(_("options must be an object of option names and values"))
    values = {}
    for key, value in options.items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        if not isinstance(value, str | int):
            raise GameError(
                _("option %(key)s must be a word or a number, not %(value)r", key=key, value=value)
            )
        values[str(key)] = str(value)
    try:
        rules = make_rules(profile, values)
    except RulesError as error:
        raise GameError(str(error)) from None

    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not all(isinstance(p, str) for p in raw_players):
        raise GameError(_("players must be a list of names, in seating order"))
    players: tuple[str, ...] = tuple(name.strip() for name in raw_players)
    canonical = {name.casefold(): name for name in players}

    def name_of(value: object, what: str, hand: int | None = None) -> str:
        if not isinstance(value, str):
            raise GameError(_name_expected(what, value), hand=hand)
        return canonical.get(value.strip().casefold(), value.strip())

    dealer = name_of(data.get("dealer", players[0] if players else ""), _("the dealer"))
    orders = {}
    raw_orders = _given(data, "orders", {})
    if not isinstance(raw_orders, Mapping):
        raise GameError(_("orders must map each player to their list of phases"))
    for key, order in raw_orders.items():
        name = name_of(key, _("each key of %(key)s", key="orders"))
        if not isinstance(order, list) or not all(_is_int(n) for n in order):
            raise GameError(_("the order must be a list of phase numbers"), player=name)
        orders[name] = tuple(order)
    raw_hands = _given(data, "hands", [])
    if not isinstance(raw_hands, list):
        raise GameError(_("hands must be a list of hands, in the order they were played"))

    def names_in(hand: int) -> Callable[[object, str], str]:
        return lambda value, what: name_of(value, what, hand)

    hands = tuple(
        _load_hand(raw, number, names_in(number)) for number, raw in enumerate(raw_hands, start=1)
    )
    return Game(rules=rules, players=players, dealer=dealer, hands=hands, orders=orders)


def read_hand(game: Game, raw: object, number: int) -> HandRecord:
    """One hand in its JSON form, read as hand ``number`` of ``game`` (names made canonical)."""
    canonical = {name.casefold(): name for name in game.players}

    def name_of(value: object, what: str) -> str:
        if not isinstance(value, str):
            raise GameError(_name_expected(what, value), hand=number)
        return canonical.get(value.strip().casefold(), value.strip())

    return _load_hand(raw, number, name_of)


def _load_hand(raw: object, number: int, name_of: Callable[[object, str], str]) -> HandRecord:
    if not isinstance(raw, Mapping):
        raise GameError(_("a hand is an object with went_out, made and points"), hand=number)
    if message := _unknown(raw, _HAND_KEYS):
        raise GameError(message, hand=number)

    def names(key: str) -> tuple[str, ...]:
        value = raw.get(key) or []
        if not isinstance(value, list):
            raise GameError(_("%(key)s must be a list of names", key=key), hand=number)
        return tuple(name_of(v, _("each name in %(key)s", key=key)) for v in value)

    def mapping(key: str, read: Callable[[object], T]) -> dict[str, T]:
        value = raw.get(key) or {}
        if not isinstance(value, Mapping):
            raise GameError(
                _("%(key)s must be an object keyed by player name", key=key), hand=number
            )
        result: dict[str, T] = {}
        for key_name, item in value.items():
            name = name_of(key_name, _("each key of %(key)s", key=key))
            if name in result:
                raise GameError(
                    _("%(key)s names this player twice", key=key), hand=number, player=name
                )
            try:
                result[name] = read(item)
            except (TypeError, ValueError) as error:
                raise GameError(f"{key}: {error}", hand=number, player=name) from None
        return result

    def whole_number(item: object) -> int:
        if not isinstance(item, int) or isinstance(item, bool):  # _is_int, spelt out to narrow
            raise ValueError(_("must be a whole number, not %(value)r", value=item))
        return item

    def cards_left(item: object) -> CardsLeft:
        if not isinstance(item, Mapping):
            raise ValueError(_('give counts like {"low": 2, "high": 1, "skips": 0, "wilds": 0}'))
        return CardsLeft.from_mapping(item)

    went_out = raw.get("went_out")
    tiebreak = raw.get("tiebreak", False)
    if not isinstance(tiebreak, bool):
        raise GameError(_("tiebreak must be true or false"), hand=number)
    return HandRecord(
        went_out=None if went_out is None else name_of(went_out, "went_out"),
        made=names("made"),
        points=mapping("points", whole_number),
        attempts=mapping("attempts", whole_number),
        floaters=names("floaters"),
        cards=mapping("cards", cards_left),
        tiebreak=tiebreak,
    )


def _seated(game: Game, mapping: Mapping[str, T]) -> dict[str, T]:
    """The mapping in seating order (names not seated last)."""
    seat = {name: index for index, name in enumerate(game.players)}
    return {k: mapping[k] for k in sorted(mapping, key=lambda k: seat.get(k, len(seat)))}


def hand_to_json(game: Game, hand: HandRecord) -> dict[str, object]:
    """The JSON form of one hand of ``game`` (as in ``game_to_json``)."""
    data: dict[str, object] = {
        "went_out": hand.went_out,
        "made": list(hand.made),
        "points": _seated(game, hand.points),
    }
    if hand.attempts:
        data["attempts"] = _seated(game, hand.attempts)
    if hand.floaters:
        data["floaters"] = list(hand.floaters)
    if hand.cards:
        data["cards"] = {k: v.to_json() for k, v in _seated(game, hand.cards).items()}
    if hand.tiebreak:
        data["tiebreak"] = True
    return data


def game_to_json(game: Game) -> dict[str, object]:
    """The JSON form of a game; ``load_game(game_to_json(g)) == g``."""
    result: dict[str, object] = {
        "rules": game.rules.profile,
        "options": game.rules.changed_options(),
        "players": list(game.players),
        "dealer": game.dealer,
    }
    if game.orders:
        result["orders"] = {k: list(v) for k, v in _seated(game, game.orders).items()}
    result["hands"] = [hand_to_json(game, hand) for hand in game.hands]
    return result

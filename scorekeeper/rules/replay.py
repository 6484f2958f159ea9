"""Replay recorded hands into standings: phases, scores, dealer, winner (rules 3, 8, 9).

The state between hands (``_Replay``) checks a hand and plays it. Its state
after each hand can be kept as JSON data (``Kept``), so that recording a hand
plays one hand and correcting hand k replays from k.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..i18n import _, join
from . import reasons as rule
from .end_of_hand import PlayerHand, player_problems
from .game import Game, GameError, HandRecord, PlayerStanding, Standings
from .one_deck import table_problems
from .options import Progression
from .ranking import final_order
from .reasons import Reason, cite, pinned
from .words import listed


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
        self.ended_early = False

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
                    rule.TIES,
                )
            return expected, None
        if self.rules.progression is Progression.MASTERS:
            left = self.left(name)
            if attempt is None:
                return None, cite(
                    _(
                        "say which phase they attempted: any phase not made yet (%(phases)s)",
                        phases=listed(left),
                    ),
                    rule.MASTERS,
                )
            if attempt not in self.rules.sequence:
                return None, cite(
                    _(
                        "there is no phase %(phase)s in this game: choose one of %(phases)s",
                        phase=attempt,
                        phases=listed(left),
                    ),
                    rule.MASTERS,
                )
            if attempt not in left:
                return None, cite(
                    _(
                        "already made phase %(phase)s: choose one not made yet (%(phases)s)",
                        phase=attempt,
                        phases=listed(left),
                    ),
                    rule.MASTERS,
                )
            return attempt, None
        expected = self.next_phase(name)
        if expected is None:
            return None, cite(_("has already made every phase"), rule.END_OF_GAME)
        if attempt is not None and attempt != expected:
            return None, cite(
                _("is on phase %(phase)s, not %(attempt)s", phase=expected, attempt=attempt),
                rule.ONE_PHASE,
            )
        return expected, None

    # checking a hand

    def problems(self, hand: HandRecord) -> list[Reason]:
        problems = [
            self.stranger(name, where) for where, name in hand.named() if name not in self.seats
        ]
        number = self.hands_played + 1
        problems += [
            self.gone(name, where) for where, name in hand.named() if self.left_before(name, number)
        ]

        def add(
            player: str | None, where: str, message: str | Reason, warning: bool = False
        ) -> None:
            problems.append(pinned(message, player, where, warning))

        if problems:
            return problems
        if self.over:
            if self.ended_early:
                message = _(
                    "the game was ended early after hand %(hand)s; no more hands can be recorded",
                    hand=self.ended_in,
                )
            elif self.winner:
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
                    names=join(self.tied),
                    hand=self.ended_in,
                )
            add(None, "hand", cite(message, rule.END_OF_GAME))
            return problems
        if hand.tiebreak and not self.tiebreak:
            add(
                None,
                "tiebreak",
                cite(_("no tiebreak is due: this is a normal hand"), rule.TIES),
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
                        names=join(self.tiebreak),
                    ),
                    rule.TIES,
                ),
            )
            return problems
        playing = self.tiebreak if hand.tiebreak else self.game.playing(number)
        if hand.tiebreak:
            for where, name in hand.named():
                if name not in playing:
                    message = _(
                        "is not in the tiebreak: only %(names)s play it", names=join(playing)
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
                    rule.GOING_OUT,
                ),
            )

        phases: dict[str, int] = {}
        for name in playing:
            phase, reasons = self.phase_problems(hand, name)
            problems += reasons
            if phase is not None:
                phases[name] = phase

        made = set(hand.made)
        if went_out is not None and went_out not in made:
            add(
                went_out,
                "made",
                cite(
                    _("went out, so they made their phase: list them in made as well"),
                    rule.GOING_OUT,
                ),
            )
        for name in hand.floaters:
            problems += self.floater_problems(hand, name)

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

        ends = self.ends(hand, phases)
        for name, end in ends.items():
            problems += self.end_problems(name, end)
        if not problems:
            warning = not self.rules.strict_totals
            for reason in table_problems(self.rules, ends):
                add(None, "points", reason, warning)
        return problems

    def entry_problems(self, hand: HandRecord, name: str) -> list[Reason]:
        """What is wrong with one player's own entries in ``hand``, judged on their own.

        As ``problems`` judges them, but as if someone else went out and whatever
        the others entered: for a hand still being typed. In Masters, a player
        who does not say which phase they tried is judged on what holds in any.
        """
        if self.over or self.tiebreak or hand.tiebreak or name == hand.went_out:
            return []
        if name not in self.seats:
            return [self.stranger(name, "players")]
        if self.left_before(name, self.hands_played + 1):
            return [self.gone(name, "players")]
        phase: int | None = None
        problems: list[Reason] = []
        if self.rules.progression is not Progression.MASTERS or name in hand.attempts:
            phase, problems = self.phase_problems(hand, name)
        if name in hand.floaters:
            problems += self.floater_problems(hand, name)
        if problems:
            return problems
        return self.end_problems(name, self.end(hand, name, phase))

    def stranger(self, name: str, where: str) -> Reason:
        message = _("is not a player in this game (%(names)s)", names=join(self.game.players))
        return pinned(message, name, where)

    def left_before(self, name: str, number: int) -> bool:
        """This player had left the game before hand ``number``."""
        return name in self.seats and name not in self.game.playing(number)

    def gone(self, name: str, where: str) -> Reason:
        message = cite(
            _(
                "left the game after hand %(hand)s: the others play on without them",
                hand=self.game.left_after[name],
            ),
            rule.NIGHT_CHANGES,
        )
        return pinned(message, name, where)

    def phase_problems(self, hand: HandRecord, name: str) -> tuple[int | None, list[Reason]]:
        """The phase this player attempted in ``hand``, or why that cannot be told."""
        phase, reason = self.phase_in_hand(hand, name)
        if reason is None:
            return phase, []
        where = "made" if reason.rule is rule.END_OF_GAME else "attempts"
        return phase, [pinned(reason, name, where)]

    def floater_problems(self, hand: HandRecord, name: str) -> list[Reason]:
        """Why this player cannot be a floater in ``hand`` ([] when they can)."""
        if not self.rules.going_out_needs_discard:
            message = _(
                "cannot be a floater with these rules: hitting the last card goes out "
                "(the option going_out=discard brings floaters in)"
            )
        elif name == hand.went_out:
            message = _("cannot both go out and float")
        elif name not in hand.made:
            message = _("a floater has laid down their phase: list them in made")
        else:
            return []
        return [pinned(cite(message, rule.FLOATERS), name, "floaters")]

    def end_problems(self, name: str, end: PlayerHand) -> list[Reason]:
        """Why this player cannot have ended the hand so (warnings with totals=warn)."""
        where = "cards" if end.cards is not None else "points"
        warning = not self.rules.strict_totals
        return [pinned(r, name, where, warning) for r in player_problems(self.rules, end)]

    def end(self, hand: HandRecord, name: str, phase: int | None) -> PlayerHand:
        """How this player ended ``hand``, as the scoring rules judge it."""
        return PlayerHand(
            points=hand.points.get(name),
            cards=hand.cards.get(name),
            went_out=name == hand.went_out,
            floater=name in hand.floaters,
            laid_down=name in hand.made,
            phase=phase,
        )

    def ends(self, hand: HandRecord, phases: Mapping[str, int]) -> dict[str, PlayerHand]:
        return {name: self.end(hand, name, phase) for name, phase in phases.items()}

    # recording a hand

    def play(self, hand: HandRecord) -> None:
        self.hands_played += 1
        playing = self.tiebreak if hand.tiebreak else self.game.playing(self.hands_played)
        phases: dict[str, int] = {}
        for name in playing:
            phase, why = self.phase_in_hand(hand, name)
            if phase is None:  # problems() refuses such a hand before it is played
                raise GameError(
                    why.message if why else _("no phase to play"),
                    hand=self.hands_played,
                    player=name,
                    rule=why.rule if why else None,
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
        """End the game if this hand ended it (RULES.md 9), among those who played it."""
        players = self.game.playing(self.hands_played)
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

    def end_early(self) -> None:
        """The table stops here: the leader by the game's own order wins (RULES.md 9).

        Players the order cannot tell apart (the same phases and total, where
        phases count) share the win, shown as a tie. A game already over stays as it is.
        """
        if self.over:
            return
        if not self.hands_played:
            raise GameError(
                _("a game can be ended early only after its first hand"), rule=rule.END_OF_GAME
            )
        self.tiebreak, self.tiebreak_phases = (), {}
        leaders = [p.name for place, p in final_order(self.standings(), self.rules) if place == 1]
        self.over, self.ended_early, self.ended_in = True, True, self.hands_played
        if len(leaders) == 1:
            self.winner = leaders[0]
        else:
            self.tied = tuple(leaders)

    def tiebreak_phase(self, name: str) -> int:
        """The last phase, or with tiebreak=own-phase the phase each last attempted."""
        last = self.seats[name].last_attempt
        if self.rules.tiebreak_own_phase and last is not None:
            return last
        return self.sequence(name)[-1]

    def standings(self) -> Standings:
        players = []
        next_hand = self.hands_played + 1
        for name in self.game.players:
            seat = self.seats[name]
            phase = self.next_phase(name)
            if self.rules.progression is Progression.TEN_HANDS and phase is None:
                phase = self.rules.sequence[-1]
            gone = self.left_before(name, next_hand)
            players.append(
                PlayerStanding(
                    name=name,
                    phase=phase if phase is not None else self.sequence(name)[-1],
                    score=seat.score,
                    phases_done=tuple(seat.done),
                    finished=self.finished(name) and not gone,
                    tiebreak_phase=self.tiebreak_phases.get(name),
                    left_after=self.game.left_after[name] if gone else None,
                )
            )
        dealer = self.game.dealer_of(next_hand)
        return Standings(
            players=tuple(players),
            dealer=dealer,
            hand_number=self.hands_played + 1,
            over=self.over,
            winner=self.winner,
            tiebreak=self.tiebreak,
            tied=self.tied,
            warnings=tuple(self.warnings),
            ended_early=self.ended_early,
        )

    def run(self, start: int = 0, *, checked: bool = True) -> Iterator[Kept]:
        """Play the hands from ``start`` on, checking each first unless not ``checked``;
        yield the state kept after each."""
        for number, hand in enumerate(self.game.hands[start:], start=start + 1):
            problems = self.problems(hand) if checked else []
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
            added = [
                str(GameError(p.message, hand=number, player=p.player, rule=p.rule))
                for p in problems
            ]
            self.warnings += added
            self.play(hand)
            yield self.keep(added)

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
    state, kept = _played(game, kept)
    return Replayed(state.standings(), kept)


def _played(game: Game, kept: Sequence[Kept] | None) -> tuple[_Replay, tuple[Kept, ...]]:
    """The state after every hand of ``game``, and the state kept after each.

    The one way into the replay: the states ``kept`` after the first hands are
    trusted, and the hands after them are checked and played.
    """
    kept = tuple(kept or ())
    if len(kept) > len(game.hands):
        raise ValueError(f"{len(kept)} hands kept, but the game has {len(game.hands)}")
    state = _Replay(game)
    state.resume(kept)
    kept = (*kept, *state.run(len(kept)))
    if game.ended_early:
        state.end_early()
    return state, kept


def replay(game: Game) -> Standings:
    """Standings after every recorded hand; raises GameError for the first bad hand."""
    return replay_from(game).standings


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

    Read off the state kept after each hand: ``play`` sets each playing player's
    last attempt to the phase they tried. The hand's points are read off the hand
    itself, not the change in each total (a tiebreak's are never added). ``kept``:
    those states as the store keeps them (``replay_from``), so nothing is replayed or
    re-checked; the hands they do not cover are replayed. Raises GameError like ``replay``.
    """
    state, kept = _played(game, kept)
    seats = game.players
    before: Kept = _Replay(game).keep()
    played = []
    for number, (hand, after) in enumerate(zip(game.hands, kept, strict=True), start=1):
        playing = tuple(before.get("tiebreak", ())) if hand.tiebreak else game.playing(number)
        scores = hand.scores(game.rules)
        totals, tried = {}, {}
        for name, (score, _done, attempt) in zip(seats, after["seats"], strict=True):
            totals[name] = score
            if name in playing and attempt is not None:
                tried[name] = attempt
        played.append(
            PlayedHand(
                number,
                hand,
                dealer=game.dealer_of(number),
                phases=tried,
                points={name: scores.get(name, 0) for name in playing},
                totals=totals,
            )
        )
        before = after
    return played, state.standings()


def standings_by_hand(game: Game) -> list[Standings]:
    """The standings before the first hand and after each hand, in one replay.

    For statistics that need every step (hands spent on each phase) of games that
    were checked when they were saved: the hands are played without checking
    their totals (most of a replay's time).
    """
    state = _Replay(game)
    steps = [state.standings(), *(state.standings() for _ in state.run(checked=False))]
    if game.ended_early:
        state.end_early()
        steps[-1] = state.standings()
    return steps


def hand_problems(
    game_before: Game, hand: HandRecord, kept: Sequence[Kept] | None = None
) -> list[Reason]:
    """Everything wrong with a hand about to be added (for the web form); [] when fine.

    Warnings (impossible totals with option totals=warn) come back too, marked
    ``warning``; the hand may still be recorded. ``kept``: the state after each of
    ``game_before``'s hands (``replay_from``), to judge without replaying them.
    """
    return _played(game_before, kept)[0].problems(hand)


def entry_problems(
    game_before: Game, hand: HandRecord, names: Iterable[str], kept: Sequence[Kept] | None = None
) -> list[Reason]:
    """What is wrong with each named player's own entries in a hand still being typed.

    Each player's total or cards, made, floater and phase tried are judged on
    their own (``_Replay.entry_problems``), with the same reasons ``hand_problems``
    gives once the hand is whole; what concerns the whole table (who went out,
    one deck for everyone) waits for that. ``kept`` as in ``hand_problems``.
    """
    state = _played(game_before, kept)[0]
    return [problem for name in names for problem in state.entry_problems(hand, name)]


def next_phases(game: Game, kept: Sequence[Kept] | None = None) -> dict[str, tuple[int, ...]]:
    """Which phases each player may attempt in the next hand.

    One phase each in most games; every phase not made yet in Masters; only the
    tied players' tiebreak phase while a tiebreak is due; nothing once it is over.
    """
    state = _played(game, kept)[0]
    return {name: state.choices(name) for name in game.players}

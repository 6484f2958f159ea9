"""One player's end of a hand: the totals and cards left it can have, and why not (rule 8).

Every turn is draw one, discard one, so a hand never grows. That is what lets
the scorekeeper catch a mistyped total at the table:

- a player who did not lay down their phase ends with exactly 10 cards;
- a player who laid down held 11 cards, put down at least the phase's minimum
  and discarded one, so ends with at most ``10 - minimum`` cards, and, not
  having gone out (or floated), with at least one;
- the player who went out, and a floater, hold nothing and score 0.

What "laid down" means: in every progression (standard, even phases, first N,
ten hands, Masters, Mixed-up Masters) a hand starts with ten freshly dealt
cards and a player lays down at most one phase per hand, so a phase is never
"already down" from an earlier hand. Laid down therefore always means "made
their phase in this hand"; the phase is the one they attempted this hand
(their next one, the hand's phase in ten hands, the one they chose in Masters).

With the Super Wild option one Wild fills two places in a group, so a phase
can be laid down with one card fewer; the player then keeps one card more,
but that Super Wild is on the table, not in their hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..i18n import _, ngettext
from . import reasons as rule
from . import words
from .reasons import Reason, cite
from .ruleset import Rules
from .scoring import (
    HAND_SIZE,
    KINDS_LEFT,
    MADE_BELOW,
    CardsLeft,
    card_worths,
    count_words,
    deck_counts,
    kind_word,
    points_per_kind,
)


@dataclass(frozen=True)
class PlayerHand:
    """How one player's hand ended, as entered: what the checks need to know.

    ``phase`` is the phase number the player attempted this hand; when they
    laid it down without saying which phase (a Masters player's own phone), only
    what holds in every phase is checked. ``points`` or ``cards`` (or both)
    describe what is left; the player who went out and a floater may give neither.
    """

    points: int | None = None
    cards: CardsLeft | None = None
    went_out: bool = False
    floater: bool = False
    laid_down: bool = False
    phase: int | None = None

    def total(self, rules: Rules) -> int:
        """The points this player scores for the hand."""
        if self.points is not None:
            return self.points
        if self.cards is not None:
            return self.cards.points(rules)
        return 0


def fewest_cards(rules: Rules, phase: int) -> int:
    """The fewest cards that can lay this phase down (a Super Wild fills two places).

    A group needs a natural card beside the Super Wild, so it saves a card only
    in a group of 3 or more (or of 2, when one natural card per phase is enough
    and another group holds it).
    """
    spec = rules.phase(phase)
    fewest = spec.min_cards
    if rules.super_wild:
        for layout in spec.layouts:
            smallest = 2 if rules.natural_per_phase and len(layout) > 1 else 3
            if any(group.size >= smallest for group in layout):
                fewest = min(fewest, sum(group.size for group in layout) - 1)
    return fewest


@dataclass(frozen=True)
class Limits:
    """How many cards a player can hold at the end of a hand, from their position."""

    fewest: int  # fewest cards left
    most: int  # most cards left
    most_with_super_wild_down: int | None  # one more, when a Super Wild went into the phase


def limits_of(rules: Rules, hand: PlayerHand) -> Limits:
    """Out or floating: none; not laid down: all ten; laid down: what the phase leaves."""
    if hand.went_out or hand.floater:
        return Limits(0, 0, None)
    if not hand.laid_down:
        return Limits(HAND_SIZE, HAND_SIZE, None)
    if hand.phase is None:
        raise ValueError("a player who laid down needs the phase they laid down")
    minimum = rules.phase(hand.phase).min_cards
    fewest = fewest_cards(rules, hand.phase)
    return Limits(1, HAND_SIZE - minimum, HAND_SIZE - fewest if fewest < minimum else None)


@lru_cache(maxsize=16)
def _every_hand(rules: Rules) -> tuple[tuple[CardsLeft, int], ...]:
    """Every hand of 0-10 cards this game's deck can give a player, with its points."""
    deck, worth = deck_counts(rules), points_per_kind(rules)
    hands = []
    for super_wilds in range(deck.super_wilds + 1):
        for super_skips in range(deck.super_skips + 1):
            for wilds in range(deck.wilds + 1):
                for skips in range(deck.skips + 1):
                    special = super_wilds + super_skips + wilds + skips
                    for high in range(min(deck.high, HAND_SIZE - special) + 1):
                        for low in range(min(deck.low, HAND_SIZE - special - high) + 1):
                            cards = CardsLeft(low, high, skips, wilds, super_wilds, super_skips)
                            points = sum(n * w for n, w in zip(cards.vector, worth, strict=True))
                            hands.append((cards, points))
    return tuple(hands)


@lru_cache(maxsize=256)
def holdings(rules: Rules, limits: Limits) -> tuple[tuple[CardsLeft, CardsLeft, int], ...]:
    """(cards in hand, cards this player takes from the deck, points), for every way a
    player within these limits can end the hand."""
    found = []
    for cards, points in _every_hand(rules):
        count = cards.count
        if limits.fewest <= count <= limits.most:
            found.append((cards, cards, points))
        elif (
            count == limits.most_with_super_wild_down
            and count >= limits.fewest
            and not cards.super_wilds
        ):
            found.append((cards, cards + CardsLeft(super_wilds=1), points))
    return tuple(found)


def possible_totals(
    rules: Rules,
    *,
    laid_down: bool,
    phase: int | None = None,
    went_out: bool = False,
    floater: bool = False,
) -> frozenset[int]:
    """Every total a player in this position can score for the hand."""
    situation = PlayerHand(went_out=went_out, floater=floater, laid_down=laid_down, phase=phase)
    return _possible_totals(rules, situation)


def _possible_totals(rules: Rules, hand: PlayerHand) -> frozenset[int]:
    return frozenset(points for _, _, points in holdings(rules, limits_of(rules, hand)))


def _situation_problems(rules: Rules, hand: PlayerHand) -> list[Reason]:
    """Going out, floating and laying down that contradict each other."""
    problems = []
    if hand.went_out and hand.floater:
        problems.append(
            cite(
                _("cannot both go out and be a floater: a floater did not win the hand"),
                rule.FLOATERS,
            )
        )
    if hand.floater and not rules.going_out_needs_discard:
        problems.append(
            cite(
                _(
                    "cannot be a floater with these rules: hitting the last card goes out "
                    "(the option going_out=discard brings floaters in)"
                ),
                rule.FLOATERS,
            )
        )
    if hand.went_out and not hand.laid_down:
        problems.append(
            cite(
                _("went out without making their phase: going out needs the phase down"),
                rule.GOING_OUT,
            )
        )
    if hand.floater and not hand.laid_down:
        problems.append(
            cite(
                _(
                    "is a floater without making their phase: only a player whose phase is down "
                    "can hit away every card"
                ),
                rule.FLOATERS,
            )
        )
    return problems


def _floater_hint(rules: Rules, reason: str) -> str:
    """With floaters in play, a player with no card left may be one."""
    if not rules.going_out_needs_discard:
        return reason
    return _("%(reason)s (if they hit away every card, mark them as a floater)", reason=reason)


def total_problems(
    rules: Rules,
    points: int,
    *,
    went_out: bool = False,
    floater: bool = False,
    laid_down: bool = False,
    phase: int | None = None,
    player: str | None = None,
) -> list[Reason]:
    """Why this hand total is impossible for this player ([] when it is possible)."""
    hand = PlayerHand(
        points=points, went_out=went_out, floater=floater, laid_down=laid_down, phase=phase
    )
    return player_problems(rules, hand, player)


def _named(player: str | None, problems: list[Reason]) -> list[Reason]:
    return [p.about(player) for p in problems] if player else problems


def _points_problems(rules: Rules, hand: PlayerHand) -> list[Reason]:
    points = hand.points
    assert points is not None
    if points < 0:
        return [
            cite(
                _("%(points)s is not possible: points are never negative", points=points),
                rule.CARD_POINTS,
            )
        ]
    if hand.went_out:
        if points:
            return [cite(_("went out, so scores 0, not %(points)s", points=points), rule.GOING_OUT)]
        return []
    if hand.floater:
        if points:
            return [
                cite(
                    _(
                        "is a floater with no cards left, so scores 0, not %(points)s",
                        points=points,
                    ),
                    rule.FLOATERS,
                )
            ]
        return []
    if points % 5:
        reason = _(
            "%(points)s is not a multiple of 5: every card is worth %(listed)s or %(most)s",
            points=points,
            **card_worths(rules),
        )
        return [cite(reason, rule.CARD_POINTS)]
    if hand.laid_down and hand.phase is None:
        return []  # how many cards are left depends on the phase
    limits = limits_of(rules, hand)
    possible = _possible_totals(rules, hand)
    if points in possible:
        return []
    if not hand.laid_down:
        values: dict[str, object] = {"points": points, "size": HAND_SIZE}
        if points < min(possible):
            reason = _(
                "%(points)s is not possible: a player who did not make the phase holds exactly "
                "%(size)s cards, worth at least %(least)s",
                least=min(possible),
                **values,
            )
        elif points > max(possible):
            reason = _(
                "%(points)s is not possible: a player who did not make the phase holds exactly "
                "%(size)s cards, worth at most %(most)s",
                most=max(possible),
                **values,
            )
        else:
            reason = _(
                "%(points)s is not possible: a player who did not make the phase holds exactly "
                "%(size)s cards, and no %(size)s cards are worth %(points)s",
                **values,
            )
        return [cite(reason, rule.HAND_SIZE)]
    most = limits.most_with_super_wild_down or limits.most
    if not possible:
        return [
            cite(
                _(
                    "%(points)s is not possible: laying down phase %(phase)s and discarding "
                    "leaves no card, so someone who laid down phase %(phase)s went out "
                    "(or floated)",
                    points=points,
                    phase=hand.phase,
                ),
                rule.CARDS_LEFT,
            )
        ]
    if points == 0:
        reason = _(
            "0 is not possible for someone who laid down phase %(phase)s and did not go out: "
            "at least 1 card is left",
            phase=hand.phase,
        )
        return [cite(_floater_hint(rules, reason), rule.CARDS_LEFT)]
    values = {"points": points, "phase": hand.phase, "cards": words.cards(most)}
    if points > max(possible):
        return [
            cite(
                _(
                    "%(points)s is too much for someone who laid down phase %(phase)s "
                    "(at most %(cards)s left, worth at most %(most)s)",
                    most=max(possible),
                    **values,
                ),
                rule.CARDS_LEFT,
            )
        ]
    return [
        cite(
            ngettext(
                "%(points)s is not possible for someone who laid down phase %(phase)s: "
                "at most %(cards)s left, and no single card is worth %(points)s",
                "%(points)s is not possible for someone who laid down phase %(phase)s: "
                "at most %(cards)s left, and no %(num)s cards or fewer are worth %(points)s",
                most,
                **values,
            ),
            rule.CARDS_LEFT,
        )
    ]


def counts_problems(
    rules: Rules,
    cards: CardsLeft,
    *,
    went_out: bool = False,
    floater: bool = False,
    laid_down: bool = False,
    phase: int | None = None,
    player: str | None = None,
) -> list[Reason]:
    """Why these exact cards left are impossible for this player ([] when possible)."""
    hand = PlayerHand(
        cards=cards, went_out=went_out, floater=floater, laid_down=laid_down, phase=phase
    )
    return player_problems(rules, hand, player)


def _cards_problems(rules: Rules, hand: PlayerHand) -> list[Reason]:
    cards = hand.cards
    assert cards is not None
    deck = deck_counts(rules)
    problems = []
    for kind in KINDS_LEFT:
        held, limit = getattr(cards, kind), getattr(deck, kind)
        if held <= limit:
            continue
        if limit == 0:
            problems.append(
                cite(
                    _("there is no %(card)s in this game's deck", card=kind_word(kind)),
                    rule.SUPER_WILD,
                )
            )
        else:
            problems.append(
                cite(
                    _(
                        "%(cards)s cannot be in one hand: the deck has only %(limit)s",
                        cards=count_words(held, kind),
                        limit=limit,
                    ),
                    rule.DECK,
                )
            )
    if problems:
        return problems
    count = cards.count
    if hand.went_out or hand.floater:
        if count and hand.went_out:
            reason = _("went out, so holds no cards, not %(cards)s", cards=words.cards(count))
            return [cite(reason, rule.GOING_OUT)]
        if count:
            reason = _("is a floater, so holds no cards, not %(cards)s", cards=words.cards(count))
            return [cite(reason, rule.FLOATERS)]
        return []
    if not hand.laid_down:
        if count != HAND_SIZE:
            reason = _(
                "a player who did not make the phase holds exactly %(size)s cards, not %(count)s",
                size=HAND_SIZE,
                count=count,
            )
            return [cite(reason, rule.HAND_SIZE)]
        return []
    if hand.phase is None:
        return []  # how many cards are left depends on the phase
    limits = limits_of(rules, hand)
    most = limits.most
    if limits.most_with_super_wild_down is not None and not cards.super_wilds:
        most = limits.most_with_super_wild_down
    if most < 1:
        return [
            cite(
                _(
                    "laying down phase %(phase)s and discarding leaves no card, so "
                    "someone who laid down phase %(phase)s went out (or floated)",
                    phase=hand.phase,
                ),
                rule.CARDS_LEFT,
            )
        ]
    if count == 0:
        reason = _(
            "someone who laid down phase %(phase)s and did not go out has at least 1 card left",
            phase=hand.phase,
        )
        return [cite(_floater_hint(rules, reason), rule.CARDS_LEFT)]
    if count > most:
        reason = _(
            "someone who laid down phase %(phase)s has at most %(cards)s left, not %(count)s",
            phase=hand.phase,
            cards=words.cards(most),
            count=count,
        )
        return [cite(reason, rule.CARDS_LEFT)]
    return []


def player_problems(rules: Rules, hand: PlayerHand, player: str | None = None) -> list[Reason]:
    """Everything wrong with one player's end of hand: position, cards, points."""
    problems = _situation_problems(rules, hand)
    if not problems and hand.cards is not None:
        problems = _cards_problems(rules, hand)
        worth = hand.cards.points(rules)
        if not problems and hand.points is not None and hand.points != worth:
            problems = [
                cite(
                    _(
                        "%(cards)s are worth %(worth)s, not %(points)s",
                        cards=hand.cards.describe(),
                        worth=worth,
                        points=hand.points,
                    ),
                    rule.CARD_POINTS,
                )
            ]
    elif not problems and hand.points is not None:
        problems = _points_problems(rules, hand)
    return _named(player, problems)


def laid_down_implied(points: int) -> str | None:
    """Why a player's total says they laid down their phase, or None when it does not.

    Someone who never laid down still holds all ten cards at the end of the hand,
    and ten cards are worth at least 50 points: a lower total means they laid down.
    """
    if points >= MADE_BELOW:
        return None
    return _(
        "under %(least)s points means they laid it down (otherwise they would hold "
        "%(size)s cards, worth at least %(least)s)",
        least=MADE_BELOW,
        size=HAND_SIZE,
    )

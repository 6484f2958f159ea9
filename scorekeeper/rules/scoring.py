"""Hand points, and which hand totals a player can really end a hand with (rule 8).

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import NamedTuple

from ..i18n import N_, _, join, ngettext
from . import reasons as rule
from . import words
from .cards import COPIES_PER_NUMBER_AND_COLOUR, DECK_SKIPS, DECK_WILDS, Card, Colour, Kind
from .phases import Rules
from .reasons import Reason, cite

HAND_SIZE = 10  # cards dealt; also the most anyone holds at the end of a hand
LOW_POINTS = 5  # a card 1-9
HIGH_POINTS = 10  # a card 10-12
SKIP_POINTS = 15
SUPER_WILD_POINTS = 50
SUPER_SKIP_POINTS = 25
MADE_BELOW = HAND_SIZE * LOW_POINTS  # ten cards are worth at least this: less means laid down

# What a form reads at all: anything larger is a slip of the finger, not a hand.
MOST_TYPED = 1000  # a total, or a count of cards
MOST_OF_A_KIND = 2 * HAND_SIZE  # a count of cards of one kind


def card_points(rules: Rules, card: Card) -> int:
    """What one card left in hand costs at the end of a hand."""
    if card.kind is Kind.NUMBER:
        return LOW_POINTS if card.face <= 9 else HIGH_POINTS
    return {
        Kind.SKIP: SKIP_POINTS,
        Kind.WILD: rules.wild_points,
        Kind.SUPER_WILD: SUPER_WILD_POINTS,
        Kind.SUPER_SKIP: SUPER_SKIP_POINTS,
    }[card.kind]


def hand_points(rules: Rules, cards: Iterable[Card]) -> int:
    return sum(card_points(rules, card) for card in cards)


# --- cards left, counted by what they are worth ---------------------------------

_WORDS = ("low", "high", "skips", "wilds", "super_wilds", "super_skips")  # CardsLeft's kinds


_NUMBER_WORDS = {"low": N_("card 1-9"), "high": N_("card 10-12")}
_KINDS = {  # CardsLeft's other kinds, named as the cards themselves are
    "skips": Kind.SKIP,
    "wilds": Kind.WILD,
    "super_wilds": Kind.SUPER_WILD,
    "super_skips": Kind.SUPER_SKIP,
}
_KINDS_WORDS = {
    "low": N_("cards 1-9"),
    "high": N_("cards 10-12"),
    "skips": N_("Skips"),
    "wilds": N_("Wilds"),
    "super_wilds": N_("Super Wilds"),
    "super_skips": N_("Super Skips"),
}


def _count_words(count: int, kind: str) -> str:
    """'2 cards 1-9', '1 Wild', in the current language."""
    match kind:
        case "low":
            return ngettext("%(num)s card 1-9", "%(num)s cards 1-9", count)
        case "high":
            return ngettext("%(num)s card 10-12", "%(num)s cards 10-12", count)
        case "skips":
            return ngettext("%(num)s Skip", "%(num)s Skips", count)
        case "wilds":
            return ngettext("%(num)s Wild", "%(num)s Wilds", count)
        case "super_wilds":
            return ngettext("%(num)s Super Wild", "%(num)s Super Wilds", count)
        case "super_skips":
            return ngettext("%(num)s Super Skip", "%(num)s Super Skips", count)
        case _:
            raise KeyError(kind)


def _kind_word(kind: str) -> str:
    """One card of a kind, named: 'card 1-9', 'Super Wild'."""
    return _(_NUMBER_WORDS[kind]) if kind in _NUMBER_WORDS else _KINDS[kind].word


def _kinds_word(kind: str) -> str:
    """Cards of a kind, named: 'cards 1-9', 'Wilds'."""
    return _(_KINDS_WORDS[kind])


def _count_of(kind: str, value: object) -> int:
    """A count of cards of one kind: a whole number from 0 up (ValueError otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(
            _(
                "the number of %(cards)s must be a whole number from 0 up, not %(value)r",
                cards=_kinds_word(kind),
                value=value,
            )
        )
    return value


@dataclass(frozen=True)
class CardsLeft:
    """The cards a player holds at the end of a hand, counted by kind.

    Colours and exact numbers do not change the points, so a family can enter
    "two low cards and a Wild" instead of naming every card.
    """

    low: int = 0  # cards 1-9
    high: int = 0  # cards 10-12
    skips: int = 0
    wilds: int = 0
    super_wilds: int = 0
    super_skips: int = 0

    def __post_init__(self) -> None:
        for kind in _WORDS:
            _count_of(kind, getattr(self, kind))

    @property
    def vector(self) -> tuple[int, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))

    @property
    def count(self) -> int:
        return sum(self.vector)

    def points(self, rules: Rules) -> int:
        return sum(count * worth for count, worth in zip(self.vector, _worth(rules), strict=True))

    def __add__(self, other: CardsLeft) -> CardsLeft:
        return CardsLeft(*(a + b for a, b in zip(self.vector, other.vector, strict=True)))

    def describe(self) -> str:
        """'2 cards 1-9, 1 Wild' or 'no cards'."""
        parts = [_count_words(getattr(self, k), k) for k in _WORDS if getattr(self, k)]
        return ", ".join(parts) or _("no cards")

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> CardsLeft:
        counts = dict.fromkeys(_WORDS, 0)
        for card in cards:
            if card.kind is Kind.NUMBER:
                counts["low" if card.face <= 9 else "high"] += 1
            else:
                counts[card.kind.name.lower() + "s"] += 1
        return cls(**counts)

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> CardsLeft:
        """Read ``{"low": 2, "high": 1, "skips": 0, "wilds": 0}`` (missing kinds are 0)."""
        unknown = [str(key) for key in data if key not in _WORDS]
        if unknown:
            raise ValueError(
                _(
                    "unknown kind of card %(unknown)s: use %(kinds)s",
                    unknown=", ".join(unknown),
                    kinds=", ".join(_WORDS),
                )
            )
        # Checked in __post_init__'s order, so the first bad count named is the same.
        counts = {kind: _count_of(kind, data[kind]) for kind in _WORDS if kind in data}
        return cls(**counts)

    def to_json(self) -> dict[str, int]:
        """The four everyday kinds always; the Super cards only when held."""
        data = {"low": self.low, "high": self.high, "skips": self.skips, "wilds": self.wilds}
        if self.super_wilds:
            data["super_wilds"] = self.super_wilds
        if self.super_skips:
            data["super_skips"] = self.super_skips
        return data


def _worth(rules: Rules) -> tuple[int, ...]:
    """Points for one card of each kind, in CardsLeft's order."""
    return (
        LOW_POINTS,
        HIGH_POINTS,
        SKIP_POINTS,
        rules.wild_points,
        SUPER_WILD_POINTS,
        SUPER_SKIP_POINTS,
    )


class CardKind(NamedTuple):
    """One kind of card left in hand, as a form counts them."""

    key: str  # CardsLeft's field: low, high, skips, wilds, super_wilds, super_skips
    name: str  # in the current language: '1-9', 'Wild'
    points: int  # what one such card scores in this game


def card_kinds(rules: Rules) -> list[CardKind]:
    """The kinds of card a player can be left holding in this game, with their names and worth."""
    names = {"low": "1-9", "high": "10-12"}
    return [
        CardKind(key, names[key] if key in names else _KINDS[key].word, worth)
        for key, worth in zip(_WORDS, _worth(rules), strict=True)
        if rules.super_wild or not key.startswith("super")
    ]


def card_worths(rules: Rules) -> dict[str, object]:
    """What one card can be worth in this game, for a sentence: listed='5, 10, 15', most=25."""
    worths = sorted({kind.points for kind in card_kinds(rules)})
    return {"listed": ", ".join(str(w) for w in worths[:-1]), "most": worths[-1]}


def deck_counts(rules: Rules) -> CardsLeft:
    """The whole deck, counted the same way (with Super Wild, one Wild and one Skip are super)."""
    numbers_per_kind = len(Colour) * COPIES_PER_NUMBER_AND_COLOUR
    extra = 1 if rules.super_wild else 0
    return CardsLeft(
        low=9 * numbers_per_kind,
        high=3 * numbers_per_kind,
        skips=DECK_SKIPS - extra,
        wilds=DECK_WILDS - extra,
        super_wilds=extra,
        super_skips=extra,
    )


# --- what one player can hold ----------------------------------------------------


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
class _Limits:
    fewest: int  # fewest cards left
    most: int  # most cards left
    most_with_super_wild_down: int | None  # one more, when a Super Wild went into the phase


def _limits(rules: Rules, hand: PlayerHand) -> _Limits:
    if hand.went_out or hand.floater:
        return _Limits(0, 0, None)
    if not hand.laid_down:
        return _Limits(HAND_SIZE, HAND_SIZE, None)
    if hand.phase is None:
        raise ValueError("a player who laid down needs the phase they laid down")
    minimum = rules.phase(hand.phase).min_cards
    fewest = fewest_cards(rules, hand.phase)
    return _Limits(1, HAND_SIZE - minimum, HAND_SIZE - fewest if fewest < minimum else None)


@lru_cache(maxsize=16)
def _every_hand(rules: Rules) -> tuple[tuple[CardsLeft, int], ...]:
    """Every hand of 0-10 cards this game's deck can give a player, with its points."""
    deck, worth = deck_counts(rules), _worth(rules)
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
def _holdings(rules: Rules, limits: _Limits) -> tuple[tuple[CardsLeft, CardsLeft, int], ...]:
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
    return frozenset(points for _, _, points in _holdings(rules, _limits(rules, hand)))


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
    limits = _limits(rules, hand)
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
    for kind in _WORDS:
        held, limit = getattr(cards, kind), getattr(deck, kind)
        if held <= limit:
            continue
        if limit == 0:
            problems.append(
                cite(
                    _("there is no %(card)s in this game's deck", card=_kind_word(kind)),
                    rule.SUPER_WILD,
                )
            )
        else:
            problems.append(
                cite(
                    _(
                        "%(cards)s cannot be in one hand: the deck has only %(limit)s",
                        cards=_count_words(held, kind),
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
    limits = _limits(rules, hand)
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


# --- the whole table: can all of it come from one deck? ------------------------------


def _pareto(vectors: Iterable[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Drop every vector that needs at least as much of everything as another one."""
    kept: list[tuple[int, ...]] = []
    for vector in sorted(set(vectors), key=sum):
        if not any(all(k <= v for k, v in zip(other, vector, strict=True)) for other in kept):
            kept.append(vector)
    return kept


def _needs(rules: Rules, hand: PlayerHand) -> tuple[tuple[int, ...], ...]:
    """The least of each kind of card this player's end of hand can take from the deck."""
    return _needs_within(rules, _limits(rules, hand), hand.points, hand.cards)


@lru_cache(maxsize=4096)
def _needs_within(
    rules: Rules, limits: _Limits, points: int | None, exact: CardsLeft | None
) -> tuple[tuple[int, ...], ...]:
    holdings = _holdings(rules, limits)
    if exact is not None:
        matches = (used for cards, used, _ in holdings if cards == exact)
    elif points is not None:
        matches = (used for _, used, worth in holdings if worth == points)
    else:
        matches = (used for cards, used, _ in holdings if not cards.count)
    return tuple(_pareto(used.vector for used in matches))


def table_problems(rules: Rules, hands: Mapping[str, PlayerHand]) -> list[Reason]:
    """Why all these hands cannot have been dealt from one deck ([] when they can).

    With exact cards this adds them up; with bare totals it asks whether there is
    any way to pick cards for everyone that one deck holds. Players whose own
    entry is impossible are left out (``player_problems`` explains those).
    """
    deck = deck_counts(rules).vector
    needs = {name: options for name, hand in hands.items() if (options := _needs(rules, hand))}
    if len(needs) < 2:
        return []  # one hand alone is checked against the deck by counts_problems
    problems = []
    for index, kind in enumerate(_WORDS):
        least = sum(min(option[index] for option in options) for options in needs.values())
        if least <= deck[index]:
            continue
        holders = [name for name, options in needs.items() if min(o[index] for o in options)]
        exact = all(hands[name].cards is not None for name in holders)
        values = {
            "names": join(holders),
            "cards": _count_words(least, kind),
            "limit": deck[index],
        }
        if exact:
            reason = _(
                "together %(names)s hold %(cards)s, but the deck has only %(limit)s", **values
            )
        else:
            reason = _(
                "together %(names)s need at least %(cards)s, but the deck has only %(limit)s",
                **values,
            )
        problems.append(cite(reason, rule.DECK))
    if problems or _fits_one_deck(deck, list(needs.values())):
        return problems
    totals = ", ".join(f"{name} {hands[name].total(rules)}" for name in needs)
    return [
        cite(
            _(
                "these totals cannot all come from one deck (%(totals)s): together they "
                "need more Wilds, Skips and cards 10-12 than it holds",
                totals=totals,
            ),
            rule.DECK,
        )
    ]


def _fits_one_deck(deck: tuple[int, ...], needs: list[tuple[tuple[int, ...], ...]]) -> bool:
    """Can each player take one of their options so that the deck covers them all?"""
    if sum(max(sum(option) for option in options) for options in needs) <= deck[0]:
        # so few cards that the 72 cards 1-9 can never run out: leave them out
        deck = deck[1:]
        needs = [tuple(_pareto(option[1:] for option in options)) for options in needs]

    def share(option: tuple[int, ...]) -> float:
        return sum(n / d for n, d in zip(option, deck, strict=True) if d)

    cheapest = [min(options, key=share) for options in needs]
    if all(t <= d for t, d in zip(map(sum, zip(*cheapest, strict=True)), deck, strict=True)):
        return True  # the quick way: everyone takes their least scarce option
    reachable: list[tuple[int, ...]] = [(0,) * len(deck)]
    for options in needs:
        sums = (_plus(used, option) for used in reachable for option in options)
        reachable = _pareto(
            total for total in sums if all(t <= d for t, d in zip(total, deck, strict=True))
        )
        if not reachable:
            return False
    return True


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


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

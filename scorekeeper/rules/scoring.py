"""Card points, and the cards left in a hand counted by what they are worth (rule 8).

Colours and exact numbers do not change the points, so a hand's end is counted
by kind (``CardsLeft``): cards 1-9, cards 10-12, Skips, Wilds and, with Super
Wild, the Super cards. The deck is counted the same way (``deck_counts``), and
a form asks for the kinds this game has (``card_kinds``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import NamedTuple

from ..i18n import N_, _, ngettext
from .cards import COPIES_PER_NUMBER_AND_COLOUR, DECK_SKIPS, DECK_WILDS, Card, Colour, Kind
from .ruleset import Rules

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

KINDS_LEFT = ("low", "high", "skips", "wilds", "super_wilds", "super_skips")  # CardsLeft's order


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


def count_words(count: int, kind: str) -> str:
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


def kind_word(kind: str) -> str:
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
        for kind in KINDS_LEFT:
            _count_of(kind, getattr(self, kind))

    @property
    def vector(self) -> tuple[int, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))

    @property
    def count(self) -> int:
        return sum(self.vector)

    def points(self, rules: Rules) -> int:
        return sum(
            count * worth for count, worth in zip(self.vector, points_per_kind(rules), strict=True)
        )

    def __add__(self, other: CardsLeft) -> CardsLeft:
        return CardsLeft(*(a + b for a, b in zip(self.vector, other.vector, strict=True)))

    def describe(self) -> str:
        """'2 cards 1-9, 1 Wild' or 'no cards'."""
        parts = [count_words(getattr(self, k), k) for k in KINDS_LEFT if getattr(self, k)]
        return ", ".join(parts) or _("no cards")

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> CardsLeft:
        counts = dict.fromkeys(KINDS_LEFT, 0)
        for card in cards:
            if card.kind is Kind.NUMBER:
                counts["low" if card.face <= 9 else "high"] += 1
            else:
                counts[card.kind.name.lower() + "s"] += 1
        return cls(**counts)

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> CardsLeft:
        """Read ``{"low": 2, "high": 1, "skips": 0, "wilds": 0}`` (missing kinds are 0)."""
        unknown = [str(key) for key in data if key not in KINDS_LEFT]
        if unknown:
            raise ValueError(
                _(
                    "unknown kind of card %(unknown)s: use %(kinds)s",
                    unknown=", ".join(unknown),
                    kinds=", ".join(KINDS_LEFT),
                )
            )
        # Checked in __post_init__'s order, so the first bad count named is the same.
        counts = {kind: _count_of(kind, data[kind]) for kind in KINDS_LEFT if kind in data}
        return cls(**counts)

    def to_json(self) -> dict[str, int]:
        """The four everyday kinds always; the Super cards only when held."""
        data = {"low": self.low, "high": self.high, "skips": self.skips, "wilds": self.wilds}
        if self.super_wilds:
            data["super_wilds"] = self.super_wilds
        if self.super_skips:
            data["super_skips"] = self.super_skips
        return data


def points_per_kind(rules: Rules) -> tuple[int, ...]:
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
        for key, worth in zip(KINDS_LEFT, points_per_kind(rules), strict=True)
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

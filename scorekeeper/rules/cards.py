"""Cards: the 108-card deck, card notation, and what a real table can hold.

Phase 10 notation: a colour letter and a number (``R7``, ``b12``), ``W`` for a
Wild, ``S`` for a Skip. Regular-deck notation: rank then suit (``AH``, ``10S``,
``QC``), Kings are Wild and ``JOKER`` is a Skip; the suit-to-colour mapping
comes from the game. With the Super Wild variant, ``SW`` is the Super Wild and
``SS`` the Super Skip.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from ..i18n import N_, _, ngettext, pgettext

_CARD_WORDS = {
    # Translators: a card in words, as players say it: 'rote 7', '7 rojo'.
    "R": N_("red %(number)s"),
    "B": N_("blue %(number)s"),
    "G": N_("green %(number)s"),
    "Y": N_("yellow %(number)s"),
}


class Colour(Enum):
    RED = "R"
    BLUE = "B"
    GREEN = "G"
    YELLOW = "Y"

    @property
    def word(self) -> str:
        """The colour's name on its own, in the current language: 'red', 'rot', 'rojo'."""
        match self:
            case Colour.RED:
                return pgettext("colour", "red")
            case Colour.BLUE:
                return pgettext("colour", "blue")
            case Colour.GREEN:
                return pgettext("colour", "green")
            case Colour.YELLOW:
                return pgettext("colour", "yellow")

    def card(self, number: int | str) -> str:
        """A card of this colour in words: 'red 7', 'rote 7', '7 rojo'."""
        return _(_CARD_WORDS[self.value], number=number)

    @property
    def symbol(self) -> str:
        """A shape per colour, so colour is never the only signal."""
        return {"R": "\u2665", "B": "\u2660", "G": "\u2663", "Y": "\u2666"}[self.value]


_KIND_WORDS = {
    "number": N_("number card"),
    "wild": N_("Wild"),
    "skip": N_("Skip"),
    "super wild": N_("Super Wild"),
    "super skip": N_("Super Skip"),
}


class Kind(Enum):
    NUMBER = "number"
    WILD = "wild"
    SKIP = "skip"
    SUPER_WILD = "super wild"
    SUPER_SKIP = "super skip"

    @property
    def word(self) -> str:
        """The card's name, as printed on it: 'Wild', 'Skip', 'Super Wild'."""
        return _(_KIND_WORDS[self.value])

    def count(self, n: int) -> str:
        """'1 wild', '4 skips': how many cards of this kind the deck holds."""
        match self:
            case Kind.NUMBER:
                return ngettext("%(num)s number card", "%(num)s number cards", n)
            case Kind.WILD:
                return ngettext("%(num)s wild", "%(num)s wilds", n)
            case Kind.SKIP:
                return ngettext("%(num)s skip", "%(num)s skips", n)
            case Kind.SUPER_WILD:
                return ngettext("%(num)s super wild", "%(num)s super wilds", n)
            case Kind.SUPER_SKIP:
                return ngettext("%(num)s super skip", "%(num)s super skips", n)


class CardError(ValueError):
    """A card or list of cards that cannot be read, or cannot exist."""


@dataclass(frozen=True)
class Card:
    kind: Kind
    number: int | None = None
    colour: Colour | None = None

    def __post_init__(self) -> None:
        if self.kind is Kind.NUMBER:
            if self.colour is None or self.number is None or not 1 <= self.number <= 12:
                raise CardError("a number card needs a colour and a number from 1 to 12")
        elif self.number is not None or self.colour is not None:
            raise CardError(f"a {self.kind.value} has no number or colour")

    @property
    def face(self) -> int:
        """A number card's number; asking a Wild or a Skip for one is a bug."""
        if self.number is None:
            raise CardError(f"a {self.kind.value} has no number")
        return self.number

    @property
    def hue(self) -> Colour:
        """A number card's colour; asking a Wild or a Skip for one is a bug."""
        if self.colour is None:
            raise CardError(f"a {self.kind.value} has no colour")
        return self.colour

    @property
    def is_wild(self) -> bool:
        return self.kind in (Kind.WILD, Kind.SUPER_WILD)

    @property
    def is_skip(self) -> bool:
        return self.kind in (Kind.SKIP, Kind.SUPER_SKIP)

    @property
    def is_natural(self) -> bool:
        """A numbered card: what every group needs at least one of."""
        return self.kind is Kind.NUMBER

    @property
    def width(self) -> int:
        """How many places the card fills in a group (a Super Wild fills two)."""
        return 2 if self.kind is Kind.SUPER_WILD else 1

    @property
    def code(self) -> str:
        if self.kind is Kind.NUMBER:
            return f"{self.hue.value}{self.face}"
        return {
            Kind.WILD: "W",
            Kind.SKIP: "S",
            Kind.SUPER_WILD: "SW",
            Kind.SUPER_SKIP: "SS",
        }[self.kind]

    def describe(self) -> str:
        """Words for a person: "red 7", "Wild" (in the current language)."""
        if self.kind is Kind.NUMBER:
            return self.hue.card(self.face)
        return self.kind.word

    def __str__(self) -> str:
        return self.code

    def sort_key(self) -> tuple[int, int, str]:
        order = {Kind.NUMBER: 0, Kind.WILD: 1, Kind.SUPER_WILD: 2, Kind.SKIP: 3, Kind.SUPER_SKIP: 4}
        return (order[self.kind], self.number or 0, self.colour.value if self.colour else "")


WILD = Card(Kind.WILD)
SKIP = Card(Kind.SKIP)
SUPER_WILD = Card(Kind.SUPER_WILD)
SUPER_SKIP = Card(Kind.SUPER_SKIP)


def number_card(colour: Colour | str, number: int) -> Card:
    return Card(Kind.NUMBER, number, Colour(colour) if isinstance(colour, str) else colour)


# --- the deck -----------------------------------------------------------------

COPIES_PER_NUMBER_AND_COLOUR = 2
DECK_WILDS = 8
DECK_SKIPS = 4
DECK_SIZE = 12 * len(Colour) * COPIES_PER_NUMBER_AND_COLOUR + DECK_WILDS + DECK_SKIPS  # 108


def deck(super_wild: bool = False) -> list[Card]:
    """All 108 cards; with Super Wild, one Wild and one Skip are the super ones."""
    cards = [
        number_card(colour, number)
        for colour in Colour
        for number in range(1, 13)
        for _ in range(COPIES_PER_NUMBER_AND_COLOUR)
    ]
    cards += [WILD] * DECK_WILDS + [SKIP] * DECK_SKIPS
    if super_wild:
        cards[cards.index(WILD)] = SUPER_WILD
        cards[cards.index(SKIP)] = SUPER_SKIP
    return cards


def deck_limit(card: Card, super_wild: bool = False) -> int:
    """How many copies of this card one deck holds."""
    if card.kind is Kind.NUMBER:
        return COPIES_PER_NUMBER_AND_COLOUR
    if card.kind in (Kind.SUPER_WILD, Kind.SUPER_SKIP):
        return 1 if super_wild else 0
    if card.kind is Kind.WILD:
        return DECK_WILDS - (1 if super_wild else 0)
    return DECK_SKIPS - (1 if super_wild else 0)


def impossible(cards: Iterable[Card], super_wild: bool = False) -> list[str]:
    """Why these cards cannot all be on one table at once ([] when they can)."""
    problems = []
    for card, count in sorted(Counter(cards).items(), key=lambda item: item[0].sort_key()):
        limit = deck_limit(card, super_wild)
        if count <= limit:
            continue
        if limit == 0:
            problems.append(_("there is no %(card)s in this game's deck", card=card.describe()))
        elif card.kind is Kind.NUMBER:
            problems.append(
                _(
                    "%(count)s x %(card)s is impossible: the deck has only %(limit)s of each "
                    "number in each colour",
                    count=count,
                    card=card,
                    limit=limit,
                )
            )
        else:
            problems.append(
                _(
                    "%(count)s x %(card)s is impossible: the deck has only %(cards)s",
                    count=count,
                    card=card,
                    cards=card.kind.count(limit),
                )
            )
    return problems


# --- regular decks -----------------------------------------------------------

SUITS = {"H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs"), "S": N_("spades")}


def suit_word(suit: str) -> str:
    """A suit's name in the current language: 'hearts', 'Herz', 'corazones'."""
    return _(SUITS[suit])


SUIT_SYMBOLS = {"\u2665": "H", "\u2666": "D", "\u2663": "C", "\u2660": "S"}
DEFAULT_SUIT_COLOURS: Mapping[str, Colour] = {
    "H": Colour.RED,
    "D": Colour.YELLOW,
    "C": Colour.GREEN,
    "S": Colour.BLUE,
}
RANKS = {"A": 1, "J": 11, "Q": 12, **{str(n): n for n in range(2, 11)}}


def parse_suit_colours(text: str) -> dict[str, Colour]:
    """Read a mapping like ``H=R,D=Y,C=G,S=B`` (each suit to a different colour)."""
    mapping: dict[str, Colour] = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        suit, sep, colour = part.partition("=")
        suit, colour = suit.strip().upper()[:1], colour.strip().upper()[:1]
        if not sep or suit not in SUITS or colour not in {c.value for c in Colour}:
            raise CardError(
                _("cannot read suit mapping %(part)r: write it like H=R,D=Y,C=G,S=B", part=part)
            )
        mapping[suit] = Colour(colour)
    if set(mapping) != set(SUITS) or len(set(mapping.values())) != len(Colour):
        raise CardError(_("the suit mapping must give each of H, D, C, S its own colour"))
    return mapping


def format_suit_colours(mapping: Mapping[str, Colour]) -> str:
    return ",".join(f"{suit}={mapping[suit].value}" for suit in SUITS)


# --- notation ----------------------------------------------------------------

_PHASE10 = re.compile(r"([RBGY])(\d{1,2})")
_REGULAR = re.compile(r"(A|[2-9]|10|J|Q|K)([HDCS])")


def parse_card(text: str, suit_colours: Mapping[str, Colour] | None = None) -> Card:
    """Read one card in Phase 10 or regular-deck notation, any case."""
    raw = text.strip()
    token = raw.upper()
    for symbol, suit in SUIT_SYMBOLS.items():
        token = token.replace(symbol, suit)
    if token in ("W", "WILD"):
        return WILD
    if token in ("S", "SKIP"):
        return SKIP
    if token in ("SW", "SUPERWILD"):
        return SUPER_WILD
    if token in ("SS", "SUPERSKIP"):
        return SUPER_SKIP
    if token in ("JOKER", "JK"):
        return SKIP
    if match := _PHASE10.fullmatch(token):
        number = int(match.group(2))
        if not 1 <= number <= 12:
            raise CardError(_("%(card)r: Phase 10 numbers go from 1 to 12", card=raw))
        return number_card(match.group(1), number)
    if match := _REGULAR.fullmatch(token):
        rank, suit = match.groups()
        if rank == "K":
            return WILD
        colours = suit_colours or DEFAULT_SUIT_COLOURS
        return number_card(colours[suit], RANKS[rank])
    raise CardError(
        _(
            "cannot read card %(card)r: use a colour and number like R7 or b12, W for Wild, "
            "S for Skip, or a playing card like 7H, QS, KD (Wild) or JOKER (Skip)",
            card=raw,
        )
    )


def parse_cards(text: str, suit_colours: Mapping[str, Colour] | None = None) -> list[Card]:
    """Read cards separated by spaces or commas."""
    return [parse_card(t, suit_colours) for t in re.split(r"[\s,]+", text.strip()) if t]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)

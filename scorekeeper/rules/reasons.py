"""Why not: one reason type for every check, score and replayed hand.

A ``Reason`` carries the words a family reads, the rule it comes from, and,
when it concerns one player's entry, that player and the form field. Each
``Rule`` is a section of the app's rules page (docs/rules.md, served at
/rules), named by its number and title and found by its anchor, so a screen
can link it as "Rule 8: card points ›".
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Rule:
    """A section of the rules page: 'Rule 8: card points', at /rules#card-points."""

    number: int
    title: str
    anchor: str

    def __str__(self) -> str:
        return f"Rule {self.number}: {self.title}"


@dataclass(frozen=True)
class Reason:
    """One thing wrong, in plain words, with the rule it breaks.

    ``field`` names the entry it concerns (went_out, made, points, cards,
    attempts, floaters, tiebreak, hand, players); a ``warning`` (impossible
    totals under the house rule totals=warn) does not stop a hand being saved.
    """

    message: str
    rule: Rule | None = None
    player: str | None = None
    field: str | None = None
    warning: bool = False

    def __str__(self) -> str:
        return f"{self.player}: {self.message}" if self.player else self.message

    def about(self, player: str | None, field: str | None = None) -> Reason:
        """The same reason, pinned to a player (and a field, when given)."""
        return replace(self, player=player, field=field or self.field)

    def cited(self) -> str:
        """The reason with its rule, for plain text: '... [Rule 8: card points]'."""
        return f"{self} [{self.rule}]" if self.rule else str(self)

    def to_json(self) -> dict[str, object]:
        return {
            "message": self.message,
            "rule": str(self.rule) if self.rule else None,
            "anchor": self.rule.anchor if self.rule else None,
            "player": self.player,
            "field": self.field,
            "warning": self.warning,
        }


def cite(message: str, rule: Rule) -> Reason:
    return Reason(message, rule)


# --- the rules, as the rules page numbers them ----------------------------------

DECK = Rule(1, "the deck", "deck")
REGULAR_DECKS = Rule(2, "two regular decks", "regular-decks")
PHASES = Rule(3, "the phases", "phases")
PLAYERS = Rule(3, "players", "players")
PLUS10 = Rule(3, "Phase 10 + 10", "phase-10-plus-10")
EVEN = Rule(3, "even phases", "even-phases")
FIRST_PHASES = Rule(3, "first to N phases", "first-phases")
TEN_HANDS = Rule(3, "ten hands", "ten-hands")
MASTERS = Rule(3, "Masters", "masters")
MIXED_UP = Rule(3, "Mixed-up Masters", "mixed-up-masters")
SUPER_WILD = Rule(3, "Super Wild", "super-wild")
OWN_PHASES = Rule(3, "your own phases", "own-phases")
SETS = Rule(4, "sets", "sets")
RUNS = Rule(4, "runs", "runs")
COLOUR_GROUPS = Rule(4, "colour groups", "colour-groups")
WILDS = Rule(4, "Wilds", "wilds")
NATURAL = Rule(4, "a natural card", "natural-card")
SKIPS_NOT_LAID = Rule(4, "Skips are never laid down", "skips-not-laid")
LAYING_DOWN = Rule(5, "laying down", "laying-down")
NO_EXTRA_GROUPS = Rule(5, "no extra groups", "no-extra-groups")
ONE_PHASE = Rule(5, "one phase per hand, in order", "one-phase")
HITTING = Rule(6, "hitting", "hitting")
SKIPS = Rule(7, "Skips", "skips")
GOING_OUT = Rule(8, "going out", "going-out")
FLOATERS = Rule(8, "floaters", "floaters")
CARD_POINTS = Rule(8, "card points", "card-points")
HAND_SIZE = Rule(8, "a hand never grows", "hand-size")
CARDS_LEFT = Rule(8, "laying down uses cards", "cards-left")
END_OF_GAME = Rule(9, "end of the game", "end-of-game")
TIES = Rule(9, "ties", "ties")
HOUSE_RULES = Rule(10, "house rules", "house-rules")

ALL_RULES: tuple[Rule, ...] = tuple(
    value for value in globals().values() if isinstance(value, Rule)
)

"""Why not: one reason type for every check, score and replayed hand.

A ``Reason`` carries the words a family reads, the rule it comes from, and,
when it concerns one player's entry, that player and the form field. Each
``Rule`` is a section of the app's rules page (docs/rules.md, served at
/rules), named by its number and title and found by its anchor, so a screen
can link it as "Rule 8: card points ›".
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..i18n import N_, _


@dataclass(frozen=True)
class Rule:
    """A section of the rules page: 'Rule 8: card points', at /rules#card-points.

    ``title`` is the English title (marked for translation); ``__str__`` and
    ``heading`` speak the current language.
    """

    number: int
    title: str
    anchor: str

    @property
    def heading(self) -> str:
        """The title in the current language: 'card points', 'Kartenpunkte'."""
        return _(self.title)

    def __str__(self) -> str:
        return _("Rule %(number)s: %(title)s", number=self.number, title=self.heading)


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
        # Translators: a reason with the rule it cites, in plain text.
        return _("%(reason)s [%(rule)s]", reason=self, rule=self.rule) if self.rule else str(self)

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


def pinned(message: str | Reason, player: str | None, field: str, warning: bool = False) -> Reason:
    """A reason about one player's entry in ``field`` (a plain message cites no rule)."""
    reason = message if isinstance(message, Reason) else Reason(message)
    return replace(reason, player=player, field=field, warning=warning)


# --- the rules, as the rules page numbers them ----------------------------------

DECK = Rule(1, N_("the deck"), "deck")
REGULAR_DECKS = Rule(2, N_("two regular decks"), "regular-decks")
PHASES = Rule(3, N_("the phases"), "phases")
PLAYERS = Rule(3, N_("players"), "players")
PLUS10 = Rule(3, N_("Phase 10 + 10"), "phase-10-plus-10")
EVEN = Rule(3, N_("even phases"), "even-phases")
FIRST_PHASES = Rule(3, N_("first to N phases"), "first-phases")
TEN_HANDS = Rule(3, N_("ten hands"), "ten-hands")
MASTERS = Rule(3, N_("Masters"), "masters")
MIXED_UP = Rule(3, N_("Mixed-up Masters"), "mixed-up-masters")
SUPER_WILD = Rule(3, N_("Super Wild"), "super-wild")
OWN_PHASES = Rule(3, N_("your own phases"), "own-phases")
SETS = Rule(4, N_("sets"), "sets")
RUNS = Rule(4, N_("runs"), "runs")
COLOUR_GROUPS = Rule(4, N_("colour groups"), "colour-groups")
WILDS = Rule(4, N_("Wilds"), "wilds")
NATURAL = Rule(4, N_("a natural card"), "natural-card")
SKIPS_NOT_LAID = Rule(4, N_("Skips are never laid down"), "skips-not-laid")
LAYING_DOWN = Rule(5, N_("laying down"), "laying-down")
NO_EXTRA_GROUPS = Rule(5, N_("no extra groups"), "no-extra-groups")
ONE_PHASE = Rule(5, N_("one phase per hand, in order"), "one-phase")
HITTING = Rule(6, N_("hitting"), "hitting")
SKIPS = Rule(7, N_("Skips"), "skips")
GOING_OUT = Rule(8, N_("going out"), "going-out")
FLOATERS = Rule(8, N_("floaters"), "floaters")
CARD_POINTS = Rule(8, N_("card points"), "card-points")
HAND_SIZE = Rule(8, N_("a hand never grows"), "hand-size")
CARDS_LEFT = Rule(8, N_("laying down uses cards"), "cards-left")
END_OF_GAME = Rule(9, N_("end of the game"), "end-of-game")
TIES = Rule(9, N_("ties"), "ties")
HOUSE_RULES = Rule(10, N_("house rules"), "house-rules")
NIGHT = Rule(11, N_("a night of several tables"), "night")
NIGHT_TABLES = Rule(11, N_("tables of a night"), "night-tables")
NIGHT_SEATING = Rule(11, N_("seating"), "night-seating")
NIGHT_POINTS = Rule(11, N_("points for the night"), "night-points")
NIGHT_CHANGES = Rule(11, N_("changes during the night"), "night-changes")

ALL_RULES: tuple[Rule, ...] = tuple(
    value for value in globals().values() if isinstance(value, Rule)
)

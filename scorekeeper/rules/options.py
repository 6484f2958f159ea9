"""The house rules: each option's key, values and words (``OPTIONS``), and how players move
through the phases (``Progression``).

An option's key and values stay as typed in a game file or on the command line; its
words speak the current language. ``ruleset.make_rules`` reads the values.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..i18n import N_, NP_, _, pgettext
from .cards import DEFAULT_SUIT_COLOURS, format_suit_colours


class Progression(Enum):
    STANDARD = "standard"  # make your phase to move on
    TEN_HANDS = "ten-hands"  # everyone moves on every hand; lowest total wins
    MASTERS = "masters"  # each hand, pick any phase not yet made
    MIXED_UP = "mixed-up"  # each player has their own order of the phases


HOUSE_RULE = "house rule"  # the translators' context of an option's name


@dataclass(frozen=True)
class Choice:
    """One value a house rule can take, in words (marked with N_, translated where shown)."""

    value: str
    label_text: str  # on the new-game form: 'Phase 10 + 10 (twenty phases)'
    said_text: str = ""  # in a game's rules line: 'Phase 10 + 10: twenty phases'

    @property
    def label(self) -> str:
        return _(self.label_text)


@dataclass(frozen=True)
class Option:
    """A house rule: its key and values stay as typed; its words speak the current language.

    The rules line says each changed option in its choice's ``said_text``; options
    whose line depends on the game (the phase list's length, a count, the suits)
    are said by ``rules.house_rules``.
    """

    key: str
    name_text: str  # on the new-game form: 'Wild points' (context HOUSE_RULE)
    help_text: str  # English, marked for translation
    menu: tuple[Choice, ...] | None  # None: free text checked by make_rules
    default: str

    @property
    def name(self) -> str:
        return pgettext(HOUSE_RULE, self.name_text)

    @property
    def help(self) -> str:
        return _(self.help_text)

    @property
    def choices(self) -> tuple[str, ...] | None:
        """The values it takes, as typed in a game file or on the command line."""
        return None if self.menu is None else tuple(choice.value for choice in self.menu)

    def choice(self, value: str) -> Choice | None:
        return next((choice for choice in self.menu or () if choice.value == value), None)


def _yes_no(yes: str = "", no: str = "") -> tuple[Choice, ...]:
    """'No' and 'Yes' on the form; ``yes`` and ``no`` in the rules line."""
    return (Choice("no", N_("No"), no), Choice("yes", N_("Yes"), yes))


OPTIONS: dict[str, Option] = {
    o.key: o
    for o in (
        Option(
            "phases",
            NP_("house rule", "Phases"),
            N_("Which phase list: the official ten, Phase 10 + 10 (twenty), or your own list."),
            (
                Choice("official", N_("The official ten"), N_("The official ten phases")),
                Choice(
                    "plus10",
                    N_("Phase 10 + 10 (twenty phases)"),
                    N_("Phase 10 + 10: twenty phases"),
                ),
                Choice("custom", N_("My own list (below)")),
            ),
            "official",
        ),
        Option(
            "custom_phases",
            NP_("house rule", "Custom phases"),
            N_(
                "Your own phases, one per line or separated by ';', e.g. "
                "'2 sets of 3; run of 7; 7 of one colour'."
            ),
            None,
            "",
        ),
        Option(
            "progression",
            NP_("house rule", "Progression"),
            N_(
                "Standard: make your phase to move on. Ten hands: everyone "
                "moves on each hand. Masters: pick any phase you have not made. Mixed-up: "
                "each player gets a shuffled order."
            ),
            (
                Choice(Progression.STANDARD.value, N_("Make your phase to move on")),
                Choice(Progression.TEN_HANDS.value, N_("Ten hands: everyone moves on each hand")),
                Choice(Progression.MASTERS.value, N_("Masters: pick any phase not yet made")),
                Choice(Progression.MIXED_UP.value, N_("Mixed-up: a shuffled order each")),
            ),
            "standard",
        ),
        Option(
            "even",
            NP_("house rule", "Even"),
            N_("Play only the even phases (2, 4, 6, 8, 10)."),
            _yes_no(N_("Even phases only"), N_("Every phase, not only even ones")),
            "no",
        ),
        Option(
            "first",
            NP_("house rule", "First"),
            N_("The game ends once someone has made this many phases (blank or 0: all of them)."),
            None,
            "0",
        ),
        Option(
            "phase10",
            NP_("house rule", "Phase10"),
            N_(
                "Phase 10 as set of 5 + set of 3 (official) "
                "or set of 4 + set of 3 (older printings)."
            ),
            (
                Choice(
                    "official", N_("Set of 5 + set of 3"), N_("Phase 10 is 1 set of 5 + 1 set of 3")
                ),
                Choice(
                    "set4+set3",
                    N_("Set of 4 + set of 3 (older boxes)"),
                    N_("Phase 10 is 1 set of 4 + 1 set of 3"),
                ),
            ),
            "official",
        ),
        Option(
            "super_wild",
            NP_("house rule", "Super wild"),
            N_(
                "Super Wild: one Wild counts as two (50 points), one Skip skips "
                "everyone (25 points), phase 7 has three forms, a Skip may be blue in phase 8."
            ),
            _yes_no(N_("Super Wild and Super Skip in play"), N_("No Super Wild or Super Skip")),
            "no",
        ),
        Option(
            "super_skip_blue",
            NP_("house rule", "Super skip blue"),
            N_("Super Wild: the Super Skip may count as a blue card too, like the other Skips."),
            _yes_no(
                N_("The Super Skip may count as a blue card"), N_("The Super Skip is never blue")
            ),
            "no",
        ),
        Option(
            "blue_skip_natural",
            NP_("house rule", "Blue skip natural"),
            N_("Super Wild: a Skip counted as blue may be its group's natural card."),
            _yes_no(
                N_("A Skip counted as blue may be its group's natural card"),
                N_("A Skip counted as blue is never a group's natural card"),
            ),
            "no",
        ),
        Option(
            "wild_points",
            NP_("house rule", "Wild points"),
            N_("Points for a Wild left in hand."),
            (Choice("25", N_("25 points")), Choice("20", N_("20 points"))),
            "25",
        ),
        Option(
            "natural",
            NP_("house rule", "Natural"),
            N_("Each group needs a natural (non-Wild) card, or only one per phase."),
            (
                Choice("group", N_("In every group"), N_("Every group needs a natural card")),
                Choice("phase", N_("Once per phase"), N_("One natural card per phase is enough")),
            ),
            "group",
        ),
        Option(
            "going_out",
            NP_("house rule", "Going out"),
            N_(
                "Going out: hitting your last card counts (official), or you "
                "must discard last; a player left with no discard is a floater."
            ),
            (
                Choice(
                    "hit",
                    N_("Hitting your last card goes out"),
                    N_("Hitting your last card also goes out"),
                ),
                Choice(
                    "discard",
                    N_("You must discard last (floaters)"),
                    N_("You must discard to go out (no discard: floater, 0 points)"),
                ),
            ),
            "hit",
        ),
        Option(
            "skip_out",
            NP_("house rule", "Skip out"),
            N_("Going out on a Skip is allowed, or the player must draw another card."),
            (
                Choice("allowed", N_("Allowed"), N_("You may go out by discarding a Skip")),
                Choice(
                    "draw",
                    N_("Not allowed: draw another card"),
                    N_("No going out on a Skip: draw another card"),
                ),
            ),
            "allowed",
        ),
        Option(
            "winner",
            NP_("house rule", "Winner"),
            N_(
                "Who wins: the player who completes the last phase (fewest points "
                "if several), or simply the lowest total once someone finishes."
            ),
            (
                Choice(
                    "last-phase",
                    N_("Whoever completes the last phase"),
                    N_("Completing the last phase wins (fewest points if several)"),
                ),
                Choice(
                    "lowest",
                    N_("Lowest total once someone finishes"),
                    N_("Lowest total wins once someone finishes"),
                ),
            ),
            "last-phase",
        ),
        Option(
            "tiebreak",
            NP_("house rule", "Tiebreak"),
            N_(
                "A tie is replayed on the last phase, "
                "or on the last phase each tied player attempted."
            ),
            (
                Choice("last-phase", N_("Replay the last phase"), N_("Ties replay the last phase")),
                Choice(
                    "own-phase",
                    N_("Each replays their own last phase"),
                    N_("Ties replay the last phase each tied player tried"),
                ),
            ),
            "last-phase",
        ),
        Option(
            "totals",
            NP_("house rule", "Totals"),
            N_("Impossible hand totals are refused (strict) or only warned about."),
            (
                Choice("strict", N_("Refuse impossible totals"), N_("Impossible totals refused")),
                Choice(
                    "warn", N_("Only warn about them"), N_("Impossible totals only warned about")
                ),
            ),
            "strict",
        ),
        Option(
            "suits",
            NP_("house rule", "Suits"),
            N_("Regular decks: which suit stands for which colour (H=R,D=Y,C=G,S=B)."),
            None,
            format_suit_colours(DEFAULT_SUIT_COLOURS),
        ),
    )
}

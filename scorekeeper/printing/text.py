"""The words the printables share: points, phases, house rules, card notes.

Plain strings (not markup) built from ``Rules``, so a sheet, a card and the
guide can never disagree about what a Wild scores or what phase 7 is. They are
in the language being spoken (``i18n.using`` around a build), like the names of
colours and suits the printables show.
"""

from __future__ import annotations

import re

from babel.numbers import format_decimal

from .. import i18n
from ..i18n import N_, _, pgettext
from ..rules.cards import (
    SKIP,
    SUITS,
    SUPER_SKIP,
    SUPER_WILD,
    WILD,
    Card,
    Colour,
    Kind,
    number_card,
    suit_word,
)
from ..rules.house_rules import profile_title
from ..rules.options import Progression
from ..rules.ruleset import PROFILES, Rules
from ..rules.scoring import card_points as points_for

# What a QR code opens, for a screen reader (its /Alt): what it is, then where it leads.
_CODE_WORDS = {
    "game": N_("QR code to this game's live scores: %(link)s"),
    "table": N_("QR code to this table's live scores: %(link)s"),
    "app": N_("QR code to keep score with the Phase 10 Scorekeeper: %(link)s"),
}


def code_words(leads_to: str, link: str) -> str:
    """A QR code in words: what it is and where it leads (``leads_to``: "game", "table" or
    "app"), with the link it holds."""
    return _(_CODE_WORDS[leads_to], link=link)


def number(value: int) -> str:
    """A number in running text, written as the language writes it ('1,250', '1.250')."""
    return format_decimal(value, locale=i18n.language())


def _points(rules: Rules) -> dict[str, int]:
    """What each kind of card scores, asked of the scoring rules (one source of truth)."""
    samples: dict[str, Card] = {
        "low": number_card(Colour.RED, 9),
        "high": number_card(Colour.RED, 10),
        "skip": SKIP,
        "wild": WILD,
        "super wild": SUPER_WILD,
        "super skip": SUPER_SKIP,
    }
    return {name: points_for(rules, card) for name, card in samples.items()}


def card_points(rules: Rules) -> list[tuple[str, int]]:
    """(cards, points) for each card left in hand; going out scores 0."""
    points = _points(rules)
    rows = [
        (_("1 to 9"), points["low"]),
        ("10, 11, 12", points["high"]),
        (Kind.SKIP.word, points["skip"]),
        (Kind.WILD.word, points["wild"]),
    ]
    if rules.super_wild:
        rows += [
            (Kind.SUPER_WILD.word, points["super wild"]),
            (Kind.SUPER_SKIP.word, points["super skip"]),
        ]
    return rows


def regular_card_points(rules: Rules) -> list[tuple[str, str, int]]:
    """(playing cards, what they are, points) for the two-deck guide."""
    points = _points(rules)
    rows = [
        (_("Ace to 9"), _("1 to 9"), points["low"]),
        (_("10, Jack, Queen"), "10, 11, 12", points["high"]),
        # Translators: the playing card (a regular deck's joker), not the Phase 10 Wild.
        (pgettext("playing card", "Joker"), Kind.SKIP.word, points["skip"]),
        (_("King"), Kind.WILD.word, points["wild"]),
    ]
    if rules.super_wild:
        rows += [
            (_("the marked King"), Kind.SUPER_WILD.word, points["super wild"]),
            (_("the marked Joker"), Kind.SUPER_SKIP.word, points["super skip"]),
        ]
    return rows


def phase_rows(rules: Rules) -> list[tuple[int, str]]:
    """(phase number, what to lay down) for every phase this game uses, in order; no line
    of it will start with a lone number."""
    rows = []
    for number in sorted(set(rules.sequence)):
        text = str(rules.phase(number))
        if rules.super_wild and _is_colour_phase(rules, number):
            text += f" ({rules.blue_skip_text()})"
        rows.append((number, unbroken_numbers(text)))
    return rows


def numbered(number: int) -> str:
    """A phase's number in a list, set apart from its words: "1." (not "1 2 sets of 3")."""
    return f"{number}."


def unbroken_numbers(phase: str) -> str:
    """A phase's words with each group's last number tied to the word before it ("run of 4"),
    so a line never starts with a lone number."""
    return _LAST_NUMBER.sub("\u00a0\\1", phase)


_LAST_NUMBER = re.compile(r" (\d+)(?=$| \+|,| \()")


def _is_colour_phase(rules: Rules, number: int) -> bool:
    return number == 8 and rules.options.get("phases") != "custom"


def phase_list_title(rules: Rules) -> str:
    """The heading over a phase list: the profile's, or the list a house rule chose."""
    chosen = rules.options.get("phases")
    profile_phases = PROFILES[rules.profile].options.get("phases", "official")
    if chosen == "custom":
        title = _("Our own phases")
    elif chosen != profile_phases:
        title = "Phase 10 + 10" if chosen == "plus10" else _("Official phases")
    else:
        title = profile_title(rules)
    if rules.options.get("even") == "yes" and rules.profile != "even":
        title = _("%(title)s, even only", title=title)
    return title


def suit_mapping(rules: Rules) -> list[tuple[str, str, Colour]]:
    """(suit letter, suit name, colour) in the order hearts, diamonds, clubs, spades."""
    return [(suit, suit_word(suit), rules.suit_colours[suit]) for suit in SUITS]


def group_notes(rules: Rules) -> list[tuple[str, str]]:
    """(name, what it is) for the three kinds of group (RULES.md 4)."""
    return [
        (_("Set"), _("one number, any colours.")),
        (_("Run"), _("numbers in a row, any colours; 12 is never followed by 1.")),
        (_("Colour group"), _("one colour (red, blue, green or yellow), any numbers.")),
    ]


def _skip_in_phases(rules: Rules) -> str:
    """Where a Skip may be laid down: nowhere, or (Super Wild) as a blue card in phase 8."""
    if rules.super_wild and any(_is_colour_phase(rules, n) for n in rules.sequence):
        return _("Never in a phase, except as blue in phase 8;")
    return _("Never in a phase;")


def wild_skip_notes(rules: Rules) -> list[tuple[str, str]]:
    """(name, how it plays) for Wild, Skip, going out and, if used, the super cards."""
    wild = (
        _(
            "any number, any colour; each phase needs at least one card that is not a Wild. "
            "Once down, it stays what it stood for."
        )
        if rules.natural_per_phase
        else _(
            "any number, any colour; each group needs at least one card that is not a Wild. "
            "Once down, it stays what it stood for."
        )
    )
    skip = (
        _("discard it: a chosen player misses their next turn, or play changes direction.")
        if rules.super_wild
        else _("discard it: a chosen player misses their next turn.")
    )
    notes = [
        (Kind.WILD.word, wild),
        (
            Kind.SKIP.word,
            # Translators: %(play)s and %(laying)s are the two sentences before this one.
            _(
                "%(play)s %(laying)s never taken from the discard pile.",
                play=skip,
                laying=_skip_in_phases(rules),
            ),
        ),
    ]
    if rules.going_out_needs_discard:
        notes.append(
            (
                _("Going out"),
                _(
                    "only by discarding your last card. No card left to discard: you float "
                    "(0 points, hand not won)."
                ),
            )
        )
    if not rules.going_out_on_skip:
        notes.append((_("Last card a Skip"), _("you may not go out on it: draw another card.")))
    if rules.super_wild:
        notes += [
            (Kind.SUPER_WILD.word, _("counts as two Wilds.")),
            (Kind.SUPER_SKIP.word, _("skips everyone else: you play again.")),
        ]
    return notes


def variant_notes(rules: Rules) -> tuple[str, list[tuple[str, str]]]:
    """(heading, [(name, how it plays)]) for the rules of Masters or Mixed-up Masters beyond
    the order of the phases, which ``progression_note`` gives (docs/rules.md); no notes for
    the other games."""
    match rules.progression:
        case Progression.MASTERS:
            notes = [
                (
                    _("Save pile"),
                    _(
                        "once per hand you may put one card face down on your own save pile. "
                        "It stays there from hand to hand; on a later turn you may take it "
                        "back instead of drawing."
                    ),
                ),
            ]
            return _(_variant_title("masters")), notes
        case Progression.MIXED_UP:
            notes = [
                (_("Players"), _("2 to 4.")),
                (
                    _("Discard pile"),
                    _("once you have laid down your phase, you may no longer take from it."),
                ),
                (_("Skips"), _("have no colour.")),
            ]
            return _(_variant_title("mixed-up")), notes
    return "", []


def _variant_title(profile: str) -> str:
    """The variant's name as its profile gives it (translated where it is shown)."""
    return PROFILES[profile].title

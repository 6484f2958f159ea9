"""The words the printables share: points, phases, house rules, card notes.

Plain strings (not markup) built from ``Rules``, so a sheet, a card and the
guide can never disagree about what a Wild scores or what phase 7 is. They are
in the language being spoken (``i18n.using`` around a build), like the names of
colours and suits the printables show.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from babel.numbers import format_decimal

from .. import i18n
from ..i18n import N_, _, ngettext, pgettext
from ..rules.cards import SKIP, SUITS, SUPER_SKIP, SUPER_WILD, WILD, Card, Colour, number_card
from ..rules.phases import PROFILES, Progression, Rules
from ..rules.scoring import card_points as points_for

COLOUR_NAMES = {
    Colour.RED: N_("red"),
    Colour.BLUE: N_("blue"),
    Colour.GREEN: N_("green"),
    Colour.YELLOW: N_("yellow"),
}
CARDS_IN_WORDS = {
    # Translators: a numbered card in words ("red 7"); German "rote 7", Spanish "7 rojo".
    Colour.RED: N_("red %(number)s"),
    Colour.BLUE: N_("blue %(number)s"),
    Colour.GREEN: N_("green %(number)s"),
    Colour.YELLOW: N_("yellow %(number)s"),
}
SUIT_NAMES = {"H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs"), "S": N_("spades")}


def colour_name(colour: Colour) -> str:
    """'red', 'rot', 'rojo'."""
    return _(COLOUR_NAMES[colour])


def card_in_words(colour: Colour, number: int) -> str:
    """'red 7', 'rote 7', '7 rojo'."""
    return _(CARDS_IN_WORDS[colour], number=number)


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
        (_("Skip"), points["skip"]),
        (_("Wild"), points["wild"]),
    ]
    if rules.super_wild:
        rows += [(_("Super Wild"), points["super wild"]), (_("Super Skip"), points["super skip"])]
    return rows


def regular_card_points(rules: Rules) -> list[tuple[str, str, int]]:
    """(playing cards, what they are, points) for the two-deck guide."""
    points = _points(rules)
    rows = [
        (_("Ace to 9"), _("1 to 9"), points["low"]),
        (_("10, Jack, Queen"), "10, 11, 12", points["high"]),
        # Translators: the playing card (a regular deck's joker), not the Phase 10 Wild.
        (pgettext("playing card", "Joker"), _("Skip"), points["skip"]),
        (_("King"), _("Wild"), points["wild"]),
    ]
    if rules.super_wild:
        rows += [
            (_("the marked King"), _("Super Wild"), points["super wild"]),
            (_("the marked Joker"), _("Super Skip"), points["super skip"]),
        ]
    return rows


def profile_title(rules: Rules) -> str:
    profile = PROFILES.get(rules.profile)
    return _(profile.title) if profile else rules.profile


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


def progression_note(rules: Rules, *, brief: bool = False, ending: bool = True) -> str:
    """How players move through the phases, in a sentence or two.

    ``brief`` leaves out what every player already knows (the standard game);
    ``ending=False`` leaves out an early finish (option first), said elsewhere.
    """
    count = len(rules.sequence)
    early = (
        ngettext(
            "The game ends when someone has made %(num)s phase.",
            "The game ends when someone has made %(num)s phases.",
            count,
        )
        if ending and rules.options.get("first", "0") not in ("", "0")
        else ""
    )
    if brief and rules.progression is Progression.STANDARD:
        return early
    return " ".join(filter(None, (_progression(rules.progression, count), early)))


def _progression(progression: Progression, count: int) -> str:
    """How players move through the phases under one progression."""
    match progression:
        case Progression.STANDARD:
            return _("Make the phases in order; each hand you may lay down one phase.")
        case Progression.TEN_HANDS:
            return ngettext(
                "%(num)s hand: everyone moves on one phase each hand, made or not; the lowest "
                "total wins.",
                "%(num)s hands: everyone moves on one phase each hand, made or not; the lowest "
                "total wins.",
                count,
            )
        case Progression.MASTERS:
            return _("Masters: each hand, choose any phase you have not made yet.")
        case Progression.MIXED_UP:
            return _("Mixed-up Masters: make the phases in your own shuffled order.")


def suit_mapping(rules: Rules) -> list[tuple[str, str, Colour]]:
    """(suit letter, suit name, colour) in the order hearts, diamonds, clubs, spades."""
    return [(suit, _(SUIT_NAMES[suit]), rules.suit_colours[suit]) for suit in SUITS]


def _suits(value: str, rules: Rules) -> str:
    pairs = ", ".join(
        f"{name} = {colour_name(colour)}" for _suit, name, colour in suit_mapping(rules)
    )
    return _("Two regular decks: %(suits)s", suits=pairs)


def _first(value: str) -> str:
    if value in ("", "0"):
        return _("Play every phase")
    count = int(value) if value.isdigit() else 0
    return ngettext(
        "First to make %(num)s phase ends the game",
        "First to make %(num)s phases ends the game",
        count,
    )


_HOUSE_RULES: dict[str, Callable[[str, Rules], str]] = {
    "phases": lambda v, r: (
        _("The official ten phases")
        if v == "official"
        else _("Phase 10 + 10: twenty phases")
        if v == "plus10"
        else ngettext(
            "Our own list of %(num)s phase", "Our own list of %(num)s phases", len(r.phase_list)
        )
        if v == "custom"
        else _("Phase list: %(phases)s", phases=v)
    ),
    "progression": lambda v, r: progression_note(r, ending=False),
    "even": lambda v, r: (
        _("Even phases only") if v == "yes" else _("Every phase, not only even ones")
    ),
    "first": lambda v, r: _first(v),
    "phase10": lambda v, r: (
        _("Phase 10 is 1 set of 4 + 1 set of 3")
        if v == "set4+set3"
        else _("Phase 10 is 1 set of 5 + 1 set of 3")
    ),
    "super_wild": lambda v, r: (
        _("Super Wild and Super Skip in play") if v == "yes" else _("No Super Wild or Super Skip")
    ),
    "super_skip_blue": lambda v, r: (
        _("The Super Skip may count as a blue card")
        if v == "yes"
        else _("The Super Skip is never blue")
    ),
    "blue_skip_natural": lambda v, r: (
        _("A Skip counted as blue may be its group's natural card")
        if v == "yes"
        else _("A Skip counted as blue is never a group's natural card")
    ),
    "wild_points": lambda v, r: _("A Wild left in hand scores %(points)s", points=v),
    "natural": lambda v, r: (
        _("One natural card per phase is enough")
        if v == "phase"
        else _("Every group needs a natural card")
    ),
    "going_out": lambda v, r: (
        _("You must discard to go out (no discard: floater, 0 points)")
        if v == "discard"
        else _("Hitting your last card also goes out")
    ),
    "skip_out": lambda v, r: (
        _("No going out on a Skip: draw another card")
        if v == "draw"
        else _("You may go out by discarding a Skip")
    ),
    "winner": lambda v, r: (
        _("Lowest total wins once someone finishes")
        if v == "lowest"
        else _("Completing the last phase wins (fewest points if several)")
    ),
    "tiebreak": lambda v, r: (
        _("Ties replay the last phase each tied player tried")
        if v == "own-phase"
        else _("Ties replay the last phase")
    ),
    "totals": lambda v, r: (
        _("Impossible totals only warned about") if v == "warn" else _("Impossible totals refused")
    ),
    "suits": _suits,
}


def house_rules(rules: Rules) -> list[str]:
    """Plain words for each option this game changed from its profile."""
    changed = rules.changed_options()
    lines = []
    for key, value in changed.items():
        if key == "custom_phases" and "phases" in changed:
            continue  # the phase list line already says so
        describe = _HOUSE_RULES.get(key)
        lines.append(describe(value, rules) if describe else f"{key} = {value}")
    return lines


def rules_line(rules: Rules) -> str:
    """'Official rules' or 'Official rules. House rules: ...; ...'."""
    extra = ". ".join(line.rstrip(".") for line in house_rules(rules))
    title = profile_title(rules)
    if extra:
        return _("%(title)s. House rules: %(house_rules)s.", title=title, house_rules=extra)
    return f"{title}."


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
        (_("Wild"), wild),
        (
            _("Skip"),
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
            (_("Super Wild"), _("counts as two Wilds.")),
            (_("Super Skip"), _("skips everyone else: you play again.")),
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

"""A game's rules said in words: its title, how players move through the phases, its house rules.

One sentence for the game page and every printable: 'Official rules. House rules:
A Wild left in hand scores 20.' Each option's words are defined with the option
(``options.OPTIONS``); the lines that depend on the game (the length of its own
phase list, an early finish, the suits, the progression) are said here.
"""

from __future__ import annotations

from ..i18n import _, ngettext
from .cards import SUITS, suit_word
from .options import OPTIONS, Progression
from .ruleset import PROFILES, Rules


def profile_title(rules: Rules) -> str:
    profile = PROFILES.get(rules.profile)
    return _(profile.title) if profile else rules.profile


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


def house_rules(rules: Rules) -> list[str]:
    """Plain words for each option this game changed from its profile."""
    changed = rules.changed_options()
    lines = []
    for key, value in changed.items():
        if key == "custom_phases" and "phases" in changed:
            continue  # the phase list line already says so
        lines.append(_house_rule(rules, key, value))
    return lines


def _house_rule(rules: Rules, key: str, value: str) -> str:
    """One changed option in words: its choice's, or said from the game."""
    match key:
        case "phases" if value == "custom":
            return ngettext(
                "Our own list of %(num)s phase",
                "Our own list of %(num)s phases",
                len(rules.phase_list),
            )
        case "progression":
            return progression_note(rules, ending=False)
        case "first":
            return _first(value)
        case "wild_points":
            return _("A Wild left in hand scores %(points)s", points=value)
        case "suits":
            pairs = ", ".join(
                f"{suit_word(suit)} = {rules.suit_colours[suit].word}" for suit in SUITS
            )
            return _("Two regular decks: %(suits)s", suits=pairs)
    choice = OPTIONS[key].choice(value) if key in OPTIONS else None
    return _(choice.said_text) if choice and choice.said_text else f"{key} = {value}"


def _first(value: str) -> str:
    if value in ("", "0"):
        return _("Play every phase")
    count = int(value) if value.isdigit() else 0
    return ngettext(
        "First to make %(num)s phase ends the game",
        "First to make %(num)s phases ends the game",
        count,
    )


def rules_line(rules: Rules) -> str:
    """'Official rules' or 'Official rules. House rules: ...; ...'."""
    extra = ". ".join(line.rstrip(".") for line in house_rules(rules))
    title = profile_title(rules)
    if extra:
        return _("%(title)s. House rules: %(house_rules)s.", title=title, house_rules=extra)
    return f"{title}."

"""The words the printables share: points, phases, house rules, card notes.

Plain strings (not markup) built from ``Rules``, so a sheet, a card and the
guide can never disagree about what a Wild scores or what phase 7 is.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules.cards import SKIP, SUITS, SUPER_SKIP, SUPER_WILD, WILD, Card, Colour, number_card
from ..rules.phases import PROFILES, Progression, Rules
from ..rules.scoring import card_points as points_for


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
        ("1 to 9", points["low"]),
        ("10, 11, 12", points["high"]),
        ("Skip", points["skip"]),
        ("Wild", points["wild"]),
    ]
    if rules.super_wild:
        rows += [("Super Wild", points["super wild"]), ("Super Skip", points["super skip"])]
    return rows


def regular_card_points(rules: Rules) -> list[tuple[str, str, int]]:
    """(playing cards, what they are, points) for the two-deck guide."""
    points = _points(rules)
    rows = [
        ("Ace to 9", "1 to 9", points["low"]),
        ("10, Jack, Queen", "10, 11, 12", points["high"]),
        ("Joker", "Skip", points["skip"]),
        ("King", "Wild", points["wild"]),
    ]
    if rules.super_wild:
        rows += [
            ("the marked King", "Super Wild", points["super wild"]),
            ("the marked Joker", "Super Skip", points["super skip"]),
        ]
    return rows


def profile_title(rules: Rules) -> str:
    profile = PROFILES.get(rules.profile)
    return profile.title if profile else rules.profile


def phase_rows(rules: Rules) -> list[tuple[int, str]]:
    """(phase number, what to lay down) for every phase this game uses, in order."""
    rows = []
    for number in sorted(set(rules.sequence)):
        text = str(rules.phase(number))
        if rules.super_wild and _is_colour_phase(rules, number):
            text += f" ({rules.blue_skip_text()})"
        rows.append((number, text))
    return rows


def _is_colour_phase(rules: Rules, number: int) -> bool:
    return number == 8 and rules.options.get("phases") != "custom"


def phase_list_title(rules: Rules) -> str:
    """The heading over a phase list: the profile's, or the list a house rule chose."""
    chosen = rules.options.get("phases")
    profile_phases = PROFILES[rules.profile].options.get("phases", "official")
    if chosen == "custom":
        title = "Our own phases"
    elif chosen != profile_phases:
        title = "Phase 10 + 10" if chosen == "plus10" else "Official phases"
    else:
        title = profile_title(rules)
    if rules.options.get("even") == "yes" and rules.profile != "even":
        title += ", even only"
    return title


def progression_note(rules: Rules, *, brief: bool = False, ending: bool = True) -> str:
    """How players move through the phases, in a sentence or two.

    ``brief`` leaves out what every player already knows (the standard game);
    ``ending=False`` leaves out an early finish (option first), said elsewhere.
    """
    count = len(rules.sequence)
    early = (
        f"The game ends when someone has made {count} phases."
        if ending and rules.options.get("first", "0") not in ("", "0")
        else ""
    )
    notes = {
        Progression.STANDARD: "Make the phases in order; each hand you may lay down one phase.",
        Progression.TEN_HANDS: f"{count} hands: everyone moves on one phase each hand, made or "
        "not; the lowest total wins.",
        Progression.MASTERS: "Masters: each hand, choose any phase you have not made yet.",
        Progression.MIXED_UP: "Mixed-up Masters: make the phases in your own shuffled order.",
    }
    if brief and rules.progression is Progression.STANDARD:
        return early
    return " ".join(filter(None, (notes[rules.progression], early)))


def suit_mapping(rules: Rules) -> list[tuple[str, str, Colour]]:
    """(suit letter, suit name, colour) in the order hearts, diamonds, clubs, spades."""
    return [(suit, name, rules.suit_colours[suit]) for suit, name in SUITS.items()]


def _suits(value: str, rules: Rules) -> str:
    pairs = ", ".join(f"{name} = {colour.word}" for _, name, colour in suit_mapping(rules))
    return f"Two regular decks: {pairs}"


_HOUSE_RULES: dict[str, Callable[[str, Rules], str]] = {
    "phases": lambda v, r: {
        "official": "The official ten phases",
        "plus10": "Phase 10 + 10: twenty phases",
        "custom": f"Our own list of {len(r.phase_list)} phases",
    }.get(v, f"Phase list: {v}"),
    "progression": lambda v, r: progression_note(r, ending=False),
    "even": lambda v, r: "Even phases only" if v == "yes" else "Every phase, not only even ones",
    "first": lambda v, r: (
        f"First to make {v} phases ends the game" if v not in ("", "0") else "Play every phase"
    ),
    "phase10": lambda v, r: (
        "Phase 10 is 1 set of 4 + 1 set of 3"
        if v == "set4+set3"
        else "Phase 10 is 1 set of 5 + 1 set of 3"
    ),
    "super_wild": lambda v, r: (
        "Super Wild and Super Skip in play" if v == "yes" else "No Super Wild or Super Skip"
    ),
    "super_skip_blue": lambda v, r: (
        "The Super Skip may count as a blue card" if v == "yes" else "The Super Skip is never blue"
    ),
    "blue_skip_natural": lambda v, r: (
        "A Skip counted as blue may be its group's natural card"
        if v == "yes"
        else "A Skip counted as blue is never a group's natural card"
    ),
    "wild_points": lambda v, r: f"A Wild left in hand scores {v}",
    "natural": lambda v, r: (
        "One natural card per phase is enough"
        if v == "phase"
        else "Every group needs a natural card"
    ),
    "going_out": lambda v, r: (
        "You must discard to go out (no discard: floater, 0 points)"
        if v == "discard"
        else "Hitting your last card also goes out"
    ),
    "skip_out": lambda v, r: (
        "No going out on a Skip: draw another card"
        if v == "draw"
        else "You may go out by discarding a Skip"
    ),
    "winner": lambda v, r: (
        "Lowest total wins once someone finishes"
        if v == "lowest"
        else "Completing the last phase wins (fewest points if several)"
    ),
    "tiebreak": lambda v, r: (
        "Ties replay the last phase each tied player tried"
        if v == "own-phase"
        else "Ties replay the last phase"
    ),
    "totals": lambda v, r: (
        "Impossible totals only warned about" if v == "warn" else "Impossible totals refused"
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
    return f"{title}. House rules: {extra}." if extra else f"{title}."


def group_notes(rules: Rules) -> list[tuple[str, str]]:
    """(name, what it is) for the three kinds of group (RULES.md 4)."""
    return [
        ("Set", "one number, any colours."),
        ("Run", "numbers in a row, any colours; 12 is never followed by 1."),
        ("Colour group", "one colour (red, blue, green or yellow), any numbers."),
    ]


def _skip_in_phases(rules: Rules) -> str:
    """Where a Skip may be laid down: nowhere, or (Super Wild) as a blue card in phase 8."""
    if rules.super_wild and any(_is_colour_phase(rules, n) for n in rules.sequence):
        return "Never in a phase, except as blue in phase 8;"
    return "Never in a phase;"


def wild_skip_notes(rules: Rules) -> list[tuple[str, str]]:
    """(name, how it plays) for Wild, Skip, going out and, if used, the super cards."""
    needs = "each phase" if rules.natural_per_phase else "each group"
    skip = (
        "discard it: a chosen player misses their next turn, or play changes direction."
        if rules.super_wild
        else "discard it: a chosen player misses their next turn."
    )
    notes = [
        (
            "Wild",
            f"any number, any colour; {needs} needs at least one card that is not a Wild. "
            "Once down, it stays what it stood for.",
        ),
        ("Skip", f"{skip} {_skip_in_phases(rules)} never taken from the discard pile."),
    ]
    if rules.going_out_needs_discard:
        notes.append(
            (
                "Going out",
                "only by discarding your last card. No card left to discard: you float "
                "(0 points, hand not won).",
            )
        )
    if not rules.going_out_on_skip:
        notes.append(("Last card a Skip", "you may not go out on it: draw another card."))
    if rules.super_wild:
        notes += [
            ("Super Wild", "counts as two Wilds."),
            ("Super Skip", "skips everyone else: you play again."),
        ]
    return notes

"""Group kinds, phases, phase lists, and the rules a game is played by.

A *profile* is a named set of options (``official``, ``plus10``, ...); any
option can then be overridden per game (a house rule). ``make_rules`` turns a
profile plus options into a frozen ``Rules`` that the rest of the engine reads.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from ..i18n import N_, NP_, _, pgettext
from . import words
from .cards import (
    DEFAULT_SUIT_COLOURS,
    CardError,
    Colour,
    Kind,
    format_suit_colours,
    parse_suit_colours,
)


class RulesError(ValueError):
    """A phase, profile or option that cannot be used."""


class GroupKind(Enum):
    SET = "set"
    RUN = "run"
    COLOUR = "colour"


@dataclass(frozen=True)
class GroupSpec:
    kind: GroupKind
    size: int

    def __str__(self) -> str:
        """The group in the app's notation, as typed: 'set of 3', '7 of one colour'."""
        if self.kind is GroupKind.COLOUR:
            return f"{self.size} of one colour"
        return f"{self.kind.value} of {self.size}"

    def describe(self) -> str:
        """The group in words, in the current language: 'set of 3', 'Drilling'."""
        if self.kind is GroupKind.SET:
            return words.set_name(self.size)
        if self.kind is GroupKind.RUN:
            return words.run_name(self.size)
        return words.colour_name(self.size)

    def counted(self, count: int) -> str:
        """'2 sets of 3', '1 run of 4', '7 cards of one colour', in the current language."""
        if self.kind is GroupKind.SET:
            return words.sets(count, self.size)
        if self.kind is GroupKind.RUN:
            return words.runs(count, self.size)
        return words.colour_cards(count, self.size)


Layout = tuple[GroupSpec, ...]


def describe_layout(layout: Layout) -> str:
    """'2 sets of 3', '1 set of 3 + 1 run of 4', '7 cards of one colour'."""
    parts: list[str] = []
    i = 0
    while i < len(layout):
        spec, count = layout[i], 1
        while i + count < len(layout) and layout[i + count] == spec:
            count += 1
        parts.append(spec.counted(count))
        i += count
    return " + ".join(parts)


def layout_notation(layout: Layout) -> str:
    """The layout as typed: '2 sets of 3', 'set of 3 + run of 4', '2 x 4 of one colour'."""
    parts: list[str] = []
    for spec, run in itertools.groupby(layout):
        count = len(list(run))
        if count == 1:
            parts.append(str(spec))
        elif spec.kind is GroupKind.COLOUR:
            parts.append(f"{count} x {spec}")
        else:
            parts.append(f"{count} {spec.kind.value}s of {spec.size}")
    return " + ".join(parts)


@dataclass(frozen=True)
class Phase:
    """What must be laid down; ``layouts`` holds alternatives (Super Wild's phase 7)."""

    layouts: tuple[Layout, ...]

    @property
    def groups(self) -> Layout:
        return self.layouts[0]

    @property
    def min_cards(self) -> int:
        return min(sum(spec.size for spec in layout) for layout in self.layouts)

    @property
    def notation(self) -> str:
        """The phase as typed (``parse_phase`` reads it back): '2 sets of 3 or 3 sets of 2'."""
        return " or ".join(layout_notation(layout) for layout in self.layouts)

    def __str__(self) -> str:
        """The phase in words, in the current language (alternatives joined by OR)."""
        text = describe_layout(self.layouts[0])
        for layout in self.layouts[1:]:
            # Translators: alternative ways to make one phase (Super Wild's phase 7).
            text = _("%(phase)s OR %(other)s", phase=text, other=describe_layout(layout))
        return text


MAX_GROUPS = 6
MAX_PHASE_CARDS = 30
MAX_ALTERNATIVES = 4  # 'or' choices in one phase: the official lists use at most 3
MAX_PHASE_TEXT = 10_000  # characters in a custom phase list
_GROUP_LIMITS = {GroupKind.SET: (2, 12), GroupKind.RUN: (2, 12), GroupKind.COLOUR: (2, 24)}
_GROUP_SIZE_ERRORS = {
    GroupKind.SET: N_("a set must hold %(low)s to %(high)s cards, not %(size)s"),
    GroupKind.RUN: N_("a run must hold %(low)s to %(high)s cards, not %(size)s"),
    GroupKind.COLOUR: N_("a colour group must hold %(low)s to %(high)s cards, not %(size)s"),
}
# The count in front ('2 sets of 3', '3 x 6 of one colour') never runs into the size:
# '12 of one colour' is one group of 12, not 1 group of 2. Numbers have at most 3
# digits (every limit is below 100), so a 5,000-digit one is simply unreadable.
_PART = re.compile(
    r"^(?:(\d{1,3})(?!\d)\s*(?:x\s*)?)?(?:"
    r"(?P<set>sets?)\s+of\s+(?P<set_n>\d{1,3})"
    r"|(?P<run>runs?)\s+of\s+(?P<run_n>\d{1,3})"
    r"|(?P<col_n>\d{1,3})\s+(?:cards?\s+)?of\s+(?:one|1|a|the\s+same)\s+colou?r"
    r"|(?:colou?rs?|colou?r\s+groups?)\s+of\s+(?P<col_m>\d{1,3})"
    r")$"
)


def _parse_part(part: str) -> list[GroupSpec]:
    text = " ".join(part.lower().split())
    match = _PART.match(text)
    if not match:
        raise RulesError(
            _(
                "cannot read group %(group)r: write 'set of 3', 'run of 4' "
                "or '7 of one colour' (with a count in front, like '2 sets of 3')",
                group=part.strip(),
            )
        )
    count = int(match.group(1) or 1)
    if match.group("set"):
        kind, size = GroupKind.SET, int(match.group("set_n"))
    elif match.group("run"):
        kind, size = GroupKind.RUN, int(match.group("run_n"))
    else:
        kind, size = GroupKind.COLOUR, int(match.group("col_n") or match.group("col_m"))
    low, high = _GROUP_LIMITS[kind]
    if not low <= size <= high:
        raise RulesError(_(_GROUP_SIZE_ERRORS[kind], low=low, high=high, size=size))
    if not 1 <= count <= MAX_GROUPS:
        raise RulesError(
            _("a phase has 1 to %(most)s groups, not %(count)s", most=MAX_GROUPS, count=count)
        )
    return [GroupSpec(kind, size)] * count


def parse_layout(text: str) -> Layout:
    parts = [p for p in re.split(r"\s*(?:\+|,|\band\b)\s*", text.strip()) if p]
    if not parts:
        raise RulesError(_("a phase needs at least one group"))
    layout = tuple(spec for part in parts for spec in _parse_part(part))
    if len(layout) > MAX_GROUPS:
        raise RulesError(_("a phase has at most %(most)s groups", most=MAX_GROUPS))
    if sum(spec.size for spec in layout) > MAX_PHASE_CARDS:
        raise RulesError(_("a phase needs at most %(most)s cards", most=MAX_PHASE_CARDS))
    return layout


def parse_phase(text: str) -> Phase:
    """Read '2 sets of 3', 'set of 3 + run of 4', '3 sets of 3 or 5 sets of 2'."""
    options = [p for p in re.split(r"\s+or\s+|\s*\|\s*", text.strip(), flags=re.I) if p]
    if not options:
        raise RulesError(_("a phase needs at least one group"))
    if len(options) > MAX_ALTERNATIVES:
        raise RulesError(
            _(
                "a phase offers at most %(most)s choices joined by 'or', not %(count)s",
                most=MAX_ALTERNATIVES,
                count=len(options),
            )
        )
    return Phase(tuple(parse_layout(option) for option in options))


def parse_phase_list(text: str) -> tuple[Phase, ...]:
    """Phases separated by ';' or new lines (a leading '1.' or '1)' is ignored)."""
    if len(text) > MAX_PHASE_TEXT:
        raise RulesError(_("a phase list is at most %(most)s characters long", most=MAX_PHASE_TEXT))
    lines = [re.sub(r"^\s*\d+\s*[.):]\s*", "", line) for line in re.split(r"[;\n]", text)]
    phases = tuple(parse_phase(line) for line in lines if line.strip())
    if not 1 <= len(phases) <= 30:
        raise RulesError(_("a phase list has 1 to 30 phases"))
    return phases


OFFICIAL_PHASES = parse_phase_list(
    """2 sets of 3; set of 3 + run of 4; set of 4 + run of 4; run of 7; run of 8;
    run of 9; 2 sets of 4; 7 of one colour; set of 5 + set of 2; set of 5 + set of 3"""
)
PLUS10_PHASES = OFFICIAL_PHASES + parse_phase_list(
    """4 sets of 2; set of 4 + run of 5; set of 5 + run of 5; run of 4 + 4 of one colour;
    run of 5 + 4 of one colour; run of 10; set of 4 + set of 5; 9 of one colour;
    set of 6 + set of 2; set of 6 + set of 3"""
)
SUPER_WILD_PHASE7 = parse_phase("2 sets of 4 or 3 sets of 3 or 5 sets of 2")
SHORT_PHASE10 = parse_phase("set of 4 + set of 3")


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


@dataclass(frozen=True)
class Profile:
    """A named set of options; ``title`` and ``summary`` speak the current language."""

    name: str
    title_text: str  # English, marked for translation
    summary_text: str
    options: Mapping[str, str] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return _(self.title_text)

    @property
    def summary(self) -> str:
        return _(self.summary_text)


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("official", N_("Official rules"), N_("The ten phases, as printed on the box.")),
        Profile(
            "plus10",
            N_("Phase 10 + 10"),
            N_("Twenty phases: the ten, then ten harder ones."),
            {"phases": "plus10"},
        ),
        Profile(
            "even",
            N_("Even phases"),
            N_("A shorter game: phases 2, 4, 6, 8 and 10."),
            {"even": "yes"},
        ),
        Profile(
            "ten-hands",
            N_("Ten hands"),
            N_("Exactly ten hands; everyone moves on each hand; lowest total wins."),
            {"progression": "ten-hands"},
        ),
        Profile(
            "masters",
            N_("Masters"),
            N_("Each hand, each player picks a phase they have not made yet."),
            {"progression": "masters"},
        ),
        Profile(
            "mixed-up",
            N_("Mixed-up Masters"),
            N_("Each player makes the phases in their own shuffled order (2-4 players)."),
            {"progression": "mixed-up"},
        ),
        Profile(
            "super-wild",
            N_("Super Wild"),
            N_("A Super Wild and a Super Skip, and more ways to make phases 7 and 8."),
            {"super_wild": "yes"},
        ),
    )
}


@dataclass(frozen=True)
class Rules:
    """Everything about how one game is played, resolved from profile + options."""

    profile: str
    options: Mapping[str, str]  # every option's value, defaults filled in
    phase_list: tuple[Phase, ...]  # phase_list[n - 1] is phase n
    sequence: tuple[int, ...]  # phase numbers to make, in order
    progression: Progression
    super_wild: bool
    super_skip_blue: bool  # Super Wild: the Super Skip may be blue too
    blue_skip_natural: bool  # Super Wild: a blue Skip may be a group's natural card
    wild_points: int
    natural_per_phase: bool
    going_out_needs_discard: bool
    going_out_on_skip: bool
    lowest_total_wins: bool
    tiebreak_own_phase: bool
    strict_totals: bool
    suit_colours: Mapping[str, Colour]

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        """Rules are made from their profile and options alone (``make_rules``), so these are
        what a cache keyed on the rules tells apart; worked out once, as caches ask often."""
        return hash((self.profile, tuple(sorted(self.options.items()))))

    def phase(self, number: int) -> Phase:
        if not 1 <= number <= len(self.phase_list):
            raise RulesError(
                _(
                    "there is no phase %(number)s: this game's phases are 1 to %(last)s",
                    number=number,
                    last=len(self.phase_list),
                )
            )
        return self.phase_list[number - 1]

    def blue_skip_kinds(self) -> frozenset[Kind]:
        """Which Skips may count as a blue card in a group of one colour (Super Wild)."""
        if not self.super_wild:
            return frozenset()
        return frozenset({Kind.SKIP, Kind.SUPER_SKIP} if self.super_skip_blue else {Kind.SKIP})

    def blue_skip_text(self) -> str:
        """How a Skip plays in a colour group, in the words every screen and card uses."""
        if self.super_skip_blue and self.blue_skip_natural:
            return _(
                "a Skip, even the Super Skip, may count as a blue card, "
                "and as the group's natural card"
            )
        if self.super_skip_blue:
            return _("a Skip, even the Super Skip, may count as a blue card")
        if self.blue_skip_natural:
            return _("a Skip may count as a blue card, and as the group's natural card")
        return _("a Skip may count as a blue card")

    def playable(self, number: int) -> Phase:
        """Phase ``number`` if this game plays it (RulesError if not: even phases, first N)."""
        phase = self.phase(number)
        if number not in self.sequence:
            if len(self.sequence) == 1:
                raise RulesError(
                    _(
                        "there is no phase %(number)s in this game: it plays only phase %(only)s",
                        number=number,
                        only=self.sequence[0],
                    )
                )
            raise RulesError(
                _(
                    "there is no phase %(number)s in this game: it plays phases %(phases)s",
                    number=number,
                    phases=words.numbers(list(self.sequence)),
                )
            )
        return phase

    @property
    def last_phase(self) -> int:
        return self.sequence[-1]

    def changed_options(self) -> dict[str, str]:
        """Options that differ from the profile's own (the house rules)."""
        base = resolve_options(self.profile, {})
        return {k: v for k, v in self.options.items() if base.get(k) != v}


def resolve_options(profile: str, options: Mapping[str, str]) -> dict[str, str]:
    if profile not in PROFILES:
        raise RulesError(
            _(
                "unknown rules %(profile)r: choose one of %(profiles)s",
                profile=profile,
                profiles=", ".join(PROFILES),
            )
        )
    values = {key: option.default for key, option in OPTIONS.items()}
    values.update(PROFILES[profile].options)
    for key, value in options.items():
        key = key.strip().lower().replace("-", "_")
        if key not in OPTIONS:
            raise RulesError(
                _(
                    "unknown option %(key)r: known options are %(options)s",
                    key=key,
                    options=", ".join(OPTIONS),
                )
            )
        value = str(value).strip()
        choices = OPTIONS[key].choices
        if choices is not None:
            value = value.lower()
            if value not in choices:
                raise RulesError(
                    _(
                        "option %(key)s must be one of %(choices)s, not %(value)r",
                        key=key,
                        choices=", ".join(choices),
                        value=value,
                    )
                )
        values[key] = value
    if values["custom_phases"] and values["phases"] == "official" and "phases" not in options:
        values["phases"] = "custom"
    return values


def make_rules(profile: str = "official", options: Mapping[str, str] | None = None) -> Rules:
    """Resolve a profile and house-rule options into ``Rules`` (or raise RulesError)."""
    values = resolve_options(profile, options or {})
    if values["phases"] == "custom":
        if not values["custom_phases"].strip():
            raise RulesError(_("custom phases chosen but none given (option custom_phases)"))
        phase_list = list(parse_phase_list(values["custom_phases"]))
    else:
        phase_list = list(PLUS10_PHASES if values["phases"] == "plus10" else OFFICIAL_PHASES)
    super_wild = values["super_wild"] == "yes"
    if values["phases"] != "custom":
        if super_wild:
            phase_list[6] = SUPER_WILD_PHASE7
        if values["phase10"] == "set4+set3":
            phase_list[9] = SHORT_PHASE10
    sequence = list(range(1, len(phase_list) + 1))
    if values["even"] == "yes":
        sequence = [n for n in sequence if n % 2 == 0]
        if not sequence:
            raise RulesError(_("even phases needs a list with at least two phases"))
    try:
        first = int(values["first"] or 0)
    except ValueError:
        raise RulesError(
            _("option first must be a whole number, not %(value)r", value=values["first"])
        ) from None
    if not 0 <= first <= len(sequence):
        raise RulesError(
            _("option first must be from 1 to %(last)s (or 0 for all)", last=len(sequence))
        )
    if first:
        sequence = sequence[:first]
    try:
        suit_colours = parse_suit_colours(values["suits"])
    except CardError as error:
        raise RulesError(str(error)) from None
    values["suits"] = format_suit_colours(suit_colours)
    values["first"] = str(first)
    return Rules(
        profile=profile,
        options=values,
        phase_list=tuple(phase_list),
        sequence=tuple(sequence),
        progression=Progression(values["progression"]),
        super_wild=super_wild,
        super_skip_blue=super_wild and values["super_skip_blue"] == "yes",
        blue_skip_natural=super_wild and values["blue_skip_natural"] == "yes",
        wild_points=int(values["wild_points"]),
        natural_per_phase=values["natural"] == "phase",
        going_out_needs_discard=values["going_out"] == "discard",
        going_out_on_skip=values["skip_out"] == "allowed",
        lowest_total_wins=values["winner"] == "lowest",
        tiebreak_own_phase=values["tiebreak"] == "own-phase",
        strict_totals=values["totals"] == "strict",
        suit_colours=suit_colours,
    )


OFFICIAL = make_rules()


def parse_option_args(pairs: list[str]) -> dict[str, str]:
    """Read ``KEY=VALUE`` strings, as given on the command line."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise RulesError(
                _("option %(pair)r must look like KEY=VALUE, e.g. wild_points=20", pair=pair)
            )
        options[key.strip()] = value
    return options

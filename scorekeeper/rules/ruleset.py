"""The rules a game is played by: a profile and its house rules, resolved.

A *profile* is a named set of options (``official``, ``plus10``, ...); any
option can then be overridden per game (a house rule). ``make_rules`` turns a
profile plus options into a frozen ``Rules`` that the rest of the engine reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..i18n import N_, _
from . import words
from .cards import CardError, Colour, Kind, format_suit_colours, parse_suit_colours
from .options import OPTIONS, Progression
from .phases import (
    OFFICIAL_PHASES,
    PLUS10_PHASES,
    SHORT_PHASE10,
    SUPER_WILD_PHASE7,
    Phase,
    RulesError,
    parse_phase_list,
)


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

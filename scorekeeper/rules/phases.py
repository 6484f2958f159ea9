"""Group kinds, phases and phase lists: a phase as typed ('set of 3 + run of 4'), read
back and said in words, and the official lists.

A game's rules (``ruleset.make_rules``) pick a list, and its house rules
(``options.OPTIONS``) may change a phase of it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from enum import Enum

from ..i18n import N_, _
from . import words


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
MAX_PHASES = 30  # phases in a list
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
    if not 1 <= len(phases) <= MAX_PHASES:
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

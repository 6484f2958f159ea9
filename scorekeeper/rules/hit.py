"""Hitting: may a card go onto a group already on the table, and where?

A group on the table keeps the order it was laid in. A run may lie low to
high or high to low and takes a card at either end, within 1-12. Its
naturals fix which numbers its Wilds stand for; when they cannot (one
natural and Wilds to one side, like ``W R5``: 4-5 or 5-6), and the answer
depends on it, the verdict says so rather than guess: the table remembers
what each Wild was laid down as.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..i18n import _, ngettext
from . import reasons as rule
from . import words
from .cards import Card, Colour, format_cards, impossible
from .check import RunReading, Verdict, check_group, colour_of, is_blue_skip, run_readings
from .phases import GroupKind, GroupSpec
from .reasons import Reason
from .ruleset import Rules


def _label(kind: GroupKind, group: Sequence[Card]) -> str:
    """How a hit's reasons name the group on the table: 'the set (R7 B7 W)'."""
    cards = format_cards(group)
    if kind is GroupKind.SET:
        return _("the set (%(cards)s)", cards=cards)
    if kind is GroupKind.RUN:
        return _("the run (%(cards)s)", cards=cards)
    return _("the colour group (%(cards)s)", cards=cards)


@dataclass(frozen=True)
class HitVerdict(Verdict):
    """A hit's verdict, plus where the card goes and what number it takes."""

    where: str | None = None  # "high end (as 9)", "joins the set of 7s"
    stands_for: int | None = None  # the number the card counts as (sets and runs)

    def to_json(self) -> dict[str, object]:
        return {**super().to_json(), "where": self.where, "stands_for": self.stands_for}


def check_hit(rules: Rules, kind: GroupKind, group: Sequence[Card], card: Card) -> HitVerdict:
    """May ``card`` be hit onto this laid-down group, and where does it go?"""
    group = tuple(group)
    label = _label(kind, group)
    deck = [Reason(reason, rule.DECK) for reason in impossible((*group, card), rules.super_wild)]
    problems = deck + check_group(rules, GroupSpec(kind, 2), group, label=label, as_laid=True)
    if problems:
        return _no_hit(problems)
    if card.is_skip and not is_blue_skip(rules, kind, card):
        reason = _("a %(card)s can never be hit onto a group", card=card.describe())
        return _no_hit([Reason(reason, rule.SKIPS_NOT_LAID)])
    if kind is GroupKind.SET:
        return _hit_set(group, card)
    if kind is GroupKind.RUN:
        return _hit_run(group, card)
    return _hit_colour(group, card)


def _no_hit(problems: list[Reason]) -> HitVerdict:
    return HitVerdict(False, tuple(problems))


def _hit(where: str, stands_for: int | None = None) -> HitVerdict:
    return HitVerdict(True, where=where, stands_for=stands_for)


def _hit_set(group: tuple[Card, ...], card: Card) -> HitVerdict:
    numbers = {c.number for c in group if c.is_natural}
    if not numbers:  # only possible with the house rule natural=phase
        if card.is_wild:
            return _hit(_("joins the set of Wilds"))
        return _no_hit(
            [
                Reason(
                    _(
                        "the set has only Wilds, so its number is not on the table; %(card)s "
                        "fits only if the Wilds were laid down as %(number)ss",
                        card=card.code,
                        number=card.number,
                    ),
                    rule.HITTING,
                )
            ]
        )
    number = numbers.pop()
    assert number is not None
    if card.is_wild and card.width == 2:
        return _hit(_("joins the set of %(number)ss (as two %(number)ss)", number=number), number)
    if card.is_wild:
        return _hit(
            _(
                "joins the set of %(number)ss (as %(a_number)s)",
                number=number,
                a_number=words.a_number(number),
            ),
            number,
        )
    if card.number == number:
        return _hit(_("joins the set of %(number)ss", number=number), number)
    if number in (8, 11):
        reason = _(
            "%(card)s is not an %(number)s: the set is %(number)ss", card=card.code, number=number
        )
    else:
        reason = _(
            "%(card)s is not a %(number)s: the set is %(number)ss", card=card.code, number=number
        )
    return _no_hit([Reason(reason, rule.HITTING)])


# --- runs --------------------------------------------------------------------


def _hit_run(group: tuple[Card, ...], card: Card) -> HitVerdict:
    readings = run_readings(group)
    places = sum(c.width for c in group)
    if not any(c.is_natural for c in group):  # only Wilds (house rule natural=phase)
        if card.is_wild and places + card.width <= 12:
            return _hit(_("an end of the run (the Wilds' numbers were said when laid down)"))
        return _no_hit(
            [
                Reason(
                    _(
                        "the run has only Wilds, so which numbers it holds is not on the table; "
                        "a card fits only if it extends an end within 1-12"
                    ),
                    rule.HITTING,
                )
            ]
        )
    verdicts = [_hit_reading(reading, card) for reading in readings]
    if len(verdicts) == 1:
        return _with_direction(group, readings[0], verdicts[0])
    if all(v.valid for v in verdicts):
        if len({v.stands_for for v in verdicts}) == 1:
            return verdicts[0]
        return _hit(
            _(
                "an end of the run (%(span)s or %(other)s, as its Wilds were laid down)",
                span=readings[0].span,
                other=readings[1].span,
            )
        )
    if not any(v.valid for v in verdicts):
        return _no_hit(
            [
                Reason(
                    _(
                        "%(card)s extends the run neither as %(span)s nor as %(other)s",
                        card=card.code,
                        span=readings[0].span,
                        other=readings[1].span,
                    ),
                    rule.HITTING,
                )
            ]
        )
    fits = next(r for r, v in zip(readings, verdicts, strict=True) if v.valid)
    other = next(r for r, v in zip(readings, verdicts, strict=True) if not v.valid)
    return _no_hit(
        [
            Reason(
                _(
                    "it depends on what the Wilds were laid down as: %(card)s fits if the run "
                    "is %(span)s, not if it is %(other)s",
                    card=card.code,
                    span=fits.span,
                    other=other.span,
                ),
                rule.HITTING,
            )
        ]
    )


def _with_direction(
    group: tuple[Card, ...], reading: RunReading, verdict: HitVerdict
) -> HitVerdict:
    """A refusal says why a run with one natural reads the only way it can (W W W R3: 6-3)."""
    if verdict.valid or sum(c.is_natural for c in group) != 1 or len(group) < 2:
        return verdict
    numbers = ", ".join(str(reading.first + reading.step * i) for i in range(reading.places))
    if reading.step < 0:
        note = _(
            " (read low to high, its Wilds would stand for numbers outside 1-12, "
            "so it is laid high to low: %(numbers)s)",
            numbers=numbers,
        )
    else:
        note = _(
            " (read high to low, its Wilds would stand for numbers outside 1-12, "
            "so it is laid low to high: %(numbers)s)",
            numbers=numbers,
        )
    first = verdict.problems[0]
    return HitVerdict(False, (replace(first, message=first.message + note), *verdict.problems[1:]))


def _hit_reading(reading: RunReading, card: Card) -> HitVerdict:
    """The hit, with the run read this one way."""
    start, end, width = reading.low, reading.high, card.width
    span = reading.span
    if card.is_natural:
        number = card.number
        assert number is not None
        if number == end + 1 <= 12:
            return _hit(_("high end"), number)
        if number == start - 1 >= 1:
            return _hit(_("low end"), number)
        if start <= number <= end:
            reason = _(
                "the run %(span)s already has its %(number)s; a hit must extend an end",
                span=span,
                number=number,
            )
        else:
            reason = _run_wants(card, span, start, end)
        return _no_hit([Reason(reason, rule.HITTING)])
    if end + width <= 12:
        high = words.numbers([end + i for i in range(1, width + 1)])
        return _hit(_("high end (as %(numbers)s)", numbers=high), end + 1)
    if start - width >= 1:
        low = start - width
        numbers = words.numbers([low + i for i in range(width)])
        return _hit(_("low end (as %(numbers)s)", numbers=numbers), low)
    if reading.places == 12:
        reason = _("the run already goes from 1 to 12: nothing more fits")
    else:
        reason = ngettext(
            "a %(card)s fills %(num)s place, and the run %(span)s has room for only "
            "%(below)s more below and %(above)s more above",
            "a %(card)s fills %(num)s places, and the run %(span)s has room for only "
            "%(below)s more below and %(above)s more above",
            width,
            card=card.describe(),
            span=span,
            below=start - 1,
            above=12 - end,
        )
    return _no_hit([Reason(reason, rule.HITTING)])


def _run_wants(card: Card, span: str, start: int, end: int) -> str:
    """Why a number card does not extend a run: which numbers would."""
    wants = [words.a_number(n) for n in (start - 1, end + 1) if 1 <= n <= 12]
    values = {"card": card.code, "span": span}
    if not wants:
        return _(
            "%(card)s does not extend the run %(span)s: it already goes from 1 to 12", **values
        )
    if len(wants) == 1:
        return _(
            "%(card)s does not extend the run %(span)s: only %(one)s fits", one=wants[0], **values
        )
    return _(
        "%(card)s does not extend the run %(span)s: only %(one)s or %(other)s fits",
        one=wants[0],
        other=wants[1],
        **values,
    )


# --- colour groups -----------------------------------------------------------


def _hit_colour(group: tuple[Card, ...], card: Card) -> HitVerdict:
    colours = {colour_of(c) for c in group} - {None}
    if not colours:  # only Wilds (house rule natural=phase)
        if card.is_wild:
            return _hit(_("joins the group of Wilds"))
        own = colour_of(card)
        assert own is not None  # not a Wild, so a natural or a (blue) Skip
        return _no_hit(
            [
                Reason(
                    _(
                        "the group has only Wilds, so its colour is not on the table; "
                        "%(card)s fits only if they were laid down as %(colour)s",
                        card=card.code,
                        colour=own.word,
                    ),
                    rule.HITTING,
                )
            ]
        )
    colour = colours.pop()
    assert colour is not None
    if card.is_wild:
        return _hit(_("joins the %(colour)s cards (as %(colour)s)", colour=colour.word))
    if card.is_skip:
        if colour is Colour.BLUE:
            return _hit(
                _("joins the blue cards (the %(card)s counts as blue)", card=card.describe())
            )
        reason = _(
            "a %(card)s counts as blue, and the group is %(colour)s",
            card=card.describe(),
            colour=colour.word,
        )
        return _no_hit([Reason(reason, rule.SUPER_WILD)])
    if card.colour is colour:
        return _hit(_("joins the %(colour)s cards", colour=colour.word))
    return _no_hit(
        [
            Reason(
                _(
                    "%(card)s is not %(colour)s: the group is %(colour)s cards",
                    card=card.code,
                    colour=colour.word,
                ),
                rule.HITTING,
            )
        ]
    )

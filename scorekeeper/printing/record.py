"""A game's record as the rows of a score sheet: every hand, then the result.

Built from the engine's hand-by-hand record (``rules.replay.played_hands``), so
the printed totals, phases, dealer and winner are the ones the app shows. Given
the state the store kept after each hand, nothing is replayed.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date, format_time

from .. import i18n
from ..clock import duration
from ..i18n import _, ngettext, pgettext
from ..rules.game import Game, Standings
from ..rules.options import Progression
from ..rules.replay import Kept, PlayedHand, played_hands
from .bidi import isolate, joined
from .text import number


@dataclass(frozen=True)
class Cell:
    """One player's part of a row (all blank on a blank row)."""

    phase: str = ""
    made: bool = False
    points: str = ""
    note: str = ""  # "out" for who went out, "float" for a floater (in the sheet's language)
    total: str = ""
    strong: bool = False  # the winner's final total
    reached: int | None = None  # the End row: the phase reached (ticked when finished)
    finished: bool = False


@dataclass(frozen=True)
class Row:
    """A row of the table: a hand, the totals carried from the page before, or the result."""

    label: str  # the hand's number, or a word: "Tie", "Carried", "End"
    kind: str = "hand"  # hand, next (the hand to play, phases filled in), blank, carried, result
    dealer: str = ""
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Record:
    """What a game's sheet prints: hand rows, the result row and the sentence under the title."""

    rows: tuple[Row, ...]
    summary: str
    over: bool
    next_hand: int
    tiebreak: bool = False  # a tiebreak is still to play: it ends the game, no hands follow


@dataclass(frozen=True)
class Played:
    """When a game started (an aware time, in the zone the record is read in), how long it
    took, and the table it belongs to."""

    started: datetime
    minutes: int
    table: str | None = None

    def words(self) -> str:
        """'Played on Friday, November 27, 2026 at 7:05 PM (Europe/Berlin), 1 h 25 min ·
        Table: The Smiths'."""
        language = i18n.language()
        said = [
            _(
                "Played on %(weekday)s, %(date)s at %(time)s (%(zone)s), %(length)s",
                weekday=weekday(self.started),
                date=format_date(self.started, "long", locale=language),
                time=format_time(self.started, "short", locale=language),
                zone=zone_name(self.started),
                length=duration(self.minutes),
            )
        ]
        if self.table:
            said.append(_("Table: %(table)s", table=isolate(self.table)))
        return " \u00b7 ".join(said)


def weekday(when: datetime) -> str:
    """The day of the week as "Played on ..." needs it: a word of its own to translate, for
    a language that says it otherwise there (Polish "w niedzielę", not "niedziela")."""
    return (
        pgettext("played on a day", "Monday"),
        pgettext("played on a day", "Tuesday"),
        pgettext("played on a day", "Wednesday"),
        pgettext("played on a day", "Thursday"),
        pgettext("played on a day", "Friday"),
        pgettext("played on a day", "Saturday"),
        pgettext("played on a day", "Sunday"),
    )[when.weekday()]


def zone_name(when: datetime) -> str:
    """The zone's name as the machine knows it ('Europe/Berlin'), else its offset."""
    key = getattr(when.tzinfo, "key", None)
    return key or when.strftime("UTC%z")


def time_zone(name: str | None = None) -> tzinfo:
    """The zone a record's times are read in: ``name`` (an IANA name, e.g. Europe/Berlin;
    ValueError when unknown), else ``SCOREKEEPER_TIME_ZONE`` when it names a zone, else this
    machine's own."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                _("unknown time zone %(zone)r (say e.g. Europe/Berlin)", zone=name)
            ) from None
    setting = os.environ.get("SCOREKEEPER_TIME_ZONE", "")
    try:
        return ZoneInfo(setting) if setting else _local()
    except (ZoneInfoNotFoundError, ValueError):
        return _local()


def _local() -> tzinfo:
    return datetime.now().astimezone().tzinfo or UTC


def _hand_row(game: Game, played: PlayedHand) -> Row:
    hand = played.hand
    cells = []
    for name in game.players:
        if name not in played.phases:  # sat out a tiebreak
            cells.append(Cell(points="-"))
            continue
        note = (
            pgettext("score sheet", "out")
            if name == hand.went_out
            else pgettext("score sheet", "float")
            if name in hand.floaters
            else ""
        )
        cells.append(
            Cell(
                phase=str(played.phases[name]),
                made=name in hand.made,
                points=str(played.points[name]),
                note=note,
                total=str(played.totals[name]),
            )
        )
    # Translators: the label of the tiebreak hand's row (not the tie itself): "Stechen",
    # "Desempate", "Départage", "Spareggio", "Dogrywka".
    label = pgettext("score sheet", "Tie") if hand.tiebreak else str(played.number)
    return Row(label, dealer=played.dealer, cells=tuple(cells))


def _reached(game: Game, standings: Standings, name: str) -> str:
    player = standings.player(name)
    if game.rules.progression is Progression.TEN_HANDS:
        made = len(player.phases_done)
        return ngettext("%(num)s made", "%(num)s made", made)
    if player.finished:
        return pgettext("score sheet", "all made")
    return pgettext("score sheet", "on %(phase)s", phase=player.phase)


def _result_row(game: Game, standings: Standings) -> Row:
    winners = {standings.winner} if standings.winner else set(standings.tied)
    cells = tuple(
        Cell(
            phase=_reached(game, standings, name),
            points=pgettext("score sheet", "won")
            if name == standings.winner
            else pgettext("score sheet", "tied")
            if name in winners
            else "",
            total=str(standings.player(name).score),
            strong=name in winners,
            reached=None
            if game.rules.progression is Progression.TEN_HANDS
            else max(standings.player(name).phases_done, default=0)
            if standings.player(name).finished
            else standings.player(name).phase,
            finished=standings.player(name).finished,
        )
        for name in game.players
    )
    return Row(pgettext("score sheet", "End"), kind="result", cells=cells)


def summary(game: Game, standings: Standings, hands: int) -> str:
    """One sentence: who won and how, the tie, or where the game stands.

    Every name in it is isolated (``bidi``): a unit of the sentence, whatever its script.
    """
    count = number(hands)
    if standings.ended_early:
        return ended_early_summary(standings, hands)
    if standings.winner and any(hand.tiebreak for hand in game.hands):
        return ngettext(
            "%(winner)s won the tiebreak after %(hands)s hand.",
            "%(winner)s won the tiebreak after %(hands)s hands.",
            hands,
            winner=isolate(standings.winner),
            hands=count,
        )
    if standings.winner:
        total = standings.player(standings.winner).score  # never 1: cards score 5 or more
        return ngettext(
            "%(winner)s won after %(hands)s hand with %(points)s points.",
            "%(winner)s won after %(hands)s hands with %(points)s points.",
            hands,
            winner=isolate(standings.winner),
            hands=count,
            points=number(total),
        )
    if standings.tied:
        return ngettext(
            "%(players)s tied after %(hands)s hand.",
            "%(players)s tied after %(hands)s hands.",
            hands,
            players=joined(standings.tied),
            hands=count,
        )
    if standings.tiebreak:
        return _(
            "%(players)s are tied: they play a tiebreak hand, dealt by %(dealer)s.",
            players=joined(standings.tiebreak),
            dealer=isolate(standings.dealer),
        )
    if not hands:
        return _("Not started: %(dealer)s deals the first hand.", dealer=isolate(standings.dealer))
    return ngettext(
        "In progress after %(hands)s hand: hand %(next)s is next, dealt by %(dealer)s.",
        "In progress after %(hands)s hands: hand %(next)s is next, dealt by %(dealer)s.",
        hands,
        hands=count,
        next=number(standings.hand_number),
        dealer=isolate(standings.dealer),
    )


def ended_early_summary(standings: Standings, hands: int) -> str:
    """'Ann won: the game was ended early after hand 7.' (or the tie it ended in)."""
    if standings.winner:
        return _(
            "%(winner)s won: the game was ended early after hand %(hand)s.",
            winner=isolate(standings.winner),
            hand=number(hands),
        )
    return _(
        "%(players)s tied: the game was ended early after hand %(hand)s.",
        players=joined(standings.tied),
        hand=number(hands),
    )


def game_record(game: Game, kept: Sequence[Kept] | None = None) -> Record:
    """The rows for every hand played and the result, with the summary sentence.

    ``kept``: the state after each hand, as the store keeps it (read, not replayed).
    """
    played, standings = played_hands(game, kept)
    rows = [_hand_row(game, hand) for hand in played]
    if standings.over:
        rows.append(_result_row(game, standings))
    else:  # the next hand: its dealer and the phase each player is on
        playing = standings.tiebreak or game.players
        chosen = game.rules.progression in (Progression.MASTERS, Progression.MIXED_UP)
        cells = tuple(
            Cell(phase=_next_phase(standings, name, chosen and not standings.tiebreak))
            if name in playing
            else Cell(points="-")
            for name in game.players
        )
        label = pgettext("score sheet", "Tie") if standings.tiebreak else str(len(played) + 1)
        rows.append(Row(label, kind="next", dealer=standings.dealer, cells=cells))
    said = summary(game, standings, len(played))
    if any(hand.tiebreak for hand in game.hands) or standings.tiebreak:
        said += " " + _(
            "A tiebreak hand only decides the winner: its points are not added to the totals."
        )
    return Record(
        tuple(rows), said, standings.over, len(played) + 2, tiebreak=bool(standings.tiebreak)
    )


def _next_phase(standings: Standings, name: str, chosen: bool) -> str:
    """The phase a player plays next; blank in Masters, where each player picks theirs."""
    if chosen:
        return ""
    player = standings.player(name)
    return str(player.tiebreak_phase or player.phase)

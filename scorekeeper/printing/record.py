"""A game's record as the rows of a score sheet: every hand, then the result.

Built from the engine's hand-by-hand record (``rules.game.played_hands``), so
the printed totals, phases, dealer and winner are the ones the app shows. Given
the state the store kept after each hand, nothing is replayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rules.game import Game, Kept, PlayedHand, Standings, played_hands
from ..rules.phases import Progression
from ..rules.scoring import join_names


@dataclass(frozen=True)
class Cell:
    """One player's part of a row (all blank on a blank row)."""

    phase: str = ""
    made: bool = False
    points: str = ""
    note: str = ""  # "out" for who went out, "float" for a floater
    total: str = ""
    strong: bool = False  # the winner's final total


@dataclass(frozen=True)
class Row:
    """A row of the table: a hand, the totals carried from the page before, or the result."""

    label: str
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


def _hand_row(game: Game, played: PlayedHand) -> Row:
    hand = played.hand
    cells = []
    for name in game.players:
        if name not in played.phases:  # sat out a tiebreak
            cells.append(Cell(points="-"))
            continue
        note = "out" if name == hand.went_out else "float" if name in hand.floaters else ""
        cells.append(
            Cell(
                phase=str(played.phases[name]),
                made=name in hand.made,
                points=str(played.points[name]),
                note=note,
                total=str(played.totals[name]),
            )
        )
    label = "Tie" if hand.tiebreak else str(played.number)
    return Row(label, dealer=played.dealer, cells=tuple(cells))


def _reached(game: Game, standings: Standings, name: str) -> str:
    player = standings.player(name)
    if game.rules.progression is Progression.TEN_HANDS:
        return f"{len(player.phases_done)} made"
    if player.finished:
        return "all made"
    return f"on {player.phase}"


def _result_row(game: Game, standings: Standings) -> Row:
    winners = {standings.winner} if standings.winner else set(standings.tied)
    cells = tuple(
        Cell(
            phase=_reached(game, standings, name),
            points="won" if name == standings.winner else "tied" if name in winners else "",
            total=str(standings.player(name).score),
            strong=name in winners,
        )
        for name in game.players
    )
    return Row("End", kind="result", cells=cells)


def summary(game: Game, standings: Standings, hands: int) -> str:
    """One sentence: who won and how, the tie, or where the game stands."""
    if standings.winner and any(hand.tiebreak for hand in game.hands):
        return f"{standings.winner} won the tiebreak after {hands} hands."
    if standings.winner:
        total = standings.player(standings.winner).score
        return f"{standings.winner} won after {hands} hands with {total} points."
    if standings.tied:
        return f"{join_names(standings.tied)} tied after {hands} hands."
    if standings.tiebreak:
        return (
            f"{join_names(standings.tiebreak)} are tied: they play a tiebreak hand, "
            f"dealt by {standings.dealer}."
        )
    if not hands:
        return f"Not started: {standings.dealer} deals the first hand."
    return (
        f"In progress after {hands} hands: hand {standings.hand_number} is next, "
        f"dealt by {standings.dealer}."
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
        cells = tuple(
            Cell(phase=str(standings.player(name).tiebreak_phase or standings.player(name).phase))
            if name in playing
            else Cell(points="-")
            for name in game.players
        )
        label = "Tie" if standings.tiebreak else str(len(played) + 1)
        rows.append(Row(label, kind="next", dealer=standings.dealer, cells=cells))
    return Record(
        tuple(rows), summary(game, standings, len(played)), standings.over, len(played) + 2
    )

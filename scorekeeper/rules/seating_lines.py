"""Rounds in which nobody sits with anyone twice: tables along the lines of a finite plane.

With a prime number p of tables, each player is a point with two coordinates counted
modulo p: their table in round 1 (the row) and their table in round 2 (the column).
The lines of one direction, the points where ``(1 - k) * row + k * column`` is the same,
split the players into p tables, and two points lie on exactly one common line: players
seated along a new direction each round never sit together twice, for up to p rounds.

Round 2 is seated so that row r leaves column r empty: those empty points are one whole
line of the direction that is never used (row - column = 0), so the lines of every other
direction lose a point each, and hold no more players than a table of round 1 (six, at
seven tables of six or five). Later rounds read the rows and columns back from the night's
tables, whatever order the tables were numbered in.

These are proposals: "new opponents" keeps one only when it costs no more than its own
search, so a room that is not a prime number of tables, or players who came late or left,
are seated as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Proposal = tuple[list[list[str]], list[str]]  # the tables, and the players not on the plane


def rounds_of(earlier: Iterable[Sequence[str]]) -> list[list[tuple[str, ...]]]:
    """The night's tables so far, in the order played, split into rounds: a round ends
    where a table holds a player already seated in it."""
    rounds: list[list[tuple[str, ...]]] = []
    seated: set[str] = set()
    for table in earlier:
        if not rounds or seated.intersection(table):
            rounds.append([])
            seated = set()
        rounds[-1].append(tuple(table))
        seated.update(table)
    return rounds


def line_seatings(
    names: Sequence[str], tables: int, rounds: Sequence[Sequence[Sequence[str]]]
) -> list[Proposal]:
    """Seatings of ``names`` at ``tables`` tables along the plane's lines, one for each
    direction not seated yet; none when the tables are not a prime number, or the first
    rounds were not played at that many tables (or not along the plane)."""
    if not rounds or not _prime(tables) or len(rounds[0]) != tables:
        return []
    rows = [list(table) for table in rounds[0]]
    if len(rounds) == 1:
        return [_second_round(names, rows)]
    columns = [list(table) for table in rounds[1]]
    if len(columns) != tables:
        return []
    points = _points(rows, columns)
    if points is None:
        return []
    proposals = []
    for k in range(2, tables):
        lines: list[list[str]] = [[] for _ in range(tables)]
        rest = []
        for name in names:
            if name in points:
                row, column = points[name]
                lines[((1 - k) * row + k * column) % tables].append(name)
            else:
                rest.append(name)
        proposals.append((lines, rest))
    return proposals


def _second_round(names: Sequence[str], rows: list[list[str]]) -> Proposal:
    """Row r's players to columns r + 1, r + 2, ...: no column meets a row twice, and
    column r is the one row r leaves empty."""
    here = set(names)
    lines: list[list[str]] = [[] for _ in rows]
    for row, table in enumerate(rows):
        players = [name for name in table if name in here]
        for offset, name in enumerate(players, start=1):
            lines[(row + offset) % len(rows)].append(name)
    seated = {name for line in lines for name in line}
    return lines, [name for name in names if name not in seated]


def _points(rows: list[list[str]], columns: list[list[str]]) -> dict[str, tuple[int, int]] | None:
    """Each player's (row, column), the columns numbered so that row r shares no player
    with column r; None when no such numbering exists (round 2 was not along the plane)."""
    missed = [
        [c for c, column in enumerate(columns) if not set(row).intersection(column)] for row in rows
    ]
    owner = [-1] * len(columns)  # owner[c]: the row that column c is numbered after

    def assign(row: int, tried: set[int]) -> bool:
        for column in missed[row]:
            if column not in tried:
                tried.add(column)
                if owner[column] < 0 or assign(owner[column], tried):
                    owner[column] = row
                    return True
        return False

    if not all(assign(row, set()) for row in range(len(rows))):
        return None
    points: dict[str, list[int]] = {}
    for r, row in enumerate(rows):
        for name in row:
            points[name] = [r, -1]
    for c, column in enumerate(columns):
        for name in column:
            if name in points:
                points[name][1] = owner[c]
    return {name: (r, c) for name, (r, c) in points.items() if c >= 0}


def _prime(number: int) -> bool:
    return number > 2 and all(number % d for d in range(2, int(number**0.5) + 1))

"""A club night kept: who is here, each round's seating and games, and a log of its changes.

A night belongs to a table (the club) and is reached by the table's own link
(the organiser) or by its read-only link and short code (the players' phones, the
room's screen). The arithmetic (table sizes, seating, points) is the engine's
(``rules/nights.py``); this module only stores what the organiser decided and the
games each round started, so the night's leaderboard is always worked out from
the games themselves. Every change to a night adds a row to ``night_changes``,
which is also what wakes its live pages (``store.commits.changed``).

Writes are called only from ``actions/``, inside its transactions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from .. import clock, store
from ..backup.table_archive import ArchivedNight, ArchivedRound
from ..rules.nights import Mode, Scheme, TableSeating
from .schema import new_key, unused_code


@dataclass(frozen=True)
class Night:
    id: str  # the organiser's part of the link: /t/<table>/nights/<id>
    table_id: str
    view_id: str  # the read-only link: /e/<view_id>
    code: str  # read aloud, typed at /<code> like a game's
    name: str
    created: str
    rounds: int
    profile: str  # the rules profile of its games: "official" (a whole game), "ten-hands", ...
    mode: Mode  # how rounds after the first are seated
    scheme: Scheme

    @property
    def when(self) -> datetime:
        """When it was started, for the pages' ``day_of``."""
        return clock.moment(self.created)


@dataclass(frozen=True)
class Round:
    """One round: its seating (tables of names, seat 1 first, who deals) and its seed.

    ``started``: when its games were started (None: seated only, it may be seated again).
    ``asked``: the number of tables the organiser asked for (None: as rule 11 suggests),
    kept when the round is seated again for a late arrival.
    """

    number: int
    seed: str
    mode: Mode
    tables: tuple[TableSeating, ...]
    started: str | None
    asked: int | None = None


@dataclass(frozen=True)
class NightGame:
    round: int
    table: int
    game_id: str


@dataclass(frozen=True)
class Attendee:
    name: str
    here: bool


_COLUMNS = "id, table_id, view_id, code, name, created, rounds, profile, mode, scheme"


def _night(row: Sequence[Any]) -> Night:
    return Night(*row[:8], Mode(row[8]), Scheme(row[9]))  # type: ignore[call-arg]


# --- reading ------------------------------------------------------------------------


def get_night(db: Database, night_id: str) -> Night | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM nights WHERE id = ?", [night_id]).fetchone()
    return _night(row) if row else None


def night_by_view(db: Database, view_id: str) -> Night | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM nights WHERE view_id = ?", [view_id]).fetchone()
    return _night(row) if row else None


def night_by_code(db: Database, code: str) -> Night | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM nights WHERE code = ?", [code]).fetchone()
    return _night(row) if row else None


def nights_of_table(db: Database, table_id: str) -> list[Night]:
    """The table's nights, the latest first."""
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM nights WHERE table_id = ? ORDER BY created DESC, rowid DESC",
        [table_id],
    ).fetchall()
    return [_night(row) for row in rows]


def attendees(db: Database, night_id: str) -> list[Attendee]:
    """Everyone who came tonight, in the order they were added; ``here``: not gone home."""
    rows = db.execute(
        "SELECT name, here FROM night_players WHERE night_id = ? ORDER BY rowid", [night_id]
    ).fetchall()
    return [Attendee(name, bool(here)) for name, here in rows]


def rounds(db: Database, night_id: str) -> list[Round]:
    rows = db.execute(
        "SELECT number, seed, mode, seating, started, tables_asked FROM night_rounds "
        "WHERE night_id = ? ORDER BY number",
        [night_id],
    ).fetchall()
    return [
        Round(
            number,
            seed,
            Mode(mode),
            tuple(TableSeating(i, tuple(seats)) for i, seats in enumerate(json.loads(seating), 1)),
            started,
            asked,
        )
        for number, seed, mode, seating, started, asked in rows
    ]


def games(db: Database, night_id: str) -> list[NightGame]:
    """The night's games, by round and table (a deleted game is no longer the night's)."""
    rows = db.execute(
        "SELECT n.round, n.table_number, n.game_id FROM night_games n WHERE n.night_id = ? AND "
        "NOT EXISTS (SELECT 1 FROM deleted_games d WHERE d.game_id = n.game_id) "
        "ORDER BY n.round, n.table_number",
        [night_id],
    ).fetchall()
    return [NightGame(*row) for row in rows]


def version(db: Database, night_id: str) -> str:
    """What the night's pages show, in one indexed read: its latest change, and the
    version of each of its games."""
    row = db.execute(
        "SELECT (SELECT coalesce(max(id), 0) FROM night_changes WHERE night_id = ?), "
        "(SELECT group_concat(version, '.') FROM (SELECT g.version FROM night_games n "
        "JOIN games g ON g.id = n.game_id WHERE n.night_id = ? "
        "ORDER BY n.round, n.table_number))",
        [night_id, night_id],
    ).fetchone()
    return f"{row[0]}-{row[1] or ''}"


def history(db: Database, night_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Every change to the night, newest first: (when, what, its facts)."""
    rows = db.execute(
        "SELECT at, action, detail FROM night_changes WHERE night_id = ? ORDER BY id DESC",
        [night_id],
    ).fetchall()
    return [(at, action, json.loads(detail)) for at, action, detail in rows]


# --- writing (from actions/, inside its transaction) -------------------------------


def create_night(
    db: Database,
    table_id: str,
    *,
    name: str,
    players: Sequence[str],
    rounds: int,
    profile: str,
    mode: Mode,
    scheme: Scheme,
) -> Night:
    with store.connection.transaction(db):
        night = Night(
            new_key(),
            table_id,
            new_key(),
            _unused_code(db),
            name,
            store.connection.now(),
            rounds,
            profile,
            mode,
            scheme,
        )
        db.execute(
            f"INSERT INTO nights ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [*_row(night)],
        )
        for player in players:
            db.execute(
                "INSERT INTO night_players (night_id, name, here) VALUES (?, ?, 1)",
                [night.id, player],
            )
        log(db, night.id, "create", players=list(players), rounds=rounds, profile=profile)
    return night


def _row(night: Night) -> tuple[Any, ...]:
    return (
        night.id,
        night.table_id,
        night.view_id,
        night.code,
        night.name,
        night.created,
        night.rounds,
        night.profile,
        night.mode.value,
        night.scheme.value,
    )


def _unused_code(db: Database) -> str:
    """A short code no game and no night has (games' codes and nights' share /<code>)."""
    while True:
        code = unused_code(db)
        if db.execute("SELECT 1 FROM nights WHERE code = ?", [code]).fetchone() is None:
            return code


def set_here(db: Database, night_id: str, name: str, here: bool) -> None:
    """A player leaves (``here`` False) or comes back, or a newcomer arrives."""
    with store.connection.transaction(db):
        db.execute(
            "INSERT INTO night_players (night_id, name, here) VALUES (?, ?, ?) "
            "ON CONFLICT (night_id, name) DO UPDATE SET here = excluded.here",
            [night_id, name, int(here)],
        )
        log(db, night_id, "arrive" if here else "leave", player=name)


def seat(
    db: Database,
    night_id: str,
    number: int,
    seed: str,
    mode: Mode,
    tables: Sequence[TableSeating],
    asked: int | None = None,
) -> None:
    """Keep a round's seating (a round not started yet is seated anew); ``asked``: the
    number of tables the organiser asked for, if any."""
    seating = json.dumps([list(table.seats) for table in tables], ensure_ascii=False)
    with store.connection.transaction(db):
        db.execute(
            "INSERT INTO night_rounds (night_id, number, seed, mode, seating, started, "
            "tables_asked) VALUES (?, ?, ?, ?, ?, NULL, ?) ON CONFLICT (night_id, number) "
            "DO UPDATE SET seed = excluded.seed, mode = excluded.mode, "
            "seating = excluded.seating, tables_asked = excluded.tables_asked "
            "WHERE started IS NULL",
            [night_id, number, seed, mode.value, seating, asked],
        )
        log(
            db,
            night_id,
            "seat",
            round=number,
            seed=seed,
            mode=mode.value,
            tables=json.loads(seating),
        )


def start_round(db: Database, night_id: str, number: int, game_ids: Sequence[str]) -> None:
    """The round's games are started: game_ids[i] is table i + 1's."""
    with store.connection.transaction(db):
        db.execute(
            "UPDATE night_rounds SET started = ? WHERE night_id = ? AND number = ?",
            [store.connection.now(), night_id, number],
        )
        for table, game_id in enumerate(game_ids, 1):
            db.execute(
                "INSERT INTO night_games (game_id, night_id, round, table_number) "
                "VALUES (?, ?, ?, ?)",
                [game_id, night_id, number, table],
            )
        log(db, night_id, "start", round=number, games=list(game_ids))


def restore_night(
    db: Database, table_id: str, night: ArchivedNight, game_ids: Sequence[str]
) -> Night:
    """A night from a table's backup, with new links; ``game_ids``: the backup's games as
    imported, in its order (a round names its games by their index there)."""
    with store.connection.transaction(db):
        restored = Night(
            new_key(),
            table_id,
            new_key(),
            _unused_code(db),
            night.name,
            night.created or store.connection.now(),
            night.rounds,
            night.profile,
            night.mode,
            night.scheme,
        )
        db.execute(
            f"INSERT INTO nights ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [*_row(restored)],
        )
        for name, here in night.players:
            db.execute(
                "INSERT OR IGNORE INTO night_players (night_id, name, here) VALUES (?, ?, ?)",
                [restored.id, name, int(here)],
            )
        for played in night.played:
            seating = json.dumps([list(seats) for seats in played.tables], ensure_ascii=False)
            db.execute(
                "INSERT INTO night_rounds (night_id, number, seed, mode, seating, started, "
                "tables_asked) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    restored.id,
                    played.number,
                    played.seed,
                    played.mode.value,
                    seating,
                    played.started,
                    played.asked,
                ],
            )
            for table, index in enumerate(played.games, 1):
                db.execute(
                    "INSERT INTO night_games (game_id, night_id, round, table_number) "
                    "VALUES (?, ?, ?, ?)",
                    [game_ids[index], restored.id, played.number, table],
                )
        log(db, restored.id, "import", players=[name for name, _here in night.players])
    return restored


def archived(db: Database, night: Night, game_index: dict[str, int]) -> ArchivedNight:
    """The night as a table's backup keeps it; ``game_index``: game id -> its index among
    the backup's games (a game no longer in the table leaves its round without games)."""
    played = []
    for found in rounds(db, night.id):
        ids = [g.game_id for g in games(db, night.id) if g.round == found.number]
        indexes = tuple(game_index[i] for i in ids) if all(i in game_index for i in ids) else ()
        played.append(
            ArchivedRound(
                found.number,
                found.seed,
                found.mode,
                tuple(table.seats for table in found.tables),
                found.started,
                indexes if len(indexes) == len(found.tables) else (),
                found.asked,
            )
        )
    return ArchivedNight(
        night.name,
        night.created,
        night.rounds,
        night.profile,
        night.mode,
        night.scheme,
        tuple((a.name, a.here) for a in attendees(db, night.id)),
        tuple(played),
    )


def log(db: Database, night_id: str, action: str, **detail: Any) -> None:
    with store.connection.transaction(db):
        db.execute(
            "INSERT INTO night_changes (night_id, at, action, detail) VALUES (?, ?, ?, ?)",
            [night_id, store.connection.now(), action, json.dumps(detail, ensure_ascii=False)],
        )

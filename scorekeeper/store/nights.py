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
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from .. import clock, store
from ..rules.nights import Mode, Scheme, TableSeating
from . import records
from .schema import new_key, unused_code


@dataclass(frozen=True)
class NightPlan:
    """A night as the organiser set it up, without its links: what a table's backup keeps
    (``backup.table_archive.ArchivedNight``), a night brought back getting links anew.
    Each field is a column of ``nights``."""

    name: str
    created: str
    rounds: int
    profile: str  # the rules profile of its games: "official" (a whole game), "ten-hands", ...
    mode: Mode  # how rounds after the first are seated
    scheme: Scheme
    ended: str | None = None  # when the organiser ended it early (None: it runs its rounds)
    minutes: int | None = None  # the round clock: minutes a round (None: no clock)

    @property
    def when(self) -> datetime:
        """When it was started, for the pages' ``day_of``."""
        return clock.moment(self.created)


@dataclass(frozen=True, kw_only=True)
class Night(NightPlan):
    """A night as stored: its plan and its links (``nights``, a column each)."""

    id: str  # the organiser's part of the link: /t/<table>/nights/<id>
    table_id: str
    view_id: str  # the read-only link: /e/<view_id>
    code: str  # read aloud, typed at /<code> like a game's


def _seating(text: str) -> tuple[TableSeating, ...]:
    return tuple(TableSeating(i, tuple(seats)) for i, seats in enumerate(json.loads(text), 1))


def _seating_text(tables: Sequence[TableSeating]) -> str:
    return json.dumps([list(table.seats) for table in tables], ensure_ascii=False)


@dataclass(frozen=True)
class Round:
    """One round (``night_rounds``): its seating (tables of names, seat 1 first, who deals)
    and its seed.

    ``started``: when its games were started (None: seated only, it may be seated again).
    ``asked``: the number of tables the organiser asked for (None: as rule 11 suggests),
    kept when the round is seated again for a late arrival.
    """

    number: int
    seed: str
    mode: Mode
    tables: tuple[TableSeating, ...] = field(
        metadata=records.column("seating", load=_seating, dump=_seating_text)
    )
    started: str | None
    asked: int | None = field(default=None, metadata=records.column("tables_asked"))


@dataclass(frozen=True)
class NightGame:
    """A game of a round (``night_games``)."""

    round: int
    table: int = field(metadata=records.column("table_number"))
    game_id: str


@dataclass(frozen=True)
class Attendee:
    """Someone who came (``night_players``); ``here``: not gone home; ``keeps``: the table
    they keep in every round (an accessible seat), None: seated anywhere."""

    name: str
    here: bool
    keeps: int | None = field(default=None, metadata=records.column("keeps_table"))


# --- reading ------------------------------------------------------------------------


def _night_where(db: Database, where: str, value: str) -> Night | None:
    return records.one(
        db, Night, f"SELECT {records.columns(Night)} FROM nights WHERE {where}", [value]
    )


def get_night(db: Database, night_id: str) -> Night | None:
    return _night_where(db, "id = ?", night_id)


def night_by_view(db: Database, view_id: str) -> Night | None:
    return _night_where(db, "view_id = ?", view_id)


def night_by_code(db: Database, code: str) -> Night | None:
    return _night_where(db, "code = ?", code)


def nights_of_table(db: Database, table_id: str) -> list[Night]:
    """The table's nights, the latest first."""
    return records.many(
        db,
        Night,
        f"SELECT {records.columns(Night)} FROM nights WHERE table_id = ? "
        "ORDER BY created DESC, rowid DESC",
        [table_id],
    )


def attendees(db: Database, night_id: str) -> list[Attendee]:
    """Everyone who came tonight, in the order they were added; ``here``: not gone home."""
    return records.many(
        db,
        Attendee,
        f"SELECT {records.columns(Attendee)} FROM night_players WHERE night_id = ? ORDER BY rowid",
        [night_id],
    )


def rounds(db: Database, night_id: str) -> list[Round]:
    return records.many(
        db,
        Round,
        f"SELECT {records.columns(Round)} FROM night_rounds WHERE night_id = ? ORDER BY number",
        [night_id],
    )


def games(db: Database, night_id: str) -> list[NightGame]:
    """The night's games, by round and table (a deleted game is no longer the night's)."""
    return records.many(
        db,
        NightGame,
        f"SELECT {records.columns(NightGame)} FROM night_games n WHERE n.night_id = ? AND "
        "NOT EXISTS (SELECT 1 FROM deleted_games d WHERE d.game_id = n.game_id) "
        "ORDER BY n.round, n.table_number",
        [night_id],
    )


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


def latest_change(db: Database, night_id: str) -> int:
    """The number of the night's latest change: what an organiser's page saw (0: none)."""
    row = db.execute(
        "SELECT coalesce(max(id), 0) FROM night_changes WHERE night_id = ?", [night_id]
    ).fetchone()
    return int(row[0])


def history(db: Database, night_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Every change to the night, newest first: (when, what, its facts)."""
    found = records.rows(
        db,
        "SELECT at, action, detail FROM night_changes WHERE night_id = ? ORDER BY id DESC",
        [night_id],
    )
    return [(change["at"], change["action"], json.loads(change["detail"])) for change in found]


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
    minutes: int | None = None,
) -> Night:
    with store.connection.transaction(db):
        night = Night(
            name=name,
            created=store.connection.now(),
            rounds=rounds,
            profile=profile,
            mode=mode,
            scheme=scheme,
            minutes=minutes,
            **_new_links(db, table_id),
        )
        records.insert(db, "nights", records.row(night))
        for player in players:
            _add_attendee(db, night.id, Attendee(player, True))
        log(db, night.id, "create", players=list(players), rounds=rounds, profile=profile)
    return night


def _new_links(db: Database, table_id: str) -> dict[str, Any]:
    """A new night's links at the table: its id, its watchers' link and its short code."""
    return {"id": new_key(), "table_id": table_id, "view_id": new_key(), "code": _unused_code(db)}


def _unused_code(db: Database) -> str:
    """A short code no game and no night has (games' codes and nights' share /<code>)."""
    while True:
        code = unused_code(db)
        if db.execute("SELECT 1 FROM nights WHERE code = ?", [code]).fetchone() is None:
            return code


def _add_attendee(db: Database, night_id: str, attendee: Attendee, on_conflict: str = "") -> None:
    row = {"night_id": night_id, **records.row(attendee)}
    records.insert(db, "night_players", row, on_conflict=on_conflict)


def set_here(db: Database, night_id: str, name: str, here: bool) -> None:
    """A player leaves (``here`` False) or comes back, or a newcomer arrives; one who leaves
    keeps no table."""
    with store.connection.transaction(db):
        _add_attendee(
            db,
            night_id,
            Attendee(name, here),
            "(night_id, name) DO UPDATE SET here = excluded.here, "
            "keeps_table = CASE WHEN excluded.here THEN keeps_table END",
        )
        log(db, night_id, "arrive" if here else "leave", player=name)


def take_out(db: Database, night_id: str, number: int, name: str, game_id: str) -> None:
    """The organiser took a player out of round ``number`` (their game goes on without them,
    a change of that game's own): said in the night's log."""
    log(db, night_id, "take-out", round=number, player=name, game=game_id)


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
    seated = Round(number, seed, mode, tuple(tables), None, asked)
    with store.connection.transaction(db):
        records.insert(
            db,
            "night_rounds",
            {"night_id": night_id, **records.row(seated)},
            on_conflict="(night_id, number) DO UPDATE SET seed = excluded.seed, "
            "mode = excluded.mode, seating = excluded.seating, "
            "tables_asked = excluded.tables_asked WHERE started IS NULL",
        )
        log(
            db,
            night_id,
            "seat",
            round=number,
            seed=seed,
            mode=mode.value,
            tables=[list(table.seats) for table in tables],
        )


def rearrange(
    db: Database,
    night_id: str,
    number: int,
    tables: Sequence[TableSeating],
    action: str,
    **detail: Any,
) -> None:
    """A seated round, not started yet, with players swapped or moved (``action``)."""
    with store.connection.transaction(db):
        db.execute(
            "UPDATE night_rounds SET seating = ? "
            "WHERE night_id = ? AND number = ? AND started IS NULL",
            [_seating_text(tables), night_id, number],
        )
        log(db, night_id, action, round=number, **detail)


def keep_table(db: Database, night_id: str, name: str, table: int | None) -> None:
    """A player keeps table ``table`` in every round from now (None: seated anywhere)."""
    with store.connection.transaction(db):
        db.execute(
            "UPDATE night_players SET keeps_table = ? WHERE night_id = ? AND name = ?",
            [table, night_id, name],
        )
        log(db, night_id, "keep", player=name, table=table)


def end_night(db: Database, night_id: str, after: int) -> None:
    """The organiser ends the night after round ``after``: a round seated and not started
    is dropped, and the night's standings are final."""
    with store.connection.transaction(db):
        db.execute("DELETE FROM night_rounds WHERE night_id = ? AND started IS NULL", [night_id])
        db.execute("UPDATE nights SET ended = ? WHERE id = ?", [store.connection.now(), night_id])
        log(db, night_id, "end", round=after)


def reopen(db: Database, night_id: str) -> None:
    """A night ended early goes on: the next round may be seated."""
    with store.connection.transaction(db):
        db.execute("UPDATE nights SET ended = NULL WHERE id = ?", [night_id])
        log(db, night_id, "reopen")


def set_plan(db: Database, night_id: str, *, rounds: int, minutes: int | None) -> None:
    """The night's number of rounds and its round clock, as the organiser changed them."""
    with store.connection.transaction(db):
        db.execute(
            "UPDATE nights SET rounds = ?, minutes = ? WHERE id = ?", [rounds, minutes, night_id]
        )
        log(db, night_id, "plan", rounds=rounds, minutes=minutes)


def start_round(db: Database, night_id: str, number: int, game_ids: Sequence[str]) -> None:
    """The round's games are started: game_ids[i] is table i + 1's."""
    with store.connection.transaction(db):
        db.execute(
            "UPDATE night_rounds SET started = ? WHERE night_id = ? AND number = ?",
            [store.connection.now(), night_id, number],
        )
        for table, game_id in enumerate(game_ids, 1):
            _add_game(db, night_id, NightGame(number, table, game_id))
        log(db, night_id, "start", round=number, games=list(game_ids))


def _add_game(db: Database, night_id: str, game: NightGame) -> None:
    records.insert(db, "night_games", {"night_id": night_id, **records.row(game)})


def restore_night(
    db: Database,
    table_id: str,
    plan: NightPlan,
    players: Sequence[Attendee],
    played: Sequence[tuple[Round, Sequence[str]]],
) -> Night:
    """A night brought back (from a table's backup) at the table, with new links: as
    planned, who came, and each round with its games' ids, table by table (none while it
    is only seated)."""
    with store.connection.transaction(db):
        kept = records.values(plan, NightPlan)
        restored = Night(
            **{**kept, "created": plan.created or store.connection.now()},
            **_new_links(db, table_id),
        )
        records.insert(db, "nights", records.row(restored))
        for attendee in players:
            _add_attendee(db, restored.id, attendee, "DO NOTHING")
        for seated, game_ids in played:
            records.insert(
                db, "night_rounds", {"night_id": restored.id, **records.row(seated, Round)}
            )
            for table, game_id in enumerate(game_ids, 1):
                _add_game(db, restored.id, NightGame(seated.number, table, game_id))
        log(db, restored.id, "import", players=[attendee.name for attendee in players])
    return restored


def log(db: Database, night_id: str, action: str, **detail: Any) -> None:
    with store.connection.transaction(db):
        records.insert(
            db,
            "night_changes",
            {
                "night_id": night_id,
                "at": store.connection.now(),
                "action": action,
                "detail": json.dumps(detail, ensure_ascii=False),
            },
        )

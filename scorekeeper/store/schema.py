"""Every table the app keeps, in one place, and the steps that bring an older file up to it.

``SCHEMA`` is the whole schema as a new file gets it (docs/storage.md describes it
table by table). Files written by earlier versions of the app are brought up to
it by the migrations below, applied at start-up by sqlite-utils ``Migrations``
(set ``scorekeeper``), each once, each safe on a file that already has it.
``links-follows-entries`` creates whatever tables and indexes an older file lacks
from ``SCHEMA`` itself (``CREATE ... IF NOT EXISTS``), so a column added to a
table later needs a step of its own that adds it where it is missing, as
``roster-player-ids`` does. tests/test_schema_upgrade.py opens a file written by
the previous main.
"""

from __future__ import annotations

import secrets
import sqlite3
from contextlib import closing
from functools import cache

from sqlite_utils import Database, Migrations

from .. import codes
from . import budget, shards

SCHEMA = """
-- One row per game: its current version, written with every change (store/).
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,        -- the view link's id: 128 random bits
    edit_key TEXT,              -- the scorekeeper link's key: 128 random bits
    version INTEGER,            -- counts the changes: 1 = just created
    created TEXT,               -- UTC, ISO 8601
    updated TEXT,
    state TEXT,                 -- the game file of this version (docs/game-format.md)
    standings TEXT,             -- this version's standings, worked out once when written
    kept TEXT,                  -- the engine's state after each hand: a change replays from it
    follows TEXT,               -- the game this one was started after (rematch, next at a table)
    code TEXT,                  -- the short code read aloud to open the watch page
    player_key TEXT,            -- renews the players' links; NULL: the first ones
    time_zone TEXT              -- its clock while in no table (IANA name); NULL: the server's
);
CREATE INDEX IF NOT EXISTS games_follows ON games (follows);
CREATE UNIQUE INDEX IF NOT EXISTS games_code ON games (code);

-- The log: one row per version of a game, never rewritten (docs/storage.md).
CREATE TABLE IF NOT EXISTS changes (
    game_id TEXT REFERENCES games (id),
    version INTEGER,
    at TEXT,
    action TEXT,                -- create, import, record, edit, delete, undo, restore, ...
    summary TEXT,               -- what happened, as facts (store/change_notes.py)
    detail TEXT,                -- the change itself, JSON
    hands INTEGER,              -- how many hands the game had after it
    undo_to INTEGER,            -- the version Undo goes back to while this is the latest
    PRIMARY KEY (game_id, version)
);

-- A family or club: its link, its roster, the spellings it merged, its games.
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,        -- the table's link: 128 random bits
    name TEXT,
    created TEXT,
    view_id TEXT,               -- its lasting name in its games' histories (a move)
    screen TEXT,                -- the read-only address of its screen (/tv/<screen>)
    deleted TEXT,               -- when it was deleted by its link (UTC); NULL: in use
    time_zone TEXT              -- the table's clock (IANA name); NULL: the server's
);
CREATE UNIQUE INDEX IF NOT EXISTS tables_view_id ON tables (view_id);
CREATE TABLE IF NOT EXISTS table_players (
    table_id TEXT REFERENCES tables (id),
    name TEXT,
    retired INTEGER,
    added TEXT,
    player_id TEXT,             -- the roster player's own id, kept through renames and merges
    PRIMARY KEY (table_id, name)
);
CREATE TABLE IF NOT EXISTS table_aliases (
    table_id TEXT REFERENCES tables (id),
    alias TEXT,                 -- an old spelling, whose games count for...
    name TEXT,                  -- ...this roster name
    PRIMARY KEY (table_id, alias)
);
CREATE TABLE IF NOT EXISTS table_games (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    table_id TEXT REFERENCES tables (id),
    added TEXT
);
CREATE INDEX IF NOT EXISTS idx_table_games_table_id ON table_games (table_id);

-- Points players sent from their own phones for the hand being played, until it is
-- recorded. Each sending gets a new id, so the largest id of a game says whether
-- anything new arrived (the scorekeeper's live poll).
CREATE TABLE IF NOT EXISTS hand_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT REFERENCES games (id),
    hand_number INTEGER,
    seat INTEGER,
    points INTEGER,
    made INTEGER,
    went_out INTEGER,
    at TEXT,
    UNIQUE (game_id, hand_number, seat)
);

-- What each game takes in the file, kept as it is written, so a table's size (the sum
-- over its games) is read without reading any game (store/: the storage budget). A
-- narrow table of its own: a column added to ``games`` would sit after its long texts.
CREATE TABLE IF NOT EXISTS game_sizes (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    row_bytes INTEGER,          -- the games row's texts: its game file, standings and kept
    log_bytes INTEGER           -- every row of its log in ``changes``
);

-- Each finished game's part of its table's statistics, worked out once per version of the
-- game (store/game_figures.py): a new process adds a club's games up from these rows.
CREATE TABLE IF NOT EXISTS game_figures (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    version INTEGER,            -- the game's version they were worked out at
    format INTEGER,             -- what the JSON holds: another format is worked out again
    figures TEXT                -- JSON (reports/statistics.py, GameFigures)
);

-- Games deleted by their link (or with their table), kept until they are purged
-- (backup/purge.py): until then the link's page brings them back.
CREATE TABLE IF NOT EXISTS deleted_games (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    at TEXT,                    -- when (UTC); purged PURGE_AFTER later
    with_table INTEGER          -- 1: deleted with its table, and restored with it
);

-- A club night at a table: several tables of its players play rounds, one game a table
-- each round (nights.py; the seating and points are rules/nights.py's).
CREATE TABLE IF NOT EXISTS nights (
    id TEXT PRIMARY KEY,        -- the organiser's part of its link, under the table's
    table_id TEXT REFERENCES tables (id),
    view_id TEXT,               -- the read-only link (/e/<view_id>): 128 random bits
    code TEXT,                  -- the short code read aloud, in the games' codes' space
    name TEXT,
    created TEXT,
    rounds INTEGER,             -- how many rounds the organiser planned
    profile TEXT,               -- the rules of its games: a whole game, ten hands, ...
    mode TEXT,                  -- how later rounds are seated (rules/nights.py Mode)
    scheme TEXT,                -- how the night is counted (rules/nights.py Scheme)
    ended TEXT,                 -- when the organiser ended it early; NULL: it runs its rounds
    minutes INTEGER             -- the round clock, minutes a round; NULL: no clock
);
CREATE INDEX IF NOT EXISTS nights_table_id ON nights (table_id);
CREATE UNIQUE INDEX IF NOT EXISTS nights_view_id ON nights (view_id);
CREATE UNIQUE INDEX IF NOT EXISTS nights_code ON nights (code);
CREATE TABLE IF NOT EXISTS night_players (
    night_id TEXT REFERENCES nights (id),
    name TEXT,
    here INTEGER,               -- 1: seated in the next round; 0: gone home
    keeps_table INTEGER,        -- the table they keep every round (an accessible seat); NULL: any
    PRIMARY KEY (night_id, name)
);
CREATE TABLE IF NOT EXISTS night_rounds (
    night_id TEXT REFERENCES nights (id),
    number INTEGER,
    seed TEXT,                  -- seat_round's seed: the same players and history seat the same
    mode TEXT,
    seating TEXT,               -- JSON: each table's players, seat 1 (the first dealer) first
    started TEXT,               -- when its games were started; NULL: it may be seated again
    tables_asked INTEGER,       -- the tables the organiser asked for; NULL: as rule 11 suggests
    PRIMARY KEY (night_id, number)
);
CREATE TABLE IF NOT EXISTS night_games (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    night_id TEXT REFERENCES nights (id),
    round INTEGER,
    table_number INTEGER
);
CREATE INDEX IF NOT EXISTS night_games_night_id ON night_games (night_id);
-- Every change to a night, never rewritten; a new row wakes the night's live pages.
CREATE TABLE IF NOT EXISTS night_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    night_id TEXT REFERENCES nights (id),
    at TEXT,
    action TEXT,                -- create, seat, start, leave, arrive, swap, move, keep, end, ...
    detail TEXT                 -- JSON: the change's facts
);
CREATE INDEX IF NOT EXISTS night_changes_night_id ON night_changes (night_id);

-- A season: a table's nights added up (store/seasons.py; the arithmetic is rules/seasons.py's).
CREATE TABLE IF NOT EXISTS seasons (
    id TEXT PRIMARY KEY,        -- the organiser's part of its link, under the table's
    table_id TEXT REFERENCES tables (id),
    view_id TEXT,               -- the read-only link (/s/<view_id>): 128 random bits
    name TEXT,
    starts TEXT,                -- its first day, ISO 8601 (2026-03-01)
    ends TEXT,                  -- its last day
    scheme TEXT,                -- how its nights add up (rules/nights.py Scheme)
    best INTEGER,               -- count each player's best N nights; NULL: every night
    created TEXT
);
CREATE INDEX IF NOT EXISTS seasons_table_id ON seasons (table_id);
CREATE UNIQUE INDEX IF NOT EXISTS seasons_view_id ON seasons (view_id);
-- Which season a night belongs to: a night is in one season at most.
CREATE TABLE IF NOT EXISTS season_nights (
    night_id TEXT PRIMARY KEY REFERENCES nights (id),
    season_id TEXT REFERENCES seasons (id)
);
CREATE INDEX IF NOT EXISTS season_nights_season_id ON season_nights (season_id);
-- Every change to a season, never rewritten; a new row wakes the season's live pages.
CREATE TABLE IF NOT EXISTS season_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    season_id TEXT REFERENCES seasons (id),
    at TEXT,
    action TEXT,                -- create, edit, night-in, night-out
    detail TEXT                 -- JSON: the change's facts
);
CREATE INDEX IF NOT EXISTS season_changes_season_id ON season_changes (season_id);
"""

# The columns that hold JSON, by table: reports/file_health.py makes sure each still parses.
JSON_COLUMNS = {"games": ("state", "standings", "kept"), "changes": ("detail",)}


@cache
def text_columns(table: str) -> tuple[str, ...]:
    """The TEXT columns ``SCHEMA`` gives ``table``, in order."""
    with closing(sqlite3.connect(":memory:")) as conn:
        conn.executescript(SCHEMA)
        info = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
    return tuple(name for _cid, name, kind, *_rest in info if kind == "TEXT")


migrations = Migrations("scorekeeper")


class SchemaError(Exception):
    """A file this version of the app cannot bring up to its schema."""


def _columns(db: Database, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})").fetchall()}


def _run(db: Database, script: str) -> None:
    """Each statement of ``script`` (``executescript`` would commit the transaction)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""


@migrations(name="games_and_changes")
def _schema(db: Database) -> None:
    """A new file: the whole schema. (The name is the first migration's since the start.)"""
    _run(db, SCHEMA)


@migrations(name="change_log")
def _change_log(db: Database) -> None:
    """Files from before the change log (one full copy of the game per change) are refused.

    That layout lived for one day before any release; the app that could convert it
    is tagged ``schema-1-converter`` in git (docs/decisions.md).
    """
    if "state" in _columns(db, "changes") and "detail" not in _columns(db, "changes"):
        raise SchemaError(
            "this games file was written by a development version of the app from before "
            "its first release (each change a full copy of the game); open it once with "
            "the app tagged schema-1-converter to convert it"
        )


@migrations(name="links-follows-entries")
def _links_follows_entries(db: Database) -> None:
    """Files made before the schema lived in one place: tables, players' points, new columns."""
    for table, column in (
        ("games", "follows"),
        ("games", "code"),
        ("games", "player_key"),
        ("tables", "view_id"),
    ):
        present = _columns(db, table)
        if present and column not in present:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
    old_entries = "id" not in _columns(db, "hand_entries") and db["hand_entries"].exists()
    if old_entries:  # keyed by hand and seat only: a new sending kept its place
        db.execute("ALTER TABLE hand_entries RENAME TO hand_entries_old")
    _run(db, SCHEMA)  # the tables and indexes older files lack
    if old_entries:
        db.execute(
            "INSERT INTO hand_entries (game_id, hand_number, seat, points, made, went_out, at) "
            "SELECT game_id, hand_number, seat, points, made, went_out, at "
            "FROM hand_entries_old ORDER BY at"
        )
        db.execute("DROP TABLE hand_entries_old")
    db.execute("DROP TABLE IF EXISTS names")  # made by the first schema, never used
    for (game_id,) in db.execute("SELECT id FROM games WHERE code IS NULL").fetchall():
        db.execute("UPDATE games SET code = ? WHERE id = ?", [unused_code(db), game_id])
    for (table_id,) in db.execute("SELECT id FROM tables WHERE view_id IS NULL").fetchall():
        db.execute("UPDATE tables SET view_id = ? WHERE id = ?", [new_key(), table_id])


@migrations(name="roster-player-ids")
def _roster_player_ids(db: Database) -> None:
    """Each roster player gets an id of their own (BG Stats' ``sourcePlayerId``,
    reports/bgstats.py)."""
    if "player_id" not in _columns(db, "table_players"):
        db.execute("ALTER TABLE table_players ADD COLUMN player_id TEXT")
    rows = db.execute("SELECT rowid FROM table_players WHERE player_id IS NULL").fetchall()
    for (rowid,) in rows:
        db.execute("UPDATE table_players SET player_id = ? WHERE rowid = ?", [new_key(), rowid])


SHARD = ""  # this process's shard (store/shards.py), set by create_app: every id it makes names it


def new_key() -> str:
    """22 url-safe characters: 128 bits of randomness; after this process's shard's name,
    if it has one."""
    return shards.new_id(SHARD, secrets.token_urlsafe(16))


def unused_code(db: Database) -> str:
    """A short code (codes.py) no game has yet: asked inside the writer's transaction, so
    no other writer can take it before the row is written. With 80 bits a second try is
    all but never needed; the unique index ``games_code`` would refuse one anyway."""
    while True:
        code = codes.new_code(SHARD)
        if db.execute("SELECT 1 FROM games WHERE code = ?", [code]).fetchone() is None:
            return code


@migrations(name="codes-of-16")
def _codes_of_16(db: Database) -> None:
    """Files whose games got 12-character codes (60 bits, from the first store/schema.py), which
    no page, sheet or answer ever showed: each such game gets a code of today's length."""
    short = db.execute(
        "SELECT id FROM games WHERE code IS NULL OR length(code) != ?", [codes.LENGTH]
    ).fetchall()
    for (game_id,) in short:
        db.execute("UPDATE games SET code = ? WHERE id = ?", [unused_code(db), game_id])


@migrations(name="sizes-and-deletions")
def _sizes_and_deletions(db: Database) -> None:
    """What each game takes (the storage budget), deleted games and tables (backup/purge.py)."""
    if "deleted" not in _columns(db, "tables"):
        db.execute("ALTER TABLE tables ADD COLUMN deleted TEXT")
    _run(db, SCHEMA)  # game_sizes and deleted_games
    db.execute(
        "INSERT OR IGNORE INTO game_sizes (game_id, row_bytes, log_bytes) "
        f"SELECT g.id, {ROW_BYTES}, "
        f"(SELECT coalesce(sum({LOG_BYTES}), 0) FROM changes c WHERE c.game_id = g.id) "
        "FROM games g"
    )


@migrations(name="table-screens")
def _table_screens(db: Database) -> None:
    """A table's screen gets an address of its own, renewed with the table's link; until
    then ``view_id`` was both that address and the table's name in its games' histories.
    Every screen already open keeps its address."""
    if "screen" not in _columns(db, "tables"):
        db.execute("ALTER TABLE tables ADD COLUMN screen TEXT")
    db.execute("UPDATE tables SET screen = view_id WHERE screen IS NULL")
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS tables_screen ON tables (screen)")


@migrations(name="club-nights")
def _club_nights(db: Database) -> None:
    """Club nights (issue 31): five new tables, nothing else changes."""
    _run(db, SCHEMA)


@migrations(name="sizes-in-the-file")
def _sizes_in_the_file(db: Database) -> None:
    """``game_sizes`` counted the texts of each game's rows: a third to two thirds of what
    they take in the file (issue 38). New writes are measured in the file; each game an
    older file holds is estimated once as SQLite lays its rows out (``budget.py``)."""
    logs: dict[str, int] = {}
    for game_id, payload in db.execute(f"SELECT c.game_id, {LOG_BYTES} FROM changes c"):
        logs[game_id] = logs.get(game_id, 0) + budget.stored_bytes(payload + budget.LOG_EXTRA)
    rows = db.execute(f"SELECT g.id, {ROW_BYTES} FROM games g").fetchall()
    for game_id, payload in rows:
        row = budget.stored_bytes(payload + budget.ROW_EXTRA) + budget.GAME_EXTRA
        db.execute(
            "UPDATE game_sizes SET row_bytes = ?, log_bytes = ? WHERE game_id = ?",
            [row, logs.get(game_id, 0), game_id],
        )


@migrations(name="night-room-control")
def _night_room_control(db: Database) -> None:
    """A night ended early, its round clock, and who keeps a table (issue 40)."""
    for table, column, kind in (
        ("nights", "ended", "TEXT"),
        ("nights", "minutes", "INTEGER"),
        ("night_players", "keeps_table", "INTEGER"),
    ):
        if column not in _columns(db, table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


@migrations(name="seasons")
def _seasons(db: Database) -> None:
    """Seasons of club nights (issue 40): three new tables, nothing else changes."""
    _run(db, SCHEMA)


@migrations(name="time-zones")
def _time_zones(db: Database) -> None:
    """One clock per table, and per game in no table (issue 41). Those stored before have
    none said (NULL): they stay on the server's clock until their page sets one."""
    for table in ("games", "tables"):
        if "time_zone" not in _columns(db, table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN time_zone TEXT")


@migrations(name="game-figures")
def _game_figures(db: Database) -> None:
    """Each finished game's statistics kept in the file (issue 38): a new table only. Its
    rows are worked out as a table's statistics are first viewed."""
    _run(db, SCHEMA)


def _bytes(column: str) -> str:
    return f"coalesce(length(CAST({column} AS BLOB)), 0)"


# What a game's row and a row of its log take, as SQL (store/ counts the same in Python)
ROW_BYTES = " + ".join(_bytes(f"g.{c}") for c in ("state", "standings", "kept"))
LOG_BYTES = " + ".join(_bytes(f"c.{c}") for c in ("summary", "detail"))

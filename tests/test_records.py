"""Each stored record is declared once: a dataclass whose fields name its table's columns,
read and written by name (store/records.py), and a table's backup uses the same
declarations (docs/storage.md, "Records, each declared once")."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from contextlib import closing

import pytest
from games import finished_game

from scorekeeper import store
from scorekeeper.backup import table_archive
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.nights import Mode, Scheme, TableSeating
from scorekeeper.store import budget, records, schema
from scorekeeper.store.game_figures import KeptFigures
from scorekeeper.store.games import StoredGame
from scorekeeper.store.history import Change
from scorekeeper.store.nights import Attendee, Night, NightGame, NightPlan, Round
from scorekeeper.store.sent_points import Entry
from scorekeeper.store.tables import RosterPlayer, Table

TABLES = {
    Night: "nights",
    Round: "night_rounds",
    NightGame: "night_games",
    Attendee: "night_players",
    StoredGame: "games",
    Change: "changes",
    Table: "tables",
    RosterPlayer: "table_players",
    Entry: "hand_entries",
    budget.GameSize: "game_sizes",
    KeptFigures: "game_figures",
}


def schema_columns(table: str) -> set[str]:
    with closing(sqlite3.connect(":memory:")) as conn:
        conn.executescript(schema.SCHEMA)
        return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


@pytest.mark.parametrize(
    ("record", "table"), TABLES.items(), ids=lambda x: getattr(x, "__name__", x)
)
def test_every_field_of_a_record_names_a_column_of_its_table(record, table):
    assert {field.column for field in records.fields(record)} <= schema_columns(table)


NIGHT = Night(
    name="Thursday",
    created="2026-11-26T19:00:00+00:00",
    rounds=3,
    profile="ten-hands",
    mode=Mode.NEW_OPPONENTS,
    scheme=Scheme.PLACEMENT,
    id="n",
    table_id="t",
    view_id="v",
    code="C",
)


def test_a_row_is_read_by_its_columns_names_whatever_their_order():
    row = dict(reversed(records.row(NIGHT).items())) | {"rowid": 7}  # more than it needs
    assert records.row(NIGHT)["mode"] == "new_opponents"  # an Enum keeps its value
    assert records.read(Night, row) == NIGHT


def test_a_renamed_or_json_column_is_declared_with_its_field():
    seated = Round(2, "seed", Mode.RANDOM, (TableSeating(1, ("Ann", "Zoë")),), None, 3)
    row = records.row(seated)
    assert row == {
        "number": 2,
        "seed": "seed",
        "mode": "random",
        "seating": '[["Ann", "Zoë"]]',
        "started": None,
        "tables_asked": 3,
    }
    assert records.read(Round, row) == seated
    assert records.row(Attendee("Ann", False)) == {"name": "Ann", "here": 0, "keeps_table": None}
    assert records.row(Attendee("Ann", True, 2)) == {"name": "Ann", "here": 1, "keeps_table": 2}
    assert records.read(Attendee, {"name": "Ann", "here": 0}) == Attendee("Ann", False)


def test_a_column_an_older_row_lacks_takes_the_fields_default():
    row = records.row(seated := Round(1, "s", Mode.RANDOM, (), None, 4))
    del row["tables_asked"]
    assert records.read(Round, row) == Round(1, "s", Mode.RANDOM, (), None)
    assert seated.asked == 4


@pytest.fixture
def db(tmp_path):
    yield store.connection.connect(tmp_path / "games.sqlite3")
    store.connection.close_all()


def test_records_are_written_and_read_back_by_name(db):
    table = Table("t", "The Smiths", "2026-11-26T19:00:00+00:00", "view", "screen")
    records.insert(db, "tables", records.row(table))
    found = records.one(db, Table, f"SELECT {records.columns(Table)} FROM tables", [])
    assert found == table
    assert records.many(db, Table, "SELECT * FROM tables WHERE id = ?", ["none"]) == []


def test_a_backup_keeps_each_field_of_a_nights_plan_under_its_own_name():
    """A field added to NightPlan is kept in table.json and read back, with no change to
    backup/table_archive.py (docs/storage.md, "Adding a column")."""
    data = finished_game(1)
    game = table_archive.ArchivedGame(load_game(data), NIGHT.created, NIGHT.created)
    seated = table_archive.ArchivedRound(
        1, "seed", Mode.RANDOM, (TableSeating(1, tuple(data["players"])),), None, games=(0,)
    )
    night = table_archive.ArchivedNight(
        **records.values(NIGHT, NightPlan),
        players=tuple(Attendee(name, True) for name in data["players"]),
        played=(seated,),
    )
    backup = table_archive.build(table_archive.TableArchive("Club", [], {}, [game], [night]))
    with zipfile.ZipFile(io.BytesIO(backup)) as zf:
        kept = json.loads(zf.read("table.json"))["nights"][0]
    assert set(kept) == {field.name for field in records.fields(NightPlan)} | {
        "players",
        "played",
    }
    assert table_archive.read(backup).nights == [night]

"""A table backup is read within fixed bounds: hostile zips get a clear ArchiveError."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile

import hostile_backups as hostile
import pytest
from games import finished_game
from webutil import csrf

from scorekeeper.backup import table_archive
from scorekeeper.backup.table_archive import (
    ArchivedGame,
    ArchivedNight,
    ArchivedRound,
    ArchiveError,
    TableArchive,
)
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.nights import Mode, Scheme, TableSeating
from scorekeeper.store.nights import Attendee


def test_a_backup_reads_back_what_was_written():
    game = load_game(hostile.GAME)
    archive = TableArchive(
        "The Smiths",
        [("Ann", False), ("Bob", True)],
        {"Bobby": "Bob"},
        [ArchivedGame(game, "", "")],
    )
    read = table_archive.read(table_archive.build(archive))
    assert (read.name, read.players, read.aliases) == (
        archive.name,
        archive.players,
        archive.aliases,
    )
    assert [entry.game.players for entry in read.games] == [("Ann", "Bob")]


def test_the_handmade_backup_is_a_good_one():
    """The hostile backups below start from this one: on its own it imports."""
    assert table_archive.read(hostile.backup(hostile.index())).name == "The Smiths"


@pytest.mark.parametrize(
    ("build", "says"),
    [
        (hostile.deep, "damaged: part of it cannot be read"),
        (hostile.huge_number, "damaged: part of it cannot be read"),
        (lambda: hostile.surrogate("table"), "damaged: .*U\\+D800 is half of a character"),
        (lambda: hostile.surrogate("roster"), "damaged: .*U\\+D800 is half of a character"),
        (lambda: hostile.surrogate("alias"), "damaged: .*U\\+D800 is half of a character"),
        (hostile.unclosed_quotes, "damaged: part of it cannot be read \\(this is not JSON"),
        (hostile.big_roster, "more than 300 players"),
        (hostile.many_references, "Games 1 and 2 in this backup are the same file"),
        (hostile.many_big_games, "unpacks to more than this app accepts"),
        (lambda: hostile.lying_size(100), "damaged: part of it cannot be read"),
        (lambda: hostile.lying_size(2**32 - 1), "unpacks to more than this app accepts"),
    ],
    ids=list(hostile.HOSTILE),
)
def test_a_hostile_backup_gets_a_clear_message(build, says):
    with pytest.raises(ArchiveError, match=says):
        table_archive.read(build())


def test_a_file_past_its_own_limit_is_named_with_that_limit():
    """A table.json of 1 MB and a byte was refused as unpacking to more than 20 MB."""
    with pytest.raises(ArchiveError, match=r"One file in this backup .* \(1 MB\)"):
        table_archive.read(hostile.unclosed_quotes(1024 * 1024 + 1))
    game = b'{"players": ["Ann", "Bob"], "hands": [], "pad": "' + b"x" * 1024 * 1024 + b'"}'
    files = {"games/001.json": game}
    with pytest.raises(ArchiveError, match=r"One file in this backup .* \(1 MB\)"):
        table_archive.read(hostile.backup(hostile.index(), files))


def test_a_surrogate_is_named_by_its_code_not_echoed():
    with pytest.raises(ArchiveError) as caught:
        table_archive.read(hostile.surrogate("roster"))
    assert "U+D800" in str(caught.value)
    str(caught.value).encode("utf-8")  # printable on any page or terminal


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"name": "Ann\u202egnp.exe"}, "invisible or control characters"),
        ({"name": "x" * 61}, "at most 60 characters"),
        ({"players": [{"name": "Z\u200bed"}]}, "invisible or control characters"),
        ({"players": [{"name": "\u3164"}]}, "draw nothing"),
        ({"players": [{"name": "x" * 10_000}]}, "at most 40 characters"),
        ({"players": [{"name": 7}]}, "a name must be text"),
        ({"aliases": {"An\x00n": "Ann"}}, "invisible or control characters"),
        ({"aliases": {f"Old {n}": "Ann" for n in range(1001)}}, "more than 1000 merged names"),
        ({"games": [{"file": "games/999.json"}]}, "incomplete"),
    ],
)
def test_every_name_and_list_in_a_backup_meets_the_rules(changes, says):
    with pytest.raises(ArchiveError, match=says):
        table_archive.read(hostile.backup(hostile.index(**changes)))


def test_names_in_a_backup_are_kept_cleaned():
    table = hostile.index(
        name="  The   Smiths ", players=[{"name": "Zoe\u0308"}], aliases={" Bobby ": "Bob"}
    )
    read = table_archive.read(hostile.backup(table))
    assert (read.name, read.players, read.aliases) == (
        "The Smiths",
        [("Zoë", False)],
        {"Bobby": "Bob"},
    )


def test_a_game_with_more_hands_than_any_game_can_have_is_refused_unread():
    game = {**hostile.GAME, "hands": hostile.GAME["hands"] * 501}
    data = hostile.backup(hostile.index(), {"games/001.json": json.dumps(game).encode()})
    with pytest.raises(ArchiveError, match="Game 1 in this backup has more than 500 hands"):
        table_archive.read(data)


def test_a_game_whose_player_breaks_the_name_rule_is_refused():
    game = {**hostile.GAME, "players": ["Ann\u3164", "Bob"], "dealer": "Bob", "hands": []}
    data = hostile.backup(hostile.index(), {"games/001.json": json.dumps(game).encode()})
    with pytest.raises(ArchiveError, match="Game 1 in this backup: Ann<U\\+3164>: .*draw nothing"):
        table_archive.read(data)


def test_a_file_that_is_not_a_zip_is_refused():
    with pytest.raises(ArchiveError, match="not a zip file"):
        table_archive.read(b"PK\x03\x04 not really")


@pytest.mark.parametrize("name", list(hostile.HOSTILE))
def test_a_hostile_backup_imported_through_the_page_writes_nothing(app, client, name):
    response = client.post(
        "/tables/import",
        data={"csrf_token": csrf(client), "file": (io.BytesIO(hostile.HOSTILE[name]()), "t.zip")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "backup" in response.get_data(as_text=True).split("<main", 1)[1]
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT count(*) FROM tables").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)


@pytest.mark.parametrize(
    "damage",
    [
        {"games": [99]},  # no such game
        {"games": [1, 1]},  # one game twice
        {"round": 2},  # rounds out of order
        {"tables": [["Ann"]]},  # a table of one
        {"mode": "chaos"},
    ],
)
def test_a_damaged_night_in_a_backup_is_refused_with_its_number(damage):
    data = finished_game(1)
    game = ArchivedGame(load_game(data), "2026-11-23T19:00:00+00:00", "2026-11-23T20:00:00+00:00")
    table = TableSeating(1, tuple(data["players"]))
    seated = ArchivedRound(1, "seed", Mode.RANDOM, (table,), None, games=(0,))
    night = ArchivedNight(
        name="Club night",
        created=game.created,
        rounds=2,
        profile="official",
        mode=Mode.RANDOM,
        scheme=Scheme.PLACEMENT,
        players=tuple(Attendee(name, True) for name in data["players"]),
        played=(seated,),
    )
    good = table_archive.build(TableArchive("The Smiths", [], {}, [game], [night]))
    assert table_archive.read(good).nights == [night]
    with zipfile.ZipFile(io.BytesIO(good)) as zf:
        index = json.loads(zf.read("table.json"))
        files = {name: zf.read(name) for name in zf.namelist()}
    index["nights"][0]["played"][0].update(damage)
    files["table.json"] = json.dumps(index).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, content in files.items():
            zf.writestr(name, content)
    with pytest.raises(ArchiveError, match="Night 1 in this backup is damaged"):
        table_archive.read(out.getvalue())

"""Damage found before it bites: start-up and `scorekeeper check-db` on real, damaged files."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from tools import missing

from scorekeeper import cli, create_app, store
from scorekeeper.reports import current_game, file_health

# --- files to examine -------------------------------------------------------------------


def games_file(path: Path, *players: tuple[str, str]) -> dict[str, str]:
    """A games file holding one game per pair of players, every byte in the main file;
    {first player: game id}."""
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "x"})
    client = app.test_client()
    ids = {}
    for pair in players:
        answer = client.post("/api/games", json={"players": list(pair)}).get_json()
        ids[pair[0]] = answer["id"]
    store.connection.close_all()
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    current_game._recent.clear()  # nothing read before the damage is remembered
    return ids


def flip(path: Path, find: bytes, put: bytes) -> None:
    """Overwrite the first ``find`` in the file's bytes (same length), as a bad sector might."""
    assert len(find) == len(put)
    data = path.read_bytes()
    at = data.index(find)
    path.write_bytes(data[:at] + put + data[at + len(find) :])


def index_out_of_step(path: Path) -> None:
    """An index entry that no longer matches its row: pages whole, index wrong."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.execute("CREATE INDEX t_x ON t (x)")
        conn.executemany("INSERT INTO t VALUES (?)", [(f"key-{n:04d}00",) for n in range(50)])
        conn.commit()
    flip(path, b"key-002000", b"key-002001")  # the row's copy comes first: the table's


def test_a_broken_index_passes_the_quick_check_and_is_found_by_the_full_one(tmp_path):
    path = tmp_path / "games.sqlite3"
    index_out_of_step(path)
    assert file_health.examine(path, full=False) == []
    found = file_health.examine(path)  # a small file: the full check at start-up
    assert [f.kind for f in found] == ["damaged"] and "t_x" in found[0].detail


def test_start_up_runs_the_full_check_only_on_a_file_small_enough(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    index_out_of_step(path)
    monkeypatch.setattr(file_health, "FULL_CHECK_BYTES", path.stat().st_size - 1)
    assert file_health.examine(path) == []  # quick_check only: see docs/scaling.md


def serve(path: Path) -> subprocess.CompletedProcess:
    """`scorekeeper serve` on ``path``, in its own process: a file it should refuse and
    does not would start a server, which the timeout then stops."""
    argv = ["serve", "--db", str(path), "--port", "0", "--no-qr"]
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", *argv], capture_output=True, text=True, timeout=60
    )


@pytest.mark.server
def test_serve_refuses_a_file_with_a_broken_index(tmp_path):
    path = tmp_path / "games.sqlite3"
    index_out_of_step(path)
    before = path.read_bytes()
    served = serve(path)
    assert served.returncode == 2 and "is damaged" in served.stderr
    assert path.read_bytes() == before


# --- a zero-length file -----------------------------------------------------------------


@pytest.mark.server
def test_a_zero_length_file_is_refused_with_its_own_message_not_started_afresh(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"")
    served = serve(path)
    assert served.returncode == 2
    assert "is empty (0 bytes): it holds no games" in served.stderr and "delete it" in served.stderr
    assert path.read_bytes() == b""  # not made into an empty database
    assert cli.main(["check-db", "--db", str(path)]) == 1


def test_a_missing_file_is_a_new_one(tmp_path, capsys):
    assert file_health.examine(tmp_path / "new.sqlite3") == []
    assert cli.main(["check-db", "--db", str(tmp_path / "new.sqlite3")]) == 2
    assert "there is no games file" in capsys.readouterr().err


# --- a game whose stored text cannot be read --------------------------------------------

FLIPS = {
    "JSON that does not parse": (b'"Zebulon"', b'"Zebulon!'),
    "text that is not UTF-8": (b"Zebulon", b"Zebul\xffn"),
}


@pytest.mark.parametrize(
    ("find", "put", "at_start_up"),
    [(*FLIPS["JSON that does not parse"], True), (*FLIPS["text that is not UTF-8"], False)],
    ids=FLIPS.keys(),
)
def test_a_flipped_byte_in_one_game_is_found_naming_the_game(
    tmp_path, capsys, find, put, at_start_up
):
    """Start-up asks SQLite whether each game's JSON parses; check-db also reads every text."""
    path = tmp_path / "games.sqlite3"
    ids = games_file(path, ("Ann", "Bob"), ("Zebulon", "Cy"))
    flip(path, find, put)
    assert file_health.examine(path, full=False) == []  # SQLite's own checks see nothing
    found = [(f.kind, f.game) for f in file_health.examine(path)]  # start-up, on a small file
    assert found == ([("unreadable", ids["Zebulon"])] if at_start_up else [])
    assert cli.main(["check-db", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"game {ids['Zebulon']} in {path} cannot be read" in err and ids["Ann"] not in err


def test_start_up_names_an_unreadable_game_and_serves_the_others(tmp_path, capsys, monkeypatch):
    path = tmp_path / "games.sqlite3"
    ids = games_file(path, ("Ann", "Bob"), ("Zebulon", "Cy"))
    flip(path, *FLIPS["JSON that does not parse"])
    cli.check_database(path)  # no refusal: one game's page says what happened
    assert f"game {ids['Zebulon']}" in capsys.readouterr().err


def test_json_that_parses_but_is_no_game_is_found_by_check_db(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    ids = games_file(path, ("Ann", "Bob"), ("Zebulon", "Cy"))
    flip(path, b'"dealer":"Zebulon"', b'"dealer":"Zebulom"')
    assert file_health.examine(path) == []  # every text reads: only loading it shows the damage
    assert cli.main(["check-db", "--db", str(path), "--json"]) == 1
    found = capsys.readouterr().out
    assert f'"game": "{ids["Zebulon"]}"' in found and "dealer" in found


def test_a_whole_file_passes_check_db(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    games_file(path, ("Ann", "Bob"), ("Zebulon", "Cy"))
    before = path.read_bytes()
    assert cli.main(["check-db", "--db", str(path)]) == 0
    assert "is whole" in capsys.readouterr().out
    assert path.read_bytes() == before  # a check never writes


@pytest.mark.parametrize(("find", "put"), FLIPS.values(), ids=FLIPS.keys())
def test_reading_an_unreadable_game_raises_one_error_naming_it(tmp_path, find, put):
    path = tmp_path / "games.sqlite3"
    ids = games_file(path, ("Ann", "Bob"), ("Zebulon", "Cy"))
    flip(path, find, put)
    db = store.connection.connect(path)
    with pytest.raises(store.games.UnreadableGame) as caught:
        current_game.load(db, ids["Zebulon"])
    assert caught.value.game_id == ids["Zebulon"]
    assert current_game.load(db, ids["Ann"]).game.players == ("Ann", "Bob")


def test_an_unreadable_game_gets_a_page_naming_it_not_a_500(tmp_path):
    path = tmp_path / "games.sqlite3"
    ids = games_file(path, ("Ann", "Bob"), ("Zebulon", "Cy"))
    flip(path, *FLIPS["JSON that does not parse"])
    client = create_app({"DATABASE": str(path), "SECRET_KEY": "x"}).test_client()
    page = client.get(f"/v/{ids['Zebulon']}")
    assert page.status_code == 503
    assert f"Game {ids['Zebulon']} cannot be read" in page.get_data(as_text=True)
    api = client.get(f"/api/games/{ids['Zebulon']}")
    assert (api.status_code, api.get_json()["game"]) == (503, ids["Zebulon"])
    assert client.get(f"/v/{ids['Ann']}").status_code == 200


# --- read-only storage ------------------------------------------------------------------


def run_on_read_only_storage(folder: Path, *argv: str) -> subprocess.CompletedProcess:
    """``scorekeeper argv`` with ``folder`` mounted read-only, in a mount namespace of its own
    (root, or an unprivileged user namespace); skipped where Linux does not allow that."""
    unshare = shutil.which("unshare")
    if unshare is None:
        missing("util-linux's unshare is not installed: it mounts a folder read-only")
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    command = [sys.executable, "-m", "scorekeeper.cli", *argv]
    for flags in (["-m"], ["-r", "-m"]):
        done = subprocess.run(
            [unshare, *flags, "sh", "-c", script, "sh", str(folder), *command],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if "mount" not in done.stderr and "unshare" not in done.stderr:
            return done
    pytest.skip(f"cannot mount a folder read-only here: {done.stderr.strip()}")


@pytest.mark.server
def test_a_whole_wal_file_on_read_only_storage_is_called_read_only_not_damaged(tmp_path):
    folder = tmp_path / "storage"
    folder.mkdir()
    path = folder / "games.sqlite3"
    games_file(path, ("Ann", "Bob"))
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    served = run_on_read_only_storage(folder, "serve", "--db", str(path), "--no-qr")
    assert served.returncode == 2
    assert "cannot write to (read-only" in served.stderr and "damaged" not in served.stderr
    assert "Nothing is wrong with the file itself" in served.stderr
    checked = run_on_read_only_storage(folder, "check-db", "--db", str(path))
    assert checked.returncode == 0, checked.stderr
    assert "is whole" in checked.stdout

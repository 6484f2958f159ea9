"""Tables, this device's memory and rematch, through Flask's test client."""

from __future__ import annotations

import csv
import io
import json
import os
import zipfile

import pytest
from games import fill_table
from webpage import read
from webutil import csrf, export, new_game, new_table, plain_names, record, table_game

from scorekeeper import store
from scorekeeper.backup import table_archive
from scorekeeper.reports import statistics
from scorekeeper.store import tables


def finish(client, url, winner=0, others=(1, 2)):
    """Ten hands in which seat `winner` goes out each time and the others make nothing."""
    for hand in range(1, 11):
        response = record(client, url, hand, went_out=winner, points=dict.fromkeys(others, 60))
        assert response.status_code == 303, response.get_data(as_text=True)


def test_a_table_link_is_unguessable_and_a_wrong_one_is_a_friendly_404(client):
    url = new_table(client)
    table_id = url.rsplit("/", 1)[1]
    assert len(table_id) >= 22
    page = client.get(url).get_data(as_text=True)
    assert "The Smiths" in page and "<svg" in page  # the QR code
    missing = client.get("/t/not-a-table")
    assert missing.status_code == 404
    assert "no table at this link" in missing.get_data(as_text=True)


def test_a_table_needs_a_name(client):
    response = client.post("/tables/new", data={"csrf_token": csrf(client), "name": "  "})
    assert response.status_code == 422
    assert "Give the table a name" in response.get_data(as_text=True)


def test_games_from_a_table_list_in_progress_first_then_finished_with_winner(client):
    url = new_table(client)
    done = table_game(client, url)
    finish(client, done)
    playing = table_game(client, url, players=("Ann", "Bob"))
    record(client, playing, 1, went_out=1, points={0: 30})
    page = client.get(url).get_data(as_text=True)
    assert plain_names(page).index("Playing now") < plain_names(page).index("Ann, Bob</strong>")
    assert plain_names(page).index("Ann, Bob</strong>") < plain_names(page).index("Finished games")
    assert "winner: Ann" in plain_names(page) and "10 hands" in page
    assert "hand 2" in page
    assert playing.split("//")[-1].split("/", 1)[1] in page  # the scorekeeper link


def test_the_table_page_prints_each_games_sheet_as_its_record(client):
    url = new_table(client)
    done = table_game(client, url)
    finish(client, done)
    game_id = done.split("/g/", 1)[1].split("/")[0]
    page = client.get(url).get_data(as_text=True)
    link = f"/v/{game_id}/print/score-sheet.pdf"
    assert f'href="{link}"' in page
    sheet = client.get(link)
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
    assert sheet.data.startswith(b"%PDF")


def test_the_roster_comes_from_the_games_and_is_ticked_for_a_new_game(client):
    url = new_table(client)
    table_game(client, url, players=("Ann", "Bob", "Cy"))
    page = client.get(url).get_data(as_text=True)
    for name in ("Ann", "Bob", "Cy"):
        assert f'name="player" value="{name}" checked' in page


def roster_change(client, url, **fields):
    return client.post(f"{url}/roster", data={"csrf_token": csrf(client), **fields})


def test_rename_merge_and_retire_players(client, app):
    url = new_table(client)
    table_game(client, url, players=("Ann", "Bobby", "Cy"))
    table_game(client, url, players=("Ann", "Bob"))
    table_id = url.rsplit("/", 1)[1]
    assert roster_change(client, url, action="merge", name="Bobby", into="Bob").status_code == 303
    assert roster_change(client, url, action="rename", name="Cy", new="Cyrus").status_code == 303
    assert roster_change(client, url, action="retire", name="Ann").status_code == 303
    with app.app_context():
        db = store.connection.connect(app.config["DATABASE"])
        assert [(p.name, p.retired) for p in tables.roster(db, table_id)] == [
            ("Ann", True),
            ("Cyrus", False),
            ("Bob", False),
        ]
        assert tables.aliases(db, table_id) == {"Bobby": "Bob", "Cy": "Cyrus"}
    page = client.get(url).get_data(as_text=True)
    assert 'name="player" value="Ann"' not in page  # retired: not ticked for new games


def test_a_roster_change_that_cannot_be_made_says_why(client):
    url = new_table(client)
    table_game(client, url, players=("Ann", "Bob"))
    response = roster_change(client, url, action="rename", name="Ann", new="bob")
    assert response.status_code == 422
    assert "already on the list: merge the two instead" in response.get_data(as_text=True)
    response = roster_change(client, url, action="merge", name="Zed", into="Bob")
    assert response.status_code == 422
    assert response.status_code == 422 and "Zed is not on this" in response.get_data(as_text=True)


def test_an_existing_game_moves_into_a_table_by_its_link(client):
    game = new_game(client, players=("Dee", "Eve"))
    url = new_table(client)
    bad = client.post(f"{url}/games", data={"csrf_token": csrf(client), "link": game[:-3]})
    assert bad.status_code == 422
    assert "not a scorekeeper link" in bad.get_data(as_text=True)
    added = client.post(f"{url}/games", data={"csrf_token": csrf(client), "link": game})
    assert added.status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "Dee, Eve" in plain_names(page) and 'value="Eve" checked' in plain_names(page)


def test_this_devices_game_can_be_picked_to_move_into_a_table(client):
    game = new_game(client, players=("Dee", "Eve"))
    client.get(game)
    url = new_table(client)
    game_id = game.rsplit("/", 2)[1]
    page = client.get(url).get_data(as_text=True)
    assert f'name="game" value="{game_id}"' in page
    client.post(f"{url}/games", data={"csrf_token": csrf(client), "game": game_id})
    assert "Dee, Eve</strong>" in plain_names(client.get(url).get_data(as_text=True))
    other = client.application.test_client()  # another device does not hold the edit key
    response = other.post(f"{url}/games", data={"csrf_token": csrf(other), "game": game_id})
    assert response.status_code == 422


def test_home_shows_this_devices_games_to_continue_and_no_other_devices(app, client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 60, 2: 60})
    client.get(url)
    home = client.get("/").get_data(as_text=True)
    assert "Continue: Ann, Bob, Cy, hand 2" in plain_names(home)
    other = app.test_client()
    assert "Continue:" not in other.get("/").get_data(as_text=True)


def _watching(page: str) -> str:
    """The start page's Watching section ('' when there is none)."""
    if "<h2>Watching</h2>" not in page:
        return ""
    section = page[page.index("<h2>Watching</h2>") :]
    return section[: section.index("</section>")]


HTMX = {"HX-Request": "true"}


def test_a_device_that_opens_a_watch_link_keeps_the_game_without_its_edit_key(app, client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 60, 2: 60})
    game_id, key = url.rsplit("/", 2)[1:]
    watcher = app.test_client()
    page = watcher.get(f"/v/{game_id}")  # a plain page load: it works without JavaScript
    assert "on this device's start page" in page.get_data(as_text=True)
    assert "session=" in page.headers["Set-Cookie"]  # this device's own memory
    home = watcher.get("/").get_data(as_text=True)
    watching = _watching(home)
    assert f'href="/v/{game_id}"' in plain_names(watching) and "Ann, Bob, Cy" in plain_names(
        watching
    )
    assert "hand 2" in watching
    assert key not in home and "Continue:" not in home  # watching gives no edit rights
    assert _watching(app.test_client().get("/").get_data(as_text=True)) == ""  # nor other devices
    poll = app.test_client().get(f"/v/{game_id}", headers=HTMX)
    assert "Set-Cookie" not in poll.headers  # its live part remembers nothing


def test_forgetting_needs_the_devices_token_and_a_real_game(app, client):
    game_id = new_game(client).rsplit("/", 2)[1]
    watcher = app.test_client()
    watcher.get(f"/v/{game_id}")
    assert watcher.post(f"/v/{game_id}/forget", headers=HTMX).status_code == 400
    assert f'href="/v/{game_id}"' in _watching(watcher.get("/").get_data(as_text=True))
    token = csrf(watcher)
    assert watcher.get("/v/nosuchgame").status_code == 404
    assert watcher.post("/v/nosuchgame/forget", data={"csrf_token": token}).status_code == 404


def test_a_watched_game_can_be_forgotten_and_a_scorekeepers_game_is_not(app, client):
    url = new_game(client)
    client.get(url)
    game_id = url.rsplit("/", 2)[1]
    token = csrf(client)
    client.get(f"/v/{game_id}")  # the scorekeeper watches too
    home = client.get("/").get_data(as_text=True)
    assert f'href="{url}"' in home and _watching(home) == ""  # still kept as theirs to score
    client.post(f"/v/{game_id}/forget", data={"csrf_token": token})
    assert f'href="{url}"' in client.get("/").get_data(as_text=True)
    watcher = app.test_client()
    token = csrf(watcher)
    watcher.get(f"/v/{game_id}")
    assert f'action="/v/{game_id}/forget"' in _watching(watcher.get("/").get_data(as_text=True))
    gone = watcher.post(f"/v/{game_id}/forget", data={"csrf_token": token})
    assert gone.status_code == 303 and gone.headers["Location"] == "/"
    assert _watching(watcher.get("/").get_data(as_text=True)) == ""
    assert watcher.get(f"/v/{game_id}").status_code == 200  # the game itself is untouched


def test_name_suggestions_come_only_from_this_devices_tables(app, client):
    table = new_table(client)
    table_game(client, table, players=("Grandma", "Theo"))
    new_game(client, players=("Stranger", "Danger"))
    mine = client.get("/new").get_data(as_text=True)
    assert '<option value="Grandma">' in mine
    assert '<option value="Stranger">' not in mine
    other = app.test_client()
    assert '<option value="Grandma">' not in other.get("/new").get_data(as_text=True)


def test_rematch_keeps_players_rules_and_table_and_passes_the_deal(client):
    url = new_table(client)
    game = table_game(client, url, dealer=2)
    finish(client, game)
    response = client.post(f"{game}/rematch", data={"csrf_token": csrf(client)})
    assert response.status_code == 303
    again = response.headers["Location"]
    assert again != game
    state = export(client, again)
    assert state["players"] == ["Ann", "Bob", "Cy"] and state["hands"] == []
    assert state["dealer"] == "Ann"  # Cy dealt first last time
    page = client.get(url).get_data(as_text=True)
    assert plain_names(page).count("Ann, Bob, Cy</strong>") == 2
    assert page.index("Playing now") < page.index("Finished games")


def test_rematch_needs_the_edit_link(client):
    game = new_game(client)
    game_id = game.rsplit("/", 2)[1]
    response = client.post(f"/g/{game_id}/wrongkey/rematch", data={"csrf_token": csrf(client)})
    assert response.status_code == 404


def test_a_finished_game_offers_a_rematch(client):
    game = new_game(client)
    finish(client, game)
    assert "Rematch" in client.get(game).get_data(as_text=True)


def play_known_history(client) -> str:
    """The history worked out by hand in test_stats.py, played through the table's forms."""
    url = new_table(client)
    one = table_game(client, url, first="2")
    record(client, one, 1, went_out=0, points={1: 20, 2: 60})
    record(client, one, 2, went_out=0, points={1: 10, 2: 55})
    two = table_game(client, url, dealer=1, first="2")
    record(client, two, 1, went_out=2, points={0: 5, 1: 70})
    record(client, two, 2, went_out=2, points={0: 80, 1: 60})
    three = table_game(client, url, players=("Bobby", "Cy"), first="2")
    record(client, three, 1, went_out=1, points={0: 50})
    record(client, three, 2, went_out=1, points={0: 10})
    four = table_game(client, url, players=("Ann", "Cy"), first="2")
    record(client, four, 1, went_out=0, points={1: 70})
    roster_change(client, url, action="merge", name="Bobby", into="Bob")
    return url


def figures(page: str, player: str) -> dict[str, str]:
    card = read(page).section(player)
    return dict(zip(card.texts("dt"), card.texts("dd"), strict=True))


def test_statistics_match_the_history_worked_out_by_hand(client):
    url = play_known_history(client)
    page = client.get(f"{url}/stats").get_data(as_text=True)
    assert "3 finished games, 2.0 hands a game on average" in page
    assert figures(page, "Ann")["Wins"] == "1 (50%)"
    assert figures(page, "Bob") == {
        "Games": "3",
        "Wins": "0 (0%)",
        "Average final score": "73.3",
        "Hands to make every phase, on average": "2.0",
        "Stuck most on": "phase 1 (5 hands)",
        "Best game": figures(page, "Bob")["Best game"],
        "Longest winning streak": "0",
    }
    assert figures(page, "Bob")["Best game"].startswith("30 points on ")
    assert figures(page, "Cy")["Longest winning streak"] == "2"
    assert "<strong>Bob</strong> 1 – 2 <strong>Cy</strong>" in page
    assert "Wins added up over 3 games: Ann 1, Bob 0, Cy 2" in plain_names(page)
    assert '<title id="phases-2-title">Bob: 1: 5; 2: 1</title>' in plain_names(page)
    assert "Final scores, in bands of 50 points from the number shown: 0: 4; 50: 2; 100: 2" in (
        plain_names(page)
    )


def test_statistics_say_plainly_who_never_made_every_phase(client):
    url = new_table(client)
    game = table_game(client, url, players=("Ann", "Bob"), first="2")
    record(client, game, 1, went_out=0, points={1: 70})
    record(client, game, 2, went_out=0, points={1: 60})  # Ann makes both; Bob neither
    page = client.get(f"{url}/stats").get_data(as_text=True)
    assert figures(page, "Ann")["Hands to make every phase, on average"] == "2.0"
    assert figures(page, "Bob")["Hands to make every phase, on average"] == (
        "not yet: no game with every phase made"  # it read "every phase not made yet"
    )


def test_statistics_of_a_table_without_finished_games_say_so(client):
    url = new_table(client)
    page = client.get(f"{url}/stats").get_data(as_text=True)
    assert "start when the first game of this table is finished" in page


def test_a_table_backup_holds_every_game_a_csv_of_all_hands_and_the_roster(client):
    url = play_known_history(client)
    response = client.get(f"{url}/export.zip")
    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.data)) as zf:
        names = zf.namelist()
        assert names == ["table.json", *(f"games/00{i}.json" for i in range(1, 5)), "hands.csv"]
        first = json.loads(zf.read("games/001.json"))
        assert first["players"] == ["Ann", "Bob", "Cy"] and len(first["hands"]) == 2
        rows = list(csv.reader(io.StringIO(zf.read("hands.csv").decode())))
        index = json.loads(zf.read("table.json"))
    assert rows[0] == ["game", "date", "hand", "player", "points", "went out", "made phase"]
    assert rows[1][2:] == ["1", "Ann", "0", "yes", "yes"]
    assert rows[3][2:] == ["1", "Cy", "60", "no", "no"]
    assert len(rows) == 1 + 3 * 2 + 3 * 2 + 2 * 2 + 2 * 1
    assert index["aliases"] == {"Bobby": "Bob"}


def test_importing_a_backup_brings_back_the_table_with_its_statistics(app, client):
    url = play_known_history(client)
    backup = client.get(f"{url}/export.zip").data
    before = client.get(f"{url}/stats").get_data(as_text=True)
    other = app.test_client()  # another machine, as far as the table is concerned
    response = other.post(
        "/tables/import",
        data={"csrf_token": csrf(other), "file": (io.BytesIO(backup), "phase10-table.zip")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    new_url = response.headers["Location"]
    assert new_url != url
    after = other.get(f"{new_url}/stats").get_data(as_text=True)
    assert after.split("<main>")[1] == before.split("<main>")[1].replace(
        url.split("//")[-1].split("/", 1)[1], new_url.split("//")[-1].split("/", 1)[1]
    )
    assert "The Smiths" in other.get("/").get_data(as_text=True)  # remembered on this device


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"not a zip", "not a zip file"),
        (b"", "Choose the backup file first"),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused_clearly(client, body, message):
    response = client.post(
        "/tables/import",
        data={"csrf_token": csrf(client), "file": (io.BytesIO(body), "x.zip" if body else "")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_a_backup_with_a_broken_game_is_refused_and_nothing_is_imported(app, client):
    url = play_known_history(client)
    source = zipfile.ZipFile(io.BytesIO(client.get(f"{url}/export.zip").data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name in source.namelist():
            data = source.read(name)
            if name == "games/002.json":
                game = json.loads(data)
                game["hands"][0]["points"]["Ann"] = 7
                data = json.dumps(game).encode()
            zf.writestr(name, data)
    response = client.post(
        "/tables/import",
        data={"csrf_token": csrf(client), "file": (io.BytesIO(out.getvalue()), "t.zip")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "Game 2 in this backup" in response.get_data(as_text=True)
    with app.app_context():
        assert store.connection.connect(app.config["DATABASE"])["tables"].count == 1


def _with_extra(backup: bytes, name: str, data: bytes) -> bytes:
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(backup)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf,
    ):
        for item in source.namelist():
            zf.writestr(item, source.read(item))
        zf.writestr(name, data)
    return out.getvalue()


def _import(client, data: bytes):
    return client.post(
        "/tables/import",
        data={"csrf_token": csrf(client), "file": (io.BytesIO(data), "t.zip")},
        content_type="multipart/form-data",
    )


def test_a_backup_larger_than_an_ordinary_form_is_accepted(client):
    url = play_known_history(client)
    backup = _with_extra(client.get(f"{url}/export.zip").data, "notes.bin", os.urandom(200_000))
    assert len(backup) > 64 * 1024
    assert _import(client, backup).status_code == 303


def test_a_backup_that_unpacks_to_too_much_is_refused(client):
    url = play_known_history(client)
    bomb = _with_extra(client.get(f"{url}/export.zip").data, "zeros.bin", bytes(21 * 1024 * 1024))
    response = _import(client, bomb)
    assert response.status_code == 422
    assert "more than this app accepts" in response.get_data(as_text=True)


def test_table_and_player_links_are_kept_out_of_logs():
    import logging

    from scorekeeper.web.security import RedactKeys as RedactEditKeys

    record = logging.LogRecord(
        "waitress",
        logging.INFO,
        __file__,
        1,
        "GET %s GET %s",
        ("/t/TableSecret123/stats", "/p/game1234567/PlayerSecret99"),
        None,
    )
    RedactEditKeys().filter(record)
    assert record.getMessage() == "GET /t/…/stats GET /p/game1234567/…"
    record = logging.LogRecord(
        "waitress", logging.INFO, __file__, 1, "GET /new?table=Secret123&player-0=Ann", (), None
    )
    RedactEditKeys().filter(record)
    assert record.getMessage() == "GET /new?table=…&player-0=Ann"


def test_names_in_the_backup_csv_cannot_become_spreadsheet_formulas(client):
    url = new_table(client)
    game = table_game(client, url, players=("=HYPERLINK(1)", "Bob"), first="1")
    record(client, game, 1, went_out=1, points={0: 60})
    with zipfile.ZipFile(io.BytesIO(client.get(f"{url}/export.zip").data)) as zf:
        rows = list(csv.reader(io.StringIO(zf.read("hands.csv").decode())))
    assert rows[1][3] == "'=HYPERLINK(1)"


def test_the_table_page_shows_fifty_games_a_page_with_links_to_the_others(client, app):
    url = new_table(client)
    db = store.connection.connect(app.config["DATABASE"])
    ids = fill_table(db, url.rsplit("/", 1)[1], 120)
    first = client.get(url).get_data(as_text=True)
    assert plain_names(first).count("winner: ") == 50
    assert ids[-1] in first and ids[-50] in first and ids[-51] not in first  # latest first
    assert "Page 1 of 3" in first and 'rel="prev"' not in first
    (older,) = read(first).links("a[rel=next]")
    second = client.get(older).get_data(as_text=True)
    assert ids[-51] in second and ids[-100] in second and ids[-1] not in second
    assert "Page 2 of 3" in second and 'rel="prev"' in second
    last = client.get(f"{url}?page=3").get_data(as_text=True)
    assert plain_names(last).count("winner: ") == 20 and 'rel="next"' not in last
    assert client.get(f"{url}?page=x").status_code == 200  # page 1


@pytest.mark.exhaustive
def test_a_table_of_two_thousand_games_in_progress_gives_a_small_page(client, app, monkeypatch):
    """Issue 32: 2,000 small games in progress made a 0.91 MB table page, read in full."""
    url = new_table(client)
    db = store.connection.connect(app.config["DATABASE"])
    fill_table(db, url.rsplit("/", 1)[1], 2000, hands=1)
    read: list[str] = []
    real = store.games.get_game

    def counted(db, game_id, **options):
        read.append(game_id)
        return real(db, game_id, **options)

    monkeypatch.setattr(store.games, "get_game", counted)
    page = client.get(url).get_data(as_text=True)
    assert plain_names(page).count("hand 2 · started") == 50
    assert len(read) <= 50
    assert len(page.encode()) < 100_000
    assert "Page 1 of 40" in page


def test_a_table_page_grows_with_its_roster_not_with_its_square(client):
    """Issue 24: a "Same person as" list of every other player, for every player, made a
    2,000-name roster's page 142 MB. A backup holds at most 300 players, and their page
    names each player a few times, not 300 times."""
    import hostile_backups as hostile

    most = table_archive.MAX_PLAYERS
    assert most == 300
    response = _import(client, hostile.big_roster(most))
    assert response.status_code == 303, response.get_data(as_text=True)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert len(page.encode()) < 1_000_000
    # ticked for a new game, renamed (old and new), retired, merged from and into
    assert page.count('value="Player 150"') == 6
    assert page.count("<option") == 2 * most  # the one merge form: two lists of names
    refused = _import(client, hostile.big_roster(2000))
    assert refused.status_code == 422
    assert "more than 300 players" in refused.get_data(as_text=True)


@pytest.mark.exhaustive
def test_a_big_tables_statistics_and_backup_are_worked_out_once_per_version(
    client, app, monkeypatch
):
    """Issue 32: a 340-game table's statistics replayed every game on every load (25 s of
    CPU each), and six loads at once each did it again."""
    url = new_table(client)
    db = store.connection.connect(app.config["DATABASE"])
    fill_table(db, url.rsplit("/", 1)[1], 340)
    replayed, read = [], []
    real_steps, real_read = statistics.standings_by_hand, store.games.get_game
    steps = lambda game: replayed.append(1) or real_steps(game)  # noqa: E731
    monkeypatch.setattr(statistics, "standings_by_hand", steps)
    monkeypatch.setattr(
        store.games, "get_game", lambda *a, **k: read.append(1) or real_read(*a, **k)
    )
    first = client.get(f"{url}/stats").get_data(as_text=True)
    assert len(replayed) == 340
    backup = client.get(f"{url}/export.zip").data
    assert len(table_archive.read(backup).games) == 340
    replayed.clear(), read.clear()
    assert client.get(f"{url}/stats").get_data(as_text=True) == first
    assert client.get(f"{url}/export.zip").data == backup
    assert replayed == [] and read == []  # neither replays nor reads a game again
    game = table_game(client, url, players=("Ann", "Bob"), first="1")
    record(client, game, 1, went_out=0, points={1: 60})  # a game ends: both change
    replayed.clear()
    assert "341" in client.get(f"{url}/stats").get_data(as_text=True)
    assert len(replayed) == 1  # the game that ended, not the 340 before it
    assert len(table_archive.read(client.get(f"{url}/export.zip").data).games) == 341
    # A hand saved in a game still in progress adds nothing to the statistics: loading them
    # again replays no game (the attack: Save, statistics, Save, ... kept a core busy).
    playing = table_game(client, url, players=("Ann", "Bob"))
    for number in (1, 2, 3):
        record(client, playing, number, went_out=0, points={1: 60})
        replayed.clear()
        assert "341" in client.get(f"{url}/stats").get_data(as_text=True)
        assert replayed == []
    roster_change(client, url, action="retire", name="Bob")
    assert client.get(f"{url}/export.zip").data != backup  # the roster is in the backup

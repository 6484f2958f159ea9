"""The web layer's own words in German and Spanish: refusals, notes, error pages, forms, dates.

Every page is fetched through the app with the browser's Accept-Language, as a
German or Spanish family's phone sends it; the English pages are checked too, so
nothing changes for English readers.
"""

from __future__ import annotations

import html
import io
import json

import pytest
from flask import render_template_string
from webutil import csrf, field_errors, new_game, player_links, record

from scorekeeper import store
from scorekeeper.reports.statistics import PlayerStats
from scorekeeper.web.access import db
from scorekeeper.web.device import summarise


def speaking(client, language: str):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return client


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def history(client, game: str) -> str:
    return text(client.get(f"{game}/history"))


@pytest.mark.parametrize(
    ("language", "who_went_out", "not_a_number"),
    [
        ("en", "Who went out? Tap their name.", "Bob's points: 'lots' is not a whole number"),
        (
            "de",
            "Wer ist rausgegangen? Tippe auf den Namen.",
            "Punkte von Bob: 'lots' ist keine ganze Zahl",
        ),
        ("es", "¿Quién cerró? Toca su nombre.", "Puntos de Bob: 'lots' no es un número entero"),
    ],
)
def test_a_refused_hand_says_why_in_the_readers_language(
    client, language, who_went_out, not_a_number
):
    game = new_game(speaking(client, language))
    response = record(client, game, 1, "", {1: "lots", 2: 10})
    assert response.status_code == 422
    assert who_went_out in field_errors(response)
    assert not_a_number in field_errors(response)
    assert store.games.get_game(db_of(client), game.split("/")[2]).version == 1  # nothing saved


def db_of(client):
    with client.application.app_context():
        return db()


@pytest.mark.parametrize(
    ("language", "reason", "rule"),
    [
        ("en", "Bob: 7 is not a multiple of 5", "Rule 8: card points"),
        ("de", "Bob: 7 ist nicht durch 5 teilbar", "Regel 8: Kartenpunkte"),
        ("es", "Bob: 7 no es múltiplo de 5", "Regla 8: puntos de las cartas"),
    ],
)
def test_a_hand_the_rules_refuse_gives_the_reason_and_links_the_rule_in_the_readers_language(
    client, language, reason, rule
):
    game = new_game(speaking(client, language))
    response = record(client, game, 1, 0, {1: 7, 2: 60})
    page = text(response)
    assert response.status_code == 422
    assert any(error.startswith(reason) for error in field_errors(response))
    assert f'<a class="rule-link" href="/rules#card-points">{rule}\xa0›</a>' in page


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Bob's cards add up to 15 points, not 20: change the points or the card counts"),
        ("de", "Die Karten von Bob ergeben 15 Punkte, nicht 20: ändere die Punkte oder die"),
        ("es", "Las cartas de Bob suman 15 puntos, no 20: cambia los puntos o la cantidad"),
    ],
)
def test_cards_that_do_not_add_up_to_the_points_are_refused_in_words_of_the_table(
    client, language, message
):
    game = new_game(speaking(client, language))
    response = record(client, game, 1, 0, {1: 20, 2: 5}, low_1="1", high_1="1")
    assert response.status_code == 422
    assert any(error.startswith(message) for error in field_errors(response))


def test_the_api_refuses_a_hand_in_the_language_asked_for_and_in_english_by_default(client):
    game = new_game(client)
    game_id, key = game.split("/")[2:4]
    body = {"hand_number": 1, "hand": {"went_out": "Ann", "points": {"Bob": 7, "Cy": 5}}}
    url = f"/api/games/{game_id}/{key}/hands"
    english = client.post(url, json=body, headers={"Accept-Language": ""})
    german = client.post(url, json=body, headers={"Accept-Language": "de"})
    assert english.status_code == german.status_code == 422
    assert english.get_json()["error"].startswith("Hand 1 cannot be recorded: ")
    assert german.get_json()["error"].startswith("Runde 1 kann nicht eingetragen werden: ")
    fields = [[p["field"] for p in r.get_json()["problems"]] for r in (english, german)]
    assert fields[0] == fields[1] != []  # the keys and codes stay as they are


@pytest.mark.parametrize(
    ("language", "flash"),
    [
        ("en", "Hand 1 was already entered on another phone: it is recorded once."),
        ("de", "Runde 1 wurde schon auf einem anderen Handy eingetragen: sie zählt nur einmal."),
        ("es", "La ronda 1 ya se anotó en otro teléfono: cuenta una sola vez."),
    ],
)
def test_the_note_after_a_hand_sent_twice_is_in_the_readers_language(client, language, flash):
    game = new_game(speaking(client, language))
    assert record(client, game, 1, 0, {1: 15, 2: 60}).status_code == 303
    again = record(client, game, 1, 0, {1: 15, 2: 60})
    assert again.status_code == 303
    assert flash in text(client.get(game))


@pytest.mark.parametrize(
    ("language", "undone"),
    [
        ("en", "Undone: Hand 1: Ann went out; made: Ann, Bob"),
        ("de", "Rückgängig gemacht: Runde 1: Ann ist rausgegangen; Phase geschafft: Ann, Bob"),
        ("es", "Deshecho: Ronda 1: cerró Ann; fase completada: Ann, Bob"),
    ],
)
def test_undo_says_what_it_took_back_in_the_readers_language(client, language, undone):
    game = new_game(speaking(client, language))
    record(client, game, 1, 0, {1: 15, 2: 60})
    response = client.post(f"{game}/undo", data={"csrf_token": csrf(client)})
    assert response.status_code == 303
    assert undone in text(client.get(game))


def test_the_history_is_stored_as_facts_and_read_in_each_readers_language(client):
    game = new_game(speaking(client, "en"))
    record(client, game, 1, 0, {1: 15, 2: 60})
    edit = {"csrf_token": csrf(client), "went_out": "0", "points-1": "65", "points-2": "60"}
    assert client.post(f"{game}/hands/1", data=edit).status_code == 303
    client.post(f"{game}/hands/1/delete", data={"csrf_token": csrf(client)})

    english = history(client, game)
    assert "Hand 1: Ann went out; made: Ann, Bob" in english
    assert "Hand 1 corrected: Bob 15 ✓ → 65" in english
    assert "Hand 1 deleted (Ann had gone out)" in english
    assert "Game created" in english

    german = history(speaking(client, "de"), game)
    assert "Runde 1: Ann ist rausgegangen; Phase geschafft: Ann, Bob" in german
    assert "Runde 1 korrigiert: Bob 15 ✓ → 65" in german
    assert "Runde 1 gelöscht (Ann war rausgegangen)" in german
    assert "Partie gestartet" in german
    assert "went out" not in german

    spanish = history(speaking(client, "es"), game)
    assert "Ronda 1: cerró Ann; fase completada: Ann, Bob" in spanish
    assert "Ronda 1 borrada (había cerrado Ann)" in spanish

    stored = db_of(client).execute("SELECT summary FROM changes").fetchall()
    assert all(json.loads(row[0])["note"] for row in stored)  # facts, no English prose


def test_a_history_line_saved_before_notes_is_shown_as_it_was_stored(client, app):
    game = new_game(client)
    game_id = game.split("/")[2]
    with app.app_context():
        db().execute(
            "UPDATE changes SET summary = ? WHERE game_id = ?", ["Hand 7: Eli went out", game_id]
        )
    assert "Hand 7: Eli went out" in history(speaking(client, "de"), game)


@pytest.mark.parametrize(
    ("language", "count", "line"),
    [
        ("en", 1, "Game imported with 1 hand"),
        ("en", 2, "Game imported with 2 hands"),
        ("de", 1, "Partie mit 1 Runde übernommen"),
        ("de", 2, "Partie mit 2 Runden übernommen"),
        ("es", 1, "Partida importada con 1 ronda"),
        ("es", 2, "Partida importada con 2 rondas"),
    ],
)
def test_an_imported_games_history_counts_its_hands_grammatically(client, language, count, line):
    hand = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 60}}
    data = {
        "rules": "official",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "hands": [hand] * count,
    }
    response = speaking(client, language).post(
        "/import", data={"csrf_token": csrf(client), "text": json.dumps(data)}
    )
    assert response.status_code == 303, text(response)
    assert line in history(client, response.headers["Location"])


@pytest.mark.parametrize(
    ("language", "title", "message"),
    [
        ("en", "Not found", "There is no game at this link. It may have been mistyped."),
        ("de", "Nicht gefunden", "Unter diesem Link gibt es keine Partie."),
        ("es", "No encontrado", "No hay ninguna partida en este enlace."),
    ],
)
def test_a_missing_game_is_a_404_page_in_the_readers_language(client, language, title, message):
    response = speaking(client, language).get("/g/nosuchgame0000/nosuchkey0000")
    page = text(response)
    assert response.status_code == 404
    assert f"<h1>{title}</h1>" in page and message in page
    assert f'<html lang="{language}"' in page


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "There is nothing here. Check the link, or start a new game."),
        ("de", "Hier ist nichts. Prüf den Link oder starte eine neue Partie."),
        ("es", "Aquí no hay nada. Revisa el enlace o empieza una partida nueva."),
    ],
)
def test_an_unknown_address_is_a_404_page_in_the_readers_language(client, language, message):
    response = speaking(client, language).get("/no/such/page")
    assert response.status_code == 404 and message in text(response)


def test_an_expired_form_is_refused_in_the_readers_language(client):
    response = speaking(client, "de").post("/new", data={"player-0": "Ann", "player-1": "Bob"})
    assert response.status_code == 400
    assert "Diese Seite ist abgelaufen oder kam von woanders." in text(response)


@pytest.mark.parametrize(
    ("language", "error", "choice"),
    [
        ("en", "The table this game was for is not here any more", "The official ten"),
        ("de", "Den Tisch für diese Partie gibt es hier nicht mehr", "Die offiziellen zehn"),
        ("es", "La mesa de esta partida ya no está aquí", "Las diez oficiales"),
    ],
)
def test_the_new_game_form_says_what_is_wrong_in_the_readers_language(
    client, language, error, choice
):
    data = {
        "csrf_token": csrf(speaking(client, language)),
        "profile": "official",
        "dealer": "0",
        "player-0": "Ann",
        "player-1": "Bob",
        "table": "no-such-table-000",
    }
    response = client.post("/new", data=data)
    page = text(response)
    assert response.status_code == 422
    assert error in page
    assert choice in page  # the house-rule choices, in the same language
    assert 'value="Ann"' in page  # what was typed is kept


def test_table_messages_and_the_roster_note_are_in_the_readers_language(client):
    speaking(client, "es")
    response = client.post("/tables/new", data={"csrf_token": csrf(client), "name": " "})
    assert "Ponle un nombre a la mesa, por ejemplo el de tu familia" in text(response)
    table = client.post("/tables/new", data={"csrf_token": csrf(client), "name": "Casa"})
    url = table.headers["Location"]
    form = {"csrf_token": csrf(client), "profile": "official", "dealer": "0"}
    form |= {"player-0": "Ana", "player-1": "Beto", "table": url.rsplit("/", 1)[-1]}
    assert client.post("/new", data=form).status_code == 303
    rename = {"csrf_token": csrf(client), "action": "rename", "name": "Ana", "new": "Anita"}
    assert client.post(f"{url}/roster", data=rename).status_code == 303
    assert "Ana ahora se llama Anita" in text(client.get(url))
    wrong = {"csrf_token": csrf(client), "action": "merge", "name": "Anita", "into": "Anita"}
    assert "Elige dos nombres distintos para unirlos" in text(
        client.post(f"{url}/roster", data=wrong)
    )


def test_a_backup_that_is_not_a_zip_is_refused_in_the_readers_language(client):
    speaking(client, "de")
    upload = {"csrf_token": csrf(client), "file": (io.BytesIO(b"not a zip"), "table.zip")}
    response = client.post("/tables/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Das ist keine Tisch-Sicherung: es ist keine ZIP-Datei." in text(response)


@pytest.mark.parametrize(
    ("language", "colours", "specials"),
    [
        ("en", ["Red ♥", "Blue ♠", "Green ♣", "Yellow ♦"], ["Wild", "Skip"]),
        ("de", ["Rot ♥", "Blau ♠", "Grün ♣", "Gelb ♦"], ["Joker", "Aussetzen"]),
        ("es", ["Rojo ♥", "Azul ♠", "Verde ♣", "Amarillo ♦"], ["Comodín", "Salto"]),
    ],
)
def test_the_checkers_card_palette_names_the_colours_in_the_readers_language(
    client, language, colours, specials
):
    page = text(speaking(client, language).get("/check"))
    assert all(colour in page for colour in colours)
    assert all(f">{word}<" in page for word in specials)
    assert 'value="R7"' in page  # cards are still typed R, B, G, Y


def test_a_checker_refusal_is_in_the_readers_language(client):
    response = speaking(client, "es").get("/check/hit", query_string={"kind": "pair"})
    assert response.status_code == 400
    assert "Elige grupo, escalera o combinación de un color" in text(response)


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "Large-print score sheet"),
        ("de", "Punkteblatt in Großdruck"),
        ("es", "Hoja de puntos"),
    ],
)
def test_the_printables_page_names_each_sheet_in_the_readers_language(client, language, title):
    assert title in text(speaking(client, language).get("/printables"))


def test_a_players_own_entry_is_refused_in_their_language(client, app):
    game = new_game(speaking(client, "de"))
    link = player_links(client, game)[1]["Bob"]
    form = {"csrf_token": csrf(client), "hand_number": "1", "points": "12"}
    response = client.post(link, data=form)
    assert response.status_code == 422
    assert "Punkte: 12 ist nicht durch 5 teilbar." in text(response)


@pytest.mark.parametrize(
    ("language", "day"),
    [("en", "Nov 23, 2026"), ("de", "23.11.2026"), ("es", "23 nov 2026")],
)
def test_a_games_dates_are_written_the_way_the_reader_writes_dates(app, language, day, monkeypatch):
    # The store's clock says the game was played on the 23rd, whatever day the test runs.
    monkeypatch.setattr(store.connection, "now", lambda: "2026-11-23T20:15:00+00:00")
    with app.test_request_context("/", headers={"Accept-Language": language}):
        app.preprocess_request()  # choose the request's language, as for any page
        database = db()
        stored = store.games.create_game(
            database,
            {"rules": "official", "players": ["Ann", "Bob"], "dealer": "Ann", "hands": []},
            dates=("2026-11-23T20:15:00+00:00", "2026-11-23T22:40:00+00:00"),
        )
        summary = summarise(database, store.games.get_game(database, stored.id))
        assert summary is not None
        assert render_template_string("{{ s.started|day }}", s=summary) == day
        change = store.history.changes(database, stored.id)[0]
        assert render_template_string("{{ c.when|day }}", c=change) == day
        best = PlayerStats("Ann", best_date="2026-11-23T22:40:00+00:00")
        assert render_template_string("{{ p.best_time|day }}", p=best) == day


def test_a_backups_unreadable_dates_are_dropped_not_stored(client):
    from scorekeeper.backup import table_archive
    from scorekeeper.rules.gamefile import load_game

    game = load_game({"rules": "official", "players": ["Ann", "Bob"], "dealer": "Ann", "hands": []})
    archive = table_archive.TableArchive(
        "Home", [("Ann", False), ("Bob", False)], {}, [table_archive.ArchivedGame(game, "x", "y")]
    )
    read = table_archive.read(table_archive.build(archive))
    assert (read.games[0].created, read.games[0].updated) == ("", "")


@pytest.mark.parametrize(
    ("language", "refusal"),
    [
        ("en", "Hand 1 cannot be deleted: without it, hand 3 no longer fits"),
        ("de", "Runde 1 kann nicht gelöscht werden. Ohne sie: Runde 3 passt nicht mehr"),
        ("es", "La ronda 1 no se puede borrar: sin ella, la ronda 3 ya no encaja"),
    ],
)
def test_a_refused_deletion_names_the_later_hand_in_the_readers_language(client, language, refusal):
    game = new_game(speaking(client, language), players=("Ann", "Bob"), first="2")
    record(client, game, 1, went_out=0, points={1: 20})  # both make phase 1
    record(client, game, 2, went_out=1, points={0: 20})  # both make phase 2: a tie
    assert record(client, game, 3, went_out=0, points={}).status_code == 303  # the tiebreak
    response = client.post(f"{game}/hands/1/delete", data={"csrf_token": csrf(client)})
    assert response.status_code == 409
    assert refusal in text(response)

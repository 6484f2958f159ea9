"""A German family reads every page in German: the pages' own words, from the catalogue."""

from __future__ import annotations

import pytest
from translated import every_page, fetch, leftovers, read_every_page, text_of
from webpage import read
from webutil import csrf, new_game

# What a German family reads on each page (the glossary's words: Runde, Partie, raus, Tisch).
GERMAN = {
    "home": [
        "Weiter: Ann, Bob, Cy, Runde 2",
        "du schreibst",
        "Neue Partie starten",
        "Deine Tische",
        "Beendete Partien",
        "Einen Tisch eröffnen",
        "Ist das eine gültige Phase?",
        "Kann ich die Karte anlegen?",
    ],
    "new game": [
        "Neue Partie",
        "Spieler, in Sitzreihenfolge (im Uhrzeigersinn)",
        "gibt",
        "Hausregeln (freiwillig)",
        "Punkte für Joker",
        "Wie in den gewählten Regeln",
        "Partie starten",
    ],
    "new game refused": ["Die Partie wurde nicht gestartet:"],
    "game": [
        "Runde 2 · Bob gibt",
        "Runde 2 eintragen",
        "Wer ist rausgegangen?",
        "Phase geschafft",
        "Stattdessen Karten zählen",
        "Runde 2 speichern",
        "Letzte Änderung rückgängig",
        "Ändern",
        "Jeder trägt seine Punkte selbst ein",
        "Tischansicht",
        "Teilen",
        "Verlauf",
    ],
    "hand refused": ["Es wurde nichts gespeichert. Bitte korrigiere, was markiert ist:"],
    "finished game": ["Ann gewinnt!", "1. Ann", "2. ", "Fertig", "Revanche: gleiche Spieler"],
    "correct a hand": ["Runde 1 korrigieren", "Korrektur speichern", "Runde 1 löschen"],
    "history": ["Verlauf", "Änderung 2", "1 Runde", "So steht die Partie jetzt."],
    "share": ["Diese Partie teilen", "Nur zuschauen", "Zuschauerseite öffnen", "Anschreiber-Link"],
    "players' codes": ["Jeder trägt seine Punkte selbst ein", "Ein Code für alle", "Code für Ann"],
    "who are you": ["Wer bist du?"],
    "my points": ["Ann: meine Punkte", "Ich bin raus", "Zum Anschreiben schicken"],
    "watch": ["Du schaust dieser Partie zu.", "Runde 2 · Bob gibt", "Für diese Partie drucken"],
    "table view": ["Runde 2 · Bob gibt", "Punkte"],
    "table": [
        "Die Müllers",
        "Wer spielt mit?",
        "Neue Partie starten",
        "Beendete Partien",
        "Sieger: Ann",
        "10 Runden",
        "Sicherung speichern",
        "Der Link dieses Tisches",
    ],
    "statistics": [
        "Die Müllers: Statistik",
        "1 beendete Partie, im Schnitt 10,0 Runden pro Partie.",
        "Siege",
        "Längste Siegesserie",
        "Siege im Lauf der Zeit",
    ],
    "check a phase": ["Ist das eine gültige Phase?", "Gruppe 1", "Noch nicht gültig", "Leeren"],
    "check a hit": ["Kann ich die Karte anlegen?", "Satz", "Folge", "Die Karte zum Anlegen"],
    "check a hand": ["Schafft meine Hand die Phase?", "Noch nicht:", "Deine Hand"],
    "import a game": ["Partie importieren"],
    "import a table": ["Tisch importieren"],
    "start a table": ["Einen Tisch eröffnen", "Name des Tisches"],
    "print": ["Für den Tisch drucken"],
    "not found": ["Zur Startseite"],
}


@pytest.mark.exhaustive
def test_every_page_speaks_german_with_no_english_template_text_left(client):
    assert read_every_page(client, "de", GERMAN) == {}


def test_the_check_finds_english_template_text_when_it_is_there(client):
    pages = every_page(client)
    method, path, form, _ = pages["game"]
    _, page = fetch(client, "en", method, path, form)
    found = leftovers(page, "de")
    assert {"Record hand 2", "↶ Undo last change", "Share", "one more Wild for Ann"} <= set(found)


def test_english_pages_keep_their_words(client):
    pages = every_page(client)
    _, page = fetch(client, "en", *pages["finished game"][:3])
    assert "Ann wins!" in text_of(page) and "1st Ann" in text_of(page)
    assert "2nd" in text_of(page)
    _, page = fetch(client, "en", *pages["statistics"][:3])
    assert "1 finished game, 10.0 hands a game on average." in text_of(page)


def test_switching_language_after_a_refused_hand_comes_back_to_the_game(client):
    url = new_game(client)
    form = {"csrf_token": csrf(client), "hand_number": "1", "went_out": "0"}
    form.update({"points-1": "7", "points-2": "60"})
    headers = {"Accept-Language": "de", "Referer": f"http://table.test{url}"}
    refused = client.post(f"{url}/hands", data=form, headers=headers)
    assert refused.status_code == 422
    switch = read(refused.get_data(as_text=True)).one("a[hreflang=es]")["href"]
    response = client.get(switch)
    assert response.status_code == 303 and response.headers["Location"] == url
    page = client.get(url).get_data(as_text=True)
    assert '<html lang="es">' in page and "Ronda 1" in text_of(page)

"""A German family plays in German on their phones; the switcher changes the language in place."""

from __future__ import annotations

import re

import pytest
from pages import PHONE, shot
from playwright.sync_api import expect


@pytest.fixture
def german_phone(browser):
    context = browser.new_context(**PHONE, locale="de-DE")
    yield context
    context.close()


def speaks(page, language: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", language)


def enter_hand(page, went_out: str, points: dict[str, str]) -> None:
    page.click(f"label.pill:text-is('{went_out}')")
    for seat, total in points.items():
        page.fill(f"input[name=points-{seat}]", total)
    page.click("#record button[type=submit]")


def test_a_german_family_plays_a_short_game_in_german(browser, german_phone, server):
    page = german_phone.new_page()
    page.goto(server)
    speaks(page, "de")
    expect(page.locator("h1")).to_have_text("Phase 10 am Tisch mitschreiben")
    page.click("text=Neue Partie starten")
    expect(page.locator("h1")).to_have_text("Neue Partie")
    expect(page.locator("legend").first).to_have_text(
        "Spieler, in Sitzreihenfolge (im Uhrzeigersinn)"
    )
    for i, name in enumerate(["Oma", "Jonas", "Lea"]):
        page.fill(f"#player-{i}", name)
    page.click("button:has-text('Partie starten')")
    page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
    speaks(page, "de")
    expect(page.locator(".status")).to_have_text("Runde 1 · Oma gibt")
    expect(page.locator("#record h2")).to_have_text("Runde 1 eintragen")
    expect(page.locator(".went-out legend")).to_have_text("Wer ist rausgegangen?")

    enter_hand(page, "Jonas", {"0": "50", "2": "25"})
    expect(page.locator(".status")).to_have_text("Runde 2 · Jonas gibt")
    expect(page.locator("#hands h2")).to_have_text("Runden")
    expect(page.locator("#record button[type=submit]")).to_have_text("Runde 2 speichern")

    enter_hand(page, "Lea", {"0": "7", "1": "60"})  # 7 points cannot be: refused, nothing saved
    expect(page.locator(".problems-title")).to_have_text(
        "Es wurde nichts gespeichert. Bitte korrigiere, was markiert ist:"
    )
    expect(page.locator("#points-0-error")).to_contain_text("Oma: 7 ist nicht durch 5 teilbar")
    expect(page.locator("input[name=points-1]")).to_have_value("60")
    speaks(page, "de")
    shot(page, "de-01-refused-hand")
    page.fill("input[name=points-0]", "10")
    page.click("#record button[type=submit]")
    expect(page.locator(".status")).to_have_text("Runde 3 · Lea gibt")

    page.click("nav.actions >> text=Teilen")
    expect(page.locator("h1")).to_have_text("Diese Partie teilen")
    watch_link = page.get_by_label("Zuschauer-Link").input_value()
    watcher = browser.new_context(**PHONE, locale="de-DE").new_page()
    try:
        watcher.goto(watch_link)
        speaks(watcher, "de")
        expect(watcher.locator("main > p.hint")).to_have_text(
            "Du schaust dieser Partie zu. Die Punkte aktualisieren sich von selbst."
        )
        expect(watcher.locator(".status")).to_have_text("Runde 3 · Lea gibt")

        page.click("text=← Zurück zur Partie")
        enter_hand(page, "Oma", {"1": "5", "2": "60"})
        expect(page.locator(".status")).to_have_text("Runde 4 · Oma gibt")
        expect(watcher.locator(".status")).to_have_text("Runde 4 · Oma gibt")
        expect(watcher.locator("#scoreboard")).to_contain_text("Punkte")
        shot(watcher, "de-02-watching")
    finally:
        watcher.context.close()

    page.get_by_role("link", name="Ändern (Runde 1)").click()
    expect(page.locator("h1")).to_have_text("Runde 1 korrigieren")
    speaks(page, "de")
    shot(page, "de-03-correct-hand")


def test_the_switcher_changes_the_language_on_the_same_page_and_remembers_it(german_phone, server):
    page = german_phone.new_page()
    page.goto(f"{server}/new")
    for i, name in enumerate(["Oma", "Jonas"]):
        page.fill(f"#player-{i}", name)
    page.click("button:has-text('Partie starten')")
    page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
    game = page.url
    expect(page.locator(".status")).to_have_text("Runde 1 · Oma gibt")

    page.click("footer.languages >> text=Español")
    page.wait_for_url(game)
    speaks(page, "es")
    expect(page.locator(".status")).to_have_text("Ronda 1 · reparte Oma")
    expect(page.locator("footer.languages [aria-current]")).to_have_text("Español")

    page.goto(server)  # the device remembers the choice over the browser's German
    speaks(page, "es")
    expect(page.locator(".continue h2")).to_have_text("Continuar")
    expect(page.locator(".continue .game-link span")).to_have_text(re.compile("^anotas tú"))


def test_points_sent_from_german_phones_arrive_in_german(browser, german_phone, server):
    page = german_phone.new_page()
    page.goto(f"{server}/new")
    for i, name in enumerate(["Oma", "Jonas", "Lea"]):
        page.fill(f"#player-{i}", name)
    page.click("button:has-text('Partie starten')")
    page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
    game = page.url
    page.click("text=Jeder trägt seine Punkte selbst ein")
    expect(page.locator("h1")).to_have_text("Jeder trägt seine Punkte selbst ein")
    copy = page.locator("button.copy-button").first
    copy.click()
    expect(copy).to_have_text("Kopiert")
    lea_link = page.get_by_label("Link für Lea").input_value()
    page.goto(game)

    lea = browser.new_context(**PHONE, locale="de-DE").new_page()
    try:
        lea.goto(lea_link)
        speaks(lea, "de")
        expect(lea.locator("h1")).to_have_text("Lea: meine Punkte")
        lea.fill("#points", "25")
        lea.check("input[name=made]")
        lea.click("text=Zum Anschreiben schicken")
        expect(lea.locator(".ok")).to_contain_text("Geschickt: 25 Punkte, Phase geschafft.")
    finally:
        lea.context.close()

    expect(page.locator("input[name=points-2]")).to_have_value("25")
    expect(page.locator(".from-phones")).to_have_text(
        "Von Handys geschickt (prüfen, dann speichern): Lea: 25, Phase geschafft"
    )


@pytest.mark.parametrize("locale", ["de-DE", "es-ES", "fr-FR", "it-IT", "pl-PL"])
def test_longer_words_of_other_languages_never_scroll_sideways_on_a_360_pixel_phone(
    browser, server, locale
):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, locale=locale
    )
    try:
        page = context.new_page()
        page.goto(f"{server}/new")
        page.click("details.house-rules summary")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for i, name in enumerate(["Großmutter Johanna", "Jonas", "Lea"]):
            page.fill(f"#player-{i}", name)
        page.click("form.stack > button[type=submit]")
        page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
        game = page.url
        enter_hand(page, "Jonas", {"0": "50", "2": "25"})
        expect(page.locator("#hands")).to_be_visible()
        for path in ("", "/history", "/share", "/players", "/hands/1"):
            page.goto(game + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
        for path in ("/check?phase=2", "/check/hit", "/check/hand", "/printables", "/tables/new"):
            page.goto(server + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    finally:
        context.close()

"""A French, an Italian and a Polish family each play a short game end to end in their language,
with a second phone watching it; every text checked is the catalogue's, never the English."""

from __future__ import annotations

import re

import pytest
from pages import PHONE, shot
from playwright.sync_api import expect

from scorekeeper import i18n


def said(language: str, message: str, **values: object) -> str:
    """What the page shows for ``message`` in ``language``: translated, markup taken out."""
    with i18n.using(language):
        text = i18n._(message, **values)
    assert text != message % values if values else text != message, f"{message!r} untranslated"
    return re.sub(r"<[^>]+>", "", text)


@pytest.mark.parametrize(
    ("language", "locale"), [("fr", "fr-FR"), ("it", "it-IT"), ("pl", "pl-PL")]
)
def test_a_family_plays_a_short_game_in_its_language(browser, server, language, locale):
    phone = browser.new_context(**PHONE, locale=locale)
    watching = browser.new_context(**PHONE, locale=locale)
    try:
        page = phone.new_page()
        page.goto(f"{server}/new")
        expect(page.locator("html")).to_have_attribute("lang", language)
        for i, name in enumerate(["Ann", "Bob", "Cy"]):
            page.fill(f"#player-{i}", name)
        page.click("details.house-rules > summary")
        page.fill("#opt-first", "1")  # the game ends once someone has made phase 1
        page.click("form button[type=submit]:not([formaction])")
        page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
        deals = "Hand <strong>%(number)s</strong> · <strong>%(dealer)s</strong> deals"
        expect(page.locator(".status")).to_have_text(said(language, deals, number=1, dealer="Ann"))
        expect(page.locator(".went-out legend")).to_have_text(said(language, "Who went out?"))

        watcher = watching.new_page()
        watcher.goto(page.url.replace("/g/", "/v/").rsplit("/", 1)[0])
        expect(watcher.locator("html")).to_have_attribute("lang", language)

        page.click("label.pill:text-is('Bob')")
        page.fill("input[name=points-0]", "7")  # no hand adds up to 7: refused, in words
        page.fill("input[name=points-2]", "25")
        page.click("#record button[type=submit]")
        error = page.locator("#points-0-error")
        expect(error).to_contain_text("7")
        assert "multiple of 5" not in error.inner_text()  # the engine's reason, in their words
        expect(page.locator("input[name=points-2]")).to_have_value("25")
        shot(page, f"{language}-01-refused-hand")
        page.fill("input[name=points-0]", "50")
        page.click("#record button[type=submit]")

        winner = said(language, "<strong>%(name)s</strong> wins!", name="Bob")
        expect(page.locator(".winner")).to_contain_text(winner)
        expect(watcher.locator(".winner")).to_contain_text(winner)  # the watcher follows
        shot(watcher, f"{language}-02-watching-the-end")
    finally:
        phone.close()
        watching.close()

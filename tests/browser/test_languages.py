"""The language switcher on a 360 px phone: all six languages, each a thumb-sized target that
overlaps no other, nothing scrolling sideways; a tap on one speaks it on the same page."""

from __future__ import annotations

import pytest
from pages import shot
from playwright.sync_api import expect

from scorekeeper.i18n import LANGUAGES

NARROW = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
LINKS = """() => [...document.querySelectorAll("footer.languages a")].map((a) => {
  const r = a.getBoundingClientRect();
  return {text: a.textContent.trim(), lang: a.lang, x: r.x, y: r.y, width: r.width,
          height: r.height};
})"""
# What the game form's button says in each language: the page speaks the language tapped.
START = {
    "en": "Start the game",
    "de": "Partie starten",
    "es": "Empezar la partida",
    "fr": "Commencer la partie",
    "it": "Inizia la partita",
    "pl": "Zacznij partię",
}


def _apart(one: dict, other: dict) -> bool:
    return (
        one["x"] + one["width"] <= other["x"] + 0.5
        or other["x"] + other["width"] <= one["x"] + 0.5
        or one["y"] + one["height"] <= other["y"] + 0.5
        or other["y"] + other["height"] <= one["y"] + 0.5
    )


@pytest.fixture
def narrow_phone(browser):
    context = browser.new_context(**NARROW, locale="en-US")
    yield context
    context.close()


def test_every_language_is_a_whole_thumb_sized_target_at_360_px(narrow_phone, server):
    page = narrow_phone.new_page()
    page.goto(f"{server}/new")
    links = page.evaluate(LINKS)
    assert [(link["lang"], link["text"]) for link in links] == list(LANGUAGES.items())
    assert len(links) == 6
    for link in links:
        assert link["width"] >= 44 and link["height"] >= 44, link
        assert 0 <= link["x"] and link["x"] + link["width"] <= 360, link
    for i, one in enumerate(links):
        for other in links[i + 1 :]:
            assert _apart(one, other), (one["text"], other["text"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator("footer.languages").scroll_into_view_if_needed()
    shot(page, "languages-360")


@pytest.mark.parametrize("language", ["fr", "it", "pl"])
def test_a_tap_on_a_language_speaks_it_on_the_same_page_and_is_remembered(
    narrow_phone, server, language
):
    page = narrow_phone.new_page()
    page.goto(f"{server}/new")
    page.locator(f"footer.languages a[lang={language}]").tap()
    page.wait_for_url(f"{server}/new")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("form.stack > button[type=submit]")).to_have_text(START[language])
    expect(page.locator("footer.languages [aria-current]")).to_have_text(LANGUAGES[language])
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.goto(f"{server}/rules")  # remembered on this phone, over the browser's English
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#card-points")).to_be_visible()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_table_of_the_rules_page_fits_a_360_px_phone(browser, server, language):
    """The odds table in German ran past the phone's edge: a sideways swipe inside it."""
    context = browser.new_context(**NARROW, locale=language)
    try:
        page = context.new_page()
        page.goto(f"{server}/rules")
        expect(page.locator("html")).to_have_attribute("lang", language)
        wider = page.evaluate(
            """() => [...document.querySelectorAll(".rules-doc table")]
                .filter((t) => t.scrollWidth > t.clientWidth + 1)
                .map((t) => t.querySelector("th").textContent)"""
        )
        assert wider == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()

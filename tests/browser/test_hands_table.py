"""The hands table on a phone: every Fix link whole and tappable, the hand number always in view,
and a line saying the table scrolls while players lie off to the side."""

from __future__ import annotations

import pytest
from pages import PHONE, browser_app, served, shot
from webutil import new_game, record

PLAYERS = ["Grandma", "Jonas", "Chloé", "Lea", "Mateo", "Sofía"]
HINT = {
    "en": "More players to the side",
    "de": "Weitere Spieler daneben",
    "es": "Hay más jugadores al lado",
    "fr": "D'autres joueurs sur le côté",
    "it": "Altri giocatori a lato",
    "pl": "Więcej graczy z boku",
}
# Resolves once the page has drawn two more frames: what it shows has caught up with a change.
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _game(database, players: int) -> str:
    """A game of `players` with three hands, recorded through the app itself."""
    client = browser_app(database, TESTING=True).test_client()
    url = new_game(client, players=PLAYERS[:players])
    for number in (1, 2, 3):
        points = {seat: 5 * (seat + number) for seat in range(1, players)}
        record(client, url, number, went_out=0, points=points)
    return url


def _inside(inner: dict, outer: dict) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
    )


@pytest.mark.parametrize("language", HINT)
@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("width", [360, 390])
def test_every_fix_link_is_whole_and_the_hand_number_stays(
    browser, tmp_path, width, players, language
):
    url = _game(tmp_path / "games.sqlite3", players)
    phone = {**PHONE, "viewport": {"width": width, "height": 800}}
    context = browser.new_context(**phone, locale=language)
    try:
        with served(tmp_path / "games.sqlite3") as server:
            page = context.new_page()
            page.goto(server + url)
            box = page.locator("#hands .table-scroll")
            box.scroll_into_view_if_needed()
            scrolls = box.evaluate("e => e.scrollWidth > e.clientWidth + 1")
            for scrolled in (False, True):
                if scrolled:
                    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
                    page.evaluate(NEXT_FRAMES)  # the scrolled table drawn, not a fixed wait
                frame = box.bounding_box()
                assert frame["x"] >= 0 and frame["x"] + frame["width"] <= width
                for number in (1, 2, 3):
                    row = page.locator("#hands tbody tr").nth(number - 1)
                    fix = row.locator("td.fix a")
                    where = fix.bounding_box()
                    assert _inside(where, frame), (scrolled, fix.inner_text(), where, frame)
                    assert where["width"] >= 44 and where["height"] >= 44
                    assert fix.evaluate("a => a.scrollWidth <= a.clientWidth")  # never cut
                    hand = row.locator("th[scope=row]")
                    assert _inside(hand.bounding_box(), frame)
                    assert hand.evaluate(  # on top, not hidden under a player's column
                        "th => { const r = th.getBoundingClientRect();"
                        " return th.contains(document.elementFromPoint("
                        "r.x + r.width / 2, r.y + r.height / 2)); }"
                    )
                    assert hand.inner_text().strip() == str(number)
                hint = page.locator("#hands .scroll-hint")
                if scrolls and not scrolled:
                    assert hint.is_visible() and HINT[language] in hint.inner_text()
                else:
                    assert not hint.is_visible()  # all in view, or swiped to the end
            if players == 6 and width == 360:
                shot(page, f"hands-table-{language}-{players}-{width}")
            if players == 6:
                assert scrolls  # six players do not fit a phone: the case this test is for
    finally:
        context.close()

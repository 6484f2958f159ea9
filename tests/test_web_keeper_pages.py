"""The scorekeeper's page answered before Flask: the app's own page, never stale, never shared.

Each test opens the page until it is answered without reaching Flask (counted by
a hook), then checks that what a phone sees is what the app itself would show.
"""

from __future__ import annotations

import gzip
import re
import time

import pytest
from test_web_self_entry import player_links, send
from webutil import csrf, new_game, record

from scorekeeper.web import keeper_pages


def _text(answer) -> str:
    data = answer.data
    return (gzip.decompress(data) if answer.headers.get("Content-Encoding") else data).decode()


def _token(answer) -> str:
    return re.search(r'"X-CSRF-Token": "([^"]+)"', _text(answer)).group(1)


def _open(phone, url, **headers):
    return phone.get(url, headers={"Accept-Encoding": "gzip", **headers})


def _settled(phone, url, reached, **headers):
    """Open the page until the app no longer needs to answer it (a cookie set, a page kept)."""
    for _ in range(3):
        before = len(reached)
        answer = _open(phone, url, **headers)
        if len(reached) == before:
            return answer
    raise AssertionError("the page was never answered before Flask")


@pytest.mark.parametrize("encoding", ["gzip", ""])
def test_the_page_before_flask_is_the_apps_own(app, client, through_the_app, encoding):
    url = new_game(client)
    by_the_app = [client.get(url, headers={"Accept-Encoding": encoding}) for _ in range(2)][-1]
    assert through_the_app[-1] == url
    before = len(through_the_app)
    kept = client.get(url, headers={"Accept-Encoding": encoding})
    assert len(through_the_app) == before  # answered before Flask
    assert kept.status == by_the_app.status
    assert kept.data == by_the_app.data
    assert sorted(kept.headers.items()) == sorted(by_the_app.headers.items())
    assert ("Content-Encoding" in kept.headers) == (encoding == "gzip")
    assert "Hand <strong>1</strong>" in _text(kept)


def test_every_change_shows_at_once(app, client, through_the_app):
    url = new_game(client, players=("Ann", "Bob"))
    _settled(client, url, through_the_app)
    assert record(client, url, 1, 0, {1: 25}).status_code == 303
    page = _text(_open(client, url))
    assert "Hand <strong>2</strong>" in page
    again = _settled(client, url, through_the_app)
    assert "Hand <strong>2</strong>" in _text(again)
    other = client.application.test_client()  # a second scorekeeper phone records hand 2
    assert record(other, url, 2, 1, {0: 40}).status_code == 303
    assert "Hand <strong>3</strong>" in _text(_open(client, url))


def test_each_phone_gets_its_own_token(app, client, through_the_app):
    url = new_game(client)
    mine = _settled(client, url, through_the_app)
    other = app.test_client()
    theirs = _settled(other, url, through_the_app)
    assert _token(mine) != _token(theirs)
    assert _token(theirs) in _text(_open(other, url))
    assert _token(mine) not in _text(_open(other, url))


def test_points_sent_from_a_phone_show_although_the_game_did_not_change(
    app, client, through_the_app
):
    url = new_game(client)
    _settled(client, url, through_the_app)
    _, links = player_links(client, url)
    assert send(app.test_client(), links["Bob"], points="25", made="1").status_code == 303
    page = _text(_open(client, url))
    assert re.search(r'name="points-1"[^>]*value="25"', page)
    assert "Sent from phones (check, then save)" in page


def test_a_note_is_shown_once_even_when_another_phone_had_the_page_kept(
    app, client, through_the_app
):
    url = new_game(client, players=("Ann", "Bob"))
    assert record(client, url, 1, 0, {1: 25}).status_code == 303
    _settled(client, url, through_the_app)
    assert client.post(f"{url}/undo", data={"csrf_token": csrf(client)}).status_code == 303
    other = app.test_client()  # opens the undone game before this phone follows its redirect
    assert "Hand <strong>1</strong>" in _text(_settled(other, url, through_the_app))
    noted = _text(_open(client, url))
    assert "Undone: " in noted and "Hand <strong>1</strong>" in noted
    later = _text(_settled(client, url, through_the_app))
    assert "Hand <strong>1</strong>" in later and "Undone: " not in later


def test_a_wrong_key_is_a_404_even_with_the_page_kept(app, client, through_the_app):
    url = new_game(client)
    _settled(client, url, through_the_app)
    wrong = url[:-3] + ("abc" if not url.endswith("abc") else "xyz")
    answer = _open(client, wrong)
    assert answer.status_code == 404
    assert "Hand <strong>" not in _text(answer)


def test_a_forged_or_expired_cookie_never_gets_a_kept_page(app, client, through_the_app):
    url = new_game(client)
    mine = _settled(client, url, through_the_app)
    forged = app.test_client()
    cookie = client.get_cookie("session", domain="table.test").value
    forged.set_cookie(
        "session", cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB"), domain="table.test"
    )
    before = len(through_the_app)
    answer = _open(forged, url)
    assert len(through_the_app) == before + 1  # the app answered, with a session of its own
    assert "Set-Cookie" in answer.headers
    assert _token(answer) != _token(mine)

    app.config["PERMANENT_SESSION_LIFETIME"] = 1  # seconds: every session has expired
    time.sleep(2)
    before = len(through_the_app)
    answer = _open(client, url)
    assert len(through_the_app) == before + 1
    assert _token(answer) != _token(mine) and "Set-Cookie" in answer.headers


def test_opening_a_game_again_puts_it_first_on_the_home_page(app, client, through_the_app):
    first = new_game(client, players=("Ann", "Bob"))
    second = new_game(client, players=("Cy", "Di"))
    _settled(client, first, through_the_app)
    _settled(client, second, through_the_app)
    reopened = _open(client, first)
    assert "Set-Cookie" in reopened.headers  # the app answered: this device now has it first
    home = client.get("/").get_data(as_text=True)
    assert home.index("Ann") < home.index("Cy")


def test_each_language_gets_its_own_page(app, client, through_the_app):
    url = new_game(client)
    english = _settled(client, url, through_the_app, **{"Accept-Language": "en"})
    german = _settled(client, url, through_the_app, **{"Accept-Language": "de-DE,de;q=0.9"})
    assert 'lang="en"' in _text(english) and 'lang="de"' in _text(german)
    assert "Runde <strong>1</strong>" in _text(german)
    client.get("/language/es")  # the switcher's cookie outranks the browser
    spanish = _settled(client, url, through_the_app, **{"Accept-Language": "de"})
    assert 'lang="es"' in _text(spanish)


def test_kept_pages_are_bounded(app, client, through_the_app, monkeypatch):
    monkeypatch.setattr(keeper_pages, "KEEP", 2)
    for _ in range(4):
        _settled(client, new_game(client), through_the_app)
    middleware = app.wsgi_app.app.app  # inside the idle polls and the watch pages
    assert isinstance(middleware, keeper_pages.KeeperPages)
    assert len(middleware.kept) == 2

"""Watch pages answered before Flask: the app's own answer, kept per version, never stale."""

from __future__ import annotations

import gzip

import pytest
from flask import request
from webutil import csrf, new_game

WATCHED = ("", "/table", "/live", "/live?big=1")


def _watch(app, path: str, **headers: str):
    """A phone that has never opened the app: no cookie."""
    return app.test_client().get(path, headers={"Accept-Encoding": "gzip", **headers})


def _text(answer) -> str:
    data = answer.data
    return (gzip.decompress(data) if answer.headers.get("Content-Encoding") else data).decode()


def _same_answer(a, b) -> None:
    assert (a.status, a.data) == (b.status, b.data)
    assert sorted(a.headers.items()) == sorted(b.headers.items())


@pytest.mark.parametrize("page", WATCHED)
def test_the_next_phones_get_the_apps_own_answer_without_reaching_flask(
    app, client, through_the_app, page
):
    url = new_game(client)
    path = f"/v/{url.split('/')[2]}{page}"
    first = _watch(app, path)
    assert first.status_code == 200 and "Set-Cookie" not in first.headers
    again = [_watch(app, path) for _ in range(3)]
    for answer in again:
        _same_answer(first, answer)
    assert through_the_app.count(path) == 1


def test_every_change_shows_on_the_next_request(app, client, through_the_app):
    url = new_game(client, players=("Ann", "Bob"), first="2")
    game_id = url.split("/")[2]
    pages = [f"/v/{game_id}{page}" for page in WATCHED]
    token = csrf(client)

    def shown() -> list[str]:
        return [_text(_watch(app, path)) for path in pages]

    def changed(path: str, data: dict[str, str]) -> list[str]:
        before = shown()
        assert client.post(f"{url}{path}", data={"csrf_token": token, **data}).status_code == 303
        after = shown()
        assert all(a != b for a, b in zip(before, after, strict=True)), path
        return after

    changed("/hands", {"hand_number": "1", "went_out": "0", "points-1": "50"})
    changed("/hands", {"hand_number": "2", "went_out": "1", "points-0": "60"})
    corrected = changed("/hands/2", {"went_out": "1", "points-0": "70"})
    assert all(">70</strong>" in page for page in corrected)
    changed("/hands/2/delete", {})
    changed("/undo", {})
    over = changed("/hands", {"hand_number": "3", "went_out": "0", "points-1": "50"})
    assert all("wins!" in page for page in over)
    assert _watch(app, f"/v/{game_id}/live").status_code == 286  # the kept copy stops polling too
    reopened = changed("/undo", {})
    assert not any("wins!" in page for page in reopened)
    assert all("wins!" in page for page in changed("/history/7/restore", {}))


def test_a_phone_with_the_apps_cookie_always_reaches_the_app(app, client, through_the_app):
    url = new_game(client)
    path = f"/v/{url.split('/')[2]}"
    _watch(app, path)
    for _ in range(2):
        assert client.get(path).status_code == 200  # this client carries its session cookie
    assert through_the_app.count(path) == 3


def test_an_answer_that_sets_a_cookie_is_never_shared(app, client, through_the_app):
    @app.after_request
    def remember_the_phone(response):
        response.set_cookie("seen", "yes")
        return response

    url = new_game(client)
    path = f"/v/{url.split('/')[2]}"
    for _ in range(3):
        assert "seen=yes" in _watch(app, path).headers["Set-Cookie"]
    assert through_the_app.count(path) == 3


def test_each_language_and_encoding_gets_its_own_copy(app, client, through_the_app):
    @app.after_request
    def language_heard(response):  # as a page in the phone's language says it varies
        response.headers["X-Heard"] = request.headers.get("Accept-Language", "")
        response.vary.update(("Accept-Language", "Cookie"))
        return response

    url = new_game(client)
    path = f"/v/{url.split('/')[2]}"
    for _ in range(2):
        for language in ("de", "es", ""):
            assert _watch(app, path, **{"Accept-Language": language}).headers["X-Heard"] == language
        plain = app.test_client().get(path)
        assert "Content-Encoding" not in plain.headers and b"<!doctype html>" in plain.data
    assert through_the_app.count(path) == 4  # three languages gzipped, and one plain


def test_a_game_that_is_not_there_is_the_friendly_404_every_time(app, through_the_app):
    for _ in range(2):
        missing = _watch(app, "/v/no-such-game")
        assert missing.status_code == 404
        assert "no game at this link" in _text(missing)
    assert through_the_app.count("/v/no-such-game") == 2


def test_a_watch_page_in_the_phones_language_never_goes_to_a_phone_of_another(
    app, client, through_the_app
):
    url = new_game(client)
    path = f"/v/{url.split('/')[2]}"
    for _ in range(2):
        for asked, spoken in (("de-DE,de;q=0.9", "de"), ("es", "es"), ("en-GB", "en")):
            page = _text(_watch(app, path, **{"Accept-Language": asked}))
            assert f'<html lang="{spoken}">' in page
    chosen = app.test_client()
    chosen.set_cookie("lang", "es", domain="table.test")  # the switcher's choice on this phone
    page = chosen.get(path, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="es">' in page
    assert through_the_app.count(path) == 4  # three languages once each, and the cookie's


def test_only_the_latest_pages_are_kept(app, client, through_the_app, monkeypatch):
    from scorekeeper.web import shared_pages

    monkeypatch.setattr(shared_pages, "KEEP", 3)
    paths = [f"/v/{new_game(client).split('/')[2]}" for _ in range(5)]
    for path in paths:
        for language in ("en", "de"):
            _watch(app, path, **{"Accept-Language": language})
    middleware = app.wsgi_app.app  # inside the idle polls
    assert middleware.count == sum(len(a) for a in middleware.kept.values()) <= 3
    _watch(app, paths[-1], **{"Accept-Language": "de"})  # the latest: from its copy
    _watch(app, paths[0], **{"Accept-Language": "de"})  # the oldest: dropped, to the app
    assert [through_the_app.count(path) for path in (paths[0], paths[-1])] == [3, 2]

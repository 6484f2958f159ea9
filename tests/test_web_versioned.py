"""Pages are rendered once per game version; only the session's CSRF token differs."""

from __future__ import annotations

import zlib

import flask
from webutil import csrf, new_game, record

from scorekeeper.web import games, share


def _count_renders(monkeypatch) -> list[str]:
    rendered: list[str] = []

    def counting(template, **context):
        rendered.append(template)
        return flask.render_template(template, **context)

    monkeypatch.setattr(games, "render_template", counting)
    monkeypatch.setattr(share, "render_template", counting)
    return rendered


def test_the_scorekeeper_page_is_rendered_once_per_version(app, client, monkeypatch):
    url = new_game(client)
    other = app.test_client()
    rendered = _count_renders(monkeypatch)
    first = client.get(url).get_data(as_text=True)
    second = other.get(url).get_data(as_text=True)
    assert rendered == ["game.html"]
    mine, theirs = csrf(client), csrf(other)
    assert mine != theirs and mine in first and theirs in second
    assert first.replace(mine, "") == second.replace(theirs, "")  # the rest is the same page
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    assert ">50</strong>" in client.get(url).get_data(as_text=True)
    assert ">50</strong>" in other.get(url).get_data(as_text=True)
    assert rendered.count("game.html") == 2  # once more, for the new version


def test_watch_pages_and_the_poll_are_rendered_once_per_version(client, monkeypatch):
    url = new_game(client)
    game_id = url.split("/")[2]
    rendered = _count_renders(monkeypatch)
    for _ in range(3):
        for path in (f"/v/{game_id}", f"/v/{game_id}/table", f"/v/{game_id}/live"):
            assert client.get(path).status_code == 200
    assert sorted(rendered) == ["_scoreboard.html", "table.html", "view.html"]


def test_a_note_for_one_phone_is_not_kept_for_the_others(app, client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    client.post(f"{url}/undo", data={"csrf_token": csrf(client)})
    assert "Undone: Hand 1" in client.get(url).get_data(as_text=True)
    assert "Undone: Hand 1" not in client.get(url).get_data(as_text=True)
    assert "Undone: Hand 1" not in app.test_client().get(url).get_data(as_text=True)


def test_the_kept_scorekeeper_page_is_one_valid_gzip_stream_with_each_sessions_token(app, client):
    url = new_game(client)
    for hand in range(1, 4):
        record(client, url, hand, went_out=0, points={1: 50, 2: 20})
    for phone in (client, app.test_client()):
        plain = phone.get(url).data
        zipped = phone.get(url, headers={"Accept-Encoding": "gzip"})
        assert zipped.headers["Content-Encoding"] == "gzip"
        assert zlib.decompress(zipped.data, wbits=31) == plain  # one member, as browsers read
        assert csrf(phone).encode() in plain

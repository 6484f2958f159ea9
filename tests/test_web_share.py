"""Shared games: the view link watches, only the edit link changes anything."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest
from webpage import read
from webutil import csrf, export, new_game, record

from scorekeeper.web.access import qr_svg

EDIT_ROUTES = [
    ("post", "/hands"),
    ("post", "/hands/check"),
    ("post", "/hands/1"),
    ("post", "/hands/1/delete"),
    ("post", "/undo"),
    ("post", "/history/1/restore"),
    ("get", "/hands/1"),
    ("get", "/history"),
    ("get", "/share"),
    ("get", "/export.json"),
]


HX = {"HX-Request": "true"}  # what htmx sends: the page's live part, not the whole page


def _ids(url: str) -> tuple[str, str]:
    game_id, key = url.split("/")[2:4]
    return game_id, key


@pytest.mark.parametrize(("method", "path"), EDIT_ROUTES)
def test_the_view_link_cannot_reach_any_edit_action(client, method, path):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    game_id, key = _ids(url)
    before = export(client, url)
    for prefix in (f"/v/{game_id}", f"/g/{game_id}/{game_id}", f"/g/{game_id}/{key[:-1]}x"):
        response = getattr(client, method)(
            prefix + path, data={"csrf_token": csrf(client), "went_out": "1"}
        )
        assert response.status_code in (404, 405), (prefix + path, response.status_code)
    assert export(client, url) == before


def test_the_view_page_never_shows_the_edit_key(client):
    url = new_game(client)
    game_id, key = _ids(url)
    for path, headers in (
        (f"/v/{game_id}", {}),
        (f"/v/{game_id}/table", {}),
        (f"/v/{game_id}", HX),
    ):
        page = client.get(path, headers=headers).get_data(as_text=True)
        assert key not in page
        assert "Ann" in page


def test_the_share_page_shows_both_links_as_qr_codes(client):
    url = new_game(client)
    game_id, key = _ids(url)
    page = client.get(f"{url}/share").get_data(as_text=True)
    assert page.count("<svg") == 2
    assert f"http://table.test/v/{game_id}" in page
    assert f"http://table.test/g/{game_id}/{key}" in page


def test_qr_codes_decode_to_the_link(tmp_path):
    link = "http://192.168.1.20:5010/v/abcdefghijklmnopqrstuv"
    svg = tmp_path / "qr.svg"
    svg.write_text(str(qr_svg(link)))
    png = tmp_path / "qr.png"
    try:
        subprocess.run(
            ["rsvg-convert", "-w", "400", "-b", "white", "-o", str(png), str(svg)],
            check=True,
            capture_output=True,
        )
    except FileNotFoundError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("rsvg-convert is not installed (./scripts/test installs it)")
    out = subprocess.run(["zbarimg", "-q", "--raw", str(png)], capture_output=True, text=True)
    assert out.stdout.strip() == link


def test_polling_costs_nothing_while_the_game_is_unchanged(client):
    url = new_game(client)
    game_id, _ = _ids(url)
    first = client.get(f"/v/{game_id}", headers=HX)
    assert first.status_code == 200 and first.headers["ETag"]
    assert "HX-Request" in first.headers["Vary"]  # one URL: the page, or its live part
    shown = {"If-None-Match": first.headers["ETag"], **HX}
    again = client.get(f"/v/{game_id}", headers=shown)
    assert again.status_code == 304 and again.data == b""
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    changed = client.get(f"/v/{game_id}", headers=shown)
    assert changed.status_code == 200 and ">50</strong>" in changed.get_data(as_text=True)
    assert "<html" not in changed.get_data(as_text=True)  # the scoreboard alone


def _poll(client, path: str, html: str):
    """What htmx sends for the polling element in `html`: its URL and its If-None-Match."""
    board = read(html).one("section#scoreboard")
    etag = json.loads(board["hx-headers"])["If-None-Match"]
    assert re.fullmatch(r"every \d+s, live-refresh", board["hx-trigger"])
    url = board["hx-get"]
    assert url == path  # the page's own address
    return client.get(url, headers={"If-None-Match": etag, **HX})


@pytest.mark.parametrize("table", [False, True], ids=["view", "table"])
def test_the_swapped_in_scoreboard_keeps_polling_change_after_change(client, table):
    """The fragment a poll brings back must carry its own trigger, or the page freezes."""
    url = new_game(client)
    game_id, _ = _ids(url)
    page = f"/v/{game_id}" + ("/table" if table else "")
    html = client.get(page).get_data(as_text=True)
    for number in range(1, 4):
        assert _poll(client, page, html).status_code == 304  # idle
        record(client, url, number, went_out=0, points={1: 50, 2: 20})
        answer = _poll(client, page, html)
        assert answer.status_code == 200
        html = answer.get_data(as_text=True)
        assert f"Hand <strong>{number + 1}</strong>" in html
        assert ("scoreboard big" in html) is table


def test_the_scorekeeper_page_follows_other_phones_without_losing_its_form(client):
    url = new_game(client)
    game_id, key = _ids(url)
    html = client.get(url).get_data(as_text=True)
    assert _poll(client, url, html).status_code == 304
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    answer = _poll(client, url, html)
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and ">50</strong>" in body
    assert '<div id="record" hx-swap-oob="true">' in body and "Record hand 2" in body
    assert '<div id="hands" hx-swap-oob="true">' in body and f"{url}/hands/1" in body
    assert csrf(client) in body  # its forms still save
    assert _poll(client, url, body).status_code == 304


def test_the_scorekeepers_poll_needs_the_edit_key(client):
    url = new_game(client)
    game_id, key = _ids(url)
    for wrong in (f"/g/{game_id}/{game_id}", f"/g/{game_id}/{key[:-1]}x"):
        assert client.get(wrong, headers=HX).status_code == 404
        assert client.get(wrong, headers={"If-None-Match": '"1.0."', **HX}).status_code == 404


def test_polling_goes_on_at_the_end_and_a_correction_that_reopens_the_game_shows(client):
    url = new_game(client, players=("Ann", "Bob"), first="1")
    game_id, _ = _ids(url)
    html = client.get(f"/v/{game_id}").get_data(as_text=True)
    record(client, url, 1, went_out=0, points={1: 50})
    over = _poll(client, f"/v/{game_id}", html)
    assert over.status_code == 200  # it keeps asking: the table's next game is followed
    html = over.get_data(as_text=True)
    assert "Ann</bdi></strong> wins!" in html
    assert "made the one phase of this game" in html
    assert _poll(client, f"/v/{game_id}", html).status_code == 304  # the cheap check
    undone = client.post(f"{url}/undo", data={"csrf_token": csrf(client)})
    assert undone.status_code == 303  # the winning hand is taken back
    reopened = _poll(client, f"/v/{game_id}", html)
    assert reopened.status_code == 200
    assert "Hand <strong>1</strong>" in reopened.get_data(as_text=True)


def test_pages_carry_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    # the start page has no live part: it answers htmx as it answers any request
    assert "HX-Request" not in response.headers.get("Vary", "")


def test_player_names_are_escaped_everywhere(client):
    evil = "<script>alert(1)</script>"
    url = new_game(client, players=(evil, "Bob"))
    record(client, url, 1, went_out=1, points={0: 50})
    record(client, url, 2, went_out=1, points={0: 50})
    game_id, _ = _ids(url)
    for path, headers in ((url, {}), (f"{url}/hands/1", {}), (f"/v/{game_id}", {}), (url, HX)):
        page = client.get(path, headers=headers).get_data(as_text=True)
        assert evil not in page, path
        assert "&lt;script&gt;" in page, path


def test_every_watcher_sees_each_change_and_keeps_the_game_on_their_device(app, client):
    url = new_game(client)
    game_id, _ = _ids(url)
    first, second = app.test_client(), app.test_client()
    for watcher in (first, second):
        assert "Ann" in watcher.get(f"/v/{game_id}").get_data(as_text=True)
        assert f'href="/v/{game_id}"' in watcher.get("/").get_data(as_text=True)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    for watcher in (first, second):
        assert ">50</strong>" in watcher.get(f"/v/{game_id}").get_data(as_text=True)


def test_an_idle_poll_is_answered_from_the_games_row_alone(app, client, monkeypatch):
    """However long the game, an idle poll reads one row: never the game itself."""
    from scorekeeper import store
    from scorekeeper.reports import current_game

    url = new_game(client)
    game_id, key = _ids(url)
    pages = {}
    for path in (f"/v/{game_id}", f"/v/{game_id}/table", url):
        html = client.get(path).get_data(as_text=True)
        pages[path] = read(html).live()

    def no_reading(*args, **kwargs):
        raise AssertionError("an idle poll read the game")

    monkeypatch.setattr(current_game, "load", no_reading)
    monkeypatch.setattr(store.games, "get_game", no_reading)
    for path, shown in pages.items():
        idle = client.get(path, headers={**shown, **HX})
        assert idle.status_code == 304 and idle.headers["ETag"] == shown["If-None-Match"]


LOCALHOST_WARNING = {
    "en": "Other phones cannot open these links",
    "de": "Andere Handys können diese Links nicht öffnen",
    "es": "Otros teléfonos no pueden abrir estos enlaces",
}


@pytest.mark.parametrize("language", ["en", "de", "es"])
@pytest.mark.parametrize("host", ["localhost:5010", "127.0.0.1:5010", "[::1]:5010"])
def test_the_share_page_warns_when_its_links_point_to_this_computer(app, client, host, language):
    app.config["SERVER_NAME"] = None  # as `serve` runs it: links follow the browser's address
    url = new_game(client)
    page = client.get(
        f"{url}/share",
        base_url=f"http://{host}/",
        headers={"Accept-Language": f"{language},en;q=0.5"},
    ).get_data(as_text=True)
    assert f'value="http://{host}/v/' in page  # the link the QR code carries
    assert LOCALHOST_WARNING[language] in page
    assert "--host 0.0.0.0" in page and host in page  # and how to fix it


def test_the_share_page_links_to_the_address_phones_can_open(app, client):
    app.config["SERVER_NAME"] = None
    url = new_game(client)
    game_id, key = _ids(url)
    page = client.get(f"{url}/share", base_url="http://192.168.1.20:5010/").get_data(as_text=True)
    assert f'value="http://192.168.1.20:5010/v/{game_id}"' in page
    assert LOCALHOST_WARNING["en"] not in page


def test_the_share_page_uses_the_address_serve_announced_on_the_laptop(app, client):
    # The scorekeeper opened http://localhost:5010 on the laptop; `serve` found its LAN address.
    app.config.update(SERVER_NAME=None, PUBLIC_URL="http://192.168.1.20:5010/")
    url = new_game(client)
    game_id, key = _ids(url)
    page = client.get(f"{url}/share", base_url="http://localhost:5010/").get_data(as_text=True)
    assert f'value="http://192.168.1.20:5010/v/{game_id}"' in page
    assert f'value="http://192.168.1.20:5010/g/{game_id}/{key}"' in page
    assert LOCALHOST_WARNING["en"] not in page

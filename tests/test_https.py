"""HTTPS behind a reverse proxy: X-Forwarded-* trusted only when the operator says so,
Secure cookies on HTTPS, HSTS only when turned on; and Caddy in front for real."""

from __future__ import annotations

import json

import pytest
from caddy import caddy_in_front, caddy_or_skip
from printed import qr_codes, svg_qr_codes
from servers import PLAYERS, Server

from scorekeeper import create_app, store

pytestmark = pytest.mark.slow  # puts Caddy in front of a real server

FORGED = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}


@pytest.fixture
def make_app(tmp_path):
    def make(**config):
        settings = {"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x", **config}
        return create_app(settings)

    yield make
    store.close_all()


def created_links(app) -> list[str]:
    answer = app.test_client().post("/api/games", json={"players": ["Ann", "Bob"]}, headers=FORGED)
    assert answer.status_code == 201
    body = answer.get_json()
    return [body["view_url"], body["edit_url"], body["hands_url"], answer.headers["Location"]]


def test_forged_forwarded_headers_change_nothing_without_trust_proxy(make_app):
    for link in created_links(make_app()):
        assert link.startswith("http://localhost/"), link


def test_with_one_trusted_proxy_links_carry_its_scheme_and_host(make_app):
    for link in created_links(make_app(TRUST_PROXY=1)):
        assert link.startswith("https://evil.example/"), link


@pytest.mark.parametrize("value", ["yes", -1, "1.5"])
def test_a_trust_proxy_that_is_no_count_is_refused_with_the_settings_name(make_app, value):
    with pytest.raises(ValueError, match="SCOREKEEPER_TRUST_PROXY must be a whole number"):
        make_app(TRUST_PROXY=value)


def cookies_of(response) -> list[str]:
    return response.headers.getlist("Set-Cookie")


def test_cookies_are_secure_over_https_and_not_over_plain_http(make_app):
    app = make_app()
    for base, secure in (("https://scores.test/", True), ("http://192.168.1.50:5010/", False)):
        client = app.test_client()
        session = cookies_of(client.get("/", base_url=base))  # the CSRF token's session
        language = cookies_of(client.get("/language/de?next=/", base_url=base))
        assert session and language
        for cookie in session + language:
            assert ("; Secure" in cookie) is secure, cookie


def test_hsts_is_sent_only_when_the_operator_turns_it_on_and_only_over_https(make_app):
    quiet = make_app().test_client().get("/", base_url="https://scores.test/")
    assert "Strict-Transport-Security" not in quiet.headers
    client = make_app(HSTS_MAX_AGE=31536000).test_client()
    secure = client.get("/", base_url="https://scores.test/")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get("/").headers  # plain HTTP


def test_through_caddy_every_link_is_https_at_the_proxy_and_every_cookie_secure(tmp_path):
    """Caddy with `tls internal` in front of `serve` with SCOREKEEPER_TRUST_PROXY=1."""
    caddy_or_skip()
    server = Server(tmp_path / "games.sqlite3", env={"SCOREKEEPER_TRUST_PROXY": "1"}).start()
    try:
        with caddy_in_front(server.port, tmp_path / "caddy") as proxy:
            body = json.dumps({"players": PLAYERS}).encode()
            forged = {"Content-Type": "application/json", "X-Forwarded-Host": "evil.example"}
            status, headers, answer = proxy.request("POST", "/api/games", body, forged)
            assert status == 201
            created = json.loads(answer)
            game, key = created["id"], created["key"]
            view, edit = f"{proxy.base}/v/{game}", f"{proxy.base}/g/{game}/{key}"
            assert [created["view_url"], created["edit_url"], headers["Location"]] == [
                view,
                edit,
                view,
            ]
            _, _, share = proxy.request("GET", f"/g/{game}/{key}/share")
            assert svg_qr_codes(share.decode(), tmp_path) == [view, edit]
            _, _, sheet = proxy.request("GET", f"/v/{game}/print/score-sheet.pdf")
            assert qr_codes(sheet, tmp_path) == [view]
            _, first, _ = proxy.request("GET", "/")
            status, switched, _ = proxy.request("GET", "/language/de?next=/")
            assert status == 303 and not switched["Location"].startswith("http:")
            cookies = first.get_all("Set-Cookie", []) + switched.get_all("Set-Cookie", [])
            assert len(cookies) == 2 and all("; Secure" in cookie for cookie in cookies)
            status, _, health = proxy.request("GET", "/healthz")
            assert status == 200 and json.loads(health)["status"] == "ok"
    finally:
        server.stop()

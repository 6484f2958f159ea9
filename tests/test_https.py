"""HTTPS behind a reverse proxy: X-Forwarded-* trusted only when the operator says so,
Secure cookies on HTTPS, HSTS only when turned on; and Caddy in front for real."""

from __future__ import annotations

import json

import pytest
from caddy import caddy_in_front, caddy_or_skip
from flask import request
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
    store.connection.close_all()


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


@pytest.mark.parametrize("value", ["yes", -1, "1.5", "10.0.0.0/33", "127.0.0.1;10.0.0.1", True])
def test_a_trust_proxy_that_names_no_proxy_is_refused_with_the_settings_name(make_app, value):
    with pytest.raises(ValueError, match="SCOREKEEPER_TRUST_PROXY must name the proxy's addresses"):
        make_app(TRUST_PROXY=value)


# --- trusted only from the addresses named (issue 32) -------------------------------------

PROXIES = "127.0.0.1, 10.0.0.0/8, fd00::/8"
FORGED_FOR = {**FORGED, "X-Forwarded-For": "203.0.113.66"}


def seen(app, peer: str, headers: dict[str, str]) -> tuple[str, str]:
    """The address and URL a view sees for a request from ``peer`` with ``headers``."""
    if "whoami" not in app.view_functions:

        @app.get("/whoami")
        def whoami():
            return {"address": request.remote_addr, "url": request.url}

    answer = app.test_client().get("/whoami", headers=headers, environ_base={"REMOTE_ADDR": peer})
    return answer.get_json()["address"], answer.get_json()["url"]


@pytest.mark.parametrize("setting", [PROXIES, 1, "1"])
def test_forged_forwarded_headers_from_an_address_not_named_are_ignored(make_app, setting):
    app = make_app(TRUST_PROXY=setting)
    assert seen(app, "192.168.1.23", FORGED_FOR) == ("192.168.1.23", "http://localhost/whoami")


@pytest.mark.parametrize("peer", ["127.0.0.1", "10.20.30.40", "fd00::5"])
def test_a_named_proxys_headers_are_believed(make_app, peer):
    app = make_app(TRUST_PROXY=PROXIES)
    assert seen(app, peer, FORGED_FOR) == ("203.0.113.66", "https://evil.example/whoami")


def test_a_number_of_proxies_means_proxies_on_this_machine(make_app):
    assert seen(make_app(TRUST_PROXY=1), "127.0.0.1", FORGED_FOR)[0] == "203.0.113.66"
    assert seen(make_app(TRUST_PROXY=1), "::1", FORGED_FOR)[0] == "203.0.113.66"


@pytest.mark.parametrize(
    ("chain", "phone"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("198.51.100.1, 203.0.113.9", "203.0.113.9"),  # what the phone wrote itself: not read
        ("198.51.100.1, 203.0.113.9, 10.0.0.7", "203.0.113.9"),  # through two named proxies
        ("10.0.0.7", "10.0.0.7"),  # a phone on the proxies' own network
    ],
)
def test_the_phone_is_the_first_address_no_named_proxy_added(make_app, chain, phone):
    app = make_app(TRUST_PROXY=PROXIES)
    assert seen(app, "10.0.0.5", {"X-Forwarded-For": chain})[0] == phone


def test_forged_addresses_do_not_escape_a_rate_limit(make_app):
    """The attack: a new X-Forwarded-For on each guess of a short code, from an address that
    reaches the port directly; the limit counts the address that sent them."""
    app = make_app(TRUST_PROXY=1, RATE_LIMIT_CODE="3 per minute")
    client = app.test_client()
    statuses = [
        client.get(
            "/code?code=ABCD-EFGH",
            headers={"X-Forwarded-For": f"203.0.113.{guess}"},
            environ_base={"REMOTE_ADDR": "192.168.1.23"},
        ).status_code
        for guess in range(5)
    ]
    assert statuses[-1] == 429, statuses


def test_headers_from_an_address_not_named_are_logged_once(make_app, caplog):
    app = make_app(TRUST_PROXY=PROXIES)
    for _ in range(3):
        seen(app, "172.18.0.1", FORGED_FOR)
    said = [r.getMessage() for r in caplog.records if "X-Forwarded" in r.getMessage()]
    assert said == [
        "X-Forwarded-* headers from 172.18.0.1 ignored: it is not named in SCOREKEEPER_TRUST_PROXY"
    ]


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
    """Caddy with `tls internal` in front of `serve`, trusted by its address (127.0.0.1)."""
    caddy_or_skip()
    server = Server(tmp_path / "games.sqlite3", env={"SCOREKEEPER_TRUST_PROXY": "127.0.0.1"})
    server.start()
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

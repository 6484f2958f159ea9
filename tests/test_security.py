"""Security: unguessable links, a secret that stays secret, CSRF everywhere, inert user text.

The CSRF and key tests walk the app's url_map, so a route added later is
covered (or fails here) without anyone remembering to add it.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader
from servers import SLOW_MACHINE_SECONDS, free_port
from webpage import read
from webutil import csrf, export, new_game, new_table, player_links, record

from scorekeeper import store
from scorekeeper.store import schema
from scorekeeper.web.security import _exempt

ROOT = Path(__file__).resolve().parent.parent
STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
# Exempt from CSRF because they use no cookie: the checks change nothing, and the games
# API is authorised by the edit key in its URL. Adding one here needs a security review.
EXEMPT = {
    "api.check",
    "api.hit",
    "api.solve",
    "api.create_game",
    "api.record_hand",
    "api.rate",
}
KEY_CHARS = re.compile(r"^[A-Za-z0-9_-]{22,}$")  # url-safe base64: 22 characters = 132 bits


def game_parts(url: str) -> tuple[str, str]:
    game_id, key = url.rstrip("/").split("/")[-2:]
    return game_id, key


def version(app, game_id: str) -> int:
    return store.games.game_link(store.connection.connect(app.config["DATABASE"]), game_id).version


def game_count(app) -> int:
    return (
        store.connection.connect(app.config["DATABASE"])
        .execute("SELECT count(*) FROM games")
        .fetchone()[0]
    )


def two_hand_game(client, players=("Ann", "Bob", "Cy")) -> str:
    url = new_game(client, players=players)
    rest = dict.fromkeys(range(3, len(players)), 50)
    assert record(client, url, 1, went_out=0, points={1: 50, 2: 20, **rest}).status_code == 303
    assert record(client, url, 2, went_out=1, points={0: 55, 2: 60, **rest}).status_code == 303
    return url


# --- the links ---------------------------------------------------------------------------


def test_view_and_edit_links_carry_at_least_128_random_bits(client):
    seen = set()
    for _ in range(20):
        game_id, key = game_parts(new_game(client))
        assert KEY_CHARS.match(game_id) and KEY_CHARS.match(key)
        assert game_id != key
        seen |= {game_id, key}
    assert len(seen) == 40
    assert len({schema.new_key() for _ in range(10_000)}) == 10_000


def test_the_edit_key_is_compared_in_constant_time(app, client, monkeypatch):
    calls = []
    real = store.games.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(store.games.hmac, "compare_digest", spy)
    url = new_game(client)
    game_id, key = game_parts(url)
    calls.clear()
    wrong = key[:-1] + ("A" if key[-1] != "A" else "B")
    assert client.get(f"/g/{game_id}/{wrong}").status_code == 404
    api = client.post(f"/api/games/{game_id}/{wrong}/hands", json={"hand_number": 1, "hand": {}})
    assert api.status_code == 404
    assert (key.encode(), wrong.encode()) in calls and len(calls) >= 2


LIVE = {"HX-Request": "true"}  # what a page's own poll sends: its live part


def view_pages(game_id: str) -> list[tuple[str, dict[str, str]]]:
    return [
        (f"/v/{game_id}", {}),
        (f"/v/{game_id}/table", {}),
        (f"/v/{game_id}", LIVE),
        (f"/v/{game_id}/table", LIVE),
        (f"/api/games/{game_id}", {}),
        (f"/check?game={game_id}&player=1", {}),
        (f"/check/hand?game={game_id}&player=0", {}),
    ]


def test_the_edit_key_never_appears_on_anything_the_view_link_reaches(client):
    game_id, key = game_parts(two_hand_game(client))
    for page, headers in view_pages(game_id):
        response = client.get(page, headers=headers)
        assert response.status_code == 200, page
        assert key not in response.get_data(as_text=True), page
    pdf = client.get(f"/v/{game_id}/print/score-sheet.pdf").data
    assert key.encode() not in pdf
    assert key not in "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_a_games_short_code_leads_to_its_watch_page_and_never_to_its_edit_key(client):
    url = two_hand_game(client)
    game_id, key = game_parts(url)
    share = client.get(url + "/share").get_data(as_text=True)
    code = read(share).watch_code
    assert key not in code
    for path in (f"/{code}", f"/{code.lower()}", f"/code?code={code}"):
        response = client.get(path)
        assert response.headers["Location"] == f"/v/{game_id}", path
        page = client.get(path, follow_redirects=True).get_data(as_text=True)
        assert key not in page, path
    for path in (f"/v/{game_id}/table", f"/v/{game_id}/print/two-deck-guide.pdf"):
        response = client.get(path)
        assert code.encode() in response.data or path.endswith(".pdf"), path
        assert key.encode() not in response.data, path


def test_edit_pages_send_no_referrer_and_are_not_cached(client):
    url = two_hand_game(client)
    for page in ("", "/history", "/share", "/hands/1"):
        response = client.get(url + page)
        assert response.headers["Referrer-Policy"] == "no-referrer", page
        assert response.headers["Cache-Control"] == "no-store", page


def test_json_answers_carrying_a_key_are_not_cached(client):
    """Issue 32: the API's answers, the one with the new game's edit link included, had no
    Cache-Control, so a shared cache could keep an edit key."""
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]})
    assert created.status_code == 201 and "edit_url" in created.get_json()
    hands_url = created.get_json()["hands_url"]
    hand = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50}}
    recorded = client.post(hands_url, json=hand)
    read = client.get(created.get_json()["view_url"].replace("/v/", "/api/games/"))
    for response in (created, recorded, read):
        assert response.mimetype == "application/json"
        assert response.headers["Cache-Control"] == "no-store", response.request.path


@pytest.mark.server
def test_the_real_server_never_logs_the_edit_key(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1"]
        + ["--port", str(port), "--db", str(tmp_path / "g.sqlite3"), "--no-qr"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"

    def call(path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            base + path, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, {}

    try:
        deadline = time.monotonic() + SLOW_MACHINE_SECONDS
        while True:
            try:
                status, created = call("/api/games", {"players": ["Ann", "Bob", "Cy"]})
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert status == 201
        key = created["edit_url"].rsplit("/", 1)[1]
        hands = "/" + created["hands_url"].split("/", 3)[3]
        hand = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 50}}
        assert call(hands, {"hand_number": 1, "hand": hand})[0] == 201
        assert call(hands, {"hand_number": 1, "hand": {**hand, "went_out": "Bob"}})[0] == 409
        assert call(hands, {"hand_number": 2, "hand": {"went_out": "Zed"}})[0] == 422
        assert call(hands.replace("/hands", "/nowhere"))[0] == 404
        with urllib.request.urlopen(created["edit_url"], timeout=5) as page:
            assert page.status == 200
        assert call(created["edit_url"].split(str(port), 1)[1] + "/hands", {})[0] == 400
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    assert "Phase 10 Scorekeeper is running" in output
    assert key not in output


# --- CSRF, keys and the url_map ---------------------------------------------------------------


def state_changing_rules(app):
    for rule in app.url_map.iter_rules():
        methods = rule.methods & STATE_CHANGING
        if methods:
            yield rule, sorted(methods)


def endpoint_name(app, rule) -> str:
    view = app.view_functions[rule.endpoint]
    return f"{view.__module__}.{view.__name__}"


def test_only_reviewed_routes_skip_the_csrf_check(app):
    exempt = {
        rule.endpoint
        for rule, _ in state_changing_rules(app)
        if endpoint_name(app, rule) in _exempt
    }
    assert exempt == EXEMPT


def fill(
    rule, game_id: str, key: str, token: str = "x", table: str = "x", night: str = "x", **more
) -> str:
    """The rule's URL with the game's, table's and night's own parts (``more``: others,
    such as a season's id or a night's read-only link)."""
    values = {
        **more,
        "game_id": game_id,
        "key": key,
        "number": 1,
        "version": 1,
        "token": token,
        "table_id": table,
        "night_id": night,
    }
    return rule.build({name: values.get(name, "x") for name in rule.arguments})[1]


def new_night(client, table: str) -> str:
    """A club night at the table (seated, no game started), for its routes' checks."""
    data = {"csrf_token": csrf(client), "newcomers": "Ann\nBob", "rounds": "1"}
    data.update(profile="official", mode="random", scheme="placement", name="Night")
    response = client.post(f"/t/{table}/nights/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def new_season(client, table: str) -> str:
    """A season at the table, for its routes' checks."""
    data = {"csrf_token": csrf(client), "name": "Spring", "scheme": "placement"}
    data.update(starts="2026-03-01", ends="2026-05-31")
    response = client.post(f"/t/{table}/seasons", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def night_view(client, table: str, night: str) -> str:
    page = client.get(f"/t/{table}/nights/{night}").get_data(as_text=True)
    return re.search(r'value="http://[^/]+/e/([^"]+)"', page).group(1)


def test_every_state_changing_route_refuses_a_missing_or_wrong_csrf_token(app, client):
    url = two_hand_game(client)
    game_id, key = game_parts(url)
    before, games = version(app, game_id), game_count(app)
    other = app.test_client()
    stranger_token = csrf(other)  # a real token, but from another browser's session
    player = player_links(client, url)[1]["Ann"].rsplit("/", 1)[1]
    table = new_table(client).rsplit("/", 1)[1]
    night = new_night(client, table)
    others = {
        "season_id": new_season(client, table),
        "night_view": night_view(client, table, night),
    }
    checked = 0
    for rule, methods in state_changing_rules(app):
        if rule.endpoint in EXEMPT:
            continue
        target = fill(rule, game_id, key, player, table, night, **others)
        for method in methods:
            attempts = [
                {},
                {"data": {"csrf_token": "forged"}},
                {"data": {"csrf_token": stranger_token}},
                {"headers": {"X-CSRF-Token": "forged"}},  # as htmx sends it
            ]
            for attempt in attempts:
                response = client.open(target, method=method, **attempt)
                assert response.status_code == 400, f"{method} {target} {attempt}"
                assert "expired or came from elsewhere" in response.get_data(as_text=True)
                checked += 1
    # new, import, hands, check, edit, delete, undo, restore, and the renewed links
    renewals = {"games.renew", "players.renew", "tables.renew"}
    assert renewals <= {rule.endpoint for rule, _ in state_changing_rules(app)}
    assert checked >= 4 * 11
    assert (version(app, game_id), game_count(app)) == (before, games)


def test_a_view_link_or_a_wrong_key_cannot_change_a_game_on_any_route(app, client):
    url = two_hand_game(client)
    game_id, key = game_parts(url)
    before = version(app, game_id)
    token = csrf(client)
    wrong = "A" * len(key)
    checked = 0
    for rule, methods in state_changing_rules(app):
        if "key" not in rule.arguments:
            continue
        for bad_key in (game_id, wrong, key.lower() if key.lower() != key else key.upper()):
            target = fill(rule, game_id, bad_key)
            for method in methods:
                response = client.open(
                    target,
                    method=method,
                    data=None if rule.endpoint in EXEMPT else {"csrf_token": token},
                    json={"hand_number": 3, "hand": {}} if rule.endpoint in EXEMPT else None,
                )
                assert response.status_code == 404, f"{method} {target}"
                checked += 1
    assert checked >= 3 * 7
    assert version(app, game_id) == before
    # and the view page offers no way to change anything (only to forget it on this device)
    view = client.get(f"/v/{game_id}").get_data(as_text=True)
    assert [form.action for form in read(view).forms("form[method=post]")] == [
        f"/v/{game_id}/forget"
    ]
    assert "hx-post" not in view


def test_the_session_cookie_is_httponly_and_samesite_lax(client):
    response = client.get("/new")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


# --- headers and inline script ------------------------------------------------------------------


def get_pages(app, client) -> list[str]:
    url = two_hand_game(client)
    game_id, key = game_parts(url)
    pages = []
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods and not rule.endpoint.startswith("static"):
            pages.append(fill(rule, game_id, key))
    return pages


def test_every_page_sends_a_strict_csp_and_the_usual_security_headers(app, client):
    for page in get_pages(app, client):
        response = client.get(page.replace("/x.pdf", "/score-sheet.pdf"))
        headers = response.headers
        csp = headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, page
        assert "unsafe-eval" not in csp and "object-src 'none'" in csp, page
        assert "frame-ancestors 'none'" in csp, page
        assert headers["X-Content-Type-Options"] == "nosniff", page
        assert headers["X-Frame-Options"] == "DENY", page
        assert headers["Referrer-Policy"] == "no-referrer", page


class Tags(HTMLParser):
    """Every element, to find script or handlers that user text might have smuggled in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.inline_script = False
        self._in_script = False
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.inline_script = True
        self.text.append(data)


def parse(page: str) -> Tags:
    tags = Tags()
    tags.feed(page)
    return tags


def script_problems(page: str) -> list[str]:
    tags = parse(page)
    problems = ["inline script"] if tags.inline_script else []
    for tag, attrs in tags.elements:
        if tag == "script" and not attrs.get("src"):
            problems.append("a script without src")
        for name, value in attrs.items():
            if name.startswith("on"):
                problems.append(f"<{tag} {name}>")
            if name in ("href", "src", "action") and (value or "").strip().startswith("javascript"):
                problems.append(f"<{tag} {name}=javascript:>")
            if name == "data-pwn" or (name == "id" and (value or "").startswith("pwn")):
                problems.append(f"<{tag}> smuggled in by a player's name")
    return problems


@pytest.mark.parametrize("template", sorted(p.name for p in (ROOT / "templates").glob("*.html")))
def test_no_template_has_inline_script_or_event_handlers(template):
    text = (ROOT / "templates" / template).read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", text), "inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", text), "inline event handler"
    assert "javascript:" not in text


# --- user text comes out inert everywhere ---------------------------------------------------------

HTML_PAYLOADS = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2) data-pwn>',
    "'><svg onload=alert(3) id=pwn3>",
    "</text><a data-pwn href=javascript:x>",
    "{{31337*3}}<b id=pwn5>",
    "</title><i id=pwn6>",
)
FORMULA_PAYLOADS = (
    '=HYPERLINK("http://x","y")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "<b>bold</b><font color=red>",
    "Ann",
)


def names_game(client, names) -> str:
    return two_hand_game(client, players=names)


def test_payloads_in_player_names_come_out_as_text_on_every_html_page(app, client):
    url = names_game(client, HTML_PAYLOADS)
    game_id, _ = game_parts(url)
    pages = [
        *((page, {}) for page in (url, url + "/history", url + "/share", url + "/hands/1", "/new")),
        *view_pages(game_id),
        (url, LIVE),
    ]
    for page, headers in pages:
        if page.startswith("/api/"):
            continue
        response = client.get(page, headers=headers)
        assert response.status_code == 200, page
        body = response.get_data(as_text=True)
        assert script_problems(body) == [], page
        text = "".join(parse(body).text)
        assert "94011" not in text, page  # no template evaluation (31337 * 3)
    game_page = client.get(url).get_data(as_text=True)
    shown = "".join(parse(game_page).text)
    for name in HTML_PAYLOADS:
        assert name in shown, f"{name} should be shown as the text typed"
    assert "<svg" in game_page  # the score chart (two hands) is on the page, names and all


def test_payloads_in_player_names_are_plain_text_in_the_chart_svg(client):
    url = names_game(client, HTML_PAYLOADS)
    page = client.get(url).get_data(as_text=True)
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    tags = parse(svg)
    assert {tag for tag, _ in tags.elements} <= {"svg", "title", "line", "text", "polyline"}
    assert script_problems(svg) == []


def test_names_that_look_like_formulas_are_text_in_the_csv_export(client):
    url = names_game(client, FORMULA_PAYLOADS)
    rows = list(csv.reader(io.StringIO(client.get(url + "/export.csv").get_data(as_text=True))))
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]
    for name in FORMULA_PAYLOADS[:4]:
        assert "'" + name in rows[0]
    assert export(client, url)["players"] == list(FORMULA_PAYLOADS)


def test_names_with_markup_are_printed_literally_on_the_score_sheet(client):
    url = names_game(client, FORMULA_PAYLOADS)
    game_id, _ = game_parts(url)
    response = client.get(f"/v/{game_id}/print/score-sheet.pdf")
    assert response.status_code == 200
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
    text = text.replace("\n", " ")  # a long name wraps at its space, whole
    assert "<b>bold</b><font color=red>" in text
    assert '=HYPERLINK("http://x","y")' in text


def test_payload_names_travel_through_the_api_unchanged_and_as_json(client):
    created = client.post("/api/games", json={"players": list(HTML_PAYLOADS)}).get_json()
    response = client.get(f"/api/games/{created['id']}")
    assert response.mimetype == "application/json"
    assert response.get_json()["game"]["players"] == list(HTML_PAYLOADS)
    view = client.get(f"/v/{created['id']}").get_data(as_text=True)
    assert script_problems(view) == []


def test_a_crash_on_an_edit_route_logs_no_edit_key(tmp_path, caplog):
    from webutil import new_game

    from scorekeeper import create_app

    app = create_app({"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x"})

    @app.get("/g/<game_id>/<key>/boom")
    def boom(game_id, key):
        raise RuntimeError("boom")

    client = app.test_client()
    url = new_game(client)
    key = url.split("/")[3]
    with caplog.at_level("ERROR"):
        response = client.get(f"{url}/boom")
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Something went wrong" in page and "Traceback" not in page
    assert "/boom" in caplog.text
    assert key not in caplog.text

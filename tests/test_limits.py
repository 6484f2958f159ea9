"""Rate limits: the limited views keep theirs, an operator's app-wide limit still applies."""

from __future__ import annotations

import io
import json

import hostile_backups as hostile
import pytest
from webutil import csrf, player_links

from scorekeeper import actions, create_app, store
from scorekeeper.rules.nights import Mode, Scheme


def _app(tmp_path, **config):
    return create_app(
        {"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x", "TESTING": True, **config}
    )


def test_limited_views_keep_their_limits_without_the_check_before_every_request(tmp_path):
    app = _app(tmp_path, RATE_LIMIT_CHECK="2 per minute")
    client = app.test_client()
    answers = [client.get("/api/check?group=R1 R2").status_code for _ in range(3)]
    assert answers == [200, 200, 429]
    assert all(client.get("/rules").status_code == 200 for _ in range(5))  # not limited
    store.connection.close_all()


def test_an_operators_limit_for_every_page_still_applies(tmp_path):
    app = _app(tmp_path, RATELIMIT_APPLICATION="3 per minute")
    client = app.test_client()
    answers = [client.get("/rules").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    store.connection.close_all()


# --- every route that creates something: one limit, one clear refusal -------------------


def _rows(app) -> tuple[int, ...]:
    db = store.connection.connect(app.config["DATABASE"])
    found = (db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in CREATED)
    return tuple(found)


CREATED = ("games", "changes", "tables", "table_games", "hand_entries")
GAME = {"players": ["Ann", "Bob"], "dealer": "Ann", "hands": []}


def _started(app) -> str:
    """A game's scorekeeper link, started without a request (no limit counts it)."""
    saved = actions.games.start_game(store.connection.connect(app.config["DATABASE"]), dict(GAME))
    stored = saved.current.stored
    return f"/g/{stored.id}/{stored.edit_key}"


def _form(client, **fields) -> dict:
    return {"csrf_token": csrf(client), **fields}


def _new_game(client, _ready):
    return client.post("/new", data=_form(client, **{"player-0": "Ann", "player-1": "Bob"}))


def _import_game(client, _ready):
    return client.post("/import", data=_form(client, text=json.dumps(GAME)))


def _rematch(client, ready):
    return client.post(f"{ready.pop()}/rematch", data=_form(client))


def _new_table(client, _ready):
    return client.post("/tables/new", data=_form(client, name="The Smiths"))


def _import_table(client, _ready):
    upload = (io.BytesIO(hostile.backup(hostile.index())), "table.zip")
    return client.post("/tables/import", data=_form(client, file=upload))


def _api_create(client, _ready):
    return client.post("/api/games", json=GAME)


def _send_points(client, ready):
    return client.post(ready.pop(), data=_form(client, points="25", hand_number="1"))


CREATING = {
    "a new game": _new_game,
    "an imported game": _import_game,
    "a rematch": _rematch,
    "a new table": _new_table,
    "an imported table": _import_table,
    "a game through the API": _api_create,
    "points from a player's phone": _send_points,
}


@pytest.mark.parametrize("route", list(CREATING), ids=list(CREATING))
def test_every_route_that_creates_something_is_limited_with_one_clear_refusal(tmp_path, route):
    app = _app(
        tmp_path,
        SERVER_NAME="table.test",
        RATE_LIMIT_CREATE="1 per minute",
        RATE_LIMIT_SEND="1 per minute",
    )
    phone = app.test_client()
    ready = [_started(app), _started(app)]  # for a rematch each, or a player link each
    if route == "points from a player's phone":
        ready = ["/" + player_links(phone, url)[1]["Ann"].split("/", 3)[3] for url in ready]
    assert CREATING[route](phone, ready).status_code in (201, 303)
    before = _rows(app)
    refused = CREATING[route](phone, ready)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"]
    if route == "a game through the API":
        assert refused.get_json() == {
            "error": "Too many requests from this address. Wait, then try again (see Retry-After)."
        }
    else:
        page = refused.get_data(as_text=True)
        assert "Too many requests" in page and "Wait a minute, then try again" in page
    assert _rows(app) == before  # nothing was made
    store.connection.close_all()


# --- an IPv6 /64 is one address (issue 38) ---------------------------------------------

ONE_ADDRESS = [
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"),  # one /64: a home or a phone
    ("::ffff:198.51.100.7", "198.51.100.7"),  # IPv4-mapped IPv6 is the IPv4 address
]
TWO_ADDRESSES = [("2001:db8:1:2::1", "2001:db8:1:3::1"), ("198.51.100.7", "198.51.100.8")]


def _code_lookups(app, *addresses: str) -> list[int]:
    client = app.test_client()
    return [
        client.get("/code?code=ABCD-EFGH", environ_base={"REMOTE_ADDR": address}).status_code
        for address in addresses
    ]


@pytest.mark.parametrize(("first", "second"), ONE_ADDRESS)
def test_a_rate_limit_counts_an_ipv6_64_as_one_address(tmp_path, first, second):
    """Limits counted each exact address: a /64 gave an attacker every address it needed."""
    app = _app(tmp_path, RATE_LIMIT_CODE="2 per minute")
    assert _code_lookups(app, first, first, second)[-1] == 429
    store.connection.close_all()


@pytest.mark.parametrize(("first", "second"), TWO_ADDRESSES)
def test_a_rate_limit_counts_other_networks_apart(tmp_path, first, second):
    app = _app(tmp_path, RATE_LIMIT_CODE="2 per minute")
    assert _code_lookups(app, first, first, second)[-1] != 429
    store.connection.close_all()


def test_the_games_a_backup_brings_count_an_ipv6_64_as_one_address(tmp_path):
    app = _app(tmp_path, RATE_LIMIT_IMPORTED_GAMES="1 per day")
    statuses = []
    for address in ("2001:db8:1:2::1", "2001:db8:1:2::2"):
        phone = app.test_client()
        phone.environ_base["REMOTE_ADDR"] = address
        statuses.append(_import_table(phone, []).status_code)
    assert statuses == [303, 429]
    store.connection.close_all()


# --- every PDF: anyone with a read-only link may ask, each may cost a second -----------------


def _pdfs(app) -> dict[str, str]:
    """A path of each PDF route: the standard set, a game's sheet, a night's two printables."""
    db = store.connection.connect(app.config["DATABASE"])
    game = actions.games.start_game(db, dict(GAME)).current.stored
    table = actions.tables.create_table(db, "Thursday club")
    night = actions.nights.create_night(
        db,
        table.id,
        name="Club night",
        players=["Ann", "Bob", "Cy"],
        rounds=1,
        profile="ten-hands",
        mode=Mode.RANDOM,
        scheme=Scheme.PLACEMENT,
    )
    actions.nights.start_round(db, night)
    return {
        "a standard printable": "/printables/score-sheet-a4.pdf",
        "a game's sheet": f"/v/{game.id}/print/score-sheet.pdf",
        "a game's cards": f"/v/{game.id}/print/phase-cards.pdf",
        "a night's seating cards": f"/e/{night.view_id}/print/seating-1.pdf",
        "a night's standings": f"/e/{night.view_id}/print/standings.pdf",
    }


@pytest.mark.parametrize(
    "route",
    [
        "a standard printable",
        "a game's sheet",
        "a game's cards",
        "a night's seating cards",
        "a night's standings",
    ],
)
def test_every_pdf_is_limited_with_one_clear_refusal(tmp_path, route):
    app = _app(tmp_path, SERVER_NAME="table.test", RATE_LIMIT_PRINT="2 per minute")
    path = _pdfs(app)[route]
    reader = app.test_client()
    first = reader.get(path)
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    assert reader.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    refused = reader.get(path)
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert "Wait a minute, then try again" in refused.get_data(as_text=True)
    store.connection.close_all()


def test_the_pdfs_share_one_count_per_address(tmp_path):
    app = _app(tmp_path, SERVER_NAME="table.test", RATE_LIMIT_PRINT="3 per minute")
    paths = _pdfs(app)
    reader = app.test_client()
    answers = [reader.get(path).status_code for path in paths.values()]
    assert answers == [200, 200, 200, 429, 429]
    store.connection.close_all()

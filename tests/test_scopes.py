"""Scopes that hold: a game's scorekeeper link changes the game's hands and nothing about
the table it belongs to (issue 38). Filing, moving and taking a game out of a table, and
undoing any of those, are the table's, by the table's link.

The routes a game's link reaches are walked from the app's url_map, so a route added
later is tried here without anyone remembering to add it.
"""

from __future__ import annotations

import html

import pytest
from webpage import read
from webutil import csrf, new_game, new_table, player_links, record, table_game

from scorekeeper import actions, create_app, store
from scorekeeper.store import tables

GAME_SCOPE = ("key", "token")  # a route with either in its address is opened by a game's link


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def _post(client, url: str, **fields):
    return client.post(url, data={"csrf_token": csrf(client), **fields})


def _game_id(url: str) -> str:
    return url.split("/g/", 1)[1].split("/")[0]


def _table_id(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _db(app):
    return store.connection.connect(app.config["DATABASE"])


def _table_of(app, url: str) -> str | None:
    return tables.table_of_game(_db(app), _game_id(url))


def _version(app, url: str) -> int:
    return store.games.game_link(_db(app), _game_id(url)).version


def _filed(client, table: str) -> str:
    """A game started in no table, then filed into ``table`` by its link, with a hand."""
    game = new_game(client)
    assert _post(client, f"{table}/games", link=game).status_code == 303
    assert record(client, game, 1, 0, {1: 50, 2: 50}).status_code == 303
    return game


def _undo_links(client, table: str) -> list[str]:
    forms = read(client.get(table).get_data(as_text=True)).forms("form[method=post]")
    return [f.action for f in forms if f.action.startswith("/t/") and f.action.endswith("/undo")]


# --- the finding: Undo from a game's link took the game out of its table ---------------


def test_a_guest_with_a_games_link_cannot_undo_it_out_of_the_familys_table(app, client):
    family = new_table(client)
    game = _filed(client, family)
    guest = app.test_client()  # another browser, holding only the game's scorekeeper link
    hand = _post(guest, f"{game}/undo", version=_version(app, game))
    assert hand.status_code == 303  # the hand is the game's own: undone
    filing = _post(guest, f"{game}/undo", version=_version(app, game))
    assert filing.status_code == 409
    assert "Undo stops here" in _text(filing) and "table's page" in _text(filing)
    assert _table_of(app, game) == _table_id(family)
    theirs = new_table(guest, "Guests")
    taken = _post(guest, f"{theirs}/games", link=game)
    assert taken.status_code == 422 and "belongs to another table" in _text(taken)
    assert _table_of(app, game) == _table_id(family)
    # a new scorekeeper link from the guest's phone: the family's page opens it still
    share = _post(guest, f"{game}/renew").headers["Location"]
    assert "The game's table lists it with its new link" in _text(guest.get(share))
    renewed = share.removesuffix("/share")
    assert client.get(game).status_code == 404  # the old link stops, as it should
    assert renewed in read(client.get(family).get_data(as_text=True)).links()
    assert client.get(renewed).status_code == 200


def test_the_history_cannot_take_a_game_out_of_its_table_either(app, client):
    """Going back to any version (even one from before the filing), then Undo as often as
    it goes: the play goes back, the table stays."""
    family = new_table(client)
    game = _filed(client, family)
    record(client, game, 2, 1, {0: 50, 2: 50})
    guest = app.test_client()
    for version in range(1, _version(app, game)):
        restored = _post(guest, f"{game}/history/{version}/restore", version=_version(app, game))
        assert restored.status_code == 303, version
        assert _table_of(app, game) == _table_id(family)
        for _tap in range(10):
            if _post(guest, f"{game}/undo", version=_version(app, game)).status_code != 303:
                break
            assert _table_of(app, game) == _table_id(family)
    assert _table_of(app, game) == _table_id(family)
    assert "Moved into the table" in _text(client.get(f"{game}/history"))


# --- every route a game's link reaches ---------------------------------------------------


def _scope_rules(app):
    for rule in app.url_map.iter_rules():
        if any(name in rule.arguments for name in GAME_SCOPE):
            yield rule, sorted(rule.methods - {"HEAD", "OPTIONS"})


def _scope_endpoints() -> list[str]:
    """The endpoints a game's link opens, read from an app's url_map at collection."""
    app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "collect"})
    found = sorted({rule.endpoint for rule, _methods in _scope_rules(app)})
    store.connection.close_all()
    return found


SCOPE_ENDPOINTS = _scope_endpoints()


def test_every_route_a_games_link_reaches_is_tried_below(app):
    assert {rule.endpoint for rule, _methods in _scope_rules(app)} == set(SCOPE_ENDPOINTS)
    assert len(SCOPE_ENDPOINTS) >= 24


@pytest.mark.exhaustive
@pytest.mark.parametrize("endpoint", SCOPE_ENDPOINTS)
def test_a_route_a_games_link_reaches_leaves_its_table_alone(app, client, endpoint):
    """Each GET and POST under /g/<game>/<key>/, the API's /api/games/<id>/<key>/ and the
    players' /p/<game>/<token>, sent three times over with every field the table routes
    read (another table, its link, the game's link), each followed by Undo tapped until it
    stops: the game stays in its table."""
    family = new_table(client)
    other = new_table(client, "The Cousins")
    game = _filed(client, family)
    record(client, game, 2, 1, {0: 50, 2: 50})
    game_id = _game_id(game)
    guest = app.test_client()
    token = csrf(guest)
    sent = 0
    for _round in range(3):
        for rule, methods in _scope_rules(app):
            if rule.endpoint != endpoint:
                continue
            for method in methods:
                for values in _fillings(app, guest, rule, game_id):
                    url = rule.build(values)[1]
                    stored = store.games.get_game(_db(app), game_id)
                    form = {
                        "csrf_token": token,
                        "version": str(stored.version),
                        "hand_number": str(len(stored.state["hands"]) + 1),
                        "went_out": "0",
                        **{f"points-{seat}": "50" for seat in (1, 2)},
                        "points": "20",
                        "table": _table_id(other),
                        "to": other,
                        "link": url,
                        "game": game_id,
                    }
                    if rule.rule.startswith("/api/"):
                        body = {"hand_number": 3, "hand": {"went_out": "Ann", "points": {}}}
                        response = guest.open(url, method=method, json=body)
                    else:
                        response = guest.open(url, method=method, data=form)
                    assert response.status_code < 500, (method, url)
                    for _tap in _undone(app, guest, game_id, token):  # and back, all the way
                        assert _table_of(app, game) == _table_id(family), (method, rule.rule)
                        assert store.games.deleted_game(_db(app), game_id) is None, (
                            method,
                            rule.rule,
                        )
                    sent += 1
    assert sent >= 3
    assert game_id in client.get(family).get_data(as_text=True)


def _undone(app, guest, game_id: str, token: str):
    """Tap the game's Undo until it does nothing more (yielding before the first tap and
    after each): whatever a route did, Undo is the way back it offers."""
    yield
    for _tap in range(200):
        stored = store.games.get_game(_db(app), game_id)
        url = f"/g/{game_id}/{stored.edit_key}/undo"
        answer = guest.post(url, data={"csrf_token": token, "version": str(stored.version)})
        if answer.status_code != 303:
            return
        yield


def _fillings(app, guest, rule, game_id: str) -> list[dict]:
    """The values for a route's address: the game's current key, each player's link, each
    hand and each version of its history."""
    stored = store.games.get_game(_db(app), game_id)
    base = {"game_id": game_id, "key": stored.edit_key}
    if "token" in rule.arguments:
        pick, seats = player_links(guest, f"/g/{game_id}/{stored.edit_key}")
        links = [pick, *seats.values()]
        return [{**base, "token": link.rsplit("/", 1)[1]} for link in links]
    if "version" in rule.arguments:
        return [{**base, "version": v} for v in range(1, stored.version + 1)]
    if "number" in rule.arguments:
        hands = max(1, len(stored.state["hands"]))
        return [{**base, "number": n} for n in range(1, hands + 1)]
    return [base]


# --- the table's own Undo of a move ----------------------------------------------------


def test_the_table_undoes_a_filing_from_its_own_page(app, client):
    family = new_table(client)
    game = new_game(client, players=("Dee", "Eve"))
    assert _post(client, f"{family}/games", link=game).status_code == 303
    [undo] = _undo_links(client, family)
    assert undo == f"/t/{_table_id(family)}/games/{_game_id(game)}/undo"
    assert "Undo the move" in _text(client.get(family))
    done = _post(client, undo, version=_version(app, game))
    assert done.status_code == 303
    assert "Undone: Moved into the table The Smiths" in _text(client.get(family))
    assert _table_of(app, game) is None
    assert "Dee, Eve</strong>" not in _text(client.get(family)).replace("<bdi>", "")


def test_the_table_a_game_was_moved_to_takes_the_move_back(app, client):
    family = new_table(client)
    cousins = new_table(client, "The Cousins")
    game = table_game(client, family)
    record(client, game, 1, 0, {1: 50, 2: 50})
    moved = _post(client, f"{family}/games/{_game_id(game)}/move", to=cousins)
    assert "“Undo the move” beside it on that table's page" in _text(client.get(family))
    assert moved.status_code == 303
    assert _undo_links(client, family) == []  # not its game any more
    [undo] = _undo_links(client, cousins)
    assert _post(client, undo, version=_version(app, game)).status_code == 303
    assert _table_of(app, game) == _table_id(family)
    assert "Undone: Moved from the table The Smiths to The Cousins" in _text(client.get(cousins))
    assert _undo_links(client, family) == []  # the hand before it is the game's own to undo


def test_the_tables_undo_takes_back_only_a_move_and_only_its_own(app, client):
    family = new_table(client)
    cousins = new_table(client, "The Cousins")
    game = _filed(client, family)
    undo = f"{family}/games/{_game_id(game)}/undo"
    assert _undo_links(client, family) == []  # a hand came after the filing
    later = _post(client, undo, version=_version(app, game))
    assert later.status_code == 409 and "Undo its later changes" in _text(later)
    assert _post(client, f"{game}/undo", version=_version(app, game)).status_code == 303
    stale = _post(client, undo, version=_version(app, game) - 1)
    assert stale.status_code == 409 and "Another phone changed this game" in _text(stale)
    elsewhere = _post(client, f"{cousins}/games/{_game_id(game)}/undo", version=1)
    assert elsewhere.status_code == 404  # not that table's game
    assert _table_of(app, game) == _table_id(family)
    assert _post(client, undo, version=_version(app, game)).status_code == 303
    assert _table_of(app, game) is None


def test_a_table_cannot_undo_a_move_of_a_game_it_no_longer_holds(app, client):
    """The table's Undo checks, in the write's own transaction, that the game is in that
    table still: the table it left finds a conflict, and nothing is written."""
    family = new_table(client)
    cousins = new_table(client, "The Cousins")
    game = table_game(client, family)
    assert _post(client, f"{family}/games/{_game_id(game)}/move", to=cousins).status_code == 303
    version = _version(app, game)
    result = actions.undo.undo_move(_db(app), _game_id(game), version, _table_id(family))
    assert isinstance(result, actions.results.Conflict)
    assert _version(app, game) == version
    assert _table_of(app, game) == _table_id(cousins)

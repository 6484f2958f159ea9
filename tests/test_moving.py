"""Moving a game between tables: only the table a game is in can let it go, the move is in
the game's history, and the table it is in takes it back ("Undo the move"; the game's own
Undo stops there: tests/test_scopes.py)."""

from __future__ import annotations

import html

from webutil import csrf, new_game, new_table, plain_names, record, table_game

from scorekeeper import store
from scorekeeper.store import tables


def _text(response) -> str:
    return plain_names(html.unescape(response.get_data(as_text=True)))


def _post(client, url: str, **fields):
    return client.post(url, data={"csrf_token": csrf(client), **fields})


def _game_id(url: str) -> str:
    return url.split("/g/", 1)[1].split("/")[0]


def _table_id(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _table_of(app, url: str) -> str | None:
    return tables.table_of_game(store.connection.connect(app.config["DATABASE"]), _game_id(url))


def _version(client, url: str) -> str:
    return _text(client.get(url)).split('name="version" value="', 1)[1].split('"', 1)[0]


def test_a_guest_with_a_games_scorekeeper_link_cannot_take_it_into_their_own_table(app, client):
    family = new_table(client)
    game = table_game(client, family)
    record(client, game, 1, 0, {1: 50, 2: 50})
    guest = app.test_client()  # another phone: it holds the game's scorekeeper link only
    theirs = new_table(guest, "Guests")
    refused = _post(guest, f"{theirs}/games", link=game)
    assert refused.status_code == 422
    assert "belongs to another table. Only that table can let it go" in _text(refused)
    assert _table_of(app, game) == _table_id(family)
    assert "Ann, Bob, Cy</strong>" in _text(client.get(family))
    assert "Ann, Bob, Cy</strong>" not in _text(guest.get(theirs))
    history = _text(client.get(f"{game}/history"))
    assert "Moved" not in history


def _undo_move(client, table: str, game: str):
    """The table's "Undo the move" beside the game."""
    return _post(client, f"{table}/games/{_game_id(game)}/undo", version=_version(client, game))


def test_a_game_in_no_table_moves_in_by_its_link_and_undo_takes_it_out_again(app, client):
    game = new_game(client, players=("Dee", "Eve"))
    table = new_table(client)
    assert _post(client, f"{table}/games", link=game).status_code == 303
    assert _table_of(app, game) == _table_id(table)
    assert "Moved into the table The Smiths" in _text(client.get(f"{game}/history"))
    again = _post(client, f"{table}/games", link=game)
    assert again.status_code == 422 and "in this table already" in _text(again)
    undo = _undo_move(client, table, game)
    assert undo.status_code == 303
    assert _table_of(app, game) is None
    assert "Dee, Eve</strong>" not in _text(client.get(table))


def test_a_table_lets_a_game_go_to_another_table_by_that_tables_link(app, client):
    family = new_table(client)
    cousins = new_table(client, "The Cousins")
    game = table_game(client, family)
    record(client, game, 1, 0, {1: 50, 2: 50})
    game_id = _game_id(game)
    move = f"{family}/games/{game_id}/move"
    page = client.get(move)
    assert page.status_code == 200 and "The other table's link" in _text(page)
    assert f"/t/{_table_id(family)}/games/{game_id}/move" in _text(client.get(family))
    wrong = _post(client, move, to="https://example.org/t/not-a-table-link")
    assert wrong.status_code == 422 and "not the link of a table here" in _text(wrong)
    moved = _post(client, move, to=cousins)
    assert moved.status_code == 303
    assert _table_of(app, game) == _table_id(cousins)
    assert "Ann, Bob, Cy</strong>" not in _text(client.get(family))
    assert "Ann, Bob, Cy</strong>" in _text(client.get(cousins))
    history = _text(client.get(f"{game}/history"))
    assert "Moved from the table The Smiths to The Cousins" in history
    assert "hand 2" in _text(client.get(game)).lower()  # its play is as it was
    undo = _undo_move(client, cousins, game)
    assert undo.status_code == 303
    assert "Undone: Moved from the table The Smiths to The Cousins" in _text(client.get(cousins))
    assert _table_of(app, game) == _table_id(family)


def test_a_move_back_survives_a_new_link_for_the_table_it_came_from(app, client):
    family = new_table(client)
    cousins = new_table(client, "The Cousins")
    game = table_game(client, family)
    _post(client, f"{family}/games/{_game_id(game)}/move", to=cousins)
    renewed = _post(client, f"{family}/renew").headers["Location"]
    _undo_move(client, cousins, game)
    assert _table_of(app, game) == _table_id(renewed)


def test_only_the_table_a_game_is_in_offers_to_move_it(client):
    family = new_table(client)
    cousins = new_table(client, "The Cousins")
    game_id = _game_id(table_game(client, family))
    assert client.get(f"{cousins}/games/{game_id}/move").status_code == 404
    assert _post(client, f"{cousins}/games/{game_id}/move", to=cousins).status_code == 404

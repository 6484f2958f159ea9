"""One number reader everywhere: a number in an address, a query or a form is read by
``web/forms.py``'s strict reader, so digits of other scripts, signs, exponents and huge
numbers get the page or a 4xx, never a 500, and never pass for another number.

The fields are found, not listed: every route of the app's url_map, the forms and links
of the pages those routes and their links give, and the API's own description.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import pytest
from crawl import forms_and_links, numeric_query, walk
from webpage import read
from webutil import csrf, new_game, new_table, player_links, record, table_game

from scorekeeper import store
from scorekeeper.web.blueprints import tables as table_pages
from scorekeeper.web.blueprints.api import description

# superscript, Arabic-Indic and full-width digits; a sign; an exponent; Python's own
# spellings; a number no column holds; an empty-looking one
ODD = ["²", "٣", "３", "-1", "+1", "1e3", "1_0", "0x1", "9" * 30, "1.5", "\u00a0"]


def test_a_page_number_in_other_digits_is_no_500_and_no_other_page(app, client, monkeypatch):
    """``?page=²`` answered 500 (isdigit() said yes, int() said no), and ``?page=٣`` was
    read as page 3."""
    monkeypatch.setattr(table_pages, "GAMES_A_PAGE", 1)
    url = new_table(client)
    for _game in range(3):
        table_game(client, url)
    assert "Page 3 of 3" in client.get(f"{url}?page=3").get_data(as_text=True)
    for odd in ("²", "٣", "３", "-3", "3.0", "1e1", "9" * 30):
        page = client.get(f"{url}?page={quote(odd)}")
        assert page.status_code == 200, odd
        assert "Page 1 of 3" in page.get_data(as_text=True), odd


@pytest.fixture
def evening(app, client, monkeypatch) -> list[str]:
    """The pages of an evening: a table of two pages of games, one of them with two hands,
    a game in no table, a night at the table (the addresses to start walking from)."""
    monkeypatch.setattr(table_pages, "GAMES_A_PAGE", 1)
    app.config["RATING_TRIALS"] = 5  # "How hard is this list?" is sent many times
    table = new_table(client)
    table_game(client, table)
    game = table_game(client, table)
    record(client, game, 1, 0, {1: 50, 2: 20})
    record(client, game, 2, 1, {0: 55, 2: 60})
    alone = new_game(client, players=("Dee", "Eve"))
    data = {"csrf_token": csrf(client), "newcomers": "Fay\nGus\nHal", "rounds": "2"}
    data.update(profile="official", mode="random", scheme="placement", name="Night")
    night = client.post(f"{table}/nights/new", data=data).headers["Location"]
    game_id = game.split("/")[-2]
    code = store.games.get_game(store.connection.connect(app.config["DATABASE"]), game_id).code
    rules = [rule.rule for rule in app.url_map.iter_rules() if "GET" in rule.methods]
    plain = [rule for rule in rules if "<" not in rule]
    return [
        *plain,
        table,
        game,
        alone,
        night,
        f"/v/{game_id}",
        f"/{code}",
        player_links(client, game)[1]["Bob"].replace("http://table.test", ""),
        "/check?rules=super-wild&phase=7",
        f"/check?game={game_id}",
        f"/check/hit?game={game_id}",
        f"/check/hand?game={game_id}",
    ]


@pytest.mark.exhaustive
def test_every_numeric_field_of_every_form_and_link_refuses_odd_digits(app, client, evening):
    sent: set[str] = set()
    token = csrf(client)
    forms_seen: set[tuple[str, str, tuple[str, ...]]] = set()
    for url, page in walk(client, evening):
        forms, links = forms_and_links(page, url)
        for form in forms:
            for action, button in form.ways():
                fields = _one_per_seat(form.numeric)
                shape = (_endpoint(app, action, form.method), tuple(button), *_kinds(fields))
                if shape in forms_seen:
                    continue  # the same form of another game: its fields are tried already
                forms_seen.add(shape)
                for name in fields:
                    for odd in ODD:
                        data = {**form.data(**{name: odd}), **button}
                        data.setdefault("csrf_token", token)
                        if form.method == "GET":
                            response = client.get(_with_query(action, data))
                        else:
                            response = client.post(action, data=data)
                        assert response.status_code < 500, (action, name, odd)
                    sent.add(name)
        for link in links:
            for name in numeric_query(link):
                for odd in ODD:
                    query = [(k, odd if k == name else v) for k, v in _query(link)]
                    response = client.get(_with_query(link, query))
                    assert response.status_code < 500, (link, name, odd)
                sent.add(name)
    # the enumeration found the fields it is for (a walk that found nothing proves nothing)
    expected = {"version", "hand_number", "points-2", "dealer", "rounds", "tables", "page"}
    expected |= {"phase", "went_out", "turns", "layout", "player", "low-2", "points"}
    assert expected <= sent, sorted(expected - sent)


@pytest.mark.exhaustive
def test_every_number_in_an_address_refuses_odd_digits(app, client):
    """Each ``<int:...>`` of the url_map, given odd digits: a wrong address (404)."""
    url = new_game(client)
    game_id, key = url.split("/")[-2:]
    token = csrf(client)
    checked = 0
    for rule in app.url_map.iter_rules():
        numbers = [name for name, kind in rule._converters.items() if kind.regex == "[0-9]{1,9}"]
        if not numbers:
            continue
        values = {name: "x" for name in rule.arguments}
        values.update(game_id=game_id, key=key, **dict.fromkeys(numbers, 424242))
        path = rule.build(values)[1]
        for odd in ODD:
            target = path.replace("424242", quote(odd))
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                response = client.open(target, method=method, data={"csrf_token": token})
                assert response.status_code == 404, (method, target)
                checked += 1
    assert checked >= 4 * len(ODD)


@pytest.mark.exhaustive
def test_every_numeric_parameter_of_the_api_refuses_odd_digits(client):
    """The API's query parameters (all text) and the integers of its request bodies, as
    docs/openapi.json describes them."""
    spec = description()
    checked = 0
    for path, item in spec["paths"].items():
        if "{" in path:
            continue  # a game's: its body is tried below, through a real game
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") != "query":
                    continue
                for odd in ODD:
                    response = client.get(f"{path}?{urlencode({parameter['name']: odd})}")
                    assert response.status_code < 500, (method, path, parameter["name"], odd)
                    checked += 1
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            for name, schema in _properties(spec, body).items():
                if schema.get("type") != "integer":
                    continue
                for odd in [*ODD, -1, 10**30, 1e3, 2.5, True]:
                    response = client.post(path, json={name: odd, **_required(path)})
                    assert response.status_code < 500, (path, name, odd)
                    checked += 1
    game = client.post("/api/games", json={"players": ["Ann", "Bob"], "dealer": "Ann"})
    hands = game.get_json()["hands_url"]
    for odd in [*ODD, -1, 0, 10**30, 1e3, 2.5, True]:
        hand = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": odd}}
        for body in ({"hand_number": odd, "hand": hand}, {"hand_number": 1, "hand": hand}):
            assert client.post(hands, json=body).status_code in (400, 409, 422), body
            checked += 1
    assert checked >= 40


def _properties(spec: dict, body: dict | None) -> dict:
    if not body:
        return {}
    schema = body["schema"]
    if "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema.get("properties", {})


def _required(path: str) -> dict:
    """What else each checker needs, so the number is what it judges."""
    return {
        "/api/check": {"group": ["R7 B7 G7"]},
        "/api/hit": {"kind": "set", "group": "R7 B7 G7", "card": "Y7"},
        "/api/solve": {"hand": "R7 B7 G7"},
        "/api/rate": {"phases": "set of 3"},
    }.get(path, {})


def _endpoint(app, action: str, method: str) -> str:
    """The view a form is sent to, whichever game or table it is of."""
    adapter = app.url_map.bind("table.test")
    return f"{method} {adapter.match(urlsplit(action).path, method=method)[0]}"


def _kinds(names: list[str]) -> list[str]:
    return [re.sub(r"-[0-9]+$", "-N", name) for name in names]


def _one_per_seat(names: set[str]) -> list[str]:
    """A form's numeric fields, one seat's of each kind (``points-2`` for every
    ``points-N``: each seat's is read by the same code); the last seat, not the first,
    whom the form marks as gone out."""
    last: dict[str, str] = {}
    for name in sorted(names):
        last[re.sub(r"-[0-9]+$", "-N", name)] = name
    return sorted(last.values())


def _query(url: str) -> list[tuple[str, str]]:
    return parse_qsl(urlsplit(url).query, keep_blank_values=True)


def _with_query(url: str, data) -> str:
    parts = urlsplit(url)
    items = data.items() if isinstance(data, dict) else data
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(list(items)), ""))


def test_a_page_reads_the_numbers_it_shows_as_the_route_reads_them(client):
    """The templates read two numbers of their own with Jinja's ``int``, which takes
    ``２`` and ``-1``: the phase checker showed one layout while judging another, and a
    card count of ``٣`` added 15 points to the count shown beside a refused hand."""
    for odd in ("２", "-1", "٢"):
        page = client.get(f"/check?rules=super-wild&phase=7&layout={quote(odd)}")
        groups = set(read(page.get_data(as_text=True)).texts(".card-field label strong"))
        assert groups == {"Group 1: set of 4", "Group 2: set of 4"}, odd
    game = new_game(client)
    refused = record(client, game, 1, 0, {2: 50}, low_1="٣")
    assert refused.status_code == 422
    total = read(refused.get_data(as_text=True)).one("output#count-total-1")
    assert total.text == "0"

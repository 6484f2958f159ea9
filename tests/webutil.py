"""Helpers for driving the app through its own forms in tests."""

from __future__ import annotations

import webpage
from webpage import read


def csrf(client) -> str:
    """The session's CSRF token, as a page would carry it."""
    return webpage.csrf(client.get("/").get_data(as_text=True))


def new_game(client, players=("Ann", "Bob", "Cy"), profile="official", dealer=0, **options):
    data = {"csrf_token": csrf(client), "profile": profile, "dealer": str(dealer)}
    data.update({f"player-{i}": name for i, name in enumerate(players)})
    data.update({f"opt-{key}": value for key, value in options.items()})
    response = client.post("/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def record(client, game_url, hand_number, went_out, points, **extra):
    """points: {seat: total}; extra: raw form fields."""
    data = {"csrf_token": csrf(client), "hand_number": str(hand_number), "went_out": str(went_out)}
    data.update({f"points-{seat}": str(total) for seat, total in points.items()})
    data.update({k.replace("_", "-"): v for k, v in extra.items()})
    return client.post(f"{game_url}/hands", data=data)


def field_errors(response) -> list[str]:
    """The messages beside a form's fields (without the links to the rules after them)."""
    return [e.leading_text for e in read(response.get_data(as_text=True)).select(".field-error")]


def watch_path(game_url: str) -> str:
    """The watch-only page of the game at this scorekeeper link (/g/<id>/<key> -> /v/<id>)."""
    return "/v/" + game_url.rstrip("/").split("/")[-2]


def export(client, game_url) -> dict:
    return client.get(f"{game_url}/export.json").get_json(force=True)


def player_links(client, game_url) -> tuple[str, dict[str, str]]:
    """The players' links from the scorekeeper's page for them: (pick your name, {name: link})."""
    page = read(client.get(f"{game_url}/players").get_data(as_text=True))
    pick, *links = page.copy_links
    assert all(link.startswith("http://table.test/p/") for link in [pick, *links]), links
    names = page.texts("details.player-code summary strong")
    return pick, dict(zip(names, links, strict=True))


def new_table(client, name="The Smiths") -> str:
    response = client.post("/tables/new", data={"csrf_token": csrf(client), "name": name})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def table_game(client, table_url, players=("Ann", "Bob", "Cy"), dealer=0, **options) -> str:
    page = client.get(f"{table_url}/new?" + "&".join(f"player={p}" for p in players))
    assert page.status_code == 303
    form = read(client.get(page.headers["Location"]).get_data(as_text=True))
    (table_id,) = form.values("table")
    for i, name in enumerate(players):  # the form comes filled in with the table's players
        assert form.one(f"#player-{i}")["name"] == f"player-{i}"
        assert name in form.values(f"player-{i}")
    data = {"csrf_token": csrf(client), "profile": "official", "dealer": str(dealer)}
    data.update({f"player-{i}": name for i, name in enumerate(players)})
    data["table"] = table_id
    data.update({f"opt-{key}": value for key, value in options.items()})
    response = client.post("/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def plain_names(page: str) -> str:
    """A page without what isolates its names (``<bdi>``, FSI ... PDI), to read its sentences."""
    for mark in ("<bdi>", "</bdi>", "\u2068", "\u2069"):
        page = page.replace(mark, "")
    return page

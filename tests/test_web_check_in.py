"""Self check-in: a player adds themselves from the night's read-only page, matched to the
table's roster forgivingly, new names as newcomers, until the organiser closes the list;
the organiser sees them arrive; the read-only link can do nothing else."""

from __future__ import annotations

import html

import pytest
from test_web_nights import read_only_link, seating
from test_web_seasons import play_round, start_night
from webutil import csrf, new_table, plain_names

from scorekeeper import create_app, store
from scorekeeper.rules.check_in import folded, match

ROSTER = ["Zoë", "Ann", "Bob", "Łukasz"]


@pytest.fixture
def night(client, clock) -> tuple[str, str]:
    """(the organiser's link, the players' link) of a night with the roster's first three
    here and Łukasz on the roster but not here."""
    table_url = new_table(client, "Thursday club")
    data = {
        "csrf_token": csrf(client),
        "name": "Thursday",
        "newcomers": "\n".join(ROSTER),
        "rounds": "2",
        "profile": "ten-hands",
        "mode": "random",
        "scheme": "placement",
    }
    first = client.post(f"{table_url}/nights/new", data=data).headers["Location"]
    client.post(f"{first}/start", data={"csrf_token": csrf(client)})  # everyone on the roster
    data["newcomers"] = "\n".join(ROSTER[:3])
    url = client.post(f"{table_url}/nights/new", data=data).headers["Location"]
    url = url.replace("http://table.test", "")
    return url, read_only_link(client.get(url).get_data(as_text=True))


def check_in(client, view, name):
    return client.post(f"{view}/check-in", data={"csrf_token": csrf(client), "name": name})


def seated(client, url) -> list[str]:
    page = plain_names(client.get(url).get_data(as_text=True))
    return sorted(name for table in seating(page) for name in table)


@pytest.mark.parametrize(
    ("typed", "known"),
    [
        ("zoe", "Zoë"),
        ("ZOË", "Zoë"),
        ("  zoë ", "Zoë"),
        ("lukasz", "Łukasz"),
        ("Ａｎｎ", "Ann"),  # full-width letters from a phone's keyboard
        ("Zed", None),
    ],
)
def test_a_typed_name_matches_the_roster_forgivingly(typed, known):
    assert match(typed, ROSTER) == known


def test_two_names_that_fold_alike_match_only_by_their_own_spelling():
    assert folded("Zoe") == folded("Zoë")
    assert match("zoe", ["Zoe", "Zoë"]) == "Zoe"
    assert match("zoë", ["Zoe", "Zoë"]) == "Zoë"
    assert match("ZOE\u0308", ["Zoe", "Zoë"]) == "Zoë"  # decomposed, as some keyboards send
    assert match("zöe", ["Zoe", "Zoë"]) is None  # neither spelling: ask, do not guess


def test_a_player_checks_in_from_the_nights_page_and_the_organiser_sees_it(client, night):
    url, view = night
    page = client.get(view).get_data(as_text=True)
    assert f'href="{view}/check-in"' in page and "csrf_token" not in page  # read only
    form = client.get(f"{view}/check-in").get_data(as_text=True)
    assert f'action="{view}/check-in"' in form and "I am here" in form
    response = check_in(client, view, "lukasz")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"{view}?player=%C5%81ukasz")
    mine = html.unescape(plain_names(client.get(response.headers["Location"]).text))
    assert "Welcome, Łukasz: you are on tonight's list." in mine
    assert "Łukasz" in seated(client, url)  # the waiting round is seated again with him
    newcomer = check_in(client, view, "Gus")
    assert newcomer.status_code == 303
    organiser = plain_names(client.get(url).get_data(as_text=True))
    arrivals = organiser.split('id="check-ins"')[1].split("</section>")[0]
    assert arrivals.index("Gus") < arrivals.index("Łukasz")  # the latest first
    assert arrivals.count("new to the table") == 1
    history = organiser.split('id="night-history"')[1]
    assert "Gus checked in from their phone" in history


def test_a_player_already_here_is_told_so_and_not_added_twice(client, night):
    url, view = night
    before = seated(client, url)
    response = check_in(client, view, "ZOE")
    assert response.status_code == 303
    page = html.unescape(plain_names(client.get(response.headers["Location"]).text))
    assert "Zoë is on tonight's list already." in page
    assert seated(client, url) == before


def test_the_organiser_closes_the_list_and_a_check_in_is_refused(client, night):
    url, view = night
    closed = client.post(f"{url}/check-in", data={"csrf_token": csrf(client), "action": "close"})
    assert closed.status_code == 303
    page = html.unescape(plain_names(client.get(view).text))
    assert "Tonight's list is closed" in page and "/check-in" not in page
    refused = check_in(client, view, "Gus")
    assert refused.status_code == 409
    assert "closed tonight's list" in html.unescape(refused.text)
    assert "Gus" not in seated(client, url)
    client.post(f"{url}/check-in", data={"csrf_token": csrf(client), "action": "open"})
    assert check_in(client, view, "Gus").status_code == 303


def test_once_the_last_round_has_started_the_page_offers_no_check_in(client, clock):
    table_url = new_table(client, "Club")
    url = start_night(client, table_url)  # one round
    view = read_only_link(client.get(url).text)
    assert f'href="{view}/check-in"' in client.get(view).text
    assert client.post(f"{url}/start", data={"csrf_token": csrf(client)}).status_code == 303
    page = html.unescape(client.get(view).text)
    assert "/check-in" not in page and "no round left to seat you in" in page
    form = html.unescape(client.get(f"{view}/check-in").text)
    assert 'id="check-in-name"' not in form and "no round left to seat you in" in form
    assert check_in(client, view, "Gus").status_code == 422


def test_a_night_ended_early_offers_no_check_in(client, clock):
    """Found by the season's browser test: a night ended after round 1 of 3 still offered
    "Add me to tonight's list" (only the last round started was too late)."""
    table_url = new_table(client, "Club")
    url = start_night(client, table_url, rounds="3")
    view = read_only_link(client.get(url).text)
    play_round(client, url)
    assert f'href="{view}/check-in"' in client.get(view).text  # two rounds still to come
    assert client.post(f"{url}/end", data={"csrf_token": csrf(client)}).status_code == 303
    page = html.unescape(client.get(view).text)
    assert "/check-in" not in page and "The night is over: its standings are final." in page
    form = html.unescape(client.get(f"{view}/check-in").text)
    assert 'id="check-in-name"' not in form and "its standings are final" in form
    refused = check_in(client, view, "Gus")
    assert refused.status_code == 422 and "its standings are final" in html.unescape(refused.text)


def test_a_player_who_left_cannot_come_back_by_themselves(client, night):
    url, view = night
    token = csrf(client)
    client.post(f"{url}/players", data={"csrf_token": token, "action": "leave", "name": "Bob"})
    refused = check_in(client, view, "bob")
    assert refused.status_code == 422 and "ask the organiser" in refused.get_data(as_text=True)
    assert "Bob" not in seated(client, url)


@pytest.mark.parametrize(
    ("typed", "words"),
    [("", "Type your name"), ("Ann\u202eevil", "invisible"), ("x" * 41, "at most 40")],
)
def test_a_wrong_name_is_refused_and_kept_in_the_form(client, night, typed, words):
    _url, view = night
    refused = check_in(client, view, typed)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and words in page


def test_the_read_only_link_can_do_nothing_else(client, night):
    url, view = night
    token = csrf(client)
    night_id = url.rsplit("/", 1)[1]
    for path, data in [
        (f"{view}/check-in", {"action": "close"}),
        (f"{view}/check-in", {"action": "leave", "name": "Ann"}),
        (f"{view}/players", {"action": "leave", "name": "Ann"}),
        (f"{view}/start", {}),
        (f"/t/{view.split('/')[2]}/nights/{night_id}/check-in", {"action": "close"}),
    ]:
        client.post(path, data={"csrf_token": token, **data})
    assert seated(client, url) == sorted(ROSTER[:3])
    assert "/check-in" in client.get(view).get_data(as_text=True)  # the list still open
    assert "Round 1 of 2: seated" in client.get(url).get_data(as_text=True)


def test_checking_in_is_rate_limited_like_players_points(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "g.sqlite3"),
            "SECRET_KEY": "x",
            "TESTING": True,
            "SERVER_NAME": "table.test",
            "RATE_LIMIT_SEND": "2 per minute",
        }
    )
    phone = app.test_client()
    table_url = new_table(phone, "Club")
    data = {
        "csrf_token": csrf(phone),
        "name": "Night",
        "newcomers": "Ann\nBob",
        "rounds": "1",
        "profile": "ten-hands",
        "mode": "random",
        "scheme": "placement",
    }
    url = phone.post(f"{table_url}/nights/new", data=data).headers["Location"]
    view = read_only_link(phone.get(url).text)
    answers = [check_in(phone, view, name).status_code for name in ("Cy", "Di", "Ed")]
    assert answers == [303, 303, 429]
    assert seated(phone, url) == ["Ann", "Bob", "Cy", "Di"]
    store.connection.close_all()

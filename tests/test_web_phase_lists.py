"""Drawing and rating phase lists on the new-game form, and at /api/rate."""

from __future__ import annotations

import pytest
from webpage import read
from webutil import csrf

from scorekeeper.rules import rating
from scorekeeper.rules.phases import parse_phase_list
from scorekeeper.rules.ruleset import OFFICIAL


@pytest.fixture
def app(app):
    app.config["RATING_TRIALS"] = 200  # quick, and the figures stay seeded
    return app


def form(client, **fields) -> dict[str, str]:
    data = {"csrf_token": csrf(client), "profile": "official", "dealer": "0"}
    data.update({"player-0": "Ann", "player-1": "Bob"})
    data.update(fields)
    return data


def custom_phases(page: str) -> str:
    return read(page).one("textarea#opt-custom_phases").value


def rows(page: str) -> list[str]:
    """The rating table's phases, top to bottom, as shown."""
    return [th.text for th in read(page).select("th[scope=row]") if th.select("span.number")]


def test_drawing_puts_ten_rated_phases_in_the_form_easiest_first(client):
    response = client.post("/new/phases", data=form(client, phase_list="draw", seed="3"))
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    text = custom_phases(page)
    phases = parse_phase_list(text)
    assert len(phases) == 10
    assert read(page).select("option[value=custom][selected]")
    assert 'value="Ann"' in page and 'value="Bob"' in page  # what was typed stays
    expected = rating.rate(phases, OFFICIAL, trials=200, seed=3, ordered=False)  # seed: both
    chances = [p.chance for p in expected.phases]
    assert chances == sorted(chances, reverse=True)  # the form's list is easiest first
    assert len(rows(page)) == 10 and rows(page)[0].startswith("1. ")
    assert "A hand holds <strong>" in page and "from 200 deals" in page


def test_the_same_seed_draws_the_same_list(client):
    first = custom_phases(
        client.post("/new/phases", data=form(client, phase_list="draw", seed="3")).get_data(
            as_text=True
        )
    )
    again = custom_phases(
        client.post("/new/phases", data=form(client, phase_list="draw", seed="3")).get_data(
            as_text=True
        )
    )
    assert first == again


def test_a_drawn_list_can_keep_the_order_it_was_drawn_in(client):
    data = form(client, phase_list="draw", seed="3", keep_order="1")
    page = client.post("/new/phases", data=data).get_data(as_text=True)
    assert [row.split(".")[0] for row in rows(page)] == [str(n) for n in range(1, 11)]
    assert "Your own phases above are now this list, in this order." in page


def test_a_drawn_list_starts_a_game_with_those_phases(client):
    page = client.post("/new/phases", data=form(client, phase_list="draw", seed="5"))
    text = custom_phases(page.get_data(as_text=True))
    started = client.post(
        "/new", data=form(client, **{"opt-phases": "custom", "opt-custom_phases": text})
    )
    assert started.status_code == 303
    game = client.get(started.headers["Location"] + "/export.json").get_json(force=True)
    assert game["options"]["custom_phases"] == text


def test_how_hard_rates_the_typed_list_and_orders_it(client):
    typed = "set of 5 + set of 3; run of 4"
    data = form(client, phase_list="rate", **{"opt-custom_phases": typed})
    page = client.post("/new/phases", data=data).get_data(as_text=True)
    assert custom_phases(page) == "run of 4; set of 5 + set of 3"
    assert rows(page) == ["1. 1 run of 4", "2. 1 set of 5 + 1 set of 3"]


def test_how_hard_keeps_a_typed_list_as_it_is_when_asked(client):
    typed = "set of 5 + set of 3; run of 4"
    data = form(client, phase_list="rate", keep_order="1", **{"opt-custom_phases": typed})
    page = client.post("/new/phases", data=data).get_data(as_text=True)
    assert custom_phases(page) == typed
    assert rows(page) == ["1. 1 set of 5 + 1 set of 3", "2. 1 run of 4"]


def test_how_hard_rates_the_chosen_rules_own_list_without_changing_it(client):
    data = form(client, phase_list="rate", profile="even", turns="3")
    page = client.post("/new/phases", data=data).get_data(as_text=True)
    assert custom_phases(page) == ""
    assert sorted(int(row.split(".")[0]) for row in rows(page)) == [1, 2, 3, 4, 5]
    assert "and 3 drawn cards" in page


HINT = (
    "how often the 10 dealt cards and one more drawn for each turn hold each phase, with nothing"
    " discarded"
)


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr", "it", "pl"])
def test_the_form_says_what_a_rating_deals_in_every_language(client, lang):
    """10 dealt cards and one drawn a turn, nothing discarded: not "a few turns of drawing"."""
    page = client.get("/new", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert "few turns" not in page
    assert (HINT in page) == (lang == "en")  # translated, not left in English
    data = form(client, phase_list="rate", turns="3")
    rated = client.post("/new/phases", data=data, headers={"Accept-Language": lang})
    assert ("10 dealt cards and 3 drawn cards hold each phase" in rated.get_data(as_text=True)) == (
        lang == "en"
    )


def test_an_unreadable_list_is_a_422_that_keeps_the_form(client):
    data = form(client, phase_list="rate", **{"opt-custom_phases": "2 sets of three"})
    response = client.post("/new/phases", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'class="field-error" id="phase-list-error" role="alert"' in page
    assert "cannot read group" in page and custom_phases(page) == "2 sets of three"
    assert 'value="Ann"' in page


def test_turns_out_of_range_are_a_422(client):
    response = client.post("/new/phases", data=form(client, phase_list="rate", turns="99"))
    assert response.status_code == 422
    assert "turns must be a whole number from 0 to 10" in response.get_data(as_text=True)


def test_with_htmx_the_address_stays_the_new_game_form_and_the_rating_shows(client):
    headers = {"HX-Request": "true"}
    response = client.post("/new/phases", data=form(client, phase_list="draw"), headers=headers)
    assert response.headers["HX-Replace-Url"] == "/new"
    assert response.headers["HX-Reswap"] == "innerHTML show:#phase-list:top"
    assert client.get("/new/phases").status_code == 303


def test_the_new_game_form_offers_both_buttons_after_start(client):
    page = client.get("/new").get_data(as_text=True)
    start = page.index("Start the game")
    assert page.index("Draw a random list") > start and page.index("How hard is this list?") > start
    assert page.count('formaction="/new/phases#phase-list"') == 2


# --- /api/rate -------------------------------------------------------------------------


def test_the_api_rates_a_list_like_the_command_line(client):
    answer = client.get("/api/rate?phases=2+sets+of+3;run+of+7&trials=50&seed=4").get_json()
    expected = rating.rate(parse_phase_list("2 sets of 3; run of 7"), OFFICIAL, trials=50, seed=4)
    assert answer == {"rules": "official", **expected.to_json()}


def test_the_api_draws_a_list_from_a_json_body(client):
    body = {"draw": True, "seed": 3, "trials": 20, "options": {"super_wild": "yes"}}
    answer = client.post("/api/rate", json=body).get_json()
    assert answer["drawn"] == 3 and len(answer["phases"]) == 10
    assert answer == client.post("/api/rate", json=body).get_json()


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("trials=201", "trials"),
        ("turns=11", "turns"),
        ("phases=2+sets+of+three", "phases"),
        ("order=hardest", "order"),
        ("draw=maybe", "draw"),
        ("rules=nope", "rules"),
        ("option=wild_points", "option"),
    ],
)
def test_the_api_refuses_bad_input_with_the_field(client, query, field):
    response = client.get(f"/api/rate?{query}")
    assert response.status_code == 400 and response.get_json()["field"] == field


@pytest.mark.parametrize("options", [None, [], "", {"first": 2}])
def test_the_api_refuses_house_rules_that_are_not_an_object_of_texts(client, options):
    """docs/openapi.json says an object of texts: null, a list or a number was taken."""
    response = client.post("/api/rate", json={"trials": 1, "options": options})
    assert response.status_code == 400
    assert "options must be an object" in response.get_json()["error"]


def test_rating_has_its_own_rate_limit(app, client):
    app.config["RATE_LIMIT_RATE"] = "2 per minute"
    statuses = [client.get("/api/rate?trials=1").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]

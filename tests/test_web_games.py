"""The scorekeeping app through Flask's test client: every route, every error path."""

from __future__ import annotations

import json

import pytest
from webpage import read
from webutil import csrf, export, field_errors, new_game, plain_names, record

from scorekeeper.cli import main as cli


def test_home_page_offers_a_new_game_and_the_dispute_tools(client):
    page = client.get("/").get_data(as_text=True)
    for link in ("/new", "/check", "/check/hit", "/check/hand", "/import"):
        assert f'href="{link}"' in page


def test_creating_a_game_goes_to_its_scoreboard(client):
    url = new_game(client, dealer=1)
    page = client.get(url).get_data(as_text=True)
    assert "Hand <strong>1</strong> · <strong><bdi>Bob</bdi></strong> deals" in page
    assert "Phase 1</strong> <small>2 sets of 3" in page
    assert export(client, url)["dealer"] == "Bob"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player-0": "Ann"}, "2-6 players, not 1"),
        ({"player-0": "Ann", "player-1": "ann"}, "two players have this name"),
        ({"player-0": "Ann", "player-1": "B" * 41}, "40 characters"),
        (
            {"player-0": "Ann", "player-1": "Bob", "dealer": "4"},
            "dealer must be one of the players",
        ),
        ({"player-0": "Ann", "player-1": "Bob", "opt-first": "12"}, "from 1 to 10"),
        ({"player-0": "Ann", "player-1": "Bob", "profile": "chess"}, "unknown rules"),
        (
            {
                "player-0": "A",
                "player-1": "B",
                "player-2": "C",
                "player-3": "D",
                "player-4": "E",
                "profile": "mixed-up",
            },
            "Mixed-up Masters is for 2-4 players, not 5",
        ),
    ],
)
def test_a_bad_new_game_form_keeps_what_was_typed_and_says_why(client, fields, message):
    data = {"csrf_token": csrf(client), "profile": "official", "dealer": "0", **fields}
    response = client.post("/new", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in page
    assert 'value="Ann"' in page or "player-0" not in fields or fields["player-0"] != "Ann"


def test_a_refused_new_game_links_the_rule_beside_its_field(client):
    data = {"csrf_token": csrf(client), "profile": "official", "dealer": "0", "player-0": "Ann"}
    page = client.post("/new", data=data).get_data(as_text=True)
    error = page[page.index('id="player-0-error"') :]
    error = error[: error.index("</p>")]
    assert "2-6 players, not 1" in error
    assert 'class="rule-link" href="/rules#' in error and "Rule 3" in error


def test_recording_a_hand_updates_phases_scores_and_dealer(client):
    url = new_game(client)
    response = record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    assert response.status_code == 303
    state = export(client, url)
    assert state["hands"] == [
        {"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}}
    ]
    page = client.get(url).get_data(as_text=True)
    assert "Hand <strong>2</strong> · <strong><bdi>Bob</bdi></strong> deals" in page


def test_a_player_under_50_points_is_taken_to_have_made_their_phase(client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 55, 2: 45})
    assert export(client, url)["hands"][0]["made"] == ["Ann", "Cy"]


def test_an_impossible_total_is_refused_before_saving_and_the_form_is_kept(client):
    url = new_game(client)
    response = record(client, url, 1, went_out=0, points={1: 50, 2: 7})
    assert response.status_code == 422
    assert any("7 is not a multiple of 5" in e for e in field_errors(response))
    assert (
        'name="points-2" inputmode="numeric" pattern="[0-9]*" maxlength="4" value="7"'
        in response.get_data(as_text=True)
    )
    assert export(client, url)["hands"] == []


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"went_out": ""}, "Who went out?"),
        ({"went_out": "9"}, "Pick who went out"),
        ({"points-1": ""}, "Enter Bob's points"),
        ({"points-1": "lots"}, "not a whole number"),
        ({"points-1": "5000"}, "from 0 to 1000"),
        ({"points-1": "150", "made-1": "1"}, "Bob"),
    ],
)
def test_every_hand_form_error_is_shown_next_to_its_field(client, fields, message):
    url = new_game(client)
    data = {
        "csrf_token": csrf(client),
        "hand_number": "1",
        "went_out": "0",
        "points-1": "50",
        "points-2": "20",
        **fields,
    }
    response = client.post(f"{url}/hands", data=data)
    assert response.status_code == 422
    assert any(message in error for error in field_errors(response)), field_errors(response)
    assert export(client, url)["hands"] == []


@pytest.mark.parametrize("ticked", [False, True])
def test_too_many_cards_for_a_laid_down_phase_says_when_the_total_made_the_assumption(
    client, ticked
):
    """Five low cards are 25 points: under 50, so Cy is judged as having laid down phase 1."""
    url = new_game(client)
    made = {"made-2": "1"} if ticked else {}
    response = record(client, url, 1, went_out=0, points={1: 50}, low_2="5", **made)
    assert response.status_code == 422
    (error,) = [e for e in field_errors(response) if "at most 4 cards left, not 5" in e]
    assumed = "the box is not ticked, but under 50 points means they made their phase"
    assert (assumed in error) is not ticked, error
    assert export(client, url)["hands"] == []


def _controls(page, name: str) -> list:
    """Every input or select of the page with this name."""
    return [c for c in page.controls(name) if c.tag in ("input", "select")]


@pytest.mark.parametrize(
    ("fields", "names"),
    [
        ({"went_out": ""}, ["went_out", "points-0"]),  # nobody went out: Ann needs points
        ({"points-1": "lots", "points-2": "5000"}, ["points-1", "points-2"]),
        ({"floater-1": "1", "points-1": ""}, ["floater-1"]),
        ({"low-2": "30"}, ["low-2"]),
    ],
)
def test_a_refused_hand_marks_each_field_it_complains_about_for_screen_readers(
    client, fields, names
):
    """Without JavaScript the refused form comes back with the same marks the live check sets."""
    url = new_game(client, going_out="discard")
    data = {"csrf_token": csrf(client), "hand_number": "1", "went_out": "0", "points-1": "50"}
    data.update({"points-2": "20", **fields})
    page = read(client.post(f"{url}/hands", data=data).get_data(as_text=True))
    for name in names:
        assert page.select(f"#{name}-error"), name
        for control in _controls(page, name):
            assert control.get("aria-invalid") == "true"
            assert control.get("aria-describedby") == f"{name}-error"
    marked = page.select("input[aria-invalid=true], select[aria-invalid=true]")
    assert {control.get("name") for control in marked} == set(names)


def test_counting_cards_adds_them_up(client):
    url = new_game(client)
    response = record(
        client,
        url,
        1,
        went_out=0,
        points={2: 20},
        low_1="8",
        high_1="1",
        wilds_1="1",
    )
    assert response.status_code == 303
    hand = export(client, url)["hands"][0]
    assert hand["points"]["Bob"] == 8 * 5 + 10 + 25


def test_card_counts_and_a_total_that_disagree_are_refused(client):
    url = new_game(client)
    response = record(client, url, 1, went_out=0, points={1: 60, 2: 20}, low_1="10")
    assert response.status_code == 422
    assert "Bob's cards add up to 50 points, not 60" in " ".join(field_errors(response))
    assert export(client, url)["hands"] == []


def test_why_players_will_be_marked_as_made_is_said_once_not_under_each(client):
    """Issue 29, item 7: five lines of why under each player under 50 points, and again above
    Save, on every hand. Now one short line beside each, and the reason once."""
    url = new_game(client, players=("Ann", "Bob", "Cy", "Dee"))
    data = {"csrf_token": csrf(client), "hand_number": "1", "went_out": "0"}
    data.update({"points-1": "20", "points-2": "35", "points-3": "60"})
    page = plain_names(client.post(f"{url}/hands/check", data=data).get_data(as_text=True))
    for name in ("Bob", "Cy"):
        assert page.count(f"{name} will be marked as having made their phase.") == 1
    assert "Dee will be marked" not in page
    assert page.count("Under 50 points means the phase was laid down") == 1
    assert "Will be marked as having made their phase: Bob, Cy." in page


def test_correcting_a_hand_offers_its_own_live_check(client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    form = client.get(f"{url}/hands/1").get_data(as_text=True)
    assert f'hx-post="{url}/hands/1/check"' in form
    assert 'name="made-0" value="1" checked' not in form  # going out is not a tick to keep
    data = {"csrf_token": csrf(client), "went_out": "1", "points-0": "47", "points-2": "20"}
    page = client.post(f"{url}/hands/1/check", data=data).get_data(as_text=True)
    assert '<div id="live-0" class="live-field" hx-swap-oob="true">' in page
    assert "Ann: 47 is not a multiple of 5" in page
    assert "Cy will be marked as having made their phase" in plain_names(page)
    assert "Ann will be marked" not in plain_names(page) and ": Cy." in plain_names(
        page
    )  # her total is wrong first
    assert client.post(f"{url}/hands/9/check", data=data).status_code == 404
    assert len(export(client, url)["hands"]) == 1


def test_a_hand_entered_twice_is_recorded_once(client):
    """A re-sent form or a double tap: the same hand under the same number saves once."""
    url = new_game(client)
    assert record(client, url, 1, went_out=0, points={1: 50, 2: 20}).status_code == 303
    again = record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    assert again.status_code == 303 and again.headers["Location"].endswith(f"{url}#record")
    page = client.get(url).get_data(as_text=True)
    assert "Hand 1 was already entered on another phone: it is recorded once." in page
    assert len(export(client, url)["hands"]) == 1
    assert "Hand 2:" not in client.get(f"{url}/history").get_data(as_text=True)


def test_a_hand_typed_while_another_phone_saved_it_is_kept_as_the_next_hand(client):
    """The advice names the true cause: hand 1 is fine, this phone's entry came too late."""
    url = new_game(client)
    assert record(client, url, 1, went_out=0, points={1: 50, 2: 20}).status_code == 303
    other = record(client, url, 1, went_out=1, points={0: 45, 2: 20})
    assert other.status_code == 409
    page = other.get_data(as_text=True)
    saved = "Hand 1 was saved on another phone while you typed it: Ann out, "
    assert saved + "Bob 50, Cy 20" in page
    assert "kept below as hand 2" in page and "fix that hand" not in page
    assert "45" in read(page).values("points-0")  # what was typed, as hand 2
    assert 'name="hand_number" value="2"' in page
    assert export(client, url)["hands"][0]["went_out"] == "Ann"


def test_a_half_typed_hand_for_a_hand_already_saved_is_told_which_hand_first(client):
    """A stale "Save hand 1" with a field still empty: which hand it was for comes first,
    not four errors about the fields of a hand that is no longer next."""
    url = new_game(client)
    assert record(client, url, 1, went_out=0, points={1: 50, 2: 20}).status_code == 303
    data = {"csrf_token": csrf(client), "hand_number": "1", "went_out": "1", "points-0": "90"}
    answer = client.post(f"{url}/hands", data=data)
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert "Hand 1 was saved on another phone while you typed it" in page
    assert "kept below as hand 2" in page and field_errors(answer) == []
    assert "90" in read(page).values("points-0")
    assert 'name="hand_number" value="2"' in page
    assert len(export(client, url)["hands"]) == 1


def test_the_live_check_explains_a_bad_total_without_saving(client):
    url = new_game(client)
    data = {
        "csrf_token": csrf(client),
        "hand_number": "1",
        "went_out": "0",
        "points-1": "47",
        "points-2": "",
    }
    page = client.post(f"{url}/hands/check", data=data).get_data(as_text=True)
    assert "Bob: 47 is not a multiple of 5" in page
    assert "Enter Cy" not in page  # Cy has not been typed yet: no nagging
    assert export(client, url)["hands"] == []


def test_correcting_an_earlier_hand_recomputes_everything_after_it(client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    record(client, url, 2, went_out=1, points={0: 10, 2: 60})
    form = client.get(f"{url}/hands/1").get_data(as_text=True)
    assert 'value="50"' in form
    data = {"csrf_token": csrf(client), "went_out": "0", "points-1": "75", "points-2": "20"}
    assert client.post(f"{url}/hands/1", data=data).status_code == 303
    totals = {p["name"]: p["score"] for p in _standings(client, url)["players"]}
    assert totals == {"Ann": 10, "Bob": 75, "Cy": 80}
    assert "Hand 1 corrected." in client.get(url).get_data(as_text=True)  # it says so, once
    assert "Hand 1 corrected." not in client.get(url).get_data(as_text=True)


def test_a_correction_that_breaks_a_later_hand_is_refused(client):
    url = new_game(client, players=("Ann", "Bob"), first="2")
    record(client, url, 1, went_out=1, points={0: 50})  # Ann misses phase 1
    record(client, url, 2, went_out=0, points={1: 50})  # Ann makes phase 1
    record(client, url, 3, went_out=0, points={1: 50})  # Ann makes phase 2 and wins
    data = {"csrf_token": csrf(client), "went_out": "0", "points-1": "50"}
    response = client.post(f"{url}/hands/1", data=data)  # Ann would have won in hand 2
    assert response.status_code == 422
    alert = _alert(response)
    assert "With this change, hand 3 no longer fits: the game is over" in alert
    assert 'href="/rules#end-of-game">Rule 9: end of the game&nbsp;›</a>' in alert
    assert "Nothing was saved: the reason is at the top" in response.get_data(as_text=True)
    assert export(client, url)["hands"][0]["went_out"] == "Bob"


def _alert(response) -> str:
    """The page's first alert: the refusal and the rule links beside it."""
    page = response.get_data(as_text=True)
    alert = page[page.index('class="alert" role="alert"') :]
    return alert[: alert.index("</p>")]


def test_the_tiebreak_is_recorded_from_the_form_with_its_winner(client):
    url = new_game(client, players=("Ann", "Bob"), first="2")
    record(client, url, 1, went_out=0, points={1: 20})  # both make phase 1
    record(client, url, 2, went_out=1, points={0: 20})  # both make phase 2: a tie at 20
    assert "Tiebreak!" in client.get(url).get_data(as_text=True)
    assert record(client, url, 3, went_out=1, points={}).status_code == 303
    assert "<strong><bdi>Bob</bdi></strong> wins!" in client.get(url).get_data(as_text=True)


def test_a_refused_deletion_says_which_hand_no_longer_fits_and_links_its_rule(client):
    url = new_game(client, players=("Ann", "Bob"), first="2")
    record(client, url, 1, went_out=0, points={1: 20})  # both make phase 1
    record(client, url, 2, went_out=1, points={0: 20})  # both make phase 2: a tie
    assert record(client, url, 3, went_out=0, points={}).status_code == 303  # the tiebreak
    response = client.post(f"{url}/hands/1/delete", data={"csrf_token": csrf(client)})
    assert response.status_code == 409
    alert = _alert(response)
    assert "Hand 1 cannot be deleted: without it, hand 3 no longer fits" in alert
    assert 'href="/rules#ties">Rule 9: ties&nbsp;›</a>' in alert
    assert len(export(client, url)["hands"]) == 3


def restorable(history: str) -> list[int]:
    """The versions the history page offers to go back to, as its forms post them."""
    actions = [form.action.split("/") for form in read(history).forms("form[method=post]")]
    return [int(parts[-2]) for parts in actions if parts[-1] == "restore"]


def test_deleting_a_hand_is_recorded_and_can_be_brought_back(client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 60})
    record(client, url, 2, went_out=1, points={0: 50, 2: 60})
    token = csrf(client)
    assert client.post(f"{url}/hands/2/delete", data={"csrf_token": token}).status_code == 303
    assert len(export(client, url)["hands"]) == 1
    history = client.get(f"{url}/history").get_data(as_text=True)
    assert "Hand 2 deleted" in history
    version = restorable(history)[0]
    client.post(f"{url}/history/{version}/restore", data={"csrf_token": token})
    assert len(export(client, url)["hands"]) == 2


def test_going_back_in_history_says_what_it_did_as_undo_does(client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    record(client, url, 2, went_out=1, points={0: 10, 2: 60})
    history = client.get(f"{url}/history").get_data(as_text=True)
    version = min(restorable(history))
    token = csrf(client)
    response = client.post(
        f"{url}/history/{version}/restore", data={"csrf_token": token}, follow_redirects=True
    )
    assert f"Restored the game as it was after change {version}" in response.get_data(as_text=True)
    assert len(export(client, url)["hands"]) == version - 1


def test_undo_keeps_stepping_back_and_says_what_it_undid(client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    record(client, url, 2, went_out=1, points={0: 10, 2: 60})
    token = csrf(client)
    response = client.post(f"{url}/undo", data={"csrf_token": token}, follow_redirects=True)
    assert "Undone: Hand 2: Bob went out" in response.get_data(as_text=True)
    assert len(export(client, url)["hands"]) == 1
    client.post(f"{url}/undo", data={"csrf_token": token})
    assert export(client, url)["hands"] == []
    again = client.post(f"{url}/undo", data={"csrf_token": token})
    assert again.status_code == 409 and "Nothing to undo" in again.get_data(as_text=True)
    history = client.get(f"{url}/history").get_data(as_text=True)
    assert history.count("Undone:") == 2  # both undos are in the history, restorable


def test_undo_with_nothing_to_undo_says_so(client):
    url = new_game(client)
    response = client.post(f"{url}/undo", data={"csrf_token": csrf(client)})
    assert response.status_code == 409 and "Nothing to undo" in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/hands/9", "/history/99/restore"])
def test_unknown_hands_and_versions_are_friendly_404s(client, path):
    url = new_game(client)
    method = client.post if path.endswith("restore") else client.get
    response = method(url + path, data={"csrf_token": csrf(client)})
    assert response.status_code == 404 and "There is no" in response.get_data(as_text=True)


def test_an_unknown_game_or_wrong_key_is_a_friendly_404(client):
    url = new_game(client)
    for bad in ("/g/nothing/here", url[:-2] + "xx", "/v/nothing"):
        response = client.get(bad)
        assert response.status_code == 404
        assert "no game at this link" in response.get_data(as_text=True)


def test_forms_without_the_csrf_token_are_refused(client):
    url = new_game(client)
    response = client.post(
        f"{url}/hands",
        data={"went_out": "0", "points-1": "50", "points-2": "20", "hand_number": "1"},
    )
    assert response.status_code == 400 and "expired" in response.get_data(as_text=True)
    assert export(client, url)["hands"] == []


def _standings(client, url, tmp_path=None) -> dict:
    state = export(client, url)
    from scorekeeper.rules.gamefile import load_game
    from scorekeeper.rules.replay import replay

    return replay(load_game(state)).to_json()


def test_the_json_export_is_what_the_command_line_reads(client, tmp_path, capsys):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    path = tmp_path / "game.json"
    path.write_text(client.get(f"{url}/export.json").get_data(as_text=True))
    assert cli(["standings", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(p["name"], p["phase"], p["score"]) for p in out["players"]] == [
        ("Ann", 2, 0),
        ("Bob", 1, 50),
        ("Cy", 2, 20),
    ]


def test_csv_export_has_every_hand_and_defuses_formulas(client):
    url = new_game(client, players=("=HYPERLINK(1)", "Bob"))
    record(client, url, 1, went_out=1, points={0: 50})
    text = client.get(f"{url}/export.csv").get_data(as_text=True)
    lines = text.strip().splitlines()
    assert lines[0].startswith("hand,'=HYPERLINK(1),Bob")
    assert lines[1].startswith("1,50,0,Bob")
    assert lines[-1].startswith("total,50,0")


def test_importing_an_export_makes_a_new_game_with_the_same_standings(client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    text = client.get(f"{url}/export.json").get_data(as_text=True)
    response = client.post("/import", data={"csrf_token": csrf(client), "text": text})
    assert response.status_code == 303
    assert export(client, response.headers["Location"]) == json.loads(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not JSON"),
        ('{"rules": "official", "players": ["Ann"], "dealer": "Ann", "hands": []}', "2"),
        (
            '{"rules": "official", "players": ["Ann", "Bob"], "dealer": "Ann", "hands": '
            '[{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 7}}]}',
            "hand 1",
        ),
    ],
)
def test_a_bad_import_says_what_is_wrong_and_saves_nothing(client, text, message):
    response = client.post("/import", data={"csrf_token": csrf(client), "text": text})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_first_n_phases_game_ends_on_a_winner_screen(client):
    url = new_game(client, players=("Ann", "Bob"), **{"first": "2"})
    record(client, url, 1, went_out=0, points={1: 50})
    record(client, url, 2, went_out=0, points={1: 50})
    page = client.get(url).get_data(as_text=True)
    assert "<strong><bdi>Ann</bdi></strong> wins!" in page
    assert "Record hand" not in page
    late = record(client, url, 3, went_out=1, points={0: 50})
    assert late.status_code == 409 and "game is over" in late.get_data(as_text=True)


def test_a_tie_is_played_off_between_the_tied_players(client):
    url = new_game(client, players=("Ann", "Bob", "Cy"), **{"first": "1"})
    record(client, url, 1, went_out=0, points={1: 5, 2: 50})  # Ann 0, Bob 5 ... both made
    page = client.get(url).get_data(as_text=True)
    assert "wins!" in page  # Ann 0 beats Bob 5
    url2 = new_game(client, players=("Ann", "Bob"), **{"first": "1", "winner": "lowest"})
    record(client, url2, 1, went_out=0, points={1: 0}, made_1="1")
    page = client.get(url2).get_data(as_text=True)
    if "Tiebreak!" in page:
        response = client.post(
            f"{url2}/hands", data={"csrf_token": csrf(client), "hand_number": "2", "went_out": "1"}
        )
        assert response.status_code == 303
        assert "<strong><bdi>Bob</bdi></strong> wins!" in client.get(url2).get_data(as_text=True)


def test_masters_players_pick_the_phase_they_try(client):
    url = new_game(client, players=("Ann", "Bob"), profile="masters")
    page = client.get(url).get_data(as_text=True)
    assert 'name="attempt-0"' in page
    response = record(client, url, 1, went_out=0, points={1: 50}, attempt_0="4", attempt_1="1")
    assert response.status_code == 303, field_errors(response)
    assert export(client, url)["hands"][0]["attempts"] == {"Ann": 4, "Bob": 1}
    assert _standings(client, url)["players"][0]["phases_done"] == [4]


def test_mixed_up_masters_gives_each_player_their_own_order(client):
    url = new_game(client, players=("Ann", "Bob"), profile="mixed-up")
    orders = export(client, url)["orders"]
    assert sorted(orders["Ann"]) == list(range(1, 11)) and sorted(orders["Bob"]) == list(
        range(1, 11)
    )


def test_ten_hands_everyone_moves_on_each_hand(client):
    url = new_game(client, players=("Ann", "Bob"), profile="ten-hands")
    record(client, url, 1, went_out=0, points={1: 50})
    assert [p["phase"] for p in _standings(client, url)["players"]] == [2, 2]


def test_house_rules_are_saved_with_the_game(client):
    url = new_game(client, **{"wild_points": "20", "natural": "phase"})
    assert export(client, url)["options"] == {"wild_points": "20", "natural": "phase"}


def test_oversized_posts_are_refused_with_a_message(client):
    response = client.post("/new", data={"csrf_token": csrf(client), "player-0": "x" * 100_000})
    assert response.status_code == 413
    assert "far more than this form accepts" in response.get_data(as_text=True)


@pytest.mark.parametrize("profile", ["plus10", "even", "ten-hands", "masters", "super-wild"])
def test_the_chosen_variant_is_played_when_house_rules_are_left_alone(client, profile):
    """A browser sends every house-rule field; left blank they change nothing."""
    from scorekeeper.rules.options import OPTIONS

    data = {
        "csrf_token": csrf(client),
        "profile": profile,
        "dealer": "0",
        "player-0": "Ann",
        "player-1": "Bob",
    }
    data.update({f"opt-{key}": "" for key in OPTIONS})
    response = client.post("/new", data=data)
    assert response.status_code == 303
    state = export(client, response.headers["Location"])
    assert state["rules"] == profile and state["options"] == {}


def test_a_house_rule_equal_to_the_variants_own_is_not_stored(client):
    url = new_game(client, profile="masters", progression="masters", wild_points="20")
    assert export(client, url)["options"] == {"wild_points": "20"}


def test_a_refused_new_game_lists_each_problem_with_a_link_to_it(client):
    data = {
        "csrf_token": csrf(client),
        "profile": "official",
        "dealer": "0",
        "player-0": "Ann",
        "opt-first": "12",
    }
    page = client.post("/new", data=data).get_data(as_text=True)
    for field in ("player-0", "rules"):
        assert f'href="#{field}-error"' in page and f'id="{field}-error"' in page


@pytest.mark.parametrize(("version", "status"), [("abc", 400), ("1", 409), ("99", 409)])
def test_a_change_made_from_a_stale_or_broken_page_is_refused(client, version, status):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    before = export(client, url)
    for path in ("/undo", "/hands/1/delete"):
        response = client.post(url + path, data={"csrf_token": csrf(client), "version": version})
        assert response.status_code == status, path
        assert "Reload" in response.get_data(as_text=True) or "Another phone" in response.get_data(
            as_text=True
        )
    assert export(client, url) == before


@pytest.mark.parametrize(
    ("language", "rules", "house_rule"),
    [
        ("en", "Official rules", "A Wild left in hand scores 20"),
        ("de", "Offizielle Regeln", "Hausregeln"),
        ("es", "Reglas oficiales", "Reglas de la casa"),
    ],
)
def test_the_game_page_names_the_rules_in_the_familys_language(client, language, rules, house_rule):
    headers = {"Accept-Language": f"{language},en;q=0.5"}
    plain = client.get(new_game(client), headers=headers).get_data(as_text=True)
    line = read(plain).one("p#rules-line").text
    assert line.startswith(rules) and "official" not in line
    house = client.get(new_game(client, wild_points="20"), headers=headers).get_data(as_text=True)
    line = read(house).one("p#rules-line").text
    assert line.startswith(rules) and house_rule in line and "20" in line
    assert "wild points" not in line and "wild_points" not in line


@pytest.mark.parametrize("number", ["0", "-1"])
def test_a_half_typed_form_for_hand_zero_is_refused_not_a_500(client, number):
    """Found by the fuzzer after the hand form learned to say which hand comes first."""
    url = new_game(client)
    response = client.post(f"{url}/hands", data={"csrf_token": csrf(client), "hand_number": number})
    assert 400 <= response.status_code < 500

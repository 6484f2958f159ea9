"""The rules page, the rule link on every verdict, and no screen that names a file."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
from webpage import read
from webutil import csrf, new_game, record

from scorekeeper.cli import main as cli
from scorekeeper.rules.reasons import ALL_RULES
from scorekeeper.web.blueprints.home import rules_html

FILE_WORDS = re.compile(r"RULES\.md|\.md\b", re.IGNORECASE)


def test_the_rules_page_is_served_for_phones(client):
    response = client.get("/rules")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'name="viewport" content="width=device-width' in page
    assert '<h2 id="card-points">' in page or '<h3 id="card-points">Card points</h3>' in page
    assert "<table>" in page and "<td>Wild</td>" in page
    assert "<script>" not in page  # the page sends a CSP without inline script


@cache
def numbered_sections() -> dict[str, int | None]:
    """Each anchor of the rules (docs/rules.md as served) -> the number of its section."""
    return read(rules_html()).numbered_sections()


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.anchor)
def test_every_rule_a_reason_cites_is_a_section_with_its_number(rule):
    assert numbered_sections()[rule.anchor] == rule.number


def test_the_rules_page_covers_every_house_rule():
    from scorekeeper.rules.options import OPTIONS

    page = rules_html()
    for key in OPTIONS:
        assert f"<code>{key}</code>" in page, key


def test_a_broken_phase_links_the_rule_it_breaks(client):
    page = client.get("/check?phase=1&g0=R7+B7+G8&g1=G3+G3+Y3").get_data(as_text=True)
    assert "G8 is not a 7" in page
    assert '<a class="rule-link" href="/rules#sets">Rule 4: sets&nbsp;›</a>' in page


def test_a_hit_that_does_not_fit_links_hitting(client):
    page = client.get("/check/hit?kind=run&group=R12+R11+R10+R9&card=R7").get_data(as_text=True)
    assert "R7 does not extend the run 9-12: only an 8 fits" in page
    assert 'href="/rules#hitting">Rule 6: hitting&nbsp;›</a>' in page


def test_a_refused_hand_links_the_rule_beside_the_field(client):
    url = new_game(client)
    response = record(client, url, 1, 0, {1: 12, 2: 50})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    error = read(page).one("p.field-error#points-1-error")
    assert "12 is not a multiple of 5" in error.text
    (link,) = error.select("a")
    assert link["href"] == "/rules#card-points" and link.text == "Rule 8: card points\xa0›"


def test_the_api_gives_each_problem_its_rule_and_anchor(client):
    url = new_game(client)
    key_path = url.split("/g/", 1)[1]
    response = client.post(
        f"/api/games/{key_path}/hands",
        json={"hand_number": 1, "hand": {"went_out": "Ann", "made": ["Ann"], "points": {}}},
    )
    assert response.status_code == 422
    problems = response.get_json()["problems"]
    assert problems and all(
        set(p) >= {"message", "rule", "anchor", "player", "field"} for p in problems
    )


# --- no words for developers: no screen, answer or message names a file ---------------


def _screens(client) -> dict[str, str]:
    url = new_game(client)
    game_id = url.split("/")[2]
    record(client, url, 1, 0, {1: 50, 2: 20}, made_2="on")
    screens = {}
    for path in (
        "/",
        "/new",
        "/rules",
        "/import",
        "/check",
        "/check/hit",
        "/check/hand",
        "/check?phase=2&g0=R7+B7+G8&g1=R3+R4+R6+S",
        "/check?rules=even&phase=1&g0=R7+B7+W",
        "/check?phase=1&g0=R7+X9",
        "/check/hit?kind=run&group=W+W+W+R3&card=R4",
        "/check/hit?kind=run&group=W+R5&card=R6",
        "/check/hit?kind=set&group=R4+B4+G4&card=S",
        "/check/hand?phase=4&hand=R1+B2+G3+W+Y5+R6+S+S+G12+G11",
        "/check/hand?phase=1&hand=R1+R2+R3+R4+R5+R6+R7+R8+R9+R10+R11+R12",
        url,
        f"{url}/history",
        f"{url}/share",
        f"{url}/hands/1",
        f"/v/{game_id}",
        f"/v/{game_id}/table",
    ):
        response = client.get(path)
        assert response.status_code in (200, 400), path
        screens[path] = response.get_data(as_text=True)
    screens["refused hand"] = record(client, url, 2, 0, {1: 45, 2: 12}).get_data(as_text=True)
    screens["live check"] = client.post(
        f"{url}/hands/check",
        data={"csrf_token": csrf(client), "went_out": "1", "points-0": "7", "points-2": "300"},
    ).get_data(as_text=True)
    bad_game = {"rules": "official", "players": ["Ann"], "dealer": "Ann", "hands": []}
    screens["import error"] = client.post(
        "/import", data={"csrf_token": csrf(client), "text": json.dumps(bad_game)}
    ).get_data(as_text=True)
    bad_hand = {
        "rules": "official",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "hands": [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 45}}],
    }
    screens["import bad hand"] = client.post(
        "/import", data={"csrf_token": csrf(client), "text": json.dumps(bad_hand)}
    ).get_data(as_text=True)
    return screens


def test_no_screen_names_a_file(client):
    screens = _screens(client)
    assert "Rule 8: a hand never grows" in screens["import bad hand"]
    for name, page in screens.items():
        assert not FILE_WORDS.search(page), f"{name}: {FILE_WORDS.search(page).group(0)}"


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--phase", "2", "R7 B7 G8", "R3 R4 R6 S"],
        ["check", "--rules", "even", "--phase", "1", "R7 B7 W"],
        ["hit", "--kind", "run", "W W W R3", "R4"],
        ["hit", "--kind", "run", "W R5", "R6"],
        ["solve", "--phase", "6", "R1 R2 W S"],
        ["score", "R7 R7 R7"],
    ],
)
def test_no_command_line_answer_names_a_file(capsys, argv):
    cli(argv)
    out, err = capsys.readouterr()
    assert out or err
    assert not FILE_WORDS.search(out + err)
    if "check" in argv and "even" not in argv:
        assert "[Rule 4: sets]" in out


def test_a_refused_game_file_cites_its_rule_on_the_command_line(capsys, tmp_path):
    game = {
        "rules": "official",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "hands": [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 45}}],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    assert cli(["standings", str(path)]) == 2
    err = capsys.readouterr().err
    assert "hand 1, Bob: 45 is not possible" in err and "[Rule 8: a hand never grows]" in err
    assert not FILE_WORDS.search(err)

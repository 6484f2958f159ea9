"""`scorekeeper rate`: a phase list's ratings on the command line, with the usual exit codes."""

from __future__ import annotations

import json

from scorekeeper.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_list_is_rated_easiest_first(capsys):
    status, out, _ = run(capsys, "rate", "set of 5 + set of 3; run of 4", "--trials", "200")
    assert status == 0
    lines = out.splitlines()
    assert "10 dealt cards and 5 drawn, with nothing discarded" in lines[0]
    assert "200 deals" in lines[0]
    assert lines[1].lstrip().startswith("2. 1 run of 4")
    assert lines[2].lstrip().startswith("1. 1 set of 5 + 1 set of 3")
    assert lines[-1].startswith("A hand holds ")


def test_json_is_the_apis_answer_and_repeats_with_the_seed(capsys):
    argv = ("rate", "2 sets of 3; run of 7", "--trials", "100", "--seed", "4", "--json")
    status, out, _ = run(capsys, *argv)
    again = run(capsys, *argv)[1]
    data = json.loads(out)
    assert status == 0 and out == again
    assert data["seed"] == 4 and data["trials"] == 100 and data["turns"] == 5
    assert [p["phase"] for p in data["phases"]] == ["2 sets of 3", "run of 7"]


def test_without_a_list_the_rules_own_list_is_rated(capsys):
    data = json.loads(run(capsys, "rate", "--rules", "even", "--trials", "20", "--json")[1])
    assert sorted(p["number"] for p in data["phases"]) == [1, 2, 3, 4, 5]
    assert {p["phase"] for p in data["phases"]} >= {"set of 5 + set of 3", "run of 7"}


def test_a_drawn_list_names_its_seed_and_draws_the_same_again(capsys):
    first = json.loads(run(capsys, "rate", "--draw", "--seed", "9", "--trials", "20", "--json")[1])
    again = json.loads(run(capsys, "rate", "--draw", "--seed", "9", "--trials", "20", "--json")[1])
    assert first == again and first["drawn"] == 9 and len(first["phases"]) == 10
    status, out, _ = run(capsys, "rate", "--draw", "--trials", "10")
    assert status == 0 and "Drawn with --seed " in out


def test_the_order_given_is_kept_when_asked(capsys):
    argv = ("rate", "set of 5 + set of 3; run of 4", "--trials", "50", "--as-given", "--json")
    data = json.loads(run(capsys, *argv)[1])
    assert [p["number"] for p in data["phases"]] == [1, 2] and data["order"] == "given"


def test_a_phase_no_hand_can_hold_exits_1(capsys):
    status, out, _ = run(capsys, "rate", "run of 12; 2 sets of 3", "--trials", "20")
    assert status == 1 and "never: more cards than a hand holds" in out


def test_bad_input_exits_2_with_a_message(capsys):
    for argv in (
        ("rate", "rn of 3"),
        ("rate", "--turns", "11"),
        ("rate", "--trials", "0"),
        ("rate", "2 sets of 3", "--draw"),
        ("rate", "--rules", "nonsense"),
    ):
        status, out, err = run(capsys, *argv)
        assert status == 2 and not out and err.startswith("scorekeeper rate: "), argv


def test_the_rating_speaks_the_language(capsys):
    out = run(capsys, "--lang", "de", "rate", "2 sets of 3", "--trials", "20")[1]
    assert "20-mal ausgeteilt" in out and "2 Drillinge" in out
    assert "Eine Hand enthält im Schnitt 50\xa0% der Phasen dieser Liste" in out

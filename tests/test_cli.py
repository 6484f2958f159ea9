"""The command line answers exactly as specified: JSON shapes and exit codes 0/1/2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scorekeeper import i18n
from scorekeeper.cli import EXAMPLES, build_parser, main

GAME = {
    "rules": "official",
    "options": {},
    "players": ["Ann", "Bob", "Cy"],
    "dealer": "Ann",
    "hands": [{"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}}],
}


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    """The answers below are English unless a test asks otherwise: whatever the shell says."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def run(capsys, *argv: str) -> tuple[int, dict | str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if "--json" in argv and out else out), err


@pytest.mark.parametrize(
    ("argv", "code", "valid"),
    [
        (["check", "--phase", "1", "R7 B7 W", "G3 G3 Y3"], 0, True),
        (["check", "--phase", "2", "R7 B7 G7", "R3 R4 R6 R7"], 1, False),
        (["check", "--phase", "1", "R7 B7 W", "G3 G3 Y3", "B9 B9 B9"], 1, False),
        (["check", "--phase", "10", "R7 B7 W R7 G7", "Y3 Y3 B3"], 0, True),
        (["check", "--phase", "10", "R7 B7 W G7", "Y3 Y3 B3"], 1, False),
        (
            ["check", "--phase", "10", "--option", "phase10=set4+set3", "R7 B7 W G7", "Y3 Y3 B3"],
            0,
            True,
        ),
        (["check", "--phase", "8", "7H 2H 3H 9H JH QH KS"], 0, True),
    ],
)
def test_check_answers_valid_or_not_with_reasons(capsys, argv, code, valid):
    got, result, _ = run(capsys, *argv, "--json")
    assert got == code
    assert result["valid"] is valid
    assert isinstance(result["reasons"], list) and bool(result["reasons"]) is not valid


@pytest.mark.parametrize(
    ("phases", "cards", "code"),
    [
        ("12 of one colour", "R1 R2", 1),  # it needs twelve cards
        ("22 of one colour", "R1 R2", 1),  # one group of 22, not two of 2
        ("10 of one colour", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10", 0),
        ("11 of one colour", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11", 0),
    ],
)
def test_own_phase_lists_read_a_two_digit_colour_group(capsys, phases, cards, code):
    got, result, err = run(
        capsys,
        *("check", "--option", "phases=custom", "--option", f"custom_phases={phases}"),
        *("--phase", "1", cards, "--json"),
    )
    assert (got, err) == (code, "")
    assert result["valid"] is (code == 0)


def test_check_names_the_group_and_card_in_plain_text(capsys):
    code, out, _ = run(capsys, "check", "--phase", "2", "R7 B7 G7", "R3 R4 R6 R7")
    assert code == 1
    assert "the 5 is missing" in out


def test_solve_gives_one_way_or_what_is_missing(capsys):
    code, result, _ = run(
        capsys, "solve", "--phase", "1", "R7 B7 W G3 G3 Y3 S S R1 B12 Y9", "--json"
    )
    assert code == 0 and result["can_make"] is True
    assert len(result["groups"]) == 2
    code, result, _ = run(
        capsys, "solve", "--phase", "4", "R1 B2 G3 Y9 S S G12 R11 B10 Y8", "--json"
    )
    assert code == 1 and result["can_make"] is False and result["groups"] is None
    assert result["missing"] >= 1


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["hit", "--kind", "run", "R3 R4 W R6", "B7"], 0),
        (["hit", "--kind", "run", "R3 R4 W R6", "B9"], 1),
        (["hit", "--kind", "run", "R10 R11 R12", "B1"], 1),
        (["hit", "--kind", "set", "R7 B7 G7", "W"], 0),
        (["hit", "--kind", "color", "R1 R5 R9", "R12"], 0),
        (["hit", "--kind", "colour", "R1 R5 R9", "S"], 1),
    ],
)
def test_hit_says_whether_a_card_fits(capsys, argv, code):
    got, result, _ = run(capsys, *argv, "--json")
    assert got == code and result["valid"] is (code == 0)


@pytest.mark.parametrize(
    ("cards", "options", "points"),
    [
        ("R7 B11 W S", [], 5 + 10 + 25 + 15),
        ("W W", ["--option", "wild_points=20"], 40),
        ("AH QS KD JOKER", [], 5 + 10 + 25 + 15),
    ],
)
def test_score_adds_up_the_cards_left(capsys, cards, options, points):
    code, result, _ = run(capsys, "score", cards, *options, "--json")
    assert code == 0 and result["points"] == points


def test_standings_replays_a_game_file(capsys, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME))
    code, result, _ = run(capsys, "standings", str(path), "--json")
    assert code == 0
    assert result["players"][0] == {
        **result["players"][0],
        "name": "Ann",
        "phase": 2,
        "score": 0,
        "phases_done": [1],
    }
    assert [p["score"] for p in result["players"]] == [0, 50, 20]
    assert result["dealer"] == "Bob" and result["over"] is False
    assert result["winner"] is None and result["tiebreak"] == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--phase", "1", "R7 X9"], "cannot read card"),
        (["check", "--phase", "11", "R7 B7 W"], "no phase 11"),
        (["check", "--phase", "1", "--rules", "chess", "R7"], "unknown rules"),
        (["check", "--phase", "1", "--option", "wild_points", "R7"], "KEY=VALUE"),
        (["solve", "--phase", "1", ""], "no cards"),
        (["score", "R7 R7 R7"], "impossible"),
        # the even-phases game has no phase 1, in checks and solves as in standings
        (
            ["check", "--rules", "even", "--phase", "1", "R7 B7 W", "G3 G3 Y3"],
            "there is no phase 1 in this game: it plays phases 2, 4, 6, 8 and 10",
        ),
        (["solve", "--rules", "even", "--phase", "3", "R7 B7 W G3"], "no phase 3 in this game"),
        (["check", "--option", "first=5", "--phase", "7", "R7 B7 W R7", "G3 G3 Y3 W"], "1, 2"),
        # a hand never holds more than 11 cards
        (
            ["solve", "--phase", "1", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 B1"],
            "a hand holds at most 11 cards (10 dealt and 1 drawn), not 13",
        ),
        (["standings", "/nonexistent/game.json"], "cannot read"),
    ],
)
def test_bad_input_exits_2_with_a_message_on_stderr(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("{not json", "this is not JSON"),
        (
            json.dumps(
                {
                    **GAME,
                    "hands": [
                        {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 45}}
                    ],
                }
            ),
            "hand 1, Cy",
        ),
        (
            json.dumps(
                {
                    **GAME,
                    "hands": [
                        {"went_out": "Ann", "made": ["Ann", "Bob"], "points": {"Bob": 7, "Cy": 50}}
                    ],
                }
            ),
            "hand 1, Bob",
        ),
        (json.dumps({**GAME, "players": ["Ann"]}), "2"),
    ],
)
def test_a_game_that_breaks_the_rules_exits_2_naming_hand_and_player(
    capsys, tmp_path, game, message
):
    path = tmp_path / "game.json"
    path.write_text(game)
    code, _, err = run(capsys, "standings", str(path))
    assert code == 2 and message in err


def test_every_command_has_help_with_an_example():
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # noqa: SLF001
    assert set(commands) == set(EXAMPLES)
    for name, sub in commands.items():
        assert EXAMPLES[name] in sub.format_help()


@pytest.mark.server
def test_the_installed_command_runs():
    out = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "score", "W", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == {"points": 25, "cards": 1}


def test_check_json_gives_each_reason_with_its_rule(capsys):
    code, result, _ = run(capsys, "check", "--phase", "1", "R7 B7 G8", "G3 G3 Y3", "--json")
    assert code == 1
    assert result == {
        "valid": False,
        "reasons": ["set of 3 (R7 B7 G8): G8 is not a 7"],
        "rules": ["Rule 4: sets"],
        "problems": [
            {
                "message": "set of 3 (R7 B7 G8): G8 is not a 7",
                "rule": "Rule 4: sets",
                "anchor": "sets",
                "player": None,
                "field": None,
                "warning": False,
            }
        ],
        "phase": 1,
    }


def test_hit_json_says_when_the_wilds_decide_it(capsys):
    code, result, _ = run(capsys, "hit", "--kind", "run", "W R5", "R6", "--json")
    assert code == 1
    assert result["valid"] is False and result["where"] is None
    assert result["reasons"] == [
        "it depends on what the Wilds were laid down as: R6 fits if the run is 4-5, not if it "
        "is 5-6"
    ]
    assert result["rules"] == ["Rule 6: hitting"]


def test_print_writes_a_games_sheet_with_its_hands_and_link(capsys, tmp_path):
    from io import BytesIO

    from pypdf import PdfReader

    game = tmp_path / "game.json"
    game.write_text(json.dumps(GAME))
    out = tmp_path / "sheet.pdf"
    link = "http://192.168.1.20:5010/v/AbCdEfGhIjKlMnOpQrStUv"
    code, result, err = run(
        capsys, "print", str(game), "--out", str(out), "--link", link, "--size", "a4", "--json"
    )
    assert (code, err) == (0, "")
    assert result == {"file": str(out), "bytes": out.stat().st_size}
    text = " ".join(PdfReader(BytesIO(out.read_bytes())).pages[0].extract_text().split())
    assert "1 Ann 1 out 0 0 1 50 50 1 20 20" in text  # Ann dealt, went out
    assert "In progress after 1 hand: hand 2 is next, dealt by Bob." in text
    assert link in "".join(text.split())
    argv = ["print", str(game), "--out", str(out), "--link", link, "--code", "abcd 0efg h1jk mnpq"]
    assert run(capsys, *argv)[0] == 0
    text = "".join(PdfReader(BytesIO(out.read_bytes())).pages[0].extract_text().split())
    assert "http://192.168.1.20:5010/ABCD-0EFG-H1JK-MNPQ" in text


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--link", "javascript:alert(1)"], "--link must be a web address"),
        (["--link", "http://h/v/x", "--code", "ABCD-EFGH"], "--code must be a game's"),
        (["--code", "ABCD-0EFG-H1JK-MNPQ"], "--code must be a game's"),
        (["--large", "--out", "x.pdf"], None),
    ],
)
def test_print_refuses_bad_links_and_oversized_large_print(capsys, tmp_path, argv, says):
    game = tmp_path / "game.json"
    players = ["A", "B", "C", "D", "E"] if says is None else ["A", "B"]
    game.write_text(json.dumps({"players": players, "hands": []}))
    argv = [a if a != "x.pdf" else str(tmp_path / "x.pdf") for a in argv]
    code, _, err = run(capsys, "print", str(game), *argv)
    assert code == 2
    assert (says or "at most 4 players") in err
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.printing
def test_printables_can_carry_the_apps_address_on_the_guide(capsys, tmp_path):
    from io import BytesIO

    from pypdf import PdfReader

    app_url = "https://phase10.example.org/"
    code, result, err = run(
        capsys, "printables", "--out", str(tmp_path), "--app-url", app_url, "--json"
    )
    assert (code, err) == (0, "") and len(result["files"]) == 20
    guide = PdfReader(BytesIO((tmp_path / "two-deck-guide-letter.pdf").read_bytes()))
    assert f"open {app_url}" in " ".join(guide.pages[0].extract_text().split())


def test_printables_refuse_an_app_address_that_is_not_a_web_address(capsys, tmp_path):
    code, _, err = run(capsys, "printables", "--out", str(tmp_path), "--app-url", "file:///x")
    assert code == 2 and "--app-url must be a web address" in err
    assert list(tmp_path.iterdir()) == []


def test_print_reports_a_bad_game_file_with_exit_2(capsys, tmp_path):
    game = tmp_path / "game.json"
    game.write_text(json.dumps({**GAME, "hands": [{"went_out": "Zed"}]}))
    code, _, err = run(capsys, "print", str(game), "--out", str(tmp_path / "s.pdf"))
    assert code == 2 and "Zed" in err
    assert not (tmp_path / "s.pdf").exists()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"players": ["Ann", "Bob"], "dealer": ' + "9" * 5000 + "}", "at most 30 digits"),
        ("[" * 30_000 + "]" * 30_000, "nests more than 20 levels"),
    ],
)
def test_standings_refuses_a_file_built_to_crash_it_with_exit_2(tmp_path, capsys, text, says):
    path = tmp_path / "game.json"
    path.write_text(text)
    assert main(["standings", str(path)]) == 2
    assert says in capsys.readouterr().err


# --- in the other languages ------------------------------------------------------------

TWO_GROUPS = ["check", "--phase", "2", "R7 B7 G7", "R3 R4 R6 R7"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--lang", "de", *TWO_GROUPS], ["Phase 2 (", "): ungültig"]),
        ([*TWO_GROUPS, "--lang", "es"], ["Fase 2 (", "): no válida"]),
        (["--lang", "de", "check", "--phase", "1", "R7 B7 W", "G3 G3 Y3"], ["): gültig"]),
        (["--lang", "es", "score", "R7 B11 W S"], ["55 puntos"]),
        (["--lang", "de", "hit", "--kind", "run", "R3 R4 W R6", "B9"], ["B9 passt nicht"]),
        (["solve", "--phase", "1", "R1 B2 G3", "--lang", "de"], ["Karten fehlen"]),
        (["--lang", "fr", *TWO_GROUPS], ["Phase 2 (1 brelan + 1 suite de 4)\u00a0: pas valide"]),
        (["--lang", "fr", "solve", "--phase", "1", "R1 B2 G3"], ["il manque"]),
        (["--lang", "it", "score", "R7 B11 W S"], ["55 punti"]),
        (["--lang", "it", "hit", "--kind", "run", "R3 R4 W R6", "B9"], ["B9"]),
    ],
)
def test_the_answers_speak_the_language_asked_for(capsys, argv, said):
    code, out, err = run(capsys, *argv)
    assert code in (0, 1) and err == ""
    for words in said:
        assert words in out
    ours = out.splitlines()[0]  # the reasons below it are the rules engine's
    for english in ("valid", "points", "fit", "missing", "cannot"):
        assert english not in ours.replace("válida", "").replace("valide", "")


def test_the_shells_language_is_the_default_and_lang_overrides_it(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert run(capsys, "score", "R7 B11 W S")[1] == "55 Punkte\n"
    assert run(capsys, "score", "R7", "--lang", "en")[1] == "5 points\n"
    monkeypatch.setenv("LANGUAGE", "es")
    assert run(capsys, "score", "R7")[1] == "5 puntos\n"


@pytest.mark.parametrize(
    "argv",
    [
        TWO_GROUPS,
        ["check", "--phase", "1", "R7 B7 W", "G3 G3 Y3"],
        ["solve", "--phase", "1", "R7 B7 W G3 G3 Y3 S S R1 B12 Y9"],
        ["solve", "--phase", "4", "R1 B2 G3 Y9 S S G12 R11 B10 Y8"],
        ["hit", "--kind", "run", "R3 R4 W R6", "B7"],
        ["hit", "--kind", "run", "R10 R11 R12", "B1"],
        ["score", "R7 B11 W S"],
    ],
)
def test_json_answers_are_the_same_in_every_language(capsys, argv):
    answers = []
    for language in i18n.LANGUAGES:
        code = main(["--lang", language, *argv, "--json"])
        answers.append((code, *capsys.readouterr()))
    assert all(answer == answers[0] for answer in answers)
    assert answers[0][1].startswith("{")


def test_standings_json_is_the_same_in_every_language_and_the_table_is_translated(capsys, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME))
    outputs = {
        lang: run(capsys, "standings", str(path), "--json", "--lang", lang)[1]
        for lang in i18n.LANGUAGES
    }
    assert all(output == outputs["en"] for output in outputs.values())
    german = run(capsys, "--lang", "de", "standings", str(path))[1]
    assert "Phase 2" in german and "50 Punkte" in german
    assert "Nächste Runde: 2, Bob gibt" in german
    spanish = run(capsys, "--lang", "es", "standings", str(path))[1]
    assert "Siguiente ronda: 2, reparte Bob" in spanish and "20 puntos" in spanish


def test_bad_input_is_explained_in_the_language_with_the_same_exit_code(capsys, tmp_path):
    code, _, err = run(capsys, "--lang", "de", "solve", "--phase", "1", "")
    assert code == 2 and err == "scorekeeper solve: keine Karten angegeben\n"
    missing = str(tmp_path / "none.json")
    code, _, err = run(capsys, "standings", missing, "--lang", "es")
    assert code == 2 and err.startswith(f"scorekeeper standings: no se puede leer {missing}:")
    code, _, err = run(capsys, "--lang", "de", "solve", "--phase", "1", "", "--json")
    assert code == 2 and err == "scorekeeper solve: no cards given\n"  # --json: English


def test_check_help_says_a_run_may_be_given_in_any_order(capsys):
    """The engine reads a run laid down in any order; its help says so too."""
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "runs in order" not in help_text and "a run's cards in any order" in help_text
    code, result, _ = run(capsys, "check", "--phase", "4", "R7 R1 R3 R2 R6 R4 R5", "--json")
    assert code == 0 and result["valid"]


def test_help_is_in_the_language(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--lang", "es", "check", "--help"])
    out = capsys.readouterr().out
    assert exit.value.code == 0
    assert "¿Es una fase válida? Da cada combinación como un argumento." in out
    assert "Ejemplo:" in out and "el número de la fase" in out


def test_a_wrong_language_is_refused_with_exit_2(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--lang", "nl", "score", "R7"])
    assert exit.value.code == 2 and "invalid choice: 'nl'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "Läuft seit 1 Runde: Als Nächstes kommt Runde 2, Bob gibt."),
        ("es", "En juego tras 1 ronda: sigue la ronda 2 y reparte Bob."),
    ],
)
def test_print_writes_the_sheet_in_the_language_even_when_answering_in_json(
    capsys, tmp_path, language, said
):
    from io import BytesIO

    from pypdf import PdfReader

    game = tmp_path / "game.json"
    game.write_text(json.dumps(GAME))
    out = tmp_path / "sheet.pdf"
    code, result, err = run(
        capsys, "print", str(game), "--out", str(out), "--lang", language, "--json"
    )
    assert (code, err) == (0, "") and result == {"file": str(out), "bytes": out.stat().st_size}
    text = " ".join(PdfReader(BytesIO(out.read_bytes())).pages[0].extract_text().split())
    assert said in text

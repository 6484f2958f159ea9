"""The printables in German and Spanish: every printed word of ours translated, nothing clipped.

The phase names, profile titles and the blue-Skip sentence come from the rules
engine (its own catalogue area); the checks for English leftovers look at the
printables' own texts, so they take those out first.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from test_printing import (
    EVERY_HOUSE_RULE,
    assert_cards_unclipped,
    overlapping,
    pages,
    word_boxes,
    words,
)
from webutil import new_game, record

from scorekeeper import catalogues, i18n
from scorekeeper.printing import (
    STANDARD_SET,
    deck_guide,
    game_sheet,
    reference_cards,
    score_sheet,
    write_standard_set,
)
from scorekeeper.printing import sheets as sheet_layout
from scorekeeper.printing.layout import page_size
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.house_rules import profile_title
from scorekeeper.rules.phases import Rules, make_rules

PRINTABLES = Path(__file__).resolve().parents[1] / "printables"
PLACEHOLDER = re.compile(r"%\(\w+\)\d*[sr]")
FINISHED = [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 55}}] * 10


@cache
def english_fragments(language: str) -> tuple[str, ...]:
    """The English pieces of every printed text (between its placeholders and tags) that the
    language's translations do not also use."""
    messages = [m for m in catalogues.read(language, "printing") if m.id]
    translated = " ".join(
        " ".join(m.string if isinstance(m.string, tuple) else (m.string,)) for m in messages
    )
    translated = " ".join(re.sub(r"<[^>]+>", " ", translated).split()).lower()
    fragments = set()
    for message in messages:
        for ident in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in PLACEHOLDER.split(re.sub(r"<[^>]+>", " ", ident)):
                piece = " ".join(piece.split()).strip(" .,:;()-")
                if len(piece) >= 4 and piece.lower() not in translated:
                    fragments.add(piece)
    return tuple(sorted(fragments))


def engine_words(rules: Rules) -> list[str]:
    """What the rules engine says on a printable (its catalogue, not ours)."""
    said = [str(rules.phase(number)) for number in set(rules.sequence)]
    return [*said, profile_title(rules), rules.blue_skip_text()]


def leftovers(text: str, language: str, rules: Rules) -> list[str]:
    """English texts of the printables found in ``text`` (printed in ``language``), in any
    case: card headings are printed in capitals."""
    with i18n.using(language):
        for said in sorted(engine_words(rules), key=len, reverse=True):
            text = text.replace(" ".join(said.split()), " ")
    return [
        piece
        for piece in english_fragments(language)
        if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text, re.IGNORECASE)
    ]


def finished_game():
    return load_game({"players": ["Ann", "Bob", "Cy"], "hands": FINISHED})


def test_the_leftover_check_finds_english_in_a_printable():
    found = leftovers(words(reference_cards(make_rules())), "de", make_rules())
    assert {"one number, any colours", "Going out", "Wild and Skip"} <= set(found)


# --- a game's sheet with its record ---------------------------------------------------


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            [
                "Ann hat nach 10 Runden mit 0 Punkten gewonnen.",
                "Runde Geber Ann Phase Punkte Gesamt",
                "Ende fertig Sieg 0 in 1 500 in 1 550",
                "Punkte für Karten auf der Hand 1 bis 9 5 10, 11, 12 10 Aussetzen 15 Joker 25 "
                "Rausgehen 0",
                "Punkte live: Code scannen oder diesen Link eintippen:",
                "Regeln:",
            ],
        ),
        (
            "es",
            [
                "Ann ganó tras 10 rondas con 0 puntos.",
                "Ronda Reparte Ann Fase Puntos Total",
                "Final todas ganó 0 en 1 500 en 1 550",
                "Puntos por cartas en la mano 1 a 9 5 10, 11, 12 10 Salto 15 Comodín 25 Cerrar 0",
                "Puntos en directo: escanea el código o escribe este enlace:",
                "Reglas:",
            ],
        ),
    ],
)
def test_a_games_sheet_prints_its_record_in_the_language_chosen(language, said):
    game = finished_game()
    with i18n.using(language):
        text = words(game_sheet(game, view_url="https://phase10.test/v/abcdefghijkl"))
    for words_said in said:
        assert words_said in text
    assert "raus" in text if language == "de" else "cerró" in text
    assert leftovers(text, language, game.rules) == []


@pytest.mark.parametrize(
    ("language", "tied", "settled", "next_hand"),
    [
        (
            "de",
            "Gleichstand zwischen Ann und Bob: Es folgt ein Stechen, Bob gibt.",
            "Bob hat das Stechen nach 11 Runden gewonnen.",
            "Läuft seit 1 Runde: Als Nächstes kommt Runde 2, Bob gibt.",
        ),
        (
            "es",
            "Ann y Bob están empatados: juegan una ronda de desempate y reparte Bob.",
            "Bob ganó el desempate tras 11 rondas.",
            "En juego tras 1 ronda: sigue la ronda 2 y reparte Bob.",
        ),
    ],
)
def test_a_tie_a_tiebreak_and_a_game_in_progress_are_said_in_the_language(
    language, tied, settled, next_hand
):
    both = [
        {"went_out": "Ann", "made": ["Ann", "Bob"], "points": {"Bob": 5, "Cy": 60}},
        {"went_out": "Bob", "made": ["Ann", "Bob"], "points": {"Ann": 5, "Cy": 60}},
    ] * 5
    tiebreak = {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 50}, "tiebreak": True}
    players = ["Ann", "Bob", "Cy"]
    one_hand = [{"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}}]
    with i18n.using(language):
        assert tied in words(game_sheet(load_game({"players": players, "hands": both})))
        done = words(game_sheet(load_game({"players": players, "hands": [*both, tiebreak]})))
        started = words(game_sheet(load_game({"players": players, "hands": one_hand})))
    assert settled in done
    assert ("Stechen" if language == "de" else "Empate") in done.split(settled)[-1]
    assert next_hand in started


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Ann won after 10 hands with 1,000 points."),
        ("de", "Ann hat nach 10 Runden mit 1.000 Punkten gewonnen."),
        ("es", "Ann ganó tras 10 rondas con 1.000 puntos."),
    ],
)
def test_numbers_in_a_sentence_are_written_as_the_language_writes_them(language, said):
    hands = [
        {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 200}},
        {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 205}},
    ] * 5
    game = load_game({"rules": "ten-hands", "players": ["Ann", "Bob"], "hands": hands})
    with i18n.using(language):
        assert said in words(game_sheet(game))


@pytest.mark.parametrize("language", ["de", "es"])
def test_every_house_rule_is_said_in_the_language(language):
    rules = make_rules("official", EVERY_HOUSE_RULE)
    with i18n.using(language):
        text = words(score_sheet(rules))
    expected = {
        "de": [
            "Hausregeln: Phase 10 + 10: zwanzig Phasen.",
            "Ein Joker auf der Hand zählt 20.",
            "Zwei Rommé-Blätter: Herz = blau, Karo = grün, Kreuz = rot, Pik = gelb.",
        ],
        "es": [
            "Reglas de la casa: Phase 10 + 10: veinte fases.",
            "Un Comodín que queda en la mano vale 20.",
            "Dos barajas francesas: corazones = azul, diamantes = verde, tréboles = rojo, "
            "picas = amarillo.",
        ],
    }[language]
    for said in expected:
        assert said in text
    assert leftovers(text, language, rules) == []


@pytest.mark.parametrize("language", ["de", "es"])
@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        (make_rules(), {}),
        (make_rules("ten-hands"), {"pagesize": "a4"}),
        (make_rules("official", EVERY_HOUSE_RULE), {"players": ["Ann", "Bo"], "large": True}),
    ],
    ids=["blank", "ten-hands", "large"],
)
def test_no_translated_sheet_text_is_clipped_or_overlapping(language, rules, kwargs, tmp_path):
    with i18n.using(language):
        data = score_sheet(rules, **kwargs)
    assert leftovers(words(data), language, rules) == []
    width, _height = page_size(kwargs.get("pagesize", "letter"))
    margin = sheet_layout.MARGIN - 0.5
    for page in word_boxes(data, tmp_path):
        for x0, _top, x1, _bottom, word in page:
            assert margin <= x0 and x1 <= width - margin, f"{word!r} runs off the side"
        assert overlapping(page) == []


@pytest.mark.parametrize("language", ["de", "es"])
@pytest.mark.parametrize("large", [False, True], ids=["regular", "large"])
def test_a_games_sheet_with_a_tiebreak_labels_its_row_inside_the_column(language, large, tmp_path):
    both = [
        {"went_out": "Ann", "made": ["Ann", "Bob"], "points": {"Bob": 5, "Cy": 60}},
        {"went_out": "Bob", "made": ["Ann", "Bob"], "points": {"Ann": 5, "Cy": 60}},
    ] * 5
    tiebreak = {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 50}, "tiebreak": True}
    game = load_game({"players": ["Ann", "Bob", "Cy"], "hands": [*both, tiebreak]})
    with i18n.using(language):
        data = game_sheet(game, view_url="https://phase10.test/v/abcdefghijkl", large=large)
    label = "Stechen" if language == "de" else "Empate"
    column = (sheet_layout.LARGE if large else sheet_layout.REGULAR).hand_column
    for page in word_boxes(data, tmp_path):
        assert overlapping(page) == []
        widths = [x1 - x0 for x0, _top, x1, _bottom, word in page if word == label]
        assert widths[-1] < column  # the row's label (drawn after the sentence at the top)


# --- phase reference cards -------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            [
                "GRUPPEN Satz: eine Zahl, beliebige Farben.",
                "Folge: Zahlen der Reihe nach, beliebige Farben; auf 12 folgt nie 1.",
                "JOKER UND AUSSETZEN Joker: jede Zahl, jede Farbe;",
                "PUNKTE AUF DER HAND",
                "In 100 % drucken",
            ],
        ),
        (
            "es",
            [
                "COMBINACIONES Grupo: un mismo número, de cualquier color.",
                "Escalera: números seguidos, de cualquier color;",
                "COMODÍN Y SALTO Comodín: cualquier número, cualquier color;",
                "PUNTOS EN LA MANO",
                "Imprime al 100 %",
            ],
        ),
    ],
)
def test_the_phase_cards_explain_groups_wild_skip_and_points_in_the_language(
    language, said, tmp_path
):
    rules = make_rules("super-wild", {"going_out": "discard", "skip_out": "draw"})
    with i18n.using(language):
        data = reference_cards(rules)
    text = words(data)
    for words_said in said:
        assert words_said in text
    assert leftovers(text, language, rules) == []
    assert_cards_unclipped(data, tmp_path)


# --- the two-deck guide ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            [
                "Phase 10 mit zwei Rommé-Blättern",
                "Ass 1 5",
                "Bube 11 10",
                "Dame 12 10",
                "König Joker 25",
                "Joker des Rommé-Blatts Aussetzen 15",
                "Herz 7 = rote 7",
                "Pik 7 = blaue 7",
                "Ass bis Dame: 12 Werte x 4 Kartenfarben x 2 Blätter 96",
                "Gesamt 108",
            ],
        ),
        (
            "es",
            [
                "Phase 10 con dos barajas francesas",
                "As 1 5",
                "Jota 11 10",
                "Reina 12 10",
                "Rey Comodín 25",
                "Joker de la baraja Salto 15",
                "7 de corazones = 7 rojo",
                "7 de picas = 7 azul",
                "As a Reina: 12 valores x 4 palos x 2 barajas 96",
                "Total 108",
            ],
        ),
    ],
)
def test_the_two_deck_guide_is_one_page_in_the_language(language, said):
    rules = make_rules()
    with i18n.using(language):
        data = deck_guide(rules)
    text = words(data)
    assert pages(data) == 1
    for words_said in said:
        assert words_said in text
    assert leftovers(text, language, rules) == []


@pytest.mark.parametrize("language", ["de", "es"])
def test_the_longest_guide_still_fits_one_page_in_the_language(language, tmp_path):
    rules = make_rules("super-wild", {"suits": "H=B,D=G,C=R,S=Y"})
    with i18n.using(language):
        data = deck_guide(rules, view_url="https://phase10.test/v/abcdefghijkl")
    assert pages(data) == 1
    assert leftovers(words(data), language, rules) == []
    assert [overlapping(page) for page in word_boxes(data, tmp_path)] == [[]]


# --- the standard set, and English untouched -------------------------------------------


def test_english_prints_as_before_after_printing_in_another_language():
    name, build = STANDARD_SET[0]
    with i18n.using("de"):
        german = build()
    assert build() == (PRINTABLES / name).read_bytes() != german


@pytest.mark.parametrize("language", ["de", "es"])
def test_the_translated_printables_folders_are_not_stale(language, tmp_path):
    fresh = {path.name: path.read_bytes() for path in write_standard_set(tmp_path, language)}
    folder = PRINTABLES / language
    committed = {path.name: path.read_bytes() for path in folder.glob("*.pdf")}
    command = f"scorekeeper printables --lang {language} --out printables/{language}"
    hint = f"printables/{language} is stale: run `{command}`"
    assert sorted(committed) == sorted(name for name, _build in STANDARD_SET), hint
    assert [name for name in fresh if fresh[name] != committed[name]] == [], hint


# --- printed from the app: the page's language -----------------------------------------


@pytest.mark.parametrize(
    ("accept", "said"),
    [
        ("de-DE,de;q=0.9", "Läuft seit 1 Runde: Als Nächstes kommt Runde 2"),
        ("es-ES,es;q=0.9", "En juego tras 1 ronda: sigue la ronda 2"),
        ("en-GB,en;q=0.9", "In progress after 1 hand: hand 2 is next"),
    ],
)
def test_a_games_sheet_prints_in_the_language_of_the_page_it_was_printed_from(client, accept, said):
    game_url = new_game(client)
    assert record(client, game_url, 1, 0, {1: 50, 2: 20}).status_code == 303
    view = "/v/" + game_url.split("/")[2]
    response = client.get(f"{view}/print/score-sheet.pdf", headers={"Accept-Language": accept})
    assert response.status_code == 200
    assert said in words(response.data)


def test_a_standard_printable_follows_the_switcher(client):
    client.get("/language/es?next=/printables")
    response = client.get("/printables/two-deck-guide-a4.pdf", headers={"Accept-Language": "de"})
    assert "Phase 10 con dos barajas francesas" in words(response.data)

"""The printables in German and Spanish: every printed word of ours translated, nothing clipped.

The phase names, profile titles and the blue-Skip sentence come from the rules
engine (its own catalogue area); the checks for English leftovers look at the
printables' own texts, so they take those out first.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from functools import cache
from io import BytesIO
from pathlib import Path

import pytest
from games import EVERY_HOUSE_RULE, tied
from printed import assert_cards_unclipped, folds, overlapping, pages, word_boxes, words
from pypdf import PdfReader
from tools import require
from webutil import new_game, record, watch_path

from scorekeeper import i18n
from scorekeeper.i18n import catalogues
from scorekeeper.printing import (
    STANDARD_SET,
    deck_guide,
    game_sheet,
    reference_cards,
    score_sheet,
    sheet_page,
    write_standard_set,
)
from scorekeeper.printing import sheets as sheet_layout
from scorekeeper.printing import text as printed
from scorekeeper.printing.bidi import isolate
from scorekeeper.printing.layout import page_size
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.house_rules import profile_title
from scorekeeper.rules.ruleset import Rules, make_rules

pytestmark = pytest.mark.printing  # prints every printable in every language

PRINTABLES = Path(__file__).resolve().parents[1] / "printables"
TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT]
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
    ("language", "said_tied", "settled", "next_hand"),
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
    language, said_tied, settled, next_hand
):
    players = ["Ann", "Bob", "Cy"]
    one_hand = [{"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}}]
    with i18n.using(language):
        assert said_tied in words(game_sheet(tied()))
        done = words(game_sheet(tied(50)))
        started = words(game_sheet(load_game({"players": players, "hands": one_hand})))
    assert settled in done
    # the tiebreak hand's row names the tiebreak, not the tie (short in a narrow column)
    assert ("Stechen" if language == "de" else "Desemp.") in done.split(settled)[-1]
    assert next_hand in started


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Ann won after 10 hands with 1,000 points."),
        ("de", "Ann hat nach 10 Runden mit 1.000 Punkten gewonnen."),
        ("es", "Ann ganó tras 10 rondas con 1.000 puntos."),
        ("fr", "Ann a gagné après 10 manches avec 1 000 points."),
        ("it", "Ann ha vinto dopo 10 mani con 1.000 punti."),
        ("pl", "Wygrywa Ann po 10 rozdaniach, punkty: 1 000."),
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


@pytest.mark.parametrize("language", TRANSLATED)
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
    margin = sheet_page.MARGIN - 0.5
    for page in word_boxes(data, tmp_path):
        for x0, _top, x1, _bottom, word in page:
            assert margin <= x0 and x1 <= width - margin, f"{word!r} runs off the side"
        assert overlapping(page) == []


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("large", [False, True], ids=["regular", "large"])
def test_a_games_sheet_with_a_tiebreak_labels_its_row_inside_the_column(language, large, tmp_path):
    game = tied(50)
    with i18n.using(language):
        data = game_sheet(game, view_url="https://phase10.test/v/abcdefghijkl", large=large)
        # the word, or its short form where the first column cannot hold it at 9 pt (14)
        labels = {i18n.pgettext("score sheet", "Tie"), i18n.pgettext("score sheet, short", "Tie")}
        # the first column is as wide as its longest word ("Dogrywka") at the sheet's least size
        column = sheet_layout.ScoreSheet(game.rules, game=game, large=large).table.label_width()
    for page in word_boxes(data, tmp_path):
        assert overlapping(page) == []
        widths = [x1 - x0 for x0, _top, x1, _bottom, word in page if word in labels]
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
                "Ass bis Dame: 12 Werte × 4 Kartenfarben × 2 Blätter 96",
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
                "As a Reina: 12 valores × 4 palos × 2 barajas 96",
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


@pytest.mark.parametrize("language", TRANSLATED)
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


@pytest.mark.parametrize("language", TRANSLATED)
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
    view = watch_path(game_url)
    response = client.get(f"{view}/print/score-sheet.pdf", headers={"Accept-Language": accept})
    assert response.status_code == 200
    assert said in words(response.data)


def test_a_standard_printable_follows_the_switcher(client):
    client.get("/language/es?next=/printables")
    response = client.get("/printables/two-deck-guide-a4.pdf", headers={"Accept-Language": "de"})
    assert "Phase 10 con dos barajas francesas" in words(response.data)


# --- names as units, in every language ---------------------------------------------------

RIGHT_TO_LEFT_WORD = re.compile("\u202b( *)([^\u202c]*?)( *)\u202c")
MARKS = dict.fromkeys(
    map(ord, "\u202a\u202b\u202c\u202d\u202e\u200e\u200f\u2066\u2067\u2068\u2069")
)


def read_aloud(data: bytes, tmp_path: Path) -> list[str]:
    """The lines of the first page as they are seen, left to right (``pdftotext -layout``),
    with Arabic letters in their plain forms and no direction marks.

    pdftotext gives each right-to-left word in reading order between embedding marks, with
    the space it sees on its left inside them; moved out, the line reads as it is seen.
    """
    require("pdftotext")
    source = tmp_path / "sheet.pdf"
    source.write_bytes(data)
    layout = subprocess.run(
        ["pdftotext", "-layout", "-l", "1", str(source), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    layout = RIGHT_TO_LEFT_WORD.sub(lambda m: m[3] + m[2] + m[1], layout)
    text = unicodedata.normalize("NFKC", layout).translate(MARKS)
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def tied_then(*extra: dict) -> dict:
    """שרה and محمد tie after ten hands, with محمد to deal the tiebreak; José trails."""
    both = [
        {"went_out": "שרה", "made": ["שרה", "محمد"], "points": {"محمد": 5, "José": 60}},
        {"went_out": "محمد", "made": ["שרה", "محمد"], "points": {"שרה": 5, "José": 60}},
    ] * 5
    return {"players": ["שרה", "محمد", "José"], "dealer": "שרה", "hands": [*both, *extra]}


WON_OUTRIGHT = {
    "players": ["שרה", "محمد", "José"],
    "hands": [{"went_out": "محمد", "made": ["محمد"], "points": {"שרה": 50, "José": 60}}] * 10,
}
TIEBREAK = {"went_out": "محمد", "made": ["محمد"], "points": {"שרה": 55}, "tiebreak": True}


@pytest.mark.parametrize(
    ("language", "tie", "tiebreak_won", "won"),
    [
        (
            "en",
            "שרה and محمد are tied: they play a tiebreak hand, dealt by محمد.",
            "محمد won the tiebreak after 11 hands.",
            "محمد won after 10 hands with 0 points.",
        ),
        (
            "de",
            "Gleichstand zwischen שרה und محمد: Es folgt ein Stechen, محمد gibt.",
            "محمد hat das Stechen nach 11 Runden gewonnen.",
            "محمد hat nach 10 Runden mit 0 Punkten gewonnen.",
        ),
        (
            "es",
            "שרה y محمد están empatados: juegan una ronda de desempate y reparte محمد.",
            "محمد ganó el desempate tras 11 rondas.",
            "محمد ganó tras 10 rondas con 0 puntos.",
        ),
    ],
)
def test_right_to_left_names_are_units_of_a_sentence_in_the_languages_direction(
    language, tie, tiebreak_won, won, tmp_path
):
    with i18n.using(language):
        sheets = {
            said: game_sheet(load_game(game))
            for said, game in (
                (tie, tied_then()),
                (tiebreak_won, tied_then(TIEBREAK)),
                (won, WON_OUTRIGHT),
            )
        }
    for said, data in sheets.items():
        lines = read_aloud(data, tmp_path)
        assert lines[0] == "Phase 10: שרה, محمد, José"  # seat order, as the columns
        assert said in " ".join(lines[:5]), lines[:5]  # the sentence may run on a line


def test_a_name_cannot_reach_outside_its_isolate():
    """A stray mark in a name (the engine refuses them; a title may carry one) stays inside."""
    assert isolate("\u202eשרה\u2069") == "\u2068שרה\u2069"
    assert isolate("\u202eAnn\u2069") == "Ann"  # left to right: nothing to keep in place


def test_only_a_name_written_right_to_left_carries_the_invisible_marks():
    """The marks travel with copied text (titles, BG Stats); a name that cannot move gets none."""
    assert isolate("Dana 🎲") == "Dana 🎲" and isolate("O'Brien-2") == "O'Brien-2"
    assert isolate("Ann محمد") == "\u2068Ann محمد\u2069"


# --- phase cards: how many players a page serves, as the page says ------------------------

NEEDS = {
    "en": (r"Each player needs (\d+) cards?\.", r"This page has cards for (\d+) players?\."),
    "de": (r"Jeder Spieler braucht (\d+) Karten?\.", r"Diese Seite hat Karten für (\d+) Spieler\."),
    "es": (
        r"Cada jugador necesita (\d+) tarjetas?\.",
        r"Esta página tiene tarjetas para (\d+) jugador",
    ),
    "fr": (
        r"Chaque joueur a besoin de (\d+) cartes?\.",
        r"Cette page a des cartes pour (\d+) joueur",
    ),
    "it": (
        r"Ogni giocatore ha bisogno di (\d+) cart[ae]\.",
        r"Questa pagina ha carte per (\d+) giocator",
    ),
    "pl": (r"Każdy gracz potrzebuje (\d+) kart[y]?\.", r"Na tej stronie są karty dla (\d+) gracz"),
}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("profile", ["official", "plus10", "super-wild", "masters", "mixed-up"])
def test_the_cards_say_how_many_each_player_needs_and_how_many_players_a_page_serves(
    language, profile
):
    with i18n.using(language):
        data = reference_cards(make_rules(profile))
    page = PdfReader(BytesIO(data)).pages[0]
    text = " ".join(page.extract_text().split())
    needs, serves = (re.search(pattern, text) for pattern in NEEDS[language])
    assert needs and serves, text[-200:]
    cards, players = int(needs.group(1)), int(serves.group(1))
    assert text.count("PHASE 10 ") == players  # each set's first face
    assert len(folds(page)) == cards * players  # a fold down each pair
    assert players == 4 // cards  # as many as the four fold pairs of a page allow


def test_a_spanish_card_keeps_its_points_on_the_front_rather_than_need_a_second_card():
    """The front's free room comes first: the Spanish points table goes under the phases."""
    with i18n.using("es"):
        data = reference_cards(make_rules())
    assert "Cada jugador necesita 1 tarjeta. Esta página tiene tarjetas para 4 jugadores." in (
        words(data)
    )


def test_a_phase_never_leaves_its_last_number_alone_on_a_line():
    with i18n.using("es"):
        rows = printed.phase_rows(make_rules())
    assert (3, "1 grupo de\u00a04 + 1 escalera de\u00a04") in rows

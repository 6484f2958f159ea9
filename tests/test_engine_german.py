"""The rules engine in German and Spanish: verdicts, reasons, rule titles, phases and cards.

The words follow docs/i18n-glossary.md (Drilling, Viererfolge, Joker, Aussetzen;
grupo, escalera, comodín, Salto). Card codes typed by players stay as typed.
"""

from __future__ import annotations

import re

import pytest
from webpage import read

from scorekeeper import i18n
from scorekeeper.i18n import catalogues
from scorekeeper.rules import reasons
from scorekeeper.rules.cards import parse_card, parse_cards
from scorekeeper.rules.check import check_phase
from scorekeeper.rules.end_of_hand import counts_problems, total_problems
from scorekeeper.rules.game import GameError
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.hit import check_hit
from scorekeeper.rules.options import OPTIONS
from scorekeeper.rules.phases import GroupKind, GroupSpec
from scorekeeper.rules.replay import replay
from scorekeeper.rules.ruleset import OFFICIAL, PROFILES, make_rules
from scorekeeper.rules.scoring import CardsLeft
from scorekeeper.rules.solve import closer_cards, describe_cards, solve

SUPER = make_rules("super-wild")
PLUS10 = make_rules("plus10")


def groups(*texts: str):
    return [parse_cards(text) for text in texts]


def cited(verdict) -> list[str]:
    return [problem.cited() for problem in verdict.problems]


# --- rule titles ---------------------------------------------------------------


@pytest.mark.parametrize("language", ["de", "es"])
@pytest.mark.parametrize("rule", reasons.ALL_RULES, ids=lambda rule: rule.anchor)
def test_every_rule_has_a_translated_title(language, rule):
    entry = catalogues.merged(language).get(rule.title)
    assert entry is not None and entry.string, f"{rule.title!r} has no {language} title"
    word = {"de": "Regel", "es": "Regla"}[language]
    with i18n.using(language):
        assert str(rule) == f"{word} {rule.number}: {entry.string}"


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Rule 8: card points"),
        ("de", "Regel 8: Kartenpunkte"),
        ("es", "Regla 8: puntos de las cartas"),
    ],
)
def test_a_rule_is_cited_in_the_readers_language(language, text):
    with i18n.using(language):
        assert str(reasons.CARD_POINTS) == text
    assert reasons.CARD_POINTS.anchor == "card-points"  # links stay the same in every language


# --- phases and cards ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "number", "en", "de", "es"),
    [
        (OFFICIAL, 1, "2 sets of 3", "2 Drillinge", "2 grupos de 3"),
        (OFFICIAL, 2, "1 set of 3 + 1 run of 4", "1 Drilling + 1 Viererfolge",
         "1 grupo de 3 + 1 escalera de 4"),
        (OFFICIAL, 4, "1 run of 7", "1 Siebenerfolge", "1 escalera de 7"),
        (OFFICIAL, 8, "7 cards of one colour", "7 Karten einer Farbe", "7 cartas de un color"),
        (OFFICIAL, 9, "1 set of 5 + 1 set of 2", "1 Fünfling + 1 Zwilling",
         "1 grupo de 5 + 1 grupo de 2"),
        (PLUS10, 19, "1 set of 6 + 1 set of 2", "1 Sechsling + 1 Zwilling",
         "1 grupo de 6 + 1 grupo de 2"),
        (PLUS10, 16, "1 run of 10", "1 Zehnerfolge", "1 escalera de 10"),
        (
            SUPER,
            7,
            "2 sets of 4 OR 3 sets of 3 OR 5 sets of 2",
            "2 Vierlinge ODER 3 Drillinge ODER 5 Zwillinge",
            "2 grupos de 4 O 3 grupos de 3 O 5 grupos de 2",
        ),
    ],
)  # fmt: skip
def test_phases_are_written_with_the_tables_words(rules, number, en, de, es):
    for language, text in (("en", en), ("de", de), ("es", es)):
        with i18n.using(language):
            assert str(rules.phase(number)) == text


def test_a_set_of_seven_or_more_has_no_german_name_of_its_own():
    rules = make_rules(options={"custom_phases": "2 sets of 7; set of 8 + run of 3"})
    with i18n.using("de"):
        assert str(rules.phase(1)) == "2 Sätze aus 7"
        assert str(rules.phase(2)) == "1 Satz aus 8 + 1 Dreierfolge"


@pytest.mark.parametrize("language", ["de", "es"])
@pytest.mark.parametrize("kind", [GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR])
def test_a_group_of_any_size_is_named_without_english_words(language, kind):
    english_words = re.compile(r"\b(sets?|runs?|cards?|of|one|colour|x)\b")
    low, high = (2, 24) if kind is GroupKind.COLOUR else (2, 12)
    with i18n.using(language):
        specs = [GroupSpec(kind, size) for size in range(low, high + 1)]
        names = [(spec.describe(), spec.counted(1), spec.counted(2)) for spec in specs]
    for texts in names:
        assert not any(english_words.search(text) for text in texts), texts
    assert len({texts[0] for texts in names}) == len(specs)  # each size has its own name


@pytest.mark.parametrize(
    ("code", "en", "de", "es"),
    [
        ("R7", "red 7", "rote 7", "7 rojo"),
        ("b12", "blue 12", "blaue 12", "12 azul"),
        ("W", "Wild", "Joker", "Comodín"),
        ("S", "Skip", "Aussetzen", "Salto"),
        ("SW", "Super Wild", "Super-Joker", "Súper Comodín"),
    ],
)
def test_cards_are_named_in_words_but_typed_in_the_same_notation(code, en, de, es):
    for language, words in (("en", en), ("de", de), ("es", es)):
        with i18n.using(language):
            card = parse_card(code)  # the notation is the same in every language
            assert card.describe() == words
            assert str(card) == code.upper()


def test_variants_and_house_rules_are_explained_in_the_readers_language():
    with i18n.using("de"):
        assert PROFILES["mixed-up"].title == "Masters gemischt"
        assert PROFILES["official"].title == "Offizielle Regeln"
        assert "Joker" in OPTIONS["wild_points"].help
    with i18n.using("es"):
        assert PROFILES["ten-hands"].title == "Diez rondas"
        assert "comodín" in OPTIONS["wild_points"].help
    assert PROFILES["mixed-up"].title == "Mixed-up Masters"
    assert OPTIONS["wild_points"].help == "Points for a Wild left in hand."
    assert OPTIONS["wild_points"].choices == ("25", "20")  # values stay as typed


# --- verdicts ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "laid", "reason"),
    [
        (
            "de",
            ("R7 B7 G8", "R1 R2 R3 R4"),
            "Drilling (R7 B7 G8): G8 ist keine 7 [Regel 4: Sätze]",
        ),
        (
            "es",
            ("R7 B7 G8", "R1 R2 R3 R4"),
            "grupo de 3 (R7 B7 G8): G8 no es un 7 [Regla 4: grupos]",
        ),
        (
            "de",
            ("R7 B7 G7",),
            "Phase 2 ist 1 Drilling + 1 Viererfolge: die 2. Gruppe (Viererfolge) fehlt "
            "[Regel 5: Auslegen]",
        ),
        (
            "es",
            ("R7 B7 G7",),
            "la fase 2 es 1 grupo de 3 + 1 escalera de 4: falta la combinación n.º 2 "
            "(escalera de 4) [Regla 5: bajar la fase]",
        ),
        (
            "de",
            ("R3 S R3", "R1 R2 R3 R4"),
            "Drilling (R3 S R3): die Karte „Aussetzen“ kann nie Teil einer Phase sein "
            "[Regel 4: Aussetzen-Karten werden nie ausgelegt]",
        ),
        (
            "es",
            ("R3 S R3", "R1 R2 R3 R4"),
            "grupo de 3 (R3 S R3): la carta Salto nunca puede formar parte de una fase "
            "[Regla 4: los Saltos nunca se bajan]",
        ),
    ],
)
def test_a_broken_phase_says_why_in_the_readers_language(language, laid, reason):
    with i18n.using(language):
        verdict = check_phase(OFFICIAL, 2, groups(*laid))
        assert not verdict.valid
        assert reason in cited(verdict)


def test_a_run_missing_numbers_counts_them_in_each_language():
    laid = groups("R1 R4 R5 R6 R7 R8 R9")
    with i18n.using("de"):
        assert check_phase(OFFICIAL, 4, laid).reasons == (
            "Siebenerfolge (R1 R4 R5 R6 R7 R8 R9): 2 und 3 fehlen, und kein Joker ersetzt sie",
        )
    with i18n.using("es"):
        assert check_phase(OFFICIAL, 4, laid).reasons == (
            "escalera de 7 (R1 R4 R5 R6 R7 R8 R9): faltan los números 2 y 3 y ningún comodín "
            "los sustituye",
        )
    assert check_phase(OFFICIAL, 4, laid).reasons == (
        "run of 7 (R1 R4 R5 R6 R7 R8 R9): the 2 and 3 are missing and no Wild fills them",
    )


def test_the_order_of_the_groups_is_explained_in_each_language():
    laid = groups("R1 R2 R3 R4", "R7 B7 G7")
    with i18n.using("de"):
        assert check_phase(OFFICIAL, 2, laid).reasons == (
            "Phase 2 verlangt die Gruppe „Drilling“, dann die Gruppe „Viererfolge“: "
            "gib die Gruppen in dieser Reihenfolge an",
        )
    assert check_phase(OFFICIAL, 2, laid).reasons == (
        "phase 2 lists the set of 3, then the run of 4: give the groups in that order",
    )


@pytest.mark.parametrize("language", ["de", "es"])
@pytest.mark.parametrize(
    ("rules", "number", "laid"),
    [
        (OFFICIAL, 1, ("R7 B7 G8", "R2 R2 R2")),
        (OFFICIAL, 1, ("W W W", "R3 R3 B3")),
        (OFFICIAL, 1, ("R3 R3 R3", "B4 B4 B4", "G5 G5 G5")),
        (OFFICIAL, 1, ()),
        (OFFICIAL, 4, ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 W",)),
        (OFFICIAL, 4, ("R5 R5 R6 R7 R8 R9 R10",)),
        (OFFICIAL, 4, ("R1 R2 SW",)),
        (OFFICIAL, 4, ("S S W W W W W",)),
        (OFFICIAL, 4, ("R11 R12 R1 R2 R3 R4 R5",)),
        (OFFICIAL, 4, ("R1 R2 R3 R4 W R8 R9",)),
        (OFFICIAL, 8, ("R1 R2 R3 R4 R5 B6 W",)),
        (OFFICIAL, 8, ("R1 R2 R3",)),
        (SUPER, 8, ("R1 R2 R3 R4 R5 R6 S",)),
        (SUPER, 7, ("R1 R1 B1",)),
        (make_rules(options={"natural": "phase"}), 1, ("W W W", "W W W")),
    ],
)
def test_every_reason_is_translated_with_its_values_filled_in(language, rules, number, laid):
    english = check_phase(rules, number, groups(*laid))
    with i18n.using(language):
        translated = check_phase(rules, number, groups(*laid))
    assert len(translated.problems) == len(english.problems) > 0
    for theirs, ours in zip(english.problems, translated.problems, strict=True):
        assert "%(" not in ours.message and "%s" not in ours.message
        assert ours.message != theirs.message
        assert ours.rule is theirs.rule
        for code in re.findall(r"\b[RBGY]\d+\b", theirs.message):
            assert code in ours.message  # card codes stay as typed


# --- hits and hands --------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "group", "card", "de", "es"),
    [
        (GroupKind.RUN, "R3 B4 G5 Y6", "W", "oberes Ende (als 7)", "extremo de arriba (como 7)"),
        (GroupKind.RUN, "R3 B4 G5 Y6", "R2", "unteres Ende", "extremo de abajo"),
        (
            GroupKind.SET,
            "R4 B4 G4",
            "W",
            "kommt zum Satz mit der Zahl 4 (als eine 4)",
            "se une al grupo del 4 (como un 4)",
        ),
        (
            GroupKind.COLOUR,
            "G1 G2 G5 G6 G8 G9 G11",
            "G3",
            "kommt zur Farbgruppe (grün)",
            "se une a las cartas de color verde",
        ),
    ],
)
def test_a_hit_says_where_the_card_goes(kind, group, card, de, es):
    for language, where in (("de", de), ("es", es)):
        with i18n.using(language):
            verdict = check_hit(OFFICIAL, kind, parse_cards(group), parse_card(card))
        assert verdict.valid and verdict.where == where


def test_a_refused_hit_says_why_in_each_language():
    args = (OFFICIAL, GroupKind.RUN, parse_cards("R3 B4 G5 Y6"), parse_card("R9"))
    with i18n.using("de"):
        assert cited(check_hit(*args)) == [
            "R9 verlängert die Folge 3-6 nicht: nur eine 2 oder eine 7 passt [Regel 6: Anlegen]"
        ]
    with i18n.using("es"):
        assert cited(check_hit(*args)) == [
            "R9 no alarga la escalera 3-6: solo cabe un 2 o un 7 [Regla 6: añadir cartas]"
        ]
    assert cited(check_hit(*args)) == [
        "R9 does not extend the run 3-6: only a 2 or a 7 fits [Rule 6: hitting]"
    ]


def test_the_hand_helper_says_what_is_missing_in_each_language():
    hand = parse_cards("R1 R2 R7 R7 R8")
    with i18n.using("de"):
        assert solve(OFFICIAL, 2, hand).missing_cards == (
            "eine 7 für die Gruppe „Drilling“",
            "eine 3 (beliebige Farbe) für die Gruppe „Viererfolge“",
            "eine 4 (beliebige Farbe) für die Gruppe „Viererfolge“",
        )
        assert describe_cards(closer_cards(OFFICIAL, 8, parse_cards("R1 R2 R3 G4"))) == (
            "eine beliebige rote Karte",
            "ein Joker",
        )
    with i18n.using("es"):
        assert solve(OFFICIAL, 2, hand).missing_cards[0] == "un 7 para la combinación «grupo de 3»"
    assert solve(OFFICIAL, 2, hand).missing_cards[0] == "a 7 for the set of 3"


@pytest.mark.parametrize(
    ("entry", "de", "es"),
    [
        (
            {"points": 43},
            "Ann: 43 ist nicht durch 5 teilbar: jede Karte ist 5, 10, 15 oder 25 Punkte wert "
            "[Regel 8: Kartenpunkte]",
            "Ann: 43 no es múltiplo de 5: cada carta vale 5, 10, 15 o 25 "
            "[Regla 8: puntos de las cartas]",
        ),
        (
            {"points": 5, "went_out": True, "laid_down": True, "phase": 1},
            "Ann: ist rausgegangen, bekommt also 0, nicht 5 [Regel 8: Rausgehen]",
            "Ann: cerró, así que suma 0, no 5 [Regla 8: cerrar]",
        ),
        (
            {"points": 20},
            "Ann: 20 ist nicht möglich: wer die Phase nicht geschafft hat, hat genau 10 Karten "
            "auf der Hand, mindestens 50 Punkte wert [Regel 8: die Hand wird nie größer]",
            "Ann: 20 no es posible: quien no completó la fase tiene exactamente 10 cartas en la "
            "mano, que valen al menos 50 [Regla 8: la mano nunca crece]",
        ),
    ],
)
def test_an_impossible_score_says_why_in_each_language(entry, de, es):
    for language, text in (("de", de), ("es", es)):
        with i18n.using(language):
            assert [p.cited() for p in total_problems(OFFICIAL, player="Ann", **entry)] == [text]


def test_cards_left_are_counted_in_each_language():
    cards = CardsLeft(low=2, high=1, wilds=1)
    with i18n.using("de"):
        assert cards.describe() == "2 Karten 1-9, 1 Karte 10-12, 1 Joker"
        assert [str(p) for p in counts_problems(OFFICIAL, CardsLeft(wilds=9), player="Bob")] == [
            "Bob: 9 Joker können nicht auf einer Hand sein: das Kartenspiel hat nur 8"
        ]
    with i18n.using("es"):
        assert cards.describe() == "2 cartas del 1 al 9, 1 carta del 10 al 12, 1 comodín"
    assert cards.describe() == "2 cards 1-9, 1 card 10-12, 1 Wild"


# --- a replayed game --------------------------------------------------------------


def bad_game():
    return load_game(
        {
            "players": ["Ann", "Bob"],
            "hands": [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 33}}],
        }
    )


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (
            "de",
            "Runde 1, Bob: 33 ist nicht durch 5 teilbar: jede Karte ist 5, 10, 15 oder 25 "
            "Punkte wert",
        ),
        ("es", "ronda 1, Bob: 33 no es múltiplo de 5: cada carta vale 5, 10, 15 o 25"),
        ("en", "hand 1, Bob: 33 is not a multiple of 5: every card is worth 5, 10, 15 or 25"),
    ],
)
def test_a_replayed_bad_hand_names_the_hand_and_the_player_in_each_language(language, text):
    with i18n.using(language), pytest.raises(GameError) as caught:
        replay(bad_game())
    with i18n.using(language):
        assert str(caught.value) == text
    assert caught.value.rule is reasons.CARD_POINTS


def test_a_hand_that_tries_the_wrong_phase_is_refused_in_german_on_the_right_field():
    game = load_game(
        {
            "players": ["Ann", "Bob"],
            "hands": [
                {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50}, "attempts": {"Bob": 3}}
            ],
        }
    )
    with i18n.using("de"):
        with pytest.raises(GameError) as caught:
            replay(game)
        assert str(caught.value) == "Runde 1, Bob: ist in Phase 1, nicht 3"
    assert [problem.field for problem in caught.value.problems] == ["attempts"]


# --- through the page ---------------------------------------------------------------


def page_text(response) -> str:
    return read(response.get_data(as_text=True)).text


def test_the_phase_checker_page_gives_the_engines_reason_in_the_browsers_language(client):
    query = "/check?phase=1&g0=R7+B7+G8&g1=G3+G3+Y3"
    german = page_text(client.get(query, headers={"Accept-Language": "de"}))
    spanish = page_text(client.get(query, headers={"Accept-Language": "es"}))
    english = page_text(client.get(query, headers={"Accept-Language": "en"}))
    assert "Drilling (R7 B7 G8): G8 ist keine 7" in german
    assert "grupo de 3 (R7 B7 G8): G8 no es un 7" in spanish
    assert "set of 3 (R7 B7 G8): G8 is not a 7" in english

"""French, Italian and Polish families read every page in their language, whether their
browser asks for it or they pick it in the switcher; Polish counts in its three forms."""

from __future__ import annotations

import pytest
from translated import read_every_page, text_of
from webpage import read

from scorekeeper import i18n

# What each family reads on a few pages: the glossary's words (manche/finir, mano/chiudere,
# rozdanie/wyjść).
EXPECTED = {
    "fr": {
        "home": [
            "Continuer : Ann, Bob, Cy, manche 2",
            "tu marques",
            "Nouvelle partie",
            "Est-ce une phase valide ?",
            "Peut-on ajouter cette carte ?",
        ],
        "game": [
            "Manche 2 · Bob distribue",
            "Noter la manche 2",
            "Qui a fini ?",
            "Annuler la dernière action",
        ],
        "finished game": ["Ann gagne !", "1er Ann", "Revanche : mêmes joueurs, donneur suivant"],
        "history": ["changement 2", "1 manche", "Voici la partie maintenant."],
        "table": ["10 manches"],
        "check a hand": ["Ma main peut-elle réussir la phase ?", "Pas encore :", "Ta main"],
    },
    "it": {
        "home": [
            "Continua: Ann, Bob, Cy, mano 2",
            "segni tu",
            "Inizia una nuova partita",
            "È una fase valida?",
            "Questa carta si può attaccare?",
        ],
        "game": ["Mano 2 · fa le carte Bob", "Segna la mano 2", "Chi ha chiuso?"],
        "finished game": ["Vince Ann!", "Rivincita: stessi giocatori, mazziere successivo"],
        "history": ["modifica 2", "1 mano", "Ora la partita è così."],
        "table": ["10 mani"],
        "check a hand": ["Non ancora:", "La tua mano"],
    },
    "pl": {
        "home": [
            "Dalej: Ann, Bob, Cy, rozdanie 2",
            "zapisujesz",
            "Zacznij nową partię",
            "Czy to poprawna faza?",
            "Czy tę kartę można dołożyć?",
        ],
        "game": ["Rozdanie 2 · rozdaje Bob", "Zapisz rozdanie 2", "Kto wyszedł?"],
        "finished game": ["Wygrywa Ann!", "Rewanż: ci sami gracze, rozdaje następna osoba"],
        "history": ["zmiana 2", "1 rozdanie", "Tak wygląda teraz partia."],
        "table": ["10 rozdań"],
        "check a hand": ["Jeszcze nie:", "Twoje karty"],
    },
}
NAMES = {"fr": "Français", "it": "Italiano", "pl": "Polski"}
RULES = {"fr": "Règles", "it": "Regole", "pl": "Zasady"}


def lang_of(page: str) -> str:
    return read(page).lang


@pytest.mark.parametrize("language", sorted(EXPECTED))
@pytest.mark.exhaustive
def test_every_page_speaks_the_browsers_language_with_no_english_left(client, language):
    assert read_every_page(client, language, EXPECTED[language]) == {}


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        ("fr-BE,fr;q=0.9,en;q=0.5", "fr"),
        ("it-CH,it;q=0.9,de;q=0.5", "it"),
        ("pl,en-GB;q=0.8", "pl"),
    ],
)
def test_the_browsers_language_picks_the_page_and_its_rules(client, accept, language):
    page = client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert lang_of(page) == language
    assert f">{RULES[language]}</a>" in page
    rules = client.get("/rules", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert lang_of(rules) == language and 'id="card-points"' in rules


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_the_switcher_picks_the_language_over_the_browser(client, language):
    switched = client.get(f"/language/{language}?next=/new")
    assert switched.status_code == 303 and switched.headers["Location"] == "/new"
    page = client.get("/new", headers={"Accept-Language": "de-DE,de"}).get_data(as_text=True)
    assert lang_of(page) == language
    current = read(page).one("a[hreflang][aria-current=true]")
    assert (current["lang"], current.text) == (language, NAMES[language])
    with i18n.using(language):
        assert i18n._("Start the game") in text_of(page)


def test_the_switcher_offers_every_language_by_its_own_name(client):
    links = read(client.get("/").get_data(as_text=True)).languages
    offered = [(a["href"].split("?")[0].removeprefix("/language/"), a.text) for a in links]
    assert offered == list(i18n.LANGUAGES.items())
    assert {"fr": "Français", "it": "Italiano", "pl": "Polski"}.items() <= dict(offered).items()


@pytest.mark.parametrize(
    ("singular", "plural", "said"),
    [
        ("%(num)s hand", "%(num)s hands", ["1 rozdanie", "2 rozdania", "5 rozdań"]),
        ("%(num)s card", "%(num)s cards", ["1 karta", "2 karty", "5 kart"]),
        ("%(num)s point", "%(num)s points", ["1 punkt", "2 punkty", "5 punktów"]),
    ],
)
def test_polish_counts_in_three_forms(singular, plural, said):
    with i18n.using("pl"):
        assert [i18n.ngettext(singular, plural, n) for n in (1, 2, 5)] == said
        assert i18n.ngettext(singular, plural, 22) == said[1].replace("2", "22", 1)
        assert i18n.ngettext(singular, plural, 12) == said[2].replace("5", "12", 1)


def test_a_polish_page_counts_hands_in_their_form(client):
    """One hand played: "1 rozdanie"; a finished game of ten: "10 rozdań" (not "10 rozdania")."""
    assert read_every_page(client, "pl", {"history": ["1 rozdanie"], "table": ["10 rozdań"]}) == {}

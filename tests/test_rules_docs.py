"""The rules page in every language: the English page's sections, anchors and numbers.

Every verdict links a rule by its anchor ("Rule 8: card points" at
/rules#card-points), so each translation must keep every anchor, in the same
order, under the same section number; and it must use the table words the
glossary (docs/i18n-glossary.md) gives to the other translators.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from webpage import Page, read

from scorekeeper import SOURCE, i18n
from scorekeeper.rules.options import OPTIONS
from scorekeeper.rules.reasons import ALL_RULES
from scorekeeper.web.blueprints.home import DOCUMENT, document, rules_html

LANGUAGES = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT]


def page(lang: str = i18n.DEFAULT) -> str:
    """The /rules page's text in a language, as it is served."""
    return rules_html(lang)


@cache
def parsed(lang: str = i18n.DEFAULT) -> Page:
    return read(page(lang))


def outline(lang: str) -> list[tuple[int, str | None, str | None]]:
    """Each heading's level, anchor and section number ("8" for "## 8. Going out")."""
    return [
        (
            int(heading.tag[1]),
            heading.get("id"),
            first if (first := heading.text.split(". ", 1)[0]).isdigit() else None,
        )
        for heading in parsed(lang).select("h1, h2, h3, h4, h5, h6")
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_its_own_rules_page(lang):
    assert document(lang) == DOCUMENT.with_name(f"rules.{lang}.md") != DOCUMENT
    assert page(lang) != page()


@pytest.mark.parametrize(
    ("accept", "heading"),
    [
        ("de-DE,de;q=0.9", "Kartenpunkte"),
        ("es-MX,es;q=0.8", "Puntos de las cartas"),
        ("fr-CA,fr;q=0.9", "Points des cartes"),
        ("it-IT,it;q=0.9", "Punti delle carte"),
        ("pl-PL,pl;q=0.9", "Punkty za karty"),
    ],
)
def test_a_reader_gets_the_rules_in_their_language_with_the_same_anchors(client, accept, heading):
    page = client.get("/rules", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert f'<h3 id="card-points">{heading}</h3>' in page
    assert f'<html lang="{accept[:2]}"' in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_has_every_english_anchor_in_the_same_order(lang):
    english = [anchor for _, anchor, _ in outline(i18n.DEFAULT)]
    assert [anchor for _, anchor, _ in outline(lang)] == english
    assert None not in english  # every English heading has its anchor


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_keeps_the_heading_levels_and_section_numbers(lang):
    assert outline(lang) == outline(i18n.DEFAULT)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.anchor)
def test_every_rule_a_verdict_cites_is_in_the_translation_under_its_number(lang, rule):
    assert parsed(lang).numbered_sections()[rule.anchor] == rule.number


def within(page: Page) -> list[str]:
    """The anchors the page's links lead to within it."""
    return [link[1:] for link in page.links("a[href]") if link.startswith("#")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_links_within_a_translation_are_the_english_ones_and_land_on_a_section(lang):
    targets = within(parsed(lang))
    assert sorted(targets) == sorted(within(parsed()))
    assert set(targets) <= {element["id"] for element in parsed(lang).select("[id]")}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("tag", ["<table>", "<tr>", "<li>", "<strong>"])
def test_a_translation_keeps_the_english_tables_lists_and_emphasis(lang, tag):
    assert page(lang).count(tag) == page().count(tag)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_house_rules_keep_the_words_you_type(lang):
    """Keys and values are typed settings: a translation shows every one untranslated."""
    html = page(lang)
    for key in OPTIONS:
        assert f"<code>{key}</code>" in html, key
    assert set(parsed().texts("code")) <= set(parsed(lang).texts("code"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_names_no_file(lang):
    assert not re.search(r"\.md\b|RULES", page(lang))


# --- the glossary's words ------------------------------------------------------------------


def glossary_phases() -> dict[str, dict[int, str]]:
    """The glossary's "phases, written out" table: language -> phase number -> words. Its
    columns are named as the language switcher names the languages ("Deutsch", "Français")."""
    text = (SOURCE / "docs" / "i18n-glossary.md").read_text(encoding="utf-8")
    table = text.split("### The phases, written out", 1)[1].split("\n\n", 2)[1]
    rows = [
        [cell.strip() for cell in row.strip().strip("|").split("|")] for row in table.splitlines()
    ]
    codes = {name: code for code, name in i18n.LANGUAGES.items()}
    columns = [codes[name] for name in rows[0][1:]]
    phases: dict[str, dict[int, str]] = {code: {} for code in columns}
    for cells in rows:
        if cells[0].isdigit():
            for lang, words in zip(columns, cells[1:], strict=True):
                phases[lang][int(cells[0])] = words
    return phases


def phase_tables(lang: str) -> dict[int, str]:
    """Every phase table row of a rules page: phase number -> what to lay down."""
    rows = [row.texts("th, td") for row in parsed(lang).select("tr")]
    return {
        int(cells[0]): cells[1]
        for cells in rows
        if len(cells) == 2 and cells[0].isdigit() and int(cells[0]) <= 20
    }


def test_the_glossary_writes_the_english_phases_as_the_rules_page_does():
    assert glossary_phases()["en"] == phase_tables(i18n.DEFAULT)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_writes_the_phases_in_the_glossary_words(lang):
    assert phase_tables(lang) == glossary_phases()[lang]
    assert len(glossary_phases()[lang]) == 20


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ["Joker", "Aussetzen", "Runde", "anlegen", "Drilling", "Viererfolge"]),
        ("es", ["Comodín", "Salto", "ronda", "añadir", "grupo de 3", "escalera de 4"]),
        ("fr", ["Joker", "Passe", "manche", "ajouter", "brelan", "suite de 4", "finir"]),
        ("it", ["Jolly", "Salta", "mano", "attaccare", "set di 3", "scala di 4", "chiude"]),
        ("pl", ["Joker", "Stop", "rozdanie", "dokładać", "trójka", "strit z 4 kart", "wychodzi"]),
    ],
)
def test_a_translation_speaks_the_table_words(lang, words):
    html = page(lang)
    for word in words:
        assert word in html, word
    assert "Wild" not in html and "Skip" not in html  # the English card names

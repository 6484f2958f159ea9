"""The glossary's words in every catalogue and rules page (docs/i18n-glossary.md).

One word for one thing ("Stechen" for every tiebreak, never the tie's "Gleichstand"; one word
for a tie and for a phone), no word the glossary rules out (a formal "Sie", a plural "vous",
Polish "zawis", German "ist raus"), French no-break spaces before two-part punctuation, the
rule titles as the glossary lists them, and one name for the app in each language, the same
on the pages, the printed sheets and the command line.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper import SOURCE, i18n
from scorekeeper.i18n import catalogues
from scorekeeper.rules.reasons import ALL_RULES

GLOSSARY = SOURCE / "docs" / "i18n-glossary.md"
LANGUAGES = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
CODES = {name: code for code, name in i18n.LANGUAGES.items()}
# The score sheet labels the tiebreak hand's row "Tie" in English: it names the tiebreak.
TIEBREAK_ROW = {("score sheet", "Tie"), ("score sheet, short", "Tie")}


def _table(heading: str) -> list[list[str]]:
    """The rows of the first table under a heading of the glossary, header first."""
    text = GLOSSARY.read_text(encoding="utf-8").split(heading + "\n", 1)[1]
    lines = text[text.index("\n|") + 1 :].split("\n\n", 1)[0].splitlines()
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]
    return [rows[0], *rows[2:]]


def _words(cell: str) -> list[str]:
    return [word.strip() for word in cell.split("·") if word.strip()]


def one_word_for_one_thing() -> list[tuple[list[str], dict[str, list[str]]]]:
    """(the English words, language -> the beginnings of the words allowed)."""
    header, *rows = _table("### One word for one thing")
    columns = [CODES[name] for name in header[1:]]
    return [(_words(row[0]), dict(zip(columns, map(_words, row[1:]), strict=True))) for row in rows]


def never_used() -> dict[str, list[str]]:
    """Language -> the words its texts never use."""
    _, *rows = _table("### Words never used")
    return {CODES[row[0]]: _words(row[1]) for row in rows}


def translations(language: str) -> list[tuple[str | None, str, list[str]]]:
    """Every translated text of a language: (context, English, its forms)."""
    found = []
    for area in catalogues.AREAS:
        for message in catalogues.read(language, area):
            if not message.id:
                continue
            english = message.id[0] if isinstance(message.id, tuple) else message.id
            forms = list(message.string) if isinstance(message.string, tuple) else [message.string]
            found.append((message.context, english, forms))
    return found


def _as_word(word: str) -> re.Pattern[str]:
    """A whole word; one written with a capital matches only with its capital."""
    flags = 0 if word[:1].isupper() else re.IGNORECASE
    return re.compile(r"(?<!\w)" + re.escape(word) + r"(?!\w)", flags)


def test_the_glossary_has_the_tables_the_tests_read():
    rows = one_word_for_one_thing()
    assert [english[0] for english, _ in rows] == [
        "tiebreak",
        "float",
        "go out",
        "seat round",
        "keep score at table",
        "leave the night",
        "tie",
        "phone",
    ]
    assert all(set(allowed) == set(LANGUAGES) for _, allowed in rows)
    assert set(never_used()) == set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_uses_the_glossarys_word_for_the_thing(language):
    wrong = []
    for english_words, allowed in one_word_for_one_thing():
        said = re.compile(r"\b(?:" + "|".join(map(re.escape, english_words)) + r")\b", re.I)
        starts = [word.lower() for word in allowed[language]]
        row = TIEBREAK_ROW if english_words[0] == "tiebreak" else set()
        not_a_tie = TIEBREAK_ROW if english_words[0] == "tie" else set()
        for context, english, forms in translations(language):
            if not said.search(english) and (context, english) not in row:
                continue
            if (context, english) in not_a_tie:
                continue
            for form in forms:
                if not any(start in form.lower() for start in starts) and not said.search(form):
                    wrong.append(f"{english_words[0]}: {english!r} -> {form!r}")
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_or_rules_page_uses_a_word_the_glossary_rules_out(language):
    never = [_as_word(word) for word in never_used()[language]]
    texts = [form for _, _, forms in translations(language) for form in forms]
    texts.append((SOURCE / "docs" / f"rules.{language}.md").read_text(encoding="utf-8"))
    found = [
        f"{word.pattern}: {text[max(0, hit.start() - 40) : hit.end() + 40]!r}"
        for text in texts
        for word in never
        if (hit := word.search(text))
    ]
    assert found == []


# French text around which two-part punctuation keeps its own spacing: typed notation and
# JSON (quoted), addresses, markup and placeholders.
AS_TYPED = re.compile(
    r"\{[^}]*\}|'[^']*'|\"[^\"]*\"|Content-Type: \S+|\w+=\w+:\w+|https?://\S+|<[^>]*>|%\(\w+\)[sd]"
)
NO_BREAK = "\u00a0\u202f"


def test_french_puts_a_no_break_space_before_two_part_punctuation():
    """Before : ; ? ! and inside « », so a mark never starts a line on a phone: 22 texts had
    an ordinary space, or none ("Mise à jour : manche 3", "Table : Les Dupont")."""
    missing = []
    for _, english, forms in translations("fr"):
        for form in forms:
            if form == english:  # typed notation, as the English
                continue
            text = AS_TYPED.sub("\ue000", form)
            if re.search(rf"(?<=[^{NO_BREAK}])[:;?!](?=\s|$|\))|« | »", text):
                missing.append(form)
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rule_titles_are_the_glossarys(language):
    header, *rows = _table("## Rule titles, as the rules pages number them")
    column = header.index(i18n.LANGUAGES[language])
    glossary = {row[1].strip("`"): row[column] for row in rows}
    with i18n.using(language):
        titles = {rule.anchor: rule.heading for rule in ALL_RULES}
    assert {anchor: glossary[anchor] for anchor in titles} == titles


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_app_has_one_name_on_the_pages_the_sheets_and_the_command_line(language):
    texts = translations(language)
    name = next(forms[0] for _, english, forms in texts if english == "Phase 10 Scorekeeper")
    naming = [(english, forms) for _, english, forms in texts if "Phase 10 Scorekeeper" in english]
    assert len(naming) > 5  # the page titles, the printed guide, the command line
    assert [english for english, forms in naming if not all(name in f for f in forms)] == []
    assert [f for _, _, forms in texts for f in forms if re.search(r"\bScorekeeper\b", f)] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_text_is_translated_the_same_in_every_area(language):
    """The areas' catalogues are compiled into one, where the last area's translation of a
    text wins: Spanish "Wilds" was "comodines" for the engine and "Comodines" for the printed
    guide, and the guide printed the engine's beside "Saltos"."""
    seen: dict[tuple[str | None, str], list[str]] = {}
    differ = []
    for context, english, forms in translations(language):
        found = seen.setdefault((context, english), forms)
        if found != forms:
            differ.append(f"{english!r}: {found} / {forms}")
    assert differ == []

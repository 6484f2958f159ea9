"""The page's language: the browser's choice, the switcher's, and one catalogue for every text."""

from __future__ import annotations

import gc
import io
import tracemalloc

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from webpage import read
from webutil import new_game, watch_path

from scorekeeper import i18n
from scorekeeper.i18n import Pseudo, catalogues
from scorekeeper.web import language


def lang_of(page: str) -> str:
    return read(page).lang


@pytest.mark.parametrize(
    ("accept", "lang", "rules"),
    [
        ("de-DE,de;q=0.9,en;q=0.5", "de", "Regeln"),
        ("es-MX,es;q=0.8", "es", "Reglas"),
        ("fr-FR,fr;q=0.9", "fr", "Règles"),
        ("it-IT,it;q=0.9,en;q=0.5", "it", "Regole"),
        ("nl-NL,nl;q=0.9", "en", "Rules"),
        ("nl;q=0.9,es;q=0.5", "es", "Reglas"),
        # a phone that names only its region's language still gets it, before a second choice
        ("fr-FR,en;q=0.5", "fr", "Règles"),
        ("it-CH,de;q=0.5", "it", "Regole"),
        ("pl-PL", "pl", "Zasady"),
        ("de;q=0,es", "es", "Reglas"),  # q=0: not German
    ],
)
def test_the_browser_language_decides(client, accept, lang, rules):
    page = client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert lang_of(page) == lang
    assert f">{rules}</a>" in page


def test_the_switcher_is_remembered_on_this_device_over_the_browser(client):
    response = client.get("/language/es?next=/rules")
    assert response.status_code == 303 and response.headers["Location"] == "/rules"
    cookie = response.headers["Set-Cookie"]
    assert "lang=es" in cookie and "Max-Age=31536000" in cookie
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert lang_of(page) == "es"
    client.get("/language/en?next=/")
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert lang_of(page) == "en"


def test_the_switcher_links_back_to_the_same_page_and_marks_the_current_language(client):
    page = client.get("/rules", headers={"Accept-Language": "de"}).get_data(as_text=True)
    links = read(page).languages
    assert [(a["lang"], "aria-current" in a) for a in links] == [
        (code, code == "de") for code in i18n.LANGUAGES
    ]
    assert {"en", "de", "es", "fr", "it"} <= set(i18n.LANGUAGES)
    assert all(a["href"].startswith("/language/") and "next=/rules" in a["href"] for a in links)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "evil", ""])
def test_the_switcher_never_sends_anyone_to_another_site(client, target):
    response = client.get("/language/de", query_string={"next": target})
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("code", ["nl", "DE", "de-AT", "fr-FR", "xx"])
def test_an_unknown_language_is_not_found(client, code):
    assert client.get(f"/language/{code}").status_code == 404


def test_a_watch_page_kept_for_its_version_is_kept_per_language(client):
    view_url = watch_path(new_game(client))
    english = client.get(view_url, headers={"Accept-Language": "en"}).get_data(as_text=True)
    german = client.get(view_url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert lang_of(english) == "en" and lang_of(german) == "de"


def test_pages_vary_by_language(client):
    response = client.get("/", headers={"Accept-Language": "de"})
    assert {"Accept-Language", "Cookie"} <= set(response.vary)


@pytest.mark.exhaustive
def test_every_text_the_code_uses_is_translated_in_every_shipped_language():
    assert catalogues.problems() == []


def _mo(plural_forms: str, messages: dict[str, str]) -> bytes:
    """A compiled Spanish catalogue with this Plural-Forms header and these messages."""
    catalogue = Catalog(locale="es")
    catalogue.mime_headers = [("Plural-Forms", plural_forms)]
    for ident, text in messages.items():
        catalogue.add(ident, text)
    out = io.BytesIO()
    write_mo(out, catalogue)
    return out.getvalue()


def test_a_compiled_catalogue_is_current_when_its_messages_are_not_its_bytes():
    """Another Babel writes another header for the same plural rule: still current. A changed
    message, or another number of plural forms, is not."""
    shipped = _mo("nplurals=2; plural=(n!=1);", {"Hand": "Mano"})
    rebuilt = _mo("nplurals=2; plural=(n != 1);", {"Hand": "Mano"})
    assert shipped != rebuilt
    assert catalogues._same_messages(shipped, rebuilt)
    assert not catalogues._same_messages(
        shipped, _mo("nplurals=2; plural=(n!=1);", {"Hand": "Ronda"})
    )
    three = "nplurals=3; plural=(n == 1 ? 0 : n > 999999 ? 1 : 2);"
    assert not catalogues._same_messages(shipped, _mo(three, {"Hand": "Mano"}))


@pytest.mark.parametrize("language", catalogues.TARGETS)
def test_the_compiled_catalogue_counts_plural_forms_as_its_translators_did(language):
    """Babel's locale data may know more forms than were translated (Spanish "many" since
    CLDR 42): the catalogues' own header decides, or every counted text falls back to English."""
    import gettext
    import io

    compiled = gettext.GNUTranslations(io.BytesIO(catalogues.compiled(language)))
    header = catalogues.read(language, "game").plural_forms
    assert compiled.info()["plural-forms"] == header
    english = "Game imported with %(num)s hands"
    for count in (1, 2, 5, 22, 1_000_000):
        shown = compiled.ngettext("Game imported with %(num)s hand", english, count)
        assert shown != english


def test_the_pseudo_language_dresses_words_but_keeps_placeholders_and_tags():
    dressed = Pseudo().gettext('Phase %(number)s is <a href="/rules#sets">%(phase)s</a>')
    assert dressed.startswith("⟦") and dressed.endswith("⟧")
    assert "%(number)s" in dressed and "%(phase)s" in dressed
    assert '<a href="/rules#sets">' in dressed
    assert "Phàšé" in dressed


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANGUAGE": "nl:es", "LANG": "de_DE.UTF-8"}, "es"),
        ({"LANGUAGE": "fr_CA:es", "LANG": "de_DE.UTF-8"}, "fr"),
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_command_line_speaks_the_shells_language(environ, language):
    assert i18n.from_environment(environ) == language


def test_text_outside_a_request_speaks_the_language_asked_for():
    assert i18n.join(["a", "b", "c"]) == "a, b and c"
    with i18n.using("de"):
        assert i18n.join(["a", "b"]) == "a und b"
        with i18n.using("es"):
            assert i18n.language() == "es" and i18n.join(["a", "b"]) == "a y b"
        assert i18n.language() == "de"
    assert i18n.language() == "en"


# --- Accept-Language read within bounds, nothing kept (issue 32) -------------------------


@pytest.mark.parametrize(
    ("header", "wanted"),
    [
        ("de-DE,de;q=0.9,en;q=0.5", ["de-DE", "de", "en"]),
        ("en;q=0.5, fr ;q=0.8,it", ["it", "fr", "en"]),  # best first, whatever the order
        ("es;q=0.5,pl;q=0.5", ["es", "pl"]),  # ties in the header's order
        ("de;q=0,fr;Q=1.000", ["fr"]),
        ("de;q=2,fr;q=abc,it;level=1,pl", ["pl"]),  # a quality that cannot be read: left out
        ("", []),
        (None, []),
        (",,;q=1,", []),
    ],
)
def test_the_accepted_languages_are_read_best_first(header, wanted):
    assert language.accepted_languages(header) == wanted


def test_only_the_start_of_a_long_header_is_read():
    assert language.accepted_languages("de," + "x" * 200_000) == ["de", "x" * 253]
    assert language.accepted_languages("x" * 200_000 + ",de") == ["x" * language.MAX_ACCEPT]
    many = ",".join(["nl"] * 10 + ["fr"] + ["nl"] * 10)
    assert language.accepted_languages(many).count("nl") == language.MAX_LANGUAGES - 1
    assert language.accepted_languages(",".join(["nl"] * 20 + ["fr"])) == ["nl"] * 16


@pytest.mark.exhaustive
def test_distinct_long_headers_leave_nothing_behind(client):
    """1,024 distinct 20 KB headers, even to /healthz: what the app holds afterwards has
    not grown with them (the choice was cached by the raw header: 20 MB kept)."""
    client.get("/healthz", headers={"Accept-Language": "de"})  # what a first request loads
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for number in range(1024):
            header = f"fr;q=0.{number % 9 + 1},{number:05d}" + "x" * 20_000
            response = client.get("/healthz", headers={"Accept-Language": header})
            assert response.status_code == 200
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 1024 * 1024, f"{grown} bytes kept after the requests"

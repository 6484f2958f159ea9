"""The page header fits one line on a phone, in every language.

The home link, a page's own links (Share, History; Phase, Hit, Hand; ...) and
the Rules link sit side by side on a phone 360 to 430 px wide: none drops onto
a second line, and every one stays a thumb-sized target in readable text.
"""

from __future__ import annotations

import pytest
from pages import served, start_table

WIDTHS = (360, 390, 430)
LOCALES = {
    "en": "en-US",
    "de": "de-DE",
    "es": "es-ES",
    "fr": "fr-FR",
    "it": "it-IT",
    "pl": "pl-PL",
}

HEADER = r"""() => {
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, width: r.width, height: r.height};
  };
  const header = document.querySelector("header.top");
  const links = [...header.querySelectorAll("a")].map((a) => ({
    text: a.textContent.replace(/\s+/g, " ").trim(),
    font: parseFloat(getComputedStyle(a).fontSize),
    lineHeight: parseFloat(getComputedStyle(a).lineHeight),
    ...box(a),
  }));
  return {header: box(header), links, scrollWidth: document.documentElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def site(browser, tmp_path_factory):
    """One server for the module, with a game and a table to visit."""
    database = tmp_path_factory.mktemp("header") / "games.sqlite3"
    with served(database) as url:
        context = browser.new_context()
        answer = context.request.post(f"{url}/api/games", data={"players": ["Ann", "Bob", "Cy"]})
        assert answer.status == 201, answer.text()
        edit, view = answer.json()["edit_url"], answer.json()["view_url"]
        table = start_table(context.new_page(), url, "Smiths")
        context.close()
        pages = {
            "home": f"{url}/",
            "rules": f"{url}/rules",  # the header with only the home and Rules links
            "game": edit,
            "history": f"{edit}/history",
            "read-only game": view,
            "phase checker": f"{url}/check",
            "hit checker": f"{url}/check/hit",
            "hand checker": f"{url}/check/hand",
            "table": table,
            "statistics": f"{table}/stats",
            "new game": f"{url}/new",
        }
        yield pages


@pytest.mark.parametrize("language", LOCALES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_header_keeps_its_links_and_title_on_one_line(browser, site, width, language):
    context = browser.new_context(
        viewport={"width": width, "height": 800},
        is_mobile=True,
        has_touch=True,
        locale=LOCALES[language],
    )
    page = context.new_page()
    try:
        one_line = None
        wrapped = []
        for name, address in site.items():
            page.goto(address)
            found = page.evaluate(HEADER)
            header, links = found["header"], found["links"]
            if one_line is None:
                one_line = header["height"]  # the home page: the title and Rules only
            assert found["scrollWidth"] <= width, f"{name}: the page scrolls sideways"
            for link in links:
                where = f"{name}: {link['text']!r}"
                assert link["height"] >= 44 and link["width"] >= 44, f"{where} is too small to tap"
                assert link["font"] >= 16, f"{where} is in {link['font']} px text"
                one_text_line = max(44, link["lineHeight"]) + 1
                assert link["height"] <= one_text_line, f"{where} takes two lines of text"
            tops = {round(link["top"]) for link in links}
            if len(tops) > 1 or header["height"] > one_line:
                wrapped.append(f"{name} ({', '.join(link['text'] for link in links)})")
        assert not wrapped, f"at {width} px in {language}, the header takes two lines on: " + (
            "; ".join(wrapped)
        )
    finally:
        context.close()

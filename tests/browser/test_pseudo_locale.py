"""Every word on the main pages comes from a catalogue.

The server speaks the pseudo-language, which shows each catalogue text as
⟦…⟧. A family plays through the main pages, and any word left outside the
brackets (other than the players' own names, card codes and numbers) is text
nobody marked for translation: German and Spanish players would read English.
"""

from __future__ import annotations

import re

import pytest
from pages import served

from scorekeeper.i18n import LANGUAGES

PLAYERS = ("Ann", "Bob", "Cy")
TABLE = "Smiths"
# Names that are the same in every language: the game's own name, each language's own name and
# the time zone's IANA name (the server here keeps UTC; a table's clock line names it).
# (Dates and times, in <time>, are the locale's own.)
PROPER = ("Phase 10", "Phase\xa010", *LANGUAGES.values(), "UTC")

TEXTS = """() => {
  // The page's text in order, as one string: a translation with markup inside spans nodes.
  const words = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (!element || element.closest("script, style, template, noscript, time, .rules-doc")) {
      continue;
    }
    words.push(node.textContent);
  }
  const texts = [words.join(" ")];
  for (const element of document.querySelectorAll("[aria-label], [placeholder], [title], [alt]")) {
    for (const name of ["aria-label", "placeholder", "title", "alt"]) {
      const value = element.getAttribute(name);
      if (value && value.trim()) texts.push(value.trim());
    }
  }
  texts.push(document.title);
  return texts;
}"""


def unmarked(text: str) -> list[str]:
    """The words of `text` that no catalogue gave."""
    while (stripped := re.sub(r"⟦[^⟦⟧]*⟧", " ", text)) != text:
        text = stripped
    for proper in (*PROPER, *PLAYERS, TABLE):
        text = text.replace(proper, " ")
    text = re.sub(r"\b[RBGY]\d{1,2}\b|\b[RBGYWS]\b", " ", text)  # card notation, colour letters
    return re.findall(r"[^\W\d_]{2,}", text)


@pytest.fixture
def pseudo_server(tmp_path):
    """The app speaking the pseudo-language, which brackets every catalogue text."""
    with served(tmp_path / "games.sqlite3", PSEUDO_LOCALE=True) as url:
        yield url


def test_the_unit_finds_unmarked_words():
    assert unmarked("⟦Ŝçöŕé⟧ 12 Ann R7 W") == []
    assert unmarked("⟦Ŕûłé 8: ⟦çàŕd⟧⟧ ›") == []
    assert unmarked("⟦Hàñd⟧ 3 saved") == ["saved"]


def test_every_word_on_the_main_pages_is_from_a_catalogue(phone, pseudo_server):
    page, found = phone, {}

    def look(name: str) -> None:
        page.wait_for_load_state("networkidle")
        words = [word for text in page.evaluate(TEXTS) for word in unmarked(text)]
        if words:
            found[name] = sorted(set(words))

    base = pseudo_server
    page.goto(f"{base}/tables/new")
    look("new table")
    page.fill("#name", TABLE)
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    table_url = page.url
    look("table")

    page.goto(f"{base}/new")
    look("new game")
    for i, name in enumerate(PLAYERS):
        page.fill(f"#player-{i}", name)
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
    game_url = page.url
    look("game")

    page.click("label[for=out-0]")
    page.fill("input[name=points-1]", "7")  # no card is worth 7 points alone: refused
    page.fill("input[name=points-2]", "50")
    page.locator("form.hand-form button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    look("refused hand")

    page.goto(game_url)
    page.click("label[for=out-0]")
    page.fill("input[name=points-1]", "25")
    page.fill("input[name=points-2]", "50")
    page.locator("form.hand-form button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    look("hand saved")

    game_id = game_url.split("/")[-2]
    for name, path in [
        ("history", f"{game_url}/history"),
        ("share", f"{game_url}/share"),
        ("player links", f"{game_url}/players"),
        ("correct a hand", f"{game_url}/hands/1"),
        ("watch", f"{base}/v/{game_id}"),
        ("table view", f"{base}/v/{game_id}/table"),
        ("home", f"{base}/"),
        ("table with a game", table_url),
        ("statistics", f"{table_url}/stats"),
        ("check a phase", f"{base}/check?phase=2&g0=R7+B7+W&g1=G3+G4+Y5"),
        ("check a hand", f"{base}/check/hand"),
        ("check a hit", f"{base}/check/hit"),
        ("printables", f"{base}/printables"),
        ("rules", f"{base}/rules"),
        ("import", f"{base}/import"),
        ("not found", f"{base}/v/no-such-game"),
    ]:
        page.goto(path)
        look(name)
    assert found == {}, "words no catalogue gave:\n" + "\n".join(
        f"  {name}: {', '.join(words)}" for name, words in found.items()
    )

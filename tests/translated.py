"""Reading the pages in another language: what a person sees, and any English left behind.

`leftovers(page, "de")` lists the texts on a page that are still the English of a
template ("Share", "Save hand 2"), where the language has its own words for them.
Texts from other catalogue areas (verdicts, phase names) and what people typed
(names) are not template text, so they are not looked for.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser

from scorekeeper import i18n
from scorekeeper.i18n import catalogues

SHOWN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")


# Elements inside a line of text: a name in <bdi> or <strong> is part of its sentence.
INLINE = ("b", "bdi", "em", "strong")
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))  # marks around a name


class _Shown(HTMLParser):
    """The text nodes and the attributes people see or hear, one text each; the words of
    one line (a sentence with a name in <bdi>) are one text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._hidden = 0
        self._line: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in INLINE:
            self._end_line()
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value and value.strip():
                self.texts.append(" ".join(value.translate(ISOLATES).split()))

    def handle_endtag(self, tag: str) -> None:
        if tag not in INLINE:
            self._end_line()
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self._line.append(data.translate(ISOLATES))

    def close(self) -> None:
        super().close()
        self._end_line()

    def _end_line(self) -> None:
        line = " ".join("".join(self._line).split())
        if line:
            self.texts.append(line)
        self._line = []


def shown(page: str) -> list[str]:
    parser = _Shown()
    parser.feed(page)
    parser.close()
    return parser.texts


def text_of(page: str) -> str:
    """Everything a person reads or hears on the page, as one string."""
    return " ".join(shown(page))


def _fragments(message: str) -> list[str]:
    """A message's pieces of text between its tags, trimmed."""
    return [f.strip(" ·:,.;!?()") for f in re.split(r"<[^>]*>", message) if f.strip(" ·:,.;!?()")]


_VALUE = re.compile(r"%\\\(\w+\\\)s")  # a placeholder, as re.escape leaves it
_NUMBERS = {"num", "number", "points", "total", "made", "phase", "place", "wins", "percent"}


def _forms(catalogue, message) -> tuple[list[str], list[str]]:
    """A message's English forms, and the language's forms of it."""
    ctx = message.context
    if isinstance(message.id, tuple | list):
        if ctx:
            return list(message.id), [catalogue.npgettext(ctx, *message.id, n) for n in (1, 2, 5)]
        return list(message.id), [catalogue.ngettext(*message.id, n) for n in (1, 2, 5)]
    ours = catalogue.pgettext(ctx, message.id) if ctx else catalogue.gettext(message.id)
    return [message.id], [ours]


@cache
def english(language: str) -> tuple[re.Pattern[str], ...]:
    """Patterns for the pages' English texts that `language` says differently.

    Each matches one whole text on a page (tags split texts); placeholders match the values.
    """
    catalogue = i18n.catalogue(language)
    english_fragments: set[str] = set()
    theirs: set[str] = set()  # the language's own texts: "Hand" is German too
    for message in catalogues.extract()["pages"]:
        if message.id:
            forms, translated = _forms(catalogue, message)
            english_fragments |= {f for form in forms for f in _fragments(form)}
            theirs |= {f for text in translated for f in _fragments(text)}
    patterns = set()
    for fragment in english_fragments - theirs:
        words = re.sub(r"%\(\w+\)s", " ", fragment).split()
        if "%(" in fragment and len(words) < 2 or len("".join(words)) < 4:
            continue  # too little English to tell ("%(points)s points", "and", "pts")
        patterns.add(re.compile(_VALUE.sub(_value, re.escape(fragment.replace("%%", "%")))))
    return tuple(sorted(patterns, key=lambda p: p.pattern))


def _value(placeholder: re.Match[str]) -> str:
    """What a placeholder stands for on the page: a number, or a short value (a name, a date)."""
    name = placeholder.group(0)[3:-3]
    return r"[\d.,]+" if name in _NUMBERS else ".{1,60}?"


def leftovers(page: str, language: str) -> list[str]:
    """The English template texts still on `page` (empty when it is all in `language`)."""
    found = []
    for text in shown(page):
        bare = text.strip(" ·:,.;!?()↶←✓✗")
        found += [text for pattern in english(language) if pattern.fullmatch(bare)][:1]
    return found


def every_page(client) -> dict[str, tuple[str, str, dict | None, int]]:
    """One of each page, with something on it: name -> (method, path, form, status).

    Builds a table with a finished game (Ann won), a game in progress with one hand
    recorded (Ann, Bob, Cy), and remembers both on this client (this device).
    """
    from webpage import read
    from webutil import csrf, new_game, new_table, record, table_game

    token = csrf(client)
    table_url = new_table(client, "Die Müllers")
    finished = table_game(client, table_url)
    for hand in range(1, 11):
        assert record(client, finished, hand, went_out=0, points={1: 60, 2: 60}).status_code == 303
    game = new_game(client)
    assert record(client, game, 1, went_out=1, points={0: 25, 2: 75}, made_0="1").status_code == 303
    client.get(finished), client.get(game)  # this device now remembers both
    players = read(client.get(f"{game}/players").get_data(as_text=True)).copy_links
    pick, entry = (link.removeprefix("http://table.test") for link in players[:2])
    game_id = game.rstrip("/").split("/")[-2]
    refused = {"csrf_token": token, "hand_number": "2", "went_out": "0"}
    refused.update({"points-1": "50", "points-2": "7"})
    return {
        "home": ("get", "/", None, 200),
        "new game": ("get", "/new", None, 200),
        "new game refused": ("post", "/new", {"csrf_token": token, "player-0": "Ann"}, 422),
        "game": ("get", game, None, 200),
        "hand refused": ("post", f"{game}/hands", refused, 422),
        "finished game": ("get", finished, None, 200),
        "correct a hand": ("get", f"{game}/hands/1", None, 200),
        "history": ("get", f"{game}/history", None, 200),
        "share": ("get", f"{game}/share", None, 200),
        "players' codes": ("get", f"{game}/players", None, 200),
        "who are you": ("get", pick, None, 200),
        "my points": ("get", entry, None, 200),
        "watch": ("get", f"/v/{game_id}", None, 200),
        "table view": ("get", f"/v/{game_id}/table", None, 200),
        "table": ("get", table_url, None, 200),
        "statistics": ("get", f"{table_url}/stats", None, 200),
        "check a phase": ("get", "/check?phase=1&g0=R7+B7+G7&g1=G3+Y3", None, 200),
        "check a hit": ("get", "/check/hit?kind=set&group=R7+B7+G7&card=Y7", None, 200),
        "check a hand": ("get", "/check/hand?phase=1&hand=R7+B7+G7+Y3+B3+G12+R1", None, 200),
        "import a game": ("get", "/import", None, 200),
        "import a table": ("get", "/tables/import", None, 200),
        "start a table": ("get", "/tables/new", None, 200),
        "print": ("get", "/printables", None, 200),
        "not found": ("get", f"{game}/hands/99", None, 404),
    }


def fetch(client, language: str, method: str, path: str, form: dict | None) -> tuple[int, str]:
    """A page as a browser asking for `language` gets it."""
    headers = {"Accept-Language": f"{language},en;q=0.5"}
    response = client.open(path, method=method.upper(), data=form, headers=headers)
    return response.status_code, response.get_data(as_text=True)


def read_every_page(client, language: str, expected: dict[str, list[str]]) -> dict[str, list[str]]:
    """Open every page in `language`: what is wrong on each (empty when all is well).

    Each page must answer as it should, say `<html lang>`, show the `expected` words
    (as a person reads them, tags aside), and keep no English template text.
    """
    problems = {}
    for name, (method, path, form, status) in every_page(client).items():
        code, page = fetch(client, language, method, path, form)
        text = text_of(page)
        found = [f"status {code}"] if code != status else []
        found += [] if f'<html lang="{language}">' in page else ["<html lang> is not " + language]
        found += [f"missing {words!r}" for words in expected.get(name, []) if words not in text]
        found += [f"English: {leftover!r}" for leftover in leftovers(page, language)]
        if found:
            problems[name] = found
    return problems

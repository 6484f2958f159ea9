"""The forms and links a page offers, read from its HTML, and the app's pages found by
following them: for tests that try every field of every form rather than a hand list.

Shared by the number tests (every numeric field gets odd digits) and the scope tests
(every form a game's scorekeeper link reaches is sent).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlsplit

PLAIN_NUMBER = str.isdecimal  # with isascii below: the digits a page writes in its own forms
SKIPPED = (".pdf", ".zip", ".json", ".csv", ".js", ".css", ".svg", ".png", ".ico", ".webmanifest")


@dataclass
class Form:
    """One form as a browser would send it: its address, method and fields with their
    values as the page set them (a checked box or radio, a select's chosen option), and
    its buttons (a button may name itself, or send the form elsewhere: ``formaction``)."""

    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    numeric: set[str] = field(default_factory=set)  # fields whose values are numbers
    buttons: list[tuple[str | None, str, str]] = field(default_factory=list)

    def data(self, **replaced: str) -> dict[str, str]:
        """The fields to send, with some replaced."""
        sent = dict(self.fields)
        sent.update(replaced)
        return sent

    def ways(self) -> list[tuple[str, dict[str, str]]]:
        """Each way to send it: (address, the button's own field), one per address and
        button name (a list of "remove this card" buttons is one way)."""
        found = {(self.action, ""): {}}
        for action, name, value in self.buttons:
            found.setdefault((action or self.action, name), {name: value} if name else {})
        return [(action, extra) for (action, _name), extra in found.items()]


class _Reader(HTMLParser):
    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[Form] = []
        self.links: list[str] = []
        self._by_id: dict[str, Form] = {}
        self._outside: list[tuple[str, str, dict[str, str]]] = []  # (form id, tag, attrs)
        self._form: Form | None = None
        self._select: tuple[Form, str] | None = None
        self._options: list[tuple[str, bool]] = []
        self._radios: dict[tuple[int, str], list[tuple[str, bool]]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        for name in ("href", "hx-get"):
            if a.get(name, "").startswith("/"):
                self.links.append(a[name])
        if tag == "form":
            method = (a.get("method") or "get").upper()
            self._form = Form(a.get("action") or self.page_url, method)
            self.forms.append(self._form)
            if a.get("id"):
                self._by_id[a["id"]] = self._form
            return
        if tag == "option" and self._select is not None:
            self._options.append((a.get("value", ""), "selected" in a))
        elif a.get("form") in self._by_id:  # a control outside its form, after it
            self._control(self._by_id[a["form"]], tag, a)
        elif a.get("form"):
            self._outside.append((a["form"], tag, a))  # its form comes later
        elif self._form is not None:
            self._control(self._form, tag, a)

    def _control(self, form: Form, tag: str, a: dict[str, str]) -> None:
        name = a.get("name", "")
        kind = a.get("type", "submit" if tag == "button" else "text").lower()
        if tag in ("button", "input") and kind in ("submit", "image"):
            form.buttons.append((a.get("formaction"), name, a.get("value", "")))
        elif not name or kind in ("button", "file", "reset"):
            return
        elif tag == "input" and kind == "radio":
            self._radios.setdefault((id(form), name), []).append(
                (a.get("value", ""), "checked" in a)
            )
            if _number(a.get("value", "")):
                form.numeric.add(name)
        elif tag == "input" and kind == "checkbox":
            if "checked" in a:
                form.fields.append((name, a.get("value", "on")))
            if _number(a.get("value", "")):
                form.numeric.add(name)  # sent once ticked
        elif tag == "input":
            value = a.get("value", "")
            form.fields.append((name, value))
            if kind == "number" or a.get("inputmode") in ("numeric", "decimal") or _number(value):
                form.numeric.add(name)
        elif tag == "textarea":
            form.fields.append((name, ""))
        elif tag == "select":
            self._select, self._options = (form, name), []

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            form, name = self._select
            _chosen(form, name, self._options)
            self._select = None
        elif tag == "form":
            self._form = None

    def close(self) -> None:
        super().close()
        for form_id, tag, a in self._outside:
            if form_id in self._by_id:
                self._control(self._by_id[form_id], tag, a)
        for form in self.forms:
            for (owner, name), options in self._radios.items():
                if owner == id(form):
                    _chosen(form, name, options)


def _chosen(form: Form, name: str, options: list[tuple[str, bool]]) -> None:
    """A select's or radio group's value: the one chosen, else the first."""
    if not options:
        return
    value = next((v for v, chosen in options if chosen), options[0][0])
    form.fields.append((name, value))
    if any(_number(v) for v, _chosen in options):
        form.numeric.add(name)


def _number(value: str) -> bool:
    return bool(value) and value.isascii() and PLAIN_NUMBER(value)


def forms_and_links(page: str, page_url: str) -> tuple[list[Form], list[str]]:
    """The forms of an HTML page, and the addresses of the app it links to (or asks
    with htmx)."""
    reader = _Reader(page_url)
    reader.feed(page)
    reader.close()
    return reader.forms, reader.links


def numeric_query(url: str) -> list[str]:
    """The query parameters of a link whose values are numbers."""
    return [name for name, value in parse_qsl(urlsplit(url).query) if _number(value)]


def walk(client, start: list[str], depth: int = 2) -> Iterator[tuple[str, str]]:
    """(address, HTML) of every page reached from ``start`` by following the app's own
    links ``depth`` times over; each address shape (path and query names) once."""
    seen: set[tuple[str, tuple[str, ...]]] = set()
    todo = [(url, 0) for url in start]
    while todo:
        url, level = todo.pop(0)
        parts = urlsplit(url)
        shape = (parts.path, tuple(sorted(name for name, _v in parse_qsl(parts.query))))
        if shape in seen or parts.path.endswith(SKIPPED) or parts.path.startswith("/static/"):
            continue
        seen.add(shape)
        response = client.get(url)
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        page = response.get_data(as_text=True)
        yield url, page
        if level < depth:
            _forms, links = forms_and_links(page, url)
            todo.extend((link, level + 1) for link in links)

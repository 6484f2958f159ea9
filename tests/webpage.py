"""A page read once, as a tree, so that a test asks what it shows by name.

``read(html)`` parses a page (or a fragment) with the standard library's parser; the test
then asks for elements by a small CSS selector (``page.select("li.night-table span.seat")``)
or for what pages carry again and again: a form's fields, a table's rows, a link, the CSRF
token, the live part's tag, the short code. Values come back as a person reads them:
entities decoded, whitespace collapsed, the marks that isolate a name left out.

Selectors: a tag, ``#id``, ``.class``, ``[name]``, ``[name=value]`` (quoted or not), joined
for one element (``input.link-field[readonly]``), separated by spaces for a descendant, by
``>`` for a child, by commas for either of two.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import suppress
from html.parser import HTMLParser

VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# An element that a new one of these closes, as HTML leaves their end tags optional.
CLOSED_BY = {
    "p": {"p", "div", "ul", "ol", "table", "section", "form", "h1", "h2", "h3"},
    "li": {"li"},
    "option": {"option"},
    "tr": {"tr"},
    "td": {"td", "th", "tr"},
    "th": {"td", "th", "tr"},
    "dt": {"dt", "dd"},
    "dd": {"dt", "dd"},
}
UNSEEN = frozenset({"script", "style", "template"})
BLOCKS = frozenset(
    "address article aside blockquote br dd details div dl dt fieldset figcaption figure footer"
    " form h1 h2 h3 h4 h5 h6 header hr li main nav ol option p pre section summary table tbody"
    " td tfoot th thead tr ul".split()
)
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))  # marks around a name
WHITESPACE = re.compile(r"[ \t\n\r\f]+")  # what HTML collapses: not a no-break space
CODE = re.compile(r"\b[0-9A-Z]{4}(?:-[0-9A-Z]{4}){3}\b")  # a short code, grouped as shown


class Element:
    """One element: its tag, its attributes (decoded; a bare attribute is ""), its children.
    ``element["href"]`` is an attribute's value, ``"checked" in element`` whether it has one."""

    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element | str] = []

    def __repr__(self) -> str:
        shown = " ".join(f'{k}="{v}"' for k, v in self.attrs.items())
        return f"<{self.tag}{' ' + shown if shown else ''}>"

    # HTML's attribute names are read in lower case (an SVG's viewBox too)
    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name.lower(), default)

    def __getitem__(self, name: str) -> str:
        return self.attrs[name.lower()]

    def __contains__(self, name: str) -> bool:
        return name.lower() in self.attrs

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    @property
    def text(self) -> str:
        """What a person reads in it: its text, whitespace collapsed, scripts left out."""
        return _plain("".join(self._texts()))

    @property
    def bare_text(self) -> str:
        """Its text as the markup holds it, nothing put between two elements (the DOM's
        textContent, scripts left out): two cells written without a space between them run
        together ("1601"), as they do when the page is read as bare text."""
        return "".join(self._texts(apart=False)).translate(ISOLATES)

    @property
    def leading_text(self) -> str:
        """Its text before the first element inside it: a message without the links to the
        rules that follow it."""
        words = []
        for child in self.children:
            if not isinstance(child, str):
                break
            words.append(child)
        return _plain("".join(words))

    @property
    def value(self) -> str:
        """A control's value as it stands: a textarea's text, an option's value or words."""
        return _value(self)

    def _texts(self, apart: bool = True) -> Iterator[str]:
        for child in self.children:
            if isinstance(child, str):
                yield child
            elif child.tag not in UNSEEN:
                space = " " if apart and child.tag in BLOCKS else ""  # a line of its own
                yield space
                yield from child._texts(apart)
                yield space

    def elements(self) -> Iterator[Element]:
        """Every element inside this one, in the page's order."""
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.elements()

    def select(self, selector: str) -> list[Element]:
        """The elements inside this one that match `selector`, in the page's order."""
        chains = [_chain(part) for part in selector.split(",")]
        return [e for e in self.elements() if any(_matches(e, chain, self) for chain in chains)]

    def one(self, selector: str) -> Element:
        """The one element that matches `selector` (an AssertionError when there is none, or
        more than one: a test reading the wrong element would prove nothing)."""
        found = self.select(selector)
        assert len(found) == 1, f"{len(found)} elements match {selector!r}"
        return found[0]

    def first(self, selector: str) -> Element:
        found = self.select(selector)
        assert found, f"nothing matches {selector!r}"
        return found[0]

    def texts(self, selector: str) -> list[str]:
        return [e.text for e in self.select(selector)]

    def section(self, heading: str) -> Element:
        """The one section or article whose heading says `heading`."""
        found = [s for s in self.select("section, article") if _heading(s) == heading]
        assert len(found) == 1, f"{len(found)} sections are headed {heading!r}"
        return found[0]

    # --- what tests read again and again ---------------------------------------------------

    def links(self, selector: str = "a") -> list[str]:
        """The addresses of the links matching `selector` (``a[rel=next]``, ``a.keep-score``)."""
        return [e["href"] for e in self.select(selector) if "href" in e]

    def link(self, text: str) -> str:
        """The address of the one link whose text is (or begins with) `text`."""
        found = [e["href"] for e in self.select("a[href]") if e.text.startswith(text)]
        assert len(found) == 1, f"{len(found)} links say {text!r}"
        return found[0]

    def forms(self, selector: str = "form") -> list[Form]:
        return [Form(e) for e in self.select(selector)]

    def form(self, selector: str = "form") -> Form:
        return Form(self.one(selector))

    def controls(self, name: str) -> list[Element]:
        """Every input, select and textarea named `name`."""
        return [e for e in self.select("input, select, textarea") if e.get("name") == name]

    def values(self, name: str) -> list[str]:
        """The value of each control named `name`, as it stands on the page."""
        return [_value(e) for e in self.controls(name)]

    def checked(self, name: str) -> list[str]:
        """The values of the checked boxes and the chosen options named `name`."""
        chosen = []
        for control in self.controls(name):
            if control.tag == "select":
                chosen += [_value(o) for o in control.select("option") if "selected" in o]
            elif "checked" in control:
                chosen.append(_value(control))
        return chosen

    def rows(self, selector: str = "table") -> list[list[str]]:
        """The body rows of the one table matching `selector`, each a list of its cells' texts
        (header cells too: a row's name is often its <th>)."""
        table = self.one(selector)
        body = table.select("tbody") or [table]
        return [row.texts("th, td") for row in body[0].select("tr")]


class Form:
    """A form: where it goes, how, and the fields it would send as it stands."""

    def __init__(self, element: Element) -> None:
        self.element = element
        self.action = element.get("action", "")
        self.method = element.get("method", "get").lower()

    def __repr__(self) -> str:
        return f"<form {self.method} {self.action}>"

    @property
    def fields(self) -> dict[str, str]:
        """name -> value of what the form would send (a name sent twice: its first value)."""
        sent: dict[str, str] = {}
        for control in self.element.select("input, select, textarea"):
            name = control.get("name")
            if not name or name in sent or control.get("type") in ("submit", "button"):
                continue
            if control.tag == "select":
                options = control.select("option")
                chosen = [o for o in options if "selected" in o] or options[:1]
                if chosen:
                    sent[name] = _value(chosen[0])
            elif control.get("type") not in ("checkbox", "radio") or "checked" in control:
                sent[name] = _value(control)
        return sent

    @property
    def hidden(self) -> dict[str, str]:
        controls = self.element.select("input[type=hidden]")
        return {c["name"]: c.get("value", "") for c in controls if "name" in c}


class Page(Element):
    """A whole page, or a fragment of one (a poll's answer)."""

    def __init__(self) -> None:
        super().__init__("#page", {}, None)

    @property
    def lang(self) -> str:
        return self.one("html")["lang"]

    @property
    def csrf_token(self) -> str:
        """The token htmx sends with every change (``hx-headers`` on <body>)."""
        return json.loads(self.one("body")["hx-headers"])["X-CSRF-Token"]

    def csrf_tokens(self) -> set[str]:
        """Every CSRF token the page carries: its forms' fields and htmx's header."""
        found = set(self.values("csrf_token"))
        for element in self.select("[hx-headers]"):
            found |= {json.loads(element["hx-headers"]).get("X-CSRF-Token")} - {None}
        return found

    def numbered_sections(self) -> dict[str, int | None]:
        """Each id on the page -> the number of the section it stands in: the last <h2> up to
        it that begins with one ("8. Going out"), as the rules page numbers its sections."""
        found: dict[str, int | None] = {}
        number = None
        for element in self.elements():
            if element.tag == "h2" and (first := element.text.split(". ", 1)[0]).isdigit():
                number = int(first)
            if "id" in element:
                found[element["id"]] = number
        return found

    @property
    def languages(self) -> list[Element]:
        """The language switcher's links, in its order (``a[hreflang]``)."""
        return self.select("a[hreflang]")

    @property
    def leaderboard(self) -> list[tuple[str, str]]:
        """A night's leaderboard, top down: (name, points) for each player."""
        rows = self.select("#night-board tr[data-player]")
        return [(row["data-player"], row.one("td.points").text) for row in rows]

    def live(self, selector: str = "[hx-headers]") -> dict[str, str]:
        """The headers the page's first live part sends with its poll (its If-None-Match)."""
        for element in self.select(selector):
            headers = json.loads(element["hx-headers"])
            if "If-None-Match" in headers:
                return headers
        raise AssertionError("the page has no live part")

    @property
    def live_tag(self) -> str:
        return self.live()["If-None-Match"]

    @property
    def watch_codes(self) -> list[str]:
        """The short codes the page gives to type on a phone, one per ``watch-code`` line
        (a game's share page, a table's screen, each table of a night), in its order."""
        return [code for e in self.select(".watch-code") for code in CODE.findall(e.text)]

    @property
    def watch_code(self) -> str:
        """The page's one short code."""
        found = self.watch_codes
        assert len(found) == 1, f"{len(found)} short codes on the page"
        return found[0]

    @property
    def copy_links(self) -> list[str]:
        """The links a page gives to copy, in its order (a game's share page: watch, then
        edit; a night's page: its read-only link; the players' page: pick, then each one's)."""
        return [e["value"] for e in self.select("input.link-field[readonly]")]


def read(page: str | bytes, upto: str | None = None) -> Page:
    """The page, parsed once; with `upto` (a tag), only as far as the first such start tag,
    for what the page's head carries (``read(page, upto="body").csrf_token``)."""
    builder = _Builder(upto)
    with suppress(_Reached):
        builder.feed(page.decode() if isinstance(page, bytes) else page)
        builder.close()
    return builder.root


def csrf(page: str | bytes) -> str:
    """The CSRF token of a page: what its <body> tells htmx to send (read to there only,
    as most requests a test makes need one)."""
    return read(page, upto="body").csrf_token


def _plain(text: str) -> str:
    """Text as a page shows it: HTML's whitespace collapsed (a no-break space stays), without
    the invisible marks that isolate a name."""
    return WHITESPACE.sub(" ", text.translate(ISOLATES)).strip(" ")


def _heading(part: Element) -> str | None:
    """The text of a section's own first heading (not one of a section inside it)."""
    for heading in part.select("h1, h2, h3"):
        holder = heading.parent
        while holder is not None and holder.tag not in ("section", "article"):
            holder = holder.parent
        if holder is part:
            return heading.text
    return None


def _value(control: Element) -> str:
    if control.tag == "textarea":
        return "".join(c for c in control.children if isinstance(c, str)).removeprefix("\n")
    if control.tag == "option" and "value" not in control:
        return control.text
    return control.get("value", "")


class _Reached(Exception):
    """The tag a partial read stops at."""


class _Builder(HTMLParser):
    def __init__(self, upto: str | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Page()
        self.open: list[Element] = [self.root]
        self.upto = upto

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        while self.open[-1].tag in CLOSED_BY and tag in CLOSED_BY[self.open[-1].tag]:
            self.open.pop()
        element = Element(tag, {k: v or "" for k, v in attrs}, self.open[-1])
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)
        if tag == self.upto:
            raise _Reached

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        if any(e.tag == tag for e in self.open[1:]):
            while self.open.pop().tag != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


# --- selectors ---------------------------------------------------------------------------

_SIMPLE = re.compile(
    r"""(?P<tag>^[\w-]+|^\*)|\#(?P<id>[\w-]+)|\.(?P<cls>[\w-]+)"""
    r"""|\[(?P<attr>[\w:-]+)(?:=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\]]*)))?\]"""
)


def _compound(text: str) -> list[tuple[str, str, str | None]]:
    """One element's conditions: (kind, name, value) for a tag, an id, a class, an attribute."""
    conditions, at = [], 0
    while at < len(text):
        match = _SIMPLE.match(text, at)
        assert match and match.end() > at, f"cannot read the selector {text!r}"
        if match["tag"] and match["tag"] != "*":
            conditions.append(("tag", match["tag"], None))
        elif match["id"]:
            conditions.append(("attr", "id", match["id"]))
        elif match["cls"]:
            conditions.append(("class", match["cls"], None))
        elif match["attr"]:
            value = next(
                (v for v in (match["dq"], match["sq"], match["bare"]) if v is not None), None
            )
            conditions.append(("attr", match["attr"].lower(), value))
        at = match.end()
    return conditions


def _chain(selector: str) -> list[tuple[str, list[tuple[str, str, str | None]]]]:
    """A selector as its steps, last first: (how it joins the one before, its conditions)."""
    steps, joint = [], " "
    for token in re.findall(r'>|(?:[^\s>"\'\[]|\[[^\]]*\])+', selector.strip()):
        if token == ">":
            joint = ">"
            continue
        steps.append((joint, _compound(token)))
        joint = " "
    assert steps, f"an empty selector: {selector!r}"
    return steps[::-1]


def _fits(element: Element, conditions: list[tuple[str, str, str | None]]) -> bool:
    for kind, name, value in conditions:
        if kind == "tag" and element.tag != name:
            return False
        if kind == "class" and name not in element.classes:
            return False
        if kind == "attr" and (name not in element or value is not None and element[name] != value):
            return False
    return True


def _matches(element: Element, chain, top: Element) -> bool:
    """Whether `element` ends a path matching `chain` (last step first) inside `top`."""
    (_, conditions), *before = chain
    if not _fits(element, conditions):
        return False
    if not before:
        return True
    joint = chain[0][0]
    parent = element.parent
    while parent is not None and parent is not top:
        if _matches(parent, before, top):
            return True
        if joint == ">":
            return False
        parent = parent.parent
    return False

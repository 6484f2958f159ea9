"""The start page (this device's games and tables) and the rules page.

The rules page is docs/rules.md (or its translation), rendered once on the
server, at /rules. Every verdict on screen links the rule that decides it there,
as "Rule 8: card points ›" pointing at /rules#card-points. The document is ours
and trusted; raw HTML in it is still switched off, and headings written as
``## Card points {#card-points}`` get that anchor as their id. The translated
pages (docs/rules.<language>.md) keep the same anchors, so a rule link works in
every language.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from flask import Blueprint, render_template
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markupsafe import Markup

from ... import i18n
from .. import device
from ..access import db
from ..assets import shipped

bp = Blueprint("home", __name__)
DOCUMENT = shipped("docs") / "rules.md"


@bp.get("/")
def home() -> str:
    return render_template("home.html", **device.home(db()))


@bp.get("/rules")
def rules() -> str:
    return render_template("rules.html", body=rules_html(i18n.language()))


def document(language: str) -> Path:
    """The rules in `language`, or in English when there is no translation."""
    translated = DOCUMENT.with_name(f"rules.{language}.md")
    return translated if language != i18n.DEFAULT and translated.exists() else DOCUMENT


_ANCHOR = re.compile(r"\s*\{#([a-z0-9-]+)\}\s*$")


def _heading_anchors(state: StateCore) -> None:
    """Turn a trailing ``{#anchor}`` on a heading into the heading's id."""
    tokens = state.tokens
    for opening, inline in zip(tokens, tokens[1:], strict=False):
        if opening.type != "heading_open" or inline.type != "inline":
            continue
        match = _ANCHOR.search(inline.content)
        if not match:
            continue
        opening.attrSet("id", match.group(1))
        inline.content = inline.content[: match.start()]
        last = inline.children[-1] if inline.children else None
        if last is not None and last.type == "text":
            last.content = _ANCHOR.sub("", last.content)


@cache
def rules_html(language: str = i18n.DEFAULT) -> Markup:
    """The rules document as HTML (tables on, raw HTML off)."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.push("heading_anchors", _heading_anchors)
    return Markup(md.render(document(language).read_text(encoding="utf-8")))


def anchors(language: str = i18n.DEFAULT) -> set[str]:
    """Every anchor the rules page has, for links and tests."""
    return set(re.findall(r'id="([a-z0-9-]+)"', rules_html(language)))

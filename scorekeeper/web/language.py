"""Which language each page speaks (the switcher that changes it on this device is the
``language`` blueprint).

The browser's Accept-Language decides, unless someone picked a language with
the switcher: that choice is kept in a cookie for a year. Flask-Babel holds the
choice and formats numbers and dates for it; every text, in templates and in
the engine alike, is translated through i18n/ from the same
catalogues (docs/decisions.md says why). Every date and time is shown on a clock zones.py
chooses: a record's on the clock of its table (or of its game, in no table), a live screen's
on the phone's own, else on the record's. Names in pages are isolated with <bdi>,
so a right-to-left name cannot reorder the text around it; where markup cannot go
(a page's <title>, an SVG label, an attribute), ``isolate`` wraps the name in
Unicode's isolate marks instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from babel import Locale
from flask import Flask, Response, current_app, g, request
from flask_babel import (
    Babel,
    format_datetime,
    format_decimal,
    get_locale,
)
from markupsafe import Markup, escape

from .. import clock, i18n
from ..i18n import _
from .security import SettingError
from .zones import day, day_of, zone

COOKIE = "lang"


# Browsers send a few languages in well under a hundred characters. Only this much of the
# header is read, so a request costs the same whatever it sends, and nothing is kept.
MAX_ACCEPT = 256
MAX_LANGUAGES = 16
_QUALITY = re.compile(r"\s*q\s*=\s*(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)\s*", re.IGNORECASE)


def choose() -> str:
    """The switcher's choice, else the browser's best match, else English."""
    return choice(request.cookies.get(COOKIE), request.headers.get("Accept-Language"))


def choice(cookie: str | None, accepted: str | None) -> str:
    """The language for this cookie and Accept-Language header."""
    if chosen := i18n.supported((cookie or "")[:MAX_ACCEPT]):
        return chosen
    for wanted in accepted_languages(accepted):
        if found := i18n.supported(wanted):
            return found
    return i18n.DEFAULT


def accepted_languages(header: str | None) -> list[str]:
    """The languages an Accept-Language header asks for, best first (ties in its order),
    from its first MAX_ACCEPT characters and MAX_LANGUAGES entries. One with ``q=0``, or a
    quality that cannot be read, is left out."""
    ranked = []
    entries = (header or "")[:MAX_ACCEPT].split(",", MAX_LANGUAGES)[:MAX_LANGUAGES]
    for position, entry in enumerate(entries):
        tag, _, parameter = entry.partition(";")
        if not parameter:
            quality = 1.0
        elif found := _QUALITY.fullmatch(parameter):
            quality = float(found.group(1))
        else:
            continue
        if quality > 0 and tag.strip():
            ranked.append((-quality, position, tag.strip()))
    return [tag for _quality, _position, tag in sorted(ranked)]


_LOCALES = {code: Locale.parse(code) for code in i18n.LANGUAGES}


def _locale() -> Locale:
    """Flask-Babel's choice, as a Locale made once per language (not parsed per request)."""
    return _LOCALES[choose()]


def moment(when: str | datetime) -> str:
    """A stored time as the reader's language writes it, on the family's own clock."""
    return format_datetime(clock.local(when, zone()), "short", rebase=False)


def bdi(name: object) -> Markup:
    return Markup("<bdi>%s</bdi>") % name


def bdi_join(names: Iterable[object], separator: str = ", ") -> Markup:
    return escape(separator).join(bdi(name) for name in names)


def init_app(app: Flask) -> None:
    app.config.setdefault("PSEUDO_LOCALE", False)
    setting = app.config.get("TIME_ZONE")  # SCOREKEEPER_TIME_ZONE
    app.config["ZONE"] = clock.zone(setting) if setting else clock.machine_zone()
    if app.config["ZONE"] is None:
        raise SettingError(
            _(
                "SCOREKEEPER_TIME_ZONE must name a time zone, such as Europe/Berlin or "
                "America/New_York, not %(value)s",
                value=repr(setting),
            )
        )
    Babel(app, locale_selector=_locale)
    pseudo = i18n.Pseudo()

    # The first hook of a request (URL values are read before any before_request), so a
    # game that is not found while its URL is read gets its 404 in the reader's language.
    @app.url_value_preprocessor
    def speak(_endpoint: str | None, _values: dict | None) -> None:
        language = str(get_locale())
        translations = pseudo if current_app.config["PSEUDO_LOCALE"] else None
        g.language_token = i18n.activate(language, translations)

    @app.teardown_request
    def stop_speaking(_error: BaseException | None) -> None:
        if (token := g.pop("language_token", None)) is not None:
            i18n.deactivate(token)

    @app.after_request
    def vary(response: Response) -> Response:
        if response.mimetype == "text/html":
            response.vary.update(("Accept-Language", "Cookie"))
        return response

    # One path for every text: templates translate through the same catalogue as the engine.
    # (Jinja fills the placeholders itself, escaping the values.)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: i18n.active().gettext(s),
        ngettext=lambda s, p, n: i18n.active().ngettext(s, p, n),
        pgettext=lambda c, s: i18n.active().pgettext(c, s),
        newstyle=True,
    )
    app.jinja_env.filters.update(
        bdi=bdi,
        bdi_join=bdi_join,
        isolate=i18n.isolate,
        decimal=format_decimal,
        day=day,
        moment=moment,
    )
    app.jinja_env.globals.update(
        day_of=day_of,
        languages=i18n.LANGUAGES,
        language=i18n.language,
        here=lambda: request.full_path.rstrip("?"),
    )

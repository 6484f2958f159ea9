"""Behind a reverse proxy that speaks HTTPS (Caddy, nginx, a NAS's own): docs/self-hosting.md.

``SCOREKEEPER_TRUST_PROXY=N`` trusts the ``X-Forwarded-*`` headers set by the N proxies
in front (werkzeug's ``ProxyFix``), so links, QR codes and redirects carry the
proxy's scheme and host. Off by default: without a proxy, anyone could forge them.
``SCOREKEEPER_HSTS_MAX_AGE=SECONDS`` adds ``Strict-Transport-Security`` to HTTPS
answers; off by default, since a browser that saw it refuses plain HTTP to that
host for that long. Cookies are marked ``Secure`` whenever the request came over
HTTPS (the session's in ``session_cookie.py``, the language's in ``language.py``).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from ..i18n import _


class SettingError(ValueError):
    """An operator's setting the app cannot use; the message says which and why."""


def count_setting(app: Flask, key: str) -> int:
    """The whole number ``SCOREKEEPER_<key>`` holds (0 when unset)."""
    value: Any = app.config.get(key) or 0
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SettingError(
            _(
                "SCOREKEEPER_%(key)s must be a whole number (0, 1, 2, ...), not %(value)s",
                key=key,
                value=repr(value),
            )
        )
    return value


def init_app(app: Flask) -> None:
    """Call last: ``ProxyFix`` must rewrite each request before anything else reads it."""
    hops = count_setting(app, "TRUST_PROXY")
    hsts = count_setting(app, "HSTS_MAX_AGE")
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops
        )
    if hsts:

        @app.after_request
        def strict_transport(response: Response) -> Response:
            if request.is_secure:
                response.headers.setdefault("Strict-Transport-Security", f"max-age={hsts}")
            return response

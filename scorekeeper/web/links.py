"""Links for other phones: at the address `serve` announced, not the browser's host.

A sheet printed from the laptop at ``localhost`` must still carry a link that a
phone on the same Wi-Fi can open, so ``serve`` keeps the address it printed in
``PUBLIC_URL``. Without one (tests, a server behind a proxy) the request's own
host is the best guess.
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, url_for


def public_url(endpoint: str, **values: Any) -> str:
    """The absolute URL of ``endpoint`` as a phone on the network should open it."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def this_computer_only(url: str) -> str | None:
    """The host and port of ``url`` when it names this computer's own loopback, which no
    other phone can open (``localhost:5010``); None when phones may reach it."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return parts.netloc
    try:
        return parts.netloc if ipaddress.ip_address(host).is_loopback else None
    except ValueError:  # a name: phones on the network may well resolve it
        return None

"""The link printed under a game's QR code: one to read aloud over the phone and type.

With the game's short code (``codes``) it is the app's address and the code in
groups of four, ``http://192.168.1.20:5010/ABCD-EFGH-JKMN-PQRS``: the app opens
``/<code>`` however it is typed (any case, with or without the dashes). Without
a code it is the watch link itself. The QR code always carries the watch link.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from .. import codes


def site(view_url: str) -> str:
    """The app's address: the watch link (``.../v/<game>``) less its last two parts."""
    parts = urlsplit(view_url)
    path = parts.path.rstrip("/").rsplit("/", 2)[0]
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def printed_link(view_url: str, code: str | None) -> str:
    """What to type: the app's address and the grouped code, or else the watch link."""
    if not code:
        return view_url
    return f"{site(view_url)}/{codes.grouped(code)}"

"""Behind a reverse proxy: its X-Forwarded-* headers believed only when it sent them.

A proxy that speaks HTTPS (docs/self-hosting.md) tells the app the phone's
address, scheme and host in ``X-Forwarded-*`` headers, and links, QR codes,
redirects, ``Secure`` cookies and each address's rate limits follow them. Anyone
else who reaches the port could send the same headers, so they are believed only
from the addresses ``SCOREKEEPER_TRUST_PROXY`` names:

- ``127.0.0.1,10.0.0.0/8`` (addresses and networks, IPv4 or IPv6): requests from
  these. Each trusted proxy in the ``X-Forwarded-For`` chain counts as one hop,
  read from the right, so the phone's address is the first one no trusted proxy
  added, and what a phone writes into the headers itself is never read.
- ``N`` (the older form, a number): N proxies on this machine (loopback only).
- ``0`` or unset: nobody.

From anyone else the headers are dropped, and the first few such addresses are
logged once, so an operator whose proxy runs elsewhere sees which address to
name. ``SCOREKEEPER_HSTS_MAX_AGE=SECONDS`` adds ``Strict-Transport-Security`` to
HTTPS answers (off by default: a browser that saw it refuses plain HTTP to that
host for that long).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, request
from werkzeug.http import parse_list_header
from werkzeug.middleware.proxy_fix import ProxyFix

from ..i18n import _
from .security import SettingError, count_setting

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
MOST_HOPS = 5  # proxies in a row: a CDN, a load balancer and Caddy are three
MOST_LOGGED = 16  # untrusted addresses that sent X-Forwarded-* named in the log
_FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST")
_FORWARDED_ALL = (*_FORWARDED, "HTTP_X_FORWARDED_PORT", "HTTP_X_FORWARDED_PREFIX")


@dataclass(frozen=True)
class Trust:
    """Whose X-Forwarded-* headers are believed, and through how many proxies at most."""

    networks: tuple[Network, ...] = ()
    most_hops: int = MOST_HOPS

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.strip().strip("[]"))
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped  # an IPv4 peer, as a server listening on :: sees it
        return any(ip in network for network in self.networks)

    def hops(self, peer: str, forwarded_for: str) -> int:
        """How many trusted proxies stand between the phone and the app: the peer, then
        each trusted address at the right of X-Forwarded-For."""
        if not self.trusts(peer):
            return 0
        hops = 1
        chain = forwarded_for.split(",")[-self.most_hops :] if forwarded_for else []
        for address in reversed(chain[1:] if len(chain) > 1 else []):
            if hops >= self.most_hops or not self.trusts(address):
                break
            hops += 1
        return hops

    def client(self, peer: str, forwarded_for: str) -> str:
        """The address a request from ``peer`` is from, as the app reads it (ProxyFix with
        ``hops``): the phone's behind trusted proxies, else the peer's own. The server counts
        a request's connection against it (server.py)."""
        hops = self.hops(peer, forwarded_for)
        chain = parse_list_header(forwarded_for) if hops and forwarded_for else []
        return (chain[-hops] if len(chain) >= hops > 0 else "") or peer


def trust_setting(app: Flask) -> Trust:
    """``SCOREKEEPER_TRUST_PROXY`` read: addresses, a number of local proxies, or nobody."""
    value: Any = app.config.get("TRUST_PROXY") or 0
    if isinstance(value, int | str) and str(value).strip().isdigit():
        hops = count_setting(app, "TRUST_PROXY")
        return Trust(LOOPBACK, hops) if hops else Trust()
    if isinstance(value, str):
        try:
            return Trust(tuple(_networks(value.split(","))))
        except ValueError:
            pass
    raise SettingError(
        _(
            "SCOREKEEPER_TRUST_PROXY must name the proxy's addresses (such as "
            "127.0.0.1,10.0.0.0/8), or be a number of proxies on this machine, not %(value)s",
            value=repr(value),
        )
    )


def _networks(parts: Iterable[str]) -> Iterable[Network]:
    for part in parts:
        if part.strip():
            yield ipaddress.ip_network(part.strip(), strict=False)


class FromTrustedProxies:
    """WSGI: ProxyFix for a request a trusted proxy sent, with as many hops as it has;
    for anyone else, the X-Forwarded-* headers removed before anything reads them."""

    def __init__(self, app: WSGIApplication, trust: Trust, log: Any) -> None:
        self.app, self.trust, self.log = app, trust, log
        self.logged: set[str] = set()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Any:
        peer = environ.get("REMOTE_ADDR", "")
        hops = self.trust.hops(peer, environ.get("HTTP_X_FORWARDED_FOR", ""))
        if hops:
            fix = ProxyFix(
                self.app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops
            )
            return fix(environ, start_response)
        if any(name in environ for name in _FORWARDED) and len(self.logged) < MOST_LOGGED:
            if peer not in self.logged:
                self.logged.add(peer)
                self.log.warning(
                    "X-Forwarded-* headers from %s ignored: it is not named in "
                    "SCOREKEEPER_TRUST_PROXY",
                    peer,
                )
        for name in _FORWARDED_ALL:
            environ.pop(name, None)
        return self.app(environ, start_response)


def behind_proxy(app: Flask) -> None:
    """Call last: the proxy's headers must be read before anything else reads the request."""
    trust = trust_setting(app)
    hsts = count_setting(app, "HSTS_MAX_AGE")
    if trust:
        app.wsgi_app = FromTrustedProxies(  # type: ignore[method-assign]
            app.wsgi_app, trust, app.logger
        )
    if hsts:

        @app.after_request
        def strict_transport(response: Response) -> Response:
            if request.is_secure:
                response.headers.setdefault("Strict-Transport-Security", f"max-age={hsts}")
            return response

"""Where phones reach the app: this machine's address on the local network, the address an
operator names, and the first line `serve` prints."""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from ..i18n import N_, _
from .common import BadInput

# Where `lan_address` pretends to send: a documentation address (RFC 5737), then a private one.
# Connecting a UDP socket only picks the route and the interface's address; nothing is sent.
PROBE_ADDRESSES = ("192.0.2.1", "10.255.255.255")


def _reachable(address: str) -> bool:
    """An IPv4 address other phones could use: not loopback, not unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified)


def outward_address() -> str | None:
    """The address of the interface this machine would use to reach the network."""
    for target in PROBE_ADDRESSES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                address = str(probe.getsockname()[0])
        except OSError:  # no route that way
            continue
        if _reachable(address):
            return address
    return None


def hostname_address() -> str | None:
    """The first address this machine's name resolves to, unless it is a loopback one
    (Debian and Ubuntu map the name to 127.0.1.1)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = str(info[4][0])  # an AF_INET sockaddr: (host, port)
        if _reachable(address):
            return address
    return None


def lan_address() -> str | None:
    """This machine's address on the local network, if it has one; never a loopback one."""
    return outward_address() or hostname_address()


def startup_message(host: str, port: int, lan: str | None) -> tuple[str, str]:
    """The URL for the QR code, and the first line `serve` prints."""
    everywhere = host in ("0.0.0.0", "", "::")
    anywhere = N_("Phase 10 Scorekeeper is running. Open %(url)s on any phone on this network.")
    if everywhere and lan:
        url = f"http://{lan}:{port}/"
        return url, _(anywhere, url=url)
    if everywhere:
        url = f"http://localhost:{port}/"
        return url, _(
            "Phase 10 Scorekeeper is running at %(url)s. Phones on this network can open it "
            "at http://<this computer's address>:%(port)s/ (its address could not be found).",
            url=url,
            port=port,
        )
    url = f"http://{host}:{port}/"
    if host == "localhost" or host.startswith("127."):
        return url, _(
            "Phase 10 Scorekeeper is running at %(url)s (this computer only: start it "
            "without --host for phones to reach it).",
            url=url,
        )
    return url, _(anywhere, url=url)


def phone_address(url: str) -> str | None:
    """The announced URL when phones can reach it (not this computer's own loopback)."""
    host = urlsplit(url).hostname or ""
    return None if host == "localhost" or host.startswith("127.") else url


def in_container() -> bool:
    """Docker leaves /.dockerenv, Podman /run/.containerenv; our image (and systemd's
    convention for container managers) sets ``container``."""
    markers = (Path("/.dockerenv"), Path("/run/.containerenv"))
    return bool(os.environ.get("container")) or any(marker.exists() for marker in markers)


def checked_public_url(value: str) -> str:
    """The address an operator gave for phones, or BadInput saying what it should look like."""
    parts = urlsplit(value.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise BadInput(
            _(
                "the public address must be like http://192.168.1.50:5010 or "
                "https://scores.example.org (no path), not %(value)s",
                value=repr(value),
            )
        )
    return f"{parts.scheme}://{parts.netloc}/"

"""Pages rendered once per game version.

A version never changes once written, so whatever a page shows of it can be
rendered once and kept. The scorekeeper's pages also carry the session's CSRF
token: they are kept in pieces around it, and joined around each session's own.
"""

from __future__ import annotations

import gzip
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from flask import Response, current_app, request

from .. import i18n
from . import csrf

SIZE = 256  # kept renders: a few per version of the games being played (a 150-hand page is 100 KB)

T = TypeVar("T")
_renders: OrderedDict[tuple, object] = OrderedDict()
_lock = threading.Lock()


def once(key: tuple[Hashable, ...], render: Callable[[], T]) -> T:
    """`render()` the first time this key is asked for in this language.

    The key must hold everything else the render depends on: a game's version, an address.
    """
    config = current_app.config
    key = (config["DATABASE"], i18n.language(), config["PSEUDO_LOCALE"], *key)
    with _lock:
        if key in _renders:
            _renders.move_to_end(key)
            return _renders[key]  # type: ignore[return-value]
    value = render()
    with _lock:
        _renders[key] = value
        while len(_renders) > SIZE:
            _renders.popitem(last=False)
    return value


def page_with_token(key: tuple[Hashable, ...], render: Callable[[], str]) -> Response:
    """Like `once`, for an HTML page that carries this session's CSRF token."""
    return token_response(token_page(key, render))


def token_page(key: tuple[Hashable, ...], render: Callable[[], str]) -> TokenPage:
    """The kept pieces of a page that carries this session's CSRF token (`once` per key)."""
    token = csrf.token()
    return once(key, lambda: TokenPage.of(render(), token))


def token_response(page: TokenPage) -> Response:
    """``page`` with this session's token, gzipped if the phone asks for it."""
    token = csrf.token()
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = Response(page.gzipped(token), mimetype="text/html")
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(page.body(token), mimetype="text/html")
    response.vary.add("Accept-Encoding")
    return response


@dataclass(frozen=True)
class Page:
    """A rendered watch page or fragment, gzipped once for every phone that asks."""

    html: bytes
    gzipped: bytes
    over: bool

    @classmethod
    def of(cls, html: str, over: bool) -> Page:
        data = html.encode()
        return cls(data, gzip.compress(data, compresslevel=6, mtime=0), over)

    def response(self, status: int, **headers: str) -> Response:
        response = Response(self.html, status=status, mimetype="text/html", headers=headers)
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            response.set_data(self.gzipped)
            response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        return response


GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name, no time, unknown OS
LAST_BLOCK = b"\x03\x00"  # an empty final deflate block


def _deflate(data: bytes) -> bytes:
    """Raw deflate blocks ending on a byte boundary, so pieces can be joined into one stream."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


def _stored(data: bytes) -> bytes:
    """``data`` as one stored (uncompressed) deflate block, for the few bytes of a token.

    Cheaper than a compressor per request; it starts and ends on a byte boundary,
    as the pieces around it do.
    """
    return struct.pack("<BHH", 0, len(data), len(data) ^ 0xFFFF) + data


@dataclass(frozen=True)
class TokenPage:
    """A page kept with a hole wherever the CSRF token goes, each piece compressed once.

    Gzipping the page per request would cost more than everything else it takes
    to answer (a 150-hand scorekeeper page is about 100 KB). Deflate blocks that
    end on a byte boundary can be joined: per request only the token is
    compressed, and the checksum is run over the pieces.
    """

    pieces: tuple[bytes, ...]
    deflated: tuple[bytes, ...]

    @classmethod
    def of(cls, html: str, token: str) -> TokenPage:
        pieces = tuple(piece.encode() for piece in html.split(token))
        return cls(pieces, tuple(_deflate(piece) for piece in pieces))

    def body(self, token: str) -> bytes:
        return token.encode().join(self.pieces)

    def gzipped(self, token: str) -> bytes:
        hole, parts, crc, size = token.encode(), [GZIP_HEADER], 0, 0
        deflated_hole = _stored(hole)
        for i, (piece, deflated) in enumerate(zip(self.pieces, self.deflated, strict=True)):
            if i:
                parts.append(deflated_hole)
                crc, size = zlib.crc32(hole, crc), size + len(hole)
            parts.append(deflated)
            crc, size = zlib.crc32(piece, crc), size + len(piece)
        parts += [LAST_BLOCK, struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF)]
        return b"".join(parts)

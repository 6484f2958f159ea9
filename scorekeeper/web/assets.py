"""Static files and compression: a phone's first visit is a few KB, and then nothing.

`url_for("static", filename=...)` adds `?v=<digest of the content>`. The answer
to such a URL never changes, so a phone keeps it for a year without asking
again; a new release has new digests, hence new URLs. Asked for without the
current digest, a file is served with `no-cache` and an ETag instead. Files are
read and gzipped once, when the app starts: restart the server after changing
one. Every other text answer is gzipped on its way out when the phone accepts it.

``/sw.js`` is the service worker that makes the app installable and keeps its
static files: served from the site's root so that its scope is every page, and
registered by ``static/app.js`` only in a secure context. Browsers look for a new
one at least daily; ``no-cache`` with an ETag makes that a 304 while unchanged.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, abort, request

from ..i18n import _

PACKAGE = Path(__file__).resolve().parent.parent
YEAR = 365 * 24 * 3600
MIN_SIZE = 512  # smaller answers gain nothing from gzip
COMPRESSIBLE = {".css", ".js", ".svg", ".webmanifest", ".json", ".txt", ".html", ".csv"}
TYPES = {".webmanifest": "application/manifest+json", ".js": "text/javascript"}
TEXT = {
    "text/html",
    "text/css",
    "text/csv",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
}


def shipped(name: str) -> Path:
    """templates/, static/ or docs/: in the package when installed from a wheel, else the
    checkout's."""
    installed = PACKAGE / name
    return installed if installed.is_dir() else PACKAGE.parent / name


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    gzipped: bytes | None
    mimetype: str
    digest: str


def load(folder: Path) -> dict[str, StaticFile]:
    """Every file under `folder`, by its URL path, with its gzip made once."""
    files = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        body = path.read_bytes()
        gzipped = None
        if path.suffix in COMPRESSIBLE and len(body) >= MIN_SIZE:
            gzipped = gzip.compress(body, compresslevel=9, mtime=0)
        mimetype = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
        files[path.relative_to(folder).as_posix()] = StaticFile(
            body=body,
            gzipped=gzipped if gzipped and len(gzipped) < len(body) else None,
            mimetype=mimetype or "application/octet-stream",
            digest=hashlib.sha256(body).hexdigest()[:12],
        )
    return files


def init_app(app: Flask) -> None:
    files = load(Path(app.static_folder or "static"))

    def static(filename: str) -> Response:
        file = files.get(filename)
        if file is None:
            abort(404, _("There is no such file."))
        etag = f'"{file.digest}"'
        if request.args.get("v") == file.digest:
            caching = f"public, max-age={YEAR}, immutable"
        else:
            caching = "no-cache"  # an old or missing version: ask again each time
        headers = {"ETag": etag, "Cache-Control": caching, "Vary": "Accept-Encoding"}
        if request.headers.get("If-None-Match") == etag:
            return Response(status=304, headers=headers)
        body = file.body
        if file.gzipped and "gzip" in request.headers.get("Accept-Encoding", ""):
            body, headers["Content-Encoding"] = file.gzipped, "gzip"
        return Response(body, mimetype=file.mimetype, headers=headers)

    app.view_functions["static"] = static
    worker = files["sw.js"]

    def service_worker() -> Response:
        response = Response(worker.body, mimetype=worker.mimetype)
        response.headers.update({"Cache-Control": "no-cache", "ETag": f'"{worker.digest}"'})
        response.make_conditional(request)  # a 304 when the phone has this one (in place)
        return response

    app.add_url_rule("/sw.js", "service_worker", service_worker)

    @app.url_defaults
    def version_static_urls(endpoint: str, values: dict) -> None:
        if endpoint == "static" and (file := files.get(values.get("filename", ""))):
            values.setdefault("v", file.digest)

    @app.after_request
    def gzip_response(response: Response) -> Response:
        if (
            response.status_code < 200
            or response.status_code in (204, 304)
            or response.mimetype not in TEXT
            or "gzip" not in request.headers.get("Accept-Encoding", "")
            or "Content-Encoding" in response.headers
        ):
            return response
        stream = response.response
        response.direct_passthrough = False  # static files are streamed otherwise
        body = response.get_data()
        if hasattr(stream, "close"):
            stream.close()  # the static file behind it
        if len(body) < MIN_SIZE:
            return response
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        return response

"""gzip for text responses: a phone's first visit is a few KB, not 60."""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

MIN_SIZE = 512
TYPES = {
    "text/html",
    "text/css",
    "text/csv",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
}


def init_app(app: Flask) -> None:
    @app.after_request
    def gzip_response(response: Response) -> Response:
        if (
            response.status_code < 200
            or response.status_code in (204, 304)
            or response.mimetype not in TYPES
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

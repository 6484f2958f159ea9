"""Friendly error pages: a clear message, never a traceback; JSON for the JSON API."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

MESSAGES = {
    404: "There is nothing here. Check the link, or start a new game.",
    405: "That action cannot be done from this address.",
    413: "That was far more than this form accepts. Shorten it and try again.",
    429: "That was a lot in a short time. Wait a minute, then try again.",
    500: "Something went wrong on our side. What you entered was not saved: try again.",
}
API_MESSAGES = {
    404: "There is nothing at this address.",
    405: "This address does not accept that method.",
    413: "The request is larger than this API accepts (64 KB).",
    415: "Send the body as JSON with Content-Type: application/json.",
    429: "Too many requests from this address. Wait, then try again (see Retry-After).",
    500: "Something went wrong on the server; nothing was saved. Try again.",
}


def wants_json() -> bool:
    """Everything under /api/ answers in JSON, whatever went wrong."""
    return request.path.startswith("/api/")


def init_app(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        # Flask-Limiter's description is the limit itself ("30 per 1 minute"): say it in words
        custom = error.description != type(error).description and error.code != 429
        code = error.code or 500
        table = API_MESSAGES if wants_json() else MESSAGES
        message = error.description if custom else table.get(code, error.description)
        response: Response | str
        if wants_json():
            response = jsonify(error=message)
        else:
            response = render_template("error.html", code=code, title=error.name, message=message)
        return response, code, _allow(error)


def _allow(error: HTTPException) -> dict[str, str]:
    """Keep the Allow header a 405 must carry."""
    allowed = getattr(error, "valid_methods", None)
    return {"Allow": ", ".join(allowed)} if allowed else {}

"""Friendly error pages: a clear message, never a traceback; JSON for the JSON API."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from ..i18n import N_, _

MESSAGES = {
    404: N_("There is nothing here. Check the link, or start a new game."),
    405: N_("That action cannot be done from this address."),
    413: N_("That was far more than this form accepts. Shorten it and try again."),
    429: N_("That was a lot in a short time. Wait a minute, then try again."),
    500: N_("Something went wrong on our side. What you entered was not saved: try again."),
}
API_MESSAGES = {
    404: N_("There is nothing at this address."),
    405: N_("This address does not accept that method."),
    413: N_("The request is larger than this API accepts (64 KB)."),
    415: N_("Send the body as JSON with Content-Type: application/json."),
    429: N_("Too many requests from this address. Wait, then try again (see Retry-After)."),
    500: N_("Something went wrong on the server; nothing was saved. Try again."),
}
# The page's heading for each status (werkzeug's names are English only)
TITLES = {
    400: N_("Bad request"),
    403: N_("Not allowed"),
    404: N_("Not found"),
    405: N_("Not possible here"),
    409: N_("Changed meanwhile"),
    413: N_("Too much at once"),
    415: N_("Unsupported format"),
    422: N_("Cannot be done"),
    429: N_("Too many requests"),
    500: N_("Something went wrong"),
    503: N_("Not available right now"),
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
        if custom or code not in table:
            message = error.description
        else:
            message = _(table[code])
        response: Response | str
        if wants_json():
            response = jsonify(error=message)
        else:
            title = _(TITLES[code]) if code in TITLES else error.name
            response = render_template("error.html", code=code, title=title, message=message)
        return response, code, _allow(error)


def _allow(error: HTTPException) -> dict[str, str]:
    """Keep the Allow header a 405 must carry."""
    allowed = getattr(error, "valid_methods", None)
    return {"Allow": ", ".join(allowed)} if allowed else {}

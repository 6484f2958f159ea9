"""Friendly error pages: a clear message, never a traceback."""

from __future__ import annotations

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException

MESSAGES = {
    404: "There is nothing here. Check the link, or start a new game.",
    405: "That action cannot be done from this address.",
    413: "That was far more than this form accepts. Shorten it and try again.",
}


def init_app(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        custom = error.description != type(error).description
        code = error.code or 500
        message = error.description if custom else MESSAGES.get(code, error.description)
        return render_template("error.html", code=code, title=error.name, message=message), code

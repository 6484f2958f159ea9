"""The request body as JSON, read with the bounds of scorekeeper/jsontext.py."""

from __future__ import annotations

from typing import Any

from flask import request

from ..i18n import _
from ..jsontext import JsonError, parse_json


def request_json() -> Any:
    """The request body as JSON (its size is bounded by MAX_CONTENT_LENGTH: 413 beyond)."""
    try:
        text = request.get_data(cache=True).decode("utf-8")
    except UnicodeDecodeError:
        raise JsonError(_("the body is not UTF-8 text")) from None
    return parse_json(text)

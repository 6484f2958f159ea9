"""Keep secret links out of logs: an edit link in a log file is a key left on the table.

The secret part of a game's edit link, a table's link and a player's link
are all replaced.
"""

from __future__ import annotations

import logging
import re

from flask import Flask

SECRET_PATHS = re.compile(r"(/g/[\w-]+/|/api/games/[\w-]+/|/p/[\w-]+/|/t/|[?&]table=)[\w-]+")


class RedactEditKeys(logging.Filter):
    """Replace every key in a logged path (/g/, /api/games/, /p/, /t/, ?table=) by '…'."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(part in message for part in ("/g/", "/api/games/", "/p/", "/t/", "table=")):
            record.msg, record.args = SECRET_PATHS.sub(r"\1…", message), None
        return True


def init_app(app: Flask) -> None:
    redactor = RedactEditKeys()
    names = ("waitress", "werkzeug", "gunicorn.error", "gunicorn.access")
    for logger in (app.logger, *map(logging.getLogger, names)):
        logger.addFilter(redactor)

"""Keep edit keys out of logs: an edit link in a log file is a key left on the table."""

from __future__ import annotations

import logging
import re

from flask import Flask

EDIT_PATH = re.compile(r"(/g/[\w-]+/)[\w-]+")


class RedactEditKeys(logging.Filter):
    """Replace the key in any /g/<game>/<key> path with '…' before a record is written."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/g/" in message:
            record.msg, record.args = EDIT_PATH.sub(r"\1…", message), None
        return True


def init_app(app: Flask) -> None:
    redactor = RedactEditKeys()
    for logger in (app.logger, logging.getLogger("waitress"), logging.getLogger("werkzeug")):
        logger.addFilter(redactor)

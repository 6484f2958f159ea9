"""The app's secret key, kept in the data folder so that sessions survive a restart.

It signs each device's memory (its games and tables, web/device.py) and derives
players' own links. A new key is written to a file only its owner can read
before it holds anything, then moved into place, so no half-written or empty key
is ever found (a first start on a full disk left an empty one, and every page
answered 500 until someone deleted it). A key found empty anyway is replaced,
with a warning in the log; one that cannot be read stops the start-up with a
message saying what to do, rather than a 500 on every page later.
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
from pathlib import Path

from ..i18n import _

FILE = "secret_key"


class SecretKeyError(OSError):
    """The key's file cannot be read or written; the message says which and what to do."""


def kept_key(folder: Path, log: logging.Logger) -> str:
    """The key in ``folder``'s secret_key, made (or replaced, when empty) as needed."""
    path = folder / FILE
    try:
        key = path.read_bytes().decode("utf-8").strip()
    except FileNotFoundError:
        return _write(path)
    except UnicodeDecodeError:
        key = ""
    except OSError as error:
        raise SecretKeyError(
            _(
                "cannot read the secret key %(path)s (%(error)s). Let the app's user read "
                "it, or delete it to make a new one: each phone's start page then starts "
                "empty, and players' own links must be sent again.",
                path=path,
                error=error.strerror or error,
            )
        ) from None
    if key:
        return key
    log.warning(
        "The secret key %s was empty or not text, so a new one is made: each phone's "
        "start page starts empty, and players' own links must be sent again.",
        path,
    )
    return _write(path)


def _write(path: Path) -> str:
    """A new key in ``path``: written 0600 beside it, flushed, then moved into place."""
    key = secrets.token_hex(32)
    draft = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    try:
        handle = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            if os.write(handle, key.encode()) != len(key):  # a disk that filled up meanwhile
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fsync(handle)
        finally:
            os.close(handle)
        os.replace(draft, path)
    except OSError as error:
        draft.unlink(missing_ok=True)
        raise SecretKeyError(
            _(
                "cannot write the secret key %(path)s (%(error)s). Free some space or let "
                "the app's user write to its data folder.",
                path=path,
                error=error.strerror or error,
            )
        ) from None
    return key

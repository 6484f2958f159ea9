"""Fixtures: an app on a temporary SQLite file, a client that carries its CSRF token."""

from __future__ import annotations

import pytest
from flask import request
from webutil import csrf

from scorekeeper import create_app, store

# The longest tests (a container image built from nothing, the wheel through pipx, the exact
# counts of phases 2 and 3) start first, so that in a run on every core (scripts/test) no
# core waits on them at the end.
LONGEST_FIRST = ("test_container.py", "test_wheel.py", "test_exact.py")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.path.name not in LONGEST_FIRST)  # otherwise in order


@pytest.fixture
def app(tmp_path):
    yield create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "test",
            "SERVER_NAME": "table.test",
            "POLL_HOLD": 0,  # the test client asks one thing at a time: never hold a poll
            "TIME_ZONE": "UTC",  # not the machine's: a test sets the zone it needs
        }
    )
    store.connection.close_all()  # the connections each test's threads opened


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def token(client) -> str:
    return csrf(client)


@pytest.fixture
def through_the_app(app) -> list[str]:
    """The paths of the requests that reached Flask (not answered before it by a middleware)."""
    reached: list[str] = []

    @app.before_request
    def count():
        reached.append(request.full_path.rstrip("?"))

    return reached


class Clock:
    """The store's clock (``store.connection.now``), set by the test:
    ``clock.at = "...T20:25:00+00:00"``."""

    def __init__(self, at: str) -> None:
        self.at = at

    def __call__(self) -> str:
        return self.at


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """Every time the store writes is the clock's, from 23 November 2026, 19:00 UTC."""
    clock = Clock("2026-11-23T19:00:00+00:00")
    monkeypatch.setattr(store.connection, "now", clock)
    return clock

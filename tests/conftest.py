"""Fixtures: an app on a temporary SQLite file, a client that carries its CSRF token."""

from __future__ import annotations

import pytest
from flask import request
from webutil import csrf

from scorekeeper import create_app, store


@pytest.fixture
def app(tmp_path):
    yield create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "test",
            "SERVER_NAME": "table.test",
            "POLL_HOLD": 0,  # the test client asks one thing at a time: never hold a poll
        }
    )
    store.close_all()  # the connections each test's threads opened


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

"""Fixtures: an app on a temporary SQLite file, a client that carries its CSRF token."""

from __future__ import annotations

import pytest
from webutil import csrf

from scorekeeper import create_app


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "test",
            "SERVER_NAME": "table.test",
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def token(client) -> str:
    return csrf(client)

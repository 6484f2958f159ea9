"""Fixtures: an app on a temporary SQLite file, a client that carries its CSRF token."""

from __future__ import annotations

import re

import pytest

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


def csrf(client) -> str:
    """The session's CSRF token, as a page would carry it."""
    page = client.get("/").get_data(as_text=True)
    return re.search(r'"X-CSRF-Token": "([^"]+)"', page).group(1)


@pytest.fixture
def token(client) -> str:
    return csrf(client)

"""Browser tests: the real server on loopback, Debian's chromium driven by Playwright.

Outside CI they skip (saying why) when chromium is missing; in CI they must run.
Screenshots of the main screens land in test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests, but chromium is not installed")
        pytest.skip("chromium is not installed (run ./scripts/test, which installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def server(tmp_path):
    """The app under waitress on a free loopback port, on its own SQLite file."""
    from waitress.server import create_server

    from scorekeeper import create_app

    app = create_app(
        {"DATABASE": str(tmp_path / "games.sqlite3"), "SECRET_KEY": "browser", "POLL_SECONDS": 1}
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.close()


class RestartableServer:
    """The app under waitress on one loopback port that can go away and come back."""

    def __init__(self, database: Path) -> None:
        self.database = database
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server = None
        self.start()

    def start(self) -> None:
        from waitress.server import create_server

        from scorekeeper import create_app

        app = create_app(
            {"DATABASE": str(self.database), "SECRET_KEY": "browser", "POLL_SECONDS": 1}
        )
        self._server = create_server(app, host="127.0.0.1", port=self.port, threads=4)
        threading.Thread(target=self._server.run, daemon=True).start()

    def stop(self) -> None:
        """Close the listening socket and every open connection: phones get refused."""
        server, self._server = self._server, None
        for channel in list(server._map.values()):
            channel.close()
        server.task_dispatcher.shutdown()


@pytest.fixture
def restartable_server(tmp_path):
    server = RestartableServer(tmp_path / "games.sqlite3")
    yield server
    if server._server is not None:
        server.stop()


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone_without_js(browser):
    context = browser.new_context(**PHONE, java_script_enabled=False)
    yield context.new_page()
    context.close()

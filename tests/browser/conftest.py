"""Browser tests: the real server on loopback, Debian's chromium driven by Playwright.

Outside CI they skip (saying why) when chromium is missing; in CI they must run.
Screenshots of the main screens land in test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from servers import free_port

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
def playwright():
    """Playwright, for a test that launches chromium with flags of its own."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests, but chromium is not installed")
        pytest.skip("chromium is not installed (run ./scripts/test, which installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
    yield browser
    browser.close()


def browser_app(database: Path, **config):
    """The app on its own SQLite file, its polls held 2 s and asked again within a second,
    with `config` on top."""
    from scorekeeper import create_app

    return create_app(
        {
            "DATABASE": str(database),
            "SECRET_KEY": "browser",
            "POLL_SECONDS": 1,
            "POLL_HOLD": 2,
            **config,
        }
    )


@contextmanager
def served(database: Path, **config) -> Iterator[str]:
    """The app under waitress on a free loopback port until the block ends; yields its URL."""
    from waitress.server import create_server

    port = free_port()
    server = create_server(browser_app(database, **config), host="127.0.0.1", port=port, threads=16)
    thread = serve_in_thread(server)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        shut_down(server, thread)


@pytest.fixture
def server(tmp_path):
    """The app under waitress on a free loopback port, on its own SQLite file."""
    with served(tmp_path / "games.sqlite3") as url:
        yield url


def serve_in_thread(server) -> threading.Thread:
    """Run waitress's loop until shut_down(); a socket closed under it then is expected."""
    server.stopping = threading.Event()

    def run() -> None:
        try:
            server.run()
        except (OSError, ValueError):  # EBADF / fd -1: the loop polled a socket just closed
            if not server.stopping.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def shut_down(server, thread: threading.Thread | None = None) -> None:
    """Close the listening socket and every open connection, and let the loop end."""
    server.stopping.set()
    for channel in list(server._map.values()):
        channel.close()
    server.task_dispatcher.shutdown()
    if thread is not None:
        thread.join(timeout=5)
    from scorekeeper import store

    store.close_all()  # each of the server's threads kept a connection to the games file


class RestartableServer:
    """The app under waitress on one loopback port that can go away and come back."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server = None
        self.start()

    def start(self) -> None:
        from waitress.server import create_server

        app = browser_app(self.database)
        self._server = create_server(app, host="127.0.0.1", port=self.port, threads=16)
        self._thread = serve_in_thread(self._server)

    def stop(self) -> None:
        """Close the listening socket and every open connection: phones get refused."""
        server, self._server = self._server, None
        shut_down(server, self._thread)


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

"""Browser tests: the real server on loopback, Debian's chromium driven by Playwright.

Outside CI they skip (saying why) when chromium is missing; in CI they must run.
Screenshots of the main screens land in test-artifacts/ for a person to look at.
The helpers these fixtures use, and the tests too, are in pages.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pages import CHROMIUM, LAUNCH_ARGS, PHONE, WAIT, RestartableServer, served
from playwright.sync_api import expect
from tools import missing

expect.set_options(timeout=WAIT)  # one generous default for every expect (pages.WAIT)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def playwright():
    """Playwright, for a test that launches chromium with flags of its own."""
    if not Path(CHROMIUM).exists():
        missing("chromium is not installed (run ./scripts/test, which installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


class Browser:
    """The session's chromium, whose pages register no service worker.

    A context closed while its page's worker was still keeping static files hung chromium
    for good (a CI run stopped in ``context.close()`` for 20 minutes). The worker keeps
    only static files, and test_installable checks it in a browser of its own.
    """

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        return self._browser.new_context(**{"service_workers": "block", **options})

    def new_page(self, **options):
        return self._browser.new_page(**{"service_workers": "block", **options})

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
    yield Browser(browser)
    browser.close()


@pytest.fixture
def server(tmp_path):
    """The app under waitress on a free loopback port, on its own SQLite file."""
    with served(tmp_path / "games.sqlite3") as url:
        yield url


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

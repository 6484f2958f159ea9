"""Browser tests: the real server on loopback, Debian's chromium driven by Playwright.

Outside CI they skip (saying why) when chromium is missing; in CI they must run.
Screenshots of the main screens land in test-artifacts/ for a person to look at.
The helpers these fixtures use, and the tests too, are in pages.py.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

import pytest
from pages import CHROMIUM, LAUNCH_ARGS, PHONE, WAIT, RestartableServer, served
from playwright.sync_api import BrowserContext, expect
from playwright.sync_api import Error as PlaywrightError
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


@pytest.fixture(scope="session", autouse=True)
def contexts_leave_their_pages_first():
    """A context closes only once its pages have left the app.

    Twice a CI-like run stopped for good in ``context.close()`` right after a rematch
    (test_second_keeper), with service workers blocked and the server idle. A page that
    follows a rematch navigates on its own (the poll's redirect), and chromium seems to
    hang when a context closes during that navigation. ``goto`` has a timeout, where
    ``close`` has none: each page first goes to about:blank (ending its navigation and
    its held poll), then the context closes.
    """
    close = BrowserContext.close

    def leave_then_close(self, *args, **kwargs):
        for page in self.pages:
            with suppress(PlaywrightError):
                page.goto("about:blank", timeout=WAIT)
        close(self, *args, **kwargs)

    BrowserContext.close = leave_then_close  # type: ignore[method-assign]
    yield
    BrowserContext.close = close  # type: ignore[method-assign]


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

"""Helpers for browser tests: the app served on loopback, what a family does on a page
(start a game or a table, enter a hand, read a score), and screenshots a person can look
at afterwards.

The fixtures that use them (browser, phone, server, ...) are in conftest.py.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import expect
from servers import free_port

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
TABLET = {"viewport": {"width": 1280, "height": 800}}
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# How long any browser wait lasts before it fails (ms): what a busy 2-core CI machine needs,
# set once for every `expect` (conftest.py) and every helper here. Tests wait for a condition,
# so a quick machine never waits this long.
WAIT = 30_000
# The served app's live pages: a poll is held this long with nothing new...
POLL_HOLD = 2  # seconds
# ...and the page asks again this soon after its last answer.
POLL_SECONDS = 1


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def until(page, condition, timeout: int = WAIT) -> None:
    """Let `page` run, its events handled, until `condition()` holds; fail after `timeout`
    ms. For what Playwright cannot wait for itself: what event handlers record, or what only
    page.evaluate may ask (wait_for_function evals in the page, which the app's CSP refuses)."""
    for _ in range(timeout // 50):
        if condition():
            return
        page.wait_for_timeout(50)
    assert condition(), f"not so within {timeout} ms"


def settled(page) -> None:
    """Wait until htmx has swapped in and set up what a boosted link brought: a field typed
    into before its new form is set up would send no live check (a person is never that fast).
    """
    swapping = "document.querySelector('.htmx-added, .htmx-swapping, .htmx-settling')"
    until(page, lambda: page.evaluate(f"!{swapping}"))


def tap_card(page, label: str, js: bool = True) -> None:
    """Tap a checker's card button (``label``: its aria-label, "add R7") and wait for its
    answer: with JavaScript htmx swaps the checker in, and a tap on the old one before that
    is lost on a busy machine (a thumb waits for the card to show); without, the page."""
    button = page.locator(f"button[aria-label='{label}']")
    if not js:
        button.click()
        page.wait_for_load_state()
        return
    with page.expect_response(lambda answer: "/check" in answer.url):
        button.click()
    settled(page)


def open_fix(page, number: int) -> None:
    """Tap "Fix hand N" and wait for its form, set up by htmx: the game page has fields of
    the same names (the next hand's), so typing before the swap types into the wrong form."""
    page.get_by_role("link", name=f"Fix hand {number}").click()
    expect(page.get_by_role("heading", name=f"Correct hand {number}")).to_be_visible()
    settled(page)


# --- what a page says and shows ----------------------------------------------------------------

# A page's element wholly on screen, not scrolled to (evaluated on the element).
IN_VIEW = (
    "(el) => { const r = el.getBoundingClientRect();"
    " return r.top >= 0 && r.bottom <= window.innerHeight; }"
)

# The table view as it fits (issue 41, finding 6): everything in <main> inside the window,
# and each of these on one line (its height under one and a half of its lines: a star on a
# line of its own counts too). Clean: {"below": [], "wrapped": [], "wide": False}.
TABLE_VIEW_FITS = """() => {
  const below = [...document.querySelectorAll('main *')]
    .filter(e => { const r = e.getBoundingClientRect(); return r.height && r.bottom > innerHeight })
    .map(e => e.textContent.trim().slice(0, 40));
  const wrapped = [...document.querySelectorAll(
    '.player .name, .player .score, .player .phase, .status p, .ended-early, .game-facts .hint')]
    .filter(e => e.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(e).lineHeight)
    )
    .map(e => e.textContent.trim().replace(/\\s+/g, ' '));
  return {below, wrapped, wide: document.documentElement.scrollWidth > innerWidth};
}"""


def heard(page):
    """The page's one polite live region, where every change is said (issue 41, finding 1)."""
    return page.locator("#announcer")


def said(sentence: str, names: tuple[str, ...] = ("Ann", "Bob")) -> re.Pattern:
    """``sentence`` as a page says it, whole: each name may sit in its bidi isolates."""
    pattern = re.escape(sentence)
    for name in names:
        pattern = pattern.replace(re.escape(name), f"\u2068?{re.escape(name)}\u2069?")
    return re.compile(f"^{pattern}$")


# --- a phone going offline, and what the server holds --------------------------------------

# chromium's offline emulation alone has now and then let a request already on its way
# through: while "offline", every change a scorekeeper's page posts is refused too
POSTS = re.compile(r".*/g/[^/]+/[^/]+/(hands.*|undo|end|history/.*)$")


def whole_keeper_page(page) -> None:
    """The scorekeeper's whole page, not only its scoreboard (issue 29, item 1: a resend once
    left the page as only the scoreboard)."""
    expect(page.locator("header.top")).to_be_visible()
    expect(page.locator("#record form.hand-form")).to_have_count(1)
    expect(page.locator("#hands")).to_have_count(1)
    expect(page.locator("button", has_text="Undo")).to_have_count(1)
    expect(page.locator("body > main #scoreboard")).to_have_count(1)


def offline(page) -> None:
    page.route(POSTS, lambda route: route.abort("internetdisconnected"))
    page.context.set_offline(True)


def online(page) -> None:
    page.unroute(POSTS)
    page.context.set_offline(False)


def stored_hands(keeper_url: str) -> list[dict]:
    """The hands the server holds for the game at this scorekeeper link."""
    with urllib.request.urlopen(f"{keeper_url}/export.json") as answer:
        return json.loads(answer.read())["hands"]


def posts_to(page, part: str) -> list:
    """Every POST the page makes to an address holding ``part`` (its live checks aside), each
    as [request, reached the server]: filled in as the request ends."""
    posts: list = []
    page.on(
        "request",
        lambda r: (
            posts.append([r, None])
            if r.method == "POST" and part in r.url and not r.url.endswith("/check")
            else None
        ),
    )
    page.on("requestfinished", lambda r: _mark(posts, r, True))
    page.on("requestfailed", lambda r: _mark(posts, r, False))
    return posts


def _mark(posts: list, request, reached: bool) -> None:
    for entry in posts:
        if entry[0] is request:
            entry[1] = reached


def sent_after_refused(posts: list) -> int:
    """How many of the POSTs reached the server."""
    return sum(1 for _request, reached in posts if reached)


def refuse_posts(route) -> None:
    """A route's POSTs refused as by a phone without a connection; its pages still load."""
    if route.request.method == "POST":
        route.abort("internetdisconnected")
    else:
        route.continue_()


# a player's Send (the player's page posts to itself)
PLAYER_POSTS = re.compile(r".*/p/[^/]+/[^/]+$")


# --- what a family does on a page ------------------------------------------------------------


def open_page(browser, url: str, **device):
    """A new device (its own cookies) with ``url`` open."""
    page = browser.new_context(**device).new_page()
    page.goto(url)
    return page


def start_game(page, server, players, **options):
    page.goto(f"{server}/new")
    for i, name in enumerate(players):
        page.fill(f"#player-{i}", name)
    if options:
        page.click("text=House rules (optional)")
        for key, value in options.items():
            page.locator(f"#opt-{key}").select_option(value) if page.locator(
                f"select#opt-{key}"
            ).count() else page.fill(f"#opt-{key}", value)
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))


def enter_hand(page, went_out: str, points: dict[str, str]):
    page.click(f"label.pill:text-is('{went_out}')")
    for seat, total in points.items():
        page.fill(f"input[name=points-{seat}]", total)
    page.click("form.hand-form button[type=submit]")


def hand_points(seats: tuple[str, ...]) -> dict[str, int]:
    """One hand at a night's table: seat 1 goes out, seat n + 1 keeps 50 + 10 n points."""
    return {name: 50 + 10 * seat for seat, name in enumerate(seats) if seat}


def play_by_api(
    server: str, keeper: str, seats: tuple[str, ...], hands: range = range(1, 11)
) -> None:
    """Hands sent to the game's JSON API, as another scorekeeper's phone would (hand_points):
    ten hands, or the ``hands`` numbered."""
    game_id, key = re.search(r"/g/([^/]+)/([^/?#]+)", keeper).groups()
    for number in hands:
        body = {
            "hand_number": number,
            "hand": {"went_out": seats[0], "made": [seats[0]], "points": hand_points(seats)},
        }
        request = urllib.request.Request(
            f"{server}/api/games/{game_id}/{key}/hands",
            json.dumps(body).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as answer:
            assert answer.status == 201


def start_night(
    organiser,
    newcomers: list[str],
    rounds: str,
    tick: list[str] | None = None,
    tables: str = "",
    minutes: str = "",
    profile: str = "ten-hands",
    season: str | None = None,
) -> None:
    """From a table's page: a night's form filled as an organiser would (``tick``: the
    roster's players who are here, else the form's own ticks; ``season``: the season the
    form must have chosen by itself) and its first round seated."""
    organiser.get_by_role("link", name="Start a night").click()
    if tick is not None:
        for box in organiser.locator("input[name=player]").all():
            box.set_checked(box.get_attribute("value") in tick)
    organiser.fill("#newcomers", "\n".join(newcomers))
    organiser.select_option("#profile", profile)
    organiser.fill("#rounds", rounds)
    organiser.fill("#tables", tables)
    organiser.fill("#minutes", minutes)
    if season is not None:
        expect(organiser.locator("#night-season option:checked")).to_have_text(season)
    organiser.get_by_role("button", name="Seat the first round").click()
    organiser.wait_for_url(re.compile(r".*/t/[^/]+/nights/[^/]+$"))
    expect(organiser.locator("#night-live h2").first).to_contain_text("Round 1 of")


def seating(page) -> list[tuple[str, ...]]:
    """The round seated or playing on a night's organiser page, each table's names in seat
    order: read in one go from the live part once htmx has settled (a poll's swap
    replaces it)."""
    settled(page)
    tables = page.evaluate(
        """() => [...[...document.querySelectorAll('#night-live')].pop()
            .querySelectorAll('.night-round .night-table')]
            .map((t) => [...t.querySelectorAll('.seat > bdi')].map((b) => b.textContent))"""
    )
    return [tuple(seats) for seats in tables]


def swap(organiser, one: str, two: str) -> None:
    """Swap two seated players from the organiser's room control, and see it done."""
    organiser.locator("#room-seated summary").click()
    organiser.select_option("#swap-first", one)
    organiser.select_option("#swap-second", two)
    organiser.get_by_role("button", name="Swap these two").click()
    expect(organiser.locator(".notice")).to_contain_text(f"{one} and {two} have swapped")


def player_links(page, keeper_url: str) -> dict[str, str]:
    """Each player's own link, from the scorekeeper's "Players enter their own points"."""
    page.goto(f"{keeper_url}/players")
    links = page.locator("input.link-field").evaluate_all("(els) => els.map((e) => e.value)")
    names = page.locator("details.player-code summary strong").all_inner_texts()
    page.goto(keeper_url)
    return dict(zip(names, links[1:], strict=True))


def score_of(page, name: str):
    return page.locator("#scoreboard li.player", has_text=name).locator(".score strong")


def start_table(page, server, name):
    page.goto(f"{server}/")
    page.click("text=Start a table")
    page.fill("#name", name)
    page.click("button:has-text('Start the table')")
    page.wait_for_url(re.compile(r".*/t/[^/]+$"))
    return page.url


def table_game(page, players, first="1"):
    """From the table page: a short game (only the first phase) with these players."""
    page.click("button:has-text('Start a new game')")
    page.wait_for_url(re.compile(r".*/new\?.*"))
    for i, name in enumerate(players):
        page.fill(f"#player-{i}", name)
    page.click("text=House rules (optional)")
    page.fill("#opt-first", first)
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .filter(v => ['serious', 'critical'].includes(v.impact))
        .map(v => v.id + ': ' + v.help + ' at '
                  + v.nodes.map(n => n.target.join(' ')).join(', '))"""
    )
    return [f"{page.url}: {line}" for line in found]


# --- the app served on loopback --------------------------------------------------------------


def browser_app(database: Path, **config):
    """The app on its own SQLite file, its polls held POLL_HOLD seconds and asked again
    within POLL_SECONDS, with `config` on top."""
    from scorekeeper import create_app

    return create_app(
        {
            "DATABASE": str(database),
            "SECRET_KEY": "browser",
            "POLL_SECONDS": POLL_SECONDS,
            "POLL_HOLD": POLL_HOLD,
            "TIME_ZONE": "UTC",  # not the machine's; a phone's own zone wins (its cookie)
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

    store.connection.close_all()  # each of the server's threads kept a connection to the games file


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


class SlowChecks:
    """The hand check's answers held back, as on a slow network, until answer()."""

    def __init__(self, page):
        self.holding, self.held = True, []
        page.route("**/hands/check", self._arrive)

    def _arrive(self, route) -> None:
        if self.holding:
            self.held.append(route)
        else:
            route.continue_()

    def answer(self) -> None:
        self.holding = False
        while self.held:
            self.held.pop(0).continue_()

    def hold(self) -> None:
        self.holding = True

"""Over HTTPS (Caddy with its local certificate authority in front) the table view is a
secure context: it keeps the screen awake, and the app is installable, with a service
worker that keeps only static files. Over plain HTTP on the network, no service worker."""

from __future__ import annotations

import json

from caddy import NAME, caddy_in_front
from pages import CHROMIUM, LAUNCH_ARGS, until
from servers import PLAYERS, Server

# Counts the screen wake locks the page holds (navigator.wakeLock exists only where allowed).
COUNT_WAKE_LOCKS = """
window.heldLocks = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (kind) =>
    request(kind).then((lock) => { window.heldLocks.push(lock); return lock; });
}
"""
KEPT_PATHS = """
caches.keys()
  .then((names) => Promise.all(names.map((name) => caches.open(name).then((c) => c.keys()))))
  .then((lists) => lists.flat().map((request) => new URL(request.url).pathname))
"""


def test_over_https_the_table_view_stays_awake_and_the_app_is_installable(playwright, tmp_path):
    server = Server(tmp_path / "games.sqlite3", env={"SCOREKEEPER_TRUST_PROXY": "1"}).start()
    try:
        with caddy_in_front(server.port, tmp_path / "caddy") as proxy:
            body = json.dumps({"players": PLAYERS}).encode()
            _, _, answer = proxy.request(
                "POST", "/api/games", body, {"Content-Type": "application/json"}
            )
            table_view = json.loads(answer)["view_url"] + "/table"
            assert table_view.startswith(f"https://{NAME}:")
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    *LAUNCH_ARGS,
                    f"--host-resolver-rules=MAP {NAME} 127.0.0.1",
                    # trust Caddy's own authority, as a phone does once its root is installed
                    f"--ignore-certificate-errors-spki-list={proxy.spki_hashes()}",
                ],
            )
            try:
                page = browser.new_page()
                page.add_init_script(COUNT_WAKE_LOCKS)
                page.goto(table_view)
                assert page.evaluate("window.isSecureContext")
                # Asked from here, not with wait_for_function: its later tries eval in the
                # page, which the app's CSP refuses, so it failed whenever it had to wait.
                until(page, lambda: page.evaluate("heldLocks.some((lock) => !lock.released)"))
                until(page, lambda: page.evaluate("navigator.serviceWorker.controller !== null"))
                page.reload()  # now through the service worker
                until(page, lambda: len(page.evaluate(KEPT_PATHS)) >= 3)
                kept = page.evaluate(KEPT_PATHS)
                assert kept and all(path.startswith("/static/") for path in kept), kept
                manifest = page.evaluate(
                    "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
                )
                assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
                assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}

                plain = browser.new_page()  # the same server over HTTP, by its name
                plain.add_init_script(COUNT_WAKE_LOCKS)
                plain.goto(f"http://{NAME}:{server.port}/")
                assert not plain.evaluate("window.isSecureContext")
                assert not plain.evaluate("'serviceWorker' in navigator")
                assert plain.evaluate("heldLocks.length") == 0
            finally:
                browser.close()
    finally:
        server.stop()

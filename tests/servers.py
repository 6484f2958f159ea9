"""Real servers for tests: `scorekeeper serve` as a subprocess, its JSON API, a free port.

Shared by the durability, replica, public-address, HTTPS, container and browser tests.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from webpage import csrf, read

PLAYERS = ["Ann", "Bob", "Cy"]


# How long a test waits for a process it started to answer, or to do what it was told: a
# deadline that only a hang reaches (a loaded 2-core machine took over 20 s to start one).
SLOW_MACHINE_SECONDS = 120


def hand(number: int) -> dict:
    """Hand N of a simple valid game: the players go out in turn, the others keep 50."""
    out = PLAYERS[(number - 1) % 3]
    return {"went_out": out, "made": [out], "points": {p: 50 for p in PLAYERS if p != out}}


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`scorekeeper serve` as a subprocess, as ./scripts/serve runs it."""

    def __init__(
        self,
        db: Path,
        port: int | None = None,
        workers: int = 1,
        env: dict | None = None,
        log: Path | None = None,
    ) -> None:
        self.db, self.port, self.workers = db, port or free_port(), workers
        self.env = env or {}  # settings on top of the test's environment
        self.log = log  # where its log goes (stderr), if the test reads it
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def arguments(self) -> list[str]:
        """What `serve` is given beyond its address and games file."""
        return ["--workers", str(self.workers)]

    def start(self) -> Server:
        log = self.log.open("ab") if self.log else subprocess.DEVNULL
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1"]
            + ["--port", str(self.port), "--db", str(self.db), "--no-qr"]
            + self.arguments(),
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,  # its own process group: kill() takes the workers too
            env={**os.environ, "SCOREKEEPER_RATE_LIMIT_CREATE": "10000 per minute", **self.env},
        )
        if self.log:
            log.close()  # the server holds its own copy
        deadline = time.monotonic() + SLOW_MACHINE_SECONDS
        while True:
            try:
                with urllib.request.urlopen(self.base + "/api/openapi.json", timeout=1):
                    return self
            except OSError:
                assert self.process.poll() is None, "the server exited"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)

    def kill(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)  # like a power cut: every process at once
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def call(url: str, body: dict | str | None = None, timeout: float = 5) -> tuple[int, dict]:
    """The status and JSON answer of a GET (or, with a body, a POST) to the API; a body
    given as text is sent as it is."""
    data = None if body is None else (body if isinstance(body, str) else json.dumps(body)).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def shown_tag(server: Server, path: str) -> str:
    """The tag a page's live part sends: what it shows."""
    with_page = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    with_page.request("GET", path)
    html = with_page.getresponse().read().decode()
    with_page.close()
    return read(html).live_tag


def wait_until(condition: Callable[[], object], seconds: float, failure: str) -> None:
    """Ask `condition` every few milliseconds until it holds; fail with `failure` if it does
    not within `seconds` (a generous deadline: a loaded machine is slow, never wrong)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.02)


class Phone:
    """One phone's session with a real server: its cookie, so its forms carry their CSRF
    token, and a form with a file sent the way a browser sends it."""

    def __init__(self, base: str) -> None:
        import http.cookiejar

        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            _NoRedirects(),
        )

    def token(self) -> str:
        with self.opener.open(self.base + "/", timeout=30) as page:
            text = page.read().decode()
        return text.split('"X-CSRF-Token": "', 1)[1].split('"', 1)[0]

    def upload(self, path: str, field: str, data: bytes, timeout: float = 300) -> int:
        """POST a form with the session's token and one file; the answer's status."""
        boundary = "scorekeeper-test-boundary"
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
            f"{self.token()}\r\n".encode(),
            f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
            f'filename="{field}.zip"\r\nContent-Type: application/zip\r\n\r\n'.encode(),
            data,
            f"\r\n--{boundary}--\r\n".encode(),
        ]
        request = urllib.request.Request(
            self.base + path,
            data=b"".join(parts),
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        try:
            with self.opener.open(request, timeout=timeout) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the 303 itself is the answer a test checks


class Visitor:
    """A browser's part in a form post to a real server: its cookies and its CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with self.opener.open(base + "/", timeout=10) as page:
            self.token = csrf(page.read())  # the start page's

    def upload(self, path: str, field: str, data: bytes, timeout: float = 10) -> tuple[int, str]:
        """The status and text of posting ``data`` as the file in form field ``field``."""
        boundary = secrets.token_hex(16)
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
            f'filename="upload"\r\nContent-Type: application/octet-stream\r\n\r\n'
        )
        body = head.encode() + data + f"\r\n--{boundary}--\r\n".encode()
        headers = {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-CSRF-Token": self.token,
        }
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=timeout) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

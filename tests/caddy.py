"""Caddy (Debian's package) in front of a served app, with its own local certificate
authority (`tls internal`), as docs/self-hosting.md's home-network recipe sets it up.

The site is named ``scores.test`` (a name reserved for tests) on a free loopback port;
clients connect to 127.0.0.1 and present that name, trusting Caddy's root certificate.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from servers import free_port
from tools import missing

NAME = "scores.test"

CADDYFILE = """\
{{
\tadmin off
\tskip_install_trust
\tauto_https disable_redirects
\thttp_port {http_port}
\thttps_port {https_port}
\tstorage file_system {storage}
}}

{name}:{https_port} {{
\ttls internal
\treverse_proxy 127.0.0.1:{app_port}
}}
"""


def caddy_or_skip() -> str:
    """The caddy program; outside CI a missing one skips, in CI it fails."""
    found = shutil.which("caddy")
    if not found:
        missing("caddy is not installed (./scripts/test installs Debian's caddy)")
    return found


@dataclass
class Proxy:
    port: int
    authority: Path  # Caddy's local certificate authority: root.crt, intermediate.crt

    @property
    def root_certificate(self) -> Path:
        return self.authority / "root.crt"

    @property
    def base(self) -> str:
        return f"https://{NAME}:{self.port}"

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.root_certificate))

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request to the site by its name, over a connection to 127.0.0.1."""
        connection = _Pinned(NAME, self.port, context=self.context(), timeout=20)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            answer = connection.getresponse()
            return answer.status, answer.headers, answer.read()
        finally:
            connection.close()

    def spki_hashes(self) -> str:
        """The base64 SHA-256 of the public keys of Caddy's root and intermediate, as
        chromium's --ignore-certificate-errors-spki-list wants them (openssl reads them)."""
        hashes = []
        for certificate in ("root.crt", "intermediate.crt"):
            key = subprocess.run(
                ["openssl", "x509", "-in", str(self.authority / certificate), "-noout", "-pubkey"],
                check=True,
                capture_output=True,
            ).stdout
            der = subprocess.run(
                ["openssl", "pkey", "-pubin", "-outform", "der"],
                input=key,
                check=True,
                capture_output=True,
            ).stdout
            hashes.append(base64.b64encode(hashlib.sha256(der).digest()).decode())
        return ",".join(hashes)


class _Pinned(http.client.HTTPSConnection):
    """HTTPS to the site's name, connected to loopback: no resolver needed."""

    def connect(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


@contextmanager
def caddy_in_front(app_port: int, folder: Path) -> Iterator[Proxy]:
    """Caddy serving https://scores.test:PORT/ from the app on ``app_port`` until the block
    ends; waits until a page comes back over HTTPS."""
    program = caddy_or_skip()
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / "caddy.log"
    for _attempt in range(3):  # a free port may be taken by another test before Caddy binds it
        port, http_port = free_port(), free_port()
        if port == http_port:
            continue
        (folder / "Caddyfile").write_text(
            CADDYFILE.format(
                http_port=http_port,
                https_port=port,
                storage=folder / "storage",
                name=NAME,
                app_port=app_port,
            )
        )
        with log_path.open("w") as log:
            process = subprocess.Popen(
                [program, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data")},
            )
        proxy = Proxy(port, folder / "storage" / "pki" / "authorities" / "local")
        try:
            if _serves(proxy, process):
                yield proxy
                return
        finally:
            process.terminate()
            process.wait(timeout=20)
        if "address already in use" not in log_path.read_text():
            break
    pytest.fail(f"caddy did not serve: {log_path.read_text()[-2000:]}")


def _serves(proxy: Proxy, process: subprocess.Popen) -> bool:
    """Wait until Caddy answers over HTTPS (True), or has stopped or not answered in a
    minute (False)."""
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        try:
            if proxy.root_certificate.exists():
                proxy.request("GET", "/healthz")
                return True
        except (OSError, ssl.SSLError, http.client.HTTPException):
            pass
        time.sleep(0.1)
    return False

"""An ordinary install of the wheel serves the app: templates and static files ship inside it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from servers import free_port

from scorekeeper.i18n import DEFAULT, LANGUAGES

pytestmark = pytest.mark.slow  # builds the wheel and installs it with pipx

SOURCE = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    """The wheel, and what building it printed."""
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(out), str(SOURCE)],
        check=True,
        capture_output=True,
        text=True,
    )
    (wheel,) = out.glob("*.whl")
    return wheel, result.stdout + result.stderr


@pytest.fixture(scope="module")
def wheel(built) -> Path:
    return built[0]


def test_the_wheel_holds_every_language_without_setuptools_warnings(built):
    wheel, log = built
    names = set(zipfile.ZipFile(wheel).namelist())
    for language in LANGUAGES.keys() - {DEFAULT}:
        assert f"scorekeeper/translations/{language}/LC_MESSAGES/messages.mo" in names
    assert not [name for name in names if name.endswith(".po")]  # sources stay in the repository
    assert "would be ignored" not in log  # ./scripts/serve's first run stays readable


def test_the_wheel_holds_every_template_and_static_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("templates", "static"):
        for path in (SOURCE / folder).iterdir():
            assert f"scorekeeper/{folder}/{path.name}" in names
    pages = {path.name for path in (SOURCE / "docs").glob("rules*.md")}  # every language
    assert pages >= {"rules.md", "rules.de.md", "rules.es.md"}
    assert {f"scorekeeper/docs/{name}" for name in pages} <= names


def test_pipx_installs_the_wheel_and_its_command_serves_pages_and_htmx(wheel, tmp_path):
    """The README's one-line install for a laptop: pipx with the locked versions as
    constraints, then `scorekeeper serve`."""
    pipx = {name: str(tmp_path / "pipx" / name) for name in ("PIPX_HOME", "PIPX_BIN_DIR")}
    constraints = SOURCE / "requirements" / "pipx-constraints.txt"
    subprocess.run(
        [sys.executable, "-m", "pipx", "install", f"--pip-args=-c {constraints}", str(wheel)],
        check=True,
        capture_output=True,
        env={**os.environ, **pipx, "PIPX_MAN_DIR": str(tmp_path / "pipx" / "man")},
    )
    command = Path(pipx["PIPX_BIN_DIR"]) / "scorekeeper"
    port = free_port()
    data_home = tmp_path / "home" / ".local" / "share"  # where a pipx install keeps games
    server = subprocess.Popen(
        [str(command), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path,  # nowhere near the checkout
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(data_home)},
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{base}/new", timeout=2) as response:
                    page = response.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        else:
            server.kill()
            pytest.fail(f"the installed app did not answer: {server.communicate()}")
        assert "<form" in page and "player-0" in page
        with urllib.request.urlopen(f"{base}/static/htmx.min.js", timeout=2) as response:
            assert b"htmx" in response.read()
        with urllib.request.urlopen(f"{base}/rules", timeout=2) as response:
            assert b'id="card-points"' in response.read()
        german = urllib.request.Request(f"{base}/rules", headers={"Accept-Language": "de"})
        with urllib.request.urlopen(german, timeout=2) as response:
            assert '<h3 id="card-points">Kartenpunkte</h3>' in response.read().decode()
    finally:
        server.terminate()
        out, errors = server.communicate(timeout=10)  # reaps it and closes its pipes
    # The first start says where the games are (outside the venv, which pipx may replace)
    # and how to stop; no pip or setuptools warning reaches the family.
    assert f"Data folder: {data_home / 'phase10-scorekeeper'}" in out
    assert (data_home / "phase10-scorekeeper" / "scorekeeper.sqlite3").exists()
    assert "Ctrl+C stops the server." in out and "this computer only" in out
    assert not re.search(r"pip|setuptools|[Ww]arning|Traceback", errors), errors

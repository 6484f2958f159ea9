"""What a phone downloads: vendored htmx 2, small gzipped pages, a valid manifest."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fetch(client, path: str, **headers):
    """GET a static file and close it (it is streamed from disk)."""
    with client.get(path, headers=headers) as response:
        response.get_data()
        return response


def test_htmx_2_is_served_from_static_never_a_cdn(client):
    response = fetch(client, "/static/htmx.min.js")
    assert response.status_code == 200
    assert re.search(rb'version:"2\.\d+\.\d+"', response.data)
    for template in (ROOT / "templates").glob("*.html"):
        text = template.read_text()
        assert not re.search(r"unpkg\.com|jsdelivr|cdnjs|https?://", text), template.name


def test_text_is_gzipped_for_phones_that_accept_it(client):
    plain = fetch(client, "/static/htmx.min.js")
    zipped = fetch(client, "/static/htmx.min.js", **{"Accept-Encoding": "gzip, br"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 2


def test_a_game_page_is_a_few_kilobytes(client):
    from webutil import new_game

    url = new_game(client, players=("Ann", "Bob", "Cy", "Dee"))
    page = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert len(page.data) < 6_000


def test_the_manifest_lets_a_phone_add_the_app_to_its_home_screen(client):
    manifest = json.loads(fetch(client, "/static/manifest.webmanifest").data)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        assert fetch(client, icon["src"]).status_code == 200


def test_static_files_are_cached_by_the_phone(client):
    response = fetch(client, "/static/app.css")
    assert "max-age=" in response.headers["Cache-Control"]

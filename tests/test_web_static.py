"""What a phone downloads: vendored htmx 2, small gzipped pages, a valid manifest."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from webpage import read

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


def _linked(page: str, name: str) -> str:
    """The address the page's head links the static file by: with its version."""
    head = read(page).one("head")
    (address,) = [
        a
        for e in head.select("link, script")
        if (a := e.get("href") or e.get("src"))
        if a.split("?")[0] == f"/static/{name}"
    ]
    assert re.fullmatch(r"/static/[\w.-]+\?v=[0-9a-f]{12}", address), address
    return address


def test_pages_link_static_files_by_version_and_phones_keep_them_for_a_year(client):
    page = client.get("/").get_data(as_text=True)
    for name in ("app.css", "app.js", "htmx.min.js", "manifest.webmanifest", "icon.svg"):
        response = fetch(client, _linked(page, name))
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response.data == (ROOT / "static" / name).read_bytes()


def test_an_unversioned_or_stale_link_is_checked_each_time(client):
    for path in ("/static/app.css", "/static/app.css?v=000000000000"):
        response = fetch(client, path)
        assert response.headers["Cache-Control"] == "no-cache"
        again = fetch(client, path, **{"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""


def test_static_files_are_compressed_once_at_start_not_per_request(client, monkeypatch):
    def no_compressing(*args, **kwargs):
        raise AssertionError("gzip.compress called while serving a static file")

    monkeypatch.setattr(gzip, "compress", no_compressing)
    for name in ("app.css", "app.js", "htmx.min.js"):
        response = fetch(client, f"/static/{name}", **{"Accept-Encoding": "gzip"})
        assert response.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.data) == (ROOT / "static" / name).read_bytes()


def test_a_changed_file_gets_a_new_url(tmp_path):
    from scorekeeper.web.assets import load

    (tmp_path / "app.css").write_text("body { color: black; }")
    before = load(tmp_path)["app.css"].digest
    (tmp_path / "app.css").write_text("body { color: navy; }")
    assert load(tmp_path)["app.css"].digest != before


def test_a_missing_static_file_is_a_404(client):
    assert fetch(client, "/static/nothing-here.css").status_code == 404


def test_the_service_worker_is_served_from_the_root_and_asked_for_again_each_time(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    again = client.get("/sw.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304

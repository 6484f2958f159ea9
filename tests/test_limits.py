"""Rate limits: the limited views keep theirs, an operator's app-wide limit still applies."""

from __future__ import annotations

from scorekeeper import create_app, store


def _app(tmp_path, **config):
    return create_app(
        {"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x", "TESTING": True, **config}
    )


def test_limited_views_keep_their_limits_without_the_check_before_every_request(tmp_path):
    app = _app(tmp_path, RATE_LIMIT_CHECK="2 per minute")
    client = app.test_client()
    answers = [client.get("/api/check?group=R1 R2").status_code for _ in range(3)]
    assert answers == [200, 200, 429]
    assert all(client.get("/rules").status_code == 200 for _ in range(5))  # not limited
    store.close_all()


def test_an_operators_limit_for_every_page_still_applies(tmp_path):
    app = _app(tmp_path, RATELIMIT_APPLICATION="3 per minute")
    client = app.test_client()
    answers = [client.get("/rules").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    store.close_all()

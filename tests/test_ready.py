"""A server made ready: everything loaded once, then out of the garbage collector's way."""

from __future__ import annotations

import gc

from scorekeeper.serve.warm_up import ready


def test_a_ready_app_serves_every_language_with_its_start_up_objects_frozen(app):
    try:
        assert ready(app) is app
        assert gc.get_freeze_count() > 10_000  # templates, catalogues, locale data
        phone = app.test_client()
        for code, word in (
            ("en", "Start a new game"),
            ("de", "Neue Partie starten"),
            ("es", "Empezar una partida nueva"),
        ):
            page = phone.get("/", headers={"Accept-Language": code})
            assert page.status_code == 200
            assert f'lang="{code}"' in page.get_data(as_text=True)
            assert word in page.get_data(as_text=True)
    finally:
        gc.unfreeze()

"""Blueprints and the request hooks every page shares."""

from __future__ import annotations

from flask import Flask

from ..rules.ranking import final_order
from . import (
    api,
    bidi,
    check,
    compress,
    csrf,
    db,
    device,
    edit,
    errors,
    export,
    games,
    hand_rows,
    hands,
    healthz,
    history,
    https,
    idle_polls,
    keep,
    keeper_pages,
    language,
    limits,
    openapi,
    printables,
    redact,
    rules_page,
    self_entry,
    service_worker,
    session_cookie,
    share,
    shared_pages,
    static_files,
    storage,
    tables,
)

# Sent with every answer, unless a view sent its own.
SECURITY_HEADERS = (
    (
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)


def register(app: Flask) -> None:
    app.session_interface = session_cookie.SessionCookies()
    language.init_app(app)  # first: every later hook and page speaks the request's language
    tables.init_app(app)  # before CSRF, which reads the form
    csrf.init_app(app)
    bidi.init_app(app)
    errors.init_app(app)
    compress.init_app(app)
    static_files.init_app(app)
    redact.init_app(app)
    device.init_app(app)
    db.init_app(app)
    edit.init_app(app)
    hand_rows.init_app(app)
    database = app.config["DATABASE"]
    app.wsgi_app = keeper_pages.KeeperPages(app.wsgi_app, app)  # type: ignore[method-assign]
    app.wsgi_app = shared_pages.SharedPages(app.wsgi_app, database)  # type: ignore[method-assign]
    app.wsgi_app = idle_polls.IdlePolls(app.wsgi_app, database)  # type: ignore[method-assign]
    app.add_template_global(final_order)
    storage.init_app(app)
    app.register_blueprint(games.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(export.bp)
    app.register_blueprint(share.bp)
    app.register_blueprint(keep.bp)
    app.register_blueprint(check.bp)
    app.register_blueprint(printables.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(rules_page.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(self_entry.bp)
    app.register_blueprint(healthz.bp)
    app.register_blueprint(service_worker.bp)
    limits.init_app(app)  # after the blueprints: it limits their endpoints by name

    @app.after_request
    def security_headers(response):
        headers = response.headers
        present = {name.lower() for name in headers.keys()}
        for name, value in SECURITY_HEADERS:
            if name.lower() not in present:
                headers.add(name, value)
        if response.mimetype == "text/html" and "cache-control" not in present:
            headers.add("Cache-Control", "no-store")
        return response

    https.init_app(app)  # last: its ProxyFix reads each request before anything else

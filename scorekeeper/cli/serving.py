"""`serve`: run the app for every phone on this network, say where they open it, and stop
cleanly."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from ..i18n import _
from ..live import across_processes
from ..serve import workers
from .common import BadInput, Command
from .database import check_database, database_arg, default_database
from .network import checked_public_url, in_container, lan_address, phone_address, startup_message

DEFAULT_PORT = 5010


def cmd_serve(args: argparse.Namespace) -> int:
    from .. import create_app, store
    from ..serve import server
    from ..store.secret import SecretKeyError
    from ..web.security import SettingError

    if args.workers is None:
        args.workers = workers.default_count()
    elif args.workers < 1:
        raise BadInput(_("--workers must be 1 or more"))
    config: dict[str, Any] = {"DATABASE": str(Path(args.db).resolve())} if args.db else {}
    check_database(args.db or default_database())
    across_processes.clear_left()  # the wake-up sockets of servers that were killed
    try:
        app = create_app(config)
        guards = _guards(app)
    except sqlite3.Error as error:
        raise BadInput(
            _("cannot open the database %(path)s: %(error)s", path=args.db, error=error)
            if args.db
            else _("cannot open the database in instance/: %(error)s", error=error)
        ) from None
    except (SettingError, SecretKeyError) as error:
        raise BadInput(str(error)) from None
    if args.workers == 1 or not workers.available():
        # The app is sound: from here on gevent serves it. What the start-up opened is
        # closed first (its connections, its checkpoint thread), so the connections and
        # locks the pages use are made after the patch, gevent's.
        store.connection.close_all()
        server.patch()
    given = args.public_url or app.config.get("PUBLIC_URL")
    public = checked_public_url(str(given)) if given else None
    url = _announce(app, args, public)
    # printed sheets and shared links point here; gunicorn's workers build their own apps
    app.config["PUBLIC_URL"] = config["PUBLIC_URL"] = public or (url and phone_address(url))
    replicator = _replicate(app.config["DATABASE"], args.replicate) if args.replicate else None
    try:
        return _run_server(app, config, args, guards)
    finally:
        if replicator is not None:
            replicator.stop()


def _announce(app, args: argparse.Namespace, public: str | None) -> str | None:
    """Print where phones open the app, the data folder and how to stop; return the URL
    phones were told (None behind a proxy, where each request carries its own)."""
    import qrcode

    from ..printing.qr import error_correction
    from ..web.proxy import trust_setting

    url: str | None
    guessed_for_phones = False
    if public:
        url = public
        message = _(
            "Phase 10 Scorekeeper is running. Open %(url)s on any phone on this network.",
            url=url,
        )
    elif trust_setting(app):
        url = None
        message = _(
            "Phase 10 Scorekeeper is running behind a proxy: links and QR codes use the "
            "address each phone opened."
        )
    else:
        url, message = startup_message(args.host, args.port, lan_address())
        # a guess for phones, unless it serves this computer only
        guessed_for_phones = phone_address(f"http://{args.host}/") is not None
    print(message)
    if guessed_for_phones and in_container():
        print(
            _(
                "Inside a container, that address may not be one phones can reach. Set "
                "SCOREKEEPER_PUBLIC_URL (or serve --public-url) to the address phones open, "
                "e.g. http://192.168.1.50:5010."
            ),
            file=sys.stderr,
        )
    database = Path(app.config["DATABASE"])
    print(_("On this computer: http://localhost:%(port)s/", port=args.port))
    print(_("Data folder: %(folder)s", folder=app.instance_path))
    if database.parent != Path(app.instance_path):
        print(_("Games file: %(path)s", path=database))
    print(_("Ctrl+C stops the server."))
    misleading = guessed_for_phones and in_container()  # the container's own address
    if url is not None and phone_address(url) and not args.no_qr and not misleading:
        qr = qrcode.QRCode(border=1, error_correction=error_correction(url))
        qr.add_data(url)
        qr.print_ascii(tty=False, invert=True)
    sys.stdout.flush()
    return url


def _replicate(db: str, url: str):
    from ..backup.replicate import ReplicaError, Replicator

    try:
        replicator = Replicator(db, url).start()
    except (ReplicaError, OSError) as error:
        raise BadInput(str(error)) from None
    print(_("(Every change is copied to %(url)s by Litestream, about once a second.)", url=url))
    return replicator


def _guards(app):
    """What the server keeps to for connections, from the app's settings (a wrong one stops
    the start): their cap per address, how long an idle one is kept, and the trusted proxy,
    behind which the cap is each phone's (serve/server.py)."""
    from ..serve import server
    from ..web.proxy import trust_setting
    from ..web.security import count_setting

    return server.Guards(
        per_address=2 * app.config["LIVE_PER_ADDRESS"],
        idle_seconds=count_setting(app, "IDLE_SECONDS") or server.IDLE_SECONDS,
        proxy=trust_setting(app) or None,
    )


def _run_server(app, config, args: argparse.Namespace, guards) -> int:
    from ..backup import purge
    from ..serve import server
    from ..serve.warm_up import ready

    several = args.workers > 1 and workers.available()
    if args.workers > 1 and not several:
        print(_("(gunicorn is not available here: serving with one process.)"), file=sys.stderr)
    try:
        if several:
            server.check_address(args.host, args.port)  # said here, not by gunicorn's retries
            workers.serve(config, args.host, args.port, args.workers, guards)
            return 0
        purge.every(app.config["DATABASE"])  # deleted games and tables, once their week is over
        # each gunicorn worker makes its own app ready (serve/workers.py)
        server.run(ready(app), args.host, args.port, guards)
    except OSError as error:
        raise BadInput(
            _(
                "cannot listen on %(host)s:%(port)s: %(error)s",
                host=args.host,
                port=args.port,
                error=error.strerror,
            )
        ) from None
    return 0


def cmd_haproxy(args: argparse.Namespace) -> int:
    from ..serve.haproxy import haproxy_config
    from ..store.shards import valid_name

    shards: dict[str, str] = {}
    for given in args.shard:
        name, _sign, address = given.partition("=")
        if not valid_name(name) or not address or name in shards:
            raise BadInput(
                _(
                    "--shard takes NAME=HOST:PORT, NAME one letter or digit of the short codes' "
                    "alphabet (2-9, A-Z without I, L, O and U), each once: not %(value)s",
                    value=repr(given),
                )
            )
        shards[name] = address
    print(haproxy_config(shards, args.listen, check_every=args.check_every), end="")
    return 0


def add_commands(command: Command) -> None:
    """`serve` and `haproxy`, with their arguments."""
    p = command(
        "haproxy",
        _("Print HAProxy's configuration for shards of this app (docs/scaling.md)."),
        cmd_haproxy,
    )
    p.add_argument(
        "--shard",
        action="append",
        required=True,
        metavar="NAME=HOST:PORT",
        help=_("a shard: its SCOREKEEPER_SHARD and its address (give one per shard)"),
    )
    p.add_argument("--listen", default=":80", help=_("where HAProxy listens (default :80)"))
    p.add_argument("--check-every", default="2s", help=argparse.SUPPRESS)
    p = command("serve", _("Run the app for every phone on this network."), cmd_serve)
    p.add_argument("--host", default="0.0.0.0", help=_("address to listen on (default: all)"))
    p.add_argument(
        "--port",
        type=int,
        default=os.environ.get("SCOREKEEPER_PORT") or DEFAULT_PORT,
        help=_("port (default: SCOREKEEPER_PORT, else %(port)s)", port=DEFAULT_PORT),
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        help=_(
            "the address phones open, for QR codes, links and printed sheets, e.g. "
            "https://scores.example.org (default: SCOREKEEPER_PUBLIC_URL, else a guess)"
        ),
    )
    database_arg(p)
    # Older releases held a thread per live page; every request is a greenlet now (serve/server.py).
    # Still accepted, so an existing service unit or compose file keeps starting.
    p.add_argument("--threads", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help=_(
            "processes (default: one per core, up to %(most)s, on Linux; 1 elsewhere). More "
            "than 1 runs gunicorn",
            most=workers.MOST,
        ),
    )
    p.add_argument("--no-qr", action="store_true", help=_("do not print the QR code"))
    p.add_argument(
        "--replicate",
        metavar="URL",
        default=os.environ.get("SCOREKEEPER_REPLICATE") or None,
        help=_(
            "copy every change with Litestream to a folder or an s3:// URL (extra: replicate; "
            "default: SCOREKEEPER_REPLICATE)"
        ),
    )

"""`scorekeeper`: the rules engine on the command line, and the app's server.

Exit status: 0 = yes / valid, 1 = no / invalid, 2 = bad input (message on stderr).
It speaks the language of ``--lang``, else the shell's (LANGUAGE, LC_ALL, LANG);
``--json`` output is the same in every language.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import signal
import socket
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from babel.numbers import format_decimal

from . import health, i18n
from .i18n import N_, _, ngettext
from .jsontext import JsonError, parse_json
from .rules.cards import CardError, parse_card, parse_cards
from .rules.phases import GroupKind, Rules, RulesError, make_rules, parse_option_args

DEFAULT_PORT = 5010
EXAMPLES = {
    "serve": "scorekeeper serve --port 5010 --db games.sqlite3",
    "check": 'scorekeeper check --phase 2 "R7 B7 W" "G3 G4 Y5 W"',
    "solve": 'scorekeeper solve --phase 4 "R1 B2 G3 W Y5 R6 B7 S S G12 G11"',
    "hit": 'scorekeeper hit --kind run "R3 R4 W R6" B7',
    "score": 'scorekeeper score "R7 B11 W S"',
    "standings": "scorekeeper standings game.json",
    "rate": 'scorekeeper rate "2 sets of 3; set of 3 + run of 4; run of 7" --turns 5',
    "printables": "scorekeeper printables --out printables/",
    "print": "scorekeeper print game.json --out sheet.pdf --link http://192.168.1.20:5010/v/CODE",
    "backup": "scorekeeper backup games-2026-11-23.sqlite3 --db games.sqlite3",
    "restore": "scorekeeper restore s3://my-bucket/games --db restored.sqlite3",
    "check-db": "scorekeeper check-db --db games.sqlite3",
}


class BadInput(Exception):
    """Input the command cannot use: exit 2 with this message."""


def _number(value: int) -> str:
    """A number in running text, as the language writes it."""
    return format_decimal(value, locale=i18n.language())


def _rules(args: argparse.Namespace) -> Rules:
    return make_rules(args.rules, parse_option_args(args.option or []))


def _cards(text: str, rules: Rules):
    cards = parse_cards(text, rules.suit_colours)
    if not cards:
        raise BadInput(_("no cards given"))
    return cards


def _print_verdict(result: dict[str, Any], args: argparse.Namespace, text: str) -> None:
    print(json.dumps(result) if args.json else text)


def cmd_check(args: argparse.Namespace) -> int:
    from .rules.check import check_phase

    rules = _rules(args)
    groups = [_cards(group, rules) for group in args.groups]
    verdict = check_phase(rules, args.phase, groups)
    phase = rules.phase(args.phase)
    lines = [
        _("Phase %(number)s (%(phase)s): valid", number=args.phase, phase=phase)
        if verdict.valid
        else _("Phase %(number)s (%(phase)s): not valid", number=args.phase, phase=phase)
    ]
    lines += [f"- {reason.cited()}" for reason in verdict.problems]
    _print_verdict({**verdict.to_json(), "phase": args.phase}, args, "\n".join(lines))
    return 0 if verdict.valid else 1


def cmd_solve(args: argparse.Namespace) -> int:
    from .rules.solve import solve

    rules = _rules(args)
    solution = solve(rules, args.phase, _cards(args.hand, rules))
    if solution.can_make:
        groups = " | ".join(
            " ".join(card.code for card in group) for group in solution.groups or ()
        )
        text = _("Phase %(number)s can be made: %(groups)s", number=args.phase, groups=groups)
    else:
        text = ngettext(
            "Phase %(number)s cannot be made yet: %(num)s card missing",
            "Phase %(number)s cannot be made yet: %(num)s cards missing",
            solution.missing,
            number=args.phase,
        ) + "".join(f"\n- {need}" for need in solution.missing_cards)
    _print_verdict({**solution.to_json(), "phase": args.phase}, args, text)
    return 0 if solution.can_make else 1


def cmd_hit(args: argparse.Namespace) -> int:
    from .rules.hit import check_hit

    rules = _rules(args)
    kind = GroupKind("colour" if args.kind == "color" else args.kind)
    card = parse_card(args.card, rules.suit_colours)
    verdict = check_hit(rules, kind, _cards(args.group, rules), card)
    text = (
        _("%(card)s fits: %(where)s", card=card.code, where=verdict.where)
        if verdict.valid
        else _("%(card)s does not fit", card=card.code)
    )
    text += "".join(f"\n- {reason.cited()}" for reason in verdict.problems)
    _print_verdict(verdict.to_json(), args, text)
    return 0 if verdict.valid else 1


def cmd_score(args: argparse.Namespace) -> int:
    from .rules.cards import impossible
    from .rules.scoring import hand_points

    rules = _rules(args)
    cards = parse_cards(args.cards, rules.suit_colours)
    problems = impossible(cards, rules.super_wild)
    if problems:
        raise BadInput("; ".join(problems))
    points = hand_points(rules, cards)
    words = ngettext("%(points)s point", "%(points)s points", points, points=_number(points))
    _print_verdict({"points": points, "cards": len(cards)}, args, words)
    return 0


def _read_game(path: str):
    """The game in a game file (``-`` for stdin), replayable; BadInput if not."""
    from .rules.game import GameError
    from .rules.gamefile import load_game
    from .rules.replay import replay

    try:
        text = Path(path).read_text(encoding="utf-8") if path != "-" else sys.stdin.read()
        data = parse_json(text)
    except OSError as error:
        raise BadInput(
            _("cannot read %(path)s: %(error)s", path=path, error=error.strerror)
        ) from None
    except (JsonError, UnicodeDecodeError) as error:
        raise BadInput(_("%(path)s cannot be read: %(error)s", path=path, error=error)) from None
    try:
        game = load_game(data)
        return game, replay(game)
    except GameError as error:
        raise BadInput(f"{error} [{error.rule}]" if error.rule else str(error)) from None


def cmd_rate(args: argparse.Namespace) -> int:
    """Rate a phase list (the given one, a drawn one, or the rules' own); 1 if a phase
    needs more cards than a hand holds."""
    import random
    import secrets

    from .rules import rating
    from .rules.draw import draw_phases
    from .rules.phases import parse_phase_list

    rules = _rules(args)
    if args.phases and args.draw:
        raise BadInput(_("give a phase list or --draw, not both"))
    if not 0 <= args.turns <= rating.MAX_TURNS:
        raise BadInput(_("--turns must be from 0 to %(most)s", most=rating.MAX_TURNS))
    if not 1 <= args.trials <= rating.MAX_TRIALS:
        raise BadInput(_("--trials must be from 1 to %(most)s", most=rating.MAX_TRIALS))
    seed = args.seed
    if args.draw:
        drawn = secrets.randbelow(10**6) if seed is None else seed
        phases = draw_phases(random.Random(drawn))
    elif args.phases:
        phases = parse_phase_list(args.phases)
    else:
        phases = tuple(rules.phase(n) for n in rules.sequence)
    found = rating.rate(
        phases,
        rules,
        turns=args.turns,
        trials=args.trials,
        seed=rating.DEFAULT_SEED if seed is None else seed,
        ordered=not args.as_given,
    )
    answer = found.to_json()
    if args.draw:
        answer["drawn"] = drawn
    if args.json:
        print(json.dumps(answer))
        return 1 if found.too_big else 0

    percent = i18n.percent
    print(
        ngettext(
            "The chance that 10 dealt cards and %(num)s drawn hold each phase "
            "(%(trials)s deals, 95%% interval):",
            "The chance that 10 dealt cards and %(num)s drawn hold each phase "
            "(%(trials)s deals, 95%% interval):",
            found.turns,
            trials=_number(found.trials),
        )
    )
    for rated in found.phases:
        low, high = rated.interval
        figures = (
            _("never: more cards than a hand holds")
            if rated.too_big
            else f"{percent(rated.chance):>5} ({percent(low)}–{percent(high)})"
        )
        print(f"{rated.number:>3}. {str(rated.phase):<36} {figures}")
    low, high = found.interval
    print(
        _(
            "The list: %(average)s on average (%(low)s–%(high)s).",
            average=percent(found.average),
            low=percent(low),
            high=percent(high),
        )
    )
    if args.draw:
        print(_("Drawn with --seed %(seed)s.", seed=drawn))
    return 1 if found.too_big else 0


def cmd_standings(args: argparse.Namespace) -> int:
    standings = _read_game(args.game)[1]
    result = standings.to_json()
    if args.json:
        print(json.dumps(result))
        return 0
    for p in standings.players:
        state = _("done") if p.finished else _("phase %(number)s", number=p.phase)
        points = ngettext("%(points)5s point", "%(points)5s points", p.score, points=p.score)
        print(f"{p.name:<20} {state:<9} {points}")
    if standings.ended_early:
        print(_("Ended early after hand %(number)s.", number=standings.hands_played))
    if standings.over and standings.winner:
        print(_("Winner: %(player)s", player=standings.winner))
    elif standings.tiebreak:
        print(_("Tiebreak between: %(players)s", players=i18n.join(standings.tiebreak)))
    else:
        print(
            _(
                "Next hand: %(number)s, dealt by %(dealer)s",
                number=standings.hand_number,
                dealer=standings.dealer,
            )
        )
    return 0


def cmd_print(args: argparse.Namespace) -> int:
    from .codes import normalise
    from .printing import LayoutError, fonts, game_sheet

    game = _read_game(args.game)[0]
    if args.link and urlsplit(args.link).scheme not in ("http", "https"):
        raise BadInput(
            _("--link must be a web address (http:// or https://), not %(link)r", link=args.link)
        )
    code = normalise(args.code) if args.code else None
    if args.code and (code is None or not args.link):
        raise BadInput(
            _(
                "--code must be a game's 16-letter code, given with its --link, not %(code)r",
                code=args.code,
            )
        )
    played = _played(args)
    try:
        with i18n.using(args.language):  # the sheet in --lang, even when answering in JSON
            data = game_sheet(
                game,
                title=args.title,
                view_url=args.link,
                code=code,
                pagesize=args.size,
                large=args.large,
                played=played,
            )
    except (LayoutError, ValueError) as error:
        raise BadInput(str(error)) from None
    try:
        Path(args.out).write_bytes(data)
    except OSError as error:
        raise BadInput(
            _("cannot write %(path)s: %(error)s", path=args.out, error=error.strerror)
        ) from None
    missing = fonts.missing_packages([*game.players, args.title or ""])
    for package, letters in missing.items():
        print(
            _(
                "Note: %(letters)s printed as code points (U+...): install Debian's %(package)s "
                "to print them (sudo apt-get install %(package)s).",
                letters=" ".join(letters),
                package=package,
            ),
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps({"file": args.out, "bytes": len(data)}))
    else:
        print(args.out)
    return 0


def _played(args: argparse.Namespace) -> Any:
    """When, how long and where the game was played, from --started, --minutes, --table and
    --time-zone (None without --started)."""
    from .playtime import moment
    from .printing.record import Played, time_zone

    try:
        zone = time_zone(args.time_zone)
    except ValueError as error:
        raise BadInput(str(error)) from None
    if not args.started:
        if args.minutes is not None or args.table:
            raise BadInput(_("--minutes and --table need --started"))
        return None
    try:
        started = moment(args.started).astimezone(zone)
    except ValueError:
        raise BadInput(
            _(
                "--started must be a date and time, e.g. 2026-11-27T19:05, not %(value)r",
                value=args.started,
            )
        ) from None
    if args.minutes is not None and args.minutes < 0:
        raise BadInput(_("--minutes cannot be negative"))
    return Played(started, args.minutes or 0, args.table)


def cmd_printables(args: argparse.Namespace) -> int:
    from .printing import write_standard_set

    if args.app_url and urlsplit(args.app_url).scheme not in ("http", "https"):
        raise BadInput(
            _(
                "--app-url must be a web address (http:// or https://), not %(url)r",
                url=args.app_url,
            )
        )
    paths = write_standard_set(Path(args.out), args.language, app_url=args.app_url)
    if args.json:
        print(json.dumps({"files": [str(p) for p in paths]}))
    else:
        print("\n".join(str(p) for p in paths))
    return 0


# Where `lan_address` pretends to send: a documentation address (RFC 5737), then a private one.
# Connecting a UDP socket only picks the route and the interface's address; nothing is sent.
PROBE_ADDRESSES = ("192.0.2.1", "10.255.255.255")


def _reachable(address: str) -> bool:
    """An IPv4 address other phones could use: not loopback, not unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified)


def outward_address() -> str | None:
    """The address of the interface this machine would use to reach the network."""
    for target in PROBE_ADDRESSES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                address = str(probe.getsockname()[0])
        except OSError:  # no route that way
            continue
        if _reachable(address):
            return address
    return None


def hostname_address() -> str | None:
    """The first address this machine's name resolves to, unless it is a loopback one
    (Debian and Ubuntu map the name to 127.0.1.1)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = str(info[4][0])  # an AF_INET sockaddr: (host, port)
        if _reachable(address):
            return address
    return None


def lan_address() -> str | None:
    """This machine's address on the local network, if it has one; never a loopback one."""
    return outward_address() or hostname_address()


def startup_message(host: str, port: int, lan: str | None) -> tuple[str, str]:
    """The URL for the QR code, and the first line `serve` prints."""
    everywhere = host in ("0.0.0.0", "", "::")
    anywhere = N_("Phase 10 Scorekeeper is running. Open %(url)s on any phone on this network.")
    if everywhere and lan:
        url = f"http://{lan}:{port}/"
        return url, _(anywhere, url=url)
    if everywhere:
        url = f"http://localhost:{port}/"
        return url, _(
            "Phase 10 Scorekeeper is running at %(url)s. Phones on this network can open it "
            "at http://<this computer's address>:%(port)s/ (its address could not be found).",
            url=url,
            port=port,
        )
    url = f"http://{host}:{port}/"
    if host == "localhost" or host.startswith("127."):
        return url, _(
            "Phase 10 Scorekeeper is running at %(url)s (this computer only: start it "
            "without --host for phones to reach it).",
            url=url,
        )
    return url, _(anywhere, url=url)


# How `serve` runs waitress (bench/bench_load.py serves its bare route the same way).
WAITRESS = {
    "ident": "scorekeeper",
    "connection_limit": 1000,  # a club night: many phones
    "channel_request_lookahead": 1,  # a waiting live poll learns when its page has gone
}


def phone_address(url: str) -> str | None:
    """The announced URL when phones can reach it (not this computer's own loopback)."""
    host = urlsplit(url).hostname or ""
    return None if host == "localhost" or host.startswith("127.") else url


def default_database() -> Path:
    """The games file the app opens when no --db is given."""
    from . import instance_folder

    return instance_folder() / "scorekeeper.sqlite3"


def check_database(path: str | Path) -> None:
    """Refuse to serve a games file that is damaged, empty or cannot be written; name the
    games that cannot be read (they get their own page; the others are served)."""
    found = health.examine(path)
    refused = [finding_text(path, f) for f in found if f.kind != health.UNREADABLE]
    if [f.kind for f in found] == [health.READ_ONLY]:
        refused.append(_("Nothing is wrong with the file itself: SQLite's check found it whole."))
    if refused:
        raise BadInput("\n".join(refused))
    for finding in found:
        print(f"scorekeeper serve: {finding_text(path, finding)}", file=sys.stderr)


def finding_text(path: str | Path, finding: health.Finding) -> str:
    """One finding about the games file, in words for whoever runs the app."""
    if finding.kind == health.EMPTY:
        return _(
            "the games file %(path)s is empty (0 bytes): it holds no games. Nothing was "
            "changed. If it should hold games, restore it from a backup or a replica "
            "(scorekeeper restore); to start afresh, delete it and a new one is made.",
            path=path,
        )
    if finding.kind == health.READ_ONLY:
        return _(
            "the games file %(path)s is on storage this program cannot write to (read-only, "
            "or its folder is not writable): the app needs to write it. Serve it from storage "
            "that can be written, or copy it there.",
            path=path,
        )
    if finding.kind == health.UNREADABLE:
        return _(
            "game %(game)s in %(path)s cannot be read (%(reason)s). Restore it from a backup "
            "of the games file or a replica (scorekeeper restore), or import its game file "
            "again; the other games are not affected.",
            game=finding.game,
            path=path,
            reason=finding.detail,
        )
    return _(
        "the games file %(path)s is damaged (%(damage)s). Nothing was changed. Restore "
        "it from a backup or a replica (scorekeeper restore), or move it aside to start "
        "afresh.",
        path=path,
        damage=finding.detail,
    )


def cmd_check_db(args: argparse.Namespace) -> int:
    path = Path(args.db or default_database())
    if not path.exists():
        raise BadInput(_("there is no games file at %(path)s", path=path))
    found = health.examine(path, full=True, load=True)
    problems = [f for f in found if f.kind != health.READ_ONLY]
    if args.json:
        facts = [{"kind": f.kind, "game": f.game, "detail": f.detail} for f in found]
        print(json.dumps({"path": str(path), "whole": not problems, "findings": facts}))
        return 1 if problems else 0
    for finding in found:
        print(finding_text(path, finding), file=sys.stderr if finding in problems else sys.stdout)
    if not problems:
        print(_("The games file %(path)s is whole: every page and every game reads.", path=path))
    return 1 if problems else 0


def cmd_backup(args: argparse.Namespace) -> int:
    from .replicate import ReplicaError, backup

    try:
        backup(args.db or default_database(), args.copy)
    except (ReplicaError, sqlite3.Error, OSError) as error:
        raise BadInput(str(error)) from None
    print(_("Copied every game to %(path)s.", path=args.copy))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from .replicate import ReplicaError, restore

    try:
        restore(args.url, args.db)
    except (ReplicaError, OSError) as error:
        raise BadInput(str(error)) from None
    found = health.damage(args.db)
    if found:
        raise BadInput(
            _("the restored file %(path)s is damaged (%(damage)s)", path=args.db, damage=found)
        )
    print(_("Restored the games from %(url)s into %(path)s.", url=args.url, path=args.db))
    return 0


def in_container() -> bool:
    """Docker leaves /.dockerenv, Podman /run/.containerenv; our image (and systemd's
    convention for container managers) sets ``container``."""
    markers = (Path("/.dockerenv"), Path("/run/.containerenv"))
    return bool(os.environ.get("container")) or any(marker.exists() for marker in markers)


def checked_public_url(value: str) -> str:
    """The address an operator gave for phones, or BadInput saying what it should look like."""
    parts = urlsplit(value.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise BadInput(
            _(
                "the public address must be like http://192.168.1.50:5010 or "
                "https://scores.example.org (no path), not %(value)s",
                value=repr(value),
            )
        )
    return f"{parts.scheme}://{parts.netloc}/"


def cmd_serve(args: argparse.Namespace) -> int:
    from . import create_app
    from .web.security import SettingError

    if args.workers < 1:
        raise BadInput(_("--workers must be 1 or more"))
    config: dict[str, Any] = {"DATABASE": str(Path(args.db).resolve())} if args.db else {}
    check_database(args.db or default_database())
    try:
        app = create_app(config)
    except sqlite3.Error as error:
        raise BadInput(
            _("cannot open the database %(path)s: %(error)s", path=args.db, error=error)
            if args.db
            else _("cannot open the database in instance/: %(error)s", error=error)
        ) from None
    except SettingError as error:
        raise BadInput(str(error)) from None
    given = args.public_url or app.config.get("PUBLIC_URL")
    public = checked_public_url(str(given)) if given else None
    url = _announce(app, args, public)
    # printed sheets and shared links point here; gunicorn's workers build their own apps
    app.config["PUBLIC_URL"] = config["PUBLIC_URL"] = public or (url and phone_address(url))
    replicator = _replicate(app.config["DATABASE"], args.replicate) if args.replicate else None
    try:
        return _run_server(app, config, args)
    finally:
        if replicator is not None:
            replicator.stop()


def _announce(app, args: argparse.Namespace, public: str | None) -> str | None:
    """Print where phones open the app, the data folder and how to stop; return the URL
    phones were told (None behind a proxy, where each request carries its own)."""
    import qrcode

    from .printing.qr import error_correction
    from .web.security import count_setting

    url: str | None
    guessed_for_phones = False
    if public:
        url = public
        message = _(
            "Phase 10 Scorekeeper is running. Open %(url)s on any phone on this network.",
            url=url,
        )
    elif count_setting(app, "TRUST_PROXY"):
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
    from .replicate import ReplicaError, Replicator

    try:
        replicator = Replicator(db, url).start()
    except (ReplicaError, OSError) as error:
        raise BadInput(str(error)) from None
    print(_("(Every change is copied to %(url)s by Litestream, about once a second.)", url=url))
    return replicator


def _stop_on_sigterm() -> None:
    """SIGTERM (docker stop, systemd, kill) stops the server as Ctrl+C does: waitress lets
    the requests in progress finish, and a replica gets its last sync. Without a handler,
    a container's first process would not stop at all."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))


def _run_server(app, config, args: argparse.Namespace) -> int:
    from waitress import serve

    from . import workers
    from .ready import ready
    from .web.security import count_setting

    if args.workers > 1 and workers.available():
        workers.serve(config, args.host, args.port, args.workers, args.threads)
        return 0
    if args.workers > 1:
        print(_("(gunicorn is not available here: serving with one process.)"), file=sys.stderr)
    _stop_on_sigterm()
    # waitress drops X-Forwarded-* itself; behind a trusted proxy, ProxyFix reads them
    proxied = {"clear_untrusted_proxy_headers": False} if count_setting(app, "TRUST_PROXY") else {}
    try:
        serve(
            ready(app),  # each gunicorn worker makes its own app ready (workers.py)
            host=args.host,
            port=args.port,
            threads=args.threads,
            **WAITRESS,
            **proxied,
        )
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


def _rule_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="official",
        help=_(
            "rule profile: official, plus10, even, ten-hands, masters, "
            "mixed-up, super-wild (default: official)"
        ),
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help=_("a house rule, e.g. wild_points=20 or natural=phase (repeatable)"),
    )
    _json_arg(parser)


def _json_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help=_("print one JSON object (the same in every language)")
    )


def _lang_arg(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--lang",
        choices=list(i18n.LANGUAGES),
        default=default,
        help=_("language of the answers and printed sheets (default: the shell's, else en)"),
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorekeeper",
        description=_(
            "Phase 10 Scorekeeper: check phases and hits, score hands, replay games, "
            "print sheets, and serve the app. Exit 0 = yes/valid, 1 = no/invalid, "
            "2 = bad input."
        ),
    )
    _lang_arg(parser, None)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(
        name: str, help_text: str, handler: Callable[[argparse.Namespace], int], rules: bool = True
    ) -> argparse.ArgumentParser:
        example = _("Example:")
        p = sub.add_parser(
            name,
            help=help_text,
            description=f"{help_text}\n\n{example}\n  {EXAMPLES[name]}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(handler=handler)
        _lang_arg(p, argparse.SUPPRESS)  # after the command too: `scorekeeper print --lang de`
        if rules:
            _rule_args(p)
        return p

    p = command("check", _("Is this a valid phase? Give each group as one argument."), cmd_check)
    p.add_argument("--phase", type=int, required=True, help=_("the phase number"))
    p.add_argument(
        "groups",
        nargs="+",
        metavar="GROUP",
        help=_('the cards of one group, e.g. "R7 B7 W" (a run\'s cards in any order)'),
    )

    p = command("solve", _("Can this hand make the phase, and how?"), cmd_solve)
    p.add_argument("--phase", type=int, required=True, help=_("the phase number"))
    p.add_argument("hand", help=_('the cards in hand, e.g. "R1 B2 W S G5"'))

    p = command("hit", _("Does this card fit that laid-down group, and where?"), cmd_hit)
    p.add_argument(
        "--kind",
        required=True,
        choices=["set", "run", "colour", "color"],
        help=_("the kind of group"),
    )
    p.add_argument("group", help=_("the group's cards (a run in order, each Wild where it stands)"))
    p.add_argument("card", help=_("the card to hit with"))

    p = command("score", _("How many points are these cards left in hand?"), cmd_score)
    p.add_argument("cards", help=_('the cards, e.g. "R7 B11 W S"'))

    p = command(
        "rate",
        _(
            "How hard is this phase list? The chance that a dealt hand holds each phase "
            "within N turns, by dealing many hands (easiest first)."
        ),
        cmd_rate,
    )
    p.add_argument(
        "phases",
        nargs="?",
        metavar="PHASES",
        help=_(
            "the phases, separated by ';', e.g. \"2 sets of 3; run of 7\" "
            "(default: the rules' own list)"
        ),
    )
    p.add_argument("--draw", action="store_true", help=_("draw a random list of ten phases"))
    p.add_argument(
        "--turns",
        type=int,
        default=5,
        help=_("cards drawn after the 10 dealt, one a turn (default 5)"),
    )
    p.add_argument(
        "--trials", type=int, default=1000, help=_("hands dealt for the estimate (default 1000)")
    )
    p.add_argument(
        "--seed",
        type=int,
        help=_("repeat a rating or a drawn list exactly (default: the same figures every time)"),
    )
    p.add_argument(
        "--as-given", action="store_true", help=_("keep the list's order (default: easiest first)")
    )

    game_help = _("GAME.json in the interchange format (- for stdin)")
    p = command(
        "standings", _("Replay a game file (JSON) into the standings."), cmd_standings, rules=False
    )
    p.add_argument("game", help=game_help)
    _json_arg(p)

    p = command(
        "print",
        _("Print a game file's score sheet: every hand, the result, rows for hands to come."),
        cmd_print,
        rules=False,
    )
    p.add_argument("game", help=game_help)
    p.add_argument("--out", default="sheet.pdf", help=_("PDF to write (default sheet.pdf)"))
    p.add_argument("--size", choices=("letter", "a4"), default="letter", help=_("paper size"))
    p.add_argument("--large", action="store_true", help=_("large print (2 to 4 players)"))
    p.add_argument("--title", default="", help=_("the heading (default: the players' names)"))
    p.add_argument("--link", help=_("the game's watch link, printed with a QR code"))
    p.add_argument(
        "--started",
        help=_("when the game started (2026-11-27T19:05, UTC unless it says its offset)"),
    )
    p.add_argument("--minutes", type=int, help=_("how long the game took, in minutes"))
    p.add_argument("--table", help=_("the table (family or club) the game was played at"))
    p.add_argument(
        "--time-zone",
        help=_(
            "the time zone the record gives times in (default: SCOREKEEPER_TIME_ZONE, "
            "else this machine's)"
        ),
    )
    p.add_argument(
        "--code", help=_("the game's short code, printed with the app's address to read aloud")
    )
    _json_arg(p)

    p = command("printables", _("Write the standard set of PDFs."), cmd_printables, rules=False)
    p.add_argument(
        "--out", default="printables", help=_("folder to write to (default printables/)")
    )
    p.add_argument(
        "--app-url",
        help=_(
            "the app's address, for a QR code and link on the two-deck guide "
            "(default: none; the guide says where to print a copy with one)"
        ),
    )
    _json_arg(p)

    database_help = _("SQLite file (default: instance/scorekeeper.sqlite3)")
    p = command("serve", _("Run the app for every phone on this network."), cmd_serve, rules=False)
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
    p.add_argument("--db", help=database_help)
    # each page's live poll waits in a thread: a table of phones, a tablet and players' phones
    p.add_argument("--threads", type=int, default=32, help=_("worker threads (default 32)"))
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help=_("processes (default 1; more than 1 runs gunicorn on Linux)"),
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

    p = command("backup", _("Copy every game to a new file while the app runs."), cmd_backup, False)
    p.add_argument("copy", metavar="FILE", help=_("the new file to write"))
    p.add_argument("--db", help=database_help)

    p = command(
        "restore", _("Rebuild the games file from a Litestream replica."), cmd_restore, False
    )
    p.add_argument("url", metavar="URL", help=_("the replica: a folder or an s3:// URL"))
    p.add_argument("--db", required=True, help=_("the new SQLite file to write"))

    p = command(
        "check-db",
        _(
            "Check the whole games file: SQLite's full integrity check, and every game read "
            "as the app reads it. Exit 0 when whole, 1 when not."
        ),
        cmd_check_db,
        rules=False,
    )
    p.add_argument("--db", help=database_help)
    _json_arg(p)
    return parser


def chosen_language(argv: Sequence[str] | None) -> str:
    """``--lang`` wherever it is on the line, else the shell's language."""
    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("--lang", choices=list(i18n.LANGUAGES))
    try:
        known, _rest = early.parse_known_args(argv)
    except argparse.ArgumentError:  # a wrong --lang: the full parser says so
        return i18n.from_environment()
    return known.lang or i18n.from_environment()


def main(argv: Sequence[str] | None = None) -> int:
    language = chosen_language(argv)
    with i18n.using(language):
        parser = build_parser()
        args = parser.parse_args(argv)
    args.language = language  # what is printed speaks it, whatever the answer's language
    # JSON answers are read by programs: the same keys and words in every language.
    with i18n.using(i18n.DEFAULT if getattr(args, "json", False) else language):
        try:
            return args.handler(args)
        except (BadInput, CardError, RulesError) as error:
            print(f"scorekeeper {args.command}: {error}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())

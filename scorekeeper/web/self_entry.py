"""Players enter their own points: a link per player, or one where each picks their name.

Each player's link carries a key derived from the app's secret, the game and
the seat, so it can send only that player's line and shows nothing of the
scorekeeper link. What is sent waits beside the game until the scorekeeper
saves the hand (their form fills in with it, live with JavaScript, on reload
without).
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import actions, self_entry, store
from ..i18n import _
from ..rules.game import Standings, load_game, replay
from .csrf import reading
from .games import db, game_or_404
from .links import public_url
from .qr import qr_svg

bp = Blueprint("self_entry", __name__)
NOT_FOUND = actions.NO_GAME  # say it with _(NOT_FOUND)
MAX_POINTS = 1000


def _key(game_id: str, what: str) -> str:
    secret = current_app.config["SECRET_KEY"].encode()
    digest = hmac.new(secret, f"self-entry:{game_id}:{what}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def player_key(game_id: str, seat: int) -> str:
    return _key(game_id, f"seat-{seat}")


def pick_key(game_id: str) -> str:
    return _key(game_id, "pick")


def _edit_game(game_id: str, key: str) -> store.StoredGame:
    stored = game_or_404(game_id).stored
    if not store.edit_key_matches(stored, key):
        abort(404, _(NOT_FOUND))
    return stored


def _seat_of(stored: store.StoredGame, token: str) -> int | None:
    """The seat a player link is for; None for the pick-your-name link; 404 otherwise."""
    if hmac.compare_digest(token.encode(), pick_key(stored.id).encode()):
        return None
    for seat in range(len(stored.state.get("players", []))):
        if hmac.compare_digest(token.encode(), player_key(stored.id, seat).encode()):
            return seat
    abort(404, _(NOT_FOUND))


@bp.get("/g/<game_id>/<key>/players")
def player_links(game_id: str, key: str):
    """For the scorekeeper: a QR code per player, and one where each picks their name."""
    stored = _edit_game(game_id, key)
    game = load_game(stored.state)
    pick = public_url("self_entry.player_page", game_id=stored.id, token=pick_key(stored.id))
    players = []
    for seat, name in enumerate(game.players):
        link = public_url(
            "self_entry.player_page", game_id=stored.id, token=player_key(stored.id, seat)
        )
        players.append((name, link, qr_svg(link)))
    return render_template(
        "player_links.html",
        stored=stored,
        game=game,
        pick=pick,
        pick_qr=qr_svg(pick),
        players=players,
    )


@bp.route("/p/<game_id>/<token>", methods=["GET", "POST"])
def player_page(game_id: str, token: str):
    current = game_or_404(game_id)
    stored, game, standings = current.stored, current.game, current.standings
    seat = _seat_of(stored, token)
    if seat is None:
        links = [
            (name, url_for("self_entry.player_page", game_id=game_id, token=player_key(game_id, i)))
            for i, name in enumerate(game.players)
        ]
        return render_template("player_pick.html", game=game, links=links)
    name = game.players[seat]
    sent = self_entry.entries(db(), stored.id, standings.hand_number).get(seat)
    context = {"game": game, "standings": standings, "seat": seat, "name": name, "sent": sent}
    if reading():
        return render_template("player_entry.html", error=None, values={}, **context)
    values = {k: request.form.get(k, "") for k in ("points", "made", "went_out", "hand_number")}
    problem = _problem(values, standings)
    if problem:
        status, error = problem
        return render_template("player_entry.html", error=error, values=values, **context), status
    went_out = bool(values["went_out"])
    entry = self_entry.Entry(
        seat,
        0 if went_out else int(values["points"]),
        went_out or bool(values["made"]),
        went_out,
        store.now(),
    )
    self_entry.submit(db(), stored.id, standings.hand_number, entry)
    flash(_("Sent to the scorekeeper. Nothing is saved until they save the hand."))
    return redirect(url_for("self_entry.player_page", game_id=game_id, token=token), 303)


def _problem(values: dict[str, str], standings: Standings) -> tuple[int, str] | None:
    """(status, message) when a player's submission cannot be taken; None when it can."""
    if standings.over:
        return 409, _("The game is over: there is nothing more to send.")
    if standings.tiebreak:
        return 409, _("This is a tiebreak: the scorekeeper records who went out first.")
    if values["hand_number"] != str(standings.hand_number):
        return 409, _(
            "That hand was already saved by the scorekeeper. "
            "This is hand %(number)s: send your points for it.",
            number=standings.hand_number,
        )
    if values["went_out"]:
        return None
    text = values["points"].strip()
    if not text:
        return 422, _("Type your points, or tick that you went out.")
    if not text.isdigit() or int(text) > MAX_POINTS:
        return 422, _("Points: enter a whole number from 0 to %(most)s", most=MAX_POINTS)
    if int(text) % 5:
        return 422, _(
            "Points: %(points)s is not a multiple of 5. Every card is worth 5, 10, 15 or 25.",
            points=text,
        )
    return None


@bp.get("/g/<game_id>/<key>/entries.json")
def entries_json(game_id: str, key: str):
    """What the players' phones sent for the current hand, for the scorekeeper's form."""
    stored = _edit_game(game_id, key)
    game = load_game(stored.state)
    hand_number = replay(game).hand_number
    found = self_entry.entries(db(), stored.id, hand_number)
    response = jsonify(
        {
            "hand": hand_number,
            "entries": {
                str(seat): {
                    "name": game.players[seat],
                    "points": e.points,
                    "made": e.made,
                    "went_out": e.went_out,
                }
                for seat, e in found.items()
            },
        }
    )
    response.headers["Cache-Control"] = "no-store"
    return response

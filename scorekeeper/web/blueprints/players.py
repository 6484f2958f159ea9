"""Players enter their own points: a link per player, or one where each picks their name.

Each player's link can send only that player's line and shows nothing of the
scorekeeper link (access.py makes and checks it). What is sent waits beside the
game until the scorekeeper saves the hand: their form fills in with it, with
their page's live poll, or on reload without JavaScript. A player's page keeps
itself current like every other page, and follows the table to its next game.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ... import actions, store
from ...i18n import _
from ...reports import current_game, news
from ...rules.scoring import MOST_TYPED
from ...store import sent_points
from .. import live
from ..access import PICK, db, game, player_token, public_url, qr_svg
from ..forms import whole_number
from ..security import reading, sending

bp = Blueprint("players", __name__)


@bp.get("/g/<game_id>/<key>/players")
def links() -> str:
    """For the scorekeeper: a QR code per player, and one where each picks their name."""
    current = game()
    link = g.link
    pick = public_url("players.page", game_id=link.game_id, token=player_token(link, PICK))
    players = []
    for seat, name in enumerate(current.game.players):
        address = public_url("players.page", game_id=link.game_id, token=player_token(link, seat))
        players.append((name, address, qr_svg(address)))
    return render_template(
        "player_links.html",
        stored=current.stored,
        game=current.game,
        pick=pick,
        pick_qr=qr_svg(pick),
        players=players,
    )


def _next_url(seat: int | None) -> Callable[[store.games.Link], str]:
    """The same player's page in the next game (found by name: seats may move)."""

    def url(following: store.games.Link) -> str:
        token = PICK
        if seat is not None:
            name = game().game.players[seat]
            found = current_game.load(db(), following.game_id)
            names = [n.casefold() for n in found.game.players] if found else []
            if name.casefold() in names:
                token = player_token(following, names.index(name.casefold()))
        return url_for("players.page", game_id=following.game_id, token=token)

    return url


@bp.route("/p/<game_id>/<token>", methods=["GET", "POST"])
@sending
def page() -> Response | str | tuple[str, int]:
    seat = g.seat
    if reading() and (early := live.game_answer(live.watch_live, _next_url(seat))) is not None:
        return early
    link = g.link
    current = game()
    players = current.game.players
    if seat is None:
        choices = [
            (name, url_for("players.page", token=player_token(link, i)))
            for i, name in enumerate(players)
        ]
        return render_template("player_pick.html", game=current.game, links=choices)
    if seat >= len(players):
        return redirect(url_for("home.home"), 303)
    standings = current.standings
    tag = live.watch_live(link)
    waiting = sent_points.entries(db(), link.game_id, standings.hand_number).get(seat)
    context = {
        "game": current.game,
        "standings": standings,
        "seat": seat,
        "name": players[seat],
        "sent": waiting,
        "poll_url": request.path,
        "live_tag": tag,
        "stored": current.stored,
        "next_game": live.next_game(link, _next_url(seat)) if standings.over else None,
    }
    if reading():
        values = _sent_values(waiting)
        if live.polled():
            html = render_template("_player_live.html", error=None, values=values, **context)
            heard = live.heard(current)
            if heard:
                heard = f"{heard} {news.player_total(current, seat)}"
            return live.fragment(html, 200, tag, heard)
        return live.page(render_template("player_entry.html", error=None, values=values, **context))
    values = {k: request.form.get(k, "") for k in ("points", "made", "went_out", "hand_number")}

    def refused(status: int, error: str) -> tuple[str, int]:
        return render_template("player_entry.html", error=error, values=values, **context), status

    hand_number = whole_number(values["hand_number"])
    if closed := actions.points.sending_closed(current, hand_number):  # before what was typed
        return refused(409, closed.message)
    went_out = bool(values["went_out"])
    points = 0 if went_out else _typed_points(values["points"])
    if isinstance(points, str):
        return refused(422, points)
    sent = actions.points.send_points(
        db(), link.game_id, seat, hand_number, points, made=bool(values["made"]), went_out=went_out
    )
    if isinstance(sent, actions.results.Conflict):
        return refused(409, sent.message)
    if isinstance(sent, actions.results.Refused):
        return refused(422, sent.message)
    number = standings.hand_number  # the form's: sending for any other was refused above
    flash(news.sent(number, sent.points, made=sent.made, went_out=sent.went_out), "news")
    return redirect(url_for("players.page"), 303)  # the status says it is sent, until saved


def _sent_values(sent: sent_points.Entry | None) -> dict[str, str]:
    """The form as it was sent, so "Send again to change it" changes it, not retypes it."""
    if sent is None:
        return {}
    if sent.went_out:
        return {"went_out": "1"}
    return {"points": str(sent.points), "made": "1" if sent.made else ""}


@bp.post("/p/<game_id>/<token>/check")
def check() -> str:
    """The verdict on the points being typed (htmx), as Send would give it; saves nothing.
    Nothing typed yet is no problem yet."""
    seat = g.seat
    current = game()
    if seat is None or seat >= len(current.game.players):
        abort(404)
    values = {k: request.form.get(k, "") for k in ("points", "made", "went_out")}
    went_out = bool(values["went_out"])
    if not went_out and not values["points"].strip():
        return render_template("_entry_check.html", verdict=None)
    points = 0 if went_out else _typed_points(values["points"])
    if isinstance(points, str):
        return render_template("_entry_check.html", verdict=points)
    refused = actions.points.judge_points(
        current, seat, points, made=bool(values["made"]), went_out=went_out
    )
    return render_template("_entry_check.html", verdict=refused.message if refused else None)


def _typed_points(text: str) -> int | str:
    """The points a player typed, or what is wrong with them."""
    text = text.strip()
    if not text:
        return _("Type your points, or tick that you went out.")
    points = whole_number(text)
    if points is None or points > MOST_TYPED:
        return _("Points: enter a whole number from 0 to %(most)s", most=MOST_TYPED)
    return points


@bp.post("/g/<game_id>/<key>/players/renew")
def renew() -> Response:
    """New links for every player; each old one stops working (points sent stay)."""
    link = g.link
    if actions.links.renew_player_links(db(), link.game_id, link.player_key) is None:
        abort(409, _("The players' links were renewed a moment ago. Reload the page."))
    flash(
        _(
            "The players have new links and codes, below: the old ones no longer work. "
            "Points already sent are kept."
        )
    )
    return redirect(url_for("players.links"), 303)

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

from .. import actions, self_entry, store
from ..i18n import _
from ..rules.game import HandRecord
from ..rules.reasons import CARD_POINTS
from ..rules.replay import entry_problems
from ..rules.scoring import MOST_TYPED, card_worths, laid_down_implied
from . import live
from .access import PICK, db, game, player_token, public_url, qr_svg
from .forms import whole_number
from .security import reading, sending

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


def _next_url(seat: int | None) -> Callable[[store.Link], str]:
    """The same player's page in the next game (found by name: seats may move)."""

    def url(following: store.Link) -> str:
        token = PICK
        if seat is not None:
            name = game().game.players[seat]
            found = actions.load(db(), following.game_id)
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
    context = {
        "game": current.game,
        "standings": standings,
        "seat": seat,
        "name": players[seat],
        "sent": self_entry.entries(db(), link.game_id, standings.hand_number).get(seat),
        "poll_url": request.path,
        "live_tag": live.watch_live(link),
        "stored": current.stored,
        "next_game": live.next_game(link, _next_url(seat)) if standings.over else None,
    }
    if reading():
        if live.polled():
            html = render_template("_player_live.html", error=None, values={}, **context)
            return live.fragment(html, 200, context["live_tag"])  # type: ignore[arg-type]
        return live.page(render_template("player_entry.html", error=None, values={}, **context))
    values = {k: request.form.get(k, "") for k in ("points", "made", "went_out", "hand_number")}
    problem = _problem(values, current, players[seat])
    if problem:
        status, error = problem
        return render_template("player_entry.html", error=error, values=values, **context), status
    went_out = bool(values["went_out"])
    points = 0 if went_out else whole_number(values["points"]) or 0
    entry = self_entry.Entry(seat, points, went_out or bool(values["made"]), went_out, store.now())
    self_entry.submit(db(), link.game_id, standings.hand_number, entry)
    return redirect(url_for("players.page"), 303)  # the status says it is sent, until saved


@bp.post("/p/<game_id>/<token>/check")
def check() -> str:
    """The verdict on the points being typed (htmx), as Send would give it; saves nothing.
    Nothing typed yet is no problem yet."""
    seat = g.seat
    current = game()
    if seat is None or seat >= len(current.game.players):
        abort(404)
    values = {k: request.form.get(k, "") for k in ("points", "made", "went_out", "hand_number")}
    typed = values["went_out"] or values["points"].strip()
    problem = _problem(values, current, current.game.players[seat]) if typed else None
    return render_template("_entry_check.html", verdict=problem[1] if problem else None)


def _problem(values: dict[str, str], current: actions.Current, name: str) -> tuple[int, str] | None:
    """(status, message) when a player's submission cannot be taken; None when it can.

    The points are judged by the engine as the scorekeeper's form judges each
    total on its own (``entry_problems``): a total under 50 says they made their phase.
    """
    standings = current.standings
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
    points = whole_number(text)
    if points is None or points > MOST_TYPED:
        return 422, _("Points: enter a whole number from 0 to %(most)s", most=MOST_TYPED)
    made = bool(values["made"]) or laid_down_implied(points) is not None
    hand = HandRecord(None, made=(name,) if made else (), points={name: points})
    errors = [p for p in entry_problems(current.game, hand, [name], current.kept) if not p.warning]
    if not errors:
        return None
    if errors[0].rule is CARD_POINTS:  # no cards add up to it: said as this page always said it
        return 422, _(
            "Points: %(points)s is not a multiple of 5. "
            "Every card is worth %(listed)s or %(most)s.",
            points=points,
            **card_worths(current.game.rules),
        )
    return 422, str(errors[0])


@bp.post("/g/<game_id>/<key>/players/renew")
def renew() -> Response:
    """New links for every player; each old one stops working (points sent stay)."""
    link = g.link
    if store.renew_player_key(db(), link.game_id, link.player_key) is None:
        abort(409, _("The players' links were renewed a moment ago. Reload the page."))
    flash(
        _(
            "The players have new links and codes, below: the old ones no longer work. "
            "Points already sent are kept."
        )
    )
    return redirect(url_for("players.links"), 303)

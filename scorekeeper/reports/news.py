"""What a live page says when a change reaches it: a sentence a change, in the reader's
language, for the page's one announcer (static/app.js) and, on a scorekeeper's page, the
line saying what another phone changed.

A poll names the version its page shows (web/live.py reads it from the page's tag), and
the answer says every change since then in one announcement: two changes that land
between two polls are said together, not queued one after the other. A page that was
asleep for twenty changes hears how many there were and the latest few.
"""

from __future__ import annotations

from sqlite_utils import Database

from .. import store
from ..i18n import _, isolate, join, ngettext, pgettext
from ..rules.game import Game, GameError, HandRecord
from ..rules.gamefile import read_hand
from ..store import change_notes, sent_points
from ..store.history import Logged
from .current_game import Current

MOST = 3  # changes said one by one; past this many, counted and the latest said


def hand_in_words(game: Game, hand: HandRecord) -> str:
    """A hand in one line, as the hands table shows it: 'Ann out, Bob 45, Cy 20'."""
    scores = hand.scores(game.rules)
    out = pgettext("went out, in one short word", "out")
    return ", ".join(
        f"{isolate(name)} {out if name == hand.went_out else scores[name]}"
        for name in game.players
        if name == hand.went_out or name in scores
    )


def since(db: Database, current: Current, shown: int | None) -> str:
    """Every change after version ``shown`` (what a page showed) said, with how the game
    stands if it ended or goes to a tiebreak; "" when nothing changed."""
    if shown is None or not 0 < shown < current.version:
        return ""
    return _since(db, current, shown)


def latest(db: Database, current: Current) -> str:
    """The game's latest change said: what a page that followed the table to this game
    hears (a rematch, the next game at the table)."""
    return _since(db, current, current.version - 1) or _opened(current.game)


def _since(db: Database, current: Current, shown: int) -> str:
    logged = store.history.latest(db, current.stored.id, shown, MOST)
    said = [_change(change, current.game) for change in logged]
    count = current.version - shown
    if count > len(said):
        said.insert(
            0, ngettext("%(num)s change; the latest:", "%(num)s changes; the latest:", count)
        )
    if logged:
        said.append(_standing(current, logged[-1]))
    return " ".join(filter(None, said))


def sendings(db: Database, current: Current, newest: int | None) -> str:
    """The points players sent for the hand being played since sending ``newest`` (the
    newest a scorekeeper's page showed), said; "" when none came."""
    if newest is None or current.standings.over:
        return ""
    found = sent_points.sent_after(db, current.stored.id, current.standings.hand_number, newest)
    players = current.game.players
    said = []
    for seat, entry in found.items():
        if seat >= len(players):
            continue
        name = isolate(players[seat])
        if entry.went_out:
            said.append(_("%(name)s sent from their phone: went out.", name=name))
        elif entry.made:
            said.append(
                _("%(name)s sent %(points)s points, phase made.", name=name, points=entry.points)
            )
        else:
            said.append(_("%(name)s sent %(points)s points.", name=name, points=entry.points))
    return " ".join(said)


def player_total(current: Current, seat: int) -> str:
    """A player's own page adds their total to what it says."""
    points = current.standings.players[seat].score
    if current.standings.over:
        return _("Your total: %(points)s points.", points=points)
    return _("Your total so far: %(points)s points.", points=points)


def sent(number: int, points: int, *, made: bool, went_out: bool) -> str:
    """What the sender's own phone says once their points reached the scorekeeper."""
    if went_out:
        return _("Sent for hand %(number)s: you went out.", number=number)
    if made:
        return _(
            "Sent for hand %(number)s: %(points)s points, phase made.", number=number, points=points
        )
    return _("Sent for hand %(number)s: %(points)s points.", number=number, points=points)


def _change(change: Logged, game: Game) -> str:
    """One change in one sentence: a new hand with its points, a correction with what it
    changed ("Hand 1 corrected: Ana 55 → 60."), a deletion, an undo, an early end..."""
    facts = change_notes.read(change.note)
    kind = facts["note"] if facts else None
    if kind == "record" and isinstance(change.detail.get("hand"), dict):
        number = int(facts["number"])  # type: ignore[index]
        try:
            words = hand_in_words(game, read_hand(game, change.detail["hand"], number))
        except (GameError, KeyError, TypeError, ValueError):
            pass  # said as the history says it
        else:
            return _("Hand %(number)s saved: %(hand)s.", number=number, hand=words)
    if kind in ("create", "rematch", "night", "import", "api-create", "table-import"):
        return _opened(game, rematch=kind == "rematch")
    return _sentence(change.summary)


def _opened(game: Game, *, rematch: bool = False) -> str:
    names = ", ".join(isolate(name) for name in game.players)
    if rematch:
        return _("Rematch: %(names)s.", names=names)
    return _("New game: %(names)s.", names=names)


def _standing(current: Current, last: Logged) -> str:
    """The game's end, or its tiebreak, when the latest change brought or left it."""
    standings = current.standings
    facts = change_notes.read(last.note) or {}
    if standings.over:
        if facts.get("note") == "end-early":
            return ""  # its own sentence names the winner
        if standings.winner:
            return _("%(name)s wins the game.", name=isolate(standings.winner))
        return _("The game is over: a tie.")
    if standings.tiebreak:
        names = join(isolate(name) for name in standings.tiebreak)
        return _("Tiebreak: %(names)s play one more hand.", names=names)
    return ""


def _sentence(text: str) -> str:
    """A history line as a sentence of its own, so the next one does not run into it."""
    text = text.strip()
    return text if not text or text[-1] in ".!?…" else f"{text}."

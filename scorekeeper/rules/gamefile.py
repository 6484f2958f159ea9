"""A game's JSON form, read and written (docs/game-format.md).

``load_game`` checks the shape of what it reads; whether the hands follow the
rules is for the replay (``rules.replay``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from ..i18n import _
from .game import Game, GameError, HandRecord
from .names import NameRefused, clean_name, shown, valid_name
from .phases import RulesError
from .ruleset import make_rules
from .scoring import CardsLeft

T = TypeVar("T")


_GAME_KEYS = (
    "rules",
    "options",
    "players",
    "dealer",
    "orders",
    "ended_early",
    "left_after",
    "hands",
)


def _given(data: Mapping[str, object], key: str, empty: object) -> object:
    """``data[key]``, or ``empty`` when it is absent or null; "" or 0 stay, to be refused."""
    value = data.get(key)
    return empty if value is None else value


_HAND_KEYS = ("went_out", "made", "points", "attempts", "floaters", "cards", "tiebreak")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unknown(data: Mapping[Any, object], known: Sequence[str]) -> str | None:
    extra = [str(key) for key in data if key not in known]
    if not extra:
        return None
    return _(
        "unknown key %(keys)s: the keys are %(known)s",
        keys=", ".join(map(repr, extra)),
        known=", ".join(known),
    )


def _name_expected(what: str, value: object) -> str:
    """'the dealer must be a player's name, not 3' (``what`` names the JSON entry)."""
    return _("%(what)s must be a player's name, not %(value)r", what=what, value=value)


def load_game(data: object, *, new: bool = False) -> Game:
    """Read a game from its JSON form, checking its shape (``replay`` checks the rules).

    ``new``: the game is entering the app (created, imported), so every name goes
    through the name rule and is kept cleaned (``names.valid_name``). A stored game
    is read as it was saved.
    """
    if not isinstance(data, Mapping):
        raise GameError(_("a game is a JSON object with rules, options, players, dealer and hands"))
    if message := _unknown(data, _GAME_KEYS):
        raise GameError(message)
    profile = data.get("rules", "official")
    options = _given(data, "options", {})
    if not isinstance(profile, str):
        raise GameError(_("rules must be the name of a rules profile, such as 'official'"))
    if not isinstance(options, Mapping):
        raise GameError(_("options must be an object of option names and values"))
    values = {}
    for key, value in options.items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        if not isinstance(value, str | int):
            raise GameError(
                _("option %(key)s must be a word or a number, not %(value)r", key=key, value=value)
            )
        values[str(key)] = str(value)
    try:
        rules = make_rules(profile, values)
    except RulesError as error:
        raise GameError(str(error)) from None

    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not all(isinstance(p, str) for p in raw_players):
        raise GameError(_("players must be a list of names, in seating order"))
    players = tuple(_new_name(name) if new else name.strip() for name in raw_players)
    canonical = {clean_name(name).casefold(): name for name in players}

    def name_of(value: object, what: str, hand: int | None = None) -> str:
        if not isinstance(value, str):
            raise GameError(_name_expected(what, value), hand=hand)
        return canonical.get(clean_name(value).casefold(), value.strip())

    dealer = name_of(data.get("dealer", players[0] if players else ""), _("the dealer"))
    orders = {}
    raw_orders = _given(data, "orders", {})
    if not isinstance(raw_orders, Mapping):
        raise GameError(_("orders must map each player to their list of phases"))
    for key, order in raw_orders.items():
        name = name_of(key, _("each key of %(key)s", key="orders"))
        if not isinstance(order, list) or not all(_is_int(n) for n in order):
            raise GameError(_("the order must be a list of phase numbers"), player=name)
        orders[name] = tuple(order)
    raw_hands = _given(data, "hands", [])
    if not isinstance(raw_hands, list):
        raise GameError(_("hands must be a list of hands, in the order they were played"))

    def names_in(hand: int) -> Callable[[object, str], str]:
        return lambda value, what: name_of(value, what, hand)

    hands = tuple(
        _load_hand(raw, number, names_in(number)) for number, raw in enumerate(raw_hands, start=1)
    )
    ended_early = _given(data, "ended_early", False)
    if not isinstance(ended_early, bool):
        raise GameError(_("ended_early must be true or false"))
    raw_left = _given(data, "left_after", {})
    if not isinstance(raw_left, Mapping) or not all(_is_int(n) for n in raw_left.values()):
        raise GameError(_("left_after must map each player who left to the hands they played"))
    left_after = {
        name_of(key, _("each key of %(key)s", key="left_after")): after
        for key, after in raw_left.items()
    }
    return Game(
        rules=rules,
        players=players,
        dealer=dealer,
        hands=hands,
        orders=orders,
        ended_early=ended_early,
        left_after=left_after,
    )


def _new_name(text: str) -> str:
    try:
        return valid_name(text)
    except NameRefused as error:
        raise GameError(str(error), player=shown(text)) from None


def read_hand(game: Game, raw: object, number: int) -> HandRecord:
    """One hand in its JSON form, read as hand ``number`` of ``game`` (names made canonical)."""
    canonical = {clean_name(name).casefold(): name for name in game.players}

    def name_of(value: object, what: str) -> str:
        if not isinstance(value, str):
            raise GameError(_name_expected(what, value), hand=number)
        return canonical.get(clean_name(value).casefold(), value.strip())

    return _load_hand(raw, number, name_of)


def _load_hand(raw: object, number: int, name_of: Callable[[object, str], str]) -> HandRecord:
    if not isinstance(raw, Mapping):
        raise GameError(_("a hand is an object with went_out, made and points"), hand=number)
    if message := _unknown(raw, _HAND_KEYS):
        raise GameError(message, hand=number)

    def names(key: str) -> tuple[str, ...]:
        value = raw.get(key) or []
        if not isinstance(value, list):
            raise GameError(_("%(key)s must be a list of names", key=key), hand=number)
        return tuple(name_of(v, _("each name in %(key)s", key=key)) for v in value)

    def mapping(key: str, read: Callable[[object], T]) -> dict[str, T]:
        value = raw.get(key) or {}
        if not isinstance(value, Mapping):
            raise GameError(
                _("%(key)s must be an object keyed by player name", key=key), hand=number
            )
        result: dict[str, T] = {}
        for key_name, item in value.items():
            name = name_of(key_name, _("each key of %(key)s", key=key))
            if name in result:
                raise GameError(
                    _("%(key)s names this player twice", key=key), hand=number, player=name
                )
            try:
                result[name] = read(item)
            except (TypeError, ValueError) as error:
                raise GameError(f"{key}: {error}", hand=number, player=name) from None
        return result

    def whole_number(item: object) -> int:
        if not isinstance(item, int) or isinstance(item, bool):  # _is_int, spelt out to narrow
            raise ValueError(_("must be a whole number, not %(value)r", value=item))
        return item

    def cards_left(item: object) -> CardsLeft:
        if not isinstance(item, Mapping):
            raise ValueError(_('give counts like {"low": 2, "high": 1, "skips": 0, "wilds": 0}'))
        return CardsLeft.from_mapping(item)

    went_out = raw.get("went_out")
    tiebreak = raw.get("tiebreak", False)
    if not isinstance(tiebreak, bool):
        raise GameError(_("tiebreak must be true or false"), hand=number)
    return HandRecord(
        went_out=None if went_out is None else name_of(went_out, "went_out"),
        made=names("made"),
        points=mapping("points", whole_number),
        attempts=mapping("attempts", whole_number),
        floaters=names("floaters"),
        cards=mapping("cards", cards_left),
        tiebreak=tiebreak,
    )


def _seated(game: Game, mapping: Mapping[str, T]) -> dict[str, T]:
    """The mapping in seating order (names not seated last)."""
    seat = {name: index for index, name in enumerate(game.players)}
    return {k: mapping[k] for k in sorted(mapping, key=lambda k: seat.get(k, len(seat)))}


def hand_to_json(game: Game, hand: HandRecord) -> dict[str, object]:
    """The JSON form of one hand of ``game`` (as in ``game_to_json``)."""
    data: dict[str, object] = {
        "went_out": hand.went_out,
        "made": list(hand.made),
        "points": _seated(game, hand.points),
    }
    if hand.attempts:
        data["attempts"] = _seated(game, hand.attempts)
    if hand.floaters:
        data["floaters"] = list(hand.floaters)
    if hand.cards:
        data["cards"] = {k: v.to_json() for k, v in _seated(game, hand.cards).items()}
    if hand.tiebreak:
        data["tiebreak"] = True
    return data


def game_to_json(game: Game) -> dict[str, object]:
    """The JSON form of a game; ``load_game(game_to_json(g)) == g``."""
    result: dict[str, object] = {
        "rules": game.rules.profile,
        "options": game.rules.changed_options(),
        "players": list(game.players),
        "dealer": game.dealer,
    }
    if game.orders:
        result["orders"] = {k: list(v) for k, v in _seated(game, game.orders).items()}
    if game.ended_early:
        result["ended_early"] = True
    if game.left_after:
        result["left_after"] = dict(_seated(game, game.left_after))
    result["hands"] = [hand_to_json(game, hand) for hand in game.hands]
    return result

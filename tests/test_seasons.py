"""A season of club nights: its nights added up under a scheme, attendance, each player's
best N nights, ratings across nights equal to openskill's own, and nothing stored but what
the organiser decided (a real SQLite file)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from scorekeeper import actions, store
from scorekeeper.reports import current_game, night_view, season_view
from scorekeeper.reports.season_ratings import rate
from scorekeeper.rules.game import HandRecord
from scorekeeper.rules.nights import Mode, Result, Scheme, placement_points
from scorekeeper.rules.seasons import NightPlayed, season_standings
from scorekeeper.store import nights, seasons, tables


@pytest.fixture
def db(tmp_path):
    yield store.connection.connect(tmp_path / "games.sqlite3")
    store.connection.close_all()


@pytest.fixture
def table_id(db) -> str:
    table = actions.tables.create_table(db, "Thursday club")
    assert isinstance(table, tables.Table)
    return table.id


def new_season(db, table_id, **choices) -> seasons.Season:
    settings = {
        "name": "Spring",
        "starts": "2026-03-01",
        "ends": "2026-05-31",
        "scheme": Scheme.PLACEMENT,
        **choices,
    }
    season = actions.seasons.create_season(db, table_id, **settings)
    assert isinstance(season, seasons.Season), season
    return season


def play_night(db, table_id, players, order_of, season=None, rounds=1) -> nights.Night:
    """A night of ``rounds`` ten-hands rounds; ``order_of(table)`` gives each table's
    finishing order (best first). Returns the night, every round played."""
    night = actions.nights.create_night(
        db,
        table_id,
        name="Night",
        players=players,
        rounds=rounds,
        profile="ten-hands",
        mode=Mode.RANDOM,
        scheme=Scheme.PLACEMENT,
    )
    assert isinstance(night, nights.Night), night
    if season is not None:
        assert actions.seasons.put_night(db, table_id, night.id, season.id) == season
    for number in range(1, rounds + 1):
        if number > 1:
            assert isinstance(actions.nights.seat_next(db, night), nights.Round)
        started = actions.nights.start_round(db, night)
        assert isinstance(started, nights.Round), started
        now = night_view.night_now(db, night)
        for (at, _table), game in now.games.items():
            if at == number:
                finish(db, game.stored.id, order_of(list(game.game.players)))
    return night


def finish(db, game_id, order) -> None:
    """Ten hands in which ``order[0]`` goes out each time and the others score 60, 70, ..."""
    for number in range(1, 11):
        points = {name: 50 + 10 * place for place, name in enumerate(order) if place}
        hand = HandRecord(order[0], (order[0],), points)
        assert isinstance(actions.hands.record(db, game_id, number, hand), actions.results.Saved)


def by_name(players):
    return sorted(players)


# --- the arithmetic -------------------------------------------------------------------


def result(name, place, players, score=0, sharing=1):
    return Result(name, place, sharing, players, score, 0)


def test_a_season_adds_up_the_nights_and_counts_who_came():
    first = NightPlayed(("Ann", "Bob", "Cy"), ((result("Ann", 1, 2), result("Bob", 2, 2)),))
    second = NightPlayed(("Ann", "Cy"), ((result("Cy", 1, 2), result("Ann", 2, 2)),))
    board = {row.name: row for row in season_standings([first, second], Scheme.PLACEMENT)}
    assert (board["Ann"].points, board["Ann"].nights, board["Ann"].games) == (120, 2, 2)
    assert (board["Cy"].points, board["Cy"].nights, board["Cy"].games) == (120, 2, 1)
    assert (board["Bob"].points, board["Bob"].nights) == (0, 1)


def test_only_each_players_best_nights_count_when_asked():
    nights_played = [
        NightPlayed(("Ann", "Bob"), ((result("Ann", 1, 2), result("Bob", 2, 2)),)),
        NightPlayed(("Ann", "Bob"), ((result("Bob", 1, 2), result("Ann", 2, 2)),)),
        NightPlayed(("Ann", "Bob"), ((result("Bob", 1, 2), result("Ann", 2, 2)),)),
    ]
    every = {r.name: r for r in season_standings(nights_played, Scheme.PLACEMENT)}
    assert (every["Ann"].points, every["Bob"].points) == (120, 240)
    best = {r.name: r for r in season_standings(nights_played, Scheme.PLACEMENT, best=1)}
    assert (best["Ann"].points, best["Ann"].counted, best["Ann"].nights) == (120, 1, 3)
    assert (best["Bob"].points, best["Bob"].counted) == (120, 1)
    assert best["Ann"].place == best["Bob"].place == 1  # equal points and scores: shared


# --- kept, and worked out from the games ----------------------------------------------


def test_a_season_is_worked_out_from_its_nights_games(db, table_id):
    season = new_season(db, table_id, best=1)
    four = ["Ann", "Bob", "Cy", "Di"]
    play_night(db, table_id, four, by_name, season)
    play_night(db, table_id, four, lambda p: sorted(p, reverse=True), season)
    play_night(db, table_id, four, by_name)  # in no season
    now = season_view.season_now(db, season)
    assert len(now.nights) == 2 and now.games == 2
    points = {row.name: (row.points, row.nights, row.counted) for row in now.board}
    # Each night Ann is 1st then 4th; her best night counts: 120
    assert points["Ann"] == (placement_points(1, 1, 4), 2, 1)
    assert points["Bob"] == (placement_points(2, 1, 4), 2, 1)
    assert [n.counted for n in now.nights_of("Ann")] == [True, False]


def test_a_corrected_hand_changes_the_board_and_the_ratings(db, table_id):
    season = new_season(db, table_id)
    night = play_night(db, table_id, ["Ann", "Bob"], by_name, season)
    before = season_view.season_now(db, season)
    assert before.board[0].name == "Ann" and before.ratings[0].name == "Ann"
    game_id = nights.games(db, night.id)[0].game_id
    for number in range(1, 11):  # Bob went out every hand, Ann scored 10
        hand = HandRecord("Bob", ("Bob",), {"Ann": 60})
        saved = actions.hands.correct(
            db, game_id, current_game.load(db, game_id).version, number, hand
        )
        assert isinstance(saved, actions.results.Saved), saved
    after = season_view.season_now(db, season)
    assert after.board[0].name == "Bob" and after.ratings[0].name == "Bob"


def test_the_ratings_are_openskills_own_for_the_games_in_order(db, table_id):
    season = new_season(db, table_id)
    six = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    orders = [
        lambda p: sorted(p),
        lambda p: sorted(p, reverse=True),
        lambda p: sorted(p, key=lambda n: n[1]),
    ]
    played_nights = [play_night(db, table_id, six, order, season, rounds=2) for order in orders]
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in six}
    for night in played_nights:  # the library's own, game by game in the order played
        for entry in nights.games(db, night.id):
            current = current_game.load(db, entry.game_id)
            order = sorted(current.game.players, key=lambda n: current.standings.player(n).score)
            rated = model.rate([[ratings[n]] for n in order], ranks=list(range(1, len(order) + 1)))
            for name, (rating,) in zip(order, rated, strict=True):
                ratings[name] = rating
    shown = {r.name: r for r in season_view.season_now(db, season).ratings}
    for name in six:
        assert shown[name].mu == pytest.approx(ratings[name].mu, abs=1e-9)
        assert shown[name].sigma == pytest.approx(ratings[name].sigma, abs=1e-9)
        assert shown[name].games == 6


def test_a_rating_in_words_and_ties_as_the_library_has_them():
    game = (result("Ann", 1, 3), result("Bob", 1, 3, sharing=2), result("Cy", 3, 3))
    game = (result("Ann", 1, 3, sharing=2), game[1], game[2])
    found = {r.name: r for r in rate([game])}
    model = PlackettLuce()
    own = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 1, 3])
    assert found["Ann"].mu == pytest.approx(own[0][0].mu)
    assert found["Ann"].mu == pytest.approx(found["Bob"].mu)
    assert (found["Cy"].about, found["Cy"].give_or_take) == (round(own[2][0].mu), 8)


def test_a_night_moves_between_seasons_of_its_own_table_only(db, table_id):
    spring, autumn = new_season(db, table_id), new_season(db, table_id, name="Autumn")
    night = play_night(db, table_id, ["Ann", "Bob"], by_name, spring)
    assert actions.seasons.put_night(db, table_id, night.id, autumn.id) == autumn
    assert seasons.season_of_night(db, night.id) == autumn
    assert season_view.season_now(db, spring).nights == ()
    other = actions.tables.create_table(db, "Other club")
    elsewhere = new_season(db, other.id)
    refused = actions.seasons.put_night(db, table_id, night.id, elsewhere.id)
    assert isinstance(refused, actions.results.Refused)
    assert isinstance(
        actions.seasons.put_night(db, other.id, night.id, elsewhere.id), actions.results.Refused
    )
    assert actions.seasons.put_night(db, table_id, night.id, None) is None
    assert seasons.season_of_night(db, night.id) is None


@pytest.mark.parametrize(
    ("starts", "ends", "best", "words"),
    [
        ("2026-03-01", "2026-02-28", None, "ends on or after"),
        ("1 March", "2026-05-31", None, "year-month-day"),
        ("2026-03-01", "2030-05-31", None, "three years"),
        ("2026-03-01", "2026-05-31", 0, "from 1 to"),
        ("1900-03-01", "1900-05-31", None, "between 2000 and 2200"),
    ],
)
def test_a_season_with_wrong_dates_or_counting_is_refused(db, table_id, starts, ends, best, words):
    refused = actions.seasons.create_season(
        db, table_id, name="X", starts=starts, ends=ends, scheme=Scheme.PLACEMENT, best=best
    )
    assert isinstance(refused, actions.results.Refused) and words in refused.message
    assert seasons.seasons_of_table(db, table_id) == []


def test_a_season_wakes_its_pages_and_follows_a_renewed_table_link(db, table_id):
    season = new_season(db, table_id)
    _keys, mark = store.commits.changed(db.conn, None)
    night = play_night(db, table_id, ["Ann", "Bob"], by_name, season)
    keys, mark = store.commits.changed(db.conn, mark)
    assert store.commits.season_key(season.id) in keys
    game_id = nights.games(db, night.id)[0].game_id
    version = current_game.load(db, game_id).version
    actions.hands.correct(db, game_id, version, 1, HandRecord("Ann", ("Ann",), {"Bob": 70}))
    keys, mark = store.commits.changed(db.conn, mark)
    assert store.commits.season_key(season.id) in keys  # a game of one of its nights
    renewed = tables.renew_link(db, table_id)
    assert [s.id for s in seasons.seasons_of_table(db, renewed)] == [season.id]

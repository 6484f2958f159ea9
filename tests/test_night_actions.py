"""A club night kept: created, seated, started, players leaving and arriving, its
leaderboard from its games, and the night's key rung by its changes (a real SQLite file)."""

from __future__ import annotations

import pytest

from scorekeeper import actions, store
from scorekeeper.backup import table_archive
from scorekeeper.reports import current_game, night_view
from scorekeeper.rules.game import HandRecord
from scorekeeper.rules.nights import Mode, Scheme, placement_points, times_met
from scorekeeper.store import nights, tables

FOURTEEN = [f"P{i:02}" for i in range(1, 15)]


@pytest.fixture
def db(tmp_path):
    yield store.connection.connect(tmp_path / "games.sqlite3")
    store.connection.close_all()


@pytest.fixture
def table_id(db) -> str:
    table = actions.tables.create_table(db, "Thursday club")
    assert isinstance(table, tables.Table)
    return table.id


def start_night(db, table_id, players=FOURTEEN, **choices) -> nights.Night:
    settings = {
        "name": "Club night",
        "players": players,
        "rounds": 3,
        "profile": "ten-hands",
        "mode": Mode.NEW_OPPONENTS,
        "scheme": Scheme.PLACEMENT,
        **choices,
    }
    night = actions.nights.create_night(db, table_id, **settings)
    assert isinstance(night, nights.Night), night
    return night


def play_ten_hands(db, game_id: str) -> dict[str, int]:
    """Ten hands: seat 1 goes out in each; seat n + 1 scores 50 + 10 n a hand."""
    current = current_game.load(db, game_id)
    players = current.game.players
    for number in range(1, 11):
        points = {name: 50 + 10 * seat for seat, name in enumerate(players) if seat}
        hand = HandRecord(players[0], (players[0],), points)
        result = actions.hands.record(db, game_id, number, hand)
        assert isinstance(result, actions.results.Saved), result
    return {name: 10 * (50 + 10 * seat) if seat else 0 for seat, name in enumerate(players)}


def test_a_night_seats_its_first_round_at_tables_of_four_four_three_three(db, table_id):
    night = start_night(db, table_id)
    now = night_view.night_now(db, night)
    assert now.seated is not None and now.seated.number == 1 and now.seated.mode is Mode.RANDOM
    assert [len(t.seats) for t in now.seated.tables] == [4, 4, 3, 3]
    assert sorted(name for t in now.seated.tables for name in t.seats) == FOURTEEN
    assert [row.points for row in now.board] == [0] * 14  # everyone listed from the start
    assert now.games == {}


def test_seating_a_round_again_draws_anew_and_is_kept_with_its_seed(db, table_id):
    night = start_night(db, table_id)
    first = night_view.night_now(db, night).seated
    again = actions.nights.seat_next(db, night)
    assert isinstance(again, nights.Round) and again.number == 1 and again.seed != first.seed
    assert [c[1] for c in nights.history(db, night.id)][:2] == ["seat", "seat"]


def test_starting_a_round_starts_a_game_at_every_table_seat_one_dealing(db, table_id):
    night = start_night(db, table_id)
    started = actions.nights.start_round(db, night)
    assert isinstance(started, nights.Round)
    now = night_view.night_now(db, night)
    assert sorted(now.games) == [(1, 1), (1, 2), (1, 3), (1, 4)]
    for table in started.tables:
        game = now.games[1, table.number]
        assert game.game.players == table.seats and game.game.dealer == table.dealer
        assert tables.table_of_game(db, game.stored.id) == table_id  # the club's games
    assert now.playing is not None and now.seated is None
    refused = actions.nights.start_round(db, night)
    assert isinstance(refused, actions.results.Refused)  # started once
    refused = actions.nights.seat_next(db, night)
    assert isinstance(refused, actions.results.Refused) and "not all finished" in refused.message


def test_the_leaderboard_counts_each_finished_game_by_placement_points(db, table_id):
    night = start_night(db, table_id)
    actions.nights.start_round(db, night)
    now = night_view.night_now(db, night)
    expected: dict[str, int] = dict.fromkeys(FOURTEEN, 0)
    for game in now.games.values():
        totals = play_ten_hands(db, game.stored.id)
        order = sorted(totals, key=totals.get)
        for place, name in enumerate(order, 1):
            expected[name] += placement_points(place, 1, len(order))
    board = night_view.night_now(db, night).board
    assert {row.name: row.points for row in board} == expected
    assert board[0].points == 120 and board[-1].points == 0


def test_round_two_meets_new_people_and_a_player_who_left_is_not_seated(db, table_id):
    night = start_night(db, table_id)
    actions.nights.start_round(db, night)
    for game in night_view.night_now(db, night).games.values():
        play_ten_hands(db, game.stored.id)
    left = actions.nights.set_here(db, night, "P05", False)
    assert left == actions.nights.HereChange("P05", actions.nights.Here.LEFT)
    second = actions.nights.seat_next(db, night)
    assert isinstance(second, nights.Round) and second.number == 2
    seated = [name for table in second.tables for name in table.seats]
    assert "P05" not in seated and len(seated) == 13
    first = night_view.night_now(db, night).rounds[0]
    met = times_met(table.seats for table in first.tables)
    again = times_met(table.seats for table in second.tables)
    assert not set(met) & set(again)  # nobody sits with anyone from round 1
    board = night_view.night_now(db, night).board
    assert "P05" in [row.name for row in board]  # keeps the game played


def test_a_late_arrival_reseats_the_waiting_round_and_a_bad_name_changes_nothing(db, table_id):
    night = start_night(db, table_id, players=FOURTEEN[:5])
    arrived = actions.nights.set_here(db, night, "Zoë", True)
    assert arrived == actions.nights.HereChange("Zoë", actions.nights.Here.ARRIVED, seated=1)
    seated = night_view.night_now(db, night).seated
    assert sorted(n for t in seated.tables for n in t.seats) == sorted([*FOURTEEN[:5], "Zoë"])
    before = len(nights.history(db, night.id))
    assert isinstance(actions.nights.set_here(db, night, " ", True), actions.results.Refused)
    assert isinstance(actions.nights.set_here(db, night, "Nobody", False), actions.results.Refused)
    assert len(nights.history(db, night.id)) == before


def test_the_last_two_cannot_leave_a_waiting_round_and_nothing_is_written(db, table_id):
    night = start_night(db, table_id, players=["Ann", "Bob"])
    refused = actions.nights.set_here(db, night, "Bob", False)
    assert isinstance(refused, actions.results.Refused) and "at least 2 players" in refused.message
    assert all(a.here for a in night_view.night_now(db, night).attendees)


@pytest.mark.parametrize(
    ("choices", "words"),
    [
        ({"rounds": 0}, "1 to 20 rounds"),
        ({"profile": "nonsense"}, "how a round is played"),
        ({"players": ["Ann"]}, "at least 2 players"),
        ({"players": ["Ann", "ann"]}, "two players have this name"),
    ],
)
def test_a_night_that_cannot_be_run_is_refused_and_nothing_is_saved(db, table_id, choices, words):
    settings = {
        "name": "Club night",
        "players": FOURTEEN,
        "rounds": 3,
        "profile": "official",
        "mode": Mode.RANDOM,
        "scheme": Scheme.CUMULATIVE,
        **choices,
    }
    refused = actions.nights.create_night(db, table_id, **settings)
    assert isinstance(refused, actions.results.Refused) and words in refused.message
    assert db.execute("SELECT count(*) FROM nights").fetchone()[0] == 0


def test_a_night_is_over_after_its_last_round(db, table_id):
    night = start_night(db, table_id, players=["Ann", "Bob", "Cy"], rounds=1)
    actions.nights.start_round(db, night)
    (game,) = night_view.night_now(db, night).games.values()
    play_ten_hands(db, game.stored.id)
    now = night_view.night_now(db, night)
    assert now.over
    assert isinstance(actions.nights.seat_next(db, night), actions.results.Refused)


def test_a_nights_change_and_its_games_changes_ring_the_nights_key_only(db, table_id):
    night = start_night(db, table_id, players=["Ann", "Bob", "Cy"])
    _keys, mark = store.commits.changed(db.conn, None)
    actions.nights.start_round(db, night)
    keys, mark = store.commits.changed(db.conn, mark)
    assert store.commits.night_key(night.id) in keys
    (game,) = night_view.night_now(db, night).games.values()
    hand = HandRecord("Ann", ("Ann",), {"Bob": 60, "Cy": 70})
    assert isinstance(actions.hands.record(db, game.stored.id, 1, hand), actions.results.Saved)
    keys, mark = store.commits.changed(db.conn, mark)
    assert {store.commits.night_key(night.id), game.stored.id} <= keys
    other = actions.games.start_game(
        db, {"rules": "official", "players": ["X", "Y"], "dealer": "X", "hands": []}
    )
    keys, _mark = store.commits.changed(db.conn, mark)
    assert keys == {other.current.stored.id}


def test_a_renewed_table_link_keeps_its_nights(db, table_id):
    night = start_night(db, table_id, players=["Ann", "Bob"])
    new = actions.links.renew_table_link(db, table_id)
    assert [n.id for n in nights.nights_of_table(db, new)] == [night.id]


def test_a_deleted_table_takes_its_nights_when_it_is_purged(db, table_id, clock):
    night = start_night(db, table_id, players=["Ann", "Bob", "Cy"])
    actions.nights.start_round(db, night)
    actions.trash.delete_table(db, table_id)
    clock.at = "2026-12-01T19:00:01+00:00"  # past the week's grace
    assert actions.trash.purge_deleted(db).tables == 1
    for name in ("nights", "night_players", "night_rounds", "night_games", "night_changes"):
        assert db.execute(f"SELECT count(*) FROM {name}").fetchone()[0] == 0, name


def test_the_organiser_may_seat_a_round_by_standing_the_leaders_at_table_one(db, table_id):
    night = start_night(db, table_id, players=FOURTEEN[:8])  # two tables of four
    actions.nights.start_round(db, night)
    for game in night_view.night_now(db, night).games.values():
        play_ten_hands(db, game.stored.id)
    board = night_view.night_now(db, night).board
    second = actions.nights.seat_next(db, night, Mode.BY_STANDING)
    assert isinstance(second, nights.Round) and second.mode is Mode.BY_STANDING
    leaders = {row.name for row in board[:4]}
    assert set(second.tables[0].seats) == leaders


def test_a_round_whose_games_were_deleted_does_not_hold_the_night_up(db, table_id):
    night = start_night(db, table_id, players=FOURTEEN[:6])
    actions.nights.start_round(db, night)
    now = night_view.night_now(db, night)
    finished, deleted = list(now.games.values())
    play_ten_hands(db, finished.stored.id)
    assert night_view.night_now(db, night).playing is not None
    assert actions.trash.delete_game(db, deleted.stored.id, table_id) is None
    now = night_view.night_now(db, night)
    assert now.playing is None and not now.over
    assert isinstance(actions.nights.seat_next(db, night), nights.Round)


def test_a_night_seats_at_most_180_players(db, table_id):
    many = [f"Player {i}" for i in range(181)]
    refused = actions.nights.create_night(
        db,
        table_id,
        name="Big night",
        players=many,
        rounds=1,
        profile="official",
        mode=Mode.RANDOM,
        scheme=Scheme.PLACEMENT,
    )
    assert isinstance(refused, actions.results.Refused) and "at most 180 players" in refused.message


def test_the_organiser_may_ask_for_fewer_tables_within_rule_11(db, table_id):
    night = start_night(db, table_id, tables_asked=3)
    assert [len(t.seats) for t in night_view.night_now(db, night).seated.tables] == [5, 5, 4]
    refused = actions.nights.seat_next(db, night, tables=8)
    assert isinstance(refused, actions.results.Refused)
    assert "14 players sit at 3 to 7 tables, not 8" in refused.message
    assert [len(t.seats) for t in night_view.night_now(db, night).seated.tables] == [5, 5, 4]
    again = actions.nights.seat_next(db, night, tables=7)
    assert isinstance(again, nights.Round) and [len(t.seats) for t in again.tables] == [2] * 7


def test_a_late_arrival_keeps_the_number_of_tables_the_organiser_asked_for(db, table_id):
    """Seating a waiting round again for a newcomer keeps the organiser's 3 tables (rule 11
    would suggest 4 for 15 players), and a backup keeps what was asked."""
    night = start_night(db, table_id, tables_asked=3)
    arrived = actions.nights.set_here(db, night, "Late", True)
    assert isinstance(arrived, actions.nights.HereChange) and arrived.seated == 1
    seated = night_view.night_now(db, night).seated
    assert seated is not None and seated.asked == 3
    assert [len(t.seats) for t in seated.tables] == [5, 5, 5]
    assert "Late" in [name for t in seated.tables for name in t.seats]
    kept = table_archive.archived_night(db, night, {})
    assert [r.asked for r in kept.played] == [3]
    again = actions.nights.seat_next(db, night)  # a new draw at the suggested number
    assert isinstance(again, nights.Round) and again.asked is None and len(again.tables) == 4


# --- issue 40: the night's loose ends, room control, the round clock -----------------------


def play_round(db, night) -> None:
    """Start the seated round and play every table's ten hands."""
    started = actions.nights.start_round(db, night)
    assert isinstance(started, nights.Round), started
    for (number, _table), game in night_view.night_now(db, night).games.items():
        if number == started.number:
            play_ten_hands(db, game.stored.id)


def test_an_arrival_after_the_last_round_has_started_or_the_night_is_over_is_refused(db, table_id):
    """Issue 40, 1: "Very Late", added after round 3 of 3, was "seated from the next round"
    and printed 16th of 17, above a player who had played."""
    night = start_night(db, table_id, players=FOURTEEN[:5], rounds=1)
    actions.nights.start_round(db, night)
    refused = actions.nights.set_here(db, night, "Very Late", True)
    assert isinstance(refused, actions.results.Refused) and "last round has started" in (
        refused.message
    )
    for game in night_view.night_now(db, night).games.values():
        play_ten_hands(db, game.stored.id)
    refused = actions.nights.set_here(db, night, "Very Late", True)
    assert isinstance(refused, actions.results.Refused) and "night is over" in refused.message
    now = night_view.night_now(db, night)
    assert now.over and "Very Late" not in [row.name for row in now.board]


def test_the_night_can_end_after_any_finished_round_and_its_standings_are_final(db, table_id):
    """Issue 40, 2: no way to end a night early; the standings never said "final"."""
    night = start_night(db, table_id, players=FOURTEEN[:6])
    refused = actions.nights.end_night(db, night)
    assert isinstance(refused, actions.results.Refused) and "first round" in refused.message
    actions.nights.start_round(db, night)
    refused = actions.nights.end_night(db, night)
    assert isinstance(refused, actions.results.Refused) and "finished" in refused.message
    for game in night_view.night_now(db, night).games.values():
        play_ten_hands(db, game.stored.id)
    assert isinstance(actions.nights.seat_next(db, night), nights.Round)  # round 2 seated
    assert actions.nights.end_night(db, night) is None
    now = night_view.night_now(db, night)
    assert now.over and now.ended_early and now.finished_rounds == 1
    assert [r.number for r in now.rounds] == [1]  # the round seated, never played, is gone
    assert now.winners == [row.name for row in now.board if row.place == 1] != []
    refused = actions.nights.seat_next(db, night)
    assert isinstance(refused, actions.results.Refused) and "over" in refused.message
    assert actions.nights.reopen(db, night) is None  # taken back: the night goes on
    assert not night_view.night_now(db, night).over
    assert isinstance(actions.nights.seat_next(db, night), nights.Round)


def test_the_number_of_rounds_changes_until_the_last_round_starts(db, table_id):
    night = start_night(db, table_id, players=FOURTEEN[:4], rounds=3)
    assert actions.nights.change_plan(db, night, 2, None) is None
    play_round(db, night)
    actions.nights.seat_next(db, night)
    refused = actions.nights.change_plan(db, night, 1, None)
    assert isinstance(refused, actions.results.Refused) and "at least 2 rounds" in refused.message
    actions.nights.start_round(db, night)  # round 2 of 2: the last
    refused = actions.nights.change_plan(db, night, 4, None)
    assert isinstance(refused, actions.results.Refused) and "cannot change" in refused.message
    assert actions.nights.change_plan(db, night, 2, 40) is None  # the clock still may
    assert nights.get_night(db, night.id).minutes == 40
    words = [action for _at, action, _facts in nights.history(db, night.id)]
    assert words.count("plan") == 2


def test_a_second_organiser_acting_on_a_night_that_moved_is_told_so(db, table_id):
    """Issue 40, 7: two organisers seating at once, the last won silently."""
    night = start_night(db, table_id, players=FOURTEEN[:8])
    play_round(db, night)
    seen = nights.latest_change(db, night.id)  # both phones show "Round 1 is over"
    first = actions.nights.seat_next(db, night, Mode.BY_STANDING, seen=seen)
    assert isinstance(first, nights.Round)
    second = actions.nights.seat_next(db, night, Mode.RANDOM, seen=seen)
    assert isinstance(second, actions.results.Conflict)
    assert "Round 2 seated: By standing" in second.message
    assert night_view.night_now(db, night).seated.mode is Mode.BY_STANDING  # kept
    stale = actions.nights.start_round(db, night, seen=seen)
    assert isinstance(stale, actions.results.Conflict)
    assert night_view.night_now(db, night).seated is not None  # not started by the stale page


def test_a_name_the_night_has_already_in_another_case_is_that_player(db, table_id):
    """Issue 40, 8: "zoë" arriving when Zoë is here said "is here: seated from the next
    round" instead of "already here"."""
    night = start_night(db, table_id, players=[*FOURTEEN[:4], "Zoë"])
    before = len(nights.history(db, night.id))
    again = actions.nights.set_here(db, night, "zoë", True)
    assert again == actions.nights.HereChange("Zoë", actions.nights.Here.ALREADY_HERE)
    assert len(nights.history(db, night.id)) == before


def test_two_players_swap_and_one_moves_before_the_round_starts(db, table_id):
    night = start_night(db, table_id)  # 4, 4, 3, 3
    seated = night_view.night_now(db, night).seated
    a, b = seated.tables[0].seats[0], seated.tables[2].seats[1]
    swapped = actions.nights.swap(db, night, a, b)
    assert isinstance(swapped, nights.Round)
    after = night_view.night_now(db, night).seated
    assert after.tables[0].seats[0] == b and after.tables[2].seats[1] == a
    moved = actions.nights.move(db, night, a, 4)
    assert isinstance(moved, nights.Round)
    after = night_view.night_now(db, night).seated
    assert [len(t.seats) for t in after.tables] == [4, 4, 2, 4] and after.tables[3].seats[-1] == a
    assert after.seed == seated.seed  # the same round, rearranged
    actions.nights.start_round(db, night)
    games = night_view.night_now(db, night).games
    assert games[1, 4].game.players == after.tables[3].seats  # the games follow
    refused = actions.nights.swap(db, night, a, b)
    assert isinstance(refused, actions.results.Refused) and "before" in refused.message


def test_a_player_who_keeps_a_table_is_seated_at_it_in_later_rounds(db, table_id):
    night = start_night(db, table_id)
    table = night_view.night_now(db, night).seated.tables[2]
    keeper = table.seats[0]
    assert actions.nights.keep_table(db, night, keeper, table.number) is None
    for _round in range(2):
        play_round(db, night)
        seated = actions.nights.seat_next(db, night)
        assert isinstance(seated, nights.Round)
        assert keeper in seated.tables[table.number - 1].seats
    moved = actions.nights.move(db, night, keeper, 1)  # moved on purpose: keeps that table
    assert isinstance(moved, nights.Round)
    assert night_view.night_now(db, night).attendee(keeper).keeps == 1


def test_a_player_taken_out_of_a_round_leaves_their_game_which_goes_on(db, table_id):
    night = start_night(db, table_id, players=FOURTEEN[:4], rounds=2)
    actions.nights.start_round(db, night)
    (game,) = night_view.night_now(db, night).games.values()
    seats = game.game.players
    hand = HandRecord(seats[0], (seats[0],), {name: 50 for name in seats[1:]})
    assert isinstance(actions.hands.record(db, game.stored.id, 1, hand), actions.results.Saved)
    out = seats[3]
    done = actions.nights.take_out(db, night, out, 1)
    assert isinstance(done, actions.results.Saved)
    now = night_view.night_now(db, night)
    assert now.taken_out(out) and now.games[1, 1].game.left_after == {out: 1}
    for number in range(2, 11):  # the others play on, three of them
        hand = HandRecord(seats[0], (seats[0],), {name: 50 for name in seats[1:3]})
        saved = actions.hands.record(db, game.stored.id, number, hand)
        assert isinstance(saved, actions.results.Saved), saved
    board = {row.name: row for row in night_view.night_now(db, night).board}
    assert board[out].place == 4 and board[out].points == 0 and board[out].games == 1
    again = actions.nights.take_out(db, night, out, 1)
    assert isinstance(again, actions.results.Conflict)  # round 1 is over now
    assert "take-out" in [action for _at, action, _facts in nights.history(db, night.id)]


def test_undo_on_the_game_takes_a_player_back_into_it(db, table_id):
    night = start_night(db, table_id, players=FOURTEEN[:3], rounds=1)
    actions.nights.start_round(db, night)
    (game,) = night_view.night_now(db, night).games.values()
    out = game.game.players[2]
    assert isinstance(actions.nights.take_out(db, night, out, 1), actions.results.Saved)
    undone = actions.undo.undo(db, game.stored.id, current_game.load(db, game.stored.id).version)
    assert isinstance(undone, actions.results.Saved), undone
    assert current_game.load(db, game.stored.id).game.left_after == {}


def test_the_round_clock_counts_from_the_rounds_start_on_the_servers_clock(db, table_id, clock):
    clock.at = "2026-11-23T19:00:00+00:00"
    night = start_night(db, table_id, players=FOURTEEN[:4], minutes=30)
    assert night_view.round_clock(night_view.night_now(db, night), clock.at) is None  # seated
    clock.at = "2026-11-23T19:05:00+00:00"
    actions.nights.start_round(db, night)
    now = night_view.night_now(db, night)
    running = night_view.round_clock(now, "2026-11-23T19:30:10+00:00")
    assert (running.round, running.left, running.last_hand) == (1, 290, False)
    up = night_view.round_clock(now, "2026-11-23T19:35:00+00:00")
    assert up.left == 0 and up.last_hand
    refused = actions.nights.create_night(
        db,
        table_id,
        name="N",
        players=FOURTEEN[:4],
        rounds=1,
        profile="official",
        mode=Mode.RANDOM,
        scheme=Scheme.PLACEMENT,
        minutes=0,
    )
    assert isinstance(refused, actions.results.Refused) and "round clock" in refused.message

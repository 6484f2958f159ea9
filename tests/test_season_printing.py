"""A season's standings on paper: the engine's rows in its order with their numbers, the
nights counted of those come to, a shared place and the leader in words, pages for a
big club, names in any script, every language within its boxes and to 9 pt, tagged for a
screen reader, and the same bytes for the same season."""

from __future__ import annotations

import pytest
from geometry import problems
from printed import words
from tagged import read
from test_night_printing import FOURTEEN, SCRIPTS, in_order, page_lines, read_back
from test_printing_tags import one

from scorekeeper import i18n
from scorekeeper.printing.season_standings import SeasonSheet
from scorekeeper.rules.nights import Result, Scheme
from scorekeeper.rules.seasons import NightPlayed, SeasonRow, explained, season_standings

DAYS = "March 1, 2026 – May 31, 2026"


def season(players=FOURTEEN, nights=3, best=None, scheme=Scheme.PLACEMENT) -> list[SeasonRow]:
    """Each night one game of everyone in pairs, the pairs turning: a season's board."""
    played = []
    for night in range(nights):
        order = players[night:] + players[:night]
        games = tuple(
            (Result(a, 1, 1, 2, 0, 1), Result(b, 2, 1, 2, 50 + 5 * i, 0))
            for i, (a, b) in enumerate(zip(order[::2], order[1::2], strict=False))
        )
        played.append(NightPlayed(tuple(players), games))
    return season_standings(played, scheme, best)


def sheet(rows, scheme=Scheme.PLACEMENT, **more) -> bytes:
    return SeasonSheet("Spring league", DAYS, rows, scheme, **{"nights": 3, **more}).build()


def test_the_standings_print_every_row_in_the_engines_order_with_its_numbers():
    rows = season(best=2)
    text = words(sheet(rows, best=2))
    assert in_order(
        text,
        "Spring league",
        "Season standings after 3 nights",
        f"{DAYS} · 14 players",
        "Points for places",
        explained(Scheme.PLACEMENT),
        "Each player's best 2 nights count.",
        "Place Player Points Nights Games Total score",
    )
    (lines,) = page_lines(sheet(rows, best=2))
    printed = [line for line in lines if line.split(" ")[1:2] and line.split(" ")[1] in FOURTEEN]
    assert [line.split(" ")[1] for line in printed] == [row.name for row in rows]
    for line, row in zip(printed, rows, strict=True):  # each counts 2 of its 3 nights
        assert line.endswith(f" {row.points} 2 of 3 {row.games} {row.score}"), line


def test_the_leader_is_named_until_the_season_is_over_then_the_winner():
    rows = [
        SeasonRow(1, "Ann", 360, 3, 3, 3, 40, 9, 40),
        SeasonRow(2, "Bob", 300, 3, 3, 3, 55, 8, 55),
        SeasonRow(2, "Cy", 300, 2, 2, 2, 55, 7, 55),
    ]
    text = words(sheet(rows))
    assert "In the lead: Ann" in text and in_order(text, "2= Bob 300", "2= Cy 300")
    over = words(sheet(rows, final=True))
    assert "Final season standings after 3 nights" in over
    assert "Winner of the season: Ann" in over
    shared = [rows[0], SeasonRow(1, "Bob", 360, 3, 3, 3, 40, 9, 40)]
    assert "The season is shared: Ann and Bob" in words(sheet(shared, final=True))


def test_the_total_score_scheme_prints_no_points_column():
    rows = season(scheme=Scheme.CUMULATIVE)
    text = words(sheet(rows, scheme=Scheme.CUMULATIVE))
    assert "Place Player Nights Games Total score" in text and "Points " not in text
    assert explained(Scheme.CUMULATIVE) in text


def test_a_club_of_180_players_spans_pages_each_with_the_headings():
    players = [f"Player {number:03}" for number in range(1, 181)]
    data = sheet(season(players))
    lines = page_lines(data)
    assert len(lines) >= 4
    for number, page in enumerate(lines, start=1):
        assert f"Page {number} of {len(lines)}." in " ".join(page)
    assert problems(data) == []


def test_names_in_any_script_print_whole(tmp_path):
    players = [*SCRIPTS, "Dana <b>&amp;</b> Co", "Ed", "Flo"]
    text = read_back(sheet(season(players)), tmp_path)
    for name in players:
        assert name in text, name
    assert "?" not in text and "\u2026" not in text


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_in_every_language_the_season_prints_within_its_boxes_and_to_9_pt(language):
    with i18n.using(language):
        data = sheet(season(best=2), best=2, pagesize="a4")
        heading = i18n.ngettext(
            "Season standings after %(num)s night", "Season standings after %(num)s nights", 3
        )
    assert problems(data) == []
    assert heading.replace("%(num)s", "3") in words(data)
    if language != "en":
        assert "Season standings" not in words(data)


def test_the_standings_are_tagged_and_the_same_season_prints_the_same_bytes():
    rows = season()
    tagged = read(sheet(rows))
    board = one(tagged.root.find("Table"))
    assert [cell.kind for cell in board.kids[1].kids][:2] == ["TD", "TH"]  # place, player
    for page in tagged.pages:
        assert page.problems == [] and page.untagged == []
    assert sheet(rows) == sheet(rows)

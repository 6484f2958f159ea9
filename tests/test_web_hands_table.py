"""The hands table on the scorekeeper's page shows every change: fixes, deletions, undo."""

from __future__ import annotations

from urllib.parse import urlsplit

from webpage import read
from webutil import csrf, new_game, record


def _rows(client, url) -> list[list[str]]:
    """The hands table as the page shows it: each row's cells, without markup."""
    return read(client.get(url).get_data(as_text=True)).rows("table.hands")


def _play(client, url, hands: int) -> None:
    for number in range(1, hands + 1):
        out = (number - 1) % 3
        record(client, url, number, went_out=out, points={s: 50 for s in range(3) if s != out})


def test_deleting_a_hand_moves_the_later_rows_up(client):
    url = new_game(client)
    _play(client, url, 4)
    client.get(url)
    token = csrf(client)
    assert client.post(f"{url}/hands/2/delete", data={"csrf_token": token}).status_code == 303
    rows = _rows(client, url)
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert [row[1:4] for row in rows] == [
        ["out", "50", "50"],
        ["50", "50", "out"],
        ["out", "50", "50"],
    ]
    assert "hands/3" in client.get(url).get_data(as_text=True)
    assert "hands/4" not in client.get(url).get_data(as_text=True)


def test_undo_and_restore_bring_back_the_rows_as_they_were(client):
    url = new_game(client)
    _play(client, url, 3)
    before = _rows(client, url)
    token = csrf(client)
    data = {"csrf_token": token, "went_out": "1", "points-0": "5", "points-2": "10"}
    assert client.post(f"{url}/hands/1", data=data).status_code == 303
    assert _rows(client, url)[0][:4] == ["1", "5 ✓", "out", "10 ✓"]
    assert client.post(f"{url}/undo", data={"csrf_token": token}).status_code == 303
    assert _rows(client, url) == before
    corrected = 5  # created, three hands, the correction
    restore = client.post(f"{url}/history/{corrected}/restore", data={"csrf_token": token})
    assert restore.status_code == 303
    assert _rows(client, url)[0][:4] == ["1", "5 ✓", "out", "10 ✓"]


def test_two_games_with_the_same_hands_keep_their_own_links(client):
    first, second = new_game(client), new_game(client)
    for url in (first, second):
        _play(client, url, 2)
    for url, other in ((first, second), (second, first)):
        page = client.get(url).get_data(as_text=True)
        assert f'href="{urlsplit(url).path}/hands/2"' in page
        assert f"{urlsplit(other).path}/hands/" not in page

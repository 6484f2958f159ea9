"""The hands table renders each row once: a new hand renders one row, yet every change shows."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from webutil import csrf, new_game, record

from scorekeeper.web import hand_rows, versioned


@pytest.fixture
def rendered(monkeypatch) -> list[int]:
    """The numbers of the rows rendered (not taken from an earlier version)."""
    numbers: list[int] = []
    render = hand_rows.render_row

    def counting(game, hand, number):
        numbers.append(number)
        return render(game, hand, number)

    monkeypatch.setattr(hand_rows, "render_row", counting)
    return numbers


def _rows(client, url) -> list[list[str]]:
    """The hands table as the page shows it: each row's cells, without markup."""
    page = client.get(url).get_data(as_text=True)
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def _fresh(app, client, url) -> str:
    """The page as it renders with nothing kept from earlier versions."""
    hand_rows._kept.clear()
    versioned._renders.clear()
    return client.get(url).get_data(as_text=True)


def _play(client, url, hands: int) -> None:
    for number in range(1, hands + 1):
        out = (number - 1) % 3
        record(client, url, number, went_out=out, points={s: 50 for s in range(3) if s != out})


def test_recording_a_hand_renders_only_its_row(client, rendered):
    url = new_game(client)
    _play(client, url, 6)
    client.get(url)
    rendered.clear()
    record(client, url, 7, went_out=0, points={1: 25, 2: 50})
    rows = _rows(client, url)
    assert rendered == [7]
    assert len(rows) == 7
    assert rows[6][:4] == ["7", "out", "25 ✓", "50"]  # under 50: made the phase


def test_a_correction_renders_only_that_row_and_shows_on_the_page(client, rendered):
    url = new_game(client)
    _play(client, url, 5)
    client.get(url)
    rendered.clear()
    data = {"csrf_token": csrf(client), "went_out": "2", "points-0": "35", "points-1": "50"}
    assert client.post(f"{url}/hands/2", data=data).status_code == 303
    rows = _rows(client, url)
    assert rendered == [2]
    assert rows[1][:4] == ["2", "35 ✓", "50", "out"]


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


def test_every_change_gives_the_page_a_fresh_render_would(app, client):
    url = new_game(client)
    _play(client, url, 5)
    token = csrf(client)
    changes = [
        (f"{url}/hands/3", {"went_out": "0", "points-1": "15", "points-2": "20"}),
        (f"{url}/hands/1/delete", {}),
        (f"{url}/undo", {}),
        (f"{url}/hands", {"hand_number": "6", "went_out": "2", "points-0": "50", "points-1": "5"}),
    ]
    for path, data in changes:
        client.get(url)
        assert client.post(path, data={"csrf_token": token, **data}).status_code == 303
        client.get(url)  # the page that says what changed, once
        kept = client.get(url).get_data(as_text=True)
        assert kept == _fresh(app, client, url)


def test_two_games_with_the_same_hands_keep_their_own_links(client):
    first, second = new_game(client), new_game(client)
    for url in (first, second):
        _play(client, url, 2)
    for url, other in ((first, second), (second, first)):
        page = client.get(url).get_data(as_text=True)
        assert f'href="{urlsplit(url).path}/hands/2"' in page
        assert f"{urlsplit(other).path}/hands/" not in page


def test_rows_are_kept_per_language(client, rendered):
    url = new_game(client)
    _play(client, url, 3)
    rendered.clear()
    for language in ("de", "es", "de", "es"):
        page = client.get(url, headers={"Accept-Language": language}).get_data(as_text=True)
        assert f'<html lang="{language}">' in page
    assert sorted(rendered) == [1, 1, 2, 2, 3, 3]  # once for each language, then kept

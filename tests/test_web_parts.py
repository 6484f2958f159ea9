"""The scorekeeper's page is rendered in parts once per version of its game
(web/keeper_fragments.py), yet every phone still gets its own token, its own "saved" note and
what it typed."""

from __future__ import annotations

import jinja2
import pytest
from webpage import read
from webutil import csrf, new_game, record

from scorekeeper.web import keeper_fragments, security

HX = {"HX-Request": "true"}


def tokens(page: str) -> set[str]:
    """Every CSRF token a page carries: its forms' fields and htmx's header."""
    return read(page).csrf_tokens()


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The names of the templates rendered on their own (as parts are) from now on."""
    names: list[str] = []
    render = jinja2.Template.render

    def counted(self, *args, **kwargs):
        names.append(self.name)
        return render(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", counted)
    return names


def test_two_phones_each_get_their_own_token_from_the_one_kept_page(app, client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    other = app.test_client()
    mine, theirs = (phone.get(url).get_data(as_text=True) for phone in (client, other))
    assert tokens(mine) == {csrf(client)}
    assert tokens(theirs) == {csrf(other)}
    assert csrf(client) != csrf(other)
    for page in (mine, theirs):
        assert keeper_fragments._MARK not in page and security.TOKEN_MARK not in page
    # what each phone sends with its token is taken
    assert record(other, url, 2, went_out=1, points={0: 5, 2: 10}).status_code == 303


def test_the_page_and_its_poll_render_the_form_and_the_hands_once(app, client, renders):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    renders.clear()
    page = client.get(url).get_data(as_text=True)
    polled = app.test_client().get(url, headers={**HX, "If-None-Match": '"0.."'})
    assert polled.status_code == 200
    for part in ("_record.html", "_hands.html", "_scoreboard.html"):
        assert renders.count(part) == 1, part
    fragment = polled.get_data(as_text=True)
    # the page shows its parts in place, the poll swaps them in out of band
    assert '<div id="record">' in page and '<div id="hands">' in page
    assert '<div id="record" hx-swap-oob="true">' in fragment
    assert '<div id="hands" hx-swap-oob="true">' in fragment
    # a new version is rendered anew
    record(client, url, 2, went_out=1, points={0: 5, 2: 10})
    assert "Record hand 3" in client.get(url).get_data(as_text=True)
    assert renders.count("_record.html") == 2


def test_the_saved_note_is_on_the_saving_phone_only(app, client):
    url = new_game(client)
    saved = record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    assert saved.status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "✓ Hand 1 saved." in page
    other = app.test_client().get(url).get_data(as_text=True)
    assert "Hand 1 saved." not in other
    assert "Hand 1 saved." not in client.get(url).get_data(as_text=True)  # said once


def test_a_refused_form_shows_what_was_typed_and_leaves_the_kept_page_alone(app, client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    client.get(url)  # the plain page for this version, kept
    refused = record(client, url, 2, went_out=1, points={0: 7, 2: 10})
    assert refused.status_code == 422
    assert "7" in read(refused.get_data(as_text=True)).values("points-0")
    plain = app.test_client().get(url).get_data(as_text=True)
    assert "7" not in read(plain).values("points-0")
    assert "Record hand 2" in plain


def test_a_hands_row_is_rendered_once_while_its_hand_stays_as_it_is(client, monkeypatch):
    """At hand 150 the hands' list is 150 rows and one of them is new: only that one is
    rendered; a corrected hand's row is rendered anew, in every language."""
    built: list[int] = []
    kept = keeper_fragments.Kept(2**20)
    real_get = kept.get

    def counted(key, build):
        return real_get(key, lambda: built.append(key[4]) or build())

    monkeypatch.setattr(kept, "get", counted)
    monkeypatch.setattr(keeper_fragments, "rows", kept)
    url = new_game(client)
    for number in range(1, 5):
        out = number % 3
        points = {seat: 50 for seat in range(3) if seat != out}
        assert record(client, url, number, went_out=out, points=points).status_code == 303
    client.get(url)
    assert sorted(built) == [1, 2, 3, 4]
    built.clear()
    assert record(client, url, 5, went_out=0, points={1: 30, 2: 20}).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert built == [5] and page.count('<td class="fix">') == 5
    built.clear()
    data = {"csrf_token": csrf(client), "went_out": "1", "points-0": "75", "points-2": "50"}
    assert client.post(f"{url}/hands/2", data=data).status_code == 303
    hands = read(client.get(url).get_data(as_text=True)).rows("table.hands")
    (second,) = [cells for cells in hands if cells[0] == "2"]
    assert built == [2] and "75" in second
    client.get("/language/de?next=/")
    german = client.get(url).get_data(as_text=True)
    assert sorted(built) == [1, 2, 2, 3, 4, 5]  # every row in German
    assert german.count('<td class="fix">') == 5 and 'lang="de"' in german

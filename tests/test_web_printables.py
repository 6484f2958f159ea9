"""Printables served by the app: the standard set and a game's own sheet."""

from __future__ import annotations

import io

import pytest
from printed import qr_codes
from pypdf import PdfReader
from webutil import csrf, new_game, record

from scorekeeper import codes, store
from scorekeeper.printing import STANDARD_SET
from scorekeeper.web.blueprints import printables

pytestmark = pytest.mark.printing  # prints what the pages offer and reads it back


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def squeezed(text: str) -> str:
    """The text without white space: the printed link is spaced out in groups for reading."""
    return "".join(text.split())


def test_the_printables_page_links_every_standard_file(client):
    page = client.get("/printables").get_data(as_text=True)
    for name, _ in STANDARD_SET:
        assert f'href="/printables/{name}"' in page


def test_a_standard_printable_downloads_as_the_committed_pdf(client):
    response = client.get("/printables/score-sheet-a4.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    with open("printables/score-sheet-a4.pdf", "rb") as committed:
        assert response.data == committed.read()


@pytest.mark.parametrize("size", ["letter", "a4"])
def test_the_two_deck_guide_from_the_app_opens_the_app_at_its_announced_address(
    app, client, tmp_path, size
):
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5010/"
    response = client.get(f"/printables/two-deck-guide-{size}.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert qr_codes(response.data, tmp_path) == ["http://192.168.1.20:5010/"]
    text = " ".join(pdf_text(response.data).split())
    assert "scan the code, or open http://192.168.1.20:5010/" in text
    assert "108" in text and "table.test" not in text
    with open(f"printables/two-deck-guide-{size}.pdf", "rb") as committed:
        assert "Print for the table page" in pdf_text(committed.read())  # no address there


def test_without_an_announced_address_the_guide_opens_the_requests_host(client, tmp_path):
    data = client.get("/printables/two-deck-guide-a4.pdf").data
    assert qr_codes(data, tmp_path) == ["http://table.test/"]


def short_code(app, game_id: str) -> str:
    """The game's code as a sheet prints it, in groups of four."""
    return codes.grouped(
        store.games.get_game(store.connection.connect(app.config["DATABASE"]), game_id).code
    )


def test_a_games_score_sheet_has_its_names_rules_and_code_to_type(app, client, tmp_path):
    url = new_game(client, players=("Ann", "Bob", "Cy"), wild_points="20")
    game_id = url.split("/")[2]
    response = client.get(f"/v/{game_id}/print/score-sheet.pdf?size=a4")
    assert response.status_code == 200
    text = pdf_text(response.data)
    for expected in ("Ann", "Bob", "Cy"):
        assert expected in text
    assert f"http://table.test/{short_code(app, game_id)}" in squeezed(text)
    assert qr_codes(response.data, tmp_path) == [f"http://table.test/v/{game_id}"]


def test_the_sheet_links_to_the_address_serve_announced_not_the_browsers_host(
    app, client, tmp_path
):
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5010/"
    game_id = new_game(client).split("/")[2]
    data = client.get(f"/v/{game_id}/print/score-sheet.pdf").data
    announced = f"http://192.168.1.20:5010/{short_code(app, game_id)}"
    assert announced in squeezed(pdf_text(data))
    assert "table.test" not in pdf_text(data)
    assert qr_codes(data, tmp_path) == [f"http://192.168.1.20:5010/v/{game_id}"]


def test_a_games_sheet_is_its_record_so_far(client):
    url = new_game(client, players=("Ann", "Bob", "Cy"))
    assert record(client, url, 1, 0, {1: 55, 2: 20}, made_2="on").status_code in (200, 303)
    assert record(client, url, 2, 2, {0: 65, 1: 50}).status_code in (200, 303)
    game_id = url.split("/")[2]
    text = pdf_text(client.get(f"/v/{game_id}/print/score-sheet.pdf").data)
    assert "In progress after 2 hands: hand 3 is next, dealt by Cy." in " ".join(text.split())
    for number in ("55", "20", "65", "50", "105"):  # points and Bob's total
        assert number in text.split()


def test_a_sheet_printed_again_follows_every_change_to_the_game(client):
    """Sheets are kept per version of the game: a kept sheet must never be out of date."""
    url = new_game(client, players=("Ann", "Bob", "Cy"))
    game_id = url.split("/")[2]
    record(client, url, 1, 0, {1: 55, 2: 20}, made_2="on")
    sheet = f"/v/{game_id}/print/score-sheet.pdf"
    first = client.get(sheet).data
    assert client.get(sheet).data == first
    record(client, url, 2, 2, {0: 65, 1: 50})
    second = client.get(sheet).data
    assert "In progress after 2 hands" in " ".join(pdf_text(second).split())
    client.post(f"{url}/undo", data={"csrf_token": csrf(client)})
    assert client.get(sheet).data == first  # back to one hand: the same sheet


def test_large_print_is_offered_for_up_to_four_players_only(client):
    four = new_game(client, players=("Ann", "Bob", "Cy", "Di")).split("/")[2]
    response = client.get(f"/v/{four}/print/score-sheet-large.pdf")
    assert response.status_code == 200 and "large print" not in pdf_text(response.data)
    assert "score-sheet-large" in client.get(f"/v/{four}").get_data(as_text=True)
    five = new_game(client, players=("Ann", "Bob", "Cy", "Di", "Ed")).split("/")[2]
    response = client.get(f"/v/{five}/print/score-sheet-large.pdf")
    assert response.status_code == 400
    assert "Large print has room for 4 players" in response.get_data(as_text=True)
    assert "score-sheet-large" not in client.get(f"/v/{five}").get_data(as_text=True)


def test_a_large_print_sheet_of_four_of_the_widest_names_prints(client):
    """Four names of 40 of the widest letters left a large-print page no room for hands: it
    was refused (422, "This game's phases are too long to print on cards", issue 42). The
    names and the game's details now fill the first page, the hands start on the next."""
    names = tuple("W" * 39 + seat for seat in "ABCD")
    game = new_game(client, players=names).split("/")[2]
    response = client.get(f"/v/{game}/print/score-sheet-large.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 2
    assert "Page 2 of 2." in (reader.pages[1].extract_text() or "")


def test_without_an_announced_address_the_qr_code_uses_the_requests_host(client, tmp_path):
    game_id = new_game(client).split("/")[2]
    data = client.get(f"/v/{game_id}/print/score-sheet.pdf").data
    assert qr_codes(data, tmp_path) == [f"http://table.test/v/{game_id}"]


def test_hostile_names_print_literally(client):
    url = new_game(client, players=('<b>Ann & "Bob"</b>', "Cy"))
    game_id = url.split("/")[2]
    text = pdf_text(client.get(f"/v/{game_id}/print/score-sheet.pdf").data)
    assert '<b>Ann & "Bob"</b>' in text


@pytest.mark.parametrize("kind", ["phase-cards", "two-deck-guide"])
def test_a_games_cards_and_guide_follow_its_rules(client, kind):
    url = new_game(client, players=("Ann", "Bob"), profile="plus10")
    game_id = url.split("/")[2]
    text = pdf_text(client.get(f"/v/{game_id}/print/{kind}.pdf").data)
    assert ("9 cards of one colour" in text) if kind == "phase-cards" else ("King" in text)


@pytest.mark.parametrize(
    ("path", "status"),
    [("/printables/nope.pdf", 404), ("/v/nogame/print/score-sheet.pdf", 404)],
)
def test_unknown_printables_are_friendly_404s(client, path, status):
    assert client.get(path).status_code == status


def test_an_unknown_paper_size_or_kind_is_refused_clearly(client):
    game_id = new_game(client).split("/")[2]
    response = client.get(f"/v/{game_id}/print/score-sheet.pdf?size=tabloid")
    assert response.status_code == 400 and "Paper size" in response.get_data(as_text=True)
    assert client.get(f"/v/{game_id}/print/poster.pdf").status_code == 404


def test_a_sheet_is_built_once_per_version_and_language(client, monkeypatch):
    """A table prints the same sheet again: it is kept, not rebuilt (a two-deck guide takes
    half a second), and never kept past a change or in another language."""
    builds: list[str] = []
    sheet = printables.game_sheet

    def counted(*args, **kwargs):
        builds.append("sheet")
        return sheet(*args, **kwargs)

    monkeypatch.setattr(printables, "game_sheet", counted)
    url = new_game(client, players=("Ann", "Bob", "Cy"))
    path = f"/v/{url.split('/')[2]}/print/score-sheet.pdf"
    first = client.get(path).data
    assert client.get(path).data == first and len(builds) == 1
    record(client, url, 1, 0, {1: 55, 2: 20})
    second = client.get(path).data
    assert second != first and len(builds) == 2
    german = client.get(path, headers={"Accept-Language": "de"}).data
    assert german != second and len(builds) == 3
    assert client.get(path).data == second and len(builds) == 3  # English again: kept


def test_a_sheets_length_is_the_playing_time_not_the_last_correction(client, clock):
    url = new_game(client, players=("Ann", "Bob"))
    clock.at = "2026-11-23T19:25:00+00:00"
    record(client, url, 1, 0, {1: 55})
    clock.at = "2026-11-24T07:00:00+00:00"  # a typo fixed the next morning
    token = csrf(client)
    fixed = client.post(
        f"{url}/hands/1", data={"csrf_token": token, "went_out": "0", "points-1": "60"}
    )
    assert fixed.status_code == 303, fixed.get_data(as_text=True)
    game_id = url.split("/")[2]
    text = " ".join(pdf_text(client.get(f"/v/{game_id}/print/score-sheet.pdf").data).split())
    assert "25 min" in text and "12 h" not in text

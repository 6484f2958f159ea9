"""Printables served by the app: the standard set and a game's own sheet."""

from __future__ import annotations

import io
import os
import shutil
import subprocess

import pytest
from pypdf import PdfReader
from webutil import new_game

from scorekeeper.printing import STANDARD_SET


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_the_printables_page_links_every_standard_file(client):
    page = client.get("/printables").get_data(as_text=True)
    for name, _ in STANDARD_SET:
        assert f'href="/printables/{name}"' in page


def test_a_standard_printable_downloads_as_the_committed_pdf(client):
    response = client.get("/printables/two-deck-guide-a4.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    with open("printables/two-deck-guide-a4.pdf", "rb") as committed:
        assert response.data == committed.read()
    assert "108" in pdf_text(response.data)


def test_a_games_score_sheet_has_its_names_rules_and_view_link(client):
    url = new_game(client, players=("Ann", "Bob", "Cy"), wild_points="20")
    game_id = url.split("/")[2]
    response = client.get(f"/v/{game_id}/print/score-sheet.pdf?size=a4")
    assert response.status_code == 200
    text = pdf_text(response.data)
    for expected in ("Ann", "Bob", "Cy", f"http://table.test/v/{game_id}"):
        assert expected in text


def test_the_score_sheet_qr_code_opens_the_games_view_link(client, tmp_path):
    if not (shutil.which("pdftoppm") and shutil.which("zbarimg")):
        if os.environ.get("CI") == "true":
            pytest.fail("pdftoppm and zbarimg are needed in CI")
        pytest.skip("pdftoppm or zbarimg missing (./scripts/test installs them)")
    url = new_game(client)
    game_id = url.split("/")[2]
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(client.get(f"/v/{game_id}/print/score-sheet.pdf").data)
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(pdf), str(tmp_path / "page")], check=True)
    page = next(tmp_path.glob("page*.png"))
    decoded = subprocess.run(
        ["zbarimg", "-q", "--raw", str(page)], capture_output=True, text=True
    ).stdout.split()
    assert f"http://table.test/v/{game_id}" in decoded


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

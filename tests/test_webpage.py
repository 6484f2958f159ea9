"""The page reader the tests share (webpage.py) reads what a page shows, and says so when the
page does not show it: a reader that found nothing quietly would let a test pass on an empty
page."""

from __future__ import annotations

import pytest
from webpage import csrf, read

PAGE = """<!doctype html><html lang="de"><head><title>T</title></head>
<body hx-boost="true" hx-headers='{"X-CSRF-Token": "tok&amp;en"}'>
<main>
<section class="card"><h2>Finished games</h2>
  <ul class="game-list"><li><a class="game-link" href="/g/a/b?x=1&amp;y=2">Ann, Bob</a>
  <a class="print-link" href="/v/a/bgstats" rel="noopener">Log</a></li></ul>
  <section><h2>Inner</h2><p>inside</p></section>
</section>
<p id="watch-code" class="watch-code">Open <strong>ABCD-EFGH-JKMN-PQRS</strong></p>
<form method="post" action="/g/a/b/hands">
  <input type="hidden" name="csrf_token" value="tok&amp;en">
  <input id="out-0" type="radio" name="went_out" value="0" checked>
  <input id="out-1" type="radio" name="went_out" value="1">
  <input name="points-1" value="25" aria-invalid="true">
  <select name="phase"><option value="1">1: x</option>
    <option value="2" selected>2: y</option></select>
  <textarea name="notes">
two lines</textarea>
  <button type="submit" name="go" value="1">Save</button>
</form>
<section class="card night-board" id="night-board"><table class="board"><tbody>
  <tr data-player="Ann"><td>1</td><th scope="row"><bdi>Ann</bdi></th><td class="points">120</td>
  <tr data-player="Bob"><td>2</td><th scope="row"><bdi>Bob</bdi></th><td class="points">60</td>
</tbody></table></section>
<p class="field-error">Bob\u2069's points:\u00a0no <a href="/rules#x">Rule 8</a></p>
<input readonly class="link-field" value="http://table.test/e/night">
<script>var hidden = "not text";</script>
</main></body></html>"""


def test_it_reads_elements_by_selector_and_their_text_as_shown():
    page = read(PAGE)
    assert page.lang == "de"
    assert page.links("ul.game-list a.game-link") == ["/g/a/b?x=1&y=2"]  # entities decoded
    assert page.links("li > a[rel=noopener]") == ["/v/a/bgstats"]
    assert page.links("section ul a, #watch-code a") == ["/g/a/b?x=1&y=2", "/v/a/bgstats"]
    assert page.one("#watch-code").text == "Open ABCD-EFGH-JKMN-PQRS"
    assert page.watch_code == "ABCD-EFGH-JKMN-PQRS" and page.copy_links == [
        "http://table.test/e/night"
    ]
    assert "not text" not in page.one("main").text
    error = page.one(".field-error")
    assert error.leading_text == "Bob's points:\u00a0no"  # the isolate gone, the no-break kept
    assert page.section("Finished games").links() == ["/g/a/b?x=1&y=2", "/v/a/bgstats"]
    assert page.section("Inner").text == "Inner inside"


def test_it_reads_a_form_as_it_would_be_sent():
    page = read(PAGE)
    form = page.form("form[method=post]")
    assert (form.method, form.action) == ("post", "/g/a/b/hands")
    assert form.fields == {
        "csrf_token": "tok&en",
        "went_out": "0",
        "points-1": "25",
        "phase": "2",
        "notes": "two lines",
    }
    assert form.hidden == {"csrf_token": "tok&en"}
    assert page.checked("went_out") == ["0"] and page.checked("phase") == ["2"]
    assert page.values("points-1") == ["25"]
    assert [c["name"] for c in page.select("[aria-invalid=true]")] == ["points-1"]
    assert page.csrf_token == csrf(PAGE) == "tok&en" and page.csrf_tokens() == {"tok&en"}


def test_it_reads_a_board_whose_cells_close_themselves():
    page = read(PAGE)
    assert page.leaderboard == [("Ann", "120"), ("Bob", "60")]
    assert page.rows("table.board") == [["1", "Ann", "120"], ["2", "Bob", "60"]]


def test_what_the_page_does_not_show_fails_the_test():
    page = read("<html><body><p>Nothing here</p></body></html>")
    for ask in (
        lambda: page.one("#watch-code"),
        lambda: page.first("a"),
        lambda: page.watch_code,
        lambda: page.live(),
        lambda: page.section("Finished games"),
        lambda: page.link("Keep score"),
        lambda: read(PAGE).one("section"),  # more than one: which one would be a guess
    ):
        with pytest.raises(AssertionError):
            ask()
    with pytest.raises(KeyError):
        assert page.csrf_token  # a page without htmx's header

"""The running-score chart as chromium draws it: no number or name runs outside the picture."""

from __future__ import annotations

from pathlib import Path

from flask import render_template
from games import game_with_totals

from scorekeeper.web.charts import score_chart

CSS = (Path(__file__).resolve().parents[2] / "static" / "app.css").read_text()


def test_five_digit_totals_and_long_names_fit_as_drawn(browser, app):
    game = game_with_totals({"Grandma Rosemarie": 10865, "Chloé": 10795, "WWWWMMMM": 9995})
    with app.test_request_context():
        svg = render_template("_chart.html", chart=score_chart(game))
    page = browser.new_page(viewport={"width": 360, "height": 800})
    try:
        page.set_content(f"<style>{CSS}</style><main>{svg}</main>")
        outside = page.evaluate(
            """() => {
              const svg = document.querySelector('svg'), box = svg.viewBox.baseVal;
              return [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBBox()])
                .filter(([, r]) => r.x < 0 || r.y < 0 || r.x + r.width > box.width
                                   || r.y + r.height > box.height)
                .map(([words]) => words);
            }"""
        )
        isolates = dict.fromkeys(map(ord, "\u2068\u2069"))  # around each name
        drawn = [
            words.translate(isolates) for words in page.locator("svg text").all_text_contents()
        ]
    finally:
        page.close()
    assert outside == []
    assert "10865" in drawn and "Chloé 10795" in drawn
    assert any(words.startswith("Grandma") and words.endswith(" 10865") for words in drawn)

"""The hand form's frictions from a walkthrough at 390 x 844, each fixed and kept fixed."""

from __future__ import annotations

import re

import pytest
from pages import SlowChecks, enter_hand, open_fix, score_of, start_game
from playwright.sync_api import expect


class Counted:
    """Drives a page as a thumb would, counting every tap and key."""

    def __init__(self, page):
        self.page, self.actions = page, 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).tap()
        self.actions += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.actions += len(text)


class Thumb:
    """A finger on the touch screen that stays down until lifted, as a real tap does."""

    def __init__(self, page):
        self.touch = page.context.new_cdp_session(page)

    def press(self, locator) -> None:
        locator.scroll_into_view_if_needed()
        box = locator.bounding_box()
        point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        self.touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})

    def lift(self) -> None:
        self.touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_typed_card_counts_count(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    start_game(page, server, ["Ann", "Bob"])
    page.click("label.pill:text-is('Ann')")
    page.locator(".seat-1 summary").click()
    page.fill("#low-1", "6")
    page.fill("#high-1", "3")
    page.fill("#wilds-1", "1")
    if js:  # the running total fills in Points
        expect(page.locator("#count-total-1")).to_have_text("85")
        expect(page.locator("#points-1")).to_have_value("85")
    page.click("button:has-text('Save')")
    expect(score_of(page, "Bob")).to_have_text("85")


def test_counts_and_points_that_disagree_are_refused_at_the_field(phone_without_js, server):
    page = phone_without_js
    start_game(page, server, ["Ann", "Bob"])
    page.click("label.pill:text-is('Ann')")
    page.locator(".seat-1 summary").click()
    page.fill("#low-1", "10")
    page.fill("#points-1", "60")
    page.click("button:has-text('Save')")
    expect(page.locator("#live-1 .field-error")).to_contain_text("add up to 50 points, not 60")
    expect(page.locator("#points-1")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#points-1")).to_have_attribute("aria-describedby", "points-1-error")
    expect(page.locator("#low-1")).to_have_value("10")
    expect(page.locator(".status")).to_contain_text("Hand 1")


def test_super_wild_games_count_super_wilds_and_super_skips(phone, server):
    phone.goto(f"{server}/new")
    phone.fill("#player-0", "Ann")
    phone.fill("#player-1", "Bob")
    phone.check("input[name=profile][value=super-wild]")
    phone.click("text=Start the game")
    phone.click("label.pill:text-is('Ann')")
    phone.locator(".seat-1 summary").click()
    phone.fill("#low-1", "8")
    phone.locator("button[data-for='super_wilds-1'][data-step='1']").click()
    phone.locator("button[data-for='super_skips-1'][data-step='1']").click()
    expect(phone.locator("#count-total-1")).to_have_text(str(8 * 5 + 50 + 25))
    phone.click("button:has-text('Save')")
    expect(score_of(phone, "Bob")).to_have_text("115")


def test_taps_on_plus_count_when_a_message_comes_or_goes_under_the_thumb(phone, server):
    """The check answers while a thumb is on +, adding or removing a message above the
    steppers: the + stays under the thumb and the tap counts (it used to move, and the
    tap was lost: the flaky super-wild test above, 65 instead of 115)."""
    start_game(phone, server, ["Ann", "Bob"])
    with phone.expect_response("**/hands/check"):
        phone.click("label.pill:text-is('Ann')")
    phone.locator(".seat-1 summary").click()
    checks, thumb = SlowChecks(phone), Thumb(phone)
    with phone.expect_request("**/hands/check"):
        phone.fill("#low-1", "9")  # 45 points: Bob made his phase, so 9 cards is too many
    thumb.press(phone.locator("button[data-for='high-1'][data-step='1']"))
    checks.answer()
    expect(phone.locator("#live-1")).to_contain_text("cards left, not 9")  # a message comes
    checks.hold()
    thumb.lift()
    expect(phone.locator("#count-total-1")).to_have_text(str(9 * 5 + 10))
    thumb.press(phone.locator("button[data-for='wilds-1'][data-step='1']"))
    checks.answer()
    expect(phone.locator("#hand-check")).to_contain_text("fits the rules")  # and goes
    expect(phone.locator("#live-1")).to_be_empty()
    thumb.lift()
    expect(phone.locator("#count-total-1")).to_have_text(str(9 * 5 + 10 + 25))
    expect(phone.locator("#points-1")).to_have_value("80")


def test_a_tap_on_the_next_points_box_counts_when_a_message_comes_under_it(phone, server):
    """Bob's 20 points bring a message above Cy's box just as the thumb taps it: the box
    stays under the thumb, so Cy's points go in Cy's box."""
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    with phone.expect_response("**/hands/check"):
        phone.click("label.pill:text-is('Ann')")
    checks, thumb = SlowChecks(phone), Thumb(phone)
    with phone.expect_request("**/hands/check"):
        phone.fill("#points-1", "20")
    thumb.press(phone.locator("#points-2"))
    checks.answer()
    expect(phone.locator("#live-1")).to_contain_text("Bob will be marked")
    thumb.lift()
    phone.keyboard.type("60")
    expect(phone.locator("#points-2")).to_have_value("60")
    expect(phone.locator("#points-1")).to_have_value("20")


def test_a_failed_players_cards_take_fewer_than_11_actions(phone, server):
    """Ten cards left (6 low, 3 high, a Wild): typed into the stepper boxes, not ten taps."""
    start_game(phone, server, ["Ann", "Bob"])
    phone.click("label.pill:text-is('Ann')")
    thumb = Counted(phone)
    thumb.tap(".seat-1 summary")
    for field, count in (("low", "6"), ("high", "3"), ("wilds", "1")):
        thumb.tap(f"#{field}-1")
        thumb.type(count)
    expect(phone.locator("#points-1")).to_have_value("85")
    assert thumb.actions < 11
    phone.click("button:has-text('Save')")
    expect(score_of(phone, "Bob")).to_have_text("85")


def test_the_live_check_says_who_will_be_marked_beside_them(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    phone.click("label.pill:text-is('Ann')")
    phone.fill("#points-1", "20")
    expect(phone.locator("#live-1")).to_contain_text("Bob will be marked as having made")
    phone.fill("#points-1", "60")
    expect(phone.locator("#live-1")).not_to_contain_text("will be marked")


def test_live_messages_show_at_the_field_and_above_save(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    phone.click("label.pill:text-is('Ann')")
    phone.fill("#points-2", "47")
    expect(phone.locator("#live-2 .field-error")).to_contain_text("47 is not a multiple of 5")
    expect(phone.locator("#hand-check")).to_contain_text("47 is not a multiple of 5")
    summary = phone.locator("#hand-check").bounding_box()
    save = phone.locator("button:has-text('Save hand')").bounding_box()
    assert summary["y"] + summary["height"] <= save["y"]
    points = phone.locator("#points-2")  # marked for screen readers, described by the message
    expect(points).to_have_attribute("aria-invalid", "true")
    expect(points).to_have_attribute("aria-describedby", "points-2-error")
    expect(phone.locator("#points-2-error")).to_contain_text("47 is not a multiple of 5")
    phone.fill("#points-2", "45")
    expect(phone.locator("#live-2 .field-error")).to_have_count(0)
    expect(points).not_to_have_attribute("aria-invalid", "true")
    expect(phone.locator("[aria-invalid]")).to_have_count(0)


def test_the_fix_form_checks_as_you_type(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    enter_hand(phone, "Ann", {"1": "50", "2": "20"})
    open_fix(phone, 1)
    phone.fill("#points-1", "47")
    expect(phone.locator("#live-1 .field-error")).to_contain_text("47 is not a multiple of 5")
    phone.fill("#points-1", "55")
    expect(phone.locator("#hand-check")).to_contain_text("fits the rules")


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_changing_who_went_out_drops_the_old_made_tick(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    start_game(page, server, ["Ann", "Bob"])
    enter_hand(page, "Ann", {"1": "50"})
    page.get_by_role("link", name="Fix hand 1").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    page.click("label.pill:text-is('Bob')")
    expect(page.locator("input[name=made-0]")).not_to_be_checked()
    page.fill("#points-0", "50")
    page.click("button:has-text('Save the correction')")
    ann = page.locator("#scoreboard li.player", has_text="Ann")
    expect(ann.locator(".phase")).to_contain_text("Phase 1")
    expect(score_of(page, "Ann")).to_have_text("50")


def test_a_four_player_hand_takes_at_most_12_taps_and_keys(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy", "Dee"])
    thumb = Counted(phone)
    thumb.tap("label.pill:text-is('Bob')")
    for seat, total in (("0", "25"), ("2", "50"), ("3", "85")):
        thumb.tap(f"#points-{seat}")
        thumb.type(total)
    thumb.tap("button:has-text('Save hand 1')")
    expect(phone.locator(".status")).to_contain_text("Hand 2")
    expect(score_of(phone, "Dee")).to_have_text("85")
    assert thumb.actions <= 12


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_the_end_of_the_game_ranks_players_winner_first(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    start_game(page, server, ["Ann", "Bob", "Cy"], first="2")
    enter_hand(page, "Ann", {"1": "50", "2": "20"})  # Cy makes phase 1, Bob does not
    expect(page.locator(".status")).to_contain_text("Hand 2")  # saved before the next
    enter_hand(page, "Ann", {"1": "55", "2": "60"})  # Ann makes phase 2 and wins
    expect(page.locator(".winner")).to_contain_text("Ann wins!")
    names = page.locator("#scoreboard li.player .name")
    expect(names).to_have_text(
        [re.compile(r"1st\s+Ann"), re.compile(r"2nd\s+Cy"), re.compile(r"3rd\s+Bob")]
    )


def test_save_stays_under_the_thumb_when_the_check_adds_messages(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    phone.click("label.pill:text-is('Ann')")
    save = phone.locator("button:has-text('Save hand 1')")
    phone.fill("#points-2", "60")
    expect(phone.locator("#hand-check")).not_to_contain_text("47")
    save.scroll_into_view_if_needed()
    before = save.bounding_box()["y"]
    phone.fill("#points-1", "47")  # two messages appear above Save
    expect(phone.locator("#hand-check")).to_contain_text("47 is not a multiple of 5")
    assert abs(save.bounding_box()["y"] - before) < 2


def test_enter_in_a_points_field_goes_to_the_next_field_not_to_the_server(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    sent: list[str] = []
    phone.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    phone.click("label.pill:text-is('Ann')")
    phone.fill("#points-1", "4")
    phone.press("#points-1", "Enter")  # half-typed: Bob's 45 is not finished
    expect(phone.locator("#points-2")).to_be_focused()
    phone.keyboard.type("20")
    phone.keyboard.press("Enter")  # the last field: on to Save, not yet saved
    expect(phone.locator("form.hand-form button[type=submit]")).to_be_focused()
    assert not [url for url in sent if url.endswith("/hands")]
    expect(phone.locator("#refused")).to_have_count(0)  # no refused Save, its red reasons
    phone.fill("#points-1", "45")
    phone.click("form.hand-form button[type=submit]")
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 saved")
    expect(score_of(phone, "Bob")).to_have_text("45")

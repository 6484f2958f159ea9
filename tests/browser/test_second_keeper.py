"""A second scorekeeper: the form knows which hand it holds, and the page follows the game
when it ends on the other phone."""

from __future__ import annotations

from pages import PHONE, enter_hand, open_fix, open_page, settled, start_game, stored_hands
from playwright.sync_api import expect


def _top(locator) -> float:
    return locator.evaluate("(el) => el.getBoundingClientRect().top")


def test_a_hand_typed_while_another_phone_saved_it_moves_to_the_next_hand_in_one_tap(
    browser, server
):
    a = open_page(browser, server, **PHONE)
    start_game(a, server, ["Ann", "Bob", "Cy"])
    keeper_url = a.url
    b = open_page(browser, keeper_url, **PHONE)
    try:
        settled(a)
        a.click("label.pill:text-is('Cy')")
        a.fill("input[name=points-0]", "15")
        a.fill("input[name=points-1]", "60")
        enter_hand(b, "Ann", {"1": "20", "2": "60"})  # Bob makes phase 1 on the other phone
        box = a.locator("#record .alert.stale")
        expect(box).to_contain_text("Hand 1 was just saved on another phone")
        expect(box).to_contain_text("What you typed is kept above")
        assert _top(box) > _top(a.locator("input[name=points-1]"))  # it is above indeed
        # no Save for a hand that is no longer next
        expect(a.locator("#record form.hand-form button[type=submit]")).to_be_hidden()

        a.click("button:has-text('Move it to hand 2')")
        expect(a.locator("#record-heading")).to_have_text("Record hand 2")
        expect(a.locator("#record fieldset.seat-1 legend")).to_contain_text("phase 2")
        for seat, typed in (("0", "15"), ("1", "60")):
            field = a.locator(f"input[name=points-{seat}]")
            expect(field).to_have_value(typed)
            expect(field).to_have_class("moved")
        expect(a.locator("#out-2")).to_be_checked()
        moved = a.locator("#record .notice.moved")
        expect(moved).to_contain_text("typed for hand 1 and are now in hand 2")
        save = a.locator("#record form.hand-form button[type=submit]")
        expect(save).to_have_text("Save hand 2")
        save.click()
        expect(a.locator("#scoreboard .status")).to_contain_text("Hand 3")
        hands = stored_hands(keeper_url)
        assert len(hands) == 2 and hands[1]["went_out"] == "Cy"
        assert hands[1]["points"] == {"Ann": 15, "Bob": 60}
    finally:
        for page in (a, b):
            page.context.close()


def test_a_second_scorekeeper_gets_the_rematch_when_the_game_ends_on_the_other_phone(
    browser, server
):
    a = open_page(browser, server, **PHONE)
    start_game(a, server, ["Ann", "Bob"], first="2")
    keeper_url = a.url
    enter_hand(a, "Ann", {"1": "50"})
    b = open_page(browser, keeper_url, **PHONE)
    try:
        end_now = b.get_by_role("link", name="End the game now…")
        rematch = b.get_by_role("button", name="Rematch: same players, next dealer")
        expect(end_now).to_be_visible()
        expect(rematch).to_have_count(0)
        a.click("text=End the game now…")
        a.click("button:has-text('End the game:')")
        expect(a.locator("#scoreboard")).to_contain_text("Ann wins")
        # b taps nothing
        expect(b.locator("#scoreboard")).to_contain_text("Ann wins")
        expect(rematch).to_be_visible()
        expect(end_now).to_have_count(0)
        rematch.click()
        b.wait_for_url(lambda url: url != keeper_url)
        expect(b.locator("#record-heading")).to_have_text("Record hand 1")
        expect(a).to_have_url(b.url)  # the phone that ended the game follows by itself
        expect(a.locator("#record-heading")).to_have_text("Record hand 1")
    finally:
        for page in (a, b):
            page.context.close()


def _two_keepers_at_hand_2(browser, server):
    """Two scorekeepers' phones on a game of Ann, Bob and Chloé after hand 1 (Chloé made
    phase 1); the second has started typing hand 2, Ann going out."""
    a = open_page(browser, server, **PHONE)
    start_game(a, server, ["Ann", "Bob", "Chloé"])
    enter_hand(a, "Ann", {"1": "60", "2": "20"})
    expect(a.locator("#record-heading")).to_have_text("Record hand 2")
    b = open_page(browser, a.url, **PHONE)
    settled(b)
    b.click("label.pill:text-is('Ann')")
    return a, b


def test_an_out_of_date_form_is_checked_as_it_is_shown(browser, server):
    """Issue 41, finding 4: while its label still says "Chloé phase 2", 45 was refused as
    "not possible for someone who laid down phase 3" (the phase after the hand another phone
    saved). A form is judged against the hand it shows."""
    a, b = _two_keepers_at_hand_2(browser, server)
    try:
        b.fill("input[name=points-1]", "55")  # typing hand 2 here...
        enter_hand(a, "Ann", {"1": "55", "2": "25"})  # ...saved there: Chloé on phase 3 now
        expect(b.locator("#record .alert.stale")).to_contain_text("Hand 2 was just saved")
        label = b.locator("#record fieldset.seat-2 legend")
        expect(label).to_contain_text("phase 2")
        b.check("input[name=made-2]")
        with b.expect_response(lambda answer: answer.url.endswith("/hands/check")):
            b.fill("input[name=points-2]", "45")
        check = b.locator("#hand-check")
        expect(check).to_contain_text("This hand fits the rules")  # as hand 2 was
        expect(label).to_contain_text("phase 2")
        expect(check).not_to_contain_text("phase 3")
        b.click("button:has-text('Move it to hand 3')")  # moved on: judged as hand 3
        expect(b.locator("#record fieldset.seat-2 legend")).to_contain_text("phase 3")
        expect(b.locator("#hand-check")).to_contain_text("45 is not possible")
        expect(b.locator("#hand-check")).to_contain_text("phase 3")
    finally:
        for page in (a, b):
            page.context.close()


def test_a_fix_on_another_phone_relabels_the_form_being_typed(browser, server):
    """The other side of finding 4: a fix of an earlier hand on another phone changes the
    phase a player plays this hand on; the form being typed takes the new label (and keeps
    what was typed), so its verdict and its label name the same phase."""
    a, b = _two_keepers_at_hand_2(browser, server)
    try:
        b.fill("input[name=points-2]", "45")
        label = b.locator("#record fieldset.seat-2 legend")
        expect(label).to_contain_text("phase 2")
        open_fix(a, 1)
        settled(a)
        with a.expect_response(lambda answer: answer.url.endswith("/hands/1/check")):
            a.fill("input[name=points-2]", "60")  # 60 left: Chloé did not make phase 1 after all
        a.click("button:has-text('Save the correction')")
        expect(a.locator("[data-saved]")).to_contain_text("Hand 1 corrected")
        expect(label).to_contain_text("phase 1")
        expect(b.locator("input[name=points-2]")).to_have_value("45")
    finally:
        for page in (a, b):
            page.context.close()

"""Rating phase lists by Monte Carlo, and drawing random ones: seeded, so every run agrees."""

from __future__ import annotations

import random

import pytest

from scorekeeper import SOURCE, i18n
from scorekeeper.rules import exact, rating
from scorekeeper.rules.draw import building_blocks, draw_phases
from scorekeeper.rules.phases import (
    PLUS10_PHASES,
    SUPER_WILD_PHASE7,
    GroupKind,
    parse_phase,
    parse_phase_list,
)
from scorekeeper.rules.ruleset import OFFICIAL, make_rules

TRIALS = 300  # enough to tell the official list's easy phases from its hard ones


def rated(text: str, **kwargs):
    kwargs.setdefault("trials", TRIALS)
    return rating.rate(parse_phase_list(text), OFFICIAL, **kwargs)


def test_the_same_seed_gives_the_same_figures_and_another_seed_others():
    first = rated("2 sets of 3; run of 7; 7 of one colour", seed=5)
    assert first == rated("2 sets of 3; run of 7; 7 of one colour", seed=5)
    other = rated("2 sets of 3; run of 7; 7 of one colour", seed=6)
    assert [p.made for p in other.phases] != [p.made for p in first.phases]


def test_the_official_list_is_rated_easiest_first():
    found = rating.rate(OFFICIAL.phase_list, OFFICIAL, trials=TRIALS)
    chances = [p.chance for p in found.phases]
    assert chances == sorted(chances, reverse=True)
    assert sorted(p.number for p in found.phases) == list(range(1, 11))
    place = {p.number: i for i, p in enumerate(found.phases)}
    assert place[2] < place[1] < place[10]  # set of 3 + run of 4 beats 2 sets of 3, then 5 + 3
    assert place[7] >= 7  # 2 sets of 4: among the hardest three


def test_a_list_can_keep_its_own_order():
    found = rated("set of 5 + set of 3; run of 4", ordered=False)
    assert [p.number for p in found.phases] == [1, 2]
    assert found.phases[0].chance < found.phases[1].chance
    assert found.to_json()["order"] == "given"


def test_more_turns_make_a_phase_more_likely():
    dealt = rated("run of 7", turns=0).phases[0].chance
    drawn = rated("run of 7", turns=6).phases[0].chance
    assert dealt < drawn


def test_each_chance_comes_with_an_interval_around_it():
    for phase in rated("2 sets of 3; run of 9; set of 5 + set of 3").phases:
        low, high = phase.interval
        assert 0 <= low <= phase.chance <= high <= 1 and high - low < 0.15
        assert phase.trials == TRIALS and phase.made == round(phase.chance * TRIALS)


def test_the_list_average_is_the_mean_chance_with_its_own_interval():
    found = rated("2 sets of 3; run of 9")
    assert found.average == pytest.approx(sum(p.chance for p in found.phases) / 2)
    low, high = found.interval
    assert low < found.average < high


def test_a_phase_no_hand_can_hold_is_never_made_and_says_so():
    found = rated("2 sets of 3; run of 12", trials=20)
    big = next(p for p in found.phases if p.phase.min_cards == 12)
    assert big.too_big and big.made == 0 and big.interval == (0.0, 0.0)
    assert found.too_big == (big,)


def test_a_long_list_gets_fewer_trials_so_one_rating_stays_bounded():
    assert rating.trials_for(OFFICIAL.phase_list) == rating.DEFAULT_TRIALS
    assert rating.trials_for(PLUS10_PHASES[10:]) == rating.DEFAULT_TRIALS
    many = parse_phase_list("; ".join(["6 runs of 2"] * 30))
    assert rating.trials_for(many) * 6 * 30 <= rating.MAX_WORK
    assert rating.trials_for(parse_phase_list("run of 7"), 10**9) == rating.MAX_TRIALS


# Issue 32's worst case: with a Super Wild and no draws, every deal of colour-group phases is
# slow to judge. 1,000 deals of ten of them took 9.9 s; the official lists take 1/10 of that.
SLOW = parse_phase_list("; ".join(["3 x 2 of one colour + 2 runs of 2"] * 10))


@pytest.mark.exhaustive
def test_a_list_slow_to_judge_gets_fewer_deals_so_its_work_stays_bounded():
    found = rating.rate(SLOW, make_rules("super-wild"), turns=0, trials=1000)
    assert found.trials < 1000 and found.to_json()["trials"] == found.trials
    one_deal = found.steps / found.trials
    assert rating.MAX_STEPS <= found.steps < rating.MAX_STEPS + one_deal
    assert found.phases[0].trials == found.trials  # every figure over the deals made


@pytest.mark.exhaustive
def test_a_rating_cut_short_makes_the_same_deals_as_one_asked_for_that_many():
    cut = rating.rate(SLOW, make_rules("super-wild"), turns=0, trials=1000, ordered=False)
    assert cut.trials < 1000
    again = rating.rate(SLOW[:1], make_rules("super-wild"), turns=0, trials=cut.trials)
    assert again.trials == cut.trials and again.phases[0].made == cut.phases[0].made


@pytest.mark.exhaustive
@pytest.mark.parametrize(
    ("rules", "turns"), [("official", 5), ("official", 10), ("plus10", 10), ("super-wild", 10)]
)
def test_the_official_lists_get_every_deal_their_length_allows(rules, turns):
    own = make_rules(rules)
    found = rating.rate(own.phase_list, own, turns=turns, trials=1000)
    assert found.trials == rating.trials_for(own.phase_list, 1000)  # 1,000; Phase 10 + 10: 666
    assert found.steps < rating.MAX_STEPS


def test_the_games_own_deck_and_rules_are_used():
    super_wild = make_rules("super-wild")
    found = rating.rate((SUPER_WILD_PHASE7,), super_wild, trials=50)
    assert found.phases[0].made > 0
    per_phase = make_rules(options={"natural": "phase"})
    strict = rated("run of 9").phases[0].chance
    relaxed = rating.rate(parse_phase_list("run of 9"), per_phase, trials=TRIALS)
    assert relaxed.phases[0].chance >= strict


def test_the_figures_read_as_json():
    data = rated("2 sets of 3", trials=10, seed=3).to_json()
    assert data["turns"] == rating.DEFAULT_TURNS and data["trials"] == 10 and data["seed"] == 3
    assert data["phases"][0]["phase"] == "2 sets of 3"
    assert set(data["phases"][0]) == {
        "number",
        "phase",
        "chance",
        "interval",
        "made",
        "trials",
        "too_big",
    }


@pytest.mark.parametrize("turns", [-1, rating.MAX_TURNS + 1])
def test_turns_out_of_range_are_refused(turns):
    with pytest.raises(ValueError, match="turns"):
        rated("2 sets of 3", turns=turns)


# --- drawing a random list --------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_a_drawn_list_is_ten_different_phases_a_hand_can_make(seed):
    phases = draw_phases(random.Random(seed))
    assert len(phases) == len(set(phases)) == 10
    for phase in phases:
        assert 6 <= phase.min_cards <= 10
        assert parse_phase(phase.notation) == phase
        for group in phase.groups:
            low = 2 if group.kind is GroupKind.SET else 4
            assert low <= group.size <= {"set": 6, "run": 10, "colour": 9}[group.kind.value]
        sets = [g.size for g in phase.groups if g.kind is GroupKind.SET]
        assert sum(g.kind is GroupKind.COLOUR for g in phase.groups) <= 1
        assert sum(sets) <= 9 or set(sets) == {2}  # 5 sets of 2 is an official phase
        assert 2 not in sets or max(sets) >= 5 or set(sets) == {2}


def documented(layout) -> bool:
    """docs/rules.md's words for a random phase, read as a test: one of the official lists'
    shapes (two sets, a set and a run, three sets of 3, four or five sets of 2, one run, one
    colour group, a run and a colour group); sets of 3 to 6, or 2 beside a set of 5 or 6 (and
    in four or five sets of 2), runs of 4 to 10, colour groups of 4 to 9; 6 to 10 cards, at
    most 9 in sets but for five sets of 2."""
    sets = sorted((g.size for g in layout if g.kind is GroupKind.SET), reverse=True)
    runs = [g.size for g in layout if g.kind is GroupKind.RUN]
    colours = [g.size for g in layout if g.kind is GroupKind.COLOUR]
    shape = (len(sets), len(runs), len(colours))
    if sets in ([3, 3, 3], [2] * 4, [2] * 5):
        return not runs and not colours
    if shape not in [(2, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (0, 1, 1)]:
        return False
    pairs_fit = 2 not in sets or (sets.count(2) == 1 and max(sets) >= 5)
    sizes_fit = (
        all(2 <= s <= 6 for s in sets)
        and all(4 <= r <= 10 for r in runs)
        and all(4 <= c <= 9 for c in colours)
    )
    cards = sum(sets) + sum(runs) + sum(colours)
    return pairs_fit and sizes_fit and 6 <= cards <= 10 and sum(sets) <= 9


def test_every_drawn_phase_is_of_a_kind_the_rules_page_names():
    drawn = [phase for seed in range(500) for phase in draw_phases(random.Random(seed))]
    assert [phase.notation for phase in drawn if not documented(phase.groups)] == []
    assert all(documented(layout) for layout in building_blocks())


def test_every_kind_the_rules_page_names_is_drawn():
    def shape(layout):
        kinds = sorted(g.kind.value for g in layout)
        return (tuple(kinds), tuple(sorted(g.size for g in layout)) if len(layout) > 2 else ())

    drawn = {
        shape(phase.groups) for seed in range(500) for phase in draw_phases(random.Random(seed))
    }
    assert drawn == {
        (("set", "set"), ()),
        (("run", "set"), ()),
        (("set", "set", "set"), (3, 3, 3)),
        (("set", "set", "set", "set"), (2, 2, 2, 2)),
        (("set", "set", "set", "set", "set"), (2, 2, 2, 2, 2)),
        (("run",), ()),
        (("colour",), ()),
        (("colour", "run"), ()),
    }


def test_a_seed_draws_the_same_list_again():
    assert draw_phases(random.Random(7)) == draw_phases(random.Random(7))
    assert draw_phases(random.Random(7)) != draw_phases(random.Random(8))


def test_the_building_blocks_hold_every_shape_of_the_official_lists():
    def shape(layout):  # the groups, whatever order they are written in
        return sorted((spec.kind.value, spec.size) for spec in layout)

    blocks = [shape(layout) for layout in building_blocks()]
    shapes = [*PLUS10_PHASES, SUPER_WILD_PHASE7]
    official = [layout for phase in shapes for layout in phase.layouts]
    assert not [layout for layout in official if shape(layout) not in blocks]


# --- the rules page's table of the official list --------------------------------------


@pytest.fixture(scope="module")
def drawn_five():
    return rating.rate(OFFICIAL.phase_list, OFFICIAL, turns=5, ordered=False)


def odds_section(lang: str) -> str:
    name = "rules.md" if lang == "en" else f"rules.{lang}.md"
    page = (SOURCE / "docs" / name).read_text(encoding="utf-8")
    return page.split("{#phase-odds}", 1)[1].split("\n#", 1)[0]


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_the_rules_page_gives_the_official_list_exact_as_dealt_and_estimated_after_drawing(
    drawn_five, lang
):
    """docs/rules*.md: each phase's 10 dealt cards counted exactly (exact.OFFICIAL_DEALT,
    which tests/test_exact.py counts again), and 10 dealt + 5 drawn as the engine estimates."""
    section = odds_section(lang)
    dealt = exact.OFFICIAL_DEALT
    with i18n.using(lang):

        def estimate(chance, interval):
            low, high = interval
            return f"{i18n.percent(chance)} ({i18n.percent(low)}–{i18n.percent(high)})"

        for b in drawn_five.phases:
            row = f"| {b.number} | {b.phase} | {i18n.exact_percent(dealt[b.number])} | "
            assert row + f"{estimate(b.chance, b.interval)} |" in section, row
        average = sum(dealt.values()) / len(dealt)
        row = (
            f"{i18n.exact_percent(average)} | {estimate(drawn_five.average, drawn_five.interval)} |"
        )
        assert row in section


def test_the_rules_page_and_readme_say_what_the_estimate_deals():
    """10 dealt + 5 drawn with nothing discarded: a hand of 15, never "a few turns of drawing"."""
    readme = " ".join((SOURCE / "README.md").read_text(encoding="utf-8").split())
    assert "few turns" not in readme
    assert "the 10 dealt cards and the cards drawn" in readme and "nothing discarded" in readme
    section = " ".join(odds_section("en").split())
    assert "10 dealt + 5 drawn, nothing discarded" in section and "a hand of 15 cards" in section
    assert "counted exactly" in section

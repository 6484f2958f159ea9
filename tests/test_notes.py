"""A change's history line: stored as facts, said in the language of whoever reads it."""

from __future__ import annotations

import pytest

from scorekeeper import i18n
from scorekeeper.store import change_notes


def test_a_recorded_hand_reads_in_every_language():
    stored = change_notes.note("record", number=3, went_out="Ann", made=["Ann", "Cy"])
    assert change_notes.words(stored) == "Hand 3: Ann went out; made: Ann, Cy"
    with i18n.using("de"):
        assert (
            change_notes.words(stored) == "Runde 3: Ann ist rausgegangen; Phase geschafft: Ann, Cy"
        )
    with i18n.using("es"):
        assert change_notes.words(stored) == "Ronda 3: cerró Ann; fase completada: Ann, Cy"


def test_nobody_made_their_phase_is_said_as_a_word_not_left_blank():
    stored = change_notes.note("record", number=1, went_out="Ann", made=[])
    with i18n.using("de"):
        assert (
            change_notes.words(stored) == "Runde 1: Ann ist rausgegangen; Phase geschafft: niemand"
        )


def test_a_correction_names_each_change_with_the_phase_tried():
    changes = [
        {"went_out": ["Ann", "Bob"]},
        {"player": "Cy", "was": [15, True, 4], "now": [65, False, 4]},
        {"player": "Eli", "was": [None, False, None], "now": [10, True, None]},
    ]
    stored = change_notes.note("correct", number=2, changes=changes)
    assert change_notes.words(stored) == (
        "Hand 2 corrected: went out Ann → Bob; Cy 15 (phase 4) ✓ → 65 (phase 4); Eli – → 10 ✓"
    )
    with i18n.using("es"):
        assert change_notes.words(stored) == (
            "Ronda 2 corregida: cerró Ann → Bob; Cy 15 (fase 4) ✓ → 65 (fase 4); Eli – → 10 ✓"
        )


def test_an_undo_of_an_undo_reads_each_step_in_the_readers_language():
    hand = change_notes.note("delete", number=4, went_out="Bob", tiebreak=False)
    twice = change_notes.note("undo", undone=change_notes.note("undo", undone=hand))
    with i18n.using("de"):
        assert change_notes.words(twice) == (
            "Rückgängig gemacht: Rückgängig gemacht: Runde 4 gelöscht (Bob war rausgegangen)"
        )


def test_an_undo_of_a_line_saved_as_words_keeps_those_words():
    stored = change_notes.note("undo", undone="Hand 3: Eli went out; made: Eli")
    with i18n.using("es"):
        assert change_notes.words(stored) == "Deshecho: Hand 3: Eli went out; made: Eli"


@pytest.mark.parametrize(
    "stored",
    [
        "Hand 3: Eli went out; made: Eli",  # saved before notes existed
        '{"note": broken',
        '{"note":"record","number":1}',  # facts missing
        '{"note":"from-a-later-version","x":1}',
    ],
)
def test_a_line_that_is_not_a_note_this_version_reads_is_shown_as_stored(stored):
    assert change_notes.words(stored) == stored


def test_names_with_quotes_and_accents_survive_the_round_trip():
    stored = change_notes.note("tiebreak", went_out='Zoë "Z" Ñúñez')
    assert change_notes.read(stored) == {"note": "tiebreak", "went_out": 'Zoë "Z" Ñúñez'}
    assert change_notes.words(stored) == 'Tiebreak hand: Zoë "Z" Ñúñez went out'

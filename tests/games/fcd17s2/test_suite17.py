"""2017 edition: a student's own ``testGame.c`` graded (``grader.core.suite`` with ``grader.games.fcd17s2.suite``).

The targets are the 2017 model, its accepted readings and its mutants (fixtures/fcd17s2/submissions); the two
bundled test programs (fixtures/fcd17s2/student_tests) are graded for real.  The default run grades them
against a part of the targets (the readings the good program is most exposed to, and mutants from every rule
area); the whole of it, every target, is ``slow``.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from grader.core.config import MarkingConfig, SuiteMarking
from grader.core.gamespec import GameSpec
from grader.core.suite.judge import SuiteResult
from grader.core.suite.stage import grade_tests
from grader.core.suite.targets import Targets
from grader.games import get
from grader.games.fcd17s2.suite import SUBMISSIONS, suite_targets, variant_lists

ROOT = Path(__file__).resolve().parents[3]
STUDENT_TESTS = ROOT / "fixtures" / "fcd17s2" / "student_tests"
GAME = get("fcd17s2")
CONFIG = MarkingConfig.load(game=GAME)
_MARKING = CONFIG.suite_marking
assert _MARKING is not None
MARKING: SuiteMarking = _MARKING

# The readings where a test program that asserts the reference's answer goes wrong most easily: combined takes
# B6, B8, B16, B17, B29, B35, B44 and B54 at once; B36, B42, B45, B46, B53 and B55 change what is seen after a
# DECLARE, a C chain, a call-out, on turn 0 and at the end.
SOME_READINGS = ("combined", "b22_penalty_from_the_run", "b36_declaration_for_one_turn", "b42_final_count_only",
                 "b45_end_after_penalised_call", "b46_no_call_on_turn_0", "b53_turn_closed_at_the_end",
                 "b55_over_when_nothing_left")
# One mutant from each rule area, and which function of good/testGame.c catches it (asserts_little, only the
# first: its numCards(g) == 30 sees 30 - 29 = 1 cards).
SOME_MUTANTS = {
    "num_cards_is_draw_pile": "testNewGame",  # numCards(game) == 42
    "deal_in_blocks": "testNewGame",  # the points 51, 40, 61, 50 of the hands dealt one card at a time
    "negative_modulo": "testDirection",  # player 0's B: (0 - 1) % 4 is -1, not seat 3
    "skipped_player_gets_a_turn_number": "testDirection",  # turn 3, not 4, after player 2's A
    "continue_lasts_the_turn": "testContinue",  # no discard after 4GH, the C three discards before notwithstanding
    "declaration_lasts_forever": "testDeclare",  # green means nothing once 0YQ covers the D
    "stacked_twos_owe_two": "testDrawTwo",  # 2 on 2: four cards owed, END_TURN not valid after two
    "call_out_judged_by_hand_size": "testCallOuts",  # player 0 claimed TRIO: the call costs the caller
    "recycle_newest_first": "testRecycling",  # the first discard comes back first (a hidden mutant)
    "no_winner_never_declared": "testRecycling",  # nothing left to draw: NO_WINNER
    "end_turn_after_the_win": "testWinning",  # no END_TURN once the last card is down
}


def _some(targets: Targets) -> Targets:
    return dataclasses.replace(targets, readings=tuple(r for r in targets.readings if r.name in SOME_READINGS),
                               mutants=tuple(m for m in targets.mutants if m.name in SOME_MUTANTS))


def _graded(name: str, game: GameSpec) -> SuiteResult:
    result = grade_tests(STUDENT_TESTS / name, game, CONFIG)
    assert result is not None
    return result


@pytest.fixture(scope="module")
def graded_on_some() -> dict[str, SuiteResult]:
    some = _some(suite_targets())
    game = dataclasses.replace(GAME, suite_targets=lambda: some)
    return {name: _graded(name, game) for name in ("good", "asserts_little")}


# --- the targets --------------------------------------------------------------------------------------------------

def test_the_targets_are_the_model_every_reading_and_every_mutant_a_test_can_see() -> None:
    """readings.py lists 20 readings, mutants.py 56 mutants, two of them only the memory stage sees (a leak and a
    copied card): 54 targets to catch, each a folder of the fixtures with its Game.c."""
    mutants, readings = variant_lists()
    assert GAME.suite_targets is not None
    targets = GAME.suite_targets()
    assert targets is suite_targets() and targets.test_file == "testGame.c"
    assert targets.model.folder == SUBMISSIONS / "model" and targets.model.correct
    assert [r.name for r in targets.readings] == [r.name for r in readings] and len(readings) == 20
    assert len(mutants) == 56 and len(targets.mutants) == 54
    assert {m.name for m in mutants} - {m.name for m in targets.mutants} == {"destroy_leaks_cards", "drawn_card_copied"}
    for target in targets.all():
        assert (target.folder / "Game.c").is_file(), target.name
    b44 = next(r for r in targets.readings if r.name == "b44_wrong_call_costs_two")
    assert b44.rules == ("B44",) and b44.says == "a wrong call-out costs the caller 2 cards"


def test_loading_the_tables_leaves_the_import_system_as_it_was() -> None:
    """The tables put the 2018 generator's folder on sys.path and import ``variants``: lent for the load only."""
    path, had_variants = list(sys.path), "variants" in sys.modules
    variant_lists()
    assert sys.path == path and ("variants" in sys.modules) == had_variants


def test_the_marking_file_marks_the_tests_apart_and_hides_six_mutants() -> None:
    assert (MARKING.validity_marks, MARKING.thoroughness_marks, MARKING.gate, MARKING.hang_is_caught) == \
        (5.0, 15.0, False, True)
    assert len(MARKING.hidden_mutants) == 6
    assert MARKING.hidden_mutants <= {m.name for m in suite_targets().mutants}
    assert "testing" not in CONFIG.unused and "players" not in CONFIG.unused


# --- the bundled test programs, on a part of the targets -----------------------------------------------------------

def test_the_good_program_is_valid_on_the_readings_and_catches_each_mutant_where_it_should(
        graded_on_some: dict[str, SuiteResult]) -> None:
    good = graded_on_some["good"]
    assert good.valid, (good.invalid, good.problems)
    assert {m.name: m.caught for m in good.mutants} == dict.fromkeys(SOME_MUTANTS, True)
    for m in good.mutants:
        assert SOME_MUTANTS[m.name] in m.functions or m.by == [m.outcome], (m.name, m.functions, m.by)
    assert [m.name for m in good.mutants if m.hidden] == ["recycle_newest_first"]
    assert (good.validity_marks, good.thoroughness_marks) == (5.0, 15.0)
    assert good.notes == []  # the same every run


def test_a_program_asserting_little_is_valid_but_catches_one_mutant(graded_on_some: dict[str, SuiteResult]) -> None:
    """1 of the 11: thoroughness 15 * 1 / 11 = 1.36.  The rules never checked: those the ten missed visible
    mutants break (mutants.py), not the hidden recycle_newest_first's (S20, B54)."""
    little = graded_on_some["asserts_little"]
    assert little.valid
    assert [m.name for m in little.mutants if m.caught] == ["num_cards_is_draw_pile"]
    assert [c for m in little.mutants for c in m.by] == ["testGame.c:13"]
    assert (little.validity_marks, little.thoroughness_marks) == (5.0, 1.36)
    assert set(little.rules_never_checked()) == {"S2", "B2", "S5", "B28", "B26", "B50", "S9", "B14", "S15", "B36",
                                                 "S11", "B22", "B42", "S21", "B55", "B53"}


# --- the whole: every reading, every mutant ---------------------------------------------------------------------

@pytest.mark.slow
def test_graded_against_every_target() -> None:
    """good: valid on the model and all 20 readings, 53 of 53 caught: 5 + 15 = 20.  asserts_little: valid,
    1 of 53 caught: 5 + 15 / 53 = 5.28."""
    good, little = _graded("good", GAME), _graded("asserts_little", GAME)
    assert good.valid, (good.invalid, good.problems)
    assert (len(good.mutants), good.caught, good.score) == (53, 53, 20.0)
    assert sum(m.hidden for m in good.mutants) == 6
    assert little.valid and [m.name for m in little.mutants if m.caught] == ["num_cards_is_draw_pile"]
    assert (little.caught, little.score) == (1, 5.28)

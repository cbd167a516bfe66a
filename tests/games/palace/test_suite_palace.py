"""A Palace student's own test program (``testPalace.c``) graded by the core (``grader.core.suite``) against
Palace's targets (``grader.games.palace.suite``), and Palace's marks for its tests and its player.

The bundled programs (fixtures/palace/student_tests) are run once each: ``good`` inside a whole ``grade`` of a
submission (the model beside it: the testing stage on every target), ``assumes_a_reading`` on the correct
implementations only."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from grader.core.config import MarkingConfig
from grader.core.grade import grade
from grader.core.results import SubmissionResult
from grader.core.suite.judge import SuiteResult, judge
from grader.core.suite.run import SuiteBuild
from grader.core.suite.targets import Targets
from grader.games import get
from grader.games.palace.bots import BOTS
from grader.games.palace.suite import SUBMISSIONS, variant_lists

ROOT = Path(__file__).resolve().parents[3]
STUDENT_TESTS = ROOT / "fixtures" / "palace" / "student_tests"
GAME = get("palace")
CONFIG = MarkingConfig.load(game=GAME)
MARKING = CONFIG.suite_marking
TARGETS = GAME.suite_targets() if GAME.suite_targets is not None else None
MEMORY_ONLY = {"destroy_leaks_burnt", "use_after_free"}  # mutants.py's caught_by="memory": no test can fail on them


def _targets() -> Targets:
    assert TARGETS is not None
    return TARGETS


# --- the targets and the marking configuration ----------------------------------------------------------

def test_the_targets_are_the_model_the_readings_and_the_mutants_a_test_can_see() -> None:
    before, path_before = sys.modules.get("variants"), list(sys.path)  # (another test module may have its own)
    targets = _targets()
    mutants, readings = variant_lists()
    assert targets.test_file == "testPalace.c" and targets.model.folder == SUBMISSIONS / "model"
    assert [r.name for r in targets.readings] == [r.name for r in readings] and len(readings) == 17
    assert {m.name for m in mutants} - {m.name for m in targets.mutants} == MEMORY_ONLY
    assert len(targets.mutants) == 47
    # a check failing on a reading is told the question its ruling leaves open (grader.core.suite.judge)
    named = {rule for r in targets.readings for rule in r.rules}
    assert len(named) == 15 and all(GAME.rulings[rule].question.endswith("?") for rule in named)
    c13 = next(r for r in targets.readings if r.name == "c13_take_empty_pile")
    assert c13.rules == ("C13",) and c13.says == "PICK_UP_PILE is valid on an empty pile (a way to pass)"
    for target in targets.all():  # each built as a submission is: Palace.c and PalaceCard.c
        assert (target.folder / "Palace.c").is_file() and (target.folder / "PalaceCard.c").is_file(), target.name
    # the tables were read with the 2018 generator lent, and nothing of it left behind
    assert sys.modules.get("variants") is before and sys.path == path_before


def test_the_tests_and_the_player_are_marked_apart_from_the_implementation_s_100() -> None:
    assert MARKING is not None
    assert (MARKING.validity_marks, MARKING.thoroughness_marks, MARKING.gate, MARKING.hang_is_caught) == (
        5.0, 15.0, False, True)
    assert MARKING.hidden_mutants <= {m.name for m in _targets().mutants} and len(MARKING.hidden_mutants) == 6
    assert CONFIG.implementation_total() == 100 and CONFIG.warnings() == []
    # the qualification reads legal and beats_<baseline> for each of its baselines: Palace's are named so
    assert CONFIG.players_marks() == {"legal": 4.0, "beats_random": 3.0, "beats_greedy": 3.0}
    assert {"random", "greedy"} <= set(BOTS)


# --- the bundled programs, graded for real ----------------------------------------------------------------

@pytest.fixture(scope="module")
def graded_good(tmp_path_factory: pytest.TempPathFactory) -> SubmissionResult:
    """The model handed in with the good test program: only the build and the testing stage (no scenarios, no
    random games, no memory stage, no player)."""
    folder = tmp_path_factory.mktemp("good") / "sub"
    shutil.copytree(SUBMISSIONS / "model", folder)
    shutil.copyfile(STUDENT_TESTS / "good" / "testPalace.c", folder / "testPalace.c")
    return grade(folder, game=GAME, scenarios=(), random_games=0, memory=False, players=False)


def _judged(folder: Path, targets: Targets) -> SuiteResult:
    """``folder``'s test program run on ``targets`` and judged, as the testing stage does with them all."""
    assert MARKING is not None
    with SuiteBuild(folder, GAME, targets, run_seconds=MARKING.run_seconds, memory_mb=CONFIG.limits.memory_mb,
                    cpu_seconds=CONFIG.limits.cpu) as build:
        assert build.program.ok, build.program.output
        return judge(targets, build.run_all(list(targets.all())), MARKING, GAME.rulings)


@pytest.fixture(scope="module")
def assumes_a_reading() -> SuiteResult:
    """Run on the correct implementations only (its validity is the point; the good program's grade runs the
    mutants), which keeps it to 18 runs."""
    targets = _targets()
    return _judged(STUDENT_TESTS / "assumes_a_reading", Targets(targets.test_file, targets.model, targets.readings, ()))


def test_the_good_program_is_valid_on_the_model_and_every_reading(graded_good: SubmissionResult) -> None:
    suite = graded_good.suite
    assert suite is not None and suite.test_file == "testPalace.c" and suite.compiled
    assert suite.valid and not suite.invalid and not suite.problems and not suite.notes, (
        suite.invalid, suite.problems, suite.notes)
    assert (suite.validity_marks, suite.validity_max) == (5.0, 5.0)


def test_the_good_program_catches_every_mutant(graded_good: SubmissionResult) -> None:
    """Worked out by running it: each mutant's bug shows in a game of the program (one function per rule area,
    decks chosen so that each rule's case arises), so every one of the 47 is caught, the hidden ones too."""
    suite = graded_good.suite
    assert suite is not None and MARKING is not None
    assert [m.name for m in suite.mutants if not m.caught] == []
    assert [m.name for m in suite.mutants] == [m.name for m in _targets().mutants]
    assert {m.name for m in suite.mutants if m.hidden} == MARKING.hidden_mutants
    assert (suite.thoroughness_marks, suite.thoroughness_max, suite.score, suite.max_score) == (15.0, 15.0, 20.0, 20.0)
    # each caught by a check of its own rule area: a few, by the function that checks that rule
    by = {m.name: m.functions for m in suite.mutants}
    assert "testPickUp" in by["draw_after_pickup"] and "testSevenLower" in by["ten_on_seven"]
    assert "testMirrorThree" in by["mirror_three_real_in_runs"] and "testFourOfAKind" in by["run_exactly_four"]
    assert "testFaceDownAndWin" in by["no_winner_on_bomb"] and "testDealAndSetup" in by["choose_any_count"]
    assert suite.rules_never_checked() == []


def test_the_implementation_s_marks_are_left_alone(graded_good: SubmissionResult) -> None:
    assert graded_good.build_ok and graded_good.score == graded_good.max_score == CONFIG.marks("build")


def test_a_program_assuming_one_reading_of_c13_is_invalid_and_c13_is_named(assumes_a_reading: SuiteResult) -> None:
    result = assumes_a_reading
    assert [(c.key, c.detail) for c in result.invalid] == [("testPalace.c:42", "!isValidMove(g, take)")]
    check = result.invalid[0]
    assert check.failed_on == ["c13_take_empty_pile", "combined"] and check.function == "testNoPickUpOnAnEmptyPile"
    assert "it assumes one answer to C13 (May a player take an empty pile?)" in check.why
    assert '"allowed as a pass" is correct too' in check.why
    assert not result.valid and result.validity_marks == 0 and not result.problems


# A check assuming the reference's side of C40's open part (junk in a field PICK_UP_PILE ignores is accepted)
ASSUMES_C40 = r'''
#include <assert.h>
#include <stddef.h>
#include "Palace.h"
int main(void) {
    rank ranks[19] = {NINE, FOUR, FIVE, THREE, SIX, FIVE, KING, QUEEN, KING, QUEEN, KING, QUEEN,
                      ACE, JACK, ACE, JACK, ACE, JACK, FOUR};
    suit suits[19] = {HEARTS, SPADES, HEARTS, SPADES, HEARTS, CLUBS, HEARTS, HEARTS, DIAMONDS, DIAMONDS,
                      CLUBS, CLUBS, HEARTS, HEARTS, DIAMONDS, DIAMONDS, CLUBS, CLUBS, CLUBS};
    Game g = newGame(2, 19, ranks, suits, RULES_BASIC);
    for (int seat = 0; seat < 2; seat++) {
        playerMove up = {CHOOSE_FACE_UP, 3, {handCard(g, 3), handCard(g, 4), handCard(g, 5)}, 0};
        playMove(g, up);
    }
    playerMove take = {PICK_UP_PILE, 0, {NULL}, 7};
    assert(isValidMove(g, take));
    destroyGame(g);
    return 0;
}
'''


def test_a_check_assuming_the_open_part_of_a_one_reading_ruling_names_it(tmp_path: Path) -> None:
    (tmp_path / "testPalace.c").write_text(ASSUMES_C40)
    targets = _targets()
    c40 = next(r for r in targets.readings if r.name == "c40_junk_rejected")
    result = _judged(tmp_path, Targets(targets.test_file, targets.model, (c40,), ()))
    assert [(c.key, c.failed_on) for c in result.invalid] == [("testPalace.c:16", ["c40_junk_rejected"])]
    assert "C40 (Is a move with junk in the fields its action ignores valid?)" in result.invalid[0].why
    assert "answers otherwise is correct too" in result.invalid[0].why  # C40 lists one reading: the rest is open


def test_the_models_own_test_program_is_valid_on_every_reading() -> None:
    """Issue 45: the bundled model's ``testPalace.c`` asserted one answer to C9 (one card drawn after a pair), so
    the grader judged the course's own tests invalid; it now plays so that every C9 reading agrees."""
    targets = _targets()
    suite = _judged(SUBMISSIONS / "model", Targets(targets.test_file, targets.model, targets.readings, ()))
    assert suite.valid and not suite.invalid and not suite.problems, (suite.invalid, suite.problems)

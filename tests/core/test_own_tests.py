"""Grading the students' own tests (``grader.core.suite``): the recorder linked into a test program, the
judgement (valid? which mutants caught?) worked out on hand-made runs, each bundled student-style
``testGame.c`` (fixtures/student_tests) graded for real, and the reports that show it."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.core.config import MarkingConfig, SuiteMarking
from grader.core.results import result_from_json
from grader.core.suite.judge import SuiteResult, judge
from grader.core.suite.run import Check, Run, SuiteBuild
from grader.core.suite.stage import grade_tests
from grader.core.suite.targets import MODEL, MUTANT, READING, Target, Targets
from grader.games import get
from reference.rulings import BY_ID

ROOT = Path(__file__).resolve().parents[2]
STUDENT_TESTS = ROOT / "fixtures" / "student_tests"
MODEL_DIR = ROOT / "fixtures" / "submissions" / "model"
GAME = get("fcd18s2")
CONFIG = MarkingConfig.load(game=GAME)
MARKING = CONFIG.suite_marking
N_MUTANTS = len(GAME.suite_targets().mutants)  # every mutant but the memory-only one


# --- the recorder: what a run of a test program records --------------------------------------------

RECORDER_TEST = r'''
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "Game.h"
#define CHECK(x) do { if (!(x)) { fprintf(stderr, "check failed: %s\n", #x); exit(3); } } while (0)

static void first(void) {
    assert(1 + 1 == 3);
    assert(2 + 2 == 4);
    assert(numCards(NULL) == -12345 || 1);
}

static void second(void) {
    assert(time(NULL) == 1500000000);
    assert(0 && "the second failure of the run");
}

int main(void) {
    first();
    second();
    printf("carried on\n");
    CHECK(2 + 2 == 5);
    return 0;
}
'''


LIMITS = {"run_seconds": MARKING.run_seconds, "memory_mb": CONFIG.limits.memory_mb, "cpu_seconds": CONFIG.limits.cpu}


def _one_target() -> Targets:
    return Targets("testGame.c", Target("model", MODEL, MODEL_DIR), (), ())


def test_a_failed_assert_is_recorded_and_the_program_carries_on(tmp_path: Path) -> None:
    """Two failed asserts, each with its line, function and expression; time() answers the fixed instant; the
    program goes on to its own check macro, whose exit(3) is recorded with the line it was called from."""
    (tmp_path / "testGame.c").write_text(RECORDER_TEST.replace("numCards(NULL) == -12345 || 1", "1"))
    with SuiteBuild(tmp_path, GAME, _one_target(), **LIMITS) as build:
        assert build.program.ok, build.program.output
        run = build.run(build.targets.model)
    assert [(c.kind, c.key, c.function, c.detail) for c in run.checks] == [
        ("assert", "testGame.c:10", "first", "1 + 1 == 3"),
        ("assert", "testGame.c:17", "second", '0 && "the second failure of the run"'),
        ("exit", "testGame.c:24", "main", "exit(3)"),
    ]
    assert run.stdout == "carried on\n" and "check failed: 2 + 2 == 5" in run.stderr
    assert run.exit_code == 3 and run.outcome == "failed checks"


def test_abort_is_recorded_where_it_was_called_and_a_crash_is_a_crash(tmp_path: Path) -> None:
    (tmp_path / "testGame.c").write_text(
        '#include <stdlib.h>\n#include "Game.h"\nstatic void giveUp(void) {\n    abort();\n}\n'
        'int main(void) {\n    giveUp();\n    return 0;\n}\n')
    with SuiteBuild(tmp_path, GAME, _one_target(), **LIMITS) as build:
        run = build.run(build.targets.model)
    assert [(c.kind, c.key, c.function) for c in run.checks] == [("abort", "testGame.c:4", "giveUp")]
    assert run.outcome == "failed checks"  # an abort() of the test's own is a failed check, not a crash
    (tmp_path / "testGame.c").write_text(
        '#include <stddef.h>\n#include "Game.h"\nint main(void) {\n    return numCards(NULL);\n}\n')
    with SuiteBuild(tmp_path, GAME, _one_target(), **LIMITS) as build:
        run = build.run(build.targets.model)
    assert run.checks == [] and run.outcome == "crashed (signal 11)"


# --- the judgement, on hand-made runs --------------------------------------------------------------

def _target(name: str, kind: str, rules: tuple[str, ...] = (), says: str = "") -> Target:
    return Target(name, kind, MODEL_DIR, rules, says)


TARGETS = Targets("testGame.c", _target("model", MODEL),
                  (_target("a1_play_after_draw", READING, ("A1",), "may play a matching card after drawing"),),
                  (_target("skip_ignored", MUTANT, ("R8",), "an A does not skip anyone"),
                   _target("d_is_wild", MUTANT, ("A19",), "a D may be played on anything"),
                   _target("loops", MUTANT, ("R4",), "loops"),
                   _target("crashes", MUTANT, ("R2",), "crashes"),
                   _target("aborts_itself", MUTANT, ("R3",), "the implementation calls abort()")))


def _run(name: str, *checks: tuple[str, int], **kw: object) -> Run:
    return Run(name, built=True, checks=[Check("assert", "testGame.c", line, fn, f"x{line}") for fn, line in checks],
               **kw)


def _marking(**kw: object) -> SuiteMarking:
    base = dict(validity_marks=5.0, thoroughness_marks=15.0, gate=False, hang_is_caught=True, run_seconds=5.0,
                hidden_mutants=frozenset({"d_is_wild"}))
    return SuiteMarking(**{**base, **kw})


RUNS = {
    "model": _run("model"),
    "a1_play_after_draw": _run("a1_play_after_draw", ("testDraw", 30)),  # asserts the reference's A1
    "skip_ignored": _run("skip_ignored", ("testSkip", 40), ("testDraw", 30)),
    "d_is_wild": _run("d_is_wild", ("testDraw", 30)),  # only the invalid check fails: not caught
    "loops": _run("loops", timed_out=True),
    "crashes": _run("crashes", signal=11),
    "aborts_itself": Run("aborts_itself", built=True, signal=6),  # the implementation's abort(): no check
}


def test_a_check_that_fails_on_a_reading_is_invalid_and_catches_nothing() -> None:
    result = judge(TARGETS, RUNS, _marking(), BY_ID)
    assert [(c.key, c.failed_on) for c in result.invalid] == [("testGame.c:30", ["a1_play_after_draw"])]
    assert "A1 (May a player play a card after drawing in the same turn?)" in result.invalid[0].why
    assert '"yes: draw, then play a matching card" is correct too' in result.invalid[0].why
    caught = {m.name: m.by for m in result.mutants if m.caught}
    assert caught == {"skip_ignored": ["testGame.c:40"], "loops": ["timed out"], "crashes": ["crashed (signal 11)"],
                      "aborts_itself": ["crashed (signal 6)"]}
    assert [m.functions for m in result.mutants if m.name == "skip_ignored"] == [["testSkip"]]
    assert not result.valid and result.validity_marks == 0
    assert result.thoroughness_marks == 12.0  # 4 of 5, not gated
    assert [m.hidden for m in result.mutants] == [False, True, False, False, False]
    assert result.rules_never_checked() == []  # A19's mutant is hidden: its rule is not told
    assert judge(TARGETS, RUNS, _marking(gate=True), BY_ID).thoroughness_marks == 0


def test_a_hang_counts_only_if_the_course_says_so_and_a_crash_only_where_the_model_did_not_crash() -> None:
    no_hangs = judge(TARGETS, RUNS, _marking(hang_is_caught=False), BY_ID)
    assert not next(m for m in no_hangs.mutants if m.name == "loops").caught
    crashing_model = {**RUNS, "model": _run("model", signal=11)}
    result = judge(TARGETS, crashing_model, _marking(), BY_ID)
    assert not next(m for m in result.mutants if m.name == "crashes").caught
    assert result.problems == ["on the model: crashed (signal 11)"] and not result.valid


def test_a_suite_result_round_trips_through_json() -> None:
    result = judge(TARGETS, RUNS, _marking(), BY_ID, model_again=_run("model", ("main", 9)))
    assert result.notes and "first run: passed; second run: 1 failed check(s): testGame.c:9" in result.notes[0]
    assert SuiteResult.from_json(json.loads(json.dumps(result.to_json()))) == result


# --- the bundled student-style test programs, graded for real --------------------------------------

@pytest.fixture(scope="module")
def graded() -> dict[str, SuiteResult]:
    out = {}
    for folder in sorted(p for p in STUDENT_TESTS.iterdir() if p.is_dir()):
        result = grade_tests(folder, GAME, CONFIG)
        assert result is not None
        out[folder.name] = result
    return out


def test_the_good_suite_is_valid_and_catches_most_mutants(graded: dict[str, SuiteResult]) -> None:
    good = graded["good"]
    assert good.valid, (good.invalid, good.problems)
    assert good.caught / len(good.mutants) >= 0.8, [m.name for m in good.mutants if not m.caught]
    assert good.score == pytest.approx(MARKING.validity_marks + MARKING.thoroughness_marks * good.caught /
                                       len(good.mutants), abs=0.01)
    assert len(good.mutants) == N_MUTANTS and sum(m.hidden for m in good.mutants) == len(MARKING.hidden_mutants)


def test_a_suite_assuming_one_reading_is_invalid_and_the_ruling_is_named(graded: dict[str, SuiteResult]) -> None:
    result = graded["assumes_a_reading"]
    assert [(c.key, c.detail) for c in result.invalid] == [("testGame.c:24", "!isValidMove(g, play)")]
    assert result.invalid[0].failed_on == ["a1_play_after_draw", "combined"]
    assert "A1" in result.invalid[0].why and result.validity_marks == 0


def test_a_suite_asserting_little_scores_little_and_lists_the_rules_never_checked(
        graded: dict[str, SuiteResult]) -> None:
    result = graded["asserts_little"]
    assert result.valid and result.caught == 0 and result.thoroughness_marks == 0
    assert {"R2", "R5", "R7", "R8", "R9", "R10", "R11", "R12"} <= set(result.rules_never_checked())


def test_a_suite_that_hangs_on_mutants_catches_them_by_hanging(graded: dict[str, SuiteResult]) -> None:
    result = graded["hangs_on_mutants"]
    assert result.valid
    by_hang = {m.name for m in result.mutants if m.by == ["timed out"]}
    assert by_hang == {"skip_ignored", "skip_skips_two"}


def test_a_suite_that_does_not_compile_gets_nothing_and_says_why(graded: dict[str, SuiteResult]) -> None:
    result = graded["does_not_compile"]
    assert not result.compiled and result.score == 0 and result.max_score == 20
    assert result.problem == "Your testGame.c does not compile." and "testGame.c:6" in result.compiler_output


# realistic_mess checks the deck counts after newGame (testGame.c:46): it catches the counts taken over the
# hands, and the totals malloc left unset (memory the grader's malloc fills with 0xa5, never with 0).
@pytest.mark.parametrize("name, caught", [("realistic_mess", {"counts_over_hands", "new_game_malloc_uninitialised"}),
                                          ("includes_game_c", {"deal_in_blocks"})])
def test_what_students_really_write_is_graded_like_anything_else(graded: dict[str, SuiteResult], name: str,
                                                                 caught: set[str]) -> None:
    """Printing a lot, reading stdin, srand(time(NULL)), player.h, a helper named like one of the model's
    static ones, exit(0) before its last check; or #include "Game.c"."""
    result = graded[name]
    assert result.valid and not result.notes, (result.invalid, result.problems, result.notes)
    assert {m.name for m in result.mutants if m.caught} == caught


def test_a_suite_that_is_not_repeatable_is_told_so(graded: dict[str, SuiteResult]) -> None:
    result = graded["not_repeatable"]
    assert len(result.notes) == 1 and "do not do the same thing every time" in result.notes[0]


# --- fcd-grade and its reports -----------------------------------------------------------------------

def _fcd_grade(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "grader.core.cli", *argv], capture_output=True, text=True,
                          timeout=600, check=False)


def test_a_test_program_that_does_not_compile_leaves_the_implementation_s_marks_alone(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    shutil.copytree(MODEL_DIR, sub)
    shutil.copyfile(STUDENT_TESTS / "does_not_compile" / "testGame.c", sub / "testGame.c")
    done = _fcd_grade(str(sub), "--out", str(tmp_path / "out"), "--random-games", "0", "--no-memory")
    assert done.returncode == 0, done.stderr  # the implementation passed everything
    result = result_from_json(json.loads((tmp_path / "out" / "result.json").read_text()))
    assert result.score == result.max_score == 75 and result.suite.score == 0
    assert "your tests     Your testGame.c does not compile." in done.stdout
    page = (tmp_path / "out" / "report.html").read_text()
    assert "Your tests (testGame.c): 0 / 20" in page and "does not change the marks of\nyour implementation" in page
    scored = json.loads((tmp_path / "out" / "results.json").read_text())
    assert scored["score"] == 75 and scored["max_score"] == 95


def test_the_reports_show_the_kill_matrix_and_hide_the_hidden_mutants(tmp_path: Path) -> None:
    root = tmp_path / "class"
    shutil.copytree(MODEL_DIR, root / "ann")
    shutil.copyfile(STUDENT_TESTS / "realistic_mess" / "testGame.c", root / "ann" / "testGame.c")
    done = _fcd_grade("batch", str(root), "--out", str(tmp_path / "out"), "--random-games", "0", "--no-memory")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    page = (out / "reports" / "ann" / "report.html").read_text()
    assert '<table class="kill-matrix">' in page and "<th><code>main</code></th>" in page
    row = page[page.index("<code>counts_over_hands</code></td>"):]
    assert row[:row.index("</tr>")].count("&#10003;") == 1  # caught by main's checks
    assert page.count("<em>hidden mutant ") == len(MARKING.hidden_mutants)
    assert not any(name in page for name in MARKING.hidden_mutants)
    assert "<strong>R8</strong>: an A does not skip anyone (<code>skip_ignored</code>)" in page
    assert "No test of yours checks <strong>R2, R3," in page
    junit = (out / "reports" / "ann" / "junit.xml").read_text()
    assert 'name="Final Card-Down (2018): ann: testGame.c"' in junit and "own_tests.catches_skip_ignored" in junit
    assert not any(name in junit for name in MARKING.hidden_mutants)
    rows = list(csv.DictReader((out / "kill_matrix.csv").read_text().splitlines()))
    assert len(rows) == N_MUTANTS and {r["mutant"] for r in rows if r["hidden"] == "yes"} == MARKING.hidden_mutants
    assert [(r["mutant"], r["caught_by"], r["test_functions"]) for r in rows if r["caught"] == "yes"] == [
        ("counts_over_hands", "testGame.c:46", "main"), ("new_game_malloc_uninitialised", "testGame.c:46", "main")]
    (line,) = csv.DictReader((out / "class.csv").read_text().splitlines())
    assert (line["tests_valid"], line["tests_caught"], line["tests_mutants"]) == ("yes", "2", str(N_MUTANTS))
    dashboard = (out / "dashboard.html").read_text()  # valid (5) and 2 of N_MUTANTS caught (2 * 15 / N_MUTANTS)
    marks = f"{5 + 2 * 15 / N_MUTANTS:.2f}"
    assert '<th class="sortable num">own tests</th>' in dashboard
    assert f'data-sort="{marks}">{marks} / 20</td>' in dashboard


def test_no_tests_skips_them(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    shutil.copytree(MODEL_DIR, sub)
    shutil.copyfile(STUDENT_TESTS / "asserts_little" / "testGame.c", sub / "testGame.c")
    _fcd_grade(str(sub), "--out", str(tmp_path / "out"), "--random-games", "0", "--no-memory", "--no-tests")
    assert json.loads((tmp_path / "out" / "result.json").read_text())["suite"] is None

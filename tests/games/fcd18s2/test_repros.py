"""The repro programs reproduce (issue #34): a failing test's C program, built with the submission it was
written for, fails where the grader failed (the same step, a crash, a hang); built with the model or any
accepted reading, it passes.  The grader's verdicts are the expected values here; the C programs are what
is tested (``tests/reproducing.py`` builds them all at once).

In CI: every mutant, on the scenarios of its own rules (one of its failures each); the whole of it (every
failing test of every stage, random games too) is ``-m slow``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grader.core.config import MarkingConfig
from grader.core.grade import grade
from grader.core.results import SubmissionResult, Verdict
from grader.core.results import TestResult as Result
from grader.games.fcd.compare import parse_step_runs, step_runs
from grader.games.fcd18s2.repro import write_repros
from grader.games.fcd18s2.sandbox.interface import INCLUDE_DIR
from grader.games.fcd18s2.scenarios import load_scenarios
from grader.games.fcd18s2.session import Fcd18Session

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
sys.path.insert(0, str(SUBMISSIONS))
sys.path.insert(0, str(ROOT / "tests"))
from mutants import MUTANTS, READINGS  # noqa: E402
from reproducing import compile_programs, link_with, mismatches, run_program, sources_of  # noqa: E402
from test_mutants import failing_scenarios  # noqa: E402

SCENARIOS = load_scenarios()
COURSE = ("Game.c", "Card.c")
PER_MUTANT = 1  # failures of each mutant whose repros CI builds (the slow run: all of them)


def repros_of(folder: Path, tests: list[Result], out: Path) -> list[tuple[Result, Path]]:
    """The repro programs of ``tests`` (the failing ones of ``folder``), written as the reports write them."""
    result = SubmissionResult(folder.name, "", True, "", [], [], tests)
    written = write_repros(result, out / folder.name)
    return [(t, out / folder.name / written[t.id]) for t in tests if t.id in written]


def own_failures(folder: Path, rules: tuple[str, ...]) -> list[Result]:
    """The scenarios of these rules that the submission fails (test_mutants.py has run them all: the same run)."""
    return [r for r in failing_scenarios(folder) if set(r.rules) & set(rules) and not r.hidden]


def test_every_mutants_repros_fail_where_the_grader_failed_and_pass_on_the_model_and_readings(tmp_path: Path) -> None:
    failing = {}
    for m in (m for m in MUTANTS if m.caught_by == "scenarios"):
        folder = SUBMISSIONS / "mutants" / m.name
        failing[folder] = repros_of(folder, own_failures(folder, m.rules)[:PER_MUTANT], tmp_path / "repro")
    assert sum(map(len, failing.values())) >= 40
    passing = [SUBMISSIONS / "model", *(SUBMISSIONS / "readings" / r.name for r in READINGS)]
    assert mismatches(failing, passing, INCLUDE_DIR, COURSE, tmp_path / "build") == []


def test_a_copied_card_fails_its_repro_on_identity(tmp_path: Path) -> None:
    """A46: the bundled mutant that hands out copies fails the identity tests; their programs say so (they
    once printed "All checks passed" on it)."""
    folder = SUBMISSIONS / "mutants" / "cards_copied_on_draw"
    tests = own_failures(folder, ("A46",))
    assert tests and all(t.failed_on == "identity" for t in tests)
    pairs = repros_of(folder, tests, tmp_path / "repro")
    objects = compile_programs([p for _t, p in pairs], INCLUDE_DIR, tmp_path / "objects")
    exe = link_with(objects, sources_of(folder, INCLUDE_DIR, COURSE), INCLUDE_DIR, tmp_path / "exe")
    for i, (t, _p) in enumerate(pairs):
        outcome = run_program(exe, i)
        assert outcome.failed_after == t.failed_after and "the same Card pointer" in outcome.text, (t.id, outcome)


def test_a_hanging_call_stops_its_repro_and_is_named(model_copy: Path, tmp_path: Path) -> None:
    """A draw that never returns: the grader times the test out; its repro stops itself (an alarm) and names
    the call in progress and the move."""
    game_c = model_copy / "Game.c"
    text = game_c.read_text()
    start = "void playMove(Game game, playerMove move) {\n"
    game_c.write_text(text.replace(start, start + "    while (move.action == DRAW_CARD) {}\n", 1))
    scenario = next(s for s in SCENARIOS if any(str(m) == "draw" for m in s.moves) and "R7" in s.rules)
    with Fcd18Session.open(model_copy) as session:
        test = session.run_scenario(scenario)
    assert test.verdict is Verdict.TIMED_OUT
    (_t, program), = repros_of(model_copy, [test], tmp_path / "repro")
    exe = tmp_path / "repro_exe"
    subprocess.run(["gcc", "-std=gnu11", "-DHANG_SECONDS=1", "-I", str(program.parent), "-o", str(exe), str(program),
                    str(game_c), str(model_copy / "Card.c")], check=True)
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
    first_draw = next(i for i, m in enumerate(scenario.moves) if str(m) == "draw")
    assert done.returncode == 3
    assert f"DID NOT RETURN within 1 seconds: playMove(draw), after move {first_draw}" in done.stdout


@pytest.mark.slow
def test_every_failing_tests_repro_of_every_stage(tmp_path: Path) -> None:
    """The whole of it: each mutant graded in full (scenarios, random games, memory), every failing test
    that played a game; against the mutant, the model and every reading."""
    failing = {}
    for m in MUTANTS:
        folder = SUBMISSIONS / "mutants" / m.name
        result = grade(folder, MarkingConfig.load())
        tests = [t for t in result.tests if t.verdict.family == "fail" and t.deck and not t.hidden]
        failing[folder] = repros_of(folder, tests, tmp_path / "repro")
    passing = [SUBMISSIONS / "model", *(SUBMISSIONS / "readings" / r.name for r in READINGS)]
    assert mismatches(failing, passing, INCLUDE_DIR, COURSE, tmp_path / "build") == []


def test_two_bugs_each_tests_repro_fails_at_its_own_difference(tmp_path: Path) -> None:
    """A submission with two bugs: each failing test's program checks only what that test saw agree before
    its own difference (the other bug's differences are left unchecked where the grader judged around them),
    so it fails where the report says, not at the other bug's first difference."""
    failing = {}
    for name in ("deal_in_blocks+declared_colour_ignored", "skip_skips_two+recycle_newest_first"):
        folder = SUBMISSIONS / "pairs" / name
        with Fcd18Session.open(folder) as session:
            tests = [r for r in (session.run_scenario(s) for s in SCENARIOS) if r.verdict.family == "fail"
                     and not r.hidden]
        assert any(t.differed for t in tests)  # differences another test owns, before the failure
        failing[folder] = repros_of(folder, tests[::3], tmp_path / "repro")
    assert mismatches(failing, [SUBMISSIONS / "model"], INCLUDE_DIR, COURSE, tmp_path / "build") == []


def test_steps_written_short_read_back() -> None:
    assert step_runs([7, 0, 1, 2, 3, 9, 10]) == "0-3,7,9-10"
    assert parse_step_runs("0-3,7,9-10") == {0, 1, 2, 3, 7, 9, 10}
    assert step_runs([]) == "" and parse_step_runs("") == frozenset()

"""The scenario suite bites: every mutant fails, the model and every accepted reading pass.

A mutant is the model with one realistic student bug; a reading is the model
taking another reading that a LENIENT ruling allows (the grader must never
mark it down).  Both are listed in fixtures/submissions/mutants.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader.memcheck import run_memory_stage
from grader.scenarios import load_scenarios
from grader.session import SubmissionSession

SUBMISSIONS = Path(__file__).resolve().parent.parent / "fixtures" / "submissions"
sys.path.insert(0, str(SUBMISSIONS))
from mutants import MUTANTS, READINGS  # noqa: E402
from variants import make_mutant  # noqa: E402

SCENARIOS = load_scenarios()


def failing_scenarios(folder: Path) -> list:
    with SubmissionSession.open(folder) as session:
        assert session.build.ok, session.build.output
        return [r for r in (session.run_scenario(s) for s in SCENARIOS) if not r.passed]


def test_model_fails_no_scenario() -> None:
    assert failing_scenarios(SUBMISSIONS / "model") == []


@pytest.mark.parametrize("mutant", [m for m in MUTANTS if m.caught_by == "scenarios"], ids=lambda m: m.name)
def test_every_mutant_fails_a_scenario(mutant) -> None:  # noqa: ANN001
    failures = failing_scenarios(SUBMISSIONS / "mutants" / mutant.name)
    assert failures, f"no scenario catches {mutant.name}: {mutant.says}"
    first = failures[0]
    assert first.message and "Traceback" not in first.message


@pytest.mark.parametrize("reading", READINGS, ids=lambda m: m.name)
def test_every_accepted_reading_passes(reading) -> None:  # noqa: ANN001
    failures = failing_scenarios(SUBMISSIONS / "readings" / reading.name)
    assert failures == [], failures[0].message if failures else ""


def test_mutant_folders_are_what_mutants_py_makes(tmp_path: Path) -> None:
    for kind, items in (("mutants", MUTANTS), ("readings", READINGS)):
        for m in items:
            make_mutant(m, tmp_path / kind / m.name)
            for f in (tmp_path / kind / m.name).iterdir():
                assert f.read_text() == (SUBMISSIONS / kind / m.name / f.name).read_text(), (
                    f"{kind}/{m.name} is stale: run python fixtures/submissions/variants.py")


def test_a_wrong_result_message_reads_well() -> None:
    with SubmissionSession.open(SUBMISSIONS / "mutants" / "stacking_not_accumulating") as session:
        scenario = next(s for s in SCENARIOS if s.id == "draw_two/two_stacked_means_draw_four")
        result = session.run_scenario(scenario)
    text = result.message
    assert text.startswith("Rule (R7, A7): A 2 played on an active 2 passes the penalty on")
    assert "turn 0, player 0: 2GH end" in text and "turn 1, player 1: 2BH" in text
    assert "getActiveDrawTwos()" in text and "expected: 2" in text and "got:      1" in text
    assert "State before that move (reference):" in text


def test_memory_stage_finds_the_leak_and_the_use_after_free() -> None:
    recycle = [s for s in SCENARIOS if s.group == "recycling"]
    with SubmissionSession.open(SUBMISSIONS / "mutants" / "leak_in_destroy") as session:
        errors, leaks = run_memory_stage(session, recycle[:2])
    assert errors.passed and not leaks.passed
    assert "destroyGame after" in leaks.message and "leaked" in leaks.message
    assert recycle[0].id in leaks.message
    with SubmissionSession.open(SUBMISSIONS / "mutants" / "use_after_free_in_recycle") as session:
        errors, _ = run_memory_stage(session, recycle[:2])
    assert not errors.passed
    assert "heap-use-after-free" in errors.message
    assert "playMove(draw)" in errors.message and recycle[0].id in errors.message
    with SubmissionSession.open(SUBMISSIONS / "model") as session:
        assert all(t.passed for t in run_memory_stage(session, recycle))

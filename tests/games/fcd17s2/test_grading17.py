"""The 2017 edition graded on the shared pipeline: its scenarios, its model, its mutants, its readings.

The scenarios (fixtures/fcd17s2/scenarios) are hand-worked rule cases; their
expectations are checked against the 2017 reference, so the suite tests the
oracle too.  Every STRICT clause of rules-17s2.md has one, each scenario judges
something (its clauses govern an observation of the 2017 table), the 2017 model
fails none, every mutant fails a scenario of its own rules and costs little
elsewhere (one bug, one deduction), and every accepted reading passes them all.
"""

from __future__ import annotations

import importlib.util
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from grader.core.config import MarkingConfig
from grader.core.results import Verdict
from grader.games import get
from grader.games.fcd.focus import focus_of
from grader.games.fcd.reference_trace import reference_trace
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.observations import TABLE
from grader.games.fcd17s2.scenarios import check_expectation, load_scenarios
from grader.games.fcd17s2.session import Fcd17Session
from reference.fcd17s2 import STRICT_IDS

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "fcd17s2" / "submissions"
SCENARIOS = load_scenarios()
GAME = get("fcd17s2")


def _load(name: str, path: Path) -> object:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MUTANTS = _load("fcd17s2_make_mutants", SUBMISSIONS / "make_mutants.py").load_mutants()
READINGS = sorted(p.name for p in (SUBMISSIONS / "readings").iterdir() if (p / "Game.c").exists())

# Clauses no scenario can check: B1 (which headers: the build's test), S26 (playMove of an invalid move: B58,
# never tested), S27 and S28 (the player AI, the course).
NOT_SCENARIO_CLAUSES = {"B1", "S26", "S27", "S28"}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_each_scenario_s_hand_worked_expectations_agree_with_the_reference(scenario) -> None:  # noqa: ANN001
    trace = reference_trace(scenario.deck, scenario.moves, full_piles=True, edition=FCD17)
    problems = [f"after move {e.after}: {what}: expected {exp!r}, reference gave {got!r}"
                for e in scenario.expectations for what, exp, got in check_expectation(e.values, trace[e.after].obs)]
    assert scenario.expectations and not problems, f"{scenario.id} ({', '.join(scenario.rules)}):\n" + \
        "\n".join(problems)


def test_every_strict_clause_of_2017_has_a_scenario() -> None:
    """S1-S25 and every STRICT ruling (B-), but what no scenario can check, are named by some scenario."""
    named = {r for s in SCENARIOS for r in s.rules}
    wanted = ({f"S{i}" for i in range(1, 27)} | set(STRICT_IDS)) - NOT_SCENARIO_CLAUSES
    assert len(STRICT_IDS) == 45
    assert sorted(wanted - named) == []


def test_every_scenario_judges_an_observation_its_clauses_govern() -> None:
    """A scenario whose clauses govern nothing in the 2017 table could never fail."""
    idle = [s.id for s in SCENARIOS if not focus_of(s.rules, TABLE).names()]
    assert idle == []


def failing(folder: Path) -> list[tuple[str, str, str, str]]:
    """(scenario, group, verdict family, message) of the scenarios the submission fails or cannot judge."""
    with Fcd17Session.open(folder) as session:
        assert session.build.ok, session.build.output
        results = [session.run_scenario(s) for s in SCENARIOS]
    return [(r.id, r.group, "inconclusive" if r.verdict is Verdict.NOT_SHOWN else r.verdict.family, r.message)
            for r in results if r.verdict is not Verdict.PASSED]


def all_failing(folders: list[Path]) -> list[list[tuple[str, str, str, str]]]:
    with ProcessPoolExecutor(max_workers=2) as pool:
        return list(pool.map(failing, folders))


def test_the_2017_model_passes_every_scenario() -> None:
    assert failing(SUBMISSIONS / "model") == []


def test_every_accepted_reading_passes_every_scenario() -> None:
    """Every LENIENT ruling taken the other way (and all at once in 'combined') passes every scenario: the
    scenarios avoid what the rules leave open, and the comparison accepts what a reading changes."""
    assert "combined" in READINGS and len(READINGS) >= 20
    found = dict(zip(READINGS, all_failing([SUBMISSIONS / "readings" / name for name in READINGS])))
    assert {name: fails for name, fails in found.items() if fails} == {}


def _groups_of(rules: tuple[str, ...]) -> set[str]:
    return {s.group for s in SCENARIOS if set(rules) & set(s.rules)}


def _marks_lost(fails: list[tuple[str, str, str, str]]) -> dict[str, float]:
    """Marks lost per group (default 2017 marking): a group's marks shared among its scenarios by weight."""
    config = MarkingConfig.load(game=GAME)
    weight = {g: sum(s.weight for s in SCENARIOS if s.group == g) for g in {s.group for s in SCENARIOS}}
    by_id = {s.id: s for s in SCENARIOS}
    lost: dict[str, float] = {}
    for test_id, group, verdict, _message in fails:
        if verdict == "fail":
            lost[group] = lost.get(group, 0.0) + config.group_marks(group) * by_id[test_id].weight / weight[group]
    return lost


SCENARIO_MUTANTS = [m for m in MUTANTS if m.caught_by != "memory"]

# Bugs that show only past a point a LENIENT ruling leaves open: with every reading accepted no game
# reaches them (a scenario's moves are the reference's), so they are caught when a course makes that
# ruling strict (``test_a_bug_past_a_lenient_point_is_caught_when_the_course_makes_it_strict``).
PAST_A_LENIENT_POINT = {
    "draw_after_continue_unlimited": "B32",  # a second draw, after a draw after a CONTINUE (B32: may one draw?)
}


@pytest.fixture(scope="module")
def mutant_failures() -> dict[str, list[tuple[str, str, str, str]]]:
    """Every scenario mutant's failures, graded two at a time."""
    return dict(zip([m.name for m in SCENARIO_MUTANTS],
                    all_failing([SUBMISSIONS / "mutants" / m.name for m in SCENARIO_MUTANTS])))


@pytest.mark.parametrize("mutant", [m for m in SCENARIO_MUTANTS if m.name not in PAST_A_LENIENT_POINT],
                         ids=lambda m: m.name)
def test_every_mutant_fails_a_scenario_of_its_own_rules_and_costs_at_most_2_marks_elsewhere(
        mutant, mutant_failures) -> None:  # noqa: ANN001
    """One bug, one deduction: each mutant fails a scenario of a group that names its clauses; what it
    costs in the other groups (collateral) stays at or under 2 marks."""
    fails = mutant_failures[mutant.name]
    lost = _marks_lost(fails)
    own = _groups_of(mutant.rules)
    assert set(lost) & own, f"not caught by its own rules {mutant.rules}: lost {lost}"
    collateral = {g: round(v, 2) for g, v in lost.items() if g not in own}
    assert sum(collateral.values()) <= 2, f"collateral {collateral} (own groups {sorted(own)})"
    assert not any("Traceback" in message for *_, message in fails)


def _full_grade(folder: Path, config: Path | None = None) -> tuple[float, list[tuple[str, str]]]:
    """The score and the tests not passed, with the 2017 marking (``config`` over the default) and every stage."""
    from grader.core.grade import grade  # noqa: PLC0415

    result = grade(folder, MarkingConfig.load(config, game=GAME), game=GAME, own_tests=False)
    return result.score, [(t.id, t.verdict.value) for t in result.tests if t.verdict is not Verdict.PASSED]


@pytest.mark.parametrize(("name", "ruling"), sorted(PAST_A_LENIENT_POINT.items()))
def test_a_bug_past_a_lenient_point_is_caught_when_the_course_makes_it_strict(name: str, ruling: str,
                                                                              tmp_path: Path) -> None:
    """Full marks while every reading of ``ruling`` is accepted (no game gets past it); marks lost once the
    course holds students to the reference's reading, while the model keeps full marks."""
    strict = tmp_path / "strict.toml"
    strict.write_text(f'[rulings]\nstrict = ["{ruling}"]\nprofile = "strict {ruling}"\n')
    assert _full_grade(SUBMISSIONS / "mutants" / name) == (100.0, [])
    score, failed = _full_grade(SUBMISSIONS / "mutants" / name, strict)
    assert score < 100 and failed and all(verdict == "wrong result" for _id, verdict in failed)
    assert _full_grade(SUBMISSIONS / "model", strict) == (100.0, [])


@pytest.mark.slow  # (CI's budget; the default run keeps every reading on every scenario, and the stop's
# ``bench/marks_snapshot.py --games --check`` grades every reading with the full profile)
def test_the_model_and_every_reading_get_full_marks_with_the_full_profile() -> None:
    """Scenarios, random games and the memory stage: 100/100 for the model and for every LENIENT ruling taken
    the other way."""
    folders = [SUBMISSIONS / "model"] + [SUBMISSIONS / "readings" / name for name in READINGS]
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = dict(zip([f.name for f in folders], pool.map(_full_grade, folders)))
    assert {name: r for name, r in results.items() if r != (100.0, [])} == {}


def test_fcd_grade_edition_17s2_names_the_edition_and_profile_in_every_report(tmp_path: Path) -> None:
    """``--edition 17s2`` grades against the 2017 rules, and every report says so, with the rulings profile."""
    import json  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import xml.etree.ElementTree as ET  # noqa: PLC0415

    out = tmp_path / "report"
    run = subprocess.run([sys.executable, "-m", "grader.core.cli", str(SUBMISSIONS / "mutants" / "advance_ignored"),
                          "--edition", "17s2", "--out", str(out), "--random-games", "0", "--no-memory"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr  # a failing submission, graded: not a grader fault
    assert "Final Card-Down (2017) grader" in run.stdout and "rulings profile: lenient" in run.stdout
    gradescope = json.loads((out / "results.json").read_text())
    assert "Graded as Final Card-Down (2017)." in gradescope["output"] and "Rulings profile: lenient." in \
        gradescope["output"]
    props = {p.get("name"): p.get("value") for p in ET.parse(out / "junit.xml").iter("property")}
    assert props["game"] == "Final Card-Down (2017)" and props["profile"] == "lenient"
    assert "graded as <strong>Final Card-Down (2017)</strong>" in (out / "report.html").read_text()
    assert json.loads((out / "result.json").read_text())["game"] == "Final Card-Down (2017)"
    failed = [t["id"] for t in json.loads((out / "result.json").read_text())["tests"] if t["verdict"] != "passed"]
    assert "advance/advance_skips_the_next_player" in failed

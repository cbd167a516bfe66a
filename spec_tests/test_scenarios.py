"""Every scenario of fixtures/scenarios, one test each, grouped by rule file."""

from __future__ import annotations

import pytest

from grader.games.fcd18s2.reference_trace import reference_trace
from grader.games.fcd18s2.scenarios import Scenario, check_expectation, load_scenarios

SCENARIOS = load_scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario: Scenario, submission_run) -> None:  # noqa: ANN001
    if submission_run is None:
        trace = reference_trace(scenario.deck, scenario.moves, full_piles=True)
        problems = [
            f"after move {e.after}: {what}: expected {exp!r}, reference gave {got!r}"
            for e in scenario.expectations
            for what, exp, got in check_expectation(e.values, trace[e.after].obs)
        ]
        assert not problems, f"{scenario.id} ({', '.join(scenario.rules)}):\n" + "\n".join(problems)
    else:
        verdict = submission_run(scenario)
        if not verdict.passed:
            pytest.fail(verdict.message, pytrace=False)

"""Every scenario of the chosen game (``--game``), one test each: on the reference, its hand-worked
expectations hold; with ``--submission DIR``, the submission passes it."""

from __future__ import annotations

from typing import Any

import pytest


def _reference_problems(game_name: str, scenario: Any) -> list[str]:
    if game_name == "palace":
        from grader.games.palace.scenarios import check_on_reference  # noqa: PLC0415

        return check_on_reference(scenario)
    from grader.games.fcd.reference_trace import reference_trace  # noqa: PLC0415
    from grader.games.fcd18s2.edition import FCD18  # noqa: PLC0415
    from grader.games.fcd18s2.scenarios import check_expectation  # noqa: PLC0415

    trace = reference_trace(scenario.deck, scenario.moves, edition=FCD18, full_piles=True)
    return [f"after move {e.after}: {what}: expected {exp!r}, reference gave {got!r}"
            for e in scenario.expectations for what, exp, got in check_expectation(e.values, trace[e.after].obs)]


def test_scenario(scenario: Any, game_name: str, submission_run) -> None:  # noqa: ANN001
    if submission_run is None:
        problems = _reference_problems(game_name, scenario)
        assert not problems, f"{scenario.id} ({', '.join(scenario.rules)}):\n" + "\n".join(problems)
    else:
        verdict = submission_run(scenario)
        if not verdict.passed:
            pytest.fail(verdict.message, pytrace=False)

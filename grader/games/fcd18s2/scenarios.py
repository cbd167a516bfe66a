"""The 2018 scenarios: the family's loader (``grader.games.fcd.scenarios``) with the 2018 edition and its
hand-worked scenario files (``fixtures/scenarios``)."""

from __future__ import annotations

from pathlib import Path

from grader.games.fcd import scenarios as family
from grader.games.fcd.sandbox.observe import Obs
from grader.games.fcd.scenarios import Scenario
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.observations import TABLE

SCENARIO_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "scenarios"

__all__ = ["Scenario", "load_scenarios", "check_expectation", "SCENARIO_DIR"]


def load_scenarios(directory: Path = SCENARIO_DIR) -> list[Scenario]:
    return family.load_scenarios(directory, FCD18)


def check_expectation(values: dict[str, object], obs: Obs) -> list[tuple[str, object, object]]:
    return family.check_expectation(values, obs, TABLE)

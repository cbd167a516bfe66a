"""The 2017 scenarios (fixtures/fcd17s2/scenarios/*.toml): the 2018 format and loader
(``grader.games.fcd.scenarios``) over the 2017 notation and observation table.

The expectation keys are the 2017 observations: ``current_player``,
``current_turn``, ``num_turns``, ``play_direction`` ("clockwise" /
"anticlockwise"), ``turn_moves``, ``past_moves`` (the previous turn's moves and
the current turn's, in the notation), ``top_discard``, ``hand``,
``card_counts``, ``points``, ``winner``, the deck counts, and ``valid`` /
``invalid`` (``draw``, ``end``, ``uno``, ``duo``, ``trio`` or a card).
"""

from __future__ import annotations

from pathlib import Path

from grader.games.fcd import scenarios as shared
from grader.games.fcd.sandbox.observe import Obs
from grader.games.fcd.scenarios import Scenario
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.observations import TABLE

SCENARIO_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "fcd17s2" / "scenarios"

__all__ = ["Scenario", "load_scenarios", "check_expectation", "SCENARIO_DIR"]


def load_scenarios(directory: Path = SCENARIO_DIR) -> list[Scenario]:
    return shared.load_scenarios(directory, FCD17)


def check_expectation(values: dict[str, object], obs: Obs) -> list[tuple[str, object, object]]:
    return shared.check_expectation(values, obs, TABLE)

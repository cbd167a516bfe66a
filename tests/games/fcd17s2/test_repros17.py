"""The 2017 repro programs reproduce (issue #34), as 2018's do (tests/games/fcd18s2/test_repros.py): a
failing test's C program, built with the submission it was written for, fails where the grader failed;
built with the 2017 model or any accepted reading, it passes.

In CI: a mutant of each kind of rule (the deal, the direction, the calls, the history, the end ...), on
the scenarios of its own rules; every mutant, every failing scenario, is ``-m slow``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from grader.core.results import SubmissionResult
from grader.core.results import TestResult as Result
from grader.games.fcd17s2.repro import write_repros
from grader.games.fcd17s2.sandbox.interface import INCLUDE_DIR
from grader.games.fcd17s2.scenarios import load_scenarios
from grader.games.fcd17s2.session import Fcd17Session

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "fcd17s2" / "submissions"
sys.path.insert(0, str(ROOT / "tests"))
from reproducing import mismatches  # noqa: E402


def _load(name: str, path: Path) -> ModuleType:
    """A fixtures table by its file (2018's tables are also called ``mutants``: one name, two modules)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MUTANTS = _load("fcd17s2_repro_make_mutants", SUBMISSIONS / "make_mutants.py").load_mutants()
READINGS = _load("fcd17s2_repro_make_readings", SUBMISSIONS / "make_readings.py").load_readings()

SCENARIOS = load_scenarios()
COURSE = ("Game.c", "Card.c")
SAMPLE = ("deal_in_blocks", "negative_modulo", "advance_ignored", "stacked_twos_owe_two", "declares_printed_colour",
          "claim_twice", "right_call_out_costs_four", "past_move_of_the_turn_before", "points_face_cards_ten",
          "recycle_newest_first", "win_only_at_end_turn")


def failing(folder: Path, rules: tuple[str, ...] | None, first: int | None, out: Path) -> list[tuple[Result, Path]]:
    """The scenarios of ``rules`` (None: every scenario) the submission fails (the ``first`` few), with their
    repro programs."""
    mine = [s for s in SCENARIOS if (rules is None or set(s.rules) & set(rules)) and not s.hidden]
    tests: list[Result] = []
    with Fcd17Session.open(folder) as session:
        for s in mine:
            r = session.run_scenario(s)
            if r.verdict.family == "fail":
                tests.append(r)
            if first is not None and len(tests) >= first:
                break
    written = write_repros(SubmissionResult(folder.name, "", True, "", [], [], tests), out / folder.name)
    return [(t, out / folder.name / written[t.id]) for t in tests if t.id in written]


def check(mutants: list, first: int | None, tmp_path: Path, own: bool = True) -> None:  # noqa: ANN001 - Mutant
    """``own``: on the scenarios of each mutant's rules, every one of which must fail one; else on every scenario
    (a mutant only the random games catch has none to show)."""
    found = {SUBMISSIONS / "mutants" / m.name: failing(SUBMISSIONS / "mutants" / m.name, m.rules if own else None,
                                                       first, tmp_path / "repro")
             for m in mutants}
    assert not own or all(found.values()), [f.name for f, pairs in found.items() if not pairs]
    assert sum(map(len, found.values())) >= len(mutants)
    passing = [SUBMISSIONS / "model", *(SUBMISSIONS / "readings" / r.name for r in READINGS)]
    assert mismatches(found, passing, INCLUDE_DIR, COURSE, tmp_path / "build") == []


def test_a_sample_of_2017_mutants_repros_fail_where_the_grader_failed(tmp_path: Path) -> None:
    check([m for m in MUTANTS if m.name in SAMPLE], 1, tmp_path)


@pytest.mark.slow
def test_every_2017_mutants_repros(tmp_path: Path) -> None:
    check([m for m in MUTANTS if m.caught_by == "scenarios"], None, tmp_path, own=False)

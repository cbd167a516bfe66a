"""Final Card-Down's stages after the scenarios: random games, then the memory stage.

Random games: a rule family a scenario already failed costs no second
deduction: the games judge around it (and it earns nothing there).  Memory stage:
each scenario is replayed natively under sanitizers as far as its test played it
(the same probes left out); a crash or hang its test was already charged for is
not charged again, and what shows only in scenarios that failed already is
charged to them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from grader.core.config import MarkingConfig
from grader.core.grade import guarded_many
from grader.core.results import TestResult
from grader.games.fcd.edition import G
from grader.games.fcd.scenarios import Scenario

if TYPE_CHECKING:
    from grader.games.fcd.session import FcdSession

# The scenarios played, each with its test's result (the core hands them back to the game).
Played = Sequence[tuple[Scenario, TestResult]]


def _timed(run: Callable[[], list[TestResult]]) -> list[TestResult]:
    """A stage's tests, its time shared among them (reports and benchmarks add up the seconds)."""
    start = time.monotonic()
    tests = run()
    for t in tests:
        t.seconds = (time.monotonic() - start) / len(tests)
    return tests


def later_stages(session: FcdSession[G], config: MarkingConfig, played: Played, *,
                 memory_stage: Callable[[FcdSession[G], Played], list[TestResult]],
                 random_games: int | None = None, memory: bool = True) -> Iterator[TestResult]:
    """The tests of the random games and the memory stage, as they come.  ``memory_stage``: the edition's
    (``grader.games.fcd18s2.memcheck.run_memory_stage``, ``grader.games.fcd17s2.memcheck.run_memory_stage17``)."""
    charged: dict[str, str] = {}  # what a scenario failed on (an observation, or ``crashes``) -> that test
    for _s, t in played:
        if t.rule_family and t.verdict.family == "fail":
            charged.setdefault(t.failed_on or "crashes", t.id)
    n_random = config.random_games if random_games is None else random_games
    if n_random:
        from grader.games.fcd.random_games import run_random_games  # noqa: PLC0415 - optional stage

        yield from _timed(lambda: guarded_many("random/games", "random", "random",
                                               lambda: run_random_games(session, n_random, charged=charged)))
    if memory:
        # Each scenario replayed as far as its test played it; what its test was charged is not charged again.
        yield from _timed(lambda: guarded_many("memory/replays", "memory", "memory",
                                               lambda: memory_stage(session, played)))

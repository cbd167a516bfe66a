"""Final Card-Down's stages after the scenarios: random games, then the memory stage.

Random games: a rule family a scenario already failed costs no second
deduction.  Memory stage: the scenarios whose game ran to an end in the worker
are replayed natively under sanitizers; those that timed out, lost the worker
or flooded the output are not (they could not show memory errors fairly), and
what shows only in scenarios that failed already is charged to them.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator, Sequence

from grader.core.config import MarkingConfig
from grader.core.grade import guarded_many
from grader.core.results import TestResult, Verdict

NOT_REPLAYED = (Verdict.TIMED_OUT, Verdict.WORKER_LOST, Verdict.OUTPUT)


def _timed(run: Callable[[], list[TestResult]]) -> list[TestResult]:
    """A stage's tests, its time shared among them (reports and benchmarks add up the seconds)."""
    start = time.monotonic()
    tests = run()
    for t in tests:
        t.seconds = (time.monotonic() - start) / len(tests)
    return tests


def later_stages(session: Any, config: MarkingConfig, played: Sequence[tuple[Any, TestResult]], *,
                 random_games: int | None = None, memory: bool = True,
                 memory_stage: Callable[..., list[TestResult]] | None = None) -> Iterator[TestResult]:
    """The tests of the random games and the memory stage, as they come.  ``memory_stage``: the edition's
    (2018's ``memcheck.run_memory_stage`` when not given; the 2017 edition passes its own)."""
    charged: dict[str, str] = {}
    for _s, t in played:
        if t.rule_family and t.verdict.family == "fail":
            charged.setdefault(t.rule_family, t.id)
    n_random = config.random_games if random_games is None else random_games
    if n_random:
        from grader.games.fcd18s2.random_games import run_random_games  # noqa: PLC0415 - optional stage

        for t in _timed(lambda: guarded_many("random/games", "random", "random",
                                               lambda: run_random_games(session, n_random))):
            if not t.passed and t.verdict is not Verdict.ERROR and t.rule_family in charged:
                t.charged_to = charged[t.rule_family]
                t.notes.append(f"Not counted again: {t.charged_to} already failed on this rule family.")
            yield t
    if memory:
        from grader.games.fcd18s2.memcheck import run_memory_stage  # noqa: PLC0415 - optional stage

        memory_stage = memory_stage or run_memory_stage

        replayable = [s for s, t in played if t.verdict not in NOT_REPLAYED]
        not_replayed = [s.id for s, t in played if t.verdict in NOT_REPLAYED]
        failed = [s.id for s, t in played if t.verdict.family == "fail"]
        yield from _timed(lambda: guarded_many("memory/replays", "memory", "memory",
                                               lambda: memory_stage(session, replayable, not_replayed, failed)))

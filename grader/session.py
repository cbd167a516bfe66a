"""One submission under test: built once, one worker, many games.

``SubmissionSession.open`` builds the submission (in the sandbox) and starts
its worker; ``run_scenario`` / ``run_game`` play one game on the reference
(here, in the trusted process) and on the submission (in the worker), and turn
what came back into a ``TestResult``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Sequence

from reference import Deck, MoveSpec

from .build import BuildResult, build
from .differential import FIELD_RULES, classify, compare, contested_moves, explain, moves_by_turn
from .reference_trace import reference_trace
from .results import Outcome, TestResult
from .scenarios import Scenario
from .worker_client import WorkerClient, WorkerLost

DEFAULT_LIMITS = {"cpu": 5, "wall": 10.0, "memory_mb": 512, "output_kb": 4096}
# After this many games time out, the rest run under SHORT_LIMITS: a correct game takes
# milliseconds, and a submission that loops must not cost hours of a class's marking.
TIMEOUTS_BEFORE_SHORT_LIMITS = 3
SHORT_LIMITS = {"cpu": 1, "wall": 0.5}


class SubmissionSession:
    def __init__(self, folder: Path, build_result: BuildResult, limits: dict[str, Any],
                 strict: frozenset[str]) -> None:
        self.folder = folder
        self.build = build_result
        self.limits = limits
        self.strict = strict
        self.timeouts = 0
        self.client = WorkerClient(build_result.library) if build_result.library else None

    @classmethod
    def open(cls, folder: Path, *, limits: dict[str, Any] | None = None, strict: frozenset[str] = frozenset(),
             compile_timeout: float | None = None) -> SubmissionSession:
        kwargs = {"timeout": compile_timeout} if compile_timeout else {}
        result = build(Path(folder), **kwargs)
        return cls(Path(folder), result, {**DEFAULT_LIMITS, **(limits or {})}, strict)

    def run_scenario(self, scenario: Scenario) -> TestResult:
        result = self.run_game(scenario.id, scenario.says, scenario.rules, scenario.deck, scenario.moves)
        result.weight, result.hidden = scenario.weight, scenario.hidden
        return result

    def run_game(self, test_id: str, says: str, rules: Sequence[str], deck: Deck,
                 moves: Sequence[MoveSpec], *, kind: str = "scenario") -> TestResult:
        group = test_id.split("/")[0]
        base = TestResult(test_id, group, tuple(rules), 1.0, Outcome.NOT_RUN, kind=kind,
                          deck=str(deck), moves=" ".join(str(m) for m in moves))
        if self.client is None:
            base.message = "Not run: the submission did not compile."
            return base
        start = time.monotonic()
        ref = reference_trace(deck, moves, self.strict)
        try:
            raw = self.client.run([list(k) for k in deck.keys], [str(m) for m in moves],
                                  stop_if_refused=contested_moves(moves, ref), limits=self.limits)
        except WorkerLost as lost:
            self._count_timeout()  # a lost worker cost a full wall limit too
            base.outcome = Outcome.WORKER_LOST
            base.message = (f"The sandbox running your code stopped answering ({lost}); it was restarted "
                            "and the other tests still ran.")
            base.seconds = time.monotonic() - start
            return base
        base.seconds = time.monotonic() - start
        base.stdout, base.stderr = str(raw.get("stdout", ""))[:65536], str(raw.get("stderr", ""))[:65536]
        steps = raw.get("steps")
        events = raw.get("events")
        if not isinstance(steps, list) or not isinstance(events, list):
            base.outcome, base.message = Outcome.PROTOCOL, "The sandbox sent an unreadable answer."
            return base
        events = [e for e in events if isinstance(e, dict)]
        cmp = compare(moves, ref, steps, events)
        base.notes = cmp.notes
        if not cmp.passed:  # a wrong answer seen before any crash is the more useful message
            base.outcome = Outcome.WRONG
            base.failed_after = cmp.divergence.step if cmp.divergence else cmp.compared_steps
            base.message = explain(says, rules, deck, moves, cmp)
            if not says:  # a random game: cite the rule of what differed
                clause = FIELD_RULES[cmp.divergence.field][0] if cmp.divergence else "A46"
                base.rules = tuple(clause.split(", "))
            return base
        trouble = classify(raw)
        if trouble is not None and cmp.cut_at is None:
            base.outcome, what = trouble
            if base.outcome is Outcome.TIMED_OUT:
                self._count_timeout()
            base.failed_after = min(len(steps), len(moves))
            rule = f"Rule ({', '.join(rules)}): {says}\n" if says else ""
            base.message = f"{rule}{what}\n{_where(deck, moves, steps, events)}"
            return base
        base.outcome = Outcome.PASSED
        return base

    def _count_timeout(self) -> None:
        self.timeouts += 1
        if self.timeouts == TIMEOUTS_BEFORE_SHORT_LIMITS:
            self.limits = {**self.limits, **{k: min(v, self.limits[k]) for k, v in SHORT_LIMITS.items()}}

    @property
    def limits_note(self) -> str:
        if self.timeouts < TIMEOUTS_BEFORE_SHORT_LIMITS:
            return ""
        return (f"After {TIMEOUTS_BEFORE_SHORT_LIMITS} games timed out, the remaining games ran with "
                f"{self.limits['cpu']} s of CPU and {self.limits['wall']} s of real time each "
                f"(a correct game needs a few milliseconds).")

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        self.build.cleanup()

    def __enter__(self) -> SubmissionSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _where(deck: Deck, moves: Sequence[MoveSpec], steps: list[Any], events: list[dict[str, Any]]) -> str:
    """Where in the game it happened, from how far the worker got."""
    observed = len(steps)
    moved = sum(1 for e in events if e.get("t") == "moved")
    if observed == 0:
        return "It happened in newGame() or in the first look at the new game."
    if observed == len(moves) + 1:
        return (f"It happened after all {len(moves)} moves, in destroyGame().\nMoves:\n    "
                f"{moves_by_turn(deck, moves, len(moves))}")
    if moved >= observed:
        where = f"in a query function (currentPlayer, handCard, isValidMove, ...) after move {moved}"
    else:
        where = f"in playMove() during move {observed} ({moves[observed - 1]})"
    return f"It happened {where}.\nMoves up to there:\n    {moves_by_turn(deck, moves, min(observed, len(moves)))}"

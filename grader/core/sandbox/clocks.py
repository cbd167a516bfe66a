"""The clocks a child of the worker keeps on student code: each game of a batch (``each_game``,
``grader.core.batched_games`` on the trusted side) and one decideMove of a player (``timed_decision``,
``grader.core.arena.decision_clock`` on the trusted side, which says why it is counted in CPU time).
Standard library only: it runs in the sandbox.
"""

from __future__ import annotations

import ctypes
import math
import resource
import signal
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Mapping, TypeVar

from grader.core.sandbox.values import to_float

BUDGET = "decide_cpu"  # the request's key: CPU seconds one decideMove may use (``decision_clock.with_budget``)
DECIDING = "deciding"  # the frame a child sends right before it calls decideMove
SLACK = 1.0  # CPU seconds past the budget before the child's CPU limit kills a player that escaped the timer

T = TypeVar("T")

_libc = ctypes.CDLL(None)


@contextmanager
def each_game(cpu: float, wall: float) -> Iterator[None]:
    """In a batch's child, around one game: the CPU limit moved on to what the child has used so far plus the
    game's own, and a timer at the game's wall limit, so a game that would be cut alone is cut here too (its
    batch stops there, and the grader plays it alone).  Standard output is flushed after the game, as a
    child of its own flushes at its end, before the game's frame is sent: a game whose flush crashes is not
    reported done."""
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    used = resource.getrusage(resource.RUSAGE_SELF)
    soft = int(used.ru_utime + used.ru_stime + int(cpu))  # (rounded down: never more than alone)
    resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
    signal.setitimer(signal.ITIMER_REAL, float(wall))
    try:
        yield
        _libc.fflush(None)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)


def process_cpu() -> float:
    """The CPU seconds (user + system, every thread) this process has used since it was forked."""
    return time.process_time()


def timed_decision(call: Callable[[], T], request: Mapping[str, object],
                   send: Callable[[Mapping[str, object]], None]) -> tuple[T, float]:
    """``call()`` (the job's decideMove) under the request's CPU budget: what it returned and the CPU seconds it
    used.  The child does not come back from a call over budget (SIGPROF, or SIGKILL at its CPU limit)."""
    budget = to_float(request[BUDGET])
    before = process_cpu()
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    cap = math.ceil(before + budget + SLACK)  # (an rlimit may only be lowered: never above the worker's)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (cap, cap))
    send({"t": DECIDING, "before": before})
    signal.signal(signal.SIGPROF, signal.SIG_DFL)  # terminate: whatever the process inherited
    signal.setitimer(signal.ITIMER_PROF, budget)
    try:
        chosen = call()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return chosen, process_cpu() - before

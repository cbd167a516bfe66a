"""The decision clock: a student's decideMove is limited by the CPU time it uses itself, nothing else.

A decision runs in a fresh sandboxed child that first replays the game so far on the course's model, then
calls decideMove once.  Real time depends on what else the machine is doing, and the replay is the
grader's work, so neither may decide a forfeit: the same player, asked the same thing, must get the same
answer on an idle machine and on a busy one.  So the budget (``[players] call_cpu_seconds``) is counted in
the child's CPU time from the moment decideMove is called (``timed_decision``, sandbox side):

- a profiling timer (``ITIMER_PROF``: user + system CPU time of the process) armed right before the call
  ends the child with SIGPROF, whose default action is to terminate, once the budget is spent -- in the
  middle of C code, where no Python handler could run;
- should the player's code block, catch or disarm that signal, the child's CPU limit, lowered right before
  the call to what it has used + the budget + ``SLACK``, kills it all the same (SIGKILL);
- the wall-clock limit of the whole child (``[players] call_wall_seconds``) is only a far backstop, for a
  player that sleeps or blocks.

The child announces the call (a ``deciding`` frame) before the clock starts, so the trusted side can tell a
child the clock stopped from one that crashed (``overrun``), and reports the CPU seconds the call used in its
answer.  The sandbox side is ``grader.core.sandbox.clocks`` (the standard library only); the trusted side is here.
"""

from __future__ import annotations

import math
import signal
from typing import TYPE_CHECKING, Mapping

from grader.core.sandbox.clocks import BUDGET, DECIDING
from grader.core.sandbox.values import to_float

if TYPE_CHECKING:
    from grader.core.run_report import RunReport
    from grader.core.sandbox.limits import Limits

def with_budget(request: Mapping[str, object], limits: Limits) -> dict[str, object]:
    """The decide job's request with decideMove's CPU budget (``limits.cpu``: ``[players] call_cpu_seconds``)."""
    return {**request, BUDGET: limits.cpu}


def child_limits(limits: Limits) -> Limits:
    """The limits of the child that asks one decision, from those of the decision (``MarkingConfig.player_limits``):
    the wall-clock backstop as it is, and CPU for the whole child -- load, replay, decideMove -- of the backstop's
    worth on top of the budget, so that only the clock (``timed_decision``) ever judges decideMove's CPU time."""
    return limits.with_(cpu=limits.cpu + math.ceil(limits.wall))


def overrun(report: RunReport, limits: Limits) -> str | None:
    """Why the clock stopped this child's decideMove (it went over ``limits.cpu`` of CPU time), or None if it
    did not: the child announced the call, gave no answer, and ended by the clock's signal -- SIGPROF, or the
    CPU limit's (SIGXCPU, SIGKILL) once the call had used its budget."""
    announced = report.tagged(DECIDING)
    if not announced or report.enforced is not None or report.tagged("decided"):
        return None
    try:
        before = to_float(announced[0].get("before", 0.0))
    except TypeError:  # the frame is in memory the player's code could write
        before = 0.0
    spent = report.cpu - before
    by_clock = report.signal == signal.SIGPROF or (report.signal in (signal.SIGXCPU, signal.SIGKILL)
                                                   and spent >= limits.cpu)
    if not by_clock:
        return None
    return (f"took more than {limits.cpu} s of CPU time in decideMove (an endless loop, or a search that goes "
            "too deep?)")

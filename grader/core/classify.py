"""What a sandboxed run's raw facts mean, when it did not simply finish.

The worker reports facts (``RunReport``: limits enforced, signal, exit code,
the frames its child sent); this module turns them into a verdict and a sentence for a
first-year student.  A game adds what only it knows: which frames mean its
job got to the end, and the words for its own error events.
"""

from __future__ import annotations

import signal as signals
from typing import Mapping

from grader.core.results import Verdict
from grader.core.run_report import Enforced, RunReport

SIGNAL_WORDS: dict[int, str] = {  # by the signal's number
    signals.SIGSEGV: "a segmentation fault (SIGSEGV): an invalid pointer was used, often NULL or freed memory",
    signals.SIGABRT: "an abort (SIGABRT): a failed assert() or a corrupted heap",
    signals.SIGFPE: "an arithmetic error (SIGFPE): usually a division by zero",
    signals.SIGBUS: "a bus error (SIGBUS): a misaligned or invalid memory access",
    signals.SIGILL: "an illegal instruction (SIGILL)",
    signals.SIGXFSZ: "the file-size limit (SIGXFSZ): the code wrote too much to a file",
}


BUDGET_SPENT = ("Not run: your submission had used up the time the grader gives one submission in all (its games "
                "were too slow), so this test and the ones after it were not run. A correct move takes milliseconds: "
                "look for a loop or a sleep that never needed to be there.")


def classify(report: RunReport, *, over: bool,
             errors: Mapping[str, tuple[Verdict, str]] = {}) -> tuple[Verdict, str] | None:  # noqa: B006
    """The verdict on a run that did not simply finish; None if it did.

    ``over``: whether the child's frames show the job got to its end; ``errors``: a game's
    own error frames (``ChildError.what``) and what they mean."""
    limits = report.limits
    if report.enforced is Enforced.BUDGET:
        return Verdict.NOT_RUN, BUDGET_SPENT
    if report.enforced is Enforced.WALL:
        return Verdict.TIMED_OUT, (f"Your code did not finish within {limits.wall} seconds of real time "
                                   "(an endless loop, or waiting for something that never comes).")
    if report.enforced is Enforced.OUTPUT:
        return Verdict.OUTPUT, (f"Your code printed more than {limits.output_kb} KiB; "
                                "the Game ADT should not print at all.")
    if report.enforced is Enforced.PROTOCOL:
        return Verdict.PROTOCOL, f"The results channel was corrupted ({report.protocol_problem})."
    sig = report.signal
    if sig is not None:
        # SIGXCPU is the soft CPU limit; SIGKILL near the limit is the hard one (soft + 1 s).
        hard_cpu = sig == signals.SIGKILL and report.cpu >= float(limits.cpu) - 0.1
        if sig == signals.SIGXCPU or hard_cpu:
            return Verdict.TIMED_OUT, (f"Your code used more than {limits.cpu} seconds of CPU time "
                                       "(an endless loop?).")
        mem = limits.memory_mb
        if mem and report.maxrss_kb * 1024 >= 0.8 * mem * 1024 * 1024:
            return Verdict.MEMORY, f"Your code used more than the {mem} MiB memory limit and then crashed."
        return Verdict.CRASHED, "Your code crashed with " + SIGNAL_WORDS.get(sig, f"signal {sig}") + "."
    error = report.error
    if error is not None:
        what, detail = error.what, error.detail[:500]
        if what == "load":
            if "map segment" in detail or "allocate memory" in detail:
                return Verdict.MEMORY, f"Your library could not be loaded within the memory limit: {detail}"
            return Verdict.CRASHED, f"Your library could not be loaded: {detail}"
        if what == "missing":
            return Verdict.NOT_RUN, f"Not run: your code has no function {detail}(), which this test needs."
        if what in errors:
            return errors[what]
        return Verdict.PROTOCOL, f"The grader could not read your game's state: {detail}"
    code = report.exit_code
    if report.finished and not over:
        return Verdict.PROTOCOL, ("The results channel was corrupted (marked finished before the game was over; "
                                  "does your code write through a stray pointer?).")
    if not over:
        if code == 0:
            return Verdict.EXITED, ("Your code ended the program (exit(0) or similar) in the middle of the game; "
                                    "a Game ADT function must return to its caller, never exit.")
        return Verdict.EXITED, f"Your code ended the program with exit code {code} in the middle of the game."
    return None

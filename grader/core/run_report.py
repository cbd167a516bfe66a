"""What the worker says of one run, typed and checked once, where it enters the trusted side.

The worker's answer is a header (how the child ended: exit status, signal, the
limit it enforced, CPU, memory, output) and the frames the child sent.  The
header comes from our own code; the frames and the call-in-progress record come
from memory the student's code could write, so each is checked here and
anything malformed is turned into a fact (``Enforced.PROTOCOL``), never passed
on.  Everything after this point reads attributes, not dictionary keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Mapping, Sequence

from grader.core.sandbox import protocol
from grader.core.sandbox.limits import Limits
from grader.core.sandbox.protocol import ERROR_TAG
from grader.core.sandbox.values import table, to_float, to_int

CALL_FIELDS = 5  # step, probe, call, a, b: the call in progress (``grader.core.sandbox.worker.Results.at``)


class Enforced(Enum):
    """The limit the worker enforced by stopping the child (CPU and memory show as signals)."""

    WALL = "wall"
    OUTPUT = "output"
    PROTOCOL = "protocol"
    BUDGET = "budget"  # not run at all: the submission had spent its whole grade's time (``WorkerClient``)


class MalformedReport(ValueError):
    """The worker's own header is not what the worker sends: the worker is lost."""


@dataclass(frozen=True)
class ChildError:
    """The child's own report that it could not go on (``what``: load, missing, or a game's own)."""

    what: str
    detail: str


@dataclass(frozen=True)
class RunReport:
    limits: Limits
    exit_code: int | None
    signal: int | None
    enforced: Enforced | None
    protocol_problem: str | None
    finished: bool  # the child marked its results finished and closed its output: over
    call: tuple[int, ...] | None  # the call in progress when it stopped (checked: five ints), or None
    cpu: float
    maxrss_kb: int
    wall: float
    stdout: str
    stderr: str
    # What the child sent, each a JSON object with a tag ("t"): student-controlled, of a shape the game checks
    frames: tuple[Mapping[str, Any], ...]
    error: ChildError | None  # the first error frame, if any

    @classmethod
    def from_worker(cls, header: Mapping[str, object], bodies: Sequence[bytes]) -> RunReport:
        """Check the header (ours: anything wrong is ``MalformedReport``) and decode the frames
        (the student's: anything wrong is a protocol problem of the run)."""
        try:
            limits = Limits.from_dict(table(header["limits"]))
            enforced = Enforced(header["enforced"]) if header.get("enforced") is not None else None
            exit_code, signal = _int_or_none(header.get("exit_code")), _int_or_none(header.get("signal"))
            cpu, wall = to_float(header.get("cpu", 0.0)), to_float(header.get("wall", 0.0))
            maxrss = to_int(header.get("maxrss_kb", 0))
            stdout, stderr = str(header.get("stdout", "")), str(header.get("stderr", ""))
            problem = header.get("protocol")
        except (KeyError, TypeError, ValueError) as err:
            raise MalformedReport(f"the worker's report is malformed: {err}") from err
        frames: list[Mapping[str, Any]] = []
        for body in bodies:
            try:
                frame = protocol.loads(body)
            except ValueError:
                frame = None
            if not isinstance(frame, dict) or not isinstance(frame.get("t"), str):
                enforced = enforced or Enforced.PROTOCOL
                problem = problem or "a result frame that is not a JSON object with a tag"
                break
            frames.append(frame)
        first_error = next((f for f in frames if f["t"] == ERROR_TAG), None)
        error = (ChildError(str(first_error.get("what", ""))[:100], str(first_error.get("detail", ""))[:2000])
                 if first_error is not None else None)
        return cls(limits=limits, exit_code=exit_code, signal=signal, enforced=enforced,
                   protocol_problem=None if problem is None else str(problem)[:500],
                   finished=header.get("finished") is True, call=_call(header.get("call")), cpu=cpu,
                   maxrss_kb=maxrss, wall=wall, stdout=stdout, stderr=stderr, frames=tuple(frames), error=error)

    @classmethod
    def not_run(cls, limits: Limits) -> RunReport:
        """A run that never started: the submission's time budget was spent (``Enforced.BUDGET``)."""
        return cls(limits=limits, exit_code=None, signal=None, enforced=Enforced.BUDGET, protocol_problem=None,
                   finished=False, call=None, cpu=0.0, maxrss_kb=0, wall=0.0, stdout="", stderr="", frames=(),
                   error=None)

    def tagged(self, *tags: str) -> list[Mapping[str, Any]]:
        """The frames with one of these tags, in order."""
        return [f for f in self.frames if f["t"] in tags]


def _int_or_none(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an int, got {value!r}")
    return value


def _call(value: object) -> tuple[int, ...] | None:
    """The call in progress, read back from memory the student's code could write: five ints or nothing."""
    if isinstance(value, list) and len(value) == CALL_FIELDS and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    return None

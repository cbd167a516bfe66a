"""The one result model every report is derived from.

Three families, as check50 has them: a test passed; the submission failed it
(wrong result, crash, timeout, ...); or the grader itself broke (``ERROR``:
a bug of ours, never the student's fault and never marked as theirs).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any


class Outcome(Enum):
    PASSED = "passed"
    WRONG = "wrong result"
    CRASHED = "crashed"
    TIMED_OUT = "timed out"
    EXITED = "exited early"
    MEMORY = "memory limit"
    OUTPUT = "output limit"
    PROTOCOL = "unreadable result"
    WORKER_LOST = "worker lost"
    NOT_RUN = "not run"
    ERROR = "grader error"

    @property
    def passed(self) -> bool:
        return self is Outcome.PASSED

    @property
    def family(self) -> str:
        """pass / fail / skip / error, for JUnit and summaries."""
        if self is Outcome.PASSED:
            return "pass"
        if self is Outcome.NOT_RUN:
            return "skip"
        if self is Outcome.ERROR:
            return "error"
        return "fail"


@dataclass
class TestResult:
    id: str  # "group/name"
    group: str
    rules: tuple[str, ...]
    weight: float
    outcome: Outcome
    message: str = ""  # the student-facing explanation ('' when passed)
    notes: list[str] = field(default_factory=list)  # lenient rulings applied, and similar
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0
    hidden: bool = False
    kind: str = "scenario"  # scenario | random | api | build | memory
    repro: str | None = None  # a scenario-format reproduction (random games)
    deck: str = ""  # the game played, in card notation (for C repro programs)
    moves: str = ""
    failed_after: int | None = None  # moves made when the failure showed (for shortening a game)

    @property
    def passed(self) -> bool:
        return self.outcome.passed

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["outcome"] = self.outcome.value
        data["rules"] = list(self.rules)
        return data

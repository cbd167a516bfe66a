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
    INCONCLUSIVE = "inconclusive"  # stopped by a difference another test owns: not held against the student
    ERROR = "grader error"

    @property
    def passed(self) -> bool:
        return self is Outcome.PASSED

    @property
    def family(self) -> str:
        """pass / fail / skip / error, for JUnit and summaries."""
        if self in (Outcome.PASSED, Outcome.INCONCLUSIVE):
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
    earned: float = 1.0  # the share of its weight a passed test earns (memory: replays that ran to the end)
    charged_to: str = ""  # a failure already charged by this other test: it costs no second deduction
    rule_family: str = ""  # the family of what differed (grader.observations.FAMILIES)
    failed_on: str = ""  # the observation (or probe) the test failed on
    skipped_probes: list[str] = field(default_factory=list)  # probes left out because they crashed or hung

    @property
    def passed(self) -> bool:
        return self.outcome.passed

    @property
    def earns_marks(self) -> float:
        """The share of this test's weight that counts towards the marks: all of it when it passed,
        was inconclusive (stopped by a difference another test owns) or failed on something already
        charged to another test; a part of it when it passed in part (the memory stage); else none.
        A grader error earns nothing yet: the mark is provisional and the exit code says regrade."""
        if self.outcome in (Outcome.PASSED, Outcome.INCONCLUSIVE):
            return self.earned
        return 1.0 if self.charged_to and self.outcome is not Outcome.ERROR else 0.0

    @property
    def mark_group(self) -> str:
        """The marks group this test counts in: build, random_games, memory, or its scenario group."""
        return {"build": "build", "api": "build", "random": "random_games", "memory": "memory"}.get(
            self.kind, self.group)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["outcome"] = self.outcome.value
        data["rules"] = list(self.rules)
        return data

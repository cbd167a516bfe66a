"""Grade one submission: build, API check, scenarios, random games, memory -- then marks.

This is the whole pipeline for one folder; ``fcd-grade`` and the batch mode
call it, and every report is written from the ``SubmissionResult`` it returns.
A failed compile skips (NOT_RUN) everything that needs the library.
"""

from __future__ import annotations

import hashlib
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .build import find_sources
from .config import MarkingConfig
from .loader import API_FUNCTIONS
from .results import Outcome, TestResult
from .sandbox import detect_mode
from .focus import owners
from .scenarios import Scenario, load_scenarios
from .session import SubmissionSession

Progress = Callable[[TestResult], None]


@dataclass
class GroupMarks:
    group: str
    passed: int
    total: int
    marks: float
    max_marks: float


@dataclass
class SubmissionResult:
    submission: str
    source_hash: str
    build_ok: bool
    build_output: str
    build_notes: list[str]
    build_command: list[str]
    tests: list[TestResult]
    build_sources: list[str] = field(default_factory=list)  # the .c files compiled, as named in the build
    groups: list[GroupMarks] = field(default_factory=list)
    profile: str = ""
    sandbox: str = ""
    seconds: float = 0.0
    seed: int = 0
    repro_files: dict[str, str] = field(default_factory=dict)  # test id -> file name

    @property
    def score(self) -> float:
        return round(sum(g.marks for g in self.groups), 2)

    @property
    def max_score(self) -> float:
        return round(sum(g.max_marks for g in self.groups), 2)

    @property
    def all_passed(self) -> bool:
        return all(t.outcome.family in ("pass",) for t in self.tests)

    @property
    def status(self) -> str:
        if not self.build_ok:
            return "build failed"
        if any(t.outcome is Outcome.ERROR for t in self.tests):
            return "grader error"
        return "passed" if self.all_passed else "failed"

    def first_failure(self) -> TestResult | None:
        return next((t for t in self.tests if not t.passed), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "submission": self.submission, "source_hash": self.source_hash, "status": self.status,
            "score": self.score, "max_score": self.max_score, "build_ok": self.build_ok,
            "build_output": self.build_output, "build_notes": self.build_notes,
            "build_command": self.build_command, "profile": self.profile, "sandbox": self.sandbox,
            "seconds": round(self.seconds, 3), "seed": self.seed,
            "groups": [g.__dict__ for g in self.groups], "tests": [t.to_json() for t in self.tests],
            "repro_files": self.repro_files, "build_sources": self.build_sources,
        }


def source_hash(folder: Path) -> str:
    """A hash of what gets compiled: a re-run with the same sources is the same submission."""
    h = hashlib.sha256()
    try:
        sources = find_sources(folder)
    except OSError:
        return "unreadable"
    for p in sorted(sources.compiled, key=lambda p: p.name):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    for p in sorted(folder.glob("*.h")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:20]


def _build_tests(session: SubmissionSession) -> list[TestResult]:
    b = session.build
    build = TestResult("build/compiles", "build", ("R17",), 1.0, Outcome.PASSED, kind="build",
                       notes=list(b.notes), seconds=b.seconds)
    if not b.ok:
        build.outcome = Outcome.WRONG
        build.message = f"{b.problem}\n{b.output}".strip()
    api = TestResult("build/all_functions_defined", "build", ("R17",), 1.0, Outcome.PASSED, kind="api")
    if not b.ok:
        api.outcome, api.message = Outcome.NOT_RUN, "Not run: the submission did not compile."
    elif b.missing:
        api.outcome = Outcome.WRONG
        api.message = (f"Your library does not define {len(b.missing)} of the {len(API_FUNCTIONS)} functions of "
                       f"Card.h and Game.h: {', '.join(b.missing)}.\nCheck the spelling and the signature against "
                       f"the header; the tests that need these functions cannot pass.")
    return [build, api]


def grade(folder: Path, config: MarkingConfig | None = None, *, scenarios: list[Scenario] | None = None,
          random_games: int | None = None, memory: bool = True, progress: Progress | None = None,
          repro_dir: Path | None = None) -> SubmissionResult:
    """Everything about one submission folder."""
    config = config or MarkingConfig.load()
    start = time.monotonic()
    folder = Path(folder).resolve()
    scenarios = load_scenarios() if scenarios is None else scenarios
    tests: list[TestResult] = []

    def add(t: TestResult) -> None:
        tests.append(t)
        if progress:
            progress(t)

    with SubmissionSession.open(folder, limits=config.limits, strict=config.strict_rulings,
                                compile_timeout=config.compile_seconds) as session:
        session.owners = owners(scenarios)
        for t in _build_tests(session):
            add(t)
        replayable, not_replayed = [], []  # scenarios worth replaying natively in the memory stage
        for s in scenarios:
            t = guarded(s.id, s.group, s.rules, "scenario", lambda s=s: session.run_scenario(s))
            t.hidden = t.hidden or config.hidden(s.group)
            add(t)
            if t.outcome in (Outcome.TIMED_OUT, Outcome.WORKER_LOST, Outcome.OUTPUT):
                not_replayed.append(s.id)
            else:
                replayable.append(s)
        # A rule family a scenario already failed costs no second deduction in the random games.
        charged = {}
        for t in tests:
            if t.kind == "scenario" and t.rule_family and t.outcome.family == "fail":
                charged.setdefault(t.rule_family, t.id)
        n_random = config.random_games if random_games is None else random_games
        if n_random:
            from .random_games import run_random_games  # noqa: PLC0415 - optional stage

            for t in guarded_many("random/games", "random", "random",
                                  lambda: run_random_games(session, n_random)):
                if not t.passed and t.outcome is not Outcome.ERROR and t.rule_family in charged:
                    t.charged_to = charged[t.rule_family]
                    t.notes.append(f"Not counted again: {t.charged_to} already failed on this rule family.")
                add(t)
        if memory:
            from .memcheck import run_memory_stage  # noqa: PLC0415 - optional stage

            for t in guarded_many("memory/replays", "memory", "memory",
                                  lambda: run_memory_stage(session, replayable, not_replayed)):
                add(t)
        if session.limits_note:
            tests[0].notes.append(session.limits_note)
        result = SubmissionResult(
            submission=folder.name, source_hash=source_hash(folder), build_ok=session.build.ok,
            build_output=session.build.output, build_notes=list(session.build.notes),
            build_command=session.build.command, tests=tests, profile=config.profile,
            build_sources=list(session.build.compiled_names),
            sandbox=f"{detect_mode().name}: {detect_mode().why}",
        )
    result.groups = mark(tests, config)
    result.seconds = time.monotonic() - start
    return result


GRADER_FAULT = ("The grader itself failed while running this test. This is a bug in the grader, not in your "
                "code: please tell the course staff, who will regrade once it is fixed.\n")


def _error(test_id: str, group: str, rules: Any, kind: str) -> TestResult:
    return TestResult(test_id, group, tuple(rules), 1.0, Outcome.ERROR, kind=kind,
                      message=GRADER_FAULT + traceback.format_exc(limit=8))


def guarded(test_id: str, group: str, rules: Any, kind: str, run: Callable[[], TestResult]) -> TestResult:
    """Run one test; an exception of the grader's own is that test's ERROR, never a FAIL."""
    try:
        return run()
    except Exception:  # noqa: BLE001 - any fault of ours is reported as such
        return _error(test_id, group, rules, kind)


def guarded_many(test_id: str, group: str, kind: str, run: Callable[[], list[TestResult]]) -> list[TestResult]:
    try:
        return run()
    except Exception:  # noqa: BLE001
        return [_error(test_id, group, (), kind)]


def mark(tests: list[TestResult], config: MarkingConfig) -> list[GroupMarks]:
    """Marks per group: a group's marks shared among its tests by weight.

    What each test earns is ``TestResult.earns_marks``."""
    groups: dict[str, list[TestResult]] = {}
    for t in tests:
        groups.setdefault(t.mark_group, []).append(t)
    out = []
    for name, ts in groups.items():
        if name in ("build", "random_games", "memory"):
            max_marks = config.marks(name)
        else:
            max_marks = config.group_marks(name)
        total_w = sum(t.weight for t in ts) or 1.0
        passed_w = sum(t.weight * t.earns_marks for t in ts)
        if name == "random_games" and config.random_scoring == "all_or_nothing":
            marks = max_marks if passed_w == total_w else 0.0
        else:
            marks = max_marks * passed_w / total_w
        out.append(GroupMarks(name, sum(1 for t in ts if t.passed), len(ts), round(marks, 2), max_marks))
    return out


def result_from_json(data: dict[str, Any]) -> SubmissionResult:
    """Read back what ``SubmissionResult.to_json`` wrote (the batch mode's store)."""
    tests = []
    for t in data["tests"]:
        t = dict(t)
        t["outcome"] = Outcome(t["outcome"])
        t["rules"] = tuple(t["rules"])
        tests.append(TestResult(**t))
    result = SubmissionResult(
        submission=data["submission"], source_hash=data["source_hash"], build_ok=data["build_ok"],
        build_output=data["build_output"], build_notes=data["build_notes"], build_command=data["build_command"],
        tests=tests, profile=data["profile"], sandbox=data["sandbox"], seconds=data["seconds"],
        seed=data.get("seed", 0), repro_files=data.get("repro_files", {}),
        build_sources=data.get("build_sources", []),
    )
    result.groups = [GroupMarks(**g) for g in data["groups"]]
    return result

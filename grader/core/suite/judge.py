"""Mark a student's test program from its runs: is it valid, and how many real bugs does it catch?

Validity (the "wheats"): every check must hold on every correct implementation, the course's model
and each accepted reading.  A check that fails on one asserts something the rules do not say; the
report names the implementation and, for a reading, the ruling the rules leave open.

Thoroughness (the "chaffs"): a mutant is caught when a valid check fails on it, or when the program
crashes, hangs (if the marking configuration counts a hang) or exits with an error on it where it did
not on the model.  Checks that failed on a correct implementation never catch anything.

``SuiteResult`` is the typed result (with its JSON pair); its marks are shown apart from the
implementation's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Mapping, NotRequired, TypedDict, cast

from grader.core.config import SuiteMarking
from grader.core.marks import rounded

from .targets import Target, Targets

if TYPE_CHECKING:
    from grader.core.gamespec import Ruling

    from .run import Run


@dataclass
class InvalidCheck:
    """A check that fails on a correct implementation."""

    key: str  # testGame.c:42
    kind: str  # assert, abort, exit
    function: str
    detail: str  # the asserted expression
    failed_on: list[str]  # the correct implementations it failed on
    why: str  # the rule or ruling that makes it wrong, in words


@dataclass
class MutantVerdict:
    name: str
    rules: list[str]
    says: str  # the bug in plain words: "a 2 played on a 2 still asks for only two cards"
    hidden: bool
    caught: bool
    by: list[str]  # the checks (testGame.c:42) or what the run did ("timed out") that caught it
    functions: list[str]  # the test functions whose checks caught it
    outcome: str  # the run's outcome on this mutant


@dataclass
class SuiteResult:
    test_file: str
    compiled: bool
    problem: str = ""  # why the test program could not be graded ('' when it could)
    compiler_output: str = ""
    invalid: list[InvalidCheck] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # what it did on a correct implementation: crash, hang, ...
    mutants: list[MutantVerdict] = field(default_factory=list)
    own: str = ""  # what it did on the student's own implementation, a sentence ('' when there is none)
    notes: list[str] = field(default_factory=list)
    validity_marks: float = 0.0
    validity_max: float = 0.0
    thoroughness_marks: float = 0.0
    thoroughness_max: float = 0.0
    seconds: float = 0.0
    correct: int = 0  # the correct implementations the tests ran on: the model and each reading (0: not recorded)

    @property
    def valid(self) -> bool:
        return self.compiled and not self.invalid and not self.problems

    @property
    def caught(self) -> int:
        return sum(m.caught for m in self.mutants)

    @property
    def score(self) -> float:
        return rounded(self.validity_marks + self.thoroughness_marks)

    @property
    def max_score(self) -> float:
        return rounded(self.validity_max + self.thoroughness_max)

    def rules_never_checked(self) -> list[str]:
        """The rules (and rulings) broken only by visible mutants the tests missed: no test checks them."""
        caught = {r for m in self.mutants if m.caught for r in m.rules}
        missed = {r for m in self.mutants if not m.caught and not m.hidden for r in m.rules} - caught
        return sorted(missed, key=lambda r: (not r.startswith("R"), int(r[1:]) if r[1:].isdigit() else 0, r))

    def functions(self) -> list[str]:
        """The test functions that caught something, in the order first seen: the kill matrix's columns."""
        seen: dict[str, None] = {}
        for m in self.mutants:
            for f in m.functions:
                seen.setdefault(f, None)
        return list(seen)

    def to_json(self) -> SuiteJSON:
        return cast(SuiteJSON, asdict(self))  # every field by its name, the checks and mutants as their fields

    @classmethod
    def from_json(cls, data: SuiteJSON) -> SuiteResult:
        fields: _SuiteFields = {**data, "invalid": [InvalidCheck(**c) for c in data.get("invalid", [])],
                                "mutants": [MutantVerdict(**m) for m in data.get("mutants", [])]}
        return cls(**fields)


class InvalidCheckJSON(TypedDict):
    key: str
    kind: str
    function: str
    detail: str
    failed_on: list[str]
    why: str


class MutantVerdictJSON(TypedDict):
    name: str
    rules: list[str]
    says: str
    hidden: bool
    caught: bool
    by: list[str]
    functions: list[str]
    outcome: str


class _SuiteResultFields(TypedDict):
    """The fields ``SuiteJSON`` and ``_SuiteFields`` share (all but the checks and the mutants); those with a
    default may be missing from an older result."""

    test_file: str
    compiled: bool
    problem: NotRequired[str]
    compiler_output: NotRequired[str]
    problems: NotRequired[list[str]]
    own: NotRequired[str]
    notes: NotRequired[list[str]]
    validity_marks: NotRequired[float]
    validity_max: NotRequired[float]
    thoroughness_marks: NotRequired[float]
    thoroughness_max: NotRequired[float]
    seconds: NotRequired[float]
    correct: NotRequired[int]


class SuiteJSON(_SuiteResultFields):
    """``SuiteResult.to_json``: its fields by name (those with a default may be missing from an older result)."""

    invalid: NotRequired[list[InvalidCheckJSON]]
    mutants: NotRequired[list[MutantVerdictJSON]]


class _SuiteFields(_SuiteResultFields):
    """``SuiteJSON`` as ``SuiteResult`` takes it: the checks and mutants made what they are."""

    invalid: list[InvalidCheck]
    mutants: list[MutantVerdict]


def _why(target: Target, rulings: Mapping[str, Ruling]) -> str:
    if target.kind == "model":
        return ("the course's model fails it: what it checks is not what the rules say (or the test itself "
                "goes wrong before it gets there)")
    asked = [r for r in target.rules if r in rulings]
    if len(asked) == 1:
        ruling = rulings[asked[0]]
        # (a ruling may list only the reference's reading and leave the rest open: "answers otherwise")
        other = f"answers \"{ruling.readings[1]}\"" if len(ruling.readings) == 2 else "answers otherwise"
        return (f"it assumes one answer to {ruling.id} ({ruling.question}), which the rules leave open: an "
                f"implementation that {other} is correct too (the accepted reading "
                f"{target.name} {target.says})")
    return (f"it fails on the accepted reading {target.name}, which {target.says}; the rules leave "
            f"{', '.join(asked) or 'this'} open, so that implementation is correct too")


def _in_words(run: Run) -> str:
    if run.outcome != "failed checks":
        return run.outcome
    shown = ", ".join(c.key for c in run.checks[:4]) + (", ..." if len(run.checks) > 4 else "")
    return f"{len(run.checks)} failed check(s): {shown}"


def judge(targets: Targets, runs: Mapping[str, Run], marking: SuiteMarking, rulings: Mapping[str, Ruling],
          *, model_again: Run | None = None, own: Run | None = None) -> SuiteResult:
    """The result of a test program that compiled, from its run on every target (``model_again``: a second
    run on the model, to see whether the program does the same thing every time)."""
    result = SuiteResult(targets.test_file, True, validity_max=marking.validity_marks,
                         thoroughness_max=marking.thoroughness_marks)
    correct = [targets.model, *targets.readings]
    result.correct = len(correct)
    invalid: dict[str, InvalidCheck] = {}
    for target in correct:
        run = runs[target.name]
        for check in run.checks:
            if check.key not in invalid:
                invalid[check.key] = InvalidCheck(check.key, check.kind, check.function, check.detail, [],
                                                  _why(target, rulings))
            invalid[check.key].failed_on.append(target.name)
        outcome = run.outcome
        if outcome not in ("passed", "failed checks"):
            what = run.problem if not run.built else outcome
            result.problems.append(f"on {'the model' if target.kind == 'model' else 'the reading ' + target.name}: "
                                   f"{what}")
    result.invalid = list(invalid.values())
    model = runs[targets.model.name]
    baseline = model.outcome
    if model_again is not None and (model_again.outcome, [c.key for c in model_again.checks]) != \
            (baseline, [c.key for c in model.checks]):
        result.notes.append(
            f"Your tests do not do the same thing every time on the same implementation (on the model, first run: "
            f"{_in_words(model)}; second run: {_in_words(model_again)}). Tests must be repeatable: look for "
            "uninitialised variables, and seed rand() with a constant (the grader already makes time() return "
            "the same value every time).")
    for target in targets.mutants:
        run = runs[target.name]
        by = [c for c in run.checks if c.key not in invalid]
        caught_by = [c.key for c in by]
        outcome = run.outcome
        if not caught_by and run.built and outcome != baseline and outcome not in ("passed", "failed checks"):
            if outcome != "timed out" or marking.hang_is_caught:
                caught_by = [outcome]
        result.mutants.append(MutantVerdict(
            target.name, list(target.rules), target.says, target.hidden or target.name in marking.hidden_mutants,
            bool(caught_by), caught_by, list(dict.fromkeys(c.function for c in by)), outcome))
    if own is not None:
        result.own = f"On your own implementation: {own.problem}" if not own.built else (
            "On your own implementation your tests pass." if own.outcome == "passed" else
            f"On your own implementation your tests end with: {own.outcome}" + (
                f" (first: {own.checks[0].key}, {own.checks[0].detail})." if own.checks else "."))
    result.validity_marks = marking.validity_marks if result.valid else 0.0
    share = result.caught / len(result.mutants) if result.mutants else 0.0
    earns = result.valid or not marking.gate
    result.thoroughness_marks = rounded(marking.thoroughness_marks * share) if earns else 0.0
    return result


def not_compiled(test_file: str, marking: SuiteMarking, problem: str, output: str) -> SuiteResult:
    return SuiteResult(test_file, False, problem, output, validity_max=marking.validity_marks,
                       thoroughness_max=marking.thoroughness_marks)

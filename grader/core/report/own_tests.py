"""The student's own tests (``SuiteResult``) as report test cases, for JUnit and Gradescope: one case for
validity and one per mutant, each worth its share of the testing marks; a hidden mutant is a hidden
case named by its number only."""

from __future__ import annotations

from ..marks import shares
from ..results import GroupMarks, SubmissionResult, TestResult, Verdict
from ..suite.judge import InvalidCheck, SuiteResult
from .escape import clean_text

GROUP = "own_tests"
NAMED = 4  # correct implementations a check's line names at most (the rest are counted)


def fails_on(check: InvalidCheck, correct: int) -> str:
    """On which correct implementations (of ``correct``; 0: not recorded) a check of the student's fails: counted,
    and named when it is only some of them, for that is where a reading of the rules is the point."""
    n = len(check.failed_on)
    if correct and n >= correct:
        return f"fails on {n} of {n} correct implementations" if n > 1 else "fails on the course's model"
    names = ", ".join(check.failed_on[:NAMED]) + (", ..." if n > NAMED else "")
    of = f" of {correct}" if correct else ""
    return f"fails on {n}{of} correct implementation{'s' if (correct or n) > 1 else ''}: {names}"


def _validity_message(suite: SuiteResult) -> str:
    if not suite.compiled:
        return f"{suite.problem}\n{suite.compiler_output}".strip()
    lines = [f"{c.key} ({c.function}): {c.detail}\n  {fails_on(c, suite.correct)}: {c.why}" for c in suite.invalid]
    lines += [f"On a correct implementation: {p}" for p in suite.problems]
    return "\n".join(lines)


def own_test_cases(suite: SuiteResult) -> list[tuple[TestResult, float, float]]:
    """(test case, score, max score) for each part of the student's tests."""
    cases = [(TestResult(f"{GROUP}/valid", GROUP, (), 1.0, Verdict.PASSED if suite.valid else Verdict.WRONG,
                         message="" if suite.valid else clean_text(_validity_message(suite)), kind="own_tests"),
              suite.validity_marks, suite.validity_max)]
    maxima = shares(suite.thoroughness_max, [1.0] * len(suite.mutants))  # each to two places, adding up
    earned = shares(suite.thoroughness_marks, [float(m.caught) for m in suite.mutants])  # (0 when the gate shut)
    hidden = 0
    for m, got, share in zip(suite.mutants, earned, maxima, strict=True):
        hidden += m.hidden
        name = f"hidden_mutant_{hidden}" if m.hidden else m.name
        message = (f"Caught by {', '.join(m.by)}" + (f" ({', '.join(m.functions)})" if m.functions else "") + "."
                   if m.caught else f"No test of yours notices this bug ({', '.join(m.rules)}): {m.says}.")
        case = TestResult(f"{GROUP}/catches_{name}", GROUP, () if m.hidden else tuple(m.rules), 1.0,
                          Verdict.PASSED if m.caught else Verdict.WRONG, message=clean_text(message),
                          hidden=m.hidden, kind="own_tests")
        cases.append((case, got, share))
    return cases


def own_tests_result(result: SubmissionResult) -> SubmissionResult | None:
    """A submission's own tests as a result of their own (one JUnit suite), or None when none were graded."""
    suite = result.suite
    if suite is None:
        return None
    cases = own_test_cases(suite)
    tests = [t for t, _, _ in cases]
    own = SubmissionResult(f"{result.submission}: {suite.test_file}", result.source_hash, suite.compiled,
                           suite.compiler_output, [], [], tests, seconds=suite.seconds)
    own.groups = [GroupMarks(GROUP, sum(t.passed for t in tests), len(tests), suite.score, suite.max_score)]
    return own

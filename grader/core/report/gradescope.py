"""Gradescope's ``results.json`` (https://gradescope-autograders.readthedocs.io/en/latest/specs/).

Top level: ``score`` (it overrides the sum of the tests on Gradescope),
``max_score``, ``execution_time`` (whole seconds), a short ``output``, and one
entry per ``TestResult``.  A test's ``max_score`` is its share by weight of its
marks group's ``max_marks``; its ``score`` is its share by weight of the marks
the group actually got, among the group's passed tests -- so the tests of a
group always add up to the group's marks, whatever the scoring rule (weighted,
all-or-nothing random games, rounding), and the tests add up to ``score``.

Every text is shown as plain text (``output_format``/``test_output_format``
``text``): student output can never become HTML or Markdown on Gradescope.  A
hidden test's output is just "hidden test", and it is ``after_published``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..replay import step_by_step
from .escape import clean_text
from .own_tests import own_test_cases

PLACES = 4  # decimals of a per-test score


def _shares(amount: float, weights: list[float]) -> list[float]:
    """``amount`` split by ``weights``, rounded, the rounding residue on the last non-zero share."""
    total = sum(weights)
    if not weights or total <= 0 or amount == 0:
        return [0.0] * len(weights)
    out = [round(amount * w / total, PLACES) for w in weights]
    last = max(i for i, w in enumerate(weights) if w > 0)
    out[last] = round(out[last] + amount - sum(out), PLACES + 4)
    return out


def test_marks(result: Any) -> dict[int, tuple[float, float]]:
    """Each test's (score, max_score), keyed by its index in ``result.tests``."""
    groups = {g.group: g for g in result.groups}
    members: dict[str, list[int]] = {}
    for i, t in enumerate(result.tests):
        members.setdefault(t.mark_group, []).append(i)
    out: dict[int, tuple[float, float]] = {}
    for name, idx in members.items():
        g = groups.get(name)
        if g is None:  # a test outside every marks group earns nothing and can earn nothing
            out.update({i: (0.0, 0.0) for i in idx})
            continue
        weights = [max(result.tests[i].weight, 0.0) for i in idx]
        if not any(weights):  # weightless tests: equal shares of max_marks (grade.mark gives them 0 marks)
            weights = [1.0] * len(idx)
        maxima = _shares(g.max_marks, weights)
        passed = [w * result.tests[i].earns_marks for i, w in zip(idx, weights)]
        scores = _shares(g.marks, passed)
        out.update({i: (s, m) for i, s, m in zip(idx, scores, maxima)})
    return out


def _summary(result: Any) -> str:
    n = len(result.tests)
    passed = sum(1 for t in result.tests if t.passed)
    failed = sum(1 for t in result.tests if t.verdict.family == "fail")
    hidden = sum(1 for t in result.tests if t.verdict.value == "not shown")
    lines = [f"Score {result.score:g} / {result.max_score:g}: {passed} of {n} tests passed, {failed} failed"
             + (f", {hidden} not shown (a difference another test owns hid their rule: they earn only what "
                f"was seen)." if hidden else ".")]
    if not result.build_ok:
        lines.append("Your code did not compile, so the tests that need it were not run: "
                     "see the build test for the compiler's messages.")
    errors = sum(1 for t in result.tests if t.verdict.family == "error")
    if errors:
        lines.append(f"The grader itself failed on {errors} test(s). That is not your fault; "
                     "staff have been told and will look at it.")
    suite = getattr(result, "suite", None)
    if suite is not None:
        lines.append(f"Implementation {result.score:g} / {result.max_score:g}; your tests ({suite.test_file}) "
                     f"{suite.score:g} / {suite.max_score:g}, marked apart: valid {'yes' if suite.valid else 'no'}, "
                     f"{suite.caught} of {len(suite.mutants)} buggy implementations caught.")
        if suite.rules_never_checked():
            lines.append(f"No test of yours checks {', '.join(suite.rules_never_checked())}.")
    if result.game:
        lines.append(f"Graded as {clean_text(result.game, 256)}.")
    if result.profile:
        lines.append(f"Rulings profile: {clean_text(result.profile, 256)}.")
    return "\n".join(lines)


def gradescope_json(result: Any) -> dict[str, Any]:
    marks = test_marks(result)
    tests = []
    for i, t in enumerate(result.tests):
        score, max_score = marks[i]
        if t.hidden:
            output = "hidden test"
        else:
            output = (clean_text(t.message) or ("" if t.passed else t.verdict.value)) + step_by_step(t, "report.html")
        tests.append({
            "name": clean_text(t.id, 1024),
            "score": score,
            "max_score": max_score,
            "status": "passed" if t.verdict.family == "pass" else "failed",
            "output": output,
            "output_format": "text",
            "visibility": "after_published" if t.hidden else "visible",
            "tags": [clean_text(r, 256) for r in t.rules],
        })
    suite = getattr(result, "suite", None)
    for case, score, max_score in own_test_cases(suite) if suite is not None else ():
        tests.append({
            "name": clean_text(case.id, 1024), "score": score, "max_score": max_score,
            "status": "passed" if case.passed else "failed",
            "output": "hidden test" if case.hidden else case.message,
            "output_format": "text", "visibility": "after_published" if case.hidden else "visible",
            "tags": list(case.rules),
        })
    return {
        "score": round(result.score + (suite.score if suite is not None else 0), 2),
        "max_score": round(result.max_score + (suite.max_score if suite is not None else 0), 2),
        "execution_time": int(round(result.seconds)),
        "output": _summary(result),
        "output_format": "text",
        "test_output_format": "text",
        "test_name_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def write_gradescope(result: Any, path: Path | str) -> None:
    text = json.dumps(gradescope_json(result), indent=1, ensure_ascii=False, allow_nan=False)
    Path(path).write_text(text + "\n", encoding="utf-8")

"""Gradescope's results.json: score, max_score, and one entry per test with its share of the marks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .escape import clean_text

MARK_GROUP = {"build": "build", "api": "build", "random": "random_games", "memory": "memory"}


def mark_group(test: Any) -> str:
    return MARK_GROUP.get(test.kind, test.group)


def test_marks(result: Any) -> dict[str, tuple[float, float]]:
    """Each test's (score, max_score): its group's marks shared by weight."""
    groups = {g.group: g for g in result.groups}
    weights: dict[str, float] = {}
    for t in result.tests:
        weights[mark_group(t)] = weights.get(mark_group(t), 0.0) + t.weight
    out = {}
    for t in result.tests:
        g = groups.get(mark_group(t))
        if g is None or not weights[mark_group(t)]:
            out[t.id] = (0.0, 0.0)
            continue
        share = g.max_marks * t.weight / weights[mark_group(t)]
        out[t.id] = (share if t.passed else 0.0, share)
    if any(g.group == "random_games" for g in result.groups):  # all-or-nothing scoring is decided per group
        g = groups["random_games"]
        got = sum(out[t.id][0] for t in result.tests if mark_group(t) == "random_games")
        if abs(got - g.marks) > 1e-6:
            for t in result.tests:
                if mark_group(t) == "random_games":
                    out[t.id] = (0.0, out[t.id][1])
    return out


def gradescope_json(result: Any) -> dict[str, Any]:
    marks = test_marks(result)
    tests = []
    for t in result.tests:
        score, max_score = marks[t.id]
        entry = {
            "name": t.id, "score": round(score, 4), "max_score": round(max_score, 4),
            "status": "passed" if t.passed else "failed",
            "output": "hidden test" if t.hidden else clean_text(t.message or t.outcome.value),
            "visibility": "after_published" if t.hidden else "visible",
            "tags": list(t.rules),
        }
        tests.append(entry)
    failed = sum(1 for t in result.tests if not t.passed)
    return {
        "score": result.score, "max_score": result.max_score, "execution_time": round(result.seconds, 2),
        "output": f"{len(result.tests) - failed} of {len(result.tests)} tests passed "
                  f"(rulings profile: {result.profile}).",
        "visibility": "visible", "stdout_visibility": "hidden", "tests": tests,
    }


def write_gradescope(result: Any, path: Path) -> None:
    Path(path).write_text(json.dumps(gradescope_json(result), indent=1), encoding="utf-8")

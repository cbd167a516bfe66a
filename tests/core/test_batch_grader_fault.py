"""A fault of the grader stays in its test (issue 31, item 5): the submission's other results stand.

A fault is injected into the comparison of one scenario while the model submission is graded: that test
is a grader ERROR and every other test keeps its verdict in every report (result.json, JUnit, Gradescope,
the HTML page), ``fcd-grade`` exits 2, and in ``fcd-grade batch`` the class CSV, the dashboard and the store
keep the submission's other results with the error visible (exit 2), the store flagging the result so that
the next run grades the submission again.

How the fault gets in: ``fcd-grade`` grades in a process of its own (in a batch, a task starts one per
submission: ``grader.core.batch.task``), so a monkeypatch of this process would not reach it.  The
grading process is started through a small script instead (``fault_cli.py``, written here), which wraps
the 2018 session's comparison so that it raises for one scenario id, makes that scenario skip the C
observer's one-call check (on the model it would pass there without a comparison) and then runs the very
``grader.core.cli.main`` with the same arguments.  In the batch, the task's ``subprocess`` is given a
``Popen`` that starts that script in place of ``python -m grader.core.cli``; everything else -- the task's
reading of the result, the store, the reports, the CSV and the dashboard -- runs as it does for staff.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import xmlschema

from grader.core.batch import task
from grader.core.batch.store import ResultKey, ResultStore, grader_version
from grader.core.batch.task import GradeOutput, failed_result
from grader.core.cli import main
from grader.core.interpreter import python_module
from grader.core.report.write import write_reports
from grader.core.results import GroupMarks, SubmissionResult, Verdict
from grader.core.results import TestResult as Result  # (a Test* name would be collected)
from grader.games.fcd18s2 import GAME
from grader.games.fcd18s2.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "fixtures" / "submissions" / "model"
SCHEMA = ROOT / "grader" / "core" / "schemas" / "junit.xsd"
FAST = ["--random-games", "0", "--no-memory", "--no-tests"]
TARGET = "skip/a_skips_player_1"  # the scenario whose comparison breaks
SCENARIOS = len(load_scenarios())

FAULT_CLI = '''
"""fcd-grade, with the comparison of one scenario (argv[1]) broken: a fault of the grader's own."""
import sys

from grader.games.fcd import session

target = sys.argv[1]
current = {"id": None}
run_game, equal_in_c, compare = session.FcdSession.run_game, session.FcdSession._equal_in_c, session.compare


def traced(self, test_id, *args, **kwargs):
    current["id"] = test_id
    try:
        return run_game(self, test_id, *args, **kwargs)
    finally:
        current["id"] = None


def native(self, *args, **kwargs):  # the target goes to the full comparison, as a failing game would
    return session.DIFFERENT if current["id"] == target else equal_in_c(self, *args, **kwargs)


def broken(*args, **kwargs):
    if current["id"] == target:
        hand = []
        return hand[0]  # a message formatter indexing an empty hand (issue 31)
    return compare(*args, **kwargs)


session.FcdSession.run_game, session.FcdSession._equal_in_c, session.compare = traced, native, broken

from grader.core.cli import main  # noqa: E402

raise SystemExit(main(sys.argv[2:]))
'''


@pytest.fixture
def fault_cli(tmp_path: Path) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "fault_cli.py"
    script.write_text(FAULT_CLI)
    return script


def _check_other_results_stand(data: dict[str, Any]) -> None:
    """result.json (or a stored result): the target is a grader error, every other test passed."""
    tests = {t["id"]: t for t in data["tests"]}
    assert tests[TARGET]["verdict"] == Verdict.ERROR.value
    assert "IndexError" in tests[TARGET]["message"] and "not in your code" in tests[TARGET]["message"]
    others = [t for t in data["tests"] if t["id"] != TARGET]
    assert [t["id"] for t in others if t["verdict"] != Verdict.PASSED.value] == []
    assert sum(1 for t in others if t["kind"] == "scenario") == SCENARIOS - 1  # every scenario but one
    assert data["status"] == "grader error"
    groups = {g["group"]: g for g in data["groups"]}
    skip = groups["skip"]
    assert (skip["passed"], skip["total"]) == (skip["total"] - 1, skip["total"])
    assert 0 < skip["marks"] < skip["max_marks"]
    assert all(g["marks"] == g["max_marks"] for name, g in groups.items() if name != "skip")
    assert data["score"] == pytest.approx(data["max_score"] - (skip["max_marks"] - skip["marks"]), abs=0.01)


def test_one_broken_comparison_is_one_grader_error_in_every_report(fault_cli: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    proc = subprocess.run([sys.executable, str(fault_cli), TARGET, str(MODEL), "--out", str(out), *FAST],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2, proc.stdout + proc.stderr  # a grader error: regrade
    data = json.loads((out / "result.json").read_text())
    _check_other_results_stand(data)
    n = len(data["tests"])

    xmlschema.XMLSchema(SCHEMA).validate(out / "junit.xml")
    suite = ET.parse(out / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("errors"), suite.get("failures")) == (str(n), "1", "0")
    errors = [c.get("name") for c in suite.iter("testcase") if c.find("error") is not None]
    assert errors == [TARGET.replace("/", ".")]

    gradescope = json.loads((out / "results.json").read_text())
    by_name = {t["name"]: t for t in gradescope["tests"]}
    assert len(by_name) == n
    assert by_name[TARGET]["status"] == "failed" and by_name[TARGET]["score"] == 0
    assert "The grader itself failed" in by_name[TARGET]["output"]
    assert all(t["status"] == "passed" and t["score"] == pytest.approx(t["max_score"], abs=0.01)  # (marks: 2 decimals)
               for name, t in by_name.items() if name != TARGET)
    assert gradescope["score"] == data["score"] and "The grader itself failed on 1 test(s)" in gradescope["output"]

    html = (out / "report.html").read_text()
    assert "grader error" in html and TARGET in html and f"{n - 1} of {n} tests passed" in html


def _batch_through(monkeypatch: pytest.MonkeyPatch, script: Path) -> None:
    """The batch's grading processes start ``script`` (with the target) instead of ``python -m grader.core.cli``."""
    real = subprocess.Popen
    cli = python_module("grader.core.cli")  # how the task starts fcd-grade (never from the current folder)

    def popen(argv: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(argv, list) and argv[:len(cli)] == cli:
            argv = [*cli[:-2], str(script), TARGET, *argv[len(cli):]]
        return real(argv, *args, **kwargs)

    class Subprocess:  # the task's view of the subprocess module, Popen aside
        Popen = staticmethod(popen)

        def __getattr__(self, name: str) -> Any:
            return getattr(subprocess, name)

    monkeypatch.setattr(task, "subprocess", Subprocess())


def _row(out: Path) -> dict[str, str]:
    with (out / "class.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["submission"] for r in rows] == ["model"]
    return rows[0]


def _stored(out: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((out / "store").glob("*.json")) if p.name != "index.json"]


def test_a_batch_keeps_the_other_results_flags_the_submission_and_grades_it_again(
        fault_cli: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    root, out = tmp_path / "class", tmp_path / "out"
    (root / "model").mkdir(parents=True)
    for c in MODEL.glob("*.c"):
        (root / "model" / c.name).write_bytes(c.read_bytes())
    args = ["batch", str(root), "--out", str(out), "--jobs", "1", *FAST]

    _batch_through(monkeypatch, fault_cli)
    assert main(args) == 2
    printed = capsys.readouterr()
    assert "1 submissions: 1 graded (1 new)" in printed.out
    assert "0/0" not in printed.err  # the "grader error, 0/0": the submission thrown away
    row = _row(out)
    result = json.loads((out / "reports" / "model" / "result.json").read_text())
    _check_other_results_stand(result)
    assert row["status"] == "grader error"
    assert float(row["total"]) == result["score"] and 0 < float(row["total"]) < float(row["max"])
    assert row["skip"] == f"{next(g['marks'] for g in result['groups'] if g['group'] == 'skip'):g}"
    assert all(row[g["group"]] == f"{g['max_marks']:g}" for g in result["groups"] if g["group"] != "skip")
    stored = _stored(out)
    assert len(stored) == 1 and stored[0]["regrade"] is True  # kept, flagged for regrading
    _check_other_results_stand(stored[0]["result"])
    journal = [json.loads(line) for line in (out / "store" / "journal.jsonl").read_text().splitlines()]
    assert [(j["submission"], j.get("regrade")) for j in journal] == [("model", True)]
    dashboard = (out / "dashboard.html").read_text()
    n = len(result["tests"])
    assert f">{n - 1} / {n}</td>" in dashboard  # the student's row: every other test passed ...
    assert "<td>grader error 1</td>" in dashboard  # ... and the error counted among the problems
    assert re.search(r"<strong>grader error</strong> \(1\):\s*<a href=\"reports/model/report.html\">model</a>",
                     dashboard)
    assert (out / "reports" / "model" / "report.html").is_file()

    # The next run grades the flagged submission again (the fault still there: still flagged, exit 2) ...
    assert main(args) == 2
    assert "1 submissions: 1 graded (1 regrade after a grader error), 0 from the store" in capsys.readouterr().out
    assert len(_stored(out)) == 1 and _stored(out)[0]["regrade"] is True

    # ... a regrading that cannot finish at all (a lost worker) shows the stored results, not 0/0 ...
    lost = GradeOutput("model", failed_result("model", "none", "the worker was lost").to_json(), {},
                       grader_version(), "here")
    monkeypatch.setattr("grader.core.batch.executors.grade_submission", lambda job: lost)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("model:") == 1 and f"[1/1] model: {result['score']:g}/{result['max_score']:g} grader error" in err
    row = _row(out)
    assert row["status"] == "grader error" and float(row["total"]) == result["score"]
    shown = json.loads((out / "reports" / "model" / "result.json").read_text())
    assert [t["id"] for t in shown["tests"] if t["verdict"] == Verdict.ERROR.value] == [TARGET, "grading/finished"]
    assert _stored(out)[0]["regrade"] is True  # nothing new stored: still to be graded again

    # ... and once the grader is fixed, it is graded again, stored for good, and then taken from the store.
    monkeypatch.undo()
    assert main(args) == 0
    assert "1 graded (1 regrade after a grader error)" in capsys.readouterr().out
    row = _row(out)
    assert row["status"] == "passed" and row["total"] == row["max"]
    assert len(_stored(out)) == 1 and _stored(out)[0]["regrade"] is False
    assert main(args) == 0
    assert "1 submissions: 0 graded, 1 from the store" in capsys.readouterr().out


def test_a_report_that_cannot_be_made_is_an_error_of_its_own_and_the_others_are_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tests = [Result("skip/a", "skip", ("R8",), 1.0, Verdict.PASSED), Result("skip/b", "skip", ("R8",), 1.0,
                                                                            Verdict.PASSED)]
    result = SubmissionResult("ann", "abc", True, "", [], ["gcc"], tests, groups=[GroupMarks("skip", 2, 2, 5.0, 5.0)],
                              game=GAME.title)

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("injected: the HTML writer broke")

    monkeypatch.setattr("grader.core.report.html.write_html", broken)
    shown = write_reports(result, tmp_path, GAME)
    assert shown.status == "grader error" and shown.score == 5.0
    data = json.loads((tmp_path / "result.json").read_text())
    assert [(t["id"], t["verdict"]) for t in data["tests"]] == [
        ("skip/a", "passed"), ("skip/b", "passed"), ("reports/report.html", "grader error")]
    assert "injected: the HTML writer broke" in data["tests"][2]["message"]
    xmlschema.XMLSchema(SCHEMA).validate(tmp_path / "junit.xml")
    cases = ET.parse(tmp_path / "junit.xml").getroot().iter("testcase")
    assert [c.get("name") for c in cases if c.find("error") is not None] == ["reports.report.html"]
    gradescope = json.loads((tmp_path / "results.json").read_text())
    assert gradescope["score"] == 5.0 and len(gradescope["tests"]) == 3
    assert not (tmp_path / "report.html").exists()  # what could not be made is not half made


def test_a_grading_that_exits_2_with_its_result_is_a_result_not_a_lost_submission(
        fault_cli: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The task reads the result of a grading that ended with a grader error (exit 2) like any other."""
    _batch_through(monkeypatch, fault_cli)
    files = {c.name: c.read_bytes() for c in MODEL.glob("*.c")}
    out = task.grade_submission(task.GradeJob("model", files, "fcd18s2", None, tuple(FAST), 600.0))
    _check_other_results_stand(out.result)
    assert {"result.json", "junit.xml", "results.json", "report.html"} <= set(out.reports)


def test_a_flagged_result_is_kept_but_not_taken_as_final(tmp_path: Path) -> None:
    """The store's side: a result with a grader error is stored flagged; ``get`` (what a rerun trusts) does not
    return it, ``provisional`` does; a later, clean grading replaces it for good."""
    key = ResultKey("src", "grader", "marking")
    ok = Result("skip/a", "skip", ("R8",), 1.0, Verdict.PASSED)
    broken = Result("skip/b", "skip", ("R8",), 1.0, Verdict.ERROR, message="the grader failed")
    partial = SubmissionResult("ann", "src", True, "", [], [], [ok, broken],
                               groups=[GroupMarks("skip", 1, 2, 2.5, 5.0)])
    store = ResultStore(tmp_path / "store")
    store.put("ann", key, partial, regrade=True)
    assert store.get("ann", key) is None
    kept = store.provisional("ann", key)
    assert kept is not None and [t.verdict for t in kept.tests] == [Verdict.PASSED, Verdict.ERROR]
    assert store.provisional("bob", key).submission == "bob"  # the same sources, handed in twice
    whole = SubmissionResult("ann", "src", True, "", [], [], [ok, dataclasses.replace(broken, verdict=Verdict.PASSED)],
                             groups=[GroupMarks("skip", 2, 2, 5.0, 5.0)])
    store.put("ann", key, whole)
    assert store.get("ann", key).score == 5.0 and store.provisional("ann", key) is None
    assert [j.get("regrade", False) for j in store.journal()] == [True, False]

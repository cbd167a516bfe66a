"""The class dashboard (``grader.core.report.dashboard``) of a hand-built class of four, its figures worked
out by hand: pass rates, first failures with their example links, the problem lists, the plots, and a
hostile folder name that stays text.  (tests/core/test_dashboard_browser.py opens a real batch's dashboard.)"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader.core.grade import mark
from grader.core.report.dashboard import dashboard, render_dashboard
from grader.core.results import SubmissionResult, Verdict
from grader.core.results import TestResult as Result  # (a Test* name would be collected)

MAX_MARKS = {"build": 2.0, "play": 6.0, "end": 2.0}
DAN = '<script>window.pwned=1</script>dan"'


def T(test_id: str, verdict: Verdict, **kw) -> Result:  # noqa: N802 - a test's short name
    kind = "build" if test_id.startswith("build/") else "scenario"
    return Result(test_id, test_id.split("/")[0], kw.pop("rules", ("R1",)), 1.0, verdict, kind=kind, **kw)


def student(name: str, verdicts: dict[str, Verdict], seconds: float, **kw) -> SubmissionResult:
    tests = [T(tid, v, **kw.get(tid, {})) for tid, v in verdicts.items()]
    result = SubmissionResult(name, "h", verdicts["build/compiles"] is Verdict.PASSED, "", [], [], tests,
                              seconds=seconds)
    config = SimpleNamespace(marks=MAX_MARKS.__getitem__, group_marks=MAX_MARKS.__getitem__,
                             random_scoring="weighted")
    result.groups = mark(tests, config)
    return result


P, W, C, T_O, N = Verdict.PASSED, Verdict.WRONG, Verdict.CRASHED, Verdict.TIMED_OUT, Verdict.NOT_RUN


@pytest.fixture
def klass(tmp_path: Path) -> tuple[list[SubmissionResult], Path]:
    results = [
        student("ann", {"build/compiles": P, "play/a": P, "play/b": P, "end/c": P}, 2.0),
        student("ben", {"build/compiles": P, "play/a": W, "play/b": C, "end/c": P}, 3.0,
                **{"play/a": {"deck": "5RH 6RH", "moves": "draw end", "difference": {
                    "step": 3, "what": "currentPlayer()", "expected": "1", "got": "2"}, "rules": ("R8", "A3")}}),
        student("cat", {"build/compiles": W, "play/a": N, "play/b": N, "end/c": N}, 0.5),
        student(DAN, {"build/compiles": P, "play/a": P, "play/b": T_O, "end/c": W}, 9.0),
    ]
    for name in ("ann", "ben", DAN):  # grading wrote a report for these (cat's folder would not unpack, say)
        (tmp_path / "reports" / name).mkdir(parents=True)
        (tmp_path / "reports" / name / "report.html").write_text("report")
    return results, tmp_path


def test_the_figures_of_a_class(klass: tuple[list[SubmissionResult], Path]) -> None:
    results, out = klass
    d = dashboard(results, out, "Final Card-Down (2018)")
    # Marks: ann 10, ben 2 + 0 + 2 = 4 (play: 0 of 2), cat 0, dan 2 + 3 + 0 = 5.
    assert [r.score for r in results] == [10, 4, 0, 5]
    assert (d.mean, d.median, d.max_score) == ("4.75", "4.5", "10")
    assert d.statuses == [("build failed", 1), ("failed", 2), ("passed", 1)]
    assert d.compiled == 3
    # Pass rates among the three that compiled; the hardest test first.
    assert [(t.id, t.passed, t.total) for t in d.tests] == [
        ("play/b", 1, 3), ("end/c", 2, 3), ("play/a", 2, 3), ("build/compiles", 3, 3)]
    assert [(g.group, g.passed, g.total) for g in d.groups] == [("build", 3, 3), ("end", 2, 3), ("play", 3, 6)]
    # First failures: ben's play/a (opens its replay at step 3), dan's play/b (no game: the test's anchor).
    assert [(f.id, f.count, f.example, f.href) for f in d.first_failures] == [
        ("play/a", 1, "ben", "reports/ben/report.html#play/a/step-3"),
        ("play/b", 1, DAN, "reports/%3Cscript%3Ewindow.pwned%3D1%3C%2Fscript%3Edan%22/report.html#play/b")]
    assert d.first_failures[0].rules == "R8 A3"
    problems = {what: [s.name for s in who] for what, who in d.problems}
    assert problems["build failed"] == ["cat"] and problems["crashed"] == ["ben"]
    assert problems["timed out"] == [DAN] and len(problems) == 3
    assert d.clear == ["unreadable", "unsupported archive", "nothing handed in", "refused", "grader error",
                       "memory limit", "output limit", "exited early"]
    ben = d.students[1]
    assert (ben.href, ben.passed, ben.total, ben.problems) == ("reports/ben/report.html", 2, 4, "crashed 1")
    assert d.students[2].href == ""  # no report to link to
    assert (d.total_seconds, d.median_seconds) == ("14", "2.5")


def _svgs(page: str) -> list[str]:
    return [base64.b64decode(src).decode() for src in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)]


def test_the_page_is_whole_plain_and_the_same_every_time(klass: tuple[list[SubmissionResult], Path]) -> None:
    results, out = klass
    page = render_dashboard(results, out, "Final Card-Down (2018)")
    assert page == render_dashboard(results, out, "Final Card-Down (2018)")  # same class, same bytes
    shown = re.findall(r"(.{14})window\.pwned", page)  # dan's name: escaped as text, URL-quoted in links
    assert len(shown) > 3 and all(before.endswith(("&lt;script&gt;", "%3Cscript%3E")) for before in shown)
    assert set(re.findall(r"<script[^>]*>", page)) == {"<script>"} and page.count("<script>") == 1  # the sorter
    assert not re.search(r'(src|href)="(?!data:image/svg\+xml;base64,|reports/)', page)  # nothing fetched
    svgs = _svgs(page)
    assert len(svgs) == 3 and all(svg.lstrip().startswith("<?xml") and "<script" not in svg for svg in svgs)
    assert "marks (out of 10)" in svgs[0] and "seconds" in svgs[1] and "50%" in svgs[2]
    alts = re.findall(r'<img src="[^"]+" alt="([^"]+)"', page)
    assert alts[0].startswith("Histogram of the marks of 4 submissions out of 10")
    assert "median 2.5 s, longest 9.0 s" in alts[1]
    assert "build 100%; end 67%; play 50%" in alts[2]
    # Each student's row, in the class's order, with the number each sortable cell sorts by.
    rows = re.findall(r'<td class="num" data-sort="([\d.]+)">[^<]* / 10</td>', page)
    assert rows == ["10.0", "4.0", "0.0", "5.0"]


def test_an_empty_class_still_gets_a_page(tmp_path: Path) -> None:
    page = render_dashboard([], tmp_path, "Final Card-Down (2018)")
    assert "0 submissions" in page and len(_svgs(page)) == 3

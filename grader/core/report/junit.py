"""JUnit XML for CI systems, built with the ``junit-xml`` package: one testsuite per submission, named by the
game graded against and the submission (``Palace: alice``; its own tests ``Final Card-Down (2018): alice:
testGame.c``, its player ``Final Card-Down (2018): alice: player.c``, a testcase per mark).

Each ``TestResult`` is a testcase ``<group>.<name>`` of class ``fcd.<group>``:

* family ``fail`` -> ``<failure type="<verdict>" message="<first line>">full message</failure>``
* family ``skip`` (NOT_RUN) -> ``<skipped>``; family ``error`` (ERROR, a bug of ours) -> ``<error>``
* what the student's code printed -> the testcase's ``<system-out>`` / ``<system-err>``
* a hidden test shows its name and whether it passed, nothing else: its
  failure/skipped/error element is empty (no message, no type, no text) and
  it carries no captured output.

Suite properties: score, max_score, status, profile, game, sandbox, source_hash and
the marks of every group.  Every piece of student text goes through
``clean_text`` (illegal XML characters shown as #xNN, at most 64 KiB).

junit-xml 1.9 needs repairs, made on its element tree before serialising: it
writes a ``disabled`` attribute the junit-10 schema does not know, writes
times as ``str(float)`` or ``%f`` (the schema allows at most three decimals)
and leaves out a testcase's time when it is 0,
puts the suite's ``system-out`` before its testcases, and silently drops a
failure or error that has neither message nor output (and then does not count
it) -- so a hidden test gets a placeholder message that is removed again.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable, Sequence

from junit_xml import TestCase, TestSuite, to_xml_report_string

from ..marks import mark_text
from ..replay import step_by_step
from ..results import SubmissionResult, TestResult
from .escape import clean_text, first_line
from .own_tests import own_tests_result
from .players import players_result

_PLACEHOLDER = "hidden test"  # only so junit-xml keeps the element; stripped afterwards
_OUTCOME_TAGS = ("failure", "error", "skipped")


def case_name(t: TestResult) -> str:
    """``<group>.<name>`` from the test id ``group/name``."""
    _, sep, name = t.id.partition("/")
    return f"{t.group}.{name if sep else t.id}"


def _case(t: TestResult, report: str = "report.html") -> TestCase:
    case = TestCase(name=clean_text(case_name(t), 1024), classname=clean_text(f"fcd.{t.group}", 1024),
                    elapsed_sec=t.seconds or None)
    family = t.verdict.family
    if t.hidden:
        if family == "fail":
            case.add_failure_info(message=_PLACEHOLDER)
        elif family == "skip":
            case.add_skipped_info(message=_PLACEHOLDER)
        elif family == "error":
            case.add_error_info(message=_PLACEHOLDER)
        return case
    full = clean_text(t.message) + step_by_step(t, report)
    said = f"[{t.verdict.value}] {full}\n" if family == "pass" and full else ""  # an inconclusive test says why
    case.stdout = (said + clean_text(t.stdout)) or None
    case.stderr = clean_text(t.stderr) or None
    summary = first_line(full) or t.verdict.value
    if family == "fail":
        case.add_failure_info(message=summary, output=full or None, failure_type=t.verdict.value)
    elif family == "skip":
        case.add_skipped_info(message=summary, output=full if full and full != summary else None)
    elif family == "error":
        case.add_error_info(message=summary, output=full or None, error_type=t.verdict.value)
    return case


def _properties(result: SubmissionResult) -> dict[str, str]:
    props = {
        "score": mark_text(result.score), "max_score": mark_text(result.max_score), "status": result.status,
        "profile": clean_text(result.profile, 1024), "game": clean_text(result.game, 256),
        "sandbox": clean_text(result.sandbox, 1024),
        "source_hash": clean_text(result.source_hash, 1024),
    }
    for g in result.groups:
        props[f"marks.{clean_text(g.group, 256)}"] = f"{mark_text(g.marks)}/{mark_text(g.max_marks)}"
    return props


def suite_name(result: SubmissionResult, game: str = "") -> str:
    """``<game>: <submission>``: what a CI system lists the suite as (``game``: the title graded against)."""
    name = clean_text(result.submission, 1024) or "(unnamed)"
    return f"{clean_text(game, 256)}: {name}" if game else name


def suite(result: SubmissionResult, report: str = "report.html", game: str | None = None) -> TestSuite:
    """The junit-xml suite of one submission (before the schema repairs of ``junit_string``); ``report`` is
    where its HTML report is, from the XML file, for the links to replays; ``game``: the title it was graded
    against (the result's own unless given: the student's own tests are a result without one)."""
    return TestSuite(name=suite_name(result, result.game if game is None else game),
                     test_cases=[_case(t, report) for t in result.tests], properties=_properties(result),
                     stdout=clean_text(result.build_output) or None)


def _time(seconds: float) -> str:
    """Seconds with three decimals, the most the schema's SUREFIRE_TIME allows (never negative)."""
    return f"{max(float(seconds), 0.0):.3f}"


def _repair(root: ET.Element, results: Sequence[SubmissionResult]) -> None:
    """Make junit-xml's tree fit the junit-10 schema, and strip hidden tests to name and verdict."""
    root.attrib.pop("disabled", None)
    root.set("time", _time(sum(max(r.seconds, 0.0) for r in results)))
    for suite_el, result in zip(root.findall("testsuite"), results, strict=True):
        suite_el.attrib.pop("disabled", None)
        suite_el.set("time", _time(result.seconds))  # the whole grading of the submission, build included
        for tag in ("system-out", "system-err"):  # junit-xml puts them first; Surefire order is last
            for el in suite_el.findall(tag):
                suite_el.remove(el)
                suite_el.append(el)
        for case_el, t in zip(suite_el.findall("testcase"), result.tests, strict=True):
            case_el.set("time", _time(t.seconds))  # junit-xml leaves it out when it is 0
            if not t.hidden:
                continue
            for child in list(case_el):
                if child.tag in _OUTCOME_TAGS:
                    child.attrib.clear()
                    child.text = None
                else:  # no captured output for a hidden test
                    case_el.remove(child)


def _beside(result: SubmissionResult) -> str:
    return "report.html"


def junit_string(results: Sequence[SubmissionResult], report_of: Callable[[SubmissionResult], str] = _beside) -> str:
    """The whole JUnit document for ``results``, as text; ``report_of(result)``: its HTML report, relative
    to the XML file (beside it, for one submission)."""
    every = [(x, r) for r in results for x in (r, own_tests_result(r), players_result(r))  # parts apart: suites too
             if x is not None]
    raw = to_xml_report_string([suite(x, report_of(r), r.game) for x, r in every], prettyprint=False)
    root = ET.fromstring(raw)
    _repair(root, [x for x, _ in every])
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(results: Sequence[SubmissionResult], path: Path | str,
                report_of: Callable[[SubmissionResult], str] = _beside) -> None:
    Path(path).write_text(junit_string(results, report_of), encoding="utf-8")

"""JUnit XML (via the junit-xml package): one testsuite per submission."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from junit_xml import TestCase, TestSuite, to_xml_report_string

from .escape import clean_text


def _case(t: Any) -> TestCase:
    group, _, name = t.id.partition("/")
    case = TestCase(name=f"{group}.{name}", classname=f"fcd.{group}", elapsed_sec=round(t.seconds, 3))
    if not t.hidden:
        case.stdout = clean_text(t.stdout) or None
        case.stderr = clean_text(t.stderr) or None
    message = "hidden test" if t.hidden else clean_text(t.message)
    first = message.splitlines()[0] if message else t.outcome.value
    family = t.outcome.family
    if family == "fail":
        case.add_failure_info(message=clean_text(first, 500), output=message if not t.hidden else None,
                              failure_type=t.outcome.value)
    elif family == "skip":
        case.add_skipped_info(message=clean_text(first, 500), output=message if not t.hidden else None)
    elif family == "error":
        case.add_error_info(message=clean_text(first, 500), output=message, error_type="grader error")
    return case


def suite(result: Any) -> TestSuite:
    props = {"score": f"{result.score:g}", "max_score": f"{result.max_score:g}", "status": result.status,
             "profile": result.profile, "sandbox": result.sandbox, "source_hash": result.source_hash}
    for g in result.groups:
        props[f"marks.{g.group}"] = f"{g.marks:g}/{g.max_marks:g}"
    return TestSuite(name=clean_text(result.submission, 200), test_cases=[_case(t) for t in result.tests],
                     properties=props, stdout=clean_text(result.build_output) or None)


def junit_string(results: list[Any]) -> str:
    return to_xml_report_string([suite(r) for r in results], prettyprint=True, encoding="utf-8")


def write_junit(results: list[Any], path: Path) -> None:
    Path(path).write_text(junit_string(results), encoding="utf-8")

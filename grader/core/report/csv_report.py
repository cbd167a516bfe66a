"""The class CSV: one row per submission, marks per group, for staff and spreadsheets.

Columns: submission, the student's name, ID and email (as the class's LMS export gives them: blank for a
plain class), source_hash, status, one column per marks group, total, max, the tests passed,
failed and not shown (kept apart), the student's own tests (valid, mutants caught of how many, marks, max: blank
when not graded), their player (marks, max: blank when not graded), seconds, and the problem: why an
unreadable submission (status ``unreadable``: a broken archive, too big, too many files) could not be read,
blank otherwise; its max stays what it could have earned.  ``write_kill_matrix_csv``: which mutants each
student's tests caught.  The groups are the union over all results, in a stable order:
build first, then the scenario groups in the order they were graded (merged
across results), then random games and memory.  A group a submission has no
marks entry for is left blank rather than shown as 0.  Text cells that a
spreadsheet would run as a formula get a leading apostrophe.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Sequence

from grader.core.marks import mark_text as num
from grader.core.results import SubmissionResult, group_rank

from .escape import clean_text

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def group_order(results: Sequence[SubmissionResult]) -> list[str]:
    """The union of the results' groups: fixed stages in pipeline order, scenario groups merged
    so that each result's own order is kept where it can be."""
    order: list[str] = []
    for r in results:
        at = -1  # where the previous group of this result sits in ``order``
        for g in r.groups:
            if g.group in order:
                at = order.index(g.group)
            else:
                at += 1
                order.insert(at, g.group)
    return sorted(order, key=group_rank)  # stable: merged order within a rank


def spreadsheet_cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula."""
    text = clean_text(text, 1024).replace("\n", " ")
    return "'" + text if text.startswith(_FORMULA) else text


STUDENT_COLUMNS = ["name", "student_id", "email"]


def _student_cells(result: SubmissionResult) -> list[str]:
    """Who handed it in, as the LMS export says: blank when it does not."""
    s = result.student
    return ["", "", ""] if s is None else [spreadsheet_cell(s.name), spreadsheet_cell(s.student_id),
                                           spreadsheet_cell(s.email)]


TESTS_COLUMNS = ["tests_valid", "tests_caught", "tests_mutants", "tests_marks", "tests_max"]


def _tests_cells(result: SubmissionResult) -> list[str]:
    """The own-tests columns: blank when the submission's tests were not graded."""
    suite = getattr(result, "suite", None)
    if suite is None:
        return [""] * len(TESTS_COLUMNS)
    return ["yes" if suite.valid else "no", str(suite.caught), str(len(suite.mutants)), num(suite.score),
            num(suite.max_score)]


PLAYERS_COLUMNS = ["players_marks", "players_max"]


def _players_cells(result: SubmissionResult) -> list[str]:
    """The player's columns: blank when the submission's player was not graded."""
    players = getattr(result, "players", None)
    if players is None:
        return [""] * len(PLAYERS_COLUMNS)
    return [num(players.score), num(players.max_score)]


def write_class_csv(results: Sequence[SubmissionResult], path: Path | str) -> None:
    groups = group_order(results)
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["submission", *STUDENT_COLUMNS, "source_hash", "status", *groups, "total", "max", "passed",
                      "failed", "not_shown", *TESTS_COLUMNS, *PLAYERS_COLUMNS, "seconds", "problem"])
        for r in results:
            marks = {g.group: g.marks for g in r.groups}
            out.writerow([spreadsheet_cell(r.submission), *_student_cells(r), spreadsheet_cell(r.source_hash),
                          r.status,
                          *(num(marks[g]) if g in marks else "" for g in groups),
                          num(r.score), num(r.max_score), *_verdict_counts(r), *_tests_cells(r), *_players_cells(r),
                          f"{r.seconds:.1f}",
                          spreadsheet_cell(getattr(r, "unreadable", ""))])


def _verdict_counts(result: SubmissionResult) -> list[str]:
    """Tests passed, failed and not shown (a rule hidden by a difference another test owns), kept apart."""
    tests = result.tests
    return [str(sum(1 for t in tests if t.verdict.family == "pass")),
            str(sum(1 for t in tests if t.verdict.family == "fail")),
            str(sum(1 for t in tests if t.verdict.value == "not shown"))]


def write_kill_matrix_csv(results: Sequence[SubmissionResult], path: Path | str) -> None:
    """For staff: one row per submission and mutant its tests ran against (hidden ones named): whether its
    tests caught it, and with what (the checks, testGame.c:42, or what the run did)."""
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["submission", "mutant", "rules", "hidden", "caught", "caught_by", "test_functions"])
        for r in results:
            suite = getattr(r, "suite", None)
            for m in suite.mutants if suite is not None else ():
                out.writerow([spreadsheet_cell(r.submission), m.name, " ".join(m.rules), "yes" if m.hidden else "no",
                              "yes" if m.caught else "no", spreadsheet_cell(" ".join(m.by)),
                              spreadsheet_cell(" ".join(m.functions))])

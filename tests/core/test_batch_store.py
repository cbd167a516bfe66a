"""The batch's parts that need no grading: results stored by content, why a submission is graded again,
the task's refusal to raise, report folders swapped in whole, and the progress counts."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from grader.core.batch.progress import BatchProgress
from grader.core.batch.run import _place_reports
from grader.core.batch.store import PROJECT, ResultKey, ResultStore, grader_version, marking_hash, versioned_files
from grader.core.batch.submissions import read_files, write_files
from grader.core.batch.task import GradeJob, failed_result, grade_submission
from grader.core.results import GroupMarks, SubmissionResult, Verdict
from grader.core.results import TestResult as Result  # (a Test* name would be collected)

KEY = ResultKey("src1", "grader1", "marking1")


def _result(name: str, verdict: Verdict = Verdict.PASSED) -> SubmissionResult:
    test = Result("skip/a_skips_player_1", "skip", ("R5",), 1.0, verdict)
    return SubmissionResult(name, "src1", True, "", [], [], [test], groups=[GroupMarks("skip", 1, 1, 5.0, 5.0)])


def test_a_key_changes_with_each_of_its_three_parts_and_says_which() -> None:
    keys = {KEY.key, ResultKey("src2", "grader1", "marking1").key, ResultKey("src1", "grader2", "marking1").key,
            ResultKey("src1", "grader1", "marking2").key}
    assert len(keys) == 4
    assert KEY.why_new(None) == "new"
    assert ResultKey("src2", "grader1", "marking1").why_new(KEY) == "changed sources"
    assert ResultKey("src1", "grader2", "marking2").why_new(KEY) == "changed grader and marking"
    assert KEY.why_new(KEY) == "not stored"


def test_the_marking_hash_follows_the_configuration_and_the_options() -> None:
    base = marking_hash({"rulings": {"strict": []}}, {"options": ["--no-memory"]})
    assert base == marking_hash({"rulings": {"strict": []}}, {"options": ["--no-memory"]})
    assert base != marking_hash({"rulings": {"strict": ["A1"]}}, {"options": ["--no-memory"]})
    assert base != marking_hash({"rulings": {"strict": []}}, {"options": []})
    assert len(grader_version()) == 16 and grader_version() == grader_version()


def test_a_stored_result_reads_back_under_each_name_that_handed_in_its_sources(tmp_path: Path) -> None:
    store = ResultStore(tmp_path / "store")
    assert store.get("ann", KEY) is None
    store.put("ann", KEY, _result("ann"), worker="host:1")
    got = store.get("ann", KEY)
    assert got is not None and got.to_json() == _result("ann").to_json()
    twin = store.get("bob", KEY)  # bob handed in the same sources
    assert twin is not None and twin.submission == "bob" and twin.score == 5.0
    assert [line["submission"] for line in store.journal()] == ["ann"]
    assert ResultStore(tmp_path / "store").previous("ann") == KEY  # the index survives a new client
    assert not list((tmp_path / "store").glob("*.tmp")) and not list((tmp_path / "store").glob(".*"))


def test_a_damaged_store_entry_or_journal_line_is_graded_again_not_trusted(tmp_path: Path) -> None:
    store = ResultStore(tmp_path / "store")
    store.put("ann", KEY, _result("ann"))
    (tmp_path / "store" / f"{KEY.key}.json").write_text('{"result": {"submission": "ann"')  # cut short
    assert store.get("ann", KEY) is None
    with (tmp_path / "store" / "journal.jsonl").open("a") as f:
        f.write('{"submission": "bo')  # a kill in the middle of a line
    assert [line["submission"] for line in store.journal()] == ["ann"]
    (tmp_path / "store" / "index.json").write_text("[")
    assert ResultStore(tmp_path / "store").previous("ann") is None


def test_a_grading_that_cannot_finish_is_a_grader_error_never_a_students_build_failure() -> None:
    result = failed_result("ann", "none", "grading took longer than 900 s and was stopped")
    assert result.status == "grader error"
    data = json.loads(json.dumps(result.to_json()))
    assert data["tests"][0]["verdict"] == Verdict.ERROR.value


def test_a_task_never_raises_a_fault_of_its_own_is_an_error_result() -> None:
    job = GradeJob("ann", {"../../escape.c": b"int x;"}, "fcd18s2", None, (), 60.0)
    out = grade_submission(job)
    assert out.name == "ann" and out.grader == grader_version()
    assert out.result["tests"][0]["verdict"] == Verdict.ERROR.value
    assert "points outside ann" in out.result["tests"][0]["message"]


def test_files_are_shipped_without_links_and_written_back_inside_the_folder(tmp_path: Path) -> None:
    src = tmp_path / "ann"
    (src / "sub").mkdir(parents=True)
    (src / "Game.c").write_text("int g;")
    (src / "sub" / "notes.txt").write_text("hi")
    (src / "secret").symlink_to("/etc/passwd")
    files = read_files(src)
    assert files == {"Game.c": b"int g;", "sub/notes.txt": b"hi"}
    write_files(files, tmp_path / "copy")
    assert (tmp_path / "copy" / "sub" / "notes.txt").read_text() == "hi"
    with pytest.raises(ValueError, match="outside"):
        write_files({"../x": b""}, tmp_path / "copy2")


def test_a_report_folder_is_swapped_in_whole(tmp_path: Path) -> None:
    dest = tmp_path / "reports" / "ann"
    _place_reports({"report.html": b"old", "repro/a.c": b"a"}, dest)
    _place_reports({"report.html": b"new"}, dest)
    assert (dest / "report.html").read_bytes() == b"new" and not (dest / "repro").exists()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["ann"]  # nothing half-written left beside it
    with pytest.raises(ValueError, match="outside"):
        _place_reports({"../../evil": b""}, tmp_path / "reports" / "bob")


def test_progress_counts_done_failed_errors_and_stored(capsys: pytest.CaptureFixture[str]) -> None:
    progress = BatchProgress(3, console=Console(file=io.StringIO(), force_terminal=False))
    with progress:
        progress.finished(_result("ann"), cached=True)
        progress.finished(_result("bob", Verdict.WRONG), cached=False)
        progress.finished(failed_result("cy", "none", "lost"), cached=False)
    c = progress.counts
    assert (c.done, c.failed, c.errors, c.cached) == (3, 1, 1, 1)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "[1/3] ann: 5/5 passed (stored)"
    assert err[2].startswith("[3/3] cy: 0/0 grader error")


def test_the_grader_version_follows_what_marks_are_read_from_not_every_fixture() -> None:
    """Issue 45: editing a fixture only the tests read (a hostile submission, a class export, a student's test
    program) must not regrade a class; a scenario, a mutant a student's tests run against or its table must."""
    files = {p.resolve().relative_to(PROJECT).as_posix() for p in versioned_files()}
    for marked in ("fixtures/scenarios/draw_two.toml", "fixtures/fcd17s2/scenarios", "fixtures/palace/scenarios",
                   "fixtures/submissions/model/Game.c", "fixtures/submissions/mutants/d_is_wild/Game.c",
                   "fixtures/submissions/mutants.py", "fixtures/submissions/variants.py",
                   "fixtures/fcd17s2/submissions/readings.py", "fixtures/palace/submissions/mutants.py",
                   "grader/core/grade.py", "reference/game.py", "grader/games/fcd18s2/marking.toml"):
        assert any(f == marked or f.startswith(marked + "/") for f in files), marked
    for test_only in ("fixtures/submissions/hostile/", "fixtures/submissions/stubs/", "fixtures/submissions/pairs/",
                      "fixtures/classes/", "fixtures/student_tests/", "fixtures/players/",
                      "fixtures/submissions/planted.py"):
        assert not any(f.startswith(test_only) for f in files), test_only

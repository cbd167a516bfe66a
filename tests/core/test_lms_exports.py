"""A class as Moodle, Canvas and Gradescope export it (issue 45, item 3): each student their own row, with
their name and ID, the marks a direct grade of their files gives, and, for what cannot be graded (a .rar, an
empty folder), a status of its own and what to hand in instead.

The classes are ``fixtures/classes/exports.py``'s, laid out as each LMS's documentation describes its
download; the marks to expect are those of ``fcd-grade`` on each student's bundled files, graded here.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from grader.core.batch.exports import arrange, which_lms
from grader.core.batch.submissions import discover
from grader.core.cli import main
from grader.core.submission import open_submission

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--random-games", "0", "--no-memory", "--no-tests"]


def _exports() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fixture_exports", ROOT / "fixtures" / "classes" / "exports.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


EXPORTS = _exports()


@pytest.fixture(scope="module")
def direct_marks(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, tuple[str, float]]:
    """``fcd-grade`` on each bundled submission the classes are made of: (status, total)."""
    marks = {}
    for sources in (EXPORTS.MODEL, EXPORTS.MUTANT):
        out = tmp_path_factory.mktemp("direct")
        main([str(sources), "--out", str(out), "--quiet", *FAST])
        result = json.loads((out / "result.json").read_text())
        marks[sources] = (result["status"], result["score"])
    return marks


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "class.csv").open(newline="", encoding="utf-8") as f:
        return {row["submission"]: row for row in csv.DictReader(f)}


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[list, dict[str, dict[str, str]], str]]:
    """Each LMS's class batched, one after another into one ``--out``: its store grades each distinct hand-in once
    (the classes are made of the same two submissions), as it would a class; each batch's rows and dashboard."""
    out = tmp_path_factory.mktemp("out")
    done = {}
    for lms, write in EXPORTS.WRITERS.items():
        root = tmp_path_factory.mktemp(lms)
        expected = write(root)
        assert which_lms(root) == lms
        main(["batch", str(root), "--out", str(out), "--jobs", "1", *FAST])
        done[lms] = (expected, _rows(out), (out / "dashboard.html").read_text())
    return done


@pytest.mark.parametrize("lms", ["moodle", "canvas", "gradescope"])
def test_each_student_of_an_lms_export_gets_their_own_row_name_id_and_direct_marks(
        lms: str, batches: dict[str, tuple[list, dict[str, dict[str, str]], str]],
        direct_marks: dict[Path, tuple[str, float]]) -> None:
    expected, rows, dashboard = batches[lms]
    assert sorted(rows) == sorted(s.submission for s in expected)  # one row a student, nothing else
    for s in expected:
        row = rows[s.submission]
        assert (row["name"], row["student_id"], row["email"]) == (s.name, s.student_id, s.email), s.submission
        if s.sources is None:  # what happened, and what to hand in instead (the words: the test below)
            assert row["status"] == s.status, s.submission
            assert "hand in your .c files themselves, or a .zip or .tar.gz of them" in row["problem"], s.submission
            continue
        status, total = direct_marks[s.sources]
        assert (row["status"], float(row["total"])) == (status, total), s.submission
    assert all(f"<td>{s.name} ({s.student_id})</td>" in dashboard for s in expected)


def test_a_rar_and_an_empty_folder_say_what_happened_and_what_to_hand_in(tmp_path: Path) -> None:
    root, out = tmp_path / "class", tmp_path / "out"
    EXPORTS.write_moodle(root)
    subs, others = discover(root, out)
    by_name = {s.name: s for s in subs}
    rar = by_name["Dev Patel_100004_assignsubmission_file_"]
    empty = by_name["Emma Wilson_100005_assignsubmission_file_"]
    assert (rar.folder, rar.not_read, empty.folder, empty.not_read) == (
        None, "unsupported archive", None, "nothing handed in")
    assert rar.problem == ("ass2.rar is a RAR archive, which the grader does not unpack: hand in your .c files "
                           "themselves, or a .zip or .tar.gz of them")
    assert empty.problem.startswith("Emma Wilson_100005_assignsubmission_file_ holds no file: nothing was handed in")
    # The text hand-in beside Bao's files is left out, saying why; his zip is unpacked, its folder followed.
    assert others == ["Bao Tran_100002_assignsubmission_onlinetext_ (Bao Tran's onlinetext hand-in: the files "
                      "are graded)"]
    bao = by_name["Bao Tran_100002_assignsubmission_file_"]
    assert bao.archive == "ass2.zip" and bao.down == "ass2" and bao.folder is not None
    assert sorted(p.name for p in bao.folder.iterdir()) == ["Card.c", "Game.c"]
    assert bao.notes == ["Your hand-in is the archive Bao Tran_100002_assignsubmission_file_/ass2.zip (its sources "
                         "ass2 in it): it was unpacked and graded as if handed in alone."]
    chloe = by_name["Chloé Martin_100003_assignsubmission_file_"]  # __MACOSX and .DS_Store are not followed
    assert chloe.folder is not None and sorted(p.name for p in chloe.folder.iterdir() if p.suffix == ".c") == [
        "Card.c", "Game.c"]


def test_canvas_files_are_split_by_student_and_a_file_uploaded_again_is_the_latest(tmp_path: Path) -> None:
    root = tmp_path / "class"
    root.mkdir()
    (root / "leealex_7_70_Game.c").write_text("old")
    (root / "leealex_7_70_Game-2.c").write_text("newest")
    (root / "leealex_7_70_Game-1.c").write_text("newer")
    (root / "leealex_7_70_test-notes.txt").write_text("kept as named")  # no digits after the dash: a name
    (root / "kimjo_LATE_8_80_Card.c").write_text("card")
    arranged = arrange(root, tmp_path / "out")
    assert arranged.lms == "canvas" and arranged.others == []
    by_id = {student.student_id: (folder, student) for folder, student in arranged.entries}
    folder, student = by_id["7"]
    assert (folder.name, student.name, student.late) == ("leealex_7", "leealex", False)
    assert {p.name: p.read_text() for p in folder.iterdir()} == {"Game.c": "newest", "test-notes.txt": "kept as named"}
    folder, student = by_id["8"]
    assert (folder.name, student.late, sorted(p.name for p in folder.iterdir())) == ("kimjo_8", True, ["Card.c"])


def test_a_class_is_an_lms_export_only_when_every_entry_is_named_so(tmp_path: Path) -> None:
    root = tmp_path / "class"
    (root / "alice").mkdir(parents=True)
    (root / "nguyenalice_12345_67890_Game.c").write_text("")
    assert which_lms(root) == ""  # a folder among Canvas's files: a plain class
    (root / "alice").rmdir()
    assert which_lms(root) == "canvas"
    (root / "submission_metadata.yml").write_text("{}")
    assert which_lms(root) == "gradescope"


def test_a_folder_whose_hand_in_is_an_archive_is_graded_as_that_archive(tmp_path: Path) -> None:
    """Given directly too (``fcd-grade FOLDER``), with a receipt beside the archive."""
    folder = tmp_path / "gina"
    folder.mkdir()
    (folder / "receipt.txt").write_text("submitted")
    (folder / "ass2.zip").write_bytes(EXPORTS._zip(EXPORTS._c_files(EXPORTS.MODEL)))
    handed = open_submission(folder, tmp_path / "scratch")
    assert handed.folder is not None and handed.archive == "ass2.zip" and handed.down == ""
    assert sorted(p.name for p in handed.folder.iterdir()) == ["Card.c", "Game.c"]
    two = tmp_path / "two"
    two.mkdir()
    for name in ("a.zip", "b.zip"):
        (two / name).write_bytes(EXPORTS._zip({"Game.c": b""}))
    assert open_submission(two, tmp_path / "scratch2").archive == ""  # two archives: which one is not guessed


@pytest.mark.parametrize(("given", "status"), [("ass2.rar", "unsupported archive"), ("empty", "nothing handed in")])
def test_fcd_grade_of_what_cannot_be_read_writes_a_complete_report_saying_why(
        given: str, status: str, tmp_path: Path) -> None:
    """Every submission gets a complete report: one that cannot be read too (exit 1: the student's, not the
    grader's), with 0 marks of the same maximum and what to hand in instead."""
    path = tmp_path / given
    if given == "empty":
        path.mkdir()
    else:
        path.write_bytes(b"Rar!\x1a\x07\x00" + bytes(64))
    out = tmp_path / "out"
    assert main([str(path), "--out", str(out), "--quiet", *FAST]) == 1
    result = json.loads((out / "result.json").read_text())
    assert (result["status"], result["score"]) == (status, 0) and result["max_score"] > 0
    assert "hand in your .c files themselves, or a .zip or .tar.gz of them" in result["unreadable"]
    assert (out / "report.html").is_file() and (out / "junit.xml").is_file()

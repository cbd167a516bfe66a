"""Submissions as users hand them in (issue 32, item 1): each test starts from what a user names -- a class
folder exported by a learning-management system, a zip, a broken zip, a UTF-16 Game.c, a player.c that
#includes Game.c, an empty root -- and checks what ``fcd-grade`` says and the exit code it gives."""

from __future__ import annotations

import csv
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from grader.core.cli import main
from grader.core.grade import source_hash

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "fixtures" / "submissions" / "model"
FAST = ["--random-games", "0", "--no-memory", "--no-tests"]


def _model(dest: Path) -> Path:
    """The correct model's sources, copied to ``dest``."""
    dest.mkdir(parents=True)
    for c in MODEL.glob("*.c"):
        shutil.copyfile(c, dest / c.name)
    return dest


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "class.csv").open(newline="", encoding="utf-8") as f:
        return {r["submission"]: r for r in csv.DictReader(f)}


def _result(out: Path) -> dict:
    return json.loads((out / "result.json").read_text())


def test_a_class_exported_with_each_students_sources_a_folder_down_scores_as_the_flat_layout(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "class"
    _model(root / "flat")
    _model(root / "gina" / "ass2")  # what the LMS exports: one folder per student, the hand-in inside
    (root / "gina" / "receipt.txt").write_text("submitted on time\n")
    out = tmp_path / "out"
    assert main(["batch", str(root), "--out", str(out), "--jobs", "2", *FAST]) == 0
    err = capsys.readouterr().err
    assert "graded from there: gina/ass2" in err
    rows = _rows(out)
    assert rows["gina"]["status"] == rows["flat"]["status"] == "passed"
    assert rows["gina"]["total"] == rows["flat"]["total"] == rows["flat"]["max"] == rows["gina"]["max"]
    notes = _result(out / "reports" / "gina")["build_notes"]
    assert "The sources are in gina/ass2: graded from there." in notes


def test_fcd_grade_grades_a_zip_as_the_folder_it_was_made_from(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    folder = _model(tmp_path / "gina")
    archive = tmp_path / "gina.zip"
    with zipfile.ZipFile(archive, "w") as z:  # zipped as a file manager does: the folder inside
        for c in folder.glob("*.c"):
            z.write(c, f"gina/{c.name}")
    assert main([str(archive), "--out", str(tmp_path / "out"), *FAST]) == 0  # the model: full marks
    out = capsys.readouterr().out
    assert "The sources are in gina.zip/gina: graded from there." in out
    assert "is not a folder" not in out
    data = _result(tmp_path / "out")
    assert data["submission"] == "gina" and data["status"] == "passed" and data["score"] == data["max_score"]
    assert data["source_hash"] == source_hash(folder)  # the same sources as the folder it was made from


def test_an_unreadable_hand_in_has_its_own_status_and_reason_and_keeps_the_max(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "class"
    _model(root / "ann")
    (root / "broken.zip").write_bytes(b"this is not a zip file")
    with zipfile.ZipFile(root / "crowd.zip", "w") as z:  # more files than a submission may hold
        for i in range(2001):
            z.writestr(f"crowd/f{i}.txt", "")
    out = tmp_path / "out"
    assert main(["batch", str(root), "--out", str(out), "--jobs", "2", *FAST]) == 1  # they lost marks
    err = capsys.readouterr().err
    broken_line = next(line for line in err.splitlines() if "broken" in line and "could not unpack" in line)
    assert "unreadable" in broken_line and "broken.zip" in broken_line
    assert any("crowd" in line and "more than 2000 files" in line for line in err.splitlines())
    rows = _rows(out)
    for name in ("broken", "crowd"):
        assert rows[name]["status"] == "unreadable"
        assert rows[name]["max"] == rows["ann"]["max"] and float(rows[name]["total"]) == 0
    assert "could not unpack broken.zip" in rows["broken"]["problem"] and rows["ann"]["problem"] == ""
    page = (out / "dashboard.html").read_text()
    assert "unreadable" in page and "could not unpack broken.zip" in page and "more than 2000 files" in page
    report = _result(out / "reports" / "broken")
    assert report["status"] == "unreadable" and "could not unpack broken.zip" in report["unreadable"]


def test_a_utf16_game_c_is_said_in_one_line_not_in_compiler_noise(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    sub = _model(tmp_path / "sub")
    game = sub / "Game.c"
    game.write_bytes(game.read_text().encode("utf-16"))  # what a Windows editor's "Unicode" saves: FF FE ...
    assert main([str(sub), "--out", str(tmp_path / "out"), *FAST]) == 1
    out = capsys.readouterr().out
    said = "Game.c is in UTF-16 (or has NUL bytes): save it as UTF-8 (plain text) and hand it in again."
    assert said in out and "stray" not in out
    build = next(t for t in _result(tmp_path / "out")["tests"] if t["id"] == "build/compiles")
    assert build["message"] == said


def test_a_latin1_comment_still_compiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sub = _model(tmp_path / "sub")
    game = sub / "Game.c"
    game.write_bytes("/* Fran\u00e7ois's d\u00e9claration, caf\u00e9 */\n".encode("latin-1") + game.read_bytes())
    assert main([str(sub), "--out", str(tmp_path / "out"), *FAST]) == 0
    capsys.readouterr()
    data = _result(tmp_path / "out")
    assert data["status"] == "passed" and data["score"] == data["max_score"]


def test_a_player_that_includes_game_c_leaves_game_c_compiled_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sub = _model(tmp_path / "sub")
    game = sub / "Game.c"
    game.write_text('#include "Card.c"\n' + game.read_text())  # player.c -> Game.c -> Card.c
    (sub / "player.c").write_text('#include "Game.c"\nint myHelper(void) { return 0; }\n')
    assert main([str(sub), "--out", str(tmp_path / "out"), *FAST]) == 0
    out = capsys.readouterr().out
    said = ("Compiled: Game.c. Left out: Card.c (#included by Game.c, which is compiled); "
            "player.c (a test driver or player, not part of the ADT).")
    before_grading = out.split("grader -- ")[0]
    assert said in before_grading and "No C source" not in out
    data = _result(tmp_path / "out")
    assert data["build_sources"] == ["Game.c"] and said in data["build_notes"]
    assert data["score"] == data["max_score"]


def test_a_failed_build_shows_its_errors_before_its_warnings(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    sub = _model(tmp_path / "sub")
    game = sub / "Game.c"
    game.write_text(game.read_text() + "\nint quiet(void) { int unused; return 0; }\n"
                    "int broken(void) { return 1 }\n")
    assert main([str(sub), "--out", str(tmp_path / "out"), *FAST]) == 1
    out = capsys.readouterr().out
    assert "did not compile" in out
    message = next(t for t in _result(tmp_path / "out")["tests"] if t["id"] == "build/compiles")["message"]
    assert "error:" in message and "warning:" in message  # the warning is kept, after the error
    assert message.index("error:") < message.index("warning:")
    assert message.index("expected ';'") < message.index("unused variable")


def test_a_batch_root_that_is_missing_or_holds_no_submission_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["batch", str(tmp_path / "nowhere"), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nowhere does not exist" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["batch", str(empty), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "holds no submission" in err
    one = _model(tmp_path / "one")  # one student's folder given as the class
    assert main(["batch", str(one), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"fcd-grade {one}" in err
    assert main([str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err


def _card_inside_game(dest: Path) -> Path:
    """The model as many students hand it in: Game.c starts with #include "Card.c"."""
    folder = _model(dest)
    game = folder / "Game.c"
    game.write_text('#include "Card.c"\n' + game.read_text())
    return folder


def test_a_card_c_included_by_game_c_is_part_of_the_submission_and_of_its_own_tests_build(tmp_path: Path) -> None:
    """Card.c is compiled inside Game.c: a change to it alone is a new submission (the batch store must not
    serve the old result), and the student's own tests build against that Game.c (Card.c beside it)."""
    from grader.core.grade import grade  # noqa: PLC0415

    folder = _card_inside_game(tmp_path / "s")
    shutil.copyfile(ROOT / "fixtures" / "student_tests" / "good" / "testGame.c", folder / "testGame.c")
    before = source_hash(folder)
    (folder / "Card.c").write_text((folder / "Card.c").read_text() + "\n/* changed */\n")
    assert source_hash(folder) != before
    result = grade(folder, random_games=0, memory=False, own_tests=True)
    assert result.build_sources == ["Game.c"] and result.score == result.max_score
    assert result.suite is not None and result.suite.compiled, result.suite.problem
    assert result.suite.valid and result.suite.own == "On your own implementation your tests pass.", result.suite.own


def test_only_runs_the_tests_named_says_the_mark_is_partial_and_is_never_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from grader.core.batch.store import ResultKey, ResultStore  # noqa: PLC0415
    from grader.core.results import result_from_json  # noqa: PLC0415
    from grader.games.fcd18s2.scenarios import load_scenarios

    folder = _model(tmp_path / "s")
    out = tmp_path / "report"
    one = next(s for s in load_scenarios() if s.group == "draw_two")
    assert main([str(folder), "--only", "skip", one.id, "--out", str(out), *FAST]) == 0
    said = capsys.readouterr().out
    assert "PARTIAL: only skip " + one.id in said
    graded = _result(out)
    skips = {s.id for s in load_scenarios() if s.group == "skip"}
    ran = {t["id"] for t in graded["tests"] if t["group"] != "build"}
    assert ran == skips | {one.id}
    assert {g["group"] for g in graded["groups"]} == {"build", "skip", "draw_two"}
    assert graded["only"] == ["skip", one.id]
    assert "Partial" in (out / "report.html").read_text()
    # A name that is no group, test or stage: a usage error naming the nearest.
    assert main([str(folder), "--only", "skpi", "--out", str(out), *FAST]) == 2
    assert "did you mean 'skip'" in capsys.readouterr().err
    # A partial result is never stored as a submission's result.
    store = ResultStore(tmp_path / "store")
    key = ResultKey("h", "v", "m")
    with pytest.raises(ValueError, match="partial"):
        store.put("s", key, result_from_json(graded))

"""fcd-grade end to end: one submission, reports that validate, repro programs, batch marking."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import xmlschema

from grader.core.cli import main

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
SCHEMA = ROOT / "grader" / "core" / "schemas" / "junit.xsd"
FAST = ["--random-games", "0", "--no-memory"]


def test_model_gets_full_marks_with_every_stage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([str(SUBMISSIONS / "model"), "--out", str(tmp_path), "--random-games", "6"])
    out = capsys.readouterr().out
    assert code == 0, out
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["score"] == data["max_score"] == 100
    assert "total" in out and "   100 / 100" in out  # (a mark as people write it: grader.core.marks)
    xmlschema.XMLSchema(SCHEMA).validate(tmp_path / "junit.xml")
    assert not (tmp_path / "repro").exists()  # nothing failed, nothing to reproduce


def test_a_mutant_gets_partial_marks_and_a_repro_that_fails_the_same_way(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = SUBMISSIONS / "mutants" / "skip_ignored"
    code = main([str(folder), "--out", str(tmp_path), *FAST])
    out = capsys.readouterr().out
    assert code == 1
    result = json.loads((tmp_path / "result.json").read_text())
    groups = {g["group"]: g for g in result["groups"]}
    assert groups["skip"]["marks"] < groups["skip"]["max_marks"]
    assert groups["deal"]["marks"] == groups["deal"]["max_marks"]
    assert 0 < result["score"] < result["max_score"]
    assert "First failure: skip/" in out and "currentPlayer()" in out
    xmlschema.XMLSchema(SCHEMA).validate(tmp_path / "junit.xml")
    failing = next(t for t in result["tests"] if t["verdict"] != "passed")
    repro = tmp_path / result["repro_files"][failing["id"]]
    work = repro.parent
    for c in folder.glob("*.c"):
        shutil.copy(c, work)
    exe = work / "repro"
    subprocess.run(["gcc", "-std=gnu11", "-g", "-I.", "-o", str(exe), repro.name, "Game.c", "Card.c"], cwd=work,
                   check=True, capture_output=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode == 1
    assert "currentPlayer()" in run.stdout and "currentPlayer()" in failing["message"]
    # The same repro against the model passes.
    for c in (SUBMISSIONS / "model").glob("*.c"):
        shutil.copy(c, work)
    subprocess.run(["gcc", "-std=gnu11", "-g", "-I.", "-o", str(exe), repro.name, "Game.c", "Card.c"], cwd=work,
                   check=True, capture_output=True)
    ok = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30, check=False)
    assert ok.returncode == 0 and "All checks passed" in ok.stdout


def test_a_hostile_submission_gets_a_complete_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([str(SUBMISSIONS / "hostile" / "stdout_flood"), "--out", str(tmp_path), *FAST])
    capsys.readouterr()
    assert code == 1
    data = json.loads((tmp_path / "result.json").read_text())
    outcomes = {t["verdict"] for t in data["tests"]}
    assert "output limit" in outcomes and "passed" in outcomes
    xmlschema.XMLSchema(SCHEMA).validate(tmp_path / "junit.xml")
    page = (tmp_path / "report.html").read_text()
    # Only the page's own script elements: the replay viewer, once, and the replays' JSON (what a submission
    # printed never runs: tests/core/test_replay_browser.py checks it in a browser).
    ours = {"<script>", '<script type="application/json" class="replay-data">'}
    assert set(re.findall(r"<script[^>]*>", page)) <= ours
    assert page.count("<script>") <= 1


@pytest.mark.parametrize("edition", ["18s2", "17s2"])
def test_a_build_failure_is_a_readable_report(edition: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "Game.c").write_text('#include "Game.h"\nint numCards(Game g) { return 1 }\n')
    code = main([str(sub), "--out", str(tmp_path / "out"), "--random-games", "16", "--edition", edition])
    out = capsys.readouterr().out
    assert code == 1 and "did not compile" in out
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["score"] == 0
    verdicts = {t["id"]: t["verdict"] for t in json.loads((tmp_path / "out" / "result.json").read_text())["tests"]}
    assert verdicts.pop("build/compiles") == "wrong result"
    assert set(verdicts.values()) == {"not run"}  # random games and memory too: nothing ran, nothing earned
    assert any(t.startswith("random/") for t in verdicts) and any(t.startswith("memory/") for t in verdicts)
    xmlschema.XMLSchema(SCHEMA).validate(tmp_path / "out" / "junit.xml")


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nowhere")]) == 2
    bad = tmp_path / "bad.toml"
    bad.write_text('[rulings]\nstrict = ["A99"]\n')
    assert main([str(SUBMISSIONS / "model"), "--config", str(bad)]) == 2
    capsys.readouterr()


def test_a_strict_rulings_profile_enforces_the_reference_reading(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "course.toml"
    cfg.write_text('[rulings]\nstrict = ["A1"]\nprofile = "no play after a draw"\n')
    folder = SUBMISSIONS / "readings" / "a1_play_after_draw"
    assert main([str(folder), "--out", str(tmp_path / "lenient"), *FAST]) == 0
    assert main([str(folder), "--out", str(tmp_path / "strict"), "--config", str(cfg), *FAST]) == 1
    data = json.loads((tmp_path / "strict" / "result.json").read_text())
    assert data["profile"] == "no play after a draw (strict: A1)"
    capsys.readouterr()


def _batch(root: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "grader.core.cli", "batch", str(root), "--out", str(out),
                             "--jobs", "2", *FAST, *extra], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _graded(out: Path) -> list[str]:
    """Who the store's journal says was graded, one line per grading that finished."""
    journal = out / "store" / "journal.jsonl"
    return [json.loads(line)["submission"] for line in journal.read_text().splitlines()] if journal.exists() else []


def test_batch_grades_a_class_and_resumes_after_being_killed(tmp_path: Path) -> None:
    root = tmp_path / "class"
    root.mkdir()
    names = ["model", "mutants/skip_ignored", "mutants/winner_missed", "mutants/zero_not_wild",
             "hostile/null_deref", "hostile/exit_zero"]
    for name in names:
        shutil.copytree(SUBMISSIONS / name, root / name.replace("/", "-"))
    with zipfile.ZipFile(root / "zipped.zip", "w") as z:  # a student who handed in a zip
        for c in (SUBMISSIONS / "model").glob("*.c"):
            z.write(c, f"zipped/{c.name}")
    out = tmp_path / "out"
    first = _batch(root, out)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(_graded(out)) < 2:
        time.sleep(0.05)
    os.killpg(first.pid, signal.SIGKILL)  # the client and the gradings it started
    first.communicate()
    before = _graded(out)
    assert 2 <= len(before) < 7
    second = _batch(root, out)
    stdout, stderr = second.communicate(timeout=600)
    assert second.returncode == 1, stderr
    assert f"7 submissions: {7 - len(before)} graded ({7 - len(before)} new), {len(before)} from the store" in stdout
    everyone = sorted([n.replace("/", "-") for n in names] + ["zipped"])
    assert sorted(_graded(out)) == everyone  # nothing graded twice, nothing lost
    with (out / "class.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["submission"] for r in rows) == everyone
    by_name = {r["submission"]: r for r in rows}
    assert by_name["model"]["total"] == by_name["model"]["max"] == by_name["zipped"]["total"]
    assert by_name["mutants-skip_ignored"]["status"] == "failed"
    assert float(by_name["hostile-exit_zero"]["total"]) < float(by_name["model"]["total"])
    xmlschema.XMLSchema(SCHEMA).validate(out / "junit.xml")
    third = _batch(root, out)
    stdout, _ = third.communicate(timeout=120)
    assert "7 submissions: 0 graded, 7 from the store" in stdout
    assert len(_graded(out)) == 7
    assert os.path.exists(out / "reports" / "model" / "report.html")


def test_batch_grades_again_what_a_new_marking_changes_and_says_why(tmp_path: Path) -> None:
    root = tmp_path / "class"
    root.mkdir()
    for name in ("model", "mutants/skip_ignored"):
        shutil.copytree(SUBMISSIONS / name, root / name.replace("/", "-"))
    out = tmp_path / "out"
    assert main(["batch", str(root), "--out", str(out), "--jobs", "2", *FAST]) == 1
    with (root / "mutants-skip_ignored" / "Game.c").open("a") as f:
        f.write("/* handed in again */\n")
    shutil.copytree(SUBMISSIONS / "model", root / "late")  # a deadline extension, the same sources as "model"
    proc = _batch(root, out)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 1, stderr
    assert "3 submissions: 1 graded (1 changed sources), 2 from the store" in stdout
    cfg = tmp_path / "course.toml"
    cfg.write_text('[rulings]\nstrict = ["A1"]\nprofile = "no play after a draw"\n')
    proc = _batch(root, out, "--config", str(cfg))
    stdout, stderr = proc.communicate(timeout=300)
    assert "3 submissions: 3 graded (3 changed marking), 0 from the store" in stdout, stderr
    # the same sources handed in twice share one stored result, each under its own name
    model = json.loads((out / "reports" / "model" / "result.json").read_text())
    late = json.loads((out / "reports" / "late" / "result.json").read_text())
    assert (model["submission"], late["submission"]) == ("model", "late")
    assert model["source_hash"] == late["source_hash"]


def test_a_broken_archive_gets_a_row_and_a_report_of_its_own(tmp_path: Path) -> None:
    root = tmp_path / "class"
    root.mkdir()
    (root / "broken.zip").write_bytes(b"this is not a zip file")
    out = tmp_path / "out"
    assert main(["batch", str(root), "--out", str(out), *FAST]) == 1
    with (out / "class.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [(r["submission"], r["status"]) for r in rows] == [("broken", "unreadable")]
    report = json.loads((out / "reports" / "broken" / "result.json").read_text())
    assert "could not unpack broken.zip" in report["build_output"]
    assert (out / "reports" / "broken" / "report.html").is_file()


def test_edition_names_only_the_editions_of_final_card_down(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 45: ``--edition {17s2,18s2,palace}`` called Palace an edition; it is a game (``--game palace``)."""
    from grader.core.commands import EDITIONS  # noqa: PLC0415

    assert EDITIONS == {"17s2": "fcd17s2", "18s2": "fcd18s2"}
    with pytest.raises(SystemExit) as stopped:
        main(["x", "--edition", "palace"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "--edition {17s2,18s2}" in err
    assert ("no edition 'palace' of Final Card-Down (choose from 17s2, 18s2); palace is a game of its own: "
            "--game palace") in err

"""The student CI templates and the guides: every command in them runs, on a repository
laid out as students have it (Card.c, Game.c, testGame.c, player.c at the top)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grader.core.config import MarkingConfig

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = ROOT / "fixtures" / "submissions"


def student_repo(tmp_path: Path, code: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for c in code.glob("*.c"):
        shutil.copy(c, repo)
    (repo / "testGame.c").write_text('#include <assert.h>\n#include "Game.h"\nint main(void) { return 0; }\n')
    (repo / "player.c").write_text('#include "Game.h"\n/* an AI: not part of the ADT */\n')
    (repo / "README.md").write_text("our assignment\n")
    return repo


def run(command: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, FCD_GRADER=str(ROOT))
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def _install_lines_give_a_checkout(lines: list[str], tmp_path: Path, env: dict[str, str]) -> None:
    """The template's install lines, run as written (after apt-get) with FCD_GRADER = this repository and a
    stand-in pip that records what it was asked: the grader is cloned, and installed editable from the
    checkout, which holds the scenarios it reads (a plain pip install of the package would leave them out)."""
    shim = tmp_path / "shim"
    shim.mkdir(exist_ok=True)
    (shim / "pip").write_text(f'#!/bin/sh\necho "$@" > {tmp_path}/pip-args\n')
    (shim / "pip").chmod(0o755)
    for line in lines:
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, text=True, check=False,
                              env={**os.environ, **env, "FCD_GRADER": str(ROOT),
                                   "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}"})
        assert done.returncode == 0, (line, done.stderr)
    args = (tmp_path / "pip-args").read_text().split()
    assert args[:2] == ["install", "-e"], args
    checkout = Path(args[2])
    assert sorted(p.name for p in (checkout / "fixtures" / "scenarios").glob("*.toml")) == sorted(
        p.name for p in (ROOT / "fixtures" / "scenarios").glob("*.toml"))
    assert (checkout / "pyproject.toml").is_file()


def github_steps() -> tuple[dict, list[dict]]:
    workflow = yaml.safe_load((ROOT / "ci" / "github-actions.yml").read_text())
    job = workflow["jobs"]["grade"]
    return job, job["steps"]


def test_github_template_grades_a_student_repository(tmp_path: Path) -> None:
    job, steps = github_steps()
    install = next(s for s in steps if s.get("name") == "Install the grader")
    _install_lines_give_a_checkout(install["run"].splitlines()[1:], tmp_path, {"RUNNER_TEMP": str(tmp_path)})
    grade = next(s for s in steps if s.get("name") == "Grade Card.c and Game.c")
    junit = next(s for s in steps if "action-junit-report" in s.get("uses", ""))
    assert junit["if"] == "always()"
    repo = student_repo(tmp_path, SUBMISSIONS / "model")
    done = run(grade["run"], repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (repo / junit["with"]["report_paths"]).is_file()
    graded = json.loads((repo / "fcd-report" / "result.json").read_text())
    assert "testGame.c" not in graded["build_sources"]  # the tests are graded apart, never compiled into the ADT
    assert graded["suite"]["test_file"] == "testGame.c" and graded["suite"]["validity_marks"] == 5


def test_github_template_grades_a_2017_repository_when_the_course_sets_the_edition(tmp_path: Path) -> None:
    job, steps = github_steps()
    assert job["env"]["FCD_EDITION"] == "18s2"
    grade = next(s for s in steps if s.get("name") == "Grade Card.c and Game.c")
    repo = student_repo(tmp_path, ROOT / "fixtures" / "fcd17s2" / "submissions" / "model")
    command = grade["run"].replace(" --out", " --random-games 0 --no-memory --no-tests --out")
    done = run(f"export FCD_EDITION=17s2; {command}", repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Final Card-Down (2017)" in (repo / "fcd-report" / "result.json").read_text()


def test_gitlab_template_fails_the_pipeline_on_a_failing_test(tmp_path: Path) -> None:
    job = yaml.safe_load((ROOT / "ci" / "gitlab-ci.yml").read_text())["fcd-grade"]
    opt = tmp_path / "opt"
    _install_lines_give_a_checkout([line.replace("/opt/", f"{opt}/") for line in job["before_script"][1:]],
                                   tmp_path, {})
    repo = student_repo(tmp_path, SUBMISSIONS / "mutants" / "skip_ignored")
    for line in job["script"]:
        done = run(line.replace(" --out", " --random-games 0 --no-memory --out"), repo)
    assert done.returncode == 1  # a failing test fails the job
    assert (repo / job["artifacts"]["reports"]["junit"]).is_file()
    assert job["artifacts"]["when"] == "always"


def shell_blocks(guide: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", (ROOT / "docs" / guide).read_text(), re.S)


def test_student_guide_commands(tmp_path: Path) -> None:
    grade, repro = [b.strip() for b in shell_blocks("student-guide.md")]
    repo = student_repo(tmp_path, SUBMISSIONS / "mutants" / "skip_ignored")
    done = run(grade, repo)
    assert done.returncode == 1 and "First failure: " in done.stdout
    assert (repo / "fcd-report" / "report.html").is_file()
    done = run(repro, repo)
    assert done.returncode == 1 and "FAILED after move 2: currentPlayer()" in done.stdout


def test_staff_guide_commands_and_configuration(tmp_path: Path) -> None:
    batch, one = [b.strip() for b in shell_blocks("staff-guide.md")]
    (tmp_path / "submissions").mkdir()
    for name in ("model", "mutants/winner_missed"):
        shutil.copytree(SUBMISSIONS / name, tmp_path / "submissions" / name.split("/")[-1])
    done = run(batch.replace("--jobs 2", "--jobs 2 --random-games 0 --no-memory"), tmp_path)
    assert done.returncode == 1, done.stderr
    rows = (tmp_path / "marks" / "class.csv").read_text().splitlines()
    assert rows[0].startswith("submission,name,student_id,email,source_hash,status,build,") and len(rows) == 3
    done = run(one.replace("fixtures/", f"{ROOT}/fixtures/"), tmp_path)
    assert done.returncode == 0 and (tmp_path / "one-report" / "junit.xml").is_file()
    block = re.search(r"```toml\n(.*?)```", (ROOT / "docs" / "staff-guide.md").read_text(), re.S)
    cfg = tmp_path / "course.toml"
    cfg.write_text(block.group(1))
    config = MarkingConfig.load(cfg)
    assert config.strict_rulings == {"A1"} and config.hidden("end") and config.group_marks("draw_two") == 15
    assert config.profile == "course announcement week 9 (strict: A1)"
    assert config.implementation_total() == 100 and not config.warnings()  # the example adds up (issue 32)


TEST_COMMAND = ("python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && "
                "python -m pytest -n auto --dist loadfile")


@pytest.mark.parametrize("command", ["python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
                                     "fcd-grade fixtures/submissions/model", TEST_COMMAND])
def test_readme_main_command_is_the_documented_one(command: str) -> None:
    assert command in (ROOT / "README.md").read_text()


def test_ci_runs_the_readmes_test_command_in_a_virtualenv_of_its_own() -> None:
    """A package only this machine's Python has must never make CI green: .ci/run makes its venv and runs the
    README's test command in it, and the [test] extra installs what the tests import (libcst)."""
    run = (ROOT / ".ci" / "run").read_text()
    assert TEST_COMMAND in run.splitlines()
    assert "hypothesis[codemods]" in (ROOT / "pyproject.toml").read_text()

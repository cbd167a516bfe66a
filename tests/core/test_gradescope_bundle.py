"""The Gradescope autograder bundle, run as Gradescope runs it: ``fcd-grade gradescope-bundle`` writes the zip;
its ``setup.sh`` builds the image (here in a scratch root, with apt left out and this checkout's Python) and its
``run_autograder`` grades ``<root>/submission`` and must leave ``<root>/results/results.json`` in Gradescope's
format, whatever the grader does."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader.core.cli import main

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
COURSE_CONFIG = "[marks.groups]\nskip = 10\nturns = 4\n"  # 100 in all still; skip's 6 marks become 10

# Gradescope's results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/), as documented.
FORMATS = ["text", "html", "simple_format", "md", "ansi"]
VISIBILITY = ["hidden", "after_due_date", "after_published", "visible"]
GRADESCOPE_TEST = {
    "type": "object",
    "properties": {
        "score": {"type": "number"}, "max_score": {"type": "number"},
        "status": {"enum": ["passed", "failed"]},
        "name": {"type": "string"}, "name_format": {"enum": FORMATS}, "number": {"type": "string"},
        "output": {"type": "string"}, "output_format": {"enum": FORMATS},
        "tags": {"type": "array", "items": {"type": "string"}},
        "visibility": {"enum": VISIBILITY}, "extra_data": {"type": "object"},
    },
    "additionalProperties": False,
}
GRADESCOPE_SCHEMA = {
    "type": "object",
    "properties": {
        "score": {"type": "number"}, "max_score": {"type": "number"}, "execution_time": {"type": "number"},
        "output": {"type": "string"}, "output_format": {"enum": FORMATS},
        "test_output_format": {"enum": FORMATS}, "test_name_format": {"enum": FORMATS},
        "visibility": {"enum": VISIBILITY}, "stdout_visibility": {"enum": VISIBILITY},
        "extra_data": {"type": "object"},
        "tests": {"type": "array", "items": GRADESCOPE_TEST},
        "leaderboard": {"type": "array", "items": {
            "type": "object", "required": ["name", "value"],
            "properties": {"name": {"type": "string"}, "value": {"type": ["number", "string"]},
                           "order": {"enum": ["asc", "desc"]}}}},
    },
    "additionalProperties": False,
    # "score" may be left out only when every test has one (Gradescope then adds them up)
    "if": {"not": {"required": ["score"]}},
    "then": {"required": ["tests"], "properties": {"tests": {"items": {"required": ["score"]}}}},
}


def unzip(bundle: Path, dest: Path) -> None:
    """Extract as unzip does, with each file's mode bits (Gradescope runs ``run_autograder`` as it is)."""
    with zipfile.ZipFile(bundle) as zf:
        for info in zf.infolist():
            path = Path(zf.extract(info, dest))
            if mode := (info.external_attr >> 16) & 0o777:
                path.chmod(mode)


def run(command: list[str], env: dict[str, str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)


def scratch_env(root: Path, **more: str) -> dict[str, str]:
    return {**os.environ, "AUTOGRADER_ROOT": str(root), **more}


def put_submission(root: Path, files: list[Path]) -> None:
    """The student's files where Gradescope puts them, and no results yet."""
    for folder in (root / "submission", root / "results"):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    for f in files:
        shutil.copy(f, root / "submission")


def valid_results(root: Path) -> dict:
    data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, GRADESCOPE_SCHEMA)
    return data


def md_words(markdown: str) -> str:
    """Markdown text as its words: backslash escapes undone, white space collapsed."""
    return " ".join(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown).split())


@pytest.fixture(scope="module")
def autograder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A bundle (a course's marking, no random games, no memory stage) unzipped where Gradescope puts it, and
    its setup.sh run there: apt left out, this Python; its dependencies are reused when it has them all."""
    tmp = tmp_path_factory.mktemp("gradescope")
    (tmp / "course.toml").write_text(COURSE_CONFIG)
    bundle = tmp / "autograder.zip"
    assert main(["gradescope-bundle", str(bundle), "--config", str(tmp / "course.toml"),
                 "--random-games", "0", "--no-memory"]) == 0
    root = tmp / "autograder"
    unzip(bundle, root / "source")
    in_a_venv = sys.prefix != sys.base_prefix  # a venv made from this Python would not see its packages
    env = scratch_env(root, FCD_SKIP_APT="1", FCD_PYTHON=sys.executable,
                      FCD_PIP_OPTIONS="" if in_a_venv else "--no-deps")
    setup = run(["bash", str(root / "source" / "setup.sh")], env, root, timeout=900)
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    return root, setup


def test_the_bundle_holds_the_scripts_the_grader_and_the_marking(tmp_path: Path) -> None:
    (tmp_path / "course.toml").write_text("[marks]\nbuild = 5\n")
    bundle = tmp_path / "out" / "autograder.zip"
    assert main(["gradescope-bundle", str(bundle), "--config", str(tmp_path / "course.toml"), "--edition", "17s2",
                 "--no-tests"]) == 0
    with zipfile.ZipFile(bundle) as zf:
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in zf.infolist()}
        assert modes["setup.sh"] == modes["run_autograder"] == 0o755  # at the zip's top, executable
        assert zf.read("marking.toml").decode() == "[marks]\nbuild = 5\n"
        assert zf.read("fcd-grade-options").decode().split() == ["--game", "fcd17s2", "--no-tests"]
        assert zf.read("self-check-model").decode().strip() == "fixtures/fcd17s2/submissions/model"
        names = set(modes)
    for needed in ("pyproject.toml", "README.md", "grader/core/cli.py", "reference/__init__.py",
                   "fixtures/scenarios", "fixtures/submissions/model/Game.c"):
        assert any(n.startswith(f"fcd-grader/{needed}") for n in names), needed
    assert not any("__pycache__" in n or n.endswith((".pyc", ".so")) for n in names)


def test_a_mistyped_configuration_stops_the_bundle_at_the_desk(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.toml").write_text("[marks\nbuild = 5\n")
    assert main(["gradescope-bundle", str(tmp_path / "autograder.zip"), "--config", str(tmp_path / "bad.toml")]) == 2
    assert "bad.toml" in capsys.readouterr().err and not (tmp_path / "autograder.zip").exists()


def test_setup_installs_the_bundled_grader_and_grades_the_model(autograder: tuple) -> None:
    root, setup = autograder
    assert "gave the course's model full marks" in setup.stdout
    venv_python = root / "fcd-grader-venv" / "bin" / "python"
    where = run([str(venv_python), "-c", "import grader; print(grader.__file__)"], dict(os.environ), root)
    assert Path(where.stdout.strip()).is_relative_to(root / "source" / "fcd-grader")  # the bundle's copy


@pytest.mark.parametrize("submission", ["model", "mutants/skip_ignored"])
def test_run_autograder_writes_gradescope_results(autograder: tuple, submission: str) -> None:
    root, _ = autograder
    put_submission(root, sorted((SUBMISSIONS / submission).glob("*.c")))
    done = run([str(root / "source" / "run_autograder")], scratch_env(root), root)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    data = valid_results(root)
    graded = json.loads((root / "fcd-report" / "result.json").read_text())  # fcd-grade's own record
    tests = data["tests"]
    assert sum(t["score"] for t in tests) == pytest.approx(data["score"], abs=0.01)
    assert sum(t["max_score"] for t in tests) == pytest.approx(data["max_score"], abs=0.01)
    assert (data["score"], data["max_score"]) == (graded["score"], graded["max_score"])
    assert sum(t["max_score"] for t in tests if t["name"].startswith("skip/")) == pytest.approx(10)  # the course's
    assert "report.html" not in json.dumps(data)  # students cannot open it on Gradescope
    assert data["output_format"] == "md" and {t["output_format"] for t in tests} == {"md"}
    failed = [t for t in graded["tests"] if t["verdict"] != "passed"]
    if submission == "model":
        assert not failed and data["score"] == data["max_score"]
        return
    assert failed and data["score"] < data["max_score"]
    by_name = {t["name"]: t for t in tests}
    for t in failed:
        shown = by_name[t["id"]]
        assert shown["status"] == "failed"
        first, _, rest = t["message"].partition("\n")
        assert " ".join(first.split()) in md_words(shown["output"]) and rest in shown["output"]
    first = by_name["skip/a_skips_player_1"]["output"]
    assert "expected: 2" in first and "got:      1" in first and "turn 0, player 0: AGH end" in first
    assert "`repro_skip_a_skips_player_1.c`" in first and "```c\n/* Replays skip/a_skips_player_1" in first


def test_run_autograder_of_an_empty_submission_says_what_is_missing(autograder: tuple) -> None:
    root, _ = autograder
    put_submission(root, [])
    done = run([str(root / "source" / "run_autograder")], scratch_env(root), root)
    assert done.returncode == 0
    data = valid_results(root)
    assert data["score"] == 0 and data["max_score"] > 0
    assert "nothing was handed in" in next(t["output"] for t in data["tests"] if t["name"] == "build/compiles")


CRASHING_GRADER = """#!/bin/sh
# a grader that dies half way through writing its results
while [ "$1" != "--out" ]; do shift; done
mkdir -p "$2" && printf '{"score": 12, "tests": [' > "$2/results.json"
echo "Traceback (most recent call last): RuntimeError: boom" >&2
exit 2
"""


@pytest.mark.parametrize("grader", ["missing", "crashing"])
def test_run_autograder_writes_results_when_the_grader_fails(tmp_path: Path, grader: str) -> None:
    bundle = tmp_path / "autograder.zip"
    assert main(["gradescope-bundle", str(bundle)]) == 0
    root = tmp_path / "autograder"
    unzip(bundle, root / "source")  # setup.sh never ran: no grader of its own
    put_submission(root, sorted((SUBMISSIONS / "model").glob("*.c")))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if grader == "crashing":
        (bin_dir / "fcd-grade").write_text(CRASHING_GRADER)
        (bin_dir / "fcd-grade").chmod(stat.S_IRWXU)
    done = run([str(root / "source" / "run_autograder")], scratch_env(root, PATH=f"{bin_dir}:/usr/bin:/bin"), root)
    assert done.returncode == 0, done.stderr
    data = valid_results(root)
    assert data["score"] == 0 and data["tests"] == []
    assert "not your fault" in data["output"]
    code = "127" if grader == "missing" else "2"
    assert f"fcd-grade exited with code {code})" in data["output"]
    assert ("fcd-grade is not installed" if grader == "missing" else "boom") in done.stdout + done.stderr


def test_setup_installs_the_grader_it_is_pointed_at_and_says_when_it_is_not_one(tmp_path: Path) -> None:
    bundle = tmp_path / "autograder.zip"
    assert main(["gradescope-bundle", str(bundle)]) == 0
    root = tmp_path / "autograder"
    unzip(bundle, root / "source")
    env = scratch_env(root, FCD_SKIP_APT="1", FCD_PYTHON=sys.executable, FCD_GRADER_SOURCE=str(tmp_path / "elsewhere"))
    done = run(["bash", str(root / "source" / "setup.sh")], env, root)
    assert done.returncode == 1 and not (root / "fcd-grader-venv").exists()
    assert f"FCD_GRADER_SOURCE={tmp_path / 'elsewhere'} is not the grader's source folder" in done.stderr


# --- the CI templates (the same issue item: what the students' CI may do with their repository) -------------

def test_the_github_template_gives_its_token_only_what_its_steps_need() -> None:
    """Least privilege: checkout reads; action-junit-report writes a check run.  A new action, or the junit
    action's pull-request comment (pull-requests: write), must come with its permission."""
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((ROOT / "ci" / "github-actions.yml").read_text())
    assert workflow["permissions"] == {"contents": "read", "checks": "write"}
    job = workflow["jobs"]["grade"]
    assert "permissions" not in job  # nothing widened for the job
    actions = {s["uses"].split("@")[0]: s for s in job["steps"] if "uses" in s}
    assert set(actions) == {"actions/checkout", "actions/setup-python", "mikepenz/action-junit-report",
                            "actions/upload-artifact"}
    assert not actions["mikepenz/action-junit-report"].get("with", {}).get("comment", False)

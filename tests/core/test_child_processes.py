"""The grader's own Python processes never import from the current folder (issue 45, item 2).

Run from the folder that holds the clone (named ``grader/``, as the project is), ``python -m grader.core.cli``
imported that folder in place of the installed grader, and a batch turned its class into grader errors.
"""

from __future__ import annotations

import ast
import csv
import shutil
from pathlib import Path

import pytest

from grader.core.cli import main
from grader.core.interpreter import NO_CURRENT_FOLDER, python_module
from tests.core.test_layout import GRADER, module_name

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--random-games", "0", "--no-memory", "--no-tests"]
CLASS = {"model": ROOT / "fixtures" / "submissions" / "model",
         "mutant": ROOT / "fixtures" / "submissions" / "mutants" / "any_card_after_the_penalty"}


def _marks(out: Path) -> dict[str, tuple[str, str]]:
    with (out / "class.csv").open(newline="") as f:
        return {row["submission"]: (row["status"], row["total"]) for row in csv.DictReader(f)}


def test_a_batch_run_from_a_folder_holding_a_grader_directory_gives_the_same_marks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "class"
    for name, source in CLASS.items():
        (root / name).mkdir(parents=True)
        for c in source.glob("*.c"):
            shutil.copy(c, root / name)
    elsewhere, beside = tmp_path / "elsewhere", tmp_path / "beside"
    elsewhere.mkdir()
    planted = beside / "grader"  # what the clone's folder looks like to ``python -m grader...``, made loud
    (planted / "core").mkdir(parents=True)
    (planted / "__init__.py").write_text("raise SystemExit('the grader/ of the current folder was imported')\n")
    (planted / "core" / "__init__.py").write_text("")

    monkeypatch.chdir(elsewhere)
    assert main(["batch", str(root), "--out", str(tmp_path / "out1"), "--jobs", "1", *FAST]) == 1
    monkeypatch.chdir(beside)
    assert main(["batch", str(root), "--out", str(tmp_path / "out2"), "--jobs", "1", *FAST]) == 1

    first, second = _marks(tmp_path / "out1"), _marks(tmp_path / "out2")
    assert first["model"][0] == "passed" and first["mutant"][0] == "failed"
    assert float(first["mutant"][1]) < float(first["model"][1])
    assert second == first


def _starts_python_by_hand(path: Path) -> list[int]:
    """Lines where a command list begins with ``sys.executable`` (a Python started without ``python_module``)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.List) and node.elts and ast.unparse(node.elts[0]) == "sys.executable":
            lines.append(node.lineno)
    return lines


def test_every_python_the_grader_starts_goes_through_python_module() -> None:
    offenders = {module_name(p): lines for p in sorted(GRADER.rglob("*.py")) if (lines := _starts_python_by_hand(p))}
    assert offenders == {}
    assert python_module("grader.core.cli", "x", flags=("-S",))[1:] == [NO_CURRENT_FOLDER, "-S", "-m",
                                                                        "grader.core.cli", "x"]


def test_the_check_finds_a_python_started_by_hand(tmp_path: Path) -> None:
    planted = tmp_path / "p.py"
    planted.write_text("import sys, subprocess\nsubprocess.run([sys.executable, '-m', 'x'])\n")
    assert _starts_python_by_hand(planted) == [2]

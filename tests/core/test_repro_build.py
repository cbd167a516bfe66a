"""Repros that build on the student's own folder (issue 45, item 5): the README names every file the build used
(an ``#include``d one too) and gives one command, ``sh build.sh YOUR_FOLDER repro_x.c``, that builds the repro with
the student's files where they are; a function the code does not define is stubbed, stopping with a message if
called, so every test's repro links, and a repro fails where the report says.

The submission: a 2018 mutant (``d_is_wild``) written as students write one, its ``numOfSuit`` in a
``helpers.c`` that ``Game.c`` ``#include``s, and its ``getActiveDrawTwos`` left out.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from grader.core.cli import main
from grader.core.repro_build import declaration, stub_source
from grader.games.fcd18s2.observations import ORDER
from grader.games.fcd18s2.sandbox.interface import API

ROOT = Path(__file__).resolve().parents[2]
MUTANT = ROOT / "fixtures" / "submissions" / "mutants" / "d_is_wild"
FAST = ["--random-games", "0", "--no-memory", "--no-tests"]

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def _cut(text: str, head: str) -> tuple[str, str]:
    """``text`` without the function that starts with ``head`` (to its closing brace at column 0), and it."""
    start = text.index(head)
    end = text.index("\n}\n", start) + 3
    return text[:start] + text[end:], text[start:end]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict]:
    folder = tmp_path_factory.mktemp("student") / "ass2"
    folder.mkdir()
    shutil.copy(MUTANT / "Card.c", folder)
    game = (MUTANT / "Game.c").read_text()
    game, helper = _cut(game, "int numOfSuit(Game game, suit suit) {")
    game = game.replace("int numOfColor(Game game, color color) {",
                        '#include "helpers.c"\n\nint numOfColor(Game game, color color) {')
    game, _gone = _cut(game, "int getActiveDrawTwos(Game game) {")
    (folder / "Game.c").write_text(game)
    (folder / "helpers.c").write_text(helper)
    out = tmp_path_factory.mktemp("report")
    assert main([str(folder), "--out", str(out), "--quiet", *FAST]) == 1
    return folder, out, json.loads((out / "result.json").read_text())


def _run(readme: str, repro: str, folder: Path, where: Path) -> subprocess.CompletedProcess[str]:
    command = next(line for line in readme.splitlines() if line.endswith(f" {repro}"))
    assert command == f"sh build.sh YOUR_FOLDER {repro}"
    return subprocess.run(command.replace("YOUR_FOLDER", shlex.quote(str(folder))), shell=True, cwd=where,
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_readme_names_every_file_the_build_used_and_what_is_stubbed(graded: tuple[Path, Path, dict]) -> None:
    _folder, out, result = graded
    assert result["build_included"] == {"helpers.c": "Game.c"} and result["build_missing"] == ["getActiveDrawTwos"]
    readme = (out / "repro" / "README.txt").read_text()
    assert "Your build used Card.c, Game.c and helpers.c (#included by Game.c)." in readme
    assert "Your code does not define getActiveDrawTwos: repro_stubs.c defines each" in readme
    stubs = (out / "repro" / "repro_stubs.c").read_text()
    assert "int getActiveDrawTwos(Game game) {" in stubs and "abort();" in stubs


def test_a_repro_builds_with_the_one_command_and_fails_where_the_report_says(graded: tuple[Path, Path, dict]) -> None:
    folder, out, result = graded
    readme = (out / "repro" / "README.txt").read_text()
    failing = [t for t in result["tests"] if t["verdict"] == "wrong result" and t["id"] in result["repro_files"]]
    matching = [t for t in failing if t["id"].startswith("matching/")]
    assert matching, [t["id"] for t in failing]
    for test in matching[:3]:
        repro = Path(result["repro_files"][test["id"]]).name
        run = _run(readme, repro, folder, out / "repro")
        assert run.returncode != 0, (test["id"], run.stdout, run.stderr)
        first = run.stdout.splitlines()[0]
        assert first.startswith(f"FAILED after move {test['failed_after']}") or (
            test["failed_after"] == 0 and first.startswith("FAILED right after newGame")), (test["id"], run.stdout)
        assert "does not define" not in run.stderr  # a test that does not judge getActiveDrawTwos never calls it


def test_a_repro_makes_no_observation_of_a_missing_function_and_its_stub_stops_saying_so(
        graded: tuple[Path, Path, dict], tmp_path: Path) -> None:
    """As the grader's observer (MISSING: nothing compared there, the build's test charges it once), a repro never
    calls what the code lacks to observe it; called all the same (a move needing it), the stub stops, saying so."""
    _folder, out, result = graded
    flags = re.search(r"static const int skipped\[\d+\] = \{([^}]*)\};",
                      (out / result["repro_files"][next(iter(result["repro_files"]))]).read_text())
    assert flags is not None
    assert [int(f) for f in flags[1].split(", ")][ORDER.index("active_draw_twos")] == 1
    for h in ("Card.h", "Game.h"):
        shutil.copy(out / "repro" / h, tmp_path)
    (tmp_path / "main.c").write_text('#include <stddef.h>\n#include "Game.h"\n'
                                     'int main(void) { return getActiveDrawTwos(NULL); }\n')
    built = subprocess.run(["gcc", "-std=gnu11", "-o", "calls", "main.c", str(out / "repro" / "repro_stubs.c"),
                            f"-I{tmp_path}"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    run = subprocess.run(["./calls"], cwd=tmp_path, capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode != 0
    assert run.stderr == "repro: your code does not define getActiveDrawTwos(), which this test calls\n"


def test_every_api_function_has_a_declaration_a_stub_can_define(tmp_path: Path) -> None:
    """A stub for each function of the 2018 headers compiles (so any missing one links)."""
    headers = {h: (API.include_dir / h).read_text() for h in ("Card.h", "Game.h")}
    assert all(any(declaration(text, f) for text in headers.values()) for f in API.functions)
    assert re.fullmatch(r"Card newCard\(value \w+, color \w+, suit \w+\)",
                        declaration(headers["Card.h"], "newCard") or "")
    (tmp_path / "stubs.c").write_text(stub_source(headers, API.functions))
    for h in headers:
        shutil.copy(API.include_dir / h, tmp_path)
    built = subprocess.run(["gcc", "-std=gnu11", "-c", "-Wall", "-Werror", "-o", "stubs.o", "stubs.c"], cwd=tmp_path,
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr

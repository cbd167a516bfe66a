"""A submission graded as the wrong game or edition is told which flag to use (``grader.core.build.lookalike``).

Each game's ``GameSpec.hallmarks`` (with its API headers) say what a submission written for it uses; the build
compares a submission against every other registered game and, when one fits better, says so first: in the
build's failure (terminal, report, results.json), or as a note when the code compiles all the same.  A
submission graded as its own game gets no hint.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.core.build import build, lookalike
from grader.core.cli import main
from grader.games import GAMES, get

ROOT = Path(__file__).resolve().parents[2]
MODEL_18 = ROOT / "fixtures" / "submissions" / "model"
MODEL_17 = ROOT / "fixtures" / "fcd17s2" / "submissions" / "model"
MODEL_PALACE = ROOT / "fixtures" / "palace" / "submissions" / "model"
FAST = ["--random-games", "0", "--no-memory", "--no-tests"]


def test_a_2017_submission_graded_as_2018_is_told_to_use_edition_17s2(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code = main([str(MODEL_17), "--out", str(tmp_path), *FAST])
    out = capsys.readouterr().out
    assert code == 1
    hint = ("This looks like a Final Card-Down (2017) submission (it uses SAY_UNO, SAY_DUO, SAY_TRIO), not "
            "Final Card-Down (2018): grade it with --edition 17s2.")
    first = out.split("First failure: build/compiles [wrong result]\n", 1)[1]
    assert first.splitlines()[0].strip() == hint  # the first thing the terminal says of the failure
    result = json.loads((tmp_path / "result.json").read_text())
    compiles = next(t for t in result["tests"] if t["id"] == "build/compiles")
    assert compiles["message"].startswith(hint + "\n")
    gradescope = json.loads((tmp_path / "results.json").read_text())
    output = next(t for t in gradescope["tests"] if t["name"] == "build/compiles")["output"]
    assert output.startswith("This looks like a Final Card-Down (2017) submission")
    assert "grade it with --edition 17s2." in output
    assert hint in (tmp_path / "report.html").read_text()


def test_a_palace_submission_graded_as_final_card_down_is_told_to_use_game_palace(tmp_path: Path) -> None:
    for edition in ("fcd18s2", "fcd17s2"):
        built = build(MODEL_PALACE, get(edition))
        try:
            assert not built.ok
            first = built.problem.splitlines()[0]
            assert first.startswith("This looks like a Palace submission (it uses PalaceCard.h, Palace.h")
            assert first.endswith(f"not {get(edition).title}: grade it with --game palace.")
        finally:
            built.cleanup()


def test_a_final_card_down_submission_graded_as_palace_is_told_its_edition() -> None:
    assert lookalike(MODEL_18, get("palace")).endswith("not Palace: grade it with --edition 18s2.")
    assert lookalike(MODEL_17, get("palace")).endswith("not Palace: grade it with --edition 17s2.")
    assert lookalike(MODEL_18, get("fcd17s2")).startswith(
        "This looks like a Final Card-Down (2018) submission (it uses getActiveDrawTwos")


@pytest.mark.parametrize(("name", "folder"), [("fcd18s2", MODEL_18), ("fcd17s2", MODEL_17), ("palace", MODEL_PALACE)])
def test_a_model_graded_as_its_own_game_gets_no_hint(name: str, folder: Path) -> None:
    assert lookalike(folder, get(name)) == ""


def test_the_2018_model_builds_as_2018_with_no_hint() -> None:
    built = build(MODEL_18, get("fcd18s2"))
    try:
        assert built.ok and built.problem == ""
        assert not any("looks like" in note for note in built.notes)
    finally:
        built.cleanup()


def test_a_submission_that_compiles_all_the_same_gets_the_hint_as_its_first_note(tmp_path: Path) -> None:
    """The 2018 model beside a stray Palace header and notes naming Palace's functions: it still compiles (a
    header nothing includes is not compiled), and the hint is the first note of the build."""
    for source in MODEL_18.glob("*.c"):
        shutil.copy(source, tmp_path)
    palace = get("palace")
    shutil.copy(palace.include_dir / "PalaceCard.h", tmp_path)
    (tmp_path / "notes.h").write_text("/* " + " ".join(palace.hallmarks.words) + " */\n")
    built = build(tmp_path, get("fcd18s2"))
    try:
        assert built.ok, built.problem
        assert built.notes[0].startswith("This looks like a Palace submission (it uses PalaceCard.h, currentPhase")
        assert built.notes[0].endswith("grade it with --game palace.")
    finally:
        built.cleanup()


def test_every_registered_game_can_be_suggested() -> None:
    """Each game says how to choose it, and that flag is one the command line takes."""
    for name in GAMES:
        flag = get(name).hallmarks.flag
        option, value = flag.split()
        assert option in ("--game", "--edition") and (value == name if option == "--game" else f"fcd{value}" == name)

"""The 2017 repro programs (``grader.games.fcd17s2.repro``): the 2018 generator in 2017's C.

A 2017 mutant graded with ``fcd-grade --edition 17s2`` gets a repro_<test>.c for
every failing test; compiled against the mutant's sources and the 2017 headers it
stops at the difference the report gives (the call, expected and got) or crashes
in the call the report names, and compiled against the 2017 model it runs to the
end.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from grader.core.cli import main
from grader.games.fcd.focus import focus_of
from grader.games.fcd.repro import c_program
from grader.games.fcd17s2.observations import TABLE
from grader.games.fcd17s2.repro import FCD17_REPRO
from grader.games.fcd17s2.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "fcd17s2" / "submissions"
HEADERS = ("Card.h", "Game.h", "player.h")

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def run_repro(command: str, repro: Path, sources: Path) -> subprocess.CompletedProcess[str]:
    """The README's one command for ``repro`` (``sh build.sh YOUR_FOLDER repro_x.c``), run with ``sources`` as
    the student's folder: the repro built with their files where they are, then run."""
    return subprocess.run(command.replace("YOUR_FOLDER", shlex.quote(str(sources))), shell=True, cwd=repro.parent,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("mutant", ["advance_ignored", "twos_do_not_stack", "turn_moves_off_by_one",
                                    "wrong_call_out_free"])
def test_a_2017_mutant_gets_repros_that_fail_the_same_way(mutant: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main([str(SUBMISSIONS / "mutants" / mutant), "--edition", "17s2", "--out", str(out),
                 "--random-games", "0", "--no-memory"])
    capsys.readouterr()
    assert code == 1
    result = json.loads((out / "result.json").read_text())
    failing = [t for t in result["tests"] if t["verdict"] in ("wrong result", "crashed") and not t["hidden"]]
    assert failing
    files = result["repro_files"]
    assert sorted(files) == sorted(t["id"] for t in failing)
    readme = (out / "repro" / "README.txt").read_text()
    for test in failing:
        repro = out / files[test["id"]]
        assert repro.name == "repro_" + test["id"].replace("/", "_") + ".c" and repro.parent == out / "repro"
        command = next(line for line in readme.splitlines() if line.endswith(f" {repro.name}"))
        assert command == f"sh build.sh YOUR_FOLDER {repro.name}"
        message = test["message"]
        run = run_repro(command, repro, SUBMISSIONS / "mutants" / mutant)
        assert run.returncode != 0, (test["id"], run.stdout)
        lines = run.stdout.splitlines()
        if test["verdict"] == "crashed":
            assert lines[0].startswith("CRASHED"), run.stdout
            call = lines[0].split(" in ", 1)[1].rsplit(", after move", 1)[0]
            assert f"It happened in {call}" in message, (run.stdout, message)
        else:
            assert lines[0].startswith("FAILED after move "), run.stdout
            step = int(lines[0].split()[3].rstrip(":"))
            where = "right after newGame" if step == 0 else f"After move {step} "
            assert where in message or step == 0, (run.stdout, message)
            call = lines[0].split(": ", 1)[1]
            assert call.split("(")[0] in message, (call, message)
            expected = lines[1].split("expected:", 1)[1].strip()
            got = lines[2].split("got:", 1)[1].strip()
            assert f"expected: {expected}" in message and f"got:      {got}" in message, (run.stdout, message)
            assert lines[3].startswith("Rule: " + ", ".join(test["rules"])), run.stdout
        ok = run_repro(command, repro, SUBMISSIONS / "model")
        assert ok.returncode == 0 and "All checks passed" in ok.stdout, (test["id"], ok.stdout)


def test_a_2017_repro_checks_the_history_and_the_words() -> None:
    """The 2017 program reads the history through turnMoves and pastMove and checks it as the report
    prints it, and checks isValidMove of the three words; it speaks 2017's C (DECLARE, SAY_TRIO, END_TURN)."""
    s = next(s for s in load_scenarios() if s.id == "continue/claim_between_continue_and_next_discard")
    text = c_program(s.id, s.says, s.rules, s.deck, s.moves, dialect=FCD17_REPRO)  # a random game's focus
    assert "pastMove(game, t, i)" in text and "turnMoves(game, turn)" in text
    assert 'checkHistory("pastMove(turn, i)", "previous turn: ' in text
    assert 'checkBool("isValidMove(SAY_UNO)", 0, seen.validSay[0]);' in text
    # The test's own focus: B33 judges only the word the hand calls for, never UNO here.
    own = c_program(s.id, s.says, s.rules, s.deck, s.moves, focus=focus_of(s.rules, TABLE), dialect=FCD17_REPRO)
    assert 'checkBool("isValidMove(SAY_TRIO)", 1, seen.validSay[2]);' in own
    assert 'checkBool("isValidMove(SAY_UNO)"' not in own and 'checkHistory("' not in own
    assert "getDeckCard" not in text and "getHandCard" not in text and "handCard(game, count)" not in text
    assert "ADVANCE" in text or "CONTINUE" in text

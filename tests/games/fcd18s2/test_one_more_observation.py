"""One more query function is one row of the observation table plus one engine method.

On a copy of the grader and the reference, the course's Game.h gains a query
(``turnsLeftInBlock``, whatever a course might invent), the table gains its row
and the reference engine its method -- nothing else of ours is edited.  Then a
submission is graded through the core: the worker observes the new query after
every move (its probe, the schema, the loader's wrapper derive from the row and
the header), a right implementation passes, and a wrong one fails the test whose
rule governs it, on that observation, with the call named, and its repro program
checks it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MODEL = ROOT / "fixtures" / "submissions" / "model"

DECLARATION = "\n/* Turns left before the turn number is next a multiple of 4. */\nint turnsLeftInBlock(Game game);\n"
ROW = '''    Observation("turns_left_in_block", "int", "turnsLeftInBlock()", "turns left before the next block of 4",
                "turn_order", "turnsLeftInBlock() is 4 minus the turn number modulo 4.", meaning=("A31",)),
'''
METHOD = '''
    def turns_left_in_block(self) -> int:
        return 4 - self._turn % 4
'''
RIGHT = "\nint turnsLeftInBlock(Game game) {\n    return 4 - currentTurn(game) % 4;\n}\n"
WRONG = "\nint turnsLeftInBlock(Game game) {\n    return 3 - currentTurn(game) % 4;\n}\n"

GRADE = r"""
import json, sys
from pathlib import Path
import grader
from grader.core.grade import grade
from grader.core.ownership import home_groups, own_clauses
from grader.core.config import MarkingConfig
from grader.games import get
from grader.games.fcd.repro import c_program
from grader.games.fcd18s2.repro import FCD18_REPRO
from grader.games.fcd18s2.scenarios import load_scenarios
from reference import Deck, parse_moves

game = get("fcd18s2")
assert Path(grader.__file__).is_relative_to(Path(sys.argv[1])), grader.__file__
out = {}
for name in ("right", "wrong"):
    result = grade(Path(sys.argv[2]) / name, MarkingConfig.load(game=game), game=game, random_games=0, memory=False)
    out[name] = {t.id: [t.verdict.value, t.failed_on, t.message, t.notes] for t in result.tests}
test = next(s for s in load_scenarios() if s.id == "turns/num_turns_is_current_turn_plus_one")
homes = home_groups(load_scenarios())
out["a31"] = [s.id for s in load_scenarios() if "A31" in s.rules]
out["a31_own"] = [s.id for s in load_scenarios() if "A31" in own_clauses(s.group, s.rules, homes)]
out["repro"] = c_program(test.id, test.says, test.rules, test.deck, test.moves, fails_on="turns_left_in_block",
                         dialect=FCD18_REPRO)
print(json.dumps(out))
"""


def _insert_before(path: Path, marker: str, text: str) -> None:
    source = path.read_text()
    assert source.count(marker) == 1, marker
    path.write_text(source.replace(marker, text + marker))


def test_one_more_query_is_one_table_row_and_one_engine_method(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("grader", "reference"):
        shutil.copytree(ROOT / name, pkg / name, ignore=ignore, symlinks=True)  # include/: sandbox/include
    (pkg / "fixtures").mkdir()
    (pkg / "fixtures" / "scenarios").symlink_to(ROOT / "fixtures" / "scenarios")
    game_dir = pkg / "grader" / "games" / "fcd18s2"
    # The course's header declares the new query; our edits: one row, one method.
    _insert_before(game_dir / "sandbox" / "include" / "Game.h", "\n#endif", DECLARATION)
    _insert_before(game_dir / "sandbox" / "observations.py", "\n)\n\n# Not a field of a step", "\n" + ROW.rstrip("\n"))
    _insert_before(pkg / "reference" / "game.py", "\n    def current_turn_moves(self) -> int:", METHOD.rstrip("\n"))
    submissions = tmp_path / "submissions"
    for name, body in (("right", RIGHT), ("wrong", WRONG)):
        shutil.copytree(MODEL, submissions / name)
        with open(submissions / name / "Game.c", "a") as game_c:
            game_c.write(body)

    env = {**os.environ, "PYTHONPATH": str(pkg)}
    proc = subprocess.run([sys.executable, "-c", GRADE, str(pkg), str(submissions)], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])

    right, wrong = out["right"], out["wrong"]
    assert all(v[0] == "passed" for v in right.values()), {k: v for k, v in right.items() if v[0] != "passed"}
    owner = "turns/num_turns_is_current_turn_plus_one"  # the test of A31, the clause the row names
    verdict, failed_on, message, _notes = wrong[owner]
    assert (verdict, failed_on) == ("wrong result", "turns_left_in_block"), wrong[owner]
    assert "turnsLeftInBlock()" in message and "expected: 4" in message and "got:      3" in message, message
    # It fails exactly the tests of A31 in A31's home group (``grader.core.ownership``: turns, whose test leads
    # with it); elsewhere, in deal's test listing A31 too, the difference is a note naming the owner.
    failed = {k for k, v in wrong.items() if v[0] not in ("passed", "inconclusive")}
    assert failed == set(out["a31_own"]) and all(t.startswith("turns/") for t in failed), (failed, out["a31_own"])
    assert any(t.startswith("deal/") for t in set(out["a31"]) - failed), out["a31"]
    notes = [n for k, v in wrong.items() if k not in failed for n in v[3] if "turnsLeftInBlock()" in n]
    outside = [n for n in notes if "accepted (A29)" not in n]
    assert outside and all(any(t in n for t in failed) for n in outside), outside[:3]
    # After the end of a game every query is open (A29, which names no observation list of its own):
    # the new query is covered too, with no edit to the rulings.
    assert any("accepted (A29)" in n for n in notes)
    # The repro program checks the new query too, and fails on it against the wrong submission.
    assert 'checkInt("turnsLeftInBlock()", 4,' in out["repro"]
    work = submissions / "wrong"
    (work / "repro.c").write_text(out["repro"])
    for header in ("Game.h", "Card.h"):
        shutil.copyfile(game_dir / "include" / header, work / header)
    subprocess.run(["gcc", "-std=gnu11", "-I.", "-o", "repro", "repro.c", "Game.c", "Card.c"], cwd=work, check=True,
                   capture_output=True)
    run = subprocess.run(["./repro"], cwd=work, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 1 and "FAILED after move 0: turnsLeftInBlock()" in run.stdout, run.stdout

"""The 2018 hostile submissions, made again from the 2017 model: the 2017 edition meets them as well.

Each variant of fixtures/submissions/variants.py puts its hostile code into a
model's Game.c at places every edition has (the start of playMove for a draw,
the start of newGame, isValidMove or playMove, the top of the file), so the same
table makes 2017 submissions.  Each gets, under the 2017 session, a verdict the
table expects for the game that sets it off, and the game that does not still
passes afterwards where the table says so.  (Escapes, stray processes and the
network are the sandbox's, shared by both editions: tests/games/fcd18s2/test_hostile.py.)
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader.core.isolation import detect_mode
from grader.games.fcd.scenarios import deal_to_deck
from grader.games.fcd17s2.session import Fcd17Session
from reference.fcd17s2 import parse_moves

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
sys.path.insert(0, str(FIXTURES / "submissions"))
from variants import HOSTILE, Hostile, make_hostile  # noqa: E402

MODEL17 = FIXTURES / "fcd17s2" / "submissions" / "model"
LIMITS = {"cpu": 1, "wall": 2.0, "memory_mb": 256, "output_kb": 1024}
DECK = deal_to_deck({"p0": "5GC*7", "p1": "5GC*7", "p2": "5GC*7", "p3": "5GC*7", "discard": "5GC", "draw": "9PQ*10"})
CONTROL = parse_moves("5GC end 5GC end")  # no draw
# Variants whose hostile code names a 2018 function: they do not apply to a 2017 submission.
NOT_FOR_2017 = {"missing_function": "it leaves out getCurrentColor, which 2017's Game.h does not have"}


@pytest.mark.parametrize("variant", [v for v in HOSTILE if v.name not in NOT_FOR_2017], ids=lambda v: v.name)
def test_a_2017_hostile_submission_gets_the_verdict_the_table_expects(variant: Hostile, tmp_path: Path) -> None:
    if variant.name == "incbin_hidden" and detect_mode().name != "bwrap":
        pytest.skip("degraded mode: a file the sandbox user may read can be read at compile time (documented)")
    folder = tmp_path / variant.name
    make_hostile(variant, folder, MODEL17)
    with Fcd17Session.open(folder, limits=LIMITS, compile_timeout=5) as session:
        if variant.compile_fails:
            assert not session.build.ok and len(session.build.output) <= 5000
            return
        assert session.build.ok, session.build.output
        hit = session.run_game(f"hostile/{variant.name}", "", (), DECK, parse_moves(variant.trigger))
        assert hit.verdict.value in variant.expect, (hit.verdict, hit.message, hit.stderr[:500])
        assert hit.verdict.family != "error" and "Traceback" not in hit.message
        control = session.run_game(f"hostile/{variant.name}-control", "", (), DECK, CONTROL)
        assert control.passed == variant.control_passes, (control.verdict, control.message)


def test_the_variants_that_do_not_apply_name_a_function_2017_lacks() -> None:
    game_h = (FIXTURES.parent / "grader" / "games" / "fcd17s2" / "include" / "Game.h").read_text()
    assert "getCurrentColor" not in game_h and set(NOT_FOR_2017) <= {v.name for v in HOSTILE}

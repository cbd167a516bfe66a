"""The replay of a game the submission stopped in -- it crashed or hung in some call -- opens where it went wrong.

Such a test has no values that differ; its difference row is the call in progress (``grader.core.replay.
call_in_progress``), at the step of the game that call was made on: a move's call (playMove of move k + 1) shows
step k, the game before that move; a look at the game after move k (a probe) shows step k.  Here on synthetic run
reports (the step, kept within the game, the words of each way a game stops), and on real submissions in the
sandbox for both editions of Final Card-Down (Palace's: tests/games/palace/test_replay_palace.py): a committed
hostile submission that hangs in its fifth playMove, one that crashes in a draw, the same two made from the 2017
model, and one built here that crashes while the grader reads the game after move 2.  The verdicts are what they
were: only what the replay shows changed.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from broken import edited

from grader.core.replay import (
    CALL,
    DIFFERENCE,
    Difference,
    Frame,
    Replay,
    call_in_progress,
    replay_address,
    replays_of,
)
from grader.core.results import TestResult as Result  # (a Test* name would be collected)
from grader.core.results import Verdict
from grader.core.run_report import Enforced, RunReport
from grader.core.sandbox.limits import Limits
from grader.games import get
from grader.games.fcd.scenarios import deal_to_deck
from grader.games.fcd17s2.session import Fcd17Session
from grader.games.fcd18s2.session import Fcd18Session
from reference import parse_moves as moves18
from reference.fcd17s2 import parse_moves as moves17

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "fixtures" / "submissions" / "hostile"
MODEL18 = ROOT / "fixtures" / "submissions" / "model"
MODEL17 = ROOT / "fixtures" / "fcd17s2" / "submissions" / "model"
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))
from variants import HOSTILE as VARIANTS  # noqa: E402
from variants import make_hostile  # noqa: E402

LIMITS = {"cpu": 1, "wall": 2.0, "memory_mb": 256, "output_kb": 1024}
# Four hands of seven 5GC: every seat can play one and end its turn; the draw pile is 9PQ.
DECK = deal_to_deck({"p0": "5GC*7", "p1": "5GC*7", "p2": "5GC*7", "p3": "5GC*7", "discard": "5GC", "draw": "9PQ*10"})
BASE = Limits(cpu=1, wall=2.0, memory_mb=256, output_kb=1024, nproc=64)
PLAY_MOVE = -2  # the call slot's probe number of playMove (both games' ``observe.PLAY_MOVE``)


def _report(call: tuple[int, ...] | None, *, signal_: int | None = None, enforced: Enforced | None = None,
            exit_code: int | None = None, limits: Limits = BASE, wall: float = 0.2) -> RunReport:
    return RunReport(limits=limits, exit_code=exit_code, signal=signal_, enforced=enforced, protocol_problem=None,
                     finished=False, call=call, cpu=0.1, maxrss_kb=1000, wall=wall, stdout="", stderr="", frames=(),
                     error=None)


def _words(call: tuple[int, ...]) -> str:
    return f"call{call[1:]}"


# ---- the row, on synthetic reports ------------------------------------------------------------------------------
def test_the_step_is_the_moves_made_when_the_call_was_made_kept_within_the_game() -> None:
    """call[0] is the moves made when the call was made (the job's ``Results.step``); the slot is the
    submission's to scribble on, so a step outside the game is brought back into it, and with no call recorded
    the moves the job said it made stand in."""
    crash = _report((3, PLAY_MOVE, 7, 3, 0), signal_=signal.SIGSEGV)
    row = call_in_progress(crash, Verdict.CRASHED, moves=6, made=3, words=_words)
    assert row == {"step": 3, "what": "call(-2, 7, 3, 0)", "expected": "to return",
                   "got": "crashed (segmentation fault)"}
    assert call_in_progress(_report((99, 1, 2, 0, 0), signal_=signal.SIGSEGV), Verdict.CRASHED, moves=6, made=3,
                            words=_words)["step"] == 6
    assert call_in_progress(_report((-5, 1, 2, 0, 0), signal_=signal.SIGSEGV), Verdict.CRASHED, moves=6, made=3,
                            words=_words)["step"] == 0
    unknown = call_in_progress(_report(None, signal_=signal.SIGABRT), Verdict.CRASHED, moves=6, made=4, words=_words)
    assert unknown["step"] == 4 and "not known" in unknown["what"] and unknown["got"] == "crashed (abort)"


def test_each_way_of_stopping_says_what_became_of_the_call_under_the_runs_own_limits() -> None:
    def got(verdict: Verdict, report: RunReport) -> object:
        row = call_in_progress(report, verdict, moves=5, made=1, words=_words)
        assert row is not None
        return row["got"]

    call = (1, PLAY_MOVE, 7, 1, 0)
    assert got(Verdict.TIMED_OUT, _report(call, enforced=Enforced.WALL, wall=2.1)) == "did not return within 2 s"
    assert got(Verdict.TIMED_OUT, _report(call, signal_=signal.SIGXCPU)) == "did not return within 1 s of CPU time"
    stalled = _report(call, enforced=Enforced.WALL, limits=BASE.with_(stall=0.1), wall=0.15)
    assert got(Verdict.TIMED_OUT, stalled).startswith("did not return: no progress for 0.1 s")
    assert got(Verdict.CRASHED, _report(call, signal_=signal.SIGFPE)) == "crashed (arithmetic error)"
    assert got(Verdict.EXITED, _report(call, exit_code=3)) == "ended the program (exit code 3)"
    assert got(Verdict.MEMORY, _report(call, signal_=signal.SIGSEGV)) == "went over the 256 MiB memory limit"
    assert got(Verdict.OUTPUT, _report(call, enforced=Enforced.OUTPUT)) == "printed more than 1024 KiB"
    # A game's own error (newGame returned NULL) is a wrong result, not a call that never returned: no row.
    assert call_in_progress(_report(call), Verdict.WRONG, moves=5, made=1, words=_words) is None


def test_a_stopped_game_replays_as_the_call_in_progress_at_its_step_and_a_wrong_one_as_a_difference() -> None:
    def frames_of(deck: str, moves: str) -> list[Frame]:
        return [Frame(k, "draw" if k else "", (), (), (), ()) for k in range(len(moves.split()) + 1)]

    row = {"step": 2, "what": "playMove(draw) at move 3", "expected": "to return", "got": "crashed (abort)"}
    hung = Result("g/hung", "g", (), 1.0, Verdict.TIMED_OUT, deck="5GC", moves="draw end draw end", difference=row)
    wrong = Result("g/wrong", "g", (), 1.0, Verdict.WRONG, deck="5GC", moves="draw end draw end",
                   difference={**row, "step": 1})
    replays = replays_of(SimpleNamespace(tests=[hung, wrong]), frames_of, "t")
    assert replays["g/hung"].differences == (Difference(2, "playMove(draw) at move 3", "to return",
                                                        "crashed (abort)", CALL),)
    assert replays["g/wrong"].differences[0].kind == DIFFERENCE
    assert replay_address(hung) == "g/hung/step-2" and replays["g/hung"].first_difference == 2
    packed = replays["g/hung"].to_json()
    assert packed["differences"][0]["kind"] == CALL and Replay.from_json(packed) == replays["g/hung"]
    del packed["differences"][0]["kind"]  # a replay written before kinds existed: a difference
    assert Replay.from_json(json.loads(json.dumps(packed))).differences[0].kind == DIFFERENCE


# ---- real submissions in the sandbox ---------------------------------------------------------------------------
def _variant(name: str, model: Path, dest: Path) -> Path:
    make_hostile(next(v for v in VARIANTS if v.name == name), dest, model)
    return dest


def _edited(model: Path, dest: Path, edits: list[tuple[str, str]]) -> Path:
    """``model`` copied to ``dest`` with C inserted after each of these exact lines of its Game.c."""
    return edited(model, dest, edits)


def _frame_before(game: str, deck: object, moves: list[object], step: int) -> Frame:
    """The reference's game at ``step``, as the replay shows it."""
    return get(game).replay_frames(str(deck), " ".join(str(m) for m in moves))[step]


def test_2018_a_hang_in_the_fifth_play_move_opens_the_replay_before_move_5() -> None:
    """fixtures/submissions/hostile/hang_on_fifth_play_move loops in its fifth playMove: move 5 was to be made
    on the game after 4 moves, so the row is at step 4 (where that move is valid), naming playMove of move 5."""
    moves = moves18("5GC end 5GC end 5GC end")
    with Fcd18Session.open(HOSTILE / "hang_on_fifth_play_move", limits=LIMITS, compile_timeout=5) as session:
        hung = session.run_game("hostile/hang", "", (), DECK, moves)
    assert hung.verdict is Verdict.TIMED_OUT and hung.earns_marks == 0.0
    assert hung.difference is not None
    assert {k: hung.difference[k] for k in ("step", "what", "expected")} == {
        "step": 4, "what": "playMove(5GC) at move 5", "expected": "to return"}
    assert str(hung.difference["got"]).startswith("did not return")
    assert "5GC" in _frame_before("fcd18s2", DECK, moves, 4).valid
    assert replay_address(hung) == "hostile/hang/step-4"


def test_2018_a_crash_in_a_draw_and_a_crash_while_the_game_is_read_each_open_at_their_game(tmp_path: Path) -> None:
    """hostile/null_deref crashes in playMove(draw): move 3 is made on the game after 2 moves, step 2.  A
    submission built here crashes in currentTurn() once two moves were made: the grader was reading the game
    after move 2, so that is step 2 as well -- one more than the steps it was seen at (``played_moves``)."""
    with Fcd18Session.open(HOSTILE / "null_deref", limits=LIMITS, compile_timeout=5) as session:
        crashed = session.run_game("hostile/crash", "", (), DECK, moves18("5GC end draw end"))
    assert crashed.verdict is Verdict.CRASHED
    assert crashed.difference == {"step": 2, "what": "playMove(draw) at move 3", "expected": "to return",
                                  "got": "crashed (segmentation fault)"}
    reading = _edited(MODEL18, tmp_path / "reading", [
        ('#include "Game.h"\n', "static int fcdMoves;\n"),
        ("void playMove(Game game, playerMove move) {\n", "    fcdMoves++;\n"),
        ("int currentTurn(Game game) {\n", "    if (fcdMoves >= 2) { volatile int *p = NULL; *p = 1; }\n")])
    with Fcd18Session.open(reading, limits=LIMITS, compile_timeout=5) as session:
        probe = session.run_game("hostile/probe", "", (), DECK, moves18("5GC end 5GC end"))
    assert probe.verdict is Verdict.CRASHED and probe.failed_on == "current_turn"
    assert probe.difference == {"step": 2, "what": "currentTurn()", "expected": "to return",
                                "got": "crashed (segmentation fault)"}
    assert probe.played_moves == 1


@pytest.mark.parametrize("name, verdict, got", [("busy_loop", Verdict.TIMED_OUT, "did not return"),
                                                ("null_deref", Verdict.CRASHED, "crashed (segmentation fault)")])
def test_2017_a_hang_and_a_crash_in_a_draw_open_before_that_draw(name: str, verdict: Verdict, got: str,
                                                                 tmp_path: Path) -> None:
    """The 2018 hostile variants made from the 2017 model (the family's session serves both editions)."""
    moves = moves17("5GC end draw end")
    with Fcd17Session.open(_variant(name, MODEL17, tmp_path / name), limits=LIMITS, compile_timeout=5) as session:
        result = session.run_game(f"hostile/{name}", "", (), DECK, moves)
    assert result.verdict is verdict and result.difference is not None
    assert (result.difference["step"], result.difference["what"]) == (2, "playMove(draw) at move 3")
    assert str(result.difference["got"]).startswith(got)
    assert "draw" in _frame_before("fcd17s2", DECK, moves, 2).valid

"""The worker's own machinery: the shared results area and what the fork server holds.

The hostile suite (test_hostile.py) shows the worker surviving submissions;
these tests pin down the pieces it relies on.
"""

from __future__ import annotations

import os
import signal
import traceback
from pathlib import Path

import pytest

from grader.core.config import MarkingConfig
from grader.core.isolation import detect_mode
from grader.core.sandbox import protocol
from grader.core.sandbox.worker import (
    RESULTS_FULL_EXIT,
    ForkServer,
    Results,
    ResultsFull,
    _descendants,
    run_one,
    use_job,
)
from grader.games.fcd.sandbox.frames import max_frames
from grader.games.fcd.session import play
from grader.games.fcd18s2 import GAME
from grader.games.fcd18s2.sandbox.play import warm_up
from grader.games.fcd18s2.session import Fcd18Session as FcdSession

LIMITS = MarkingConfig.load(game=GAME).limits.as_dict()
NO_LIBRARY = {"op": "run", "lib": "/nonexistent/libgame.so", "deck": [], "moves": [], "limits": LIMITS,
              "max_frames": max_frames(0)}

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "fixtures" / "submissions" / "model"


def test_results_round_trip_whole_frames_in_order() -> None:
    results = Results(size=4096)
    sent = [{"t": "obs", "i": 0, "obs": {"hand": [[1, 2, 3, 4]]}}, {"t": "moved", "i": 0}, {"t": "done"}]
    for frame in sent:
        results.send(frame)
    assert [protocol.loads(b) for b in results.frames(most=3)] == sent
    with pytest.raises(protocol.ProtocolError):  # one more than a game of that length sends
        results.frames(most=2)
    results.close()


def test_results_cut_inside_a_frame_are_a_protocol_error() -> None:
    """A committed length that ends mid-frame (as a forged one would) is never read as whole frames."""
    results = Results(size=4096)
    results.send({"t": "done"})
    Results.HEAD.pack_into(results.area, 0, 7, 0)  # 4-byte header + 3 of the 12 body bytes
    with pytest.raises(protocol.ProtocolError):
        results.frames(most=10)
    results.close()


def test_a_forged_length_reads_no_further_than_the_area_and_no_more_frames_than_the_game_has() -> None:
    results = Results(size=4096)
    Results.HEAD.pack_into(results.area, 0, 2**63, 0)  # then zeros: empty frames, 1,014 of them
    assert len(results.frames(most=5000)) == (4096 - Results.FRAMES_AT) // 4
    with pytest.raises(protocol.ProtocolError):
        results.frames(most=10)
    results.area[Results.FRAMES_AT:Results.FRAMES_AT + 4] = (10**6).to_bytes(4, "big")  # announced past the end
    with pytest.raises(protocol.ProtocolError):
        results.frames(most=5000)
    results.close()


def test_results_full_is_refused_not_overwritten() -> None:
    results = Results(size=64)
    results.send({"t": "done"})
    with pytest.raises(ResultsFull):
        results.send({"t": "obs", "obs": "x" * 100})
    assert [protocol.loads(b) for b in results.frames(most=3)] == [{"t": "done"}]
    results.close()


def test_a_child_whose_results_overflow_is_a_protocol_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_one in this process (no student code: the library path does not exist, so the
    child only reports a load error) with an area too small for that one frame."""
    use_job(GAME.sandbox_job)
    warm_up()  # as the worker does before its first fork: the child may not be able to import cffi
    monkeypatch.setattr("grader.core.sandbox.worker.RESULT_BYTES", Results.FRAMES_AT + 8)  # no room for the frame

    def check() -> None:
        bodies, facts = run_one(NO_LIBRARY)
        assert facts["exit_code"] == RESULTS_FULL_EXIT
        assert facts["enforced"] == "protocol" and "size cap" in facts["protocol"]
        assert bodies == []

    in_own_process(check)


def test_a_load_error_comes_back_as_one_frame() -> None:
    use_job(GAME.sandbox_job)
    warm_up()

    def check() -> None:
        bodies, facts = run_one(NO_LIBRARY)
        frames = [protocol.loads(b) for b in bodies]
        assert facts["exit_code"] == 0 and facts["enforced"] is None
        assert [f["t"] for f in frames] == ["error"] and frames[0]["what"] == "load"

    in_own_process(check)


def test_the_fork_server_is_single_threaded_and_never_imports_threading() -> None:
    """threading's after-fork hook would run in every child (see worker._keep_single_threaded)."""
    with FcdSession.open(MODEL) as session:
        play(session.client, [[0, 0, 0]] * 30, [], depths=[(1, 1)], limits=session.limits)
        pong = session.client.pong
        assert pong["threading"] is False
        if detect_mode().name != "bwrap":  # its pid means something here only outside a PID namespace
            assert len(os.listdir(f"/proc/{pong['pong']}/task")) == 1


# ---- the fork server, in this process, on the model library ---------------------------------

@pytest.fixture(scope="module")
def model_game() -> dict:
    from grader.core.build import build
    from grader.games.fcd18s2.scenarios import load_scenarios

    built = build(MODEL, GAME)
    assert built.ok, built.output
    scenario = max(load_scenarios(), key=lambda s: len(s.moves))
    use_job(GAME.sandbox_job)
    warm_up()
    from grader.games.fcd.reference_trace import reference_trace
    from grader.games.fcd18s2.edition import FCD18

    return {"op": "run", "lib": str(built.library), "deck": [list(k) for k in scenario.deck.keys],
            "moves": [str(m) for m in scenario.moves], "limits": LIMITS, "max_frames": max_frames(len(scenario.moves)),
            "depths": [list(st.depths) for st in reference_trace(scenario.deck, scenario.moves, edition=FCD18)]}


def events(bodies: list[bytes]) -> list[str]:
    return [protocol.loads(b)["t"] for b in bodies]


def in_own_process(check) -> None:  # noqa: ANN001
    """Run ``check`` in a fork of this process: a fork server kills and reaps every child of
    the process it runs in but its spare, and pytest's process may have children of its own."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            check()
            report = b""
        except BaseException:  # noqa: BLE001 - handed to the parent as text
            report = traceback.format_exc().encode()
        os.write(write, report[:60000])
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        report = f.read()
    os.waitpid(pid, 0)
    assert report == b"", report.decode()


def test_a_finished_game_is_answered_before_its_teardown_and_tidied_after(model_game: dict) -> None:
    def check() -> None:
        server = ForkServer()
        try:
            bodies, facts = server.run(dict(model_game))
            assert facts["finished"] is True and facts["exit_code"] == 0 and facts["signal"] is None
            assert events(bodies)[-1] == "done" and events(bodies).count("obs") == len(model_game["moves"]) + 1
            assert server.spare is not None  # the next game's child, waiting
            server.tidy()
            assert _descendants() == [server.spare.pid]
            spare = server.spare.pid
        finally:
            server.close()
        assert _descendants() == []
        with pytest.raises(ProcessLookupError):
            os.kill(spare, 0)

    in_own_process(check)


@pytest.mark.parametrize("attack", [signal.SIGKILL, signal.SIGSTOP])
def test_a_spare_killed_or_stopped_before_its_game_still_gives_a_whole_game(model_game: dict, attack: int) -> None:
    """What the game beside it could do to the next game's child: the next game still plays."""
    def check() -> None:
        server = ForkServer()
        try:
            server.run(dict(model_game))
            os.kill(server.spare.pid, attack)
            bodies, facts = server.run(dict(model_game))
            assert facts["enforced"] is None and events(bodies)[-1] == "done"
            assert facts["wall"] < 1.0
        finally:
            server.close()

    in_own_process(check)


def test_a_spare_made_for_other_limits_is_not_used(model_game: dict) -> None:
    def check() -> None:
        server = ForkServer()
        try:
            server.run(dict(model_game))
            first = server.spare.pid
            bodies, facts = server.run({**model_game, "limits": {**LIMITS, "cpu": 1, "wall": 0.5}})
            assert facts["limits"]["cpu"] == 1 and events(bodies)[-1] == "done"
            with pytest.raises(ProcessLookupError):  # discarded, not handed the game
                os.kill(first, 0)
        finally:
            server.close()

    in_own_process(check)

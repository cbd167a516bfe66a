"""The worker's own machinery: the shared results area and what the fork server holds.

The hostile suite (test_hostile.py) shows the worker surviving submissions;
these tests pin down the pieces it relies on.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader import protocol
from grader.loader import warm_up
from grader.session import SubmissionSession
from grader.worker import RESULTS_FULL_EXIT, Results, ResultsFull, run_one

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "fixtures" / "submissions" / "model"


def test_results_round_trip_whole_frames_in_order() -> None:
    results = Results(size=4096)
    sent = [{"t": "obs", "i": 0, "obs": {"hand": [[1, 2, 3, 4]]}}, {"t": "moved", "i": 0}, {"t": "done"}]
    for frame in sent:
        results.send(frame)
    assert [protocol.json.loads(b) for b in results.frames(most=3)] == sent
    with pytest.raises(protocol.ProtocolError):  # one more than a game of that length sends
        results.frames(most=2)
    results.close()


def test_results_cut_inside_a_frame_are_a_protocol_error() -> None:
    """A committed length that ends mid-frame (as a forged one would) is never read as whole frames."""
    results = Results(size=4096)
    results.send({"t": "done"})
    Results.COMMITTED.pack_into(results.area, 0, 7)  # 4-byte header + 3 of the 12 body bytes
    with pytest.raises(protocol.ProtocolError):
        results.frames(most=10)
    results.close()


def test_a_forged_length_reads_no_further_than_the_area_and_no_more_frames_than_the_game_has() -> None:
    results = Results(size=4096)
    Results.COMMITTED.pack_into(results.area, 0, 2**63)  # then zeros: empty frames, 1,022 of them
    assert len(results.frames(most=5000)) == (4096 - 8) // 4
    with pytest.raises(protocol.ProtocolError):
        results.frames(most=10)
    results.area[8:12] = (10**6).to_bytes(4, "big")  # a frame announced past the end
    with pytest.raises(protocol.ProtocolError):
        results.frames(most=5000)
    results.close()


def test_results_full_is_refused_not_overwritten() -> None:
    results = Results(size=64)
    results.send({"t": "done"})
    with pytest.raises(ResultsFull):
        results.send({"t": "obs", "obs": "x" * 100})
    assert [protocol.json.loads(b) for b in results.frames(most=3)] == [{"t": "done"}]
    results.close()


def test_a_child_whose_results_overflow_is_a_protocol_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_one in this process (no student code: the library path does not exist, so the
    child only reports a load error) with an area too small for that one frame."""
    warm_up()  # as the worker does before its first fork: the child may not be able to import cffi
    monkeypatch.setattr("grader.worker.RESULT_BYTES", 16)
    bodies, facts = run_one({"op": "run", "lib": "/nonexistent/libgame.so", "deck": [], "moves": []})
    assert facts["exit_code"] == RESULTS_FULL_EXIT
    assert facts["enforced"] == "protocol" and "size cap" in facts["protocol"]
    assert bodies == []


def test_a_load_error_comes_back_as_one_frame() -> None:
    warm_up()
    bodies, facts = run_one({"op": "run", "lib": "/nonexistent/libgame.so", "deck": [], "moves": []})
    frames = [protocol.json.loads(b) for b in bodies]
    assert facts["exit_code"] == 0 and facts["enforced"] is None
    assert [f["t"] for f in frames] == ["error"] and frames[0]["what"] == "load"


def test_the_fork_server_is_single_threaded_and_never_imports_threading() -> None:
    """threading's after-fork hook would run in every child (see worker._keep_single_threaded)."""
    with SubmissionSession.open(MODEL) as session:
        session.client.run([[0, 0, 0]] * 30, [])
        pong = session.client.pong
        assert pong["threading"] is False
        if os.path.exists(f"/proc/{pong['pong']}/task"):  # visible only when not in a PID namespace
            assert len(os.listdir(f"/proc/{pong['pong']}/task")) == 1

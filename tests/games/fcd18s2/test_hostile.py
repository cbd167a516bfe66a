"""Hostile submissions: each gets a complete, correctly classified result, and nothing escapes.

For every variant in fixtures/submissions/variants.py (the hostile table of
shared/design/isolation.md): the game that triggers the behaviour gets one of
the verdicts the table expects, within the wall limit plus a second; a game of
the same submission that does not trigger it still passes afterwards; and
afterwards no sandbox process is left, no file appeared outside the sandbox,
and no connection reached the grader's machine.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

import pytest

from grader.core.isolation import detect_mode
from grader.games.fcd.scenarios import deal_to_deck
from grader.games.fcd18s2.session import Fcd18Session as FcdSession
from reference import parse_moves

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "fixtures" / "submissions"))
from variants import HOSTILE, Hostile  # noqa: E402

HOSTILE_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "submissions" / "hostile"
LIMITS = {"cpu": 1, "wall": 2.0, "memory_mb": 256, "output_kb": 1024}
DEAL = {"p0": "5GC*7", "p1": "5GC*7", "p2": "5GC*7", "p3": "5GC*7", "discard": "5GC", "draw": "9PQ*10"}
DECK = deal_to_deck(DEAL)
CONTROL = parse_moves("5GC end 5GC end")  # no draw: the model's behaviour
ESCAPES = [Path(p) for p in ("/tmp/fcd-escape", "/tmp/fcd-ctor", "/tmp/fcd-flood.bin", "/work/main/fcd-escape",
                             "/root/fcd-escape", str(HOSTILE_DIR.parent / "fcd-escape"))]


def _pid_namespace(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def sandbox_namespaces(session: FcdSession) -> set[str]:
    """The PID namespaces the session's sandbox runs in (bwrap's children and theirs)."""
    proc = session.client.proc if session.client else None
    if proc is None:
        return set()
    host = _pid_namespace(os.getpid())
    found, todo = set(), [proc.pid]
    while todo:
        pid = todo.pop()
        ns = _pid_namespace(pid)
        if ns and ns != host:
            found.add(ns)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                todo.extend(int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split())
        except OSError:
            pass
    return found


def processes_in(namespaces: set[str]) -> list[int]:
    """Every process on the machine still living in one of these PID namespaces (zombies are dead)."""
    return [int(e) for e in os.listdir("/proc") if e.isdigit() and _pid_namespace(int(e)) in namespaces
            and not _zombie(int(e))]


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return True  # gone already


def loaded_student_code(pid: int) -> bool:
    """Has this process mapped the library under test (or was it too quick to look at)?"""
    try:
        return "/lib-under-test/" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@pytest.fixture
def listener():
    """A server on the loopback: a hostile connect must never reach it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    os.environ["FCD_TEST_PORT"] = str(server.getsockname()[1])
    yield server
    server.close()


def test_the_variants_on_disk_are_what_variants_py_makes(tmp_path: Path) -> None:
    from variants import make_hostile

    for v in HOSTILE:
        make_hostile(v, tmp_path / v.name)
        assert (tmp_path / v.name / "Game.c").read_text() == (HOSTILE_DIR / v.name / "Game.c").read_text(), (
            f"run: python fixtures/submissions/variants.py  ({v.name} is stale)")


@pytest.mark.parametrize("variant", HOSTILE, ids=[v.name for v in HOSTILE])
def test_hostile_submission(variant: Hostile, listener: socket.socket) -> None:
    namespaces: set[str] = set()
    for path in ESCAPES:
        path.unlink(missing_ok=True)
    started = time.monotonic()
    if variant.name == "incbin_hidden" and detect_mode().name != "bwrap":
        pytest.skip("degraded mode: a file the sandbox user may read can be read at compile time (documented)")
    with FcdSession.open(HOSTILE_DIR / variant.name, limits=LIMITS, compile_timeout=5) as session:
        if variant.compile_fails:
            assert not session.build.ok
            assert time.monotonic() - started < 5 + 2
            assert len(session.build.output) <= 5000
            assert "group = " not in session.build.output  # nothing of the hidden scenarios leaks
            if session.build.library is None and detect_mode().name == "bwrap":
                assert "[[scenario]]" not in session.build.output
            return
        assert session.build.ok, session.build.output
        t0 = time.monotonic()
        hit = session.run_game(f"hostile/{variant.name}", "", (), DECK, parse_moves(variant.trigger))
        namespaces |= sandbox_namespaces(session)
        assert time.monotonic() - t0 <= LIMITS["wall"] + 1.5, "the grader waited past its deadline"
        assert hit.verdict.value in variant.expect, (hit.verdict, hit.message, hit.stderr[:500])
        if os.getuid() == 0 and detect_mode().name == "bwrap" and session.client.proc is not None:
            # Between games the sandbox holds bubblewrap's init, the fork server and the spare
            # child made for the next game, which has loaded no student code.  What the game
            # left is killed while the grader reads the answer: give that a moment.
            deadline = time.monotonic() + 1.0
            while True:
                living = processes_in(sandbox_namespaces(session))
                if (len(living) <= 3 and not any(map(loaded_student_code, living))) or time.monotonic() > deadline:
                    break
                time.sleep(0.01)
            assert len(living) <= 3 and [p for p in living if loaded_student_code(p)] == [], \
                "a process outlived its game"
        control = session.run_game(f"hostile/{variant.name}-control", "", (), DECK, CONTROL)
        namespaces |= sandbox_namespaces(session)
        assert control.passed == variant.control_passes, (control.verdict, control.message)
    # Aftermath.
    wrote = [line for line in hit.stderr.splitlines() if line.startswith("WROTE") and " /tmp/" not in line]
    assert wrote == [], "writes outside /tmp must fail"
    if detect_mode().name == "bwrap":  # what only the sandbox takes away (see grader/core/isolation.py)
        with pytest.raises(TimeoutError):
            listener.accept()
        assert "CONNECTED" not in hit.stderr
        assert "READ /" not in hit.stderr and "READ fixtures" not in hit.stderr and "READ ../" not in hit.stderr
        assert [p for p in ESCAPES if p.exists()] == []  # the sandbox's /tmp is a throwaway tmpfs
    else:  # degraded: the network and what nobody may read or write stay open; the rest holds
        assert [p for p in ESCAPES if p.exists() and not str(p).startswith("/tmp/")] == []
    if os.getuid() == 0 and detect_mode().name == "bwrap":
        assert namespaces, "the sandbox's PID namespace was not found"
        deadline = time.monotonic() + 2
        while processes_in(namespaces) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_in(namespaces) == [], "a process of the sandbox outlived it"


def test_missing_function_fails_only_where_it_is_needed() -> None:
    from grader.core.build import build
    from grader.games.fcd18s2 import GAME

    result = build(HOSTILE_DIR / "missing_function", GAME)
    assert result.ok and result.missing == ["getCurrentColor"]

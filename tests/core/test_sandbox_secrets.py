"""The sandbox holds neither the answers nor the keys (issue 44): each attack of the issue, rebuilt here from its
text (the hostile fixtures of ``fixtures/submissions/variants.py``, or a folder a test makes), and what it must
get -- no canary of the grader's environment or of a host file in any output, the interpreter forgery refused,
the crafted store pair graded apart, the sandbox's writable places capped, no signal to another process, a
sleeping submission stopped by its budget, no grade without a sandbox unless asked."""

from __future__ import annotations

import csv
import json
import shutil
import struct
import threading
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.core import digest
from grader.core.build import build
from grader.core.cli import main
from grader.core.config import MarkingConfig
from grader.core.grade import grade, source_hash
from grader.core.isolation import TMPFS_BYTES, TMPFS_FILES, Mode, Scratch, detect_mode
from grader.core.policy import NO_POLICY, Policy
from grader.core.results import REFUSED, Verdict
from grader.games.fcd.scenarios import deal_to_deck
from grader.games.fcd18s2 import GAME
from grader.games.fcd18s2.session import Fcd18Session
from reference import parse_moves

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "fixtures" / "submissions" / "hostile"
MODEL = ROOT / "fixtures" / "submissions" / "model"
FAST = ["--random-games", "0", "--no-memory", "--no-tests", "--no-players"]
LIMITS = {"cpu": 1, "wall": 4.0, "memory_mb": 256, "output_kb": 1024}
DECK = deal_to_deck({"p0": "5GC*7", "p1": "5GC*7", "p2": "5GC*7", "p3": "5GC*7", "discard": "5GC", "draw": "9PQ*10"})
TRIGGER = parse_moves("draw end")  # every hostile variant acts on its first draw
CONTROL = parse_moves("5GC end 5GC end")
INTERPRETER = ["PyGILState_Ensure", "PyGILState_Release", "PyRun_SimpleString"]
sandboxed = pytest.mark.skipif(detect_mode().name != "bwrap", reason="needs the bubblewrap sandbox")


def _everything_written(out: Path) -> str:
    """Every file under ``out``, as text: what a student, a CI log or an LMS could be shown."""
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in sorted(out.rglob("*")) if p.is_file())


def _play(folder: Path, moves: list, policy: Policy = NO_POLICY) -> tuple[object, object, Fcd18Session]:
    session = Fcd18Session.open(folder, limits=LIMITS, compile_timeout=10, policy=policy)
    assert session.build.ok, session.build.output
    hit = session.run_game("hostile", "", (), DECK, moves)
    return hit, session.run_game("control", "", (), DECK, CONTROL), session


# ---- the grader's environment ------------------------------------------------------------------

@sandboxed
def test_no_process_in_the_sandbox_can_read_the_graders_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    canary = f"fcd-canary-{uuid.uuid4().hex}"
    monkeypatch.setenv("FCD_CANARY_TOKEN", canary)
    hit, control, session = _play(HOSTILE / "reads_environment", TRIGGER)
    with session:
        assert hit.verdict is Verdict.PASSED and control.verdict is Verdict.PASSED
    assert "ENVIRON /proc/1/environ: " in hit.stdout  # bubblewrap's own environment was read: it holds none of ours
    assert canary not in hit.stdout + hit.stderr
    assert "FCD_CANARY_TOKEN" not in hit.stdout


@sandboxed
def test_a_canary_variable_is_in_no_output_of_a_grade_or_a_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    canary = f"fcd-canary-{uuid.uuid4().hex}"
    monkeypatch.setenv("FCD_CANARY_TOKEN", canary)
    main([str(HOSTILE / "reads_environment"), "--out", str(tmp_path / "one"), *FAST])
    klass = tmp_path / "class"
    shutil.copytree(HOSTILE / "reads_environment", klass / "ann")
    shutil.copytree(MODEL, klass / "bob")
    main(["batch", str(klass), "--out", str(tmp_path / "batch"), "--jobs", "2", *FAST])
    said = capsys.readouterr()
    written = _everything_written(tmp_path / "one") + _everything_written(tmp_path / "batch")
    assert "reads_environment" in written and "ann" in written  # the reports are there
    assert canary not in written + said.out + said.err


# ---- the interpreter -----------------------------------------------------------------------------

def test_a_library_that_calls_the_python_runtime_is_refused_at_the_build_naming_it() -> None:
    result = build(HOSTILE / "calls_the_interpreter", GAME)
    try:
        assert not result.ok and result.library is None
        assert result.refused == INTERPRETER
        assert "PyGILState_Ensure, PyGILState_Release, PyRun_SimpleString" in result.problem
        assert "only the C standard library and the maths library" in result.problem
    finally:
        result.cleanup()
    model = build(MODEL, GAME)
    try:
        assert model.ok and model.refused == []
    finally:
        model.cleanup()


def test_a_refused_submission_earns_nothing_and_says_so(tmp_path: Path) -> None:
    assert main([str(HOSTILE / "calls_the_interpreter"), "--out", str(tmp_path), *FAST]) == 1
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["status"] == REFUSED and result["score"] == 0
    assert result["refused"] == INTERPRETER
    build_test = next(t for t in result["tests"] if t["id"] == "build/compiles")
    assert "Refused: your library calls PyGILState_Ensure" in build_test["message"]


@sandboxed
def test_with_the_refusal_widened_the_sandbox_still_holds_nothing_that_knows_the_answers() -> None:
    """The forgery of issue 44 needs the reference engine inside the sandbox: a library that gets the
    interpreter (a course allowed its symbols) finds none of the trusted side's modules to import."""
    hit, control, session = _play(HOSTILE / "calls_the_interpreter", TRIGGER,
                                  Policy(allowed_symbols=frozenset(INTERPRETER)))
    with session:
        assert control.verdict is Verdict.PASSED
    said = hit.stderr
    assert "FORGERY: cannot import reference:" in said, said
    assert "FORGERY: cannot import grader.games.fcd.reference_trace" in said
    assert "FORGERY: cannot import grader.core.cache" in said
    assert "FORGERY: imported" not in said


# ---- host files ----------------------------------------------------------------------------------

def test_a_link_out_of_the_submission_is_left_out_and_never_read(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    canary = f"fcd-canary-{uuid.uuid4().hex}"
    secret = tmp_path / "id_rsa"
    secret.write_text(f"-----BEGIN OPENSSH PRIVATE KEY----- {canary}\n")  # not C: the compiler would quote it
    folder = tmp_path / "class" / "ann"
    shutil.copytree(MODEL, folder)
    (folder / "Card.c").unlink()
    (folder / "Card.c").symlink_to(secret)
    (folder / "testGame.c").symlink_to(secret)
    (folder / "player.c").symlink_to(secret)
    (folder / "notes.h").symlink_to("Game.c")  # a link inside the submission is not followed either
    assert main([str(folder), "--out", str(tmp_path / "one"), "--random-games", "0", "--no-memory"]) == 0
    assert main(["batch", str(folder.parent), "--out", str(tmp_path / "batch"), "--random-games", "0",
                 "--no-memory"]) == 0
    said = capsys.readouterr()
    written = _everything_written(tmp_path / "one") + _everything_written(tmp_path / "batch")
    assert canary not in written + said.out + said.err
    for out in (tmp_path / "one", tmp_path / "batch" / "reports" / "ann"):
        notes = json.loads((out / "result.json").read_text())["build_notes"]
        assert any(n.startswith("Card.c is a link to a file outside your submission") for n in notes), notes
        assert any(n.startswith("testGame.c is a link") for n in notes)
        assert any(n.startswith("notes.h is a link to another file of your submission") for n in notes)
        assert any("built with the course's Card.c" in n for n in notes)  # graded without it: full marks


# ---- the store's key -----------------------------------------------------------------------------

def _decode(stream: bytes) -> list[tuple[str, bytes]]:
    """``digest.encode``'s stream read back: a stream that decodes is the encoding of exactly one input."""
    size = struct.Struct("<Q")
    parts, at = [], 0
    while len(stream) - at > size.size:
        (n,) = size.unpack_from(stream, at)
        name = stream[at + 8:at + 8 + n].decode("utf-8", "surrogateescape")
        at += 8 + n
        (m,) = size.unpack_from(stream, at)
        parts.append((name, stream[at + 8:at + 8 + m]))
        at += 8 + m
    assert size.unpack_from(stream, at) == (len(parts),) and at + 8 == len(stream)
    return parts


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(st.text(max_size=12), st.binary(max_size=24)), max_size=6),
       st.lists(st.tuples(st.text(max_size=12), st.binary(max_size=24)), max_size=6))
def test_different_file_sets_never_give_one_encoded_stream(a: list[tuple[str, bytes]],
                                                           b: list[tuple[str, bytes]]) -> None:
    assert _decode(digest.encode(a)) == a
    if a != b:
        assert digest.encode(a) != digest.encode(b)


def _crafted_pair(root: Path) -> tuple[Path, Path]:
    """Two folders whose names and bytes, fed one after another, make one stream: ``ann`` compiles, with an
    unused header; ``bob``'s Game.c ends with that header's name and text, and does not compile."""
    ann, bob = _model_copy(root / "ann"), _model_copy(root / "bob")
    header = b"/* an unused header */\n"
    (ann / "zz.h").write_bytes(header)
    (bob / "Game.c").write_bytes((ann / "Game.c").read_bytes() + b"zz.h" + header)
    return ann, bob


def _model_copy(dest: Path) -> Path:
    shutil.copytree(MODEL, dest)
    return dest


def _naive_stream(folder: Path) -> bytes:
    """The key the store used to make: each file's name then its bytes, headers last, no separators."""
    files = [*sorted(folder.glob("*.c")), *sorted(folder.glob("*.h"))]
    return b"".join(p.name.encode() + p.read_bytes() for p in files)


def test_the_crafted_pair_gets_two_keys_and_two_grades(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ann, bob = _crafted_pair(tmp_path / "class")
    assert _naive_stream(ann) == _naive_stream(bob)  # the collision the old key had
    assert source_hash(ann, GAME) != source_hash(bob, GAME)
    out = tmp_path / "out"
    assert main(["batch", str(tmp_path / "class"), "--out", str(out), "--jobs", "1", *FAST]) == 1
    capsys.readouterr()
    with (out / "class.csv").open(newline="") as f:
        rows = {r["submission"]: r for r in csv.DictReader(f)}
    assert rows["ann"]["status"] == "passed" and rows["bob"]["status"] == "build failed"
    assert float(rows["bob"]["total"]) == 0


# ---- the sandbox's writable places ---------------------------------------------------------------

def _said(text: str, word: str) -> int:
    line = next(line for line in text.splitlines() if line.startswith(word + " "))
    return next(int(token) for token in line.split() if token.isdigit())


@sandboxed
def test_dev_shm_is_capped_and_the_host_does_not_pay_for_it() -> None:
    def shmem_kb() -> int:
        line = next(li for li in Path("/proc/meminfo").read_text().splitlines() if li.startswith("Shmem:"))
        return int(line.split()[1])

    base, peak, done = shmem_kb(), [0], threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], shmem_kb())
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        hit, control, session = _play(HOSTILE / "fills_dev_shm", TRIGGER)
        with session:
            pass
    finally:
        done.set()
        watcher.join()
    assert hit.verdict is Verdict.PASSED and control.verdict is Verdict.PASSED
    assert 0 < _said(hit.stderr, "SHM") <= TMPFS_BYTES
    assert (peak[0] - base) * 1024 < 1 << 30  # the bound: under 1 GiB (the cap is 16 MiB)


@sandboxed
def test_the_sandbox_holds_at_most_so_many_files() -> None:
    if not Scratch.wanted():
        pytest.skip("the grader may not mount here (not root): bubblewrap's tmpfs caps bytes only")
    hit, control, session = _play(HOSTILE / "many_files", TRIGGER)
    with session:
        assert hit.verdict is Verdict.PASSED and control.verdict is Verdict.PASSED
    assert 0 < _said(hit.stderr, "FILES") <= TMPFS_FILES


@sandboxed
def test_the_scratch_mounts_live_in_the_sandbox_alone() -> None:
    """The capped tmpfs mounts are made in the sandbox's own mount namespace: the host never sees one, and a
    grader killed mid-grade leaves none behind."""
    session = Fcd18Session.open(MODEL, limits=LIMITS, compile_timeout=10)
    with session:
        assert session.run_game("control", "", (), DECK, CONTROL).verdict is Verdict.PASSED
        assert "fcd-scratch" not in Path("/proc/self/mounts").read_text()
        proc = session.client.proc if session.client else None
        if proc is not None and Scratch.wanted():
            mounts = Path(f"/proc/{proc.pid}/mounts").read_text()  # bubblewrap's namespace, as it started
            assert mounts.count("fcd-scratch") == 2, mounts  # /tmp and /dev/shm, each its own tmpfs
    assert "fcd-scratch" not in Path("/proc/self/mounts").read_text()


# ---- file names, signals -------------------------------------------------------------------------

def test_a_file_named_like_an_option_reaches_the_compiler_as_a_path() -> None:
    result = build(HOSTILE / "option_named_file", GAME)
    try:
        assert result.ok, result.output
        assert "./--help.c" in result.command and "--help.c" not in result.command
    finally:
        result.cleanup()


@sandboxed
def test_a_game_can_signal_neither_the_fork_server_nor_the_next_games_spare() -> None:
    hit, control, session = _play(HOSTILE / "signals_the_spare", TRIGGER)
    with session:
        assert session.client is not None and session.client.restarts == 0  # the fork server never went
        assert hit.verdict is Verdict.PASSED and control.verdict is Verdict.PASSED
    assert _said(hit.stderr, "SIGNALS") == 2 * 62  # pids 1-63 but its own, each SIGSTOP and SIGKILL: all refused


# ---- the budget ------------------------------------------------------------------------------------

def test_a_submission_that_sleeps_in_every_game_is_stopped_by_its_budget(tmp_path: Path) -> None:
    marking = tmp_path / "marking.toml"
    marking.write_text("[limits]\nbudget_wall_seconds = 15\n")
    config = MarkingConfig.load(marking, game=GAME)
    result = grade(HOSTILE / "sleeps_in_new_game", config, game=GAME, random_games=2, memory=False,
                   own_tests=False, players=False)
    scenarios = GAME.load_scenarios()
    ids = {t.id for t in result.tests}
    assert {s.id for s in scenarios} <= ids  # a complete report: every test has its verdict
    over = [t for t in result.tests if "used up the time the grader gives one submission" in t.message]
    assert len(over) >= len(scenarios) - 3  # 9 s a game, 15 s in all: two games at most were played
    assert all(t.verdict is Verdict.NOT_RUN and t.earns_marks == 0 for t in over)
    assert result.score < 10  # the build's marks and the one or two games it finished


# ---- no grade without a sandbox ------------------------------------------------------------------

def test_a_single_grade_refuses_to_run_without_a_sandbox_unless_asked(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from grader.core import isolation  # noqa: PLC0415

    monkeypatch.delenv("FCD_SANDBOX", raising=False)
    monkeypatch.setattr(isolation, "detect_mode", lambda: Mode("degraded", "bubblewrap could not start (a test)"))
    assert main([str(MODEL), "--out", str(tmp_path / "out"), *FAST]) == 2
    err = capsys.readouterr().err
    assert "the sandbox cannot start here, so nothing was graded: bubblewrap could not start (a test)" in err
    assert "--unsandboxed" in err and not (tmp_path / "out").exists()
    assert main(["sandbox"]) == 1
    assert "degraded: bubblewrap could not start (a test)" in capsys.readouterr().out

"""``fcd-grade batch --scheduler`` on workers started the way Dask's documentation shows (``dask worker ADDRESS``,
no ``--resources grading=1``): one that meets the requirements is given its grading slot and grades the class; one
that does not is named as set aside, with the command that starts a worker, and the batch returns instead of waiting
in silence.  A real scheduler, real worker processes, real submissions."""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from distributed import Client, LocalCluster

from grader.core.batch import executors
from grader.core.batch.dask_worker import GradingRequirements
from grader.core.batch.store import grader_version
from grader.core.batch.task import GradeJob, GradeOutput
from grader.core.cli import main
from grader.games import DEFAULT_GAME

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
FAST = ["--random-games", "0", "--no-memory", "--no-tests"]
WAIT = 3.0  # the batch's "no worker for 30 s" wait, shortened


def _start(scheduler: str) -> str:
    """What the batch tells staff to do: the command, and where to run it."""
    return ("To start one, on a machine with gcc, bubblewrap and this grader installed, run: "
            f"fcd-grade worker {scheduler}")


@pytest.fixture
def scheduler() -> Iterator[str]:
    """A scheduler with no worker of its own."""
    with LocalCluster(n_workers=0, dashboard_address=None, processes=True) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def classroom(tmp_path: Path) -> Path:
    root = tmp_path / "class"
    root.mkdir()
    shutil.copytree(SUBMISSIONS / "model", root / "alice")
    shutil.copytree(SUBMISSIONS / "mutants" / "skip_ignored", root / "bob")
    return root


@contextmanager
def plain_worker(address: str, *, wait_for_it: bool = True, **env: str) -> Iterator[subprocess.Popen[bytes]]:
    """``dask worker ADDRESS --nthreads 1``, nothing else; stopped (its nanny and worker) whatever happens."""
    proc = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1"],
                            env={**os.environ, **env}, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        if wait_for_it:
            with Client(address, timeout="30s") as watcher:
                watcher.wait_for_workers(1, timeout=30)
        yield proc
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _csv(out: Path) -> dict[str, str]:
    with (out / "class.csv").open() as f:
        return {row["submission"]: row["status"] for row in csv.DictReader(f)}


def test_a_plain_dask_worker_that_can_grade_is_given_its_slot_and_grades(
        scheduler: str, classroom: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "NO_WORKER_WAIT", WAIT)
    out = tmp_path / "out"
    with plain_worker(scheduler):
        code = main(["batch", str(classroom), "--out", str(out), "--scheduler", scheduler, *FAST])
    err = capsys.readouterr().err
    assert code == 1, err  # bob loses marks; nobody's grading failed
    assert _csv(out) == {"alice": "passed", "bob": "failed"}
    assert "set aside" not in err and "no worker" not in err


def test_a_task_waiting_before_a_plain_worker_joins_is_given_to_it(scheduler: str) -> None:
    """The slot granted after the worker joined reaches a task that was already waiting for one."""
    with Client(scheduler) as client:
        client.register_plugin(GradingRequirements(grader_version()))
        waiting = client.submit(lambda: "graded", resources={"grading": 1}, pure=False)
        with plain_worker(scheduler, wait_for_it=False):
            assert waiting.result(timeout=60) == "graded"


def test_a_plain_worker_that_cannot_grade_is_named_with_the_command_to_start_one(
        scheduler: str, classroom: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "NO_WORKER_WAIT", WAIT)
    out = tmp_path / "out"
    with plain_worker(scheduler, FCD_SANDBOX="none"):  # a worker whose sandbox is degraded must not grade
        code = main(["batch", str(classroom), "--out", str(out), "--scheduler", scheduler, *FAST])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "set aside: no sandbox: FCD_SANDBOX=none was set" in err
    assert _start(scheduler) in err
    assert "no worker of the cluster may grade" in err


def test_a_batch_with_no_worker_at_all_says_so_and_returns(
        scheduler: str, classroom: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "NO_WORKER_WAIT", WAIT)
    code = main(["batch", str(classroom), "--out", str(tmp_path / "out"), "--scheduler", scheduler, *FAST])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"no worker can grade yet: no worker is connected to {scheduler}" in err
    assert _start(scheduler) in err and "then giving up" in err


def _model_job() -> GradeJob:
    files = {p.relative_to(SUBMISSIONS / "model").as_posix(): p.read_bytes()
             for p in sorted((SUBMISSIONS / "model").rglob("*")) if p.is_file()}
    return GradeJob("alice", files, DEFAULT_GAME, None, tuple(FAST), 300.0)


def test_a_batch_whose_workers_all_go_says_so_with_the_command_and_grades_on_the_next(scheduler: str) -> None:
    """Mid-batch: the only worker has gone.  After the wait the batch says so, with the command; a plain worker
    started then is given its slot and grades what was waiting."""
    with plain_worker(scheduler):
        cluster = executors.DaskCluster(1, scheduler, grader_version(), wait=WAIT, note=lambda _: None)
    assert cluster.usable == 1
    notes: list[str] = []
    with ExitStack() as later:
        def note(text: str) -> None:  # the batch says no worker can grade: start one, as it says
            notes.append(text)
            if "run: fcd-grade worker" in text:
                later.enter_context(plain_worker(scheduler, wait_for_it=False))

        cluster.note = note
        try:
            outcomes = list(cluster.run([_model_job()]))
        finally:
            cluster.close()
    assert f"no worker can take a grading task, for {WAIT:g} s now, with 1 submission(s) waiting" in notes[0]
    assert f"no worker is connected to {scheduler}. {_start(scheduler)}" in notes[0]
    assert notes[1:] in ([], ["a worker that can grade is back: grading goes on"]), notes  # unless it graded first
    [(job, outcome)] = outcomes
    assert isinstance(outcome, GradeOutput) and outcome.name == "alice", outcome

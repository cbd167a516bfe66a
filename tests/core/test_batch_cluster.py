"""``fcd-grade batch`` on Dask: a worker killed mid-batch loses nothing and doubles nothing, a client
killed mid-run is resumed by the same command, and a machine that cannot grade is set aside.

Every test grades real bundled submissions (the model, mutants, hostile ones) and compares with
the same class graded by one local process at a time: the marks must be identical.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from distributed import Client, LocalCluster

from grader.core.cli import main

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
FAST = ["--random-games", "1", "--no-memory", "--no-tests"]
CLASS = ("model", "mutants/skip_ignored", "mutants/winner_missed", "mutants/zero_not_wild", "hostile/null_deref",
         "hostile/exit_zero", "hostile/abort")


def _class(root: Path) -> Path:
    root.mkdir(parents=True)
    for name in CLASS:
        shutil.copytree(SUBMISSIONS / name, root / name.replace("/", "-"))
    return root


def _marks(out: Path) -> dict[str, tuple[str, str, str]]:
    """Each submission's (total, max, status) as the class CSV says, and every test's verdict."""
    with (out / "class.csv").open() as f:
        rows = {r["submission"]: (r["total"], r["max"], r["status"]) for r in csv.DictReader(f)}
    return rows


def _verdicts(out: Path, name: str) -> list[tuple[str, str]]:
    data = json.loads((out / "reports" / name / "result.json").read_text())
    return [(t["id"], t["verdict"]) for t in data["tests"]]


def _journal(out: Path) -> list[dict]:
    path = out / "store" / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture(scope="module")
def one_at_a_time(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The class graded by one local grading process at a time: what every other run must equal."""
    base = tmp_path_factory.mktemp("single")
    root, out = _class(base / "class"), base / "out"
    assert main(["batch", str(root), "--out", str(out), "--jobs", "1", *FAST]) == 1
    return root, out


def _same_marks(out: Path, single: Path) -> None:
    assert _marks(out) == _marks(single)
    for name in _marks(single):
        assert _verdicts(out, name) == _verdicts(single, name), name


def test_a_worker_killed_mid_batch_loses_nothing_and_grades_nothing_twice(
        one_at_a_time: tuple[Path, Path], tmp_path: Path) -> None:
    root, single = one_at_a_time
    out = tmp_path / "out"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, resources={"grading": 1},
                      dashboard_address=None) as cluster, Client(cluster) as watcher:
        codes: list[int] = []
        batch = threading.Thread(target=lambda: codes.append(main(
            ["batch", str(root), "--out", str(out), "--scheduler", cluster.scheduler_address, *FAST])))
        batch.start()
        killed = None
        deadline = time.monotonic() + 120
        while killed is None and time.monotonic() < deadline and batch.is_alive():
            busy = [w for w, tasks in watcher.processing().items() if tasks]
            if busy and _journal(out):  # one result is in, and a worker is grading another: kill it now
                pid = watcher.run(os.getpid, workers=[busy[0]])[busy[0]]
                os.kill(pid, signal.SIGKILL)
                killed = pid
            time.sleep(0.05)
        batch.join(timeout=600)
    assert killed is not None, "the batch ended before a worker could be killed mid-task"
    assert codes == [1]
    journal = _journal(out)
    graded = sorted(line["submission"] for line in journal)
    assert graded == sorted(_marks(single)), "each submission graded exactly once, none lost"
    _same_marks(out, single)


def _batch_process(root: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "grader.core.cli", "batch", str(root), "--out", str(out),
                             "--jobs", "2", *FAST, *extra], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def test_a_killed_client_is_resumed_by_the_same_command(one_at_a_time: tuple[Path, Path], tmp_path: Path) -> None:
    """(With local processes, tests/core/test_cli.py kills and resumes a batch the same way.)"""
    root, single = one_at_a_time
    out = tmp_path / "out"
    where = ("--local-cluster",)
    first = _batch_process(root, out, *where)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(_journal(out)) < 2:
        time.sleep(0.05)
    os.killpg(first.pid, signal.SIGKILL)  # the client and everything it started
    first.communicate()
    done_before = {line["submission"] for line in _journal(out)}
    assert 2 <= len(done_before) < len(CLASS)
    stored = {p.name: p.stat().st_mtime_ns for p in (out / "store").glob("*.json") if p.name != "index.json"}
    second = _batch_process(root, out, *where)
    stdout, stderr = second.communicate(timeout=600)
    assert second.returncode == 1, stderr
    assert "on a Dask LocalCluster of 2 workers; Dask dashboard: http://" in stderr
    assert f"{len(CLASS) - len(done_before)} graded (" in stdout and f"{len(done_before)} from the store" in stdout
    graded = [line["submission"] for line in _journal(out)]
    assert sorted(graded) == sorted(_marks(single)), "nothing graded twice, nothing lost"
    assert all((out / "store" / name).stat().st_mtime_ns == t for name, t in stored.items()), "stored stay as they were"
    _same_marks(out, single)


def test_a_machine_without_gcc_is_set_aside_and_the_others_grade(one_at_a_time: tuple[Path, Path],
                                                                 tmp_path: Path) -> None:
    single = one_at_a_time[1]
    root, out = tmp_path / "class", tmp_path / "out"
    root.mkdir()
    for name in ("model", "mutants-skip_ignored", "hostile-abort"):  # a smaller class: one worker grades it
        shutil.copytree(one_at_a_time[0] / name, root / name)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, resources={"grading": 1},
                      dashboard_address=None) as cluster:
        # A second machine: a worker whose PATH has no gcc and no bubblewrap, started without the check.
        bad = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
                                "--nthreads", "1", "--resources", "grading=1", "--no-nanny"],
                               env={**os.environ, "PATH": str(Path(sys.executable).parent / "no-such-dir")},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with Client(cluster) as watcher:
                watcher.wait_for_workers(2, timeout=60)
                bad_pid = bad.pid
            proc = subprocess.run([sys.executable, "-m", "grader.core.cli", "batch", str(root), "--out", str(out),
                                   "--scheduler", cluster.scheduler_address, *FAST], cwd=ROOT, capture_output=True,
                                  text=True, timeout=600, check=False)
        finally:
            bad.kill()
            bad.wait()
    assert proc.returncode == 1, proc.stderr
    assert "set aside: gcc is not installed (or not on PATH); no sandbox: bubblewrap (bwrap) is not installed" \
        in proc.stderr
    assert all(not line["worker"].endswith(f":{bad_pid}") for line in _journal(out))
    assert _marks(out) == {name: marks for name, marks in _marks(single).items() if (root / name).is_dir()}


def test_fcd_grade_worker_refuses_to_start_without_gcc_or_bubblewrap() -> None:
    proc = subprocess.run([sys.executable, "-m", "grader.core.cli", "worker", "tcp://127.0.0.1:9"],
                          env={**os.environ, "PATH": "/no-such-dir"}, capture_output=True, text=True, timeout=60,
                          check=False, cwd=ROOT)
    assert proc.returncode == 2
    assert "this machine cannot grade: gcc is not installed" in proc.stderr
    assert "bubblewrap (bwrap) is not installed" in proc.stderr and "apt-get install gcc bubblewrap" in proc.stderr

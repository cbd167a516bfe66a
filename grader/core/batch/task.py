"""One grading task: what a worker (a local thread or a Dask worker anywhere) does with one submission.

The job carries everything the grading needs as values (the submission's files,
the configuration's text, the options), so a worker needs the grader installed
and nothing shared with the client.  The worker grades in a fresh ``fcd-grade``
process (so a bug of ours in one submission cannot take the worker down), under
an overall timeout, and sends back the result and the report files it wrote.

A task never raises for anything a submission does: a crash, a hang or a build
failure is a result.  So Dask's ``retries`` only ever apply to what is not a
result at all -- a worker lost mid-task -- and nothing is graded twice on
purpose.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from grader.core.batch.requirements import worker_problems
from grader.core.batch.store import grader_version
from grader.core.batch.submissions import write_files
from grader.core.interpreter import python_module
from grader.core.results import SubmissionJSON, SubmissionResult, TestResult, Verdict

PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class GradeJob:
    name: str  # the student's folder or archive name: the result's and the reports' name
    files: dict[str, bytes]  # the submission as handed in (``submissions.shipped``)
    game: str
    config_text: str | None  # the course's marking file, or None for the game's default
    options: tuple[str, ...]  # further fcd-grade options (--random-games N, --no-memory, --no-tests, --no-players)
    timeout: float  # seconds the whole grading may take
    entry: str = ""  # the file of ``files`` fcd-grade is given (an archive, as handed in); '': their folder
    notes: tuple[str, ...] = ()  # what the client left out when it read the hand-in (links), said in the report


@dataclass
class GradeOutput:
    name: str
    result: SubmissionJSON  # SubmissionResult.to_json(), as the grading process wrote it (read back: checked)
    reports: dict[str, bytes] = field(default_factory=dict)  # the report folder's files, by relative path
    grader: str = ""  # the worker's grader_version()
    worker: str = ""  # where it was graded (host and process)


FAILED_GRADING = "grading/finished"  # the one test of a grading that could not finish


def failed_result(name: str, digest: str, why: str) -> SubmissionResult:
    """The result of a grading that could not finish: one ERROR test saying why, so its status is
    "grader error" (exit 2, never stored: the next run grades it again), never a student's FAIL."""
    test = TestResult(FAILED_GRADING, "grading", (), 1.0, Verdict.ERROR, message=why, kind="build")
    return SubmissionResult(name, digest, True, "", [], [], [test], profile="", sandbox="")


def finished(result: SubmissionResult) -> bool:
    """Did the grading finish (every test has its verdict, a grader error in some of them or not), as opposed
    to a grading that could not finish at all (``failed_result``)?"""
    return not (result.tests and all(t.id == FAILED_GRADING for t in result.tests))


def _die_with_parent() -> None:
    """In the child: killed when the worker thread that started it goes (a killed worker leaves no
    grading behind it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _collect(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def grade_submission(job: GradeJob) -> GradeOutput:
    """Grade one submission in a fresh ``fcd-grade`` process; the result and its reports, as values.
    Whatever goes wrong here is the grader's or the machine's: an ERROR result, never an exception."""
    here = f"{socket.gethostname()}:{os.getpid()}"
    problems = worker_problems()
    if problems:
        why = f"this worker ({here}) cannot grade: " + "; ".join(problems)
        return GradeOutput(job.name, failed_result(job.name, "none", why).to_json(), {}, grader_version(), here)
    try:
        return _grade(job, here)
    except Exception as err:  # noqa: BLE001 - a fault of ours or of this machine, reported as such
        why = f"the grader failed on worker {here}: {type(err).__name__}: {err}"
        return GradeOutput(job.name, failed_result(job.name, "none", why).to_json(), {}, grader_version(), here)


def _grade(job: GradeJob, here: str) -> GradeOutput:
    with tempfile.TemporaryDirectory(prefix="fcd-batch-") as tmp:
        base = Path(tmp)
        folder, report_dir = base / "submission" / job.name, base / "report"
        folder.mkdir(parents=True)
        write_files(job.files, folder)
        given = folder / job.entry if job.entry else folder  # read by fcd-grade as any submission is
        argv = python_module("grader.core.cli", str(given), "--out", str(report_dir), "--quiet", "--game", job.game,
                             *job.options, *(x for note in job.notes for x in ("--note", note)))
        if job.config_text is not None:
            (base / "marking.toml").write_text(job.config_text)
            argv += ["--config", str(base / "marking.toml")]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                text=True, start_new_session=True, preexec_fn=_die_with_parent)
        try:
            _, stderr = proc.communicate(timeout=job.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            why = f"grading took longer than {job.timeout:.0f} s and was stopped"
            return GradeOutput(job.name, failed_result(job.name, "none", why).to_json(), {}, grader_version(), here)
        result_file = report_dir / "result.json"
        # 0 passed, 1 failed, 2 a grader error in some test: each a whole result, with its reports (a grader
        # error in one test keeps the others' results; the batch stores it flagged for regrading).  A 2 with
        # no result, or any other code, is a grading that did not finish.
        if proc.returncode in (0, 1, 2) and result_file.is_file():
            data = json.loads(result_file.read_text())
            if str(data.get("sandbox", "")).startswith("degraded"):  # never graded unsandboxed without a word
                why = f"graded without the sandbox on this worker ({here}): {data['sandbox']}"
                return GradeOutput(job.name, failed_result(job.name, "none", why).to_json(), {}, grader_version(),
                                   here)
            if proc.returncode != 2 or data.get("status") == "grader error":
                return GradeOutput(job.name, data, _collect(report_dir), grader_version(), here)
        why = f"grading ended with code {proc.returncode}: {stderr.strip()[-2000:]}"
        return GradeOutput(job.name, failed_result(job.name, "none", why).to_json(), {}, grader_version(), here)

"""The Dask side of a batch: starting a machine's workers, and the plugin a batch client registers.

``fcd-grade worker tcp://HOST:8786`` (``start_workers``) checks the machine
first: without gcc or a working bubblewrap it refuses to start, saying what is
wrong and the fix; otherwise it becomes ``dask worker`` with one thread and
one ``grading`` slot per core, so one grading task takes one core.  A worker
started any other way is checked anyway: the batch client registers
``GradingRequirements``, which runs on every worker now and later.  A worker
that must not grade (or runs another grader version) loses its ``grading``
slots, so no task lands there, and the client prints which workers were set
aside and why.  A worker that may grade but was started without slots (plain
``dask worker tcp://HOST:8786``, as Dask's documentation shows) is given one
per thread: otherwise no task would ever reach it, and the batch would wait.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from typing import TYPE_CHECKING, TypedDict

from distributed import WorkerPlugin
from distributed.core import Status

from grader.core.batch.requirements import WorkerRefused, check_worker, worker_problems
from grader.core.batch.store import grader_version
from grader.core.interpreter import python_module

if TYPE_CHECKING:
    from distributed import Worker

RESOURCE = "grading"  # one per core: every grading task asks for one
logger = logging.getLogger("fcd.batch")


def start_command(scheduler: str) -> str:
    """What to run, and where, to give a batch on ``scheduler`` a worker."""
    return f"on a machine with gcc, bubblewrap and this grader installed, run: fcd-grade worker {scheduler}"


def start_workers(scheduler: str, nworkers: int | None) -> int:
    """``fcd-grade worker``: check this machine, then become its Dask workers (one per core)."""
    try:
        check_worker()
    except WorkerRefused as err:
        print(f"fcd-grade worker: {err}", file=sys.stderr)
        return 2
    argv = python_module("distributed.cli.dask_worker", scheduler, "--nworkers", str(nworkers or os.cpu_count() or 1),
                         "--nthreads", "1", "--resources", f"{RESOURCE}=1")
    os.execv(sys.executable, argv)
    return 0  # not reached


def why_not_grading(expected_version: str) -> list[str]:
    """Why this worker must not grade for a client running grader ``expected_version`` ([] when it may)."""
    problems = list(worker_problems())
    if grader_version() != expected_version:
        problems.append(f"it runs grader version {grader_version()}, the batch runs {expected_version} "
                        "(install the same grader on every machine)")
    return problems


def _ask_for_work(worker: Worker) -> None:
    """Make the scheduler look again at the tasks no worker could take: it does so when a worker joins or
    resumes, not when a worker's resources change, so a task submitted before this worker had its slot
    would wait for ever.  Pausing and resuming (the signal a worker gives after memory pressure) is that."""
    if worker.status == Status.running:
        worker.status = Status.paused
        worker.status = Status.running


class GradingRequirements(WorkerPlugin):
    """Give every worker that may grade its ``grading`` slots, however it was started, and take them from a
    worker that cannot grade: on every worker now and later."""

    name = "fcd-grading-requirements"

    def __init__(self, expected_version: str) -> None:
        self.expected_version = expected_version

    async def setup(self, worker: Worker) -> None:
        # In a thread: the check starts gcc and bubblewrap, and the worker's event loop keeps its heartbeats.
        problems = await asyncio.to_thread(why_not_grading, self.expected_version)
        slots = worker.state.total_resources.get(RESOURCE)
        if problems:
            logger.error("this worker will not grade: %s", "; ".join(problems))
            if slots != 0:
                await worker.set_resources(**{RESOURCE: 0})
        elif not slots:  # started without --resources grading=N (plain `dask worker`), or set aside before
            threads = max(1, int(worker.state.nthreads))
            logger.info("this worker may grade: %d %s slot(s), one per thread", threads, RESOURCE)
            await worker.set_resources(**{RESOURCE: threads})
            _ask_for_work(worker)


class WorkerReport(TypedDict):
    where: str  # host:pid
    problems: list[str]  # why it may not grade ([] when it may)


def worker_report(expected_version: str) -> WorkerReport:
    """Run on every worker by the client: where it is and why it may not grade."""
    return {"where": f"{socket.gethostname()}:{os.getpid()}", "problems": why_not_grading(expected_version)}

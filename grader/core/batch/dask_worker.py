"""The Dask side of a batch: starting a machine's workers, and the plugin a batch client registers.

``fcd-grade worker tcp://HOST:8786`` (``start_workers``) checks the machine
first: without gcc or a working bubblewrap it refuses to start, saying what is
missing; otherwise it becomes ``dask worker`` with one thread and one
``grading`` slot per core, so one grading task takes one core.  A worker
started any other way is checked anyway: the batch client registers
``GradingRequirements``, which takes the ``grading`` slot away from a worker
that must not grade (or runs another grader version), so no task lands there,
and the client prints which workers were set aside and why.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from typing import Any

from distributed import WorkerPlugin

from grader.core.batch.requirements import INSTALL_HINT, WorkerRefused, check_worker, worker_problems
from grader.core.batch.store import grader_version

RESOURCE = "grading"  # one per core: every grading task asks for one
logger = logging.getLogger("fcd.batch")


def start_workers(scheduler: str, nworkers: int | None) -> int:
    """``fcd-grade worker``: check this machine, then become its Dask workers (one per core)."""
    try:
        check_worker()
    except WorkerRefused as err:
        print(f"fcd-grade worker: {err}", file=sys.stderr)
        return 2
    argv = [sys.executable, "-m", "distributed.cli.dask_worker", scheduler, "--nworkers",
            str(nworkers or os.cpu_count() or 1), "--nthreads", "1", "--resources", f"{RESOURCE}=1"]
    os.execv(sys.executable, argv)
    return 0  # not reached


def why_not_grading(expected_version: str) -> list[str]:
    """Why this worker must not grade for a client running grader ``expected_version`` ([] when it may)."""
    problems = list(worker_problems())
    if grader_version() != expected_version:
        problems.append(f"it runs grader version {grader_version()}, the batch runs {expected_version} "
                        "(install the same grader on every machine)")
    return problems


class GradingRequirements(WorkerPlugin):
    """Set aside (no ``grading`` slot) a worker that cannot grade, on every worker now and later."""

    name = "fcd-grading-requirements"

    def __init__(self, expected_version: str) -> None:
        self.expected_version = expected_version

    async def setup(self, worker: Any) -> None:
        problems = why_not_grading(self.expected_version)
        if problems:
            logger.error("this worker will not grade: %s. Install: %s", "; ".join(problems), INSTALL_HINT)
            await worker.set_resources(**{RESOURCE: 0})


def worker_report(expected_version: str) -> dict[str, Any]:
    """Run on every worker by the client: where it is and why it may not grade."""
    return {"where": f"{socket.gethostname()}:{os.getpid()}", "problems": why_not_grading(expected_version)}

"""Where grading tasks run: threads of this process starting local ``fcd-grade`` processes, or Dask.

Both take ``GradeJob``s and hand back, as each finishes, the job with its
``GradeOutput`` or the exception that stopped it (a lost worker, after Dask's
retries): the batch (``run``) does the rest the same way for both.

- ``LocalProcesses`` (the default): ``--jobs`` threads, each waiting on one
  grading process.  Nothing to start, nothing to configure.
- ``DaskCluster``: a ``LocalCluster`` on this machine (``--local-cluster``), or
  an existing scheduler (``--scheduler tcp://HOST:8786``).  One task per
  submission asks for one ``grading`` slot; a task whose worker dies is run
  again elsewhere (``retries`` counts only such losses: a task never raises
  for what a submission does).
"""

from __future__ import annotations

import logging
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Iterable, Iterator

from grader.core.batch.task import GradeJob, GradeOutput, grade_submission

LOST_WORKER_RETRIES = 2  # a task whose worker died is run again up to this many times


class LocalProcesses:
    name = "local processes"
    dashboard: str | None = None

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.set_aside: dict[str, list[str]] = {}  # no remote workers: requirements are checked per task

    def run(self, jobs: Iterable[GradeJob]) -> Iterator[tuple[GradeJob, GradeOutput | BaseException]]:
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            pending: dict[Future[GradeOutput], GradeJob] = {pool.submit(grade_submission, j): j for j in jobs}
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        job = pending.pop(fut)
                        err = fut.exception()
                        yield job, (err if err is not None else fut.result())
            finally:
                for fut in pending:
                    fut.cancel()

    def close(self) -> None:
        pass


class DaskCluster:
    def __init__(self, jobs: int, scheduler: str | None, expected_version: str) -> None:
        from distributed import Client, LocalCluster  # noqa: PLC0415 - only a Dask batch needs Dask

        from grader.core.batch.dask_worker import GradingRequirements, worker_report  # noqa: PLC0415

        self.cluster = None
        if scheduler is None:
            self.name = f"a Dask LocalCluster of {jobs} workers"
            self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                        resources={"grading": 1}, dashboard_address=":0",
                                        silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
        else:
            self.name = f"the Dask scheduler at {scheduler}"
            self.client = Client(scheduler, timeout="30s")
        services = self.client.scheduler_info().get("services", {})
        self.dashboard = self.client.dashboard_link if "dashboard" in services else None  # needs bokeh
        self.client.register_plugin(GradingRequirements(expected_version))
        reports = self.client.run(worker_report, expected_version)
        self.set_aside = {addr: r["problems"] for addr, r in reports.items() if r["problems"]}
        self.usable = len(reports) - len(self.set_aside)

    def run(self, jobs: Iterable[GradeJob]) -> Iterator[tuple[GradeJob, GradeOutput | BaseException]]:
        from distributed import as_completed  # noqa: PLC0415

        futures: dict[Any, GradeJob] = {}
        for job in jobs:
            fut = self.client.submit(grade_submission, job, resources={"grading": 1}, retries=LOST_WORKER_RETRIES,
                                     pure=False, key=f"grade-{len(futures)}-{job.name[:60]}")
            futures[fut] = job
        try:
            for fut in as_completed(list(futures)):
                job = futures.pop(fut)
                try:
                    yield job, fut.result()
                except Exception as err:  # noqa: BLE001 - a lost worker, past its retries: not a result
                    yield job, err
                fut.release()
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

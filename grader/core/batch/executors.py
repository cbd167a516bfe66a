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
  for what a submission does).  It never waits in silence: when no worker
  can take a task for ``NO_WORKER_WAIT`` seconds, it says why and how to
  start one.
"""

from __future__ import annotations

import logging
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from grader.core.batch.task import GradeJob, GradeOutput, grade_submission

if TYPE_CHECKING:
    from distributed import Future as DaskFuture

LOST_WORKER_RETRIES = 2  # a task whose worker died is run again up to this many times
NO_WORKER_WAIT = 30.0  # seconds no worker can take a task before the batch says so (and the command to start one)
NO_WORKER_BACKSTOP = 30 * 60.0  # seconds no worker can take a task before the batch gives up on what is left


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


class SchedulerUnreachable(OSError):
    """The batch's --scheduler does not answer (the message says so, and what to do)."""


class NoWorker(RuntimeError):
    """No worker could take this task for the whole backstop: it is not graded (the same command grades it)."""


def _say(text: str) -> None:
    print(f"fcd-grade batch: {text}", file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g} s"


class DaskCluster:
    """A batch on Dask that never waits in silence: when no worker can take a task for ``wait`` seconds (none
    connected, or all set aside), it says so with the command that starts one, and keeps waiting; past
    ``backstop`` seconds it gives up on what is left (a lost task: exit 2, the same command grades it)."""

    def __init__(self, jobs: int, scheduler: str | None, expected_version: str, *, wait: float | None = None,
                 backstop: float | None = None, note: Callable[[str], None] | None = None) -> None:
        from distributed import Client, LocalCluster  # noqa: PLC0415 - only a Dask batch needs Dask

        from grader.core.batch.dask_worker import RESOURCE, GradingRequirements, start_command  # noqa: PLC0415

        self.expected_version = expected_version
        self.wait = NO_WORKER_WAIT if wait is None else wait
        self.backstop = NO_WORKER_BACKSTOP if backstop is None else backstop
        self.note = note or _say
        self.cluster = None
        if scheduler is None:
            self.name = f"a Dask LocalCluster of {jobs} workers"
            self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                        resources={RESOURCE: 1}, dashboard_address=":0",
                                        silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
            self.address = self.cluster.scheduler_address
        else:
            self.name = f"the Dask scheduler at {scheduler}"
            try:
                self.client = Client(scheduler, timeout="30s")
            except OSError as err:
                raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {scheduler} ({err}): start it there "
                                           "with `dask scheduler`, or check the address") from err
            self.address = scheduler
        services = self.client.scheduler_info().get("services", {})
        self.dashboard = self.client.dashboard_link if "dashboard" in services else None  # needs bokeh
        self.resource, self.start = RESOURCE, start_command(self.address)
        self.client.register_plugin(GradingRequirements(expected_version))  # grants or takes each worker's slots
        self._survey()
        if self.usable == 0 and self.cluster is None:  # workers may still be starting: wait a while, saying so
            self._await_a_worker()
        self._checked = time.monotonic()
        self._none_since: float | None = None
        self._said = False

    def _slots(self) -> dict[str, float]:
        """Each connected worker's grading slots (0: set aside)."""
        workers = self.client.scheduler_info(n_workers=-1).get("workers", {})
        return {addr: float(info.get("resources", {}).get(self.resource, 0)) for addr, info in workers.items()}

    def _reports(self) -> dict[str, list[str]]:
        """Why each worker may not grade ([] when it may)."""
        from grader.core.batch.dask_worker import worker_report  # noqa: PLC0415

        reports = self.client.run(worker_report, self.expected_version, on_error="return")
        return {addr: r["problems"] for addr, r in reports.items() if isinstance(r, dict)}

    def _survey(self) -> None:
        """Which workers are set aside, and why; how many may grade."""
        problems = self._reports()
        self.set_aside = {addr: why for addr, why in problems.items() if why}
        self.usable = sum(1 for addr, n in self._slots().items() if n > 0 and addr not in self.set_aside)

    def _why_none(self) -> str:
        """Why no worker can take a task: none connected, or each one's reason."""
        try:
            slots, problems = self._slots(), self._reports()
        except Exception as err:  # noqa: BLE001 - said as it is: the message must still be given
            return f"the scheduler at {self.address} does not answer ({type(err).__name__}: {err})"
        if not slots:
            return f"no worker is connected to {self.address}"
        each = "; ".join(f"{addr} set aside: {' / '.join(problems[addr])}" if problems.get(addr)
                         else f"{addr} has no grading slot" for addr in sorted(slots))
        return f"{len(slots)} worker(s) connected, none may grade ({each})"

    def _await_a_worker(self) -> None:
        """At the start, no worker can grade: say so at once, with the command, and wait ``wait`` s for one."""
        self.note(f"no worker can grade yet: {self._why_none()}. To start one, {self.start}. "
                  f"Waiting {_duration(self.wait)} for one, then giving up")
        deadline = time.monotonic() + self.wait
        while time.monotonic() < deadline:
            time.sleep(min(0.5, self.wait / 4))
            if any(n > 0 for n in self._slots().values()):
                self._survey()
                if self.usable:
                    self.note(f"{self.usable} worker(s) can grade now")
                    return
        self._survey()

    def _given_up(self, waiting: int) -> bool:
        """About once a second: can some worker take a task?  When none could for ``wait`` s, say so (once per
        outage); True when none could for ``backstop`` s."""
        now = time.monotonic()
        if now - self._checked < min(1.0, self.wait / 3):
            return False
        self._checked = now
        try:
            capable = any(n > 0 for n in self._slots().values())
        except Exception:  # noqa: BLE001 - the scheduler unreachable: the futures will say it
            return False
        if capable:
            if self._said:
                self.note("a worker that can grade is back: grading goes on")
            self._none_since, self._said = None, False
            return False
        if self._none_since is None:
            self._none_since = now
        idle = now - self._none_since
        if idle >= self.wait and not self._said:
            self._said = True
            self.note(f"no worker can take a grading task, for {_duration(self.wait)} now, with {waiting} "
                      f"submission(s) waiting: {self._why_none()}. To start one, {self.start}. "
                      f"Waiting for one (giving up after {_duration(self.backstop)} without one: what is graded "
                      "is kept, and the same command grades the rest)")
        return idle >= self.backstop

    def run(self, jobs: Iterable[GradeJob]) -> Iterator[tuple[GradeJob, GradeOutput | BaseException]]:
        from distributed import as_completed  # noqa: PLC0415

        futures: dict[DaskFuture[GradeOutput], GradeJob] = {}
        for job in jobs:
            fut = self.client.submit(grade_submission, job, resources={self.resource: 1}, retries=LOST_WORKER_RETRIES,
                                     pure=False, key=f"grade-{len(futures)}-{job.name[:60]}")
            futures[fut] = job
        finished = as_completed(list(futures))
        try:
            while not finished.is_empty():
                batch = finished.next_batch(block=False)
                if not batch:
                    if self._given_up(len(futures)):
                        break
                    time.sleep(0.05)
                    continue
                for fut in batch:
                    job = futures.pop(fut)
                    try:
                        yield job, fut.result()
                    except Exception as err:  # noqa: BLE001 - a lost worker, past its retries: not a result
                        yield job, err
                    fut.release()
            for fut in list(futures):  # given up: each left is not graded, and says why
                job = futures.pop(fut)
                fut.cancel()
                yield job, NoWorker(f"no worker could grade for {_duration(self.backstop)}")
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

"""The grader's side of the worker: start it, send a game, wait -- never forever.

A response that is late, malformed or missing means the worker is lost: it is
killed and started afresh for the next request, and the request that lost it
is a failed test, never a pass.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from pathlib import Path
from typing import Mapping

from grader.core.isolation import library_path_inside, sandbox_gone, worker_popen
from grader.core.policy import Budget
from grader.core.run_report import MalformedReport, RunReport
from grader.core.sandbox import protocol
from grader.core.sandbox.limits import Limits

RESPONSE_SLACK = 5.0  # seconds beyond the child's wall limit before the worker counts as lost
START_SECONDS = 30.0


class WorkerLost(Exception):
    """The worker died, hung or spoke nonsense."""


class WorkerClient:
    def __init__(self, library: Path, job_module: str, packages: tuple[str, ...] = ()) -> None:
        self.library = library
        self.job_module = job_module  # the game's sandbox-side module, imported by the worker
        self.packages = packages  # what else of the game's the worker imports (its reference engine)
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self.pong: dict[str, object] = {}  # what the worker said of itself when it started
        self.budget: Budget | None = None  # the submission's, when it has one
        self.spent = (0.0, 0.0)  # CPU and real seconds its runs took (a lost worker counts its wait)
        self._next_id = 0

    def _start(self) -> subprocess.Popen[bytes]:
        proc = worker_popen(self.library.parent, self.job_module, self.packages)
        self.proc = proc
        try:
            pong, _ = self._exchange({"op": "ping"}, START_SECONDS)
        except WorkerLost:
            self.close()
            raise
        if not isinstance(pong, dict) or "pong" not in pong:
            self.close()
            raise WorkerLost("the worker did not answer its first ping")
        self.pong = pong
        return proc

    def _exchange(self, request: Mapping[str, object], timeout: float, *,
                  with_frames: bool = False) -> tuple[object, list[bytes]]:
        """Send one request; its answer: a header frame (the worker's JSON, of a shape the caller checks) and,
        ``with_frames``, the raw frames of the child's it announces (``frames``), which follow it."""
        proc = self.proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(protocol.encode(request))
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise WorkerLost(f"could not send to the worker: {err}") from err
        fd = proc.stdout.fileno()
        buf = protocol.FrameBuffer()
        deadline = time.monotonic() + timeout
        header: object = None
        announced = 0  # the frames the header says follow it
        frames: list[bytes] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WorkerLost(f"no answer within {timeout:.0f} s")
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            data = os.read(fd, 1 << 20)
            if not data:
                raise WorkerLost("the worker closed its channel")
            try:
                got = buf.feed(data, decode=False)
            except protocol.ProtocolError as err:
                raise WorkerLost(str(err)) from err
            if got and header is None:
                try:
                    header = protocol.loads(got.pop(0))
                except ValueError as err:
                    raise WorkerLost(f"the worker's answer is not JSON: {err}") from err
                if not with_frames:
                    if got or buf.buf:
                        raise WorkerLost("the worker sent more than one answer")
                    return header, []
                if not isinstance(header, dict) or not isinstance(header.get("frames"), int):
                    raise WorkerLost("the worker's answer has no frame count")
                announced = header["frames"]
            frames.extend(got)
            if header is not None and len(frames) >= announced:
                if len(frames) > announced or buf.buf:
                    raise WorkerLost("the worker sent more than it announced")
                return header, frames

    def run(self, job: Mapping[str, object], limits: Limits, max_frames: int) -> RunReport:
        """Run one job of the game's (``job``: what its sandbox module reads) in a fresh child:
        how it ended and the frames it sent, checked (``RunReport``).  Past the submission's ``budget`` the
        run is not started: ``RunReport.not_run``."""
        if self.out_of_budget:
            return RunReport.not_run(limits)
        started = time.monotonic()
        try:
            report = self._run(job, limits, max_frames)
        except WorkerLost:
            self.spent = (self.spent[0], self.spent[1] + time.monotonic() - started)
            raise
        self.spent = (self.spent[0] + report.cpu, self.spent[1] + time.monotonic() - started)
        return report

    @property
    def out_of_budget(self) -> bool:
        """Has the submission spent its budget (CPU or real time)?"""
        return self.budget is not None and (self.spent[0] >= self.budget.cpu or self.spent[1] >= self.budget.wall)

    def _run(self, job: Mapping[str, object], limits: Limits, max_frames: int) -> RunReport:
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                self.restarts += 1
                self.close()
            self._start()
        self._next_id += 1
        request = {**job, "op": "run", "id": self._next_id, "lib": library_path_inside(self.library),
                   "limits": limits.as_dict(), "max_frames": max_frames}
        try:
            response, frames = self._exchange(request, limits.wall + RESPONSE_SLACK, with_frames=True)
            if not isinstance(response, dict) or response.get("id") != self._next_id:  # (a dict: checked above)
                raise WorkerLost("the worker's answer does not match the request")
            return RunReport.from_worker(response, frames)
        except (WorkerLost, MalformedReport) as err:
            self.restarts += 1
            self.close()
            raise err if isinstance(err, WorkerLost) else WorkerLost(str(err)) from err

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        sandbox_gone(proc)
        if proc.stdout:
            proc.stdout.close()

    def __enter__(self) -> WorkerClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

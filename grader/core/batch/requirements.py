"""What a machine needs before it may grade: checked once per worker, before its first submission.

A worker without gcc would fail every build, and one without a working
bubblewrap would run student code unsandboxed: either would grade, but
degraded, and a batch spread over many machines would not show which marks
came from where.  So a batch worker refuses instead, naming what is wrong and
its fix: the packages to install for what is missing, and for a bubblewrap
that is installed but cannot create its namespaces, the cause the system gives
and the setting that fixes it (``sandbox.diagnose``), never "install
bubblewrap" again (docs/staff-guide.md, "A lab of machines, a cluster").
"""

from __future__ import annotations

import shutil
import subprocess
from functools import cache

GUIDE = "docs/staff-guide.md, 'A lab of machines, a cluster'"


class WorkerRefused(RuntimeError):
    """This machine cannot grade (the message says what is wrong and the fix)."""


def install_hint(packages: list[str]) -> str:
    """The one install line for what is missing (only that)."""
    return f"install: apt-get install {' '.join(packages)} (see {GUIDE})"


def _gcc_problem() -> tuple[str, str | None] | None:
    gcc = shutil.which("gcc")
    if gcc is None:
        return "gcc is not installed (or not on PATH)", "gcc"
    try:
        proc = subprocess.run([gcc, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"gcc does not run: {err}", None
    return None if proc.returncode == 0 else (f"gcc does not run: {proc.stderr.strip()[:200]}", None)


def _sandbox_problem() -> tuple[str, str | None] | None:
    from grader.core.isolation import detect_mode  # noqa: PLC0415 - it starts bubblewrap once to see it work

    mode = detect_mode()
    if mode.name == "bwrap":
        return None
    if mode.diagnosis is not None and mode.diagnosis.package:  # missing: its package goes on the install line
        return f"no sandbox: {mode.diagnosis.cause}", mode.diagnosis.package
    return f"no sandbox: {mode.why}", None  # the cause and its own fix


@cache
def worker_problems() -> tuple[str, ...]:
    """Why this machine must not grade, each with its fix (missing packages: one install line, last), or () when
    it may (checked once per process)."""
    found = [p for p in (_gcc_problem(), _sandbox_problem()) if p]
    packages = [package for _, package in found if package]
    return tuple([what for what, _ in found] + ([install_hint(packages)] if packages else []))


def check_worker() -> None:
    """Raise ``WorkerRefused`` when this machine must not grade."""
    problems = worker_problems()
    if problems:
        raise WorkerRefused("this machine cannot grade: " + "; ".join(problems))

"""What a machine needs before it may grade: checked once per worker, before its first submission.

A worker without gcc would fail every build, and one without a working
bubblewrap would run student code unsandboxed: either would grade, but
degraded, and a batch spread over many machines would not show which marks
came from where.  So a batch worker refuses instead, naming what is missing
and how to install it (docs/staff-guide.md, "A lab of machines, a cluster").
"""

from __future__ import annotations

import shutil
import subprocess
from functools import cache

INSTALL_HINT = "apt-get install gcc bubblewrap python3 (see docs/staff-guide.md, 'A lab of machines, a cluster')"


class WorkerRefused(RuntimeError):
    """This machine cannot grade (the message says what is missing)."""


def _gcc_problem() -> str | None:
    gcc = shutil.which("gcc")
    if gcc is None:
        return "gcc is not installed (or not on PATH)"
    try:
        proc = subprocess.run([gcc, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"gcc does not run: {err}"
    return None if proc.returncode == 0 else f"gcc does not run: {proc.stderr.strip()[:200]}"


def _sandbox_problem() -> str | None:
    from grader.core.sandbox import detect_mode  # noqa: PLC0415 - it starts bubblewrap once to see it work

    mode = detect_mode()
    return None if mode.name == "bwrap" else f"no sandbox: {mode.why}"


@cache
def worker_problems() -> tuple[str, ...]:
    """Why this machine must not grade, or () when it may (checked once per process)."""
    return tuple(p for p in (_gcc_problem(), _sandbox_problem()) if p)


def check_worker() -> None:
    """Raise ``WorkerRefused`` when this machine must not grade."""
    problems = worker_problems()
    if problems:
        raise WorkerRefused("this machine cannot grade: " + "; ".join(problems) + f". Install: {INSTALL_HINT}")

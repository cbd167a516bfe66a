"""Where student code runs: a bubblewrap sandbox, or a documented degraded mode.

Sandboxed mode (the default where it works): bubblewrap, started as an
unprivileged uid (``nobody`` when the grader runs as root), with every
namespace unshared (no network, own PIDs), no nested user namespaces, a
read-only root made only of /usr, the Python runtime, the grader's code and
the one directory being worked on, a 16 MiB private /tmp, and
``--die-with-parent``.  Files the grader can read but ``nobody`` cannot (a
Python under /root) are passed in as open file descriptors (``--ro-bind-fd``),
so nothing else of theirs becomes visible.  Hidden scenarios, expected traces
and reports are never mounted.

Degraded mode (no bubblewrap, or user namespaces disabled): the same worker
runs directly; each test child still gets rlimits, its own session, a sweep of
everything it started, and -- when the grader runs as root -- the uid
``nobody``.  What it loses: the network is not cut, and files readable by
``nobody`` are readable by student code.  ``fcd-grade`` says which mode ran.
"""

from __future__ import annotations

import functools
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cffi

import grader
import reference

SANDBOX_UID = 65534
TMPFS_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Mode:
    name: str  # "bwrap" or "degraded"
    why: str


def _as_sandbox_user() -> dict[str, object]:
    if os.getuid() == 0:
        return {"user": SANDBOX_UID, "group": SANDBOX_UID, "extra_groups": []}
    return {}


def _bwrap_base(extra: Sequence[str], fds: list[int]) -> list[str]:
    args = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--clearenv", "--ro-bind", "/usr", "/usr"]
    for link in ("bin", "lib", "lib64", "sbin"):
        path = Path("/") / link
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.exists():
            args += ["--ro-bind", str(path), str(path)]
    if Path("/etc/ld.so.cache").exists():
        args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    args += ["--size", str(TMPFS_BYTES), "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev"]
    args += list(extra)
    return args


def _bind_fd(path: Path, dest: str, fds: list[int], writable: bool = False) -> list[str]:
    fd = os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    fds.append(fd)
    return ["--bind-fd" if writable else "--ro-bind-fd", str(fd), dest]


def _python_binds(fds: list[int]) -> tuple[list[str], str, str]:
    """Binds for the interpreter, cffi and our packages; the python path and PYTHONPATH."""
    base = Path(sys.base_prefix).resolve()
    args = _bind_fd(base, str(base), fds)
    paths = ["/opt/fcd"]
    import _cffi_backend  # noqa: PLC0415 - located only to be mounted

    for mod_dir in {Path(cffi.__file__).resolve().parent.parent, Path(_cffi_backend.__file__).resolve().parent}:
        if not mod_dir.is_relative_to(base):
            args += _bind_fd(mod_dir, str(mod_dir), fds)
        paths.append(str(mod_dir))
    for pkg in (grader, reference):
        pkg_dir = Path(pkg.__file__).resolve().parent
        args += _bind_fd(pkg_dir, f"/opt/fcd/{pkg_dir.name}", fds)
    python = str(Path(sys.executable).resolve())
    if not Path(python).is_relative_to(base):
        args += ["--ro-bind", python, python]
    return args, python, ":".join(dict.fromkeys(paths))


@functools.cache
def detect_mode() -> Mode:
    """Use bubblewrap if it starts here as an unprivileged user; else degrade."""
    if os.environ.get("FCD_SANDBOX") == "none":
        return Mode("degraded", "FCD_SANDBOX=none was set")
    if shutil.which("bwrap") is None:
        return Mode("degraded", "bubblewrap (bwrap) is not installed")
    fds: list[int] = []
    try:
        argv = _bwrap_base(["--chdir", "/tmp"], fds) + ["--remount-ro", "/", "true"]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=20, pass_fds=fds,
                              check=False, **_as_sandbox_user())  # type: ignore[arg-type]
    except (OSError, subprocess.TimeoutExpired) as err:
        return Mode("degraded", f"bubblewrap could not start: {err}")
    finally:
        for fd in fds:
            os.close(fd)
    if proc.returncode != 0:
        return Mode("degraded", f"bubblewrap could not start: {proc.stderr.strip()[:300]}")
    return Mode("bwrap", "bubblewrap as an unprivileged user, all namespaces unshared")


def prepare_dir(path: Path) -> Path:
    """A directory the sandbox user can read (and, for builds, write)."""
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o755)
    if os.getuid() == 0:
        os.chown(path, SANDBOX_UID, SANDBOX_UID)
        for p in path.rglob("*"):
            os.chown(p, SANDBOX_UID, SANDBOX_UID)
    return path


def worker_popen(lib_dir: Path) -> subprocess.Popen[bytes]:
    """Start the fork server, sandboxed when possible, talking frames on stdin/stdout."""
    mode = detect_mode()
    env_path = os.pathsep.join(str(Path(p.__file__).resolve().parent.parent) for p in (grader, reference))
    if mode.name == "degraded":
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": env_path, "PYTHONDONTWRITEBYTECODE": "1"}
        return subprocess.Popen([sys.executable, "-S", "-B", "-m", "grader.worker"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_with_site(env))
    fds: list[int] = []
    binds, python, pythonpath = _python_binds(fds)
    binds += _bind_fd(lib_dir, "/lib-under-test", fds)
    argv = _bwrap_base(binds + ["--setenv", "PYTHONPATH", pythonpath, "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
                                "--setenv", "PATH", "/usr/bin", "--chdir", "/tmp", "--remount-ro", "/"], fds)
    argv += [python, "-S", "-B", "-m", "grader.worker"]
    try:
        return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                pass_fds=fds, **_as_sandbox_user())  # type: ignore[arg-type]
    finally:
        for fd in fds:
            os.close(fd)


def _with_site(env: dict[str, str]) -> dict[str, str]:
    import _cffi_backend  # noqa: PLC0415

    extra = {str(Path(cffi.__file__).resolve().parent.parent), str(Path(_cffi_backend.__file__).resolve().parent)}
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], *sorted(extra)])
    return env


def library_path_inside(library: Path) -> str:
    """Where the worker sees ``library``: mounted at /lib-under-test when sandboxed."""
    return f"/lib-under-test/{library.name}" if detect_mode().name == "bwrap" else str(library)


# ---- running a tool (the compiler, a memory-check program) under limits -------------------

@dataclass
class Completed:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    output_capped: bool
    seconds: float
    signal: int | None = None


def run_limited(argv: list[str], work_dir: Path, timeout: float, *, output_cap: int = 1 << 20,
                memory_mb: int | None = 2048, file_mb: int = 256, env: dict[str, str] | None = None,
                keep: int = 64 * 1024) -> Completed:
    """Run ``argv`` in ``work_dir`` (mounted at /work, writable), sandboxed when possible.

    Output is read as it comes, only the first ``keep`` bytes of each stream are
    kept, and the process tree is killed past ``output_cap`` bytes or ``timeout``.
    """
    mode = detect_mode()
    fds: list[int] = []
    env = dict(env or {"PATH": "/usr/bin:/bin", "LANG": "C"})
    if mode.name == "bwrap":
        argv = _bwrap_base(_bind_fd(work_dir, "/work", fds, writable=True) + [
            *(x for k, v in env.items() for x in ("--setenv", k, v)), "--chdir", "/work",
            "--remount-ro", "/"], fds) + argv
        cwd: Path | str = "/"
    else:
        cwd = work_dir

    def limits() -> None:
        if memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    start = time.monotonic()
    user = _as_sandbox_user()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, pass_fds=fds, start_new_session=True,
                                preexec_fn=limits, **user)  # type: ignore[arg-type]
    finally:
        for fd in fds:
            os.close(fd)
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()  # type: ignore[union-attr]
    kept = {out_fd: bytearray(), err_fd: bytearray()}
    total = 0
    timed_out = capped = False
    open_fds = set(kept)
    while open_fds:
        remaining = start + timeout - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        ready, _, _ = select.select(list(open_fds), [], [], remaining)
        for fd in ready:
            data = os.read(fd, 65536)
            if not data:
                open_fds.discard(fd)
                continue
            total += len(data)
            room = keep - len(kept[fd])
            if room > 0:
                kept[fd] += data[:room]
            if total > output_cap:
                capped = True
        if capped:
            break
    if timed_out or capped:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        proc.wait(timeout=max(1.0, start + timeout - time.monotonic()))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        timed_out = True
    proc.stdout.close()  # type: ignore[union-attr]
    proc.stderr.close()  # type: ignore[union-attr]
    rc = proc.returncode
    return Completed(
        returncode=rc if rc is not None and rc >= 0 else None,
        stdout=kept[out_fd].decode(errors="replace"),
        stderr=kept[err_fd].decode(errors="replace"),
        timed_out=timed_out, output_capped=capped, seconds=time.monotonic() - start,
        signal=-rc if rc is not None and rc < 0 else None,
    )

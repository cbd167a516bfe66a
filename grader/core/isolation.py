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
``nobody`` are readable by student code.  ``fcd-grade`` says which mode ran,
and when bubblewrap is installed but cannot start, the cause the system gives
(AppArmor, a sysctl, a container) and its fix (``diagnose``).
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence, TypedDict

import cffi

import grader
from grader.core.interpreter import python_module

SANDBOX_UID = 65534
# Same submission, same marks: glibc fills what malloc hands out with 0xa5 bytes (perturb ^ 0xff) and
# what free takes back with 0x5a, and keeps no per-thread cache (which would skip both), so code that
# reads memory it never wrote, or wrote and freed, sees the same bytes in every run whatever the server
# did before -- and never zeros, so a counter left uninitialised (malloc where calloc was meant) gives a
# wrong answer every time instead of passing by luck; a pointer read from such memory is not canonical
# and crashes at once.
DETERMINISTIC_MALLOC = "glibc.malloc.perturb=90:glibc.malloc.tcache_count=0"
TMPFS_BYTES = 16 * 1024 * 1024  # each of the sandbox's writable places (/tmp, /dev/shm) holds at most this
TMPFS_FILES = 4096  # and this many files: 600,000 empty files cost the host 420 MB of kernel memory
# What the bubblewrap process itself is started with: it is process 1 of the sandbox, and its environment is
# readable there as /proc/1/environ, so the grader's own variables (tokens, keys) never reach it.
BWRAP_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C"}
MS_NOSUID, MS_NODEV, MS_REC, MS_PRIVATE, CLONE_NEWNS = 2, 4, 1 << 14, 1 << 18, 0x00020000


@dataclass(frozen=True)
class Diagnosis:
    """Why bubblewrap cannot sandbox on this machine, and the fix for that cause (never a blind "install it")."""
    cause: str
    fix: str
    package: str | None = None  # the package to install, when installing one is the fix

    def __str__(self) -> str:
        return f"{self.cause}. Fix: {self.fix}"


@dataclass(frozen=True)
class Mode:
    name: str  # "bwrap" or "degraded"
    why: str
    diagnosis: Diagnosis | None = None  # when degraded because bubblewrap is missing or cannot start


class _User(TypedDict, total=False):
    """What ``subprocess`` takes to start a process as another user."""

    user: int
    group: int
    extra_groups: list[int]


def _as_sandbox_user() -> _User:
    if os.getuid() == 0:
        return {"user": SANDBOX_UID, "group": SANDBOX_UID, "extra_groups": []}
    return {}


def _bwrap_base(extra: Sequence[str], scratch: Scratch | None = None) -> list[str]:
    """bubblewrap's options: namespaces, a read-only root, /proc, a read-only /dev, and two small writable
    places, /tmp and /dev/shm, each capped in bytes (and in files where the grader could mount them: ``Scratch``)."""
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
    args += ["--proc", "/proc", "--dev", "/dev"]
    for place in ("/tmp", "/dev/shm"):
        mounted = scratch.places.get(place) if scratch is not None else None
        args += ["--bind", str(mounted), place] if mounted else ["--size", str(TMPFS_BYTES), "--tmpfs", place]
    args += ["--remount-ro", "/dev"]
    args += list(extra)
    return args


class Scratch:
    """The sandbox's writable places as tmpfs mounts capped in bytes *and* in files (``nr_inodes``, which
    bubblewrap's ``--size`` cannot set), made when the grader runs as root: ``places`` holds the empty
    folders they are mounted on (none otherwise, and bubblewrap's own byte-capped tmpfs is used).

    The mounts are made in the started process itself (``enter``, before it becomes the sandbox user), in a
    mount namespace of its own: the host never sees them, and they are gone with the sandbox's last
    process, however the grader ends.  ``remove()`` takes away the empty folders.
    """

    def __init__(self) -> None:
        self.places: dict[str, Path] = {}
        self._root: Path | None = None
        if not self.wanted():
            return
        self._root = Path(tempfile.mkdtemp(prefix="fcd-scratch-"))
        self._root.chmod(0o755)  # bubblewrap, as the sandbox user, must reach the mounts to bind them
        for place in ("/tmp", "/dev/shm"):
            target = self._root / place.strip("/").replace("/", "-")
            target.mkdir()
            self.places[place] = target

    @staticmethod
    def wanted() -> bool:
        """Will the sandbox get these mounts (the grader runs as root, and FCD_SCRATCH_MOUNTS=0 is not set)?"""
        return os.getuid() == 0 and os.environ.get("FCD_SCRATCH_MOUNTS") != "0"

    def enter(self) -> None:
        """In the started process, still root: a mount namespace of its own, the tmpfs mounts in it.
        OSError when this machine does not allow it (a container): the caller starts without them."""
        libc = _libc()
        options = f"size={TMPFS_BYTES},nr_inodes={TMPFS_FILES},mode=0700,uid={SANDBOX_UID},gid={SANDBOX_UID}"
        if libc.unshare(CLONE_NEWNS) != 0 or libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            raise OSError(ctypes.get_errno(), "no mount namespace for the sandbox's scratch space")
        for target in self.places.values():
            if libc.mount(b"tmpfs", str(target).encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options.encode()) != 0:
                raise OSError(ctypes.get_errno(), f"could not mount the sandbox's scratch space on {target}")

    def remove(self) -> None:
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)
            self._root = None
        self.places = {}


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _sandboxed_popen(argv_with: Callable[[Scratch | None], list[str]], *, limits: Callable[[], None] | None = None,
                     **popen: Any) -> tuple[subprocess.Popen[bytes], Scratch | None]:
    """Start bubblewrap (``argv_with(scratch)``) as the sandbox user, with its scratch mounts when they can be
    made (else bubblewrap's own tmpfs, ``argv_with(None)``); ``limits``: rlimits to set in the child."""
    scratch = Scratch()
    user = _as_sandbox_user()
    if scratch.places:
        def enter() -> None:
            scratch.enter()
            if limits is not None:
                limits()
            os.setgroups([])
            os.setresgid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID)
            os.setresuid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID)

        try:
            return subprocess.Popen(argv_with(scratch), preexec_fn=enter, **popen), scratch
        except subprocess.SubprocessError:  # the mounts could not be made here: without them
            scratch.remove()
    return subprocess.Popen(argv_with(None), preexec_fn=limits, **popen, **user), None


_SCRATCH: dict[int, Scratch] = {}  # a worker's pid -> the folders its scratch mounts are on


def sandbox_gone(proc: subprocess.Popen[bytes]) -> None:
    """The worker ``proc`` has ended: the empty folders of its scratch mounts go too."""
    scratch = _SCRATCH.pop(proc.pid, None)
    if scratch is not None:
        scratch.remove()


@atexit.register
def _remove_all() -> None:
    for scratch in list(_SCRATCH.values()):
        scratch.remove()
    _SCRATCH.clear()


def _readable_by_sandbox_user(path: str) -> bool:
    """Can the sandbox user run this interpreter? (A Python under /root cannot be reached by nobody.)"""
    if os.getuid() != 0:
        return True
    try:
        return subprocess.run([path, "-S", "-c", "pass"], capture_output=True, timeout=20, check=False,
                              **_as_sandbox_user()).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.cache
def sandbox_python() -> str | None:
    """An interpreter of our Python version that the sandbox user can execute."""
    minor = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (str(Path(sys.executable).resolve()), f"/usr/bin/{minor}"):
        if Path(candidate).exists() and _readable_by_sandbox_user(candidate):
            return candidate
    return None


def _file_of(module: types.ModuleType) -> Path:
    """A module's file (every module the worker needs has one)."""
    if module.__file__ is None:
        raise TypeError(f"{module.__name__} has no file to copy or put on the path")
    return Path(module.__file__)


SANDBOX_FOLDER = "sandbox"  # a package's sandbox side: the folder of that name (``grader/core/sandbox/``, ...)


def sandbox_folders(job_module: str, packages: tuple[str, ...]) -> tuple[str, ...]:
    """The sandbox folders a job is given, as dotted names: the core's, the one its job module is in
    (``grader.games.fcd18s2.sandbox``), and the game's ``packages`` (its family's: ``grader.games.fcd.sandbox``)."""
    job_folder = job_module.rsplit(".", 1)[0]
    folders = ("grader.core.sandbox", job_folder, *packages)
    for name in folders:
        if name.rsplit(".", 1)[-1] != SANDBOX_FOLDER:
            raise ValueError(f"the sandbox is given sandbox folders only, not {name!r}")
    return tuple(dict.fromkeys(folders))


@functools.cache
def runtime_dir(job_module: str, packages: tuple[str, ...]) -> Path:
    """A world-readable copy of what the worker imports, and nothing else: the ``sandbox/`` folders of the
    core, of the job's game and of its ``packages`` (``sandbox_folders``), empty ``__init__.py`` files for their
    parent packages (``grader``, ``grader.games``, ...: never the real ones, which build a game's ``GameSpec``
    on its reference), cffi and its backend, pycparser, orjson.  No reference engine, no expected value, no
    trace or packing code of the trusted side, no cache, no fixture: a library that calls back into Python
    finds nothing there that knows the answers (``tests/core/test_sandbox_layout.py``).

    Copied so that the sandbox mounts nothing but these files, and so that a sandbox user who cannot read
    the project's folder can still import them.
    """
    import _cffi_backend  # noqa: PLC0415 - located only to be copied
    import orjson  # noqa: PLC0415 - the frames' JSON
    import pycparser  # noqa: PLC0415 - cffi parses declarations with it

    root = Path(tempfile.mkdtemp(prefix="fcd-runtime-"))
    atexit.register(shutil.rmtree, root, True)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    project = _file_of(grader).resolve().parent.parent
    for name in sandbox_folders(job_module, packages):
        parts = name.split(".")
        shutil.copytree(project.joinpath(*parts), root.joinpath(*parts), ignore=skip, dirs_exist_ok=True)
        for depth in range(1, len(parts)):  # the parents: stubs
            if not root.joinpath(*parts[:depth], "__init__.py").exists():
                root.joinpath(*parts[:depth], "__init__.py").touch()
    for pkg in (cffi, pycparser, orjson):
        folder = _file_of(pkg).resolve().parent
        shutil.copytree(folder, root / folder.name, ignore=skip)
    shutil.copy2(_file_of(_cffi_backend), root)
    for p in [root, *root.rglob("*")]:
        os.chmod(p, 0o755 if p.is_dir() else 0o644)
    return root


def _read(root: Path, name: str) -> str | None:
    try:
        return (root / name).read_text(errors="replace").strip()
    except OSError:
        return None


def _in_container(root: Path) -> bool:
    """Docker, Podman, LXC or Kubernetes, as far as their marks on the file system tell."""
    if (root / ".dockerenv").exists() or (root / "run" / ".containerenv").exists():
        return True
    cgroup = _read(root, "proc/1/cgroup") or ""
    if any(word in cgroup for word in ("docker", "kubepods", "containerd", "libpod", "lxc")):
        return True
    try:
        return b"container=" in (root / "proc" / "1" / "environ").read_bytes()
    except OSError:
        return False


def _sysctl_fix(key: str, value: int) -> str:
    return (f"sudo sysctl -w {key}={value}, and to keep it after a reboot: "
            f"echo {key}={value} | sudo tee /etc/sysctl.d/60-fcd-grade.conf")


CONTAINER_FIX = ("start the container with --security-opt seccomp=unconfined --security-opt apparmor=unconfined "
                 "--security-opt systempaths=unconfined (or --privileged), or grade on the host")


def diagnose(stderr: str, bwrap: str | None, root: Path = Path("/")) -> Diagnosis:
    """Why bubblewrap cannot sandbox here, from what bwrap said (``stderr``) and the system's own settings under
    ``root`` (its /proc, /sys and container marks; a test's folder in tests), with the fix for that cause.

    ``bwrap`` is its path, or None when it is not installed (the one cause whose fix is a package).
    """
    if bwrap is None:
        return Diagnosis("bubblewrap (bwrap) is not installed", "apt-get install bubblewrap", "bubblewrap")
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    said = f'bwrap says "{lines[-1].split(". ")[0][:200]}"' if lines else "bwrap says nothing"  # its first sentence
    lead = "bubblewrap is installed but cannot create its namespaces: "
    apparmor = _read(root, "proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1"
    max_userns = _read(root, "proc/sys/user/max_user_namespaces")
    container = _in_container(root)
    refused = "No permissions to creat" in stderr  # EPERM when creating the user namespace
    if "setuid mode" in stderr or "setuid use of bubblewrap" in stderr:
        return Diagnosis(f"bubblewrap cannot start: {bwrap} is installed setuid root, and a setuid bwrap refuses "
                         f"this sandbox's options (its size-limited /tmp) ({said})",
                         f"sudo chmod u-s {bwrap}, so that it uses user namespaces instead")
    if max_userns == "0":
        return Diagnosis(f"{lead}user namespaces are disabled (user.max_user_namespaces = 0) ({said})",
                         _sysctl_fix("user.max_user_namespaces", 15000))
    if _read(root, "proc/sys/kernel/unprivileged_userns_clone") == "0":
        return Diagnosis(f"{lead}unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0, "
                         f"Debian's switch) ({said})", _sysctl_fix("kernel.unprivileged_userns_clone", 1))
    no_userns = _read(root, "sys/module/user_namespace/parameters/enable") == "N"  # RHEL 7's boot switch
    if "does not support user namespaces" in stderr or no_userns:
        return Diagnosis(f"{lead}the kernel has no user namespaces, where bwrap would need its setuid bit ({said})",
                         "a kernel with user namespaces (CONFIG_USER_NS; on RHEL/CentOS 7 boot with "
                         "user_namespace.enable=1 and set user.max_user_namespaces=15000): making bwrap setuid root "
                         "does not help here, a setuid bwrap refuses this sandbox's size-limited /tmp")
    host = "on the host (the container shares its kernel): " if container else ""
    apparmor_cause = Diagnosis(
        f"{lead}AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1, "
        f"Ubuntu 24.04's default) ({said})",
        host + _sysctl_fix("kernel.apparmor_restrict_unprivileged_userns", 0) + "; or an AppArmor profile that "
        f"lets {os.path.realpath(bwrap)} alone create user namespaces (docs/staff-guide.md, "
        "'When the sandbox cannot start')")
    if apparmor and ("uid map" in stderr or "RTM_NEW" in stderr):
        return apparmor_cause
    if container and (refused or "Failed to make / slave" in stderr or "Can't mount proc" in stderr
                      or "Creating new namespace failed" in stderr):
        blocker = ("its seccomp profile (Docker's default) refuses to create user namespaces" if refused else
                   "its AppArmor profile (docker-default) refuses mounts" if "slave" in stderr else
                   "it hides parts of /proc, so no new /proc may be mounted" if "mount proc" in stderr else
                   "its security settings refuse a new namespace")
        extra = ("; and on the host, which restricts user namespaces too (Ubuntu 24.04): "
                 + _sysctl_fix("kernel.apparmor_restrict_unprivileged_userns", 0)) if apparmor else ""
        return Diagnosis(f"{lead}this runs in a container without user namespaces: {blocker} ({said})",
                         CONTAINER_FIX + extra)
    if apparmor:
        return apparmor_cause
    if refused:
        return Diagnosis(f"{lead}the kernel refuses unprivileged user namespaces (a seccomp filter or a security "
                         f"module of this system) ({said})",
                         "allow unprivileged user namespaces for bwrap; in a container: " + CONTAINER_FIX)
    if "ENOSPC" in stderr or "No space left on device" in stderr:
        return Diagnosis(f"{lead}the limit of user namespaces is reached (user.max_user_namespaces = {max_userns}) "
                         f"({said})", _sysctl_fix("user.max_user_namespaces", 15000))
    return Diagnosis(f"bubblewrap could not start ({said})",
                     "run `bwrap --unshare-all --ro-bind / / true` as an unprivileged user to see why; "
                     "docs/staff-guide.md, 'When the sandbox cannot start', lists the usual causes")


def _bwrap_refusal(bwrap: str) -> str | None:
    """What bwrap says when it cannot start a sandbox as the sandbox user, or None when it can."""
    try:
        argv = _bwrap_base(["--chdir", "/tmp", "--remount-ro", "/"]) + ["true"]
        argv[0] = bwrap
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=20,
                              check=False, env=BWRAP_ENV, **_as_sandbox_user())
    except OSError as err:
        return f"could not run {bwrap}: {err}"
    except subprocess.TimeoutExpired:
        return f"{bwrap} did not finish within 20 s"
    return None if proc.returncode == 0 else proc.stderr


@functools.cache
def detect_mode(root: Path = Path("/")) -> Mode:
    """Use bubblewrap if it starts here as an unprivileged user; else degrade, saying why and the fix
    (``diagnose``: ``root`` is where the system's settings are read, a test's folder in tests)."""
    if os.environ.get("FCD_SANDBOX") == "none":
        return Mode("degraded", "FCD_SANDBOX=none was set")
    bwrap = shutil.which("bwrap")
    refusal = _bwrap_refusal(bwrap) if bwrap is not None else ""
    if refusal is not None:
        diagnosis = diagnose(refusal, bwrap, root)
        return Mode("degraded", str(diagnosis), diagnosis)
    if sandbox_python() is None:
        return Mode("degraded", "no Python interpreter the sandbox user may run (install python3 from the system)")
    who = "nobody" if os.getuid() == 0 else "the current user"
    return Mode("bwrap", f"bubblewrap as {who}, all namespaces unshared (no network), read-only root")


def prepare_dir(path: Path) -> Path:
    """A directory the sandbox user can read (and, for builds, write)."""
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o755)
    if os.getuid() == 0:
        os.chown(path, SANDBOX_UID, SANDBOX_UID)
        for p in path.rglob("*"):
            os.chown(p, SANDBOX_UID, SANDBOX_UID)
    return path


def worker_popen(lib_dir: Path, job_module: str, packages: tuple[str, ...]) -> subprocess.Popen[bytes]:
    """Start the fork server, sandboxed when possible, talking frames on stdin/stdout."""
    mode = detect_mode()
    if mode.name == "degraded":
        runtime = worker_search_path(job_module, packages)  # also its folder: ``-m`` puts the folder on the path
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": runtime, "PYTHONDONTWRITEBYTECODE": "1",
               "GLIBC_TUNABLES": DETERMINISTIC_MALLOC}
        return subprocess.Popen(python_module("grader.core.sandbox.worker", job_module, flags=("-S", "-B")),
                                stdin=subprocess.PIPE, cwd=runtime,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    python = sandbox_python()
    assert python is not None  # detect_mode checked it
    binds = ["--ro-bind", str(runtime_dir(job_module, packages)), "/opt/fcd",
             "--ro-bind", str(lib_dir), "/lib-under-test"]
    if not python.startswith("/usr/"):
        prefix = Path(python).parent.parent
        binds += ["--ro-bind", str(prefix), str(prefix)]
    def argv_with(scratch: Scratch | None) -> list[str]:
        return _bwrap_base(binds + ["--setenv", "PYTHONPATH", "/opt/fcd", "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
                                    "--setenv", "PATH", "/usr/bin", "--setenv", "GLIBC_TUNABLES", DETERMINISTIC_MALLOC,
                                    "--chdir", "/tmp", "--remount-ro", "/"], scratch) + \
            python_module("grader.core.sandbox.worker", job_module, python=python, flags=("-S", "-B"))

    proc, scratch = _sandboxed_popen(argv_with, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=BWRAP_ENV)
    if scratch is not None:
        _SCRATCH[proc.pid] = scratch
    return proc


def worker_search_path(job_module: str, packages: tuple[str, ...] = ()) -> str:
    """PYTHONPATH for a worker run with ``python -S`` outside the sandbox (degraded mode): the runtime copy
    the sandbox would be given (``runtime_dir``), so the reference is no more importable there than inside."""
    return str(runtime_dir(job_module, packages))


def library_path_inside(library: Path) -> str:
    """Where the worker sees ``library``: mounted at /lib-under-test when sandboxed."""
    return f"/lib-under-test/{library.name}" if detect_mode().name == "bwrap" else str(library)


# ---- running a tool (the compiler, a memory-check program) under limits -------------------

KEEP_BYTES = 64 * 1024  # of each stream of a tool's output, what a report may quote


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
                keep: int = KEEP_BYTES, cpu_seconds: int | None = None) -> Completed:
    """Run ``argv`` in ``work_dir`` (mounted at /work, writable), sandboxed when possible.

    Output is read as it comes, only the first ``keep`` bytes of each stream are
    kept, and the process tree is killed past ``output_cap`` bytes or ``timeout``.
    """
    mode = detect_mode()
    env = dict(env or {"PATH": "/usr/bin:/bin", "LANG": "C"})
    if mode.name == "bwrap":
        def argv_with(scratch: Scratch | None) -> list[str]:
            return _bwrap_base(["--bind", str(work_dir), "/work",
                                *(x for k, v in env.items() for x in ("--setenv", k, v)), "--chdir", "/work",
                                "--remount-ro", "/"], scratch) + argv

        return _run_limited(argv_with, "/", timeout, output_cap=output_cap, memory_mb=memory_mb, file_mb=file_mb,
                            env=BWRAP_ENV, keep=keep, cpu_seconds=cpu_seconds, sandboxed=True)
    return _run_limited(lambda _: argv, work_dir, timeout, output_cap=output_cap, memory_mb=memory_mb,
                        file_mb=file_mb, env=env, keep=keep, cpu_seconds=cpu_seconds, sandboxed=False)


def _run_limited(argv_with: Callable[[Scratch | None], list[str]], cwd: Path | str, timeout: float, *,
                 output_cap: int, memory_mb: int | None, file_mb: int, env: dict[str, str], keep: int,
                 cpu_seconds: int | None, sandboxed: bool) -> Completed:

    def limits() -> None:
        if memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))
        if cpu_seconds:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    start = time.monotonic()
    popen: dict[str, Any] = {"cwd": cwd, "stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE,
                             "stderr": subprocess.PIPE, "env": env, "start_new_session": True}
    scratch: Scratch | None = None
    try:
        if sandboxed:
            proc, scratch = _sandboxed_popen(argv_with, limits=limits, **popen)
        else:
            proc = subprocess.Popen(argv_with(None), preexec_fn=limits, **popen, **_as_sandbox_user())
    except OSError as err:
        return Completed(None, "", f"could not start {argv_with(None)[0]}: {err}", False, False, 0.0)
    try:
        return _read_limited(proc, start, timeout, output_cap, keep)
    finally:
        if scratch is not None:
            scratch.remove()


def _read_limited(proc: subprocess.Popen[bytes], start: float, timeout: float, output_cap: int,
                  keep: int) -> Completed:
    """Read a started tool's output as it comes, keeping ``keep`` bytes of each stream; kill its process
    group past ``output_cap`` bytes or ``timeout``."""
    assert proc.stdout is not None and proc.stderr is not None  # (both PIPE)
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
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
    proc.stdout.close()
    proc.stderr.close()
    rc = proc.returncode
    return Completed(
        returncode=rc if rc is not None and rc >= 0 else None,
        stdout=kept[out_fd].decode(errors="replace"),
        stderr=kept[err_fd].decode(errors="replace"),
        timed_out=timed_out, output_capped=capped, seconds=time.monotonic() - start,
        signal=-rc if rc is not None and rc < 0 else None,
    )

"""The worker: a single-threaded fork server that runs student code, one child per request.

Started by the grader (by exec, inside the sandbox: see ``grader.core.isolation``) as
``python -m grader.core.sandbox.worker JOB_MODULE``, the game's sandbox-side module (for
Final Card-Down, ``grader.games.fcd.sandbox.play``).  It reads request frames on
stdin and answers each with one response frame on stdout.  Every ``run`` request
gets a fresh child (``Spare``), forked one game ahead: it drops privileges and
sets its limits, waits for its request, and only then hands it to the job,
which loads the student library (so constructors and globals start fresh every
time, and never run here).  The job appends its frames to a results area of
memory shared with this process only (``Results``): no system call per frame,
and every frame written before a crash is still there.  A child that
got to the end marks its results finished and closes its output, and the
answer goes back without waiting for the process to be torn down; what the
game left behind is killed while the grader reads the answer (``ForkServer``).
The worker itself never loads student code.

The worker reports raw facts -- frames received, exit status, signal, CPU and
wall time, which limit it enforced -- and the grader decides what they mean.
It never sees an expected result.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import mmap
import os
import resource
import select
import signal
import socket
import struct
import sys
import time
import types
from typing import Mapping, NotRequired, TypedDict

from grader.core.sandbox import protocol
from grader.core.sandbox.limits import Limits, LimitsDict
from grader.core.sandbox.values import table, to_int

# A request as the worker reads it: ``op`` (run, ping, exit), ``id``, and for a run ``limits``, ``max_frames`` and
# what the game's job reads (the grader's JSON: each value is checked where it is read).
Request = Mapping[str, object]


class Response(TypedDict):
    """The worker's answer to a run: the facts of how its child ended (``grader.core.run_report`` reads them)."""

    frames: int
    exit_code: int | None
    signal: int | None
    enforced: str | None
    protocol: str | None
    finished: bool
    call: list[int]
    cpu: float
    maxrss_kb: int
    wall: float
    stdout: str
    stderr: str
    output_bytes: int
    limits: LimitsDict
    id: NotRequired[object]  # the request's, echoed (added by the server's loop)

libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 4, 36, 38
SANDBOX_UID = 65534  # nobody: used when the worker runs as root
KEEP_OUTPUT = 16 * 1024  # bytes kept from each of stdout and stderr (head)
DRAIN_GRACE = 0.05  # seconds to keep reading pipes after the child has exited
RESULT_BYTES = protocol.MAX_FRAME  # the results area: virtual, only what is written is ever touched
RESULTS_FULL_EXIT = 112  # the child's exit code when its results did not fit
HAND_OVER_SECONDS = 2.0  # a spare that cannot take its game by then is replaced
JOBS_UNDER = "grader.games."  # the only modules the worker accepts as its job (its command-line argument)
RESET_SIGNALS = (signal.SIGPIPE, signal.SIGINT, signal.SIGTERM, signal.SIGXCPU, signal.SIGXFSZ,
                 signal.SIGALRM, signal.SIGCHLD, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2)


# ---- inside the child: limits, privileges, then student code --------------------------

def _vm_size() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


class ResultsFull(Exception):
    """The child's frames outgrew the results area."""


class Results:
    """The results area: ``[u64 bytes committed][u64 finished][call in progress][frames...]``.

    Frames are as on a pipe.  The call in progress (``CALL``: step, probe, C
    call, two arguments) is written before every call into student code, so
    when a child crashes or hangs the server can say where.

    The child appends a frame, then moves the committed length past it, so a
    child killed mid-write leaves only whole frames behind; it sets
    ``finished`` once its game is over and its output flushed, so the server
    can answer without waiting for the process to be torn down.  Everything
    in it is student-controlled once the library is loaded: the server bounds
    the length and passes the frames on raw; the grader validates them.
    """

    HEAD = struct.Struct("<QQ")
    CALL = struct.Struct("<iiiii")
    FRAMES_AT = 40  # after the head and the call slot

    def __init__(self, size: int | None = None) -> None:
        self.area = mmap.mmap(-1, size or RESULT_BYTES)  # MAP_SHARED | MAP_ANONYMOUS: shared with our children only
        self.end = self.FRAMES_AT
        self.step = 0
        self.CALL.pack_into(self.area, self.HEAD.size, 0, protocol.LOADING, 0, 0, 0)

    def at(self, probe: int, call: int, a: int, b: int) -> None:  # in the child, before each call
        self.CALL.pack_into(self.area, 16, self.step, probe, call, a, b)

    def call_slot(self) -> memoryview:  # in the child: for native code that records its calls itself
        return memoryview(self.area)[self.HEAD.size:self.HEAD.size + self.CALL.size]

    def progress(self) -> bytes:  # in the server: frames committed and the step reached (the stall limit)
        return self.area[0:8] + self.area[self.HEAD.size:self.HEAD.size + 4]

    def call_in_progress(self) -> list[int]:  # in the server: student-written, validated by the grader
        return list(self.CALL.unpack_from(self.area, self.HEAD.size))

    def send(self, obj: object) -> None:  # in the child
        framed = protocol.encode(obj)
        end = self.end + len(framed)
        if end > len(self.area):
            raise ResultsFull(f"results over {len(self.area)} bytes")
        self.area[self.end:end] = framed
        self.HEAD.pack_into(self.area, 0, end - self.FRAMES_AT, 0)
        self.end = end

    def finish(self) -> None:  # in the child, when nothing more will be sent or printed
        self.HEAD.pack_into(self.area, 0, self.end - self.FRAMES_AT, 1)

    def finished(self) -> bool:
        return self.HEAD.unpack_from(self.area, 0)[1] == 1

    def frames(self, most: int) -> list[bytes]:  # in the server, once the child has finished or gone
        """The committed frames, raw; at most ``most`` of them (a game sends two a move)."""
        head = self.FRAMES_AT
        committed = self.HEAD.unpack_from(self.area, 0)[0]
        end = head + min(committed, len(self.area) - head)
        frames: list[bytes] = []
        pos = head
        while pos < end:
            if len(frames) == most:
                raise protocol.ProtocolError(f"more than the {most} frames a game of this length sends")
            body = pos + protocol.HEADER.size
            if body > end or body + protocol.HEADER.unpack_from(self.area, pos)[0] > end:
                raise protocol.ProtocolError("the results end in the middle of a frame")
            size = protocol.HEADER.unpack_from(self.area, pos)[0]
            frames.append(self.area[body:body + size])
            pos = body + size
        return frames

    def close(self) -> None:
        self.area.close()


def _enter_limits(limits: LimitsDict, address_space: int, request_fd: int, out_fd: int, err_fd: int,
                  parent: int) -> None:
    """Own session, no inherited descriptors but the request's (now fd 3), rlimits, an unprivileged uid.

    Signal dispositions are already the defaults: the server set them at start.
    """
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    os.dup2(request_fd, 3)
    os.closerange(4, 65536)
    cpu = int(limits["cpu"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if limits.get("memory_mb"):
        budget = address_space + int(limits["memory_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (budget, budget))
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (int(limits["nproc"]), int(limits["nproc"])))
    if os.getuid() == 0:  # degraded mode: no user namespace; become nobody
        os.setgroups([])
        os.setresgid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID)
        os.setresuid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # after the uid change, which clears it
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # the game playing beside a spare cannot trace it
    if os.getppid() != parent:
        os._exit(111)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    confine_signals(os.getpid())


# ---- a game signals no one but itself --------------------------------------------------------
# The fork server, the spare child made for the next game and this game's child all run as one user, so
# kill() would reach each of them: a seccomp filter (loaded after no_new_privs, before any student code)
# lets the signalling calls through only when they name this process (its pid, or its own process
# group: 0 or -pid, it leads its session), and refuses tracing outright.  EPERM, as for another user's.
SECCOMP_SET_MODE_FILTER, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 1, 22, 2
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO = 0x7FFF0000, 0x00050000
BPF_LD_W_ABS, BPF_JEQ_K, BPF_JGE_K, BPF_RET_K = 0x20, 0x15, 0x35, 0x06
X32_SYSCALL_BIT = 0x40000000
EPERM = 1
# Per architecture: its audit id and the numbers of (kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo,
# pidfd_open; then the calls refused outright: ptrace, process_vm_readv, process_vm_writev).
SIGNAL_CALLS = {
    "x86_64": (0xC000003E, (62, 200, 234, 129, 297, 434), (101, 310, 311)),
    "aarch64": (0xC00000B7, (129, 130, 131, 138, 240, 434), (117, 270, 271)),
}


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def signal_filter(pid: int, machine: str) -> list[tuple[int, int, int, int]] | None:
    """The classic-BPF program of ``confine_signals`` for ``pid`` on ``machine`` (None: an architecture we
    know no numbers for, left unconfined)."""
    known = SIGNAL_CALLS.get(machine)
    if known is None:
        return None
    arch, targeted, refused = known
    calls = [(nr, "check") for nr in targeted] + [(nr, "deny") for nr in refused]
    n = len(calls)
    # Where each part starts: the head (arch, nr, the x32 guard), the jumps, then ALLOW, CHECK (4), ALLOW, DENY.
    jumps = 5
    allow_other = jumps + n
    check = allow_other + 1
    allow, deny = check + 4, check + 5

    def to(target: int, at: int) -> int:  # a jump's offset: counted from the next instruction
        return target - at - 1

    prog: list[tuple[int, int, int, int]] = [
        (BPF_LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        (BPF_JEQ_K, 1, 0, arch),
        (BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW),  # another ABI (i386): its numbers are not these
        (BPF_LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
        (BPF_JGE_K, to(deny, 4), 0, X32_SYSCALL_BIT),  # x32's numbers (the same calls by another number)
    ]
    for i, (nr, where) in enumerate(calls):
        at = jumps + i
        prog.append((BPF_JEQ_K, to(check if where == "check" else deny, at), 0, nr))
    prog += [
        (BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW),  # any other call
        (BPF_LD_W_ABS, 0, 0, 16),  # the low word of args[0] (little-endian)
        (BPF_JEQ_K, to(allow, check + 1), 0, pid),
        (BPF_JEQ_K, to(allow, check + 2), 0, 0),  # kill(0, ...): its own process group
        (BPF_JEQ_K, to(allow, check + 3), to(deny, check + 3), (-pid) & 0xFFFFFFFF),  # kill(-pid, ...): the same
        (BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW),
        (BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM),
    ]
    assert len(prog) == deny + 1
    return prog


def confine_signals(pid: int) -> bool:
    """Load ``signal_filter(pid)`` into this process (inherited by whatever it starts); False when this
    architecture or kernel has no seccomp filter for it (documented: the sandbox's PID namespace still holds)."""
    prog = signal_filter(pid, os.uname().machine)
    if prog is None:
        return False
    filters = (_SockFilter * len(prog))(*(_SockFilter(*ins) for ins in prog))
    fprog = _SockFprog(len(prog), filters)
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0


def child_main(limits: LimitsDict, request_fd: int, results: Results, address_space: int, out_fd: int,
               err_fd: int, parent: int) -> None:
    """A spare child: enter the limits, wait for a game, play it, exit.  Never returns."""
    gc.disable()  # a child lives for one game: no collector touching copy-on-write pages
    code = 0
    try:
        _enter_limits(limits, address_space, request_fd, out_fd, err_fd, parent)
        request = protocol.read_frame(3)  # blocks until the server hands a game over
        if request is None:  # let go unused
            os._exit(0)
        os.write(3, b"\x01")  # taken: from here on the game is this child's
        os.close(3)
        job().run(request, results)
        libc.fflush(None)
        results.finish()  # before closing: the server takes two end-of-files plus this as "over"
        os.close(1)
        os.close(2)
        os._exit(0)
    except ResultsFull:
        code = RESULTS_FULL_EXIT
    except BaseException as err:  # noqa: BLE001 - anything here is reported, never raised
        try:
            results.send({"t": "error", "what": "worker", "detail": f"{type(err).__name__}: {err}"[:2000]})
        except BaseException:  # noqa: BLE001
            pass
        code = 3
    libc.fflush(None)
    os._exit(code)


# ---- in the fork server: supervise one child -------------------------------------------

class Capture:
    """Keeps the head of a stream and counts the rest (keeps reading so pipes never block)."""

    def __init__(self, keep: int) -> None:
        self.kept = bytearray()
        self.keep = keep
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self.keep - len(self.kept)
        if room > 0:
            self.kept += data[:room]

    def text(self) -> str:
        text = self.kept.decode("utf-8", errors="replace")
        if self.total > len(self.kept):
            text += f"\n... [{self.total - len(self.kept)} more bytes not kept]"
        return text


def _descendants() -> list[int]:
    """Our children, reparented orphans included (we are a subreaper)."""
    pids: list[int] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as f:
                pids.extend(int(p) for p in f.read().split())
    except OSError:
        pass
    return pids


def sweep(keep: int | None = None, wait: bool = True) -> int:
    """Kill and reap everything a child left behind (all our children but ``keep``); the number killed.

    With ``wait=False``: one pass -- kill what is there, reap what is already dead, return.
    Only a waiting sweep finds what a dying process leaves (its children become ours once it is gone).
    """
    killed = 0
    for _round in range(50 if wait else 1):
        pids = [p for p in _descendants() if p != keep]
        if not pids:
            break
        for pid in pids:
            for kill in (lambda p: os.killpg(p, signal.SIGKILL), lambda p: os.kill(p, signal.SIGKILL)):
                try:
                    kill(pid)
                except OSError:
                    pass
            killed += 1
        waiting, deadline = set(pids), time.monotonic() + (0.5 if wait else 0.0)
        while waiting:
            for pid in list(waiting):
                try:
                    gone = os.waitpid(pid, os.WNOHANG)[0] == pid
                except ChildProcessError:
                    gone = True
                if gone:
                    waiting.discard(pid)
            if not waiting or time.monotonic() >= deadline:
                break
            time.sleep(0.0005)
    return killed


class Spare:
    """A child forked one game ahead, limits entered, waiting for its request.

    The server forks the next game's child while the current game plays, so
    the fork and the limits cost the grader no time.  A spare runs nothing of
    the student's until it is handed its game (the library is loaded after
    that), serves one game only, and cannot be traced or written to by the
    game playing beside it (not dumpable).
    """

    def __init__(self, limits: LimitsDict) -> None:
        self.limits = limits
        self.results = Results()
        address_space = _vm_size()  # the child starts with our mappings; its memory limit is on top
        self.request, request_child = socket.socketpair()
        self.request.settimeout(HAND_OVER_SECONDS)
        self.out_r, out_w = os.pipe2(os.O_CLOEXEC)
        self.err_r, err_w = os.pipe2(os.O_CLOEXEC)
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:  # the child never returns
            child_main(limits, request_child.fileno(), self.results, address_space, out_w, err_w, parent)
        request_child.close()
        for fd in (out_w, err_w):
            os.close(fd)
        self.pidfd = os.pidfd_open(self.pid)

    def hand_over(self, request: Request) -> bool:
        """Send the game and see it taken; False if this spare can no longer take it."""
        try:
            os.kill(self.pid, signal.SIGCONT)  # the last game may have stopped it
            self.request.sendall(protocol.encode(request), socket.MSG_NOSIGNAL)
            return self.request.recv(1) == b"\x01"  # nothing, at once, from a spare that was killed
        except OSError:
            return False
        finally:
            self.request.close()

    def discard(self) -> None:
        self.request.close()
        _kill_tree(self.pid)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        for fd in (self.out_r, self.err_r, self.pidfd):
            os.close(fd)
        self.results.close()


def game_limits(request: Request) -> LimitsDict:
    """The request's limits, complete (the worker has no defaults of its own)."""
    return Limits.from_dict(table(request["limits"])).as_dict()


class ForkServer:
    """Runs games one after another, each in a fresh child; the next child is forked ahead.

    ``run`` answers as soon as a game is over; ``tidy`` kills and reaps what the
    game left (the child itself, still being torn down, and anything it
    started): the main loop kills once the answer is on its way, and ``run``
    sweeps to the end first, so no game ever starts beside another's leftovers.
    """

    def __init__(self, ahead: bool = True) -> None:
        self.ahead = ahead
        self.spare: Spare | None = None

    def tidy(self, wait: bool = True) -> int:
        """Kill and reap everything but the spare; the number of processes killed.  Without
        ``wait``, only kill what is there now (the next ``run`` finishes the job)."""
        return sweep(keep=self.spare.pid if self.spare else None, wait=wait)

    def _child_for(self, request: Request, limits: LimitsDict) -> tuple[Spare, float]:
        """A child holding ``request``, and when it got it."""
        spare, self.spare = self.spare, None
        if spare is not None and spare.limits != limits:
            spare.discard()
            spare = None
        refused = False
        while True:
            spare = spare or Spare(limits)
            start = time.monotonic()
            if spare.hand_over(request) or refused:
                return spare, start  # refused twice: that child ends with no result (exited early)
            refused = True
            spare.discard()  # killed from outside before its game: make another
            spare = None

    def close(self) -> None:
        if self.spare is not None:
            self.spare.discard()
            self.spare = None
        self.tidy()

    def run(self, request: Request) -> tuple[list[bytes], Response]:
        """Run one request in a fresh child: its frames (raw) and the facts of how it ended."""
        self.tidy()
        limits = game_limits(request)
        child, start = self._child_for(request, limits)
        if self.ahead:
            try:
                self.spare = Spare(limits)  # the next game's child, forked while this one plays
            except OSError:  # this game may be filling the process table: the next run makes one
                self.spare = None
        return supervise(child, request, limits, start)


def run_one(request: Request) -> tuple[list[bytes], Response]:
    """One game in one fresh child, no spare kept (tests, tools)."""
    server = ForkServer(ahead=False)
    try:
        return server.run(request)
    finally:
        server.close()


def supervise(child: Spare, request: Request, limits: LimitsDict, start: float) -> tuple[list[bytes], Response]:
    """Watch a child play its game -- deadline, output caps -- until it has finished (results
    marked finished, stdout and stderr closed) or is gone; then read its results."""
    pid, pidfd, results, out_r, err_r = child.pid, child.pidfd, child.results, child.out_r, child.err_r
    out, err = Capture(KEEP_OUTPUT), Capture(KEEP_OUTPUT)
    enforced: str | None = None
    output_cap = int(limits["output_kb"]) * 1024
    deadline = start + float(limits["wall"])
    stall = float(limits["stall"])  # no new frame and no new step for this long: it hangs (0: no such limit)
    progress, progress_at = results.progress(), start
    status: int | None = None
    rusage: resource.struct_rusage | None = None
    finished = False
    open_fds = {out_r: out, err_r: err}
    exit_time = start  # (when the child was seen to exit)
    poller = select.poll()
    for fd in (*open_fds, pidfd):
        poller.register(fd, select.POLLIN | select.POLLHUP)
    while True:
        now = time.monotonic()
        if stall and status is None and enforced is None:
            now_at = results.progress()
            if now_at != progress:
                progress, progress_at = now_at, now
            elif now - progress_at >= stall:
                deadline = now  # a hang: cut now rather than at the game's whole wall limit
        if status is None and now >= deadline and enforced is None:
            enforced = "wall"
            _kill_tree(pid)
        if status is not None and (not open_fds or now - exit_time >= DRAIN_GRACE):
            break
        if status is None and not open_fds and enforced is None and results.finished():
            finished = True  # over; its teardown is left to tidy(), off the grader's time
            break
        if status is None and enforced is not None and now >= deadline + 2.0:
            break  # unkillable? should not happen; never hang
        timeout = DRAIN_GRACE if status is not None else max(0.0, deadline - now)
        if stall and status is None:
            timeout = min(timeout, stall / 4)
        for fd, _ev in poller.poll(timeout * 1000):
            if fd == pidfd:
                _, status, rusage = os.wait4(pid, 0)
                exit_time = time.monotonic()
                poller.unregister(pidfd)
                # Its output closed and its results marked finished in the same instant as it exited
                # (one poll saw both): the game was over all the same.
                finished = not open_fds and enforced is None and results.finished() and os.WIFEXITED(status) \
                    and os.WEXITSTATUS(status) == 0
                continue
            data = os.read(fd, 65536)
            if not data:
                poller.unregister(fd)
                del open_fds[fd]
                continue
            open_fds[fd].add(data)
            if out.total + err.total > output_cap and enforced is None:
                enforced = "output"
                _kill_tree(pid)
    if status is None and not finished:
        _kill_tree(pid)
        _, status, rusage = os.wait4(pid, 0)
    protocol_problem = None
    wall = time.monotonic() - start
    for fd in (out_r, err_r, pidfd):
        os.close(fd)
    try:
        bodies = results.frames(most=to_int(request["max_frames"]))
    except protocol.ProtocolError as problem:
        bodies, protocol_problem = [], str(problem)
    call = results.call_in_progress()
    results.close()
    child.request.close()
    # Finished: it exits 0 next, and how much CPU and memory it used is known only to tidy().  Else: reaped above.
    exit_code: int | None = 0
    signum: int | None = None
    if not finished and status is not None:
        exit_code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        signum = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if exit_code == RESULTS_FULL_EXIT and protocol_problem is None:
        protocol_problem = "result stream over its size cap"
    if protocol_problem is not None and enforced is None:
        enforced = "protocol"
    return bodies, {
        "frames": len(bodies),
        "exit_code": exit_code,
        "signal": signum,
        "enforced": enforced,
        "protocol": protocol_problem,
        "finished": finished,
        "call": call,
        "cpu": (rusage.ru_utime + rusage.ru_stime) if rusage else 0.0,
        "maxrss_kb": rusage.ru_maxrss if rusage else 0,
        "wall": wall,
        "stdout": out.text(),
        "stderr": err.text(),
        "output_bytes": out.total + err.total,
        "limits": limits,
    }


def _kill_tree(pid: int) -> None:
    for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            kill()
        except OSError:
            pass


def _keep_single_threaded() -> None:
    """Keep ``threading`` out of the fork server.

    cffi's parser imports pycparser, which imports subprocess (for a C
    preprocessor the worker never runs), which imports threading -- and
    threading's after-fork hook then runs in every child: 0.35 ms and 150 page
    faults per game (``bench/bench_isolation.py``).  The worker gets a
    subprocess module that refuses to run anything instead.
    """
    if "subprocess" in sys.modules or "threading" in sys.modules:
        return
    stub = types.ModuleType("subprocess", "No subprocesses in the worker (see grader.core.sandbox.worker).")

    def check_output(*_args: object, **_kwargs: object) -> bytes:
        raise OSError("the worker runs no subprocess")

    stub.check_output = check_output  # type: ignore[attr-defined]
    sys.modules["subprocess"] = stub


def load_job(name: str) -> types.ModuleType:
    """The game's sandbox-side module: ``warm_up()`` and ``run(request, results)``."""
    if not name.startswith(JOBS_UNDER):
        raise SystemExit(f"the worker runs jobs of {JOBS_UNDER}*, not {name!r}")
    return importlib.import_module(name)


JOB: types.ModuleType | None = None  # the game's sandbox-side module, set once (``use_job``) before any fork


def job() -> types.ModuleType:
    """The game's sandbox-side module (``use_job`` sets it before the server starts)."""
    if JOB is None:
        raise RuntimeError("the worker has no job: use_job first")
    return JOB


def use_job(name: str) -> None:
    """Make the game's sandbox-side module the job of every child forked from now on."""
    global JOB  # noqa: PLW0603 - set once, before any child exists
    JOB = load_job(name)


def main(argv: list[str] | None = None) -> int:
    _keep_single_threaded()
    use_job((argv if argv is not None else sys.argv[1:])[0])
    channel_in = os.dup(0)
    channel_out = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(2, 1)  # a stray print must never reach the grader's channel
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # children of the same uid cannot ptrace us
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    for sig in RESET_SIGNALS:  # defaults here, so every child starts with them at no cost
        signal.signal(sig, signal.SIG_DFL)
    job().warm_up()  # e.g. parse the declarations and build the call interfaces once, before any fork
    gc.freeze()  # children never walk (and so never copy) the server's objects
    server = ForkServer()
    try:
        while True:
            try:
                request = protocol.read_frame(channel_in)
            except protocol.ProtocolError:
                return 2
            if request is None or request.get("op") == "exit":
                return 0
            if request.get("op") == "ping":
                protocol.write_frame(channel_out, {"pong": os.getpid(), "uid": os.getuid(),
                                                   "threading": "threading" in sys.modules})
                continue
            bodies, response = server.run(request)
            response["id"] = request.get("id")
            protocol.write_frame(channel_out, response)
            for body in bodies:
                protocol.write_raw(channel_out, protocol.HEADER.pack(len(body)) + body)
            server.tidy(wait=False)  # the game's leftovers die while the grader reads the answer
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(main())

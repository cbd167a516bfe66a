"""The memory stage of every C game: replay every scenario natively under AddressSanitizer + UBSan.

The submission's sources are compiled once with a generated driver (the
scenarios as a table of decks and moves, one ``replay`` function) and
``-fsanitize=address,undefined``; one sandboxed process then replays every
scenario in a forked child of its own (two at a time), with leak detection on,
a CPU-time limit and a memory cap per replay (wall time only as a far
backstop, so a busy machine changes no verdict).  Nothing is symbolized during
the replays; the frames of the reports shown are named afterwards, in one lookup.
After every move the driver makes the grader's own calls (the game's ``touch``:
its probes in the grader's order), so their memory errors show too.  It prints a marker before every move, so a
report is tied to the scenario and to the call that caused it ("destroyGame
after 9 moves: 2 allocations leaked").  Where the compiler has no sanitizers,
valgrind is the backend instead (its reports of uninitialised values count as
memory errors too).  What a game's driver says in its own C (its header's
names, the scenarios as data, the replay of one, the queries after a move) is
its ``Dialect``, which every game gives (``grader.games.<game>.memcheck``).

Each scenario is replayed exactly as far as its scenario test could play it
(``Plan``, from the test's result: the moves made with the submission's
agreement, ``played_moves``), with the probes that test left out left out, so
a replay shows memory where the grader saw the game, and nothing else.

Marks for evidence, one bug one deduction: a replay counts if it made at least
one move (a newGame that returns NULL shows nothing about memory); it earns if
it reached its final marker and exited 0.  A crash or hang in the replay of a
scenario whose test was already charged a crash or hang for it is not charged
again: that replay leaves the count.  A submission none of whose replays made
a move earns no memory marks (``NOT_SHOWN``: no evidence).

A memory error seen only in scenarios whose test already failed is most likely
that failure's own consequence (a recycle that takes the wrong cards pops an
empty pile), so it is a note charged to those scenarios.  A memory error that
also shows in a scenario that passed costs the memory marks.
"""

from __future__ import annotations

import math
import re
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from grader.core.build import CC, as_paths, trim
from grader.core.classify import BUDGET_SPENT
from grader.core.isolation import KEEP_BYTES, prepare_dir, run_limited
from grader.core.results import TestResult, Verdict

if TYPE_CHECKING:
    from grader.core.build import BuildResult
    from grader.core.sandbox.limits import Limits

MEMORY_CAP_MB = 512  # what one replay may allocate (ASan's own accounting; the sandbox cannot cap ASan)
SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
ASAN_ENV = {
    "PATH": "/usr/bin:/bin",
    "ASAN_OPTIONS": ("detect_leaks=1:halt_on_error=1:exitcode=23:allocator_may_return_null=1:symbolize=0:"
                     f"max_allocation_size_mb={MEMORY_CAP_MB}:hard_rss_limit_mb={MEMORY_CAP_MB}"),
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=23:symbolize=0",
    "LSAN_OPTIONS": "exitcode=23",
}
SHORT_RUN_SECONDS = 1  # CPU seconds per replay once the submission has hung somewhere
HANGS_BEFORE_GIVING_UP = 3  # a submission that hangs this often (where no test charged it): the rest is not run
REPLAY_JOBS = 2  # replays at once (the fork runner)


def wall_backstop(cpu_seconds: float) -> float:
    """The real time a replay may take before it is cut anyway (code that sleeps uses no CPU): far beyond
    its CPU limit, so that a machine busy with other work changes no verdict."""
    return 5 * cpu_seconds + 10


CRASH = re.compile(r"ERROR: AddressSanitizer: (SEGV|stack-overflow|BUS|FPE|ILL|ABRT|deadly signal)|"
                   r"AddressSanitizer: (?:DEADLYSIGNAL|nested bug)|"
                   r"runtime error: (?:load of|store to|member access within|reference binding to) null pointer|"
                   r"Process terminating with default action of signal \d+ \(SIG(?:SEGV|BUS|FPE|ILL|ABRT)\)")
CAPPED = re.compile(r"AddressSanitizer: (hard rss limit exhausted|requested allocation size .* exceeds|"
                    r"allocation-size-too-big|out of memory)")
MARKER = re.compile(r"^@@ (.*)$", re.M)
MOVED = re.compile(r"^@@ the queries after move (\d+)$", re.M)  # every dialect's replay marks a move made so
ERROR = re.compile(r"ERROR: AddressSanitizer: ([\w-]+)|runtime error: (.*)|Invalid (read|write|free)|"
                   r"(Conditional jump or move depends on uninitialised value|Use of uninitialised value|"
                   r"Syscall param \S+ points to uninitialised)")

LEAK = re.compile(r"SUMMARY: AddressSanitizer: (\d+) byte\(s\) leaked in (\d+) allocation\(s\)")
VG_LEAK = re.compile(r"definitely lost: ([\d,]+) bytes in ([\d,]+) blocks")
FRAME = re.compile(r"#\d+ 0x[0-9a-f]+ in (\w+) ([^\s]+)")
VG_FRAME = re.compile(r"(?:at|by) 0x[0-9A-Fa-f]+: (\w+) \(([^)\s]+)\)")


@dataclass
class Finding:
    scenario: str
    kind: str  # "error" or "leak"
    call: str
    what: str
    frames: list[str]


STOP = r"""
/* The game cannot go on as the scenario does (a card not held, a move refused): end it cleanly. */
static void stop(Game game) {
    fprintf(stderr, "@@ destroyGame after move %d (the scenario's next move cannot be made in this game)\n",
            moveNumber);
    destroyGame(game);
    fprintf(stderr, "@@ end\n");
}
"""

# ``./memdriver all FIRST SHORT HANGS JOBS CAP_MB OUTPUT_BYTES FIRST_WALL SHORT_WALL``: every replay in a child of
# its own (a fork of this sanitized process: no exec, no sanitizer start-up per replay), JOBS at a time, each
# child's stderr in replayN.txt.  One line per replay on stdout: "@@result i exit signal killed capped cpu elapsed".
# The runner kills a replay past FIRST seconds of CPU time (SHORT once an earlier replay was killed so), past
# FIRST_WALL (SHORT_WALL) seconds of real time (a far backstop: code that sleeps uses no CPU), or past CAP_MB of
# memory (the sanitizer's own RSS watch does not survive a fork), and launches none once HANGS earlier ones hung
# where their scenario test had not already been charged a crash or a hang (``CHARGED``); the grader applies
# the same rule again on the CPU times, so the verdicts depend neither on the order in which parallel replays
# finished nor on how busy the machine was.  RLIMIT_CPU in each child is the kernel's backstop of the same limit.
RUNNER = r"""
#include <fcntl.h>
#include <math.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static long residentMb(pid_t pid) {
    char path[64];
    long size = 0, resident = 0;
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        if (fscanf(f, "%ld %ld", &size, &resident) != 2) {
            resident = 0;
        }
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

/* The CPU time (user + system) a running replay has used so far. */
static double cpuSeconds(pid_t pid) {
    char path[64], text[1024];
    unsigned long user = 0, system = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *name = strrchr(text, ')');  /* after the command's name, which may hold spaces */
    if (name == NULL || sscanf(name + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &user, &system) != 2) {
        return 0;
    }
    return (double)(user + system) / sysconf(_SC_CLK_TCK);
}

static double usedSeconds(const struct rusage *u) {
    return u->ru_utime.tv_sec + u->ru_utime.tv_usec / 1e6 + u->ru_stime.tv_sec + u->ru_stime.tv_usec / 1e6;
}

static void child(int i, long outputBytes, double cpuLimit) {
    char path[32];
    snprintf(path, sizeof path, "replay%d.txt", i);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        _exit(3);
    }
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    struct rlimit r = {(rlim_t)outputBytes, (rlim_t)outputBytes};
    setrlimit(RLIMIT_FSIZE, &r);
    signal(SIGXFSZ, SIG_DFL);
    struct rlimit cpu = {(rlim_t)ceil(cpuLimit) + 1, (rlim_t)ceil(cpuLimit) + 2};
    setrlimit(RLIMIT_CPU, &cpu);
    signal(SIGXCPU, SIG_DFL);
    planned(i);
    fflush(NULL);
    exit(0);
}

static int runAll(double first, double shortLimit, int hangsMax, int jobs, long capMb, long outputBytes,
                  double firstWall, double shortWall) {
    enum { MAX_JOBS = 8 };
    pid_t pid[MAX_JOBS] = {0};
    int index[MAX_JOBS], killed[MAX_JOBS], capped[MAX_JOBS];
    double started[MAX_JOBS];
    int hung[SCENARIO_COUNT + 1] = {0};
    int next = 0, running = 0;
    jobs = jobs < 1 ? 1 : jobs > MAX_JOBS ? MAX_JOBS : jobs;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (next < SCENARIO_COUNT || running > 0) {
        int hangsBefore = 0;
        for (int j = 0; j < next; j++) {
            hangsBefore += hung[j] && !CHARGED[j];
        }
        for (int slot = 0; slot < jobs && next < SCENARIO_COUNT && hangsBefore < hangsMax; slot++) {
            if (pid[slot] != 0) {
                continue;
            }
            fflush(NULL);
            pid_t p = fork();
            if (p == 0) {
                child(next, outputBytes, first);
            }
            if (p < 0) {
                break;
            }
            pid[slot] = p;
            index[slot] = next++;
            killed[slot] = capped[slot] = 0;
            started[slot] = now();
            running++;
        }
        if (hangsBefore >= hangsMax && running == 0) {
            break;
        }
        int status;
        struct rusage usage;
        pid_t done = wait4(-1, &status, WNOHANG, &usage);
        for (int slot = 0; slot < jobs; slot++) {
            if (pid[slot] == 0) {
                continue;
            }
            double elapsed = now() - started[slot];
            if (done == pid[slot]) {
                int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
                killed[slot] |= sig == SIGXCPU;  /* the kernel's backstop of the CPU limit */
                printf("@@result %d %d %d %d %d %.4f %.4f\n", index[slot], WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                       sig, killed[slot], capped[slot], usedSeconds(&usage), elapsed);
                hung[index[slot]] = killed[slot] && !capped[slot];  /* the memory cap is not a hang */
                pid[slot] = 0;
                running--;
                continue;
            }
            int earlierHung = 0;
            for (int j = 0; j < index[slot]; j++) {
                earlierHung |= hung[j];
            }
            double cpuLimit = earlierHung ? shortLimit : first, wallLimit = earlierHung ? shortWall : firstWall;
            if (!killed[slot] && (cpuSeconds(pid[slot]) > cpuLimit || elapsed > wallLimit)) {
                killed[slot] = 1;
                kill(pid[slot], SIGKILL);
            } else if (!killed[slot] && residentMb(pid[slot]) > capMb) {
                killed[slot] = capped[slot] = 1;
                kill(pid[slot], SIGKILL);
            }
        }
        if (done <= 0) {
            struct timespec pause = {0, 2000000};
            nanosleep(&pause, NULL);
        }
    }
    return 0;
}
"""


AT_MACRO = '#define AT(...) do { fprintf(stderr, "@@ " __VA_ARGS__); fputc(10, stderr); fflush(stderr); } while (0)'

# What the replay running follows (``planned`` sets it): the moves to make (-1: no plan, the game's own
# isValidMove decides), the probes left out (by the dialect's probe numbers) and the reference's pile depths
# at each step (two a step; NULL: not given).
PLAN_STATE = r"""
static int replayStop = -1;
static int skipNow[64];
static const int *stepDepths;
"""


class ReplayedScenario(Protocol):
    """A scenario as the memory stage reads it: its id, and its moves (how far a replay goes); the game's
    ``Dialect`` writes the rest of it as C."""

    @property
    def id(self) -> str: ...

    @property
    def moves(self) -> Sequence[object]: ...


class MemorySession(Protocol):
    """What the memory stage reads of a game's session: the build, and whether (under which limits) games hung."""

    @property
    def build(self) -> BuildResult: ...

    @property
    def limits(self) -> Limits: ...

    @property
    def timeouts(self) -> int: ...

    @property
    def out_of_budget(self) -> bool: ...  # its games spent the submission's whole time budget


@dataclass(frozen=True)
class Plan:
    """One scenario as the memory stage replays it: as far as its scenario test could play it.

    ``moves``: the moves to make (None: no plan -- every move the game's own isValidMove accepts, for a
    scenario given alone); ``skip``: the probes its test left out (they crashed or hung where another test
    owns them); ``failed``: its own test failed, so a memory error seen only in such scenarios is charged
    there; ``charged``: the crash or hang its test was already charged for ("crashed", "timed out", ...):
    a crash or hang in its replay is not charged again; ``replayed``: False when there is nothing to replay
    (a hang already charged where it is not known how far the game got)."""

    scenario: ReplayedScenario
    moves: int | None = None
    skip: frozenset[str] = frozenset()
    failed: bool = False
    charged: str = ""
    replayed: bool = True


HANGS = (Verdict.TIMED_OUT, Verdict.WORKER_LOST, Verdict.OUTPUT)  # a hang (or a flood): costly to meet again


# One entry of the memory stage's ``played``: a plan, a scenario with its test's result, or a scenario alone.
Played = Plan | tuple[ReplayedScenario, TestResult] | ReplayedScenario


def plan_of(item: Played) -> Plan:
    """The plan of one entry of the memory stage's ``played``: a ``Plan``, a (scenario, its ``TestResult``) pair
    (replayed as far as the test played with the submission's agreement: ``played_moves``, ``forced_at``), or a
    scenario alone (replayed as if its test had passed, with no plan of moves)."""
    if isinstance(item, Plan):
        return item
    if not isinstance(item, tuple):
        return Plan(item)
    scenario, t = item
    charged = t.verdict.value if t.verdict.family == "fail" and t.verdict is not Verdict.WRONG else ""
    # Where the game stopped (a crash, a hang, a card not in the hand), or the first move the submission's own
    # isValidMove refused and the grader made anyway (``forced_at``: playMove of it is undefined, A28).
    stops = [int(x) for x in (getattr(t, "played_moves", None), getattr(t, "forced_at", None)) if x is not None]
    if stops:
        moves: int | None = max(0, min(*stops, len(scenario.moves)))
    elif charged or not hasattr(t, "played_moves"):  # how far it got is unknown (a lost worker, an older result)
        moves = None
    else:  # every move made with the submission's agreement
        moves = len(scenario.moves)
    return Plan(scenario, moves, frozenset(t.skipped_probes), t.verdict.family == "fail", charged,
                replayed=not (charged and t.verdict in HANGS and moves is None))


def plan_source(plans: Sequence[Plan], d: Dialect) -> list[str]:
    """C: each replay's plan as data, and ``planned(i)``, which sets it and replays scenario i."""
    bits = {name: b for b, name in enumerate(d.probes[:64])}
    out = []
    stops = ", ".join(str(-1 if p.moves is None else p.moves) for p in plans)
    masks = ", ".join(f"{sum(1 << bits[n] for n in p.skip if n in bits):#x}ULL" for p in plans)
    charged = ", ".join("1" if p.charged else "0" for p in plans)
    out.append(f"static const int STOPS[SCENARIO_COUNT + 1] = {{{stops}{', ' if plans else ''}-1}};")
    out.append(f"static const unsigned long long SKIPS[SCENARIO_COUNT + 1] = {{{masks}{', ' if plans else ''}0}};")
    out.append(f"static const int CHARGED[SCENARIO_COUNT + 1] = {{{charged}{', ' if plans else ''}0}};")
    depths = []
    for i, p in enumerate(plans):
        if d.depths is None:
            depths.append("NULL")
            continue
        pairs = list(d.depths(p.scenario))
        out.append(f"static const int depths{i}[] = {{{', '.join(str(x) for pair in pairs for x in pair) or '0'}}};")
        depths.append(f"depths{i}")
    out.append(f"static const int *const DEPTHS[SCENARIO_COUNT + 1] = {{{', '.join(depths)}{', ' if plans else ''}"
               "NULL};")
    out.append(PLANNED)
    return out


PLANNED = r"""
static void planned(int i) {
    replayStop = STOPS[i];
    for (int b = 0; b < 64; b++) {
        skipNow[b] = (int)((SKIPS[i] >> b) & 1);
    }
    stepDepths = DEPTHS[i];
    replay(i);
}
"""


def driver_source(scenarios: Sequence[Played], dialect: Dialect) -> str:
    """One C program: ``./memdriver N`` replays scenario N, ``./memdriver all ...`` every one (``RUNNER``).

    The scenarios are data (the dialect's ``table``) played by one ``replay`` function (the dialect's), so
    the sanitized build stays small however many scenarios there are; each entry of ``scenarios`` is a
    scenario or a ``Plan`` (how far to replay it, the probes to leave out).  ``dialect``: the game's C."""
    d = dialect
    plans = [plan_of(x) for x in scenarios]
    out = ['#define RULE ""', d.prelude(), AT_MACRO, PLAN_STATE, d.touch(), STOP,
           *d.table([p.scenario for p in plans], d), d.replay, *plan_source(plans, d), RUNNER]
    out.append("int main(int argc, char **argv) {")
    out.append("    if (argc == 10 && strcmp(argv[1], \"all\") == 0) {")
    out.append("        return runAll(atof(argv[2]), atof(argv[3]), atoi(argv[4]), atoi(argv[5]), atol(argv[6]),")
    out.append("                      atol(argv[7]), atof(argv[8]), atof(argv[9]));")
    out.append("    }")
    out.append("    int n = argc > 1 ? atoi(argv[1]) : -1;")
    out.append("    if (n < 0 || n >= SCENARIO_COUNT) { return 2; }")
    out.append("    planned(n);")
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Dialect:
    """What differs between games and editions in the driver's C: the helpers it starts with (they include
    the game's header and declare ``moveNumber``), ``touch`` (the queries after every move), the scenarios
    as data (``table``) and the ``replay`` function that plays one, and the rules the tests cite.  Every
    game gives its own: nothing here is any game's by default."""

    prelude: Callable[[], str]
    touch: Callable[[], str]
    rules: tuple[str, ...]
    # The scenarios as C data: ends with SCENARIO_COUNT, SCENARIOS
    table: Callable[[Sequence[ReplayedScenario], Dialect], list[str]]
    replay: str  # C: ``static void replay(int i)``, marking every call with AT, ``stop`` when it cannot go on
    deck_arrays: DeckArrays | None = None  # a deck as C arrays (Final Card-Down's table)
    move_row: Callable[[object], str] | None = None  # a move as a row of the table (Final Card-Down's)
    # The probes ``touch`` can leave out (``skipNow[b]`` for probe b of this tuple; others are always made), and
    # the reference's pile depths at each step of a scenario (``stepDepths``; None: not used by ``touch``).
    probes: tuple[str, ...] = ()
    depths: Callable[[ReplayedScenario], Sequence[tuple[int, int]]] | None = None


class DeckArrays(Protocol):
    """``Dialect.deck_arrays``: a deck (its cards' keys) as the C arrays newGame takes, one line each."""

    def __call__(self, keys: Sequence[Sequence[int]], indent: str = ..., suffix: str = ...,
                 const: bool = ...) -> list[str]: ...


def _frames(text: str) -> list[str]:
    frames = []
    for fn, where in FRAME.findall(text) or VG_FRAME.findall(text):
        if fn.startswith(("__", "_start")) or "libsanitizer" in where or "memdriver.c" in where or fn in ("main",):
            continue
        if fn in ("replay", "planned", "child", "runAll"):
            break
        frames.append(f"{fn} ({where.split('/')[-1]})")
    return frames[:4]


def parse_report(scenario: str, stderr: str, backend: str) -> list[Finding]:
    """What the sanitizer (or valgrind) found, each tied to the last call marked before it.

    A plain crash (SEGV, a deadly signal) or the memory cap is not a finding: the replay
    simply did not run to the end (``replay_outcome``).  Valgrind's reports of a value never
    written being used are findings like the others (memory read before it was written)."""
    findings = []
    m = ERROR.search(stderr)
    if m and not CRASH.search(stderr) and not CAPPED.search(stderr):
        markers = MARKER.findall(stderr[: m.start()])
        what = (m.group(1) or (f"undefined behaviour: {m.group(2)}" if m.group(2) else "")
                or (f"invalid {m.group(3)}" if m.group(3) else "")
                or "use of an uninitialised value (memory read before it was ever written)")
        findings.append(Finding(scenario, "error", markers[-1] if markers else "loading", what,
                                _frames(stderr[m.start():])))
    leak = LEAK.search(stderr) if backend == "asan" else VG_LEAK.search(stderr)
    if leak and int(leak.group(1).replace(",", "")) > 0:
        markers = MARKER.findall(stderr)
        call = next((mk for mk in reversed(markers) if mk.startswith("destroyGame")), markers[-1] if markers else "")
        findings.append(Finding(scenario, "leak", call,
                                f"{leak.group(1)} bytes leaked in {leak.group(2)} allocation(s)",
                                _frames(stderr[stderr.find("leak of"):]) if "leak of" in stderr else []))
    return findings


def replay_outcome(r: Replay, findings: list[Finding]) -> str:
    """``ran`` if the replay reached its final marker and exited 0 (or only its findings stopped it);
    else why not: ``timed out``, ``memory cap``, ``crashed``, ``output limit``, or ``no game`` (newGame
    returned NULL: the replay had nothing to play)."""
    if r.timed_out:
        return "timed out"
    if r.capped or CAPPED.search(r.stderr):
        return f"memory cap ({MEMORY_CAP_MB} MiB)"
    if r.output_capped:
        return "output limit"
    markers = MARKER.findall(r.stderr)
    if findings and (r.returncode == 23 or (markers and markers[-1] == "end")):
        return "ran"  # stopped by the sanitizer's own report: the finding is the verdict
    if r.returncode == 0 and markers and markers[-1] == "end":
        return "ran"
    if r.returncode == 0 and markers and markers[-1] == "newGame":
        return "no game (newGame returned NULL)"
    return "crashed"


def moves_made(r: Replay) -> int:
    """How many moves the replay made (its markers say; 0 when newGame gave no game)."""
    return max((int(k) for k in MOVED.findall(r.stderr)), default=0)


def _sanitizers_work(work: Path) -> bool:
    probe = work / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    r = run_limited([CC, *SANITIZE, "probe.c", "-o", "probe"], work, 60, memory_mb=None)
    if r.returncode != 0:
        return False
    return run_limited(["./probe"], work, 20, memory_mb=None, env=ASAN_ENV).returncode == 0


@dataclass
class Replay:
    """How one scenario's sanitized replay went.  ``seconds``: the CPU time it used (0 when not measured:
    valgrind's replays are cut by the kernel's CPU limit instead)."""

    returncode: int | None
    stderr: str
    timed_out: bool
    output_capped: bool
    seconds: float
    capped: bool = False  # stopped at the memory cap


RESULT = re.compile(r"^@@result (\d+) (-?\d+) (\d+) (\d) (\d) ([\d.]+) ([\d.]+)$", re.M)
OUTPUT_BYTES = 1 << 20


def _replay_all(work: Path, n: int, first_limit: float) -> list[Replay | None]:
    """Every replay from one sanitized process (``RUNNER``): a fork each, two at a time, each cut by its CPU time."""
    # A far backstop for the whole runner: every replay at its wall backstop, two at a time.
    budget = wall_backstop(first_limit) * (n + 1) / REPLAY_JOBS + 60
    r = run_limited(["./memdriver", "all", str(first_limit), str(SHORT_RUN_SECONDS), str(HANGS_BEFORE_GIVING_UP),
                     str(REPLAY_JOBS), str(MEMORY_CAP_MB), str(OUTPUT_BYTES), str(wall_backstop(first_limit)),
                     str(wall_backstop(SHORT_RUN_SECONDS))], work, budget, memory_mb=None, env=ASAN_ENV)
    replays: list[Replay | None] = [None] * n
    for m in RESULT.finditer(r.stdout):
        i, code, sig, killed, capped = (int(x) for x in m.groups()[:5])
        seconds = float(m.group(6))
        if not 0 <= i < n:
            continue
        report = work / f"replay{i}.txt"
        with report.open("rb") as f:
            text = f.read(KEEP_BYTES).decode(errors="replace")
        replays[i] = Replay(code if code >= 0 else None, text, bool(killed) and not capped,
                            sig == signal.SIGXFSZ, seconds, bool(capped))
    if r.timed_out:  # the runner itself ran out of time: what it had not reported timed out
        replays = [x or Replay(None, "", True, False, 0.0) for x in replays]
    reported = [x for x in replays if x is not None and (ERROR.search(x.stderr) or LEAK.search(x.stderr))]
    for x, text in zip(reported, symbolize(work, [x.stderr for x in reported])):
        x.stderr = text
    return replays


RAW_FRAME = re.compile(r"^(\s*#\d+ 0x[0-9a-f]+)\s+\((?:/work/)?memdriver\+0x([0-9a-f]+)\)$", re.M)


def symbolize(work: Path, texts: list[str]) -> list[str]:
    """The reports with the driver's frames named (``#1 0x.. in push /work/Game.c:49``).

    The sanitizers run with ``symbolize=0``: symbolizing in every replay starts a symbolizer per
    process, which made a leaking submission's stage ten times slower.  Here every distinct address
    is looked up once, by one ``addr2line`` in the sandbox."""
    offsets = sorted({off for t in texts for _, off in RAW_FRAME.findall(t)})
    if not offsets:
        return texts
    r = run_limited(["addr2line", "-f", "-e", "memdriver", *(f"0x{o}" for o in offsets)], work, 60,
                    memory_mb=None, keep=1 << 20)
    lines = r.stdout.splitlines()
    if r.returncode != 0 or len(lines) < 2 * len(offsets):
        return texts
    names = {o: (lines[2 * i], lines[2 * i + 1].split()[0]) for i, o in enumerate(offsets)}
    return [RAW_FRAME.sub(lambda m: f"{m.group(1)} in {names[m.group(2)][0]} {names[m.group(2)][1]}", t)
            for t in texts]


CPU_KILLED = (signal.SIGXCPU, signal.SIGKILL)  # RLIMIT_CPU: the soft limit's signal, then the hard one's


def _replay_each(work: Path, plans: Sequence[Plan], first_limit: float) -> list[Replay | None]:
    """Every replay as a process of its own, under valgrind (no fork runner there), cut by RLIMIT_CPU."""
    replays: list[Replay | None] = []
    hangs, any_hung = 0, False
    for i, plan in enumerate(plans):
        if hangs >= HANGS_BEFORE_GIVING_UP:
            replays.append(None)
            continue
        limit = SHORT_RUN_SECONDS if any_hung else first_limit
        argv = ["valgrind", "-q", "--error-exitcode=23", "--leak-check=full",
                "--errors-for-leak-kinds=definite,indirect", "./memdriver", str(i)]
        r = run_limited(argv, work, wall_backstop(limit), memory_mb=None, env=ASAN_ENV,
                        cpu_seconds=max(1, math.ceil(limit)))
        # Killed by its CPU limit: the signal itself (no sandbox), or the sandbox's exit status 128 + signal.
        cpu_killed = (r.signal in CPU_KILLED or r.returncode in {128 + s for s in CPU_KILLED}
                      or "(SIGXCPU)" in r.stderr)
        timed_out = r.timed_out or cpu_killed
        any_hung |= timed_out
        hangs += timed_out and not plan.charged
        replays.append(Replay(r.returncode, r.stderr, timed_out, r.output_capped, 0.0))
    return replays


def run_memory_stage(session: MemorySession, played: Sequence[Played], dialect: Dialect) -> list[TestResult]:
    """Two tests: no memory errors, no leaks -- each failure names scenario and call.

    ``played``: the scenarios with their tests' results, ``(scenario, TestResult)`` (each replayed as far as
    its test played it, its left-out probes left out; see ``plan_of``), or ``Plan``s, or scenarios alone
    (replayed to their end as if they had passed).  ``dialect``: the game's C (its ``memcheck.py``)."""
    errors = TestResult("memory/no_memory_errors", "memory", dialect.rules, 1.0, Verdict.PASSED, kind="memory")
    leaks = TestResult("memory/no_leaks", "memory", (*dialect.rules, "destroyGame"), 1.0, Verdict.PASSED,
                       kind="memory")
    b = session.build
    if not b.ok or b.stage is None:
        for t in (errors, leaks):
            t.verdict, t.message = Verdict.NOT_RUN, "Not run: the submission did not compile."
        return [errors, leaks]
    if session.out_of_budget:
        for t in (errors, leaks):
            t.verdict, t.message = Verdict.NOT_RUN, BUDGET_SPENT
        return [errors, leaks]
    plans = [plan_of(x) for x in played]
    replayed = [p for p in plans if p.replayed]
    work = prepare_dir(b.stage.parent / "memory")
    for name in b.compiled_names + [p.name for p in b.stage.glob("*.h")]:
        shutil.copyfile(b.stage / name, work / name)
    for p in b.stage.glob("*.c"):  # included .c files must be there too
        if not (work / p.name).exists():
            shutil.copyfile(p, work / p.name)
    (work / "memdriver.c").write_text(driver_source(replayed, dialect))
    prepare_dir(work)
    backend = "asan" if _sanitizers_work(work) else "valgrind"
    flags = ["-std=gnu11", "-g", "-O0", "-I."] + (SANITIZE if backend == "asan" else [])
    built = run_limited([CC, *flags, "-o", "memdriver", "memdriver.c", *as_paths(b.compiled_names), "-lm"], work, 120,
                        memory_mb=None)
    if built.returncode != 0:
        for t in (errors, leaks):
            t.verdict = Verdict.NOT_RUN
            t.message = "Not run: the memory-check build failed:\n" + trim(built.stdout + built.stderr)
        return [errors, leaks]
    # The sanitizers slow a game down a few times; a game's own CPU limit, doubled, is plenty.  A hang is
    # paid in full once per submission: after one (here or in the scenario tests), the short limit.
    first_limit = (SHORT_RUN_SECONDS if session.timeouts
                   else max(SHORT_RUN_SECONDS, 2 * float(session.limits.cpu)))
    replays = (_replay_all(work, len(replayed), first_limit) if backend == "asan"
               else _replay_each(work, replayed, first_limit))
    findings: list[Finding] = []
    failed = {p.scenario.id for p in plans if p.failed}
    stopped: list[tuple[str, str]] = []  # counted replays that did not run clean to their end, and why
    excluded: list[tuple[str, str]] = []  # replays that show nothing either way, and why
    ran = counted = hangs = 0
    any_hung = False
    excluded.extend((p.scenario.id, f"not replayed (its test {p.charged} already, and how far it got is unknown)")
                    for p in plans if not p.replayed)
    for plan, r in zip(replayed, replays):
        sid = plan.scenario.id
        if hangs >= HANGS_BEFORE_GIVING_UP:
            excluded.append((sid, "not replayed (too many replays hung)"))
            continue
        if r is None:
            outcome, made = "crashed (the replay did not report)", 0
        else:
            limit = SHORT_RUN_SECONDS if any_hung else first_limit
            r.timed_out = r.timed_out or r.seconds > limit
            any_hung |= r.timed_out
            hangs += r.timed_out and not plan.charged
            found = parse_report(sid, r.stderr, backend)
            findings.extend(found)
            outcome, made = replay_outcome(r, found), moves_made(r)
        if outcome != "ran" and plan.charged:
            excluded.append((sid, f"{outcome}, where its scenario test was already charged ({plan.charged})"))
        elif made == 0:
            if outcome != "ran":
                excluded.append((sid, f"{outcome}, before any move"))
            elif plan.scenario.moves:  # (a scenario of no moves at all is simply not counted)
                excluded.append((sid, "no move made (its scenario test could make none)"))
        else:
            counted += 1
            if outcome == "ran":
                ran += 1
            else:
                stopped.append((sid, outcome))
    for test, kind, title in ((errors, "error", "memory errors"), (leaks, "leak", "memory leaks")):
        found = [f for f in findings if f.kind == kind]
        test.notes.append(f"backend: {'AddressSanitizer + UBSan' if backend == 'asan' else 'valgrind'}; "
                          f"{ran} of {counted} scenario replays ran to the end (each as far as its scenario test "
                          f"played); {first_limit:g} s of CPU time per replay"
                          + (" (your code had already hung in an earlier test: a hang is paid in full once)"
                             if session.timeouts else ""))
        if excluded:
            test.notes.append(f"{len(excluded)} replay(s) not counted either way (they show nothing about memory, "
                              "or what stopped them is charged already): "
                              + "; ".join(f"{sid}: {why}" for sid, why in excluded[:4]))
        if found and all(f.scenario in failed for f in found):
            test.notes.append(f"{title.capitalize()} showed only in scenarios that failed already, so they are "
                              f"not counted again here (fix those first): "
                              + "; ".join(f"{f.scenario}: {f.call}: {f.what}" for f in found[:4]))
            found = []
        if found:
            test.verdict = Verdict.WRONG
            lines = [f"{len(found)} scenario(s) showed {title}. The first ones:"]
            for f in found[:8]:
                where = f" in {' <- '.join(f.frames)}" if f.frames else ""
                lines.append(f"  {f.scenario}: {f.call}: {f.what}{where}")
            if kind == "leak":
                lines.append("destroyGame must free everything the game owns: every card (in hands, draw "
                             "pile and discard pile), the piles themselves and the game.")
            else:
                lines.append("Memory was used wrongly (freed memory used again, outside an array, memory read "
                             "before it was written, ...). Run the repro program of that scenario under the same "
                             "sanitizers (or valgrind) to see it.")
            test.message = "\n".join(lines)
            continue
        if counted == 0:
            test.verdict, test.earned = Verdict.NOT_SHOWN, 0.0
            test.message = ("No scenario replay made a move, so nothing shows about memory and no memory marks "
                            "are earned (a game must start and be played to show how it uses memory):\n"
                            + "\n".join(f"  {sid}: {why}" for sid, why in (stopped + excluded)[:8]))
            continue
        test.earned = ran / counted
        if ran < counted:
            if ran == 0:
                test.verdict = Verdict.WRONG
            test.message = (f"Only {ran} of {counted} scenario replays ran to the end under the sanitizers, so only "
                            f"that share of the memory marks is earned: a replay that crashed, hung or went over "
                            f"the {MEMORY_CAP_MB} MiB memory cap (where no scenario test had charged it already) "
                            f"says nothing about memory. The first of them:\n"
                            + "\n".join(f"  {sid}: {why}" for sid, why in stopped[:8]))
    return [errors, leaks]

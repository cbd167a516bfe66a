"""The memory stage: replay every scenario natively under AddressSanitizer + UBSan.

The submission's sources are compiled once with a generated driver (the
scenarios as a table of decks and moves, one ``replay`` function) and
``-fsanitize=address,undefined``; one sandboxed process then replays every
scenario in a forked child of its own (two at a time), with leak detection on,
a time limit and a memory cap per replay.  Nothing is symbolized during the
replays; the frames of the reports shown are named afterwards, in one lookup.
After every move the driver also calls the query functions, so their
memory errors show too.  It prints a marker before every move, so a report is
tied to the scenario and to the call that caused it ("destroyGame after 9
moves: 2 allocations leaked").  Where the compiler has no sanitizers, valgrind
is the backend instead.  What an edition's driver says in its own C (Game.h's
names, the queries after a move) is its ``Dialect``: ``FCD18`` here, 2017's in
``grader.games.fcd17s2.memcheck``.

Marks only for code that ran: a replay counts only if it reached its final
marker and exited 0, and the memory marks are earned in proportion to the
replays that did.  A replay that crashed, hung or hit the cap proves nothing
about memory; the crash itself is the scenario tests' business.

One bug, one deduction: a memory error seen only in scenarios whose test already
failed is most likely that failure's own consequence (a recycle that takes the
wrong cards pops an empty pile), so it is a note charged to those scenarios.
A memory error that also shows in a scenario that passed costs the memory marks.
"""

from __future__ import annotations

import re
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from grader.core.build import CC, trim
from grader.core.results import TestResult, Verdict
from grader.core.sandbox import KEEP_BYTES, prepare_dir, run_limited
from grader.games.fcd18s2.c_emit import deck_arrays, move_row, prelude
from grader.games.fcd18s2.observe import DECK_COUNT_PROBES, INT_PROBES
from grader.games.fcd18s2.scenarios import Scenario

MEMORY_CAP_MB = 512  # what one replay may allocate (ASan's own accounting; the sandbox cannot cap ASan)
SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
ASAN_ENV = {
    "PATH": "/usr/bin:/bin",
    "ASAN_OPTIONS": ("detect_leaks=1:halt_on_error=1:exitcode=23:allocator_may_return_null=1:symbolize=0:"
                     f"max_allocation_size_mb={MEMORY_CAP_MB}:hard_rss_limit_mb={MEMORY_CAP_MB}"),
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=23:symbolize=0",
    "LSAN_OPTIONS": "exitcode=23",
}
SHORT_RUN_SECONDS = 1
HANGS_BEFORE_GIVING_UP = 3  # a submission that hangs this often: the other replays are not run
REPLAY_JOBS = 2  # replays at once (the fork runner)
CRASH = re.compile(r"ERROR: AddressSanitizer: (SEGV|stack-overflow|BUS|FPE|ILL|ABRT|deadly signal)|"
                   r"AddressSanitizer: (?:DEADLYSIGNAL|nested bug)|"
                   r"runtime error: (?:load of|store to|member access within|reference binding to) null pointer")
CAPPED = re.compile(r"AddressSanitizer: (hard rss limit exhausted|requested allocation size .* exceeds|"
                    r"allocation-size-too-big|out of memory)")
MARKER = re.compile(r"^@@ (.*)$", re.M)
ERROR = re.compile(r"ERROR: AddressSanitizer: ([\w-]+)|runtime error: (.*)|Invalid (read|write|free)")

LEAK = re.compile(r"SUMMARY: AddressSanitizer: (\d+) byte\(s\) leaked in (\d+) allocation\(s\)")
VG_LEAK = re.compile(r"definitely lost: ([\d,]+) bytes in ([\d,]+) blocks")
FRAME = re.compile(r"#\d+ 0x[0-9a-f]+ in (\w+) ([^\s]+)")


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

REPLAY = r"""
/* Replay scenario i, marking every call on stderr.  A move the game's own isValidMove refuses, or whose
   card the current player does not hold, is not played (A28), as in the worker: the replay ends there. */
static void replay(int i) {
    const struct scenario *sc = &SCENARIOS[i];
    value values[sc->size];
    color colors[sc->size];
    suit suits[sc->size];
    memcpy(values, sc->values, sizeof values);
    memcpy(colors, sc->colors, sizeof colors);
    memcpy(suits, sc->suits, sizeof suits);
    AT("newGame");
    Game game = newGame(sc->size, values, colors, suits);
    if (game == NULL) {
        return;
    }
    AT("the queries after newGame");
    touch(game);
    for (int k = 1; k <= sc->length; k++) {
        const struct move *mv = &sc->moves[k - 1];
        AT("move %d: playMove(%s)", k, mv->text);
        playerMove m = {mv->action, mv->declared, NULL};
        if (mv->action == PLAY_CARD) {
            m.card = inHand(game, mv->v, mv->c, mv->s);
        }
        if ((m.action == PLAY_CARD && m.card == NULL) || !isValidMove(game, m)) {
            stop(game);
            return;
        }
        playMove(game, m);
        moveNumber = k;
        AT("the queries after move %d", k);
        touch(game);
    }
    AT("destroyGame after %d moves", sc->length);
    destroyGame(game);
    AT("end");
}
"""

# ``./memdriver all FIRST SHORT HANGS JOBS CAP_MB OUTPUT_BYTES``: every replay in a child of its own (a fork of
# this sanitized process: no exec, no sanitizer start-up per replay), JOBS at a time, each child's stderr in
# replayN.txt.  One line per replay on stdout: "@@result i exit signal killed capped elapsed".  The runner
# kills a replay past FIRST seconds (SHORT once an earlier replay was killed so) or past CAP_MB of memory
# (the sanitizer's own RSS watch does not survive a fork), and launches none once HANGS earlier ones hung;
# the grader applies the same rule again on the elapsed times, so the verdicts do not depend on the order
# in which parallel replays finished.
RUNNER = r"""
#include <fcntl.h>
#include <sys/resource.h>
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

static void child(int i, long outputBytes) {
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
    replay(i);
    fflush(NULL);
    exit(0);
}

static int runAll(double first, double shortLimit, int hangsMax, int jobs, long capMb, long outputBytes) {
    enum { MAX_JOBS = 8 };
    pid_t pid[MAX_JOBS] = {0};
    int index[MAX_JOBS], killed[MAX_JOBS], capped[MAX_JOBS];
    double started[MAX_JOBS];
    int hung[SCENARIO_COUNT] = {0};
    int next = 0, running = 0;
    jobs = jobs < 1 ? 1 : jobs > MAX_JOBS ? MAX_JOBS : jobs;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (next < SCENARIO_COUNT || running > 0) {
        int hangsBefore = 0;
        for (int j = 0; j < next; j++) {
            hangsBefore += hung[j];
        }
        for (int slot = 0; slot < jobs && next < SCENARIO_COUNT && hangsBefore < hangsMax; slot++) {
            if (pid[slot] != 0) {
                continue;
            }
            fflush(NULL);
            pid_t p = fork();
            if (p == 0) {
                child(next, outputBytes);
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
        pid_t done = waitpid(-1, &status, WNOHANG);
        for (int slot = 0; slot < jobs; slot++) {
            if (pid[slot] == 0) {
                continue;
            }
            double elapsed = now() - started[slot];
            if (done == pid[slot]) {
                printf("@@result %d %d %d %d %d %.4f\n", index[slot], WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                       WIFSIGNALED(status) ? WTERMSIG(status) : 0, killed[slot], capped[slot], elapsed);
                hung[index[slot]] = killed[slot] && !capped[slot];  /* the memory cap is not a hang */
                pid[slot] = 0;
                running--;
                continue;
            }
            int earlierHung = 0;
            for (int j = 0; j < index[slot]; j++) {
                earlierHung |= hung[j];
            }
            if (!killed[slot] && elapsed > (earlierHung ? shortLimit : first)) {
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


def fcd_scenario_table(scenarios: Sequence[Scenario], d: Dialect) -> list[str]:
    """Final Card-Down's scenarios as C data: ``struct move`` rows and the ``SCENARIOS`` table ``REPLAY`` reads."""
    out = ["struct move { action action; value v; color c; suit s; color declared; const char *text; };",
           "struct scenario { int size; const value *values; const color *colors; const suit *suits;",
           "                  int length; const struct move *moves; };"]
    for i, sc in enumerate(scenarios):
        out.extend(d.deck_arrays(sc.deck.keys, indent="", suffix=str(i), const=True))
        moves = ",\n    ".join(d.move_row(m) for m in sc.moves) or "{END_TURN, ZERO, RED, HEARTS, RED, \"\"}"
        out.append(f"static const struct move moves{i}[] = {{\n    {moves}}};")
    out.append(f"#define SCENARIO_COUNT {len(scenarios)}")
    table = ",\n    ".join(f"{{{len(sc.deck)}, values{i}, colors{i}, suits{i}, {len(sc.moves)}, moves{i}}}"
                          for i, sc in enumerate(scenarios))
    out.append(f"static const struct scenario SCENARIOS[SCENARIO_COUNT + 1] = {{\n    {table}}};")
    return out


AT_MACRO = '#define AT(...) do { fprintf(stderr, "@@ " __VA_ARGS__); fputc(10, stderr); fflush(stderr); } while (0)'


def driver_source(scenarios: Sequence[Any], dialect: Dialect | None = None) -> str:
    """One C program: ``./memdriver N`` replays scenario N, ``./memdriver all ...`` every one (``RUNNER``).

    The scenarios are data (the dialect's ``table``) played by one ``replay`` function (the dialect's), so
    the sanitized build stays small however many scenarios there are.  ``dialect``: the game's C (2018's)."""
    d = dialect or FCD18
    out = ['#define RULE ""', d.prelude(), AT_MACRO, d.touch(), STOP, *d.table(scenarios, d), d.replay, RUNNER]
    out.append("int main(int argc, char **argv) {")
    out.append("    if (argc == 8 && strcmp(argv[1], \"all\") == 0) {")
    out.append("        return runAll(atof(argv[2]), atof(argv[3]), atoi(argv[4]), atoi(argv[5]), atol(argv[6]),")
    out.append("                      atol(argv[7]));")
    out.append("    }")
    out.append("    int n = argc > 1 ? atoi(argv[1]) : -1;")
    out.append("    if (n < 0 || n >= SCENARIO_COUNT) { return 2; }")
    out.append("    replay(n);")
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def touch_source() -> str:
    """``touch(game)``: every query once, so that its memory errors show too (results unused:
    volatile keeps the calls).  The int queries come from the observation table."""
    ints = " + ".join(f"{c}(game)" for _n, c, _m in INT_PROBES)
    counts = " + ".join(f"{c}(game)" for _n, c, _m, n in DECK_COUNT_PROBES if n == 0)
    return TOUCH.replace("INT_QUERIES", f"{ints} + {counts}")


TOUCH = r"""
static void touch(Game game) {
    volatile int sink = 0;
    sink += INT_QUERIES;
    sink += (topDiscard(game) != NULL) + (getDeckCard(game, 0) != NULL) + (getDiscardPileCard(game, 0) != NULL);
    for (int p = 0; p < NUM_PLAYERS; p++) {
        sink += playerCardCount(game, p) + playerPoints(game, p) + (getHandCard(game, p, 0) != NULL);
    }
    int n = handCardCount(game);
    for (int i = 0; i < n && i < 1000; i++) {
        Card card = handCard(game, i);
        if (card != NULL) {
            playerMove m = {PLAY_CARD, RED, card};
            sink += isValidMove(game, m) + cardValue(card);
        }
    }
    playerMove draw = {DRAW_CARD, RED, NULL}, end = {END_TURN, RED, NULL};
    sink += isValidMove(game, draw) + isValidMove(game, end);
    (void)sink;
}
"""


@dataclass(frozen=True)
class Dialect:
    """What differs between games and editions in the driver's C: the helpers it starts with (they include
    the game's header and declare ``moveNumber``), ``touch`` (the queries after every move), the scenarios
    as data (``table``) and the ``replay`` function that plays one (Final Card-Down's by default, from a
    deck and a move as data), and the rules the tests cite."""

    prelude: Callable[[], str]
    touch: Callable[[], str]
    rules: tuple[str, ...]
    deck_arrays: Callable[..., list[str]] | None = None  # as ``c_emit.deck_arrays`` (Final Card-Down's table)
    move_row: Callable[[Any], str] | None = None  # a move -> ``{ACTION, value, colour, suit, declared, "notation"}``
    table: Callable[[Sequence[Any], Dialect], list[str]] = fcd_scenario_table  # ends with SCENARIO_COUNT, SCENARIOS
    replay: str = REPLAY  # C: ``static void replay(int i)``, marking every call with AT, ``stop`` when it cannot go on


FCD18 = Dialect(prelude=prelude, touch=touch_source, deck_arrays=deck_arrays, move_row=move_row, rules=("R18",))


def _frames(text: str) -> list[str]:
    frames = []
    for fn, where in FRAME.findall(text):
        if fn.startswith(("__", "_start")) or "libsanitizer" in where or "memdriver.c" in where or fn in ("main",):
            continue
        if fn in ("replay", "child", "runAll"):
            break
        frames.append(f"{fn} ({where.split('/')[-1]})")
    return frames[:4]


def parse_report(scenario: str, stderr: str, backend: str) -> list[Finding]:
    """What the sanitizer (or valgrind) found, each tied to the last call marked before it.

    A plain crash (SEGV, a deadly signal) or the memory cap is not a finding: the replay
    simply did not run to the end (``replay_outcome``)."""
    findings = []
    m = ERROR.search(stderr)
    if m and not CRASH.search(stderr) and not CAPPED.search(stderr):
        markers = MARKER.findall(stderr[: m.start()])
        what = m.group(1) or (f"undefined behaviour: {m.group(2)}" if m.group(2) else f"invalid {m.group(3)}")
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
    else why not: ``timed out``, ``memory cap``, ``crashed``, ``output limit``."""
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
    return "crashed"


def _sanitizers_work(work: Path) -> bool:
    probe = work / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    r = run_limited([CC, *SANITIZE, "probe.c", "-o", "probe"], work, 60, memory_mb=None)
    if r.returncode != 0:
        return False
    return run_limited(["./probe"], work, 20, memory_mb=None, env=ASAN_ENV).returncode == 0


@dataclass
class Replay:
    """How one scenario's sanitized replay went."""

    returncode: int | None
    stderr: str
    timed_out: bool
    output_capped: bool
    seconds: float
    capped: bool = False  # stopped at the memory cap


RESULT = re.compile(r"^@@result (\d+) (-?\d+) (\d+) (\d) (\d) ([\d.]+)$", re.M)
OUTPUT_BYTES = 1 << 20


def _replay_all(work: Path, n: int, first_limit: float) -> list[Replay | None]:
    """Every replay from one sanitized process (``RUNNER``): a fork each, two at a time."""
    budget = first_limit + n * first_limit / REPLAY_JOBS + 60  # a safety net: the runner times each replay
    r = run_limited(["./memdriver", "all", str(first_limit), str(SHORT_RUN_SECONDS), str(HANGS_BEFORE_GIVING_UP),
                     str(REPLAY_JOBS), str(MEMORY_CAP_MB), str(OUTPUT_BYTES)], work, budget, memory_mb=None,
                    env=ASAN_ENV)
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
        replays = [x or Replay(None, "", True, False, budget) for x in replays]
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


def _replay_each(work: Path, n: int, first_limit: float) -> list[Replay | None]:
    """Every replay as a process of its own, under valgrind (no fork runner there)."""
    replays: list[Replay | None] = []
    timeouts = 0
    for i in range(n):
        if timeouts >= HANGS_BEFORE_GIVING_UP:
            replays.append(None)
            continue
        argv = ["valgrind", "-q", "--error-exitcode=23", "--leak-check=full",
                "--errors-for-leak-kinds=definite,indirect", "./memdriver", str(i)]
        r = run_limited(argv, work, first_limit if timeouts == 0 else SHORT_RUN_SECONDS, memory_mb=None,
                        env=ASAN_ENV)
        timeouts += r.timed_out
        replays.append(Replay(r.returncode, r.stderr, r.timed_out, r.output_capped, r.seconds))
    return replays


def run_memory_stage(session: Any, scenarios: Sequence[Scenario], not_replayed: Sequence[str] = (),
                     failed: Sequence[str] = (), dialect: Dialect = FCD18) -> list[TestResult]:
    """Two tests: no memory errors, no leaks -- each failure names scenario and call.

    ``not_replayed``: scenarios left out because they hung or flooded the output in the
    scenario tests; they count among the replays that did not run to the end.
    ``failed``: scenarios whose own test failed; what shows only in those is charged there.
    ``dialect``: the edition's C (``FCD18``; 2017's is ``grader.games.fcd17s2.memcheck.FCD17``)."""
    errors = TestResult("memory/no_memory_errors", "memory", dialect.rules, 1.0, Verdict.PASSED, kind="memory")
    leaks = TestResult("memory/no_leaks", "memory", (*dialect.rules, "destroyGame"), 1.0, Verdict.PASSED,
                       kind="memory")
    b = session.build
    if not b.ok or b.stage is None:
        for t in (errors, leaks):
            t.verdict, t.message = Verdict.NOT_RUN, "Not run: the submission did not compile."
        return [errors, leaks]
    work = prepare_dir(b.stage.parent / "memory")
    for name in b.compiled_names + [p.name for p in b.stage.glob("*.h")]:
        shutil.copyfile(b.stage / name, work / name)
    for p in b.stage.glob("*.c"):  # included .c files must be there too
        if not (work / p.name).exists():
            shutil.copyfile(p, work / p.name)
    (work / "memdriver.c").write_text(driver_source(scenarios, dialect))
    prepare_dir(work)
    backend = "asan" if _sanitizers_work(work) else "valgrind"
    flags = ["-std=gnu11", "-g", "-O0", "-I."] + (SANITIZE if backend == "asan" else [])
    built = run_limited([CC, *flags, "-o", "memdriver", "memdriver.c", *b.compiled_names, "-lm"], work, 120,
                        memory_mb=None)
    if built.returncode != 0:
        for t in (errors, leaks):
            t.verdict = Verdict.NOT_RUN
            t.message = "Not run: the memory-check build failed:\n" + trim(built.stdout + built.stderr)
        return [errors, leaks]
    # The sanitizers slow a game down a few times; a game's own time limit, doubled, is plenty.  A hang
    # is paid in full once per submission: after one (here or in the scenario tests), the short limit.
    first_limit = SHORT_RUN_SECONDS if session.timeouts else max(SHORT_RUN_SECONDS, 2 * float(session.limits.wall))
    replays = (_replay_all(work, len(scenarios), first_limit) if backend == "asan"
               else _replay_each(work, len(scenarios), first_limit))
    findings: list[Finding] = []
    stopped: list[tuple[str, str]] = []  # replays that did not run to the end, and why
    ran = timeouts = 0
    for sc, r in zip(scenarios, replays):
        if timeouts >= HANGS_BEFORE_GIVING_UP:
            stopped.append((sc.id, "not replayed (too many replays hung)"))
            continue
        if r is None:
            stopped.append((sc.id, "crashed (the replay did not report)"))
            continue
        r.timed_out = r.timed_out or r.seconds > (first_limit if timeouts == 0 else SHORT_RUN_SECONDS)
        timeouts += r.timed_out
        found = parse_report(sc.id, r.stderr, backend)
        findings.extend(found)
        outcome = replay_outcome(r, found)
        if outcome == "ran":
            ran += 1
        else:
            stopped.append((sc.id, outcome))
    total = len(scenarios) + len(not_replayed)
    stopped.extend((sid, "not replayed (it timed out or flooded the output in the scenario tests)")
                   for sid in not_replayed)
    for test, kind, title in ((errors, "error", "memory errors"), (leaks, "leak", "memory leaks")):
        found = [f for f in findings if f.kind == kind]
        test.notes.append(f"backend: {'AddressSanitizer + UBSan' if backend == 'asan' else 'valgrind'}; "
                          f"{ran} of {total} scenario replays ran to the end; {first_limit:g} s per replay"
                          + (" (your code had already hung in an earlier test: a hang is paid in full once)"
                             if session.timeouts else ""))
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
                lines.append("Memory was used wrongly (freed memory used again, outside an array, ...). "
                             "Run the repro program of that scenario under the same sanitizers to see it.")
            test.message = "\n".join(lines)
            continue
        test.earned = ran / total if total else 0.0
        if ran < total:
            if ran == 0:
                test.verdict = Verdict.WRONG
            test.message = (f"Only {ran} of {total} scenario replays ran to the end under the sanitizers, so only "
                            f"that share of the memory marks is earned: a replay that crashed, hung or went over "
                            f"the {MEMORY_CAP_MB} MiB memory cap says nothing about memory. The first of them:\n"
                            + "\n".join(f"  {sid}: {why}" for sid, why in stopped[:8]))
    return [errors, leaks]

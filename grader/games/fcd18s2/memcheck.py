"""The memory stage: replay every scenario natively under AddressSanitizer + UBSan.

The submission's sources are compiled once with a generated driver (one
function per scenario) and ``-fsanitize=address,undefined``; each scenario then
runs as its own process, in the sandbox, with leak detection on and a memory
cap.  After every move the driver also calls the query functions, so their
memory errors show too.  It prints a marker before every move, so a report is
tied to the scenario and to the call that caused it ("destroyGame after 9
moves: 2 allocations leaked").  Where the compiler has no sanitizers, valgrind
is the backend instead.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from grader.core.build import CC, trim
from grader.core.results import TestResult, Verdict
from grader.core.sandbox import prepare_dir, run_limited
from grader.games.fcd18s2.c_emit import deck_arrays, move_declaration, prelude
from grader.games.fcd18s2.observe import DECK_COUNT_PROBES, INT_PROBES
from grader.games.fcd18s2.scenarios import Scenario
from reference import MoveSpec

MEMORY_CAP_MB = 512  # what one replay may allocate (ASan's own accounting; the sandbox cannot cap ASan)
SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
ASAN_ENV = {
    "PATH": "/usr/bin:/bin",
    "ASAN_OPTIONS": ("detect_leaks=1:halt_on_error=1:exitcode=23:allocator_may_return_null=1:symbolize=1:"
                     f"max_allocation_size_mb={MEMORY_CAP_MB}:hard_rss_limit_mb={MEMORY_CAP_MB}"),
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=23",
    "LSAN_OPTIONS": "exitcode=23",
}
RUN_SECONDS = 20
SHORT_RUN_SECONDS = 2
HANGS_BEFORE_GIVING_UP = 3  # a submission that hangs this often: the other replays are not run
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


def _move_c(spec: MoveSpec) -> str:
    """Make one move, as the worker would: a move the game's own isValidMove refuses, or whose card
    the current player does not hold, is not played (A28), and the replay ends there, cleanly."""
    return (f"{{ {move_declaration(spec)} if ((m.action == PLAY_CARD && m.card == NULL) || !isValidMove(game, m)) "
            f"{{ stop(game); return; }} playMove(game, m); }}")


STOP = r"""
/* The game cannot go on as the scenario does (a card not held, a move refused): end it cleanly. */
static void stop(Game game) {
    fprintf(stderr, "@@ destroyGame after move %d (the scenario's next move cannot be made in this game)\n",
            moveNumber);
    destroyGame(game);
    fprintf(stderr, "@@ end\n");
}
"""


def driver_source(scenarios: Sequence[Scenario]) -> str:
    """One C program: ``./memdriver N`` replays scenario N, marking every call on stderr."""
    out = ['#define RULE ""', prelude(),
           '#define AT(...) do { fprintf(stderr, "@@ " __VA_ARGS__); fputc(10, stderr); fflush(stderr); } while (0)',
           touch_source(), STOP]
    for i, sc in enumerate(scenarios):
        keys = sc.deck.keys
        out.append(f"static void scenario{i}(void) {{")
        out.extend(deck_arrays(keys))
        out.append('    AT("newGame");')
        out.append(f"    Game game = newGame({len(keys)}, values, colors, suits);")
        out.append("    if (game == NULL) { return; }")
        out.append('    AT("the queries after newGame");')
        out.append("    touch(game);")
        for k, spec in enumerate(sc.moves, 1):
            out.append(f'    AT("move {k}: playMove({spec})");')
            out.append(f"    {_move_c(spec)}")
            out.append(f"    moveNumber = {k};")
            out.append(f'    AT("the queries after move {k}");')
            out.append("    touch(game);")
        out.append(f'    AT("destroyGame after {len(sc.moves)} moves");')
        out.append("    destroyGame(game);")
        out.append('    AT("end");')
        out.append("}")
    names = ", ".join(f"scenario{i}" for i in range(len(scenarios)))
    out.append("static void (*const scenarios[])(void) = {" + names + "};")
    out.append("int main(int argc, char **argv) {")
    out.append("    int n = argc > 1 ? atoi(argv[1]) : -1;")
    out.append(f"    if (n < 0 || n >= {len(scenarios)}) {{ return 2; }}")
    out.append("    scenarios[n]();")
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


def _frames(text: str) -> list[str]:
    frames = []
    for fn, where in FRAME.findall(text):
        if fn.startswith(("__", "_start")) or "libsanitizer" in where or "memdriver.c" in where or fn in ("main",):
            continue
        if fn.startswith("scenario"):
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


def replay_outcome(r: Any, findings: list[Finding]) -> str:
    """``ran`` if the replay reached its final marker and exited 0 (or only its findings stopped it);
    else why not: ``timed out``, ``memory cap``, ``crashed``, ``output limit``."""
    if r.timed_out:
        return "timed out"
    if CAPPED.search(r.stderr):
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


def run_memory_stage(session: Any, scenarios: Sequence[Scenario],
                     not_replayed: Sequence[str] = (), failed: Sequence[str] = ()) -> list[TestResult]:
    """Two tests: no memory errors, no leaks -- each failure names scenario and call.

    ``not_replayed``: scenarios left out because they hung or flooded the output in the
    scenario tests; they count among the replays that did not run to the end.
    ``failed``: scenarios whose own test failed; what shows only in those is charged there."""
    errors = TestResult("memory/no_memory_errors", "memory", ("R18",), 1.0, Verdict.PASSED, kind="memory")
    leaks = TestResult("memory/no_leaks", "memory", ("R18", "destroyGame"), 1.0, Verdict.PASSED, kind="memory")
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
    (work / "memdriver.c").write_text(driver_source(scenarios))
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
    findings: list[Finding] = []
    stopped: list[tuple[str, str]] = []  # replays that did not run to the end, and why
    ran = timeouts = 0
    # The sanitizers slow a game down a few times; a game's own time limit, doubled, is plenty.
    first_limit = max(SHORT_RUN_SECONDS, 2 * float(session.limits.wall))
    for i, sc in enumerate(scenarios):
        if timeouts >= HANGS_BEFORE_GIVING_UP:
            stopped.append((sc.id, "not replayed (too many replays hung)"))
            continue
        argv = ["./memdriver", str(i)]
        if backend == "valgrind":
            argv = ["valgrind", "-q", "--error-exitcode=23", "--leak-check=full",
                    "--errors-for-leak-kinds=definite,indirect", *argv]
        seconds = first_limit if timeouts == 0 else SHORT_RUN_SECONDS  # a hang is paid in full once
        r = run_limited(argv, work, seconds, memory_mb=None, env=ASAN_ENV)
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
                          f"{ran} of {total} scenario replays ran to the end")
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

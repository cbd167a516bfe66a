"""The memory stage: replay every scenario natively under AddressSanitizer + UBSan.

The submission's sources are compiled once with a generated driver (one
function per scenario) and ``-fsanitize=address,undefined``; each scenario then
runs as its own process, in the sandbox, with leak detection on.  The driver
prints a marker before every API call, so a report is tied to the scenario and
to the call that caused it ("destroyGame after 9 moves: 2 allocations leaked").
Where the compiler has no sanitizers, valgrind is the backend instead.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from reference import Action, MoveSpec

from .build import CC, trim
from .repro import C_COLORS, C_SUITS, C_VALUES, PRELUDE
from .results import Outcome, TestResult
from .sandbox import prepare_dir, run_limited
from .scenarios import Scenario

SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
ASAN_ENV = {
    "PATH": "/usr/bin:/bin",
    "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1:exitcode=23:allocator_may_return_null=1:symbolize=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=23",
    "LSAN_OPTIONS": "exitcode=23",
}
RUN_SECONDS = 20
SHORT_RUN_SECONDS = 2
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
    if spec.action == Action.DRAW_CARD:
        return "{ playerMove m = {DRAW_CARD, RED, NULL}; playMove(game, m); }"
    if spec.action == Action.END_TURN:
        return "{ playerMove m = {END_TURN, RED, NULL}; playMove(game, m); }"
    v, c, s = spec.card_key  # type: ignore[misc]
    declared = C_COLORS[int(spec.next_color)] if spec.next_color is not None else "RED"
    return f"playMove(game, playing(game, {C_VALUES[v]}, {C_COLORS[c]}, {C_SUITS[s]}, {declared}));"


def driver_source(scenarios: Sequence[Scenario]) -> str:
    """One C program: ``./memdriver N`` replays scenario N, marking every call on stderr."""
    out = ['#define RULE ""', PRELUDE,
           '#define AT(...) do { fprintf(stderr, "@@ " __VA_ARGS__); fputc(10, stderr); fflush(stderr); } while (0)']
    for i, sc in enumerate(scenarios):
        keys = sc.deck.keys
        out.append(f"static void scenario{i}(void) {{")
        out.append(f"    value values[{len(keys)}] = {{{', '.join(C_VALUES[k[0]] for k in keys)}}};")
        out.append(f"    color colors[{len(keys)}] = {{{', '.join(C_COLORS[k[1]] for k in keys)}}};")
        out.append(f"    suit suits[{len(keys)}] = {{{', '.join(C_SUITS[k[2]] for k in keys)}}};")
        out.append('    AT("newGame");')
        out.append(f"    Game game = newGame({len(keys)}, values, colors, suits);")
        out.append("    if (game == NULL) { return; }")
        for k, spec in enumerate(sc.moves, 1):
            out.append(f'    AT("move {k}: playMove({spec}) or a query before it");')
            out.append(f"    {_move_c(spec)}")
            out.append(f"    moveNumber = {k};")
        out.append(f'    AT("destroyGame after {len(sc.moves)} moves");')
        out.append("    destroyGame(game);")
        out.append('    AT("end");')
        out.append("}")
    out.append("static void (*const scenarios[])(void) = {" + ", ".join(f"scenario{i}" for i in range(len(scenarios))) + "};")
    out.append("int main(int argc, char **argv) {")
    out.append("    int n = argc > 1 ? atoi(argv[1]) : -1;")
    out.append(f"    if (n < 0 || n >= {len(scenarios)}) {{ return 2; }}")
    out.append("    scenarios[n]();")
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


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
    """What the sanitizer (or valgrind) found, each tied to the last call marked before it."""
    findings = []
    m = ERROR.search(stderr)
    if m:
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


def _sanitizers_work(work: Path) -> bool:
    probe = work / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    r = run_limited([CC, *SANITIZE, "probe.c", "-o", "probe"], work, 60, memory_mb=None)
    if r.returncode != 0:
        return False
    return run_limited(["./probe"], work, 20, memory_mb=None, env=ASAN_ENV).returncode == 0


def run_memory_stage(session: Any, scenarios: Sequence[Scenario]) -> list[TestResult]:
    """Two tests: no memory errors, no leaks -- each failure names scenario and call."""
    errors = TestResult("memory/no_memory_errors", "memory", ("R18",), 1.0, Outcome.PASSED, kind="memory")
    leaks = TestResult("memory/no_leaks", "memory", ("R18", "destroyGame"), 1.0, Outcome.PASSED, kind="memory")
    b = session.build
    if not b.ok or b.stage is None:
        for t in (errors, leaks):
            t.outcome, t.message = Outcome.NOT_RUN, "Not run: the submission did not compile."
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
            t.outcome = Outcome.NOT_RUN
            t.message = "Not run: the memory-check build failed:\n" + trim(built.stdout + built.stderr)
        return [errors, leaks]
    findings: list[Finding] = []
    timeouts = 0
    for i, sc in enumerate(scenarios):
        argv = ["./memdriver", str(i)]
        if backend == "valgrind":
            argv = ["valgrind", "-q", "--error-exitcode=23", "--leak-check=full",
                    "--errors-for-leak-kinds=definite,indirect", *argv]
        seconds = RUN_SECONDS if timeouts < 3 else SHORT_RUN_SECONDS  # a looping submission: keep moving
        r = run_limited(argv, work, seconds, memory_mb=None, env=ASAN_ENV)
        timeouts += r.timed_out
        findings.extend(parse_report(sc.id, r.stderr, backend))
    for test, kind, title in ((errors, "error", "memory errors"), (leaks, "leak", "memory leaks")):
        found = [f for f in findings if f.kind == kind]
        test.notes.append(f"backend: {'AddressSanitizer + UBSan' if backend == 'asan' else 'valgrind'}; "
                          f"{len(scenarios)} scenarios replayed")
        if found:
            test.outcome = Outcome.WRONG
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
    return [errors, leaks]

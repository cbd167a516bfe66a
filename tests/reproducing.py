"""Run the C repro programs the grader writes, many at once: for the tests that check them.

A submission's failing tests each get a repro program (``GameSpec.write_repros``).  Compiling each with
the student's sources one by one costs a gcc run per program and submission; here every program of a set
is compiled once, into one object per program (its ``main`` renamed), and linked with each submission's
own sources beside a small dispatcher: ``./all 3`` runs program 3.  What each run printed and how it ended
is an ``Outcome``.
"""

from __future__ import annotations

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Sequence

CFLAGS = ["-std=gnu11", "-O0", "-w"]


class Verdictlike(Protocol):
    value: str


class Failed(Protocol):
    """What of a failing test (``grader.core.results.TestResult``) its repro is held to."""

    id: str
    verdict: Verdictlike
    failed_after: int | None
    dealt_as: str  # the deck rearranged for the submission's own deal: its program is that submission's alone


@dataclass(frozen=True)
class Outcome:
    """One repro program's run: its exit code and its last lines."""

    code: int
    text: str

    @property
    def passed(self) -> bool:
        return self.code == 0 and "passed" in self.text

    @property
    def failed_after(self) -> int | None:
        """The step a check failed at (``FAILED after move N``), or None."""
        m = re.search(r"FAILED after move (\d+)", self.text)
        return int(m.group(1)) if m else None

    @property
    def crashed(self) -> bool:
        return "CRASHED" in self.text

    @property
    def hung(self) -> bool:
        return "DID NOT RETURN" in self.text


def _gcc(args: Sequence[str], cwd: Path) -> None:
    done = subprocess.run(["gcc", *CFLAGS, *args], cwd=cwd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise AssertionError(f"gcc {' '.join(args[:6])} ...:\n{done.stderr[-3000:]}")


def compile_programs(programs: Sequence[Path], include: Path, work: Path) -> list[Path]:
    """One object per program (``main`` renamed ``repro_main_<i>``) and the dispatcher's, in ``work``."""
    work.mkdir(parents=True, exist_ok=True)
    wrappers = []
    for i, program in enumerate(programs):
        w = work / f"w{i}.c"
        w.write_text(f'#define main repro_main_{i}\n#include "{program.resolve()}"\n')
        wrappers.append(w)
    calls = "\n".join(f"        case {i}: return repro_main_{i}(argc, argv);" for i in range(len(programs)))
    # weak: a submission's executable links only its own programs; the others stay unresolved (NULL)
    decls = "\n".join(f"int repro_main_{i}() __attribute__((weak));" for i in range(len(programs)))
    (work / "dispatch.c").write_text(f"#include <stdlib.h>\n{decls}\nint main(int argc, char **argv) {{\n"
                                     f"    switch (atoi(argv[1])) {{\n{calls}\n    }}\n    return 99;\n}}\n")
    halves = [wrappers[::2], wrappers[1::2]]
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda half: half and _gcc(["-c", "-I", str(include), *map(str, half)], work), halves))
    _gcc(["-c", "dispatch.c"], work)
    return [work / f"w{i}.o" for i in range(len(programs))] + [work / "dispatch.o"]


def link_with(objects: Sequence[Path], sources: Sequence[Path], include: Path, exe: Path) -> Path:
    """The programs linked with a submission's own ``sources`` (compiled against the course ``include``)."""
    _gcc(["-o", str(exe), "-I", str(include), *map(str, objects), *map(str, sources)], exe.parent)
    return exe


def run_program(exe: Path, i: int, timeout: float = 60) -> Outcome:
    """Program ``i`` of ``exe``: its exit code and last lines (a run past ``timeout``: code -9)."""
    try:
        done = subprocess.run([str(exe), str(i)], capture_output=True, text=True, errors="replace",
                              timeout=timeout, cwd=exe.parent)
    except subprocess.TimeoutExpired:
        return Outcome(-9, "ran past the test's own time limit")
    return Outcome(done.returncode, "\n".join(done.stdout.splitlines()[-6:]))


def run_all(exe: Path, count: int) -> list[Outcome]:
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(lambda i: run_program(exe, i), range(count)))


def sources_of(folder: Path, include: Path, course: Sequence[str]) -> list[Path]:
    """A submission's own .c files of the course's list (``course``: e.g. Game.c, Card.c), the course's copy
    where it has none."""
    return [folder / name if (folder / name).exists() else include / name for name in course]


def matches(test: Failed, outcome: Outcome) -> bool:
    """Did the repro end as the grader's test did: a check failing at the step it failed at, a crash, a hang?"""
    verdict = test.verdict.value
    if verdict == "wrong result":
        return outcome.failed_after == test.failed_after
    if verdict == "crashed":
        return outcome.crashed
    if verdict == "timed out":
        return outcome.hung
    return not outcome.passed


def mismatches(failing: dict[Path, list[tuple[Failed, Path]]], passing: Sequence[Path], include: Path,
               course: Sequence[str], work: Path) -> list[str]:
    """Every repro against the submission it was written for (``failing``: folder -> (test, program) pairs)
    and against each of ``passing`` (the model, the readings): what did not end as it should, in words.  A
    program that deals the deck rearranged for its submission's own deal (``dealt_as``) is held to that
    submission alone: on a correct deal it is another game."""
    programs = [(folder, test, program) for folder, pairs in failing.items() for test, program in pairs]
    objects = compile_programs([p for _f, _t, p in programs], include, work / "objects")
    *each, dispatch = objects
    problems = []
    for folder in failing:
        own = [i for i, (f, _t, _p) in enumerate(programs) if f == folder]
        exe = link_with([each[i] for i in own] + [dispatch], sources_of(folder, include, course), include,
                        work / f"own_{folder.name}")
        for i in own:
            outcome = run_program(exe, i)
            test = programs[i][1]
            if not matches(test, outcome):
                problems.append(f"{folder.name} {test.id} ({test.verdict.value} after {test.failed_after}): "
                                f"repro said {outcome.text!r}")
    for folder in passing:
        exe = link_with(objects, sources_of(folder, include, course), include, work / f"all_{folder.name}")
        for (f, test, _p), outcome in zip(programs, run_all(exe, len(programs))):
            if not outcome.passed and not test.dealt_as:
                problems.append(f"{f.name}'s repro of {test.id} fails on {folder.name}: "
                                f"{outcome.text!r}")
    return problems

"""Build a student's test program against one implementation and run it, in the sandbox, under limits.

The test program is compiled once to an object, with the grader's ``<assert.h>`` first on the include
path (``c/assert.h``: a failed ``assert`` is recorded and the program carries on, so every failing
assertion is counted) and linked with ``c/fcd_check.c``, which also records ``abort()`` and
``exit(non-zero)`` (the way students' own check macros stop) with the line they were called from,
and fixes ``time()`` so that ``srand(time(NULL))`` plays the same games every run.  Each
implementation's objects are compiled once and kept in the grader's cache (the model, the readings and
the mutants are the same for every submission); a pairing is then one link and one run, both
sandboxed.  A test program that ``#include``s ``Game.c`` is compiled with each implementation instead.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import shutil
import signal
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from grader.core.build import CC, CFLAGS, INCLUDES_C, as_paths, find_sources, trim
from grader.core.cache import cache_dir
from grader.core.isolation import DETERMINISTIC_MALLOC, Completed, prepare_dir, run_limited

from .targets import OWN, Target, Targets

if TYPE_CHECKING:
    from grader.core.gamespec import GameSpec

SUPPORT = Path(__file__).resolve().parent / "c"
TEST_CFLAGS = ["-std=gnu11", "-g", "-O0", "-fno-omit-frame-pointer", "-w"]  # warnings are not the point here
WRAPS = ["-Wl,--wrap=abort,--wrap=exit,--wrap=time,--wrap=__assert_fail"]
LINK = ["-no-pie", *WRAPS, "-lm"]  # no PIE: a recorded caller address is an address in the file
RECORDS = "records.txt"
RECORDS_CAP = 1 << 20  # bytes of records read back
OUTPUT_KEEP = 4096  # bytes of a run's output kept for the report
OUTPUT_CAP = 16 << 20  # a run that prints more than this is stopped
COMPILE_SECONDS = 60.0


@dataclass(frozen=True)
class Check:
    """One failed check seen in a run: an assert, or a call to abort() or exit(non-zero)."""

    kind: str  # "assert", "abort", "exit"
    file: str
    line: int
    function: str
    detail: str  # the asserted expression, "abort()", "exit(1)"

    @property
    def key(self) -> str:
        """The check's place, which identifies it across runs: ``testGame.c:42``."""
        return f"{self.file}:{self.line}"


class CheckJSON(TypedDict):
    kind: str
    file: str
    line: int
    function: str
    detail: str


class RunJSON(TypedDict):
    """``Run.to_json``: its fields by name, each check as its fields."""

    target: str
    built: bool
    problem: str
    checks: list[CheckJSON]
    exit_code: int | None
    signal: int | None
    timed_out: bool
    output_capped: bool
    stdout: str
    stderr: str
    seconds: float


@dataclass
class Run:
    """What one pairing did: the student's tests built with one implementation, and run."""

    target: str
    built: bool = False
    problem: str = ""  # why it was not built or run ('' when it ran)
    checks: list[Check] = field(default_factory=list)  # failed checks of the test program, each place once
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    output_capped: bool = False
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0

    @property
    def outcome(self) -> str:
        """In a word or two: passed, failed checks, crashed (SIGSEGV), timed out, exit 3, not built."""
        if not self.built:
            return "not built"
        if self.timed_out:
            return "timed out"
        if self.output_capped:
            return "printed too much"
        if self.signal == signal.SIGXCPU:  # the CPU limit
            return "timed out"
        if self.signal is not None and not any(c.kind == "abort" for c in self.checks):
            return f"crashed (signal {self.signal})"
        if self.checks:
            return "failed checks"
        if self.exit_code:
            return f"exit {self.exit_code}"
        return "passed"

    def to_json(self) -> RunJSON:
        return {"target": self.target, "built": self.built, "problem": self.problem,
                "checks": [{"kind": c.kind, "file": c.file, "line": c.line, "function": c.function, "detail": c.detail}
                           for c in self.checks],
                "exit_code": self.exit_code, "signal": self.signal, "timed_out": self.timed_out,
                "output_capped": self.output_capped, "stdout": self.stdout, "stderr": self.stderr,
                "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: RunJSON) -> Run:
        return cls(data["target"], data["built"], data["problem"], [Check(**c) for c in data["checks"]],
                   data["exit_code"], data["signal"], data["timed_out"], data["output_capped"], data["stdout"],
                   data["stderr"], data["seconds"])


@dataclass
class CompiledTests:
    """The student's test program, compiled (or not) to an object."""

    ok: bool
    problem: str = ""
    output: str = ""  # the compiler's
    includes: frozenset[str] = frozenset()  # the .c files it #includes (then it is compiled with each target)
    seconds: float = 0.0


def _gcc(args: list[str], where: Path, timeout: float = COMPILE_SECONDS) -> Completed:
    prepare_dir(where)
    return run_limited([CC, *args], where, timeout, output_cap=1 << 20)


def _digest(paths: list[Path], *extra: str) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    for x in extra:
        h.update(x.encode())
    return h.hexdigest()[:24]


class SuiteBuild:
    """One submission's test program and the runs of it, in a scratch folder removed by ``close()``."""

    def __init__(self, folder: Path, game: GameSpec, targets: Targets, *, run_seconds: float, memory_mb: int,
                 cpu_seconds: int) -> None:
        """The limits of one run: ``run_seconds`` of wall time, ``cpu_seconds`` of CPU, ``memory_mb`` of address
        space (the marking configuration's)."""
        self.folder, self.game, self.targets = Path(folder).resolve(), game, targets
        self.wall_limit, self.memory_limit, self.cpu_limit = run_seconds, memory_mb, cpu_seconds
        self.work = Path(tempfile.mkdtemp(prefix="fcd-suite-"))
        self.work.chmod(0o755)
        self.stage = self.work / "test"
        self._pairings = itertools.count()
        self.program = self._compile_test()

    def close(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)

    def __enter__(self) -> SuiteBuild:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the test program -----------------------------------------------------------------------
    def _headers(self, dest: Path) -> None:
        """The student's own headers, then the course's over them (as the ADT's build does)."""
        for p in self.folder.iterdir():
            if p.is_file() and p.suffix == ".h":
                shutil.copyfile(p, dest / p.name)
        for header in self.game.course_headers:
            shutil.copyfile(self.game.include_dir / header, dest / header)
        (dest / "fcd_include").mkdir(exist_ok=True)
        shutil.copyfile(SUPPORT / "assert.h", dest / "fcd_include" / "assert.h")

    def _compile_test(self) -> CompiledTests:
        start = time.monotonic()
        source = self.folder / self.targets.test_file
        self.stage.mkdir(parents=True)
        shutil.copyfile(source, self.stage / source.name)
        self._headers(self.stage)
        shutil.copyfile(SUPPORT / "fcd_check.c", self.stage / "fcd_check.c")
        includes = frozenset(Path(p).name for p in INCLUDES_C.findall(source.read_text(errors="replace")))
        support = _gcc(["-O1", "-g", "-c", "fcd_check.c", "-o", "fcd_check.o"], self.stage)
        if support.returncode != 0:
            raise RuntimeError(f"the grader's fcd_check.c did not compile: {support.stderr[-2000:]}")
        if includes:  # compiled with each implementation; the model's build says whether it compiles at all
            self.program = CompiledTests(True, includes=includes)
            run = self._pairing(self.targets.model)
            shutil.rmtree(self.work / "runs")
            if not run.built:
                return CompiledTests(False, run.problem, "", includes, time.monotonic() - start)
            return CompiledTests(True, "", "", includes, time.monotonic() - start)
        done = _gcc([*TEST_CFLAGS, "-I", "fcd_include", "-I", ".", "-c", source.name, "-o", "test.o"], self.stage)
        output = trim(done.stdout + done.stderr)
        if done.timed_out or done.returncode != 0 or not (self.stage / "test.o").is_file():
            why = ("did not finish compiling within a minute" if done.timed_out else "does not compile")
            return CompiledTests(False, f"Your {source.name} {why}.", output, includes, time.monotonic() - start)
        return CompiledTests(True, "", output, includes, time.monotonic() - start)

    # -- an implementation's objects --------------------------------------------------------------
    def _sources(self, target: Target) -> tuple[list[Path], list[Path]]:
        """The target's files compiled, and the files they need beside them: the .c files they #include and
        the target's own headers (the course's headers are put over them)."""
        found = find_sources(target.folder, self.game)
        beside = [target.folder / n for n in found.part_of] + [
            h for h in sorted(target.folder.glob("*.h")) if h.name not in self.game.course_headers]
        return list(found.compiled), beside

    def _objects(self, target: Target, dest: Path) -> tuple[list[str], str]:
        """The target's object files, copied into ``dest`` (compiled once per content and kept in the cache,
        except the student's own); their names, and a problem ('' when they compiled)."""
        sources, beside = self._sources(target)
        headers = [self.game.include_dir / h for h in self.game.course_headers]
        key = _digest([*sorted(sources), *beside, *headers], CC, " ".join(CFLAGS))
        cache = cache_dir()
        kept = cache / "suite-objects" / key if cache is not None and target.kind != OWN else None
        names = [p.stem + ".o" for p in sources]
        if kept is not None and all((kept / n).is_file() for n in names):
            for n in names:
                shutil.copyfile(kept / n, dest / n)
            return names, ""
        build = dest / "impl"
        build.mkdir()
        for p in [*beside, *sources]:
            shutil.copyfile(p, build / p.name)
        for header in self.game.course_headers:
            shutil.copyfile(self.game.include_dir / header, build / header)
        done = _gcc([*CFLAGS, "-w", "-I", ".", "-c", *as_paths([p.name for p in sources])], build)
        if done.returncode != 0 or not all((build / n).is_file() for n in names):
            return [], f"{target.name}'s sources did not compile: {trim(done.stdout + done.stderr, 2000)}"
        if kept is not None:  # kept whole or not at all: written beside, then renamed into place
            kept.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(dir=kept.parent))
            for n in names:
                shutil.copyfile(build / n, tmp / n)
            try:
                tmp.rename(kept)
            except OSError:  # another process kept them first
                shutil.rmtree(tmp, ignore_errors=True)
        for n in names:
            shutil.copyfile(build / n, dest / n)
        return names, ""

    # -- one pairing ------------------------------------------------------------------------------
    def _pairing(self, target: Target) -> Run:
        run = Run(target.name)
        where = self.work / "runs" / f"{target.kind}-{target.name}-{next(self._pairings)}"
        where.mkdir(parents=True)
        shutil.copyfile(self.stage / "fcd_check.o", where / "fcd_check.o")
        if self.program.includes:
            test = self.targets.test_file
            shutil.copyfile(self.stage / test, where / test)
            self._headers(where)
            compiled, beside = self._sources(target)
            for p in [*beside, *compiled]:
                shutil.copyfile(p, where / p.name)
            alone = [p.name for p in compiled if p.name not in self.program.includes]
            done = _gcc([*TEST_CFLAGS, "-I", "fcd_include", "-I", ".", test, *alone, "fcd_check.o", *LINK,
                         "-o", "prog"], where)
        else:
            objects, problem = self._objects(target, where)
            if problem:
                run.problem = problem
                return run
            shutil.copyfile(self.stage / "test.o", where / "test.o")
            done = _gcc(["test.o", *objects, "fcd_check.o", *LINK, "-o", "prog"], where)
        if done.returncode != 0 or not (where / "prog").is_file():
            run.problem = _link_problem(done.stdout + done.stderr, target, self.targets.test_file)
            return run
        run.built = True
        prepare_dir(where)
        env = {"PATH": "/usr/bin:/bin", "LANG": "C", "FCD_RECORDS": RECORDS, "GLIBC_TUNABLES": DETERMINISTIC_MALLOC}
        done = run_limited(["./prog"], where, self.wall_limit, output_cap=OUTPUT_CAP, memory_mb=self.memory_limit,
                           env=env, keep=OUTPUT_KEEP, cpu_seconds=self.cpu_limit)
        code, run.signal = done.returncode, done.signal
        run.exit_code = code
        if run.signal is None and code is not None and 128 < code < 128 + 32:
            run.exit_code, run.signal = None, code - 128  # bwrap reports its child's death so
        run.timed_out, run.output_capped, run.seconds = done.timed_out, done.output_capped, done.seconds
        run.stdout, run.stderr = done.stdout, done.stderr
        run.checks = _read_checks(where, self.targets.test_file)
        return run

    def run(self, target: Target) -> Run:
        """The student's tests with ``target`` (never raises for what the student's code did)."""
        if not self.program.ok:
            return Run(target.name, problem=self.program.problem)
        return self._pairing(target)

    def run_all(self, targets: list[Target], jobs: int = 2) -> dict[str, Run]:
        """Every pairing, ``jobs`` at a time: target name -> run."""
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return dict(zip((t.name for t in targets), pool.map(self.run, targets)))


UNDEFINED = re.compile(r"undefined reference to `([^']+)'")
DUPLICATE = re.compile(r"multiple definition of `([^']+)'")


def _link_problem(output: str, target: Target, test_file: str) -> str:
    undefined = sorted(set(UNDEFINED.findall(output)))
    duplicate = sorted(set(DUPLICATE.findall(output)))
    if undefined:
        return (f"{test_file} does not link with {target.name}: it calls {', '.join(undefined)}, which the course's "
                f"headers do not declare. A test may only use the functions of the headers (helpers of your own "
                f"belong in {test_file} itself).")
    if duplicate:
        return (f"{test_file} does not link with {target.name}: {', '.join(duplicate)} is defined both in "
                f"{test_file} and in the implementation. Make your helpers static, or give them other names.")
    return f"{test_file} did not build with {target.name}: {trim(output, 2000)}"


def _read_checks(where: Path, test_file: str) -> list[Check]:
    path = where / RECORDS
    if not path.is_file():
        return []
    with path.open("rb") as f:
        lines = f.read(RECORDS_CAP).decode("utf-8", errors="replace").splitlines()
    raw = []
    for line in lines:
        parts = line.split("\t")
        if len(parts) != 6 or parts[0] not in ("assert", "abort", "exit"):
            continue  # a line the program wrote there itself, or cut short
        kind, file, number, function, caller, detail = parts
        raw.append((kind, Path(file).name, int(number) if number.isdigit() else 0, function, caller, detail))
    places = _callers(where, [r[4] for r in raw if r[0] != "assert"])
    checks, seen = [], set()
    for kind, file, line_no, function, caller, detail in raw:
        if kind != "assert":
            file, line_no, function = places.get(caller, ("?", 0, "?"))
            if file != test_file:  # the implementation's own abort() or exit(): its crash, not a check
                continue
        check = Check(kind, file, line_no, function, detail)
        if check.key not in seen:
            seen.add(check.key)
            checks.append(check)
    return checks


def _callers(where: Path, addresses: list[str]) -> dict[str, tuple[str, int, str]]:
    """Where each caller address is in the program's source (file name, line, function), via addr2line."""
    wanted = sorted({a for a in addresses if re.fullmatch(r"0x[0-9a-f]+", a)})[:64]
    if not wanted:
        return {}
    before = [hex(int(a, 16) - 1) for a in wanted]  # a return address is just after its call
    done = run_limited(["addr2line", "-f", "-e", "prog", *before], where, 30.0)  # (the program is the student's)
    lines = done.stdout.splitlines()
    out = {}
    for i, address in enumerate(wanted):
        if 2 * i + 1 >= len(lines):
            break
        function, place = lines[2 * i], lines[2 * i + 1].split(" ")[0]
        file, _, line = place.rpartition(":")
        out[address] = (Path(file).name or "?", int(line) if line.isdigit() else 0, function)
    return out

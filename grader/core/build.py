"""Build a submission's C into a shared library, the way real submissions need.

Which sources make the ADT: every ``.c`` file at the top of the submission
folder, except test drivers and AIs (testGame.c, player.c, runGame.c, ...),
files that define ``main``, and files another source ``#include``s (students
write ``#include "Card.c"`` in Game.c: compiling both would define every card
function twice).  A source the course handed out (Final Card-Down's Card.c:
``GameSpec.course_sources``) that no file of the submission provides is
compiled from the course's copy, and the report says so.  The course headers
always replace any the student kept, so the library has the interface the
grader calls.

The compiler runs with an argv list, never a shell; CC and CFLAGS may be
overridden from the environment; its output is captured, trimmed (head and
tail) and kept for the report.  The library gets a file name unique to its
contents: dlopen of a path that is already loaded returns the old code.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.core.gamespec import GameSpec
from grader.core.sandbox import prepare_dir, run_limited

CC = os.environ.get("CC", "gcc")
# -O1 -g: fast enough for thousands of games, and a debugger still makes sense of it.
# -std=gnu11: what first-year code compiles under (declarations anywhere, // comments, strdup).
# -fno-strict-aliasing, -fwrapv: keep undefined arithmetic and casts doing what students expect.
CFLAGS = shlex.split(os.environ.get(
    "CFLAGS", "-std=gnu11 -O1 -g -fno-strict-aliasing -fwrapv -Wall -Wextra -Wno-unused-parameter"))
LINK_FLAGS = ["-shared", "-fPIC", "-lm"]
NOT_ADT = re.compile(r"^(testgame|test_?game|player|rungame|run_?game|main|test.*|.*_test)\.c$", re.I)
DEFINES_MAIN = re.compile(r"^\s*(?:int|void)\s+main\s*\(", re.M)
INCLUDES_C = re.compile(r'^\s*#\s*include\s*"([^"]+\.c)"', re.M)
OUTPUT_KEEP = 4000  # characters of compiler output kept: head and tail
COMPILE_SECONDS = 60
COMPILE_OUTPUT_CAP = 1 << 20  # a #warning flood is killed past 1 MiB of diagnostics
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
MISSING_HEADER = re.compile(r"fatal error: ([^:\s]+): No such file or directory")


@dataclass
class SourceSet:
    """The files that make the ADT, and what the grader decided about the rest."""

    compiled: list[Path]
    ignored: dict[str, str] = field(default_factory=dict)  # file name -> why
    notes: list[str] = field(default_factory=list)
    course_sources_used: list[str] = field(default_factory=list)  # course files compiled in place of the student's


@dataclass
class BuildResult:
    ok: bool
    library: Path | None
    sources: SourceSet
    command: list[str]
    output: str  # compiler diagnostics, trimmed
    seconds: float
    missing: list[str] = field(default_factory=list)  # API functions not defined
    problem: str = ""  # why it failed, in plain words
    stage: Path | None = None  # the folder the sources were compiled in (course headers included)
    compiled_names: list[str] = field(default_factory=list)  # the .c files compiled, as named in ``stage``
    work_dir: Path | None = None  # everything the build wrote

    def cleanup(self) -> None:
        if self.work_dir is not None:
            shutil.rmtree(self.work_dir, ignore_errors=True)

    @property
    def notes(self) -> list[str]:
        return self.sources.notes


def trim(text: str, keep: int = OUTPUT_KEEP) -> str:
    """Strip colour codes; keep the head and the tail of long output."""
    text = ANSI.sub("", text)
    if len(text) <= keep:
        return text
    half = keep // 2
    cut = len(text) - 2 * half
    return f"{text[:half]}\n... [{cut} characters cut] ...\n{text[-half:]}"


def find_sources(folder: Path, game: GameSpec) -> SourceSet:
    candidates = sorted(p for p in folder.iterdir() if p.suffix == ".c" and p.is_file())
    texts = {p.name: p.read_text(errors="replace") for p in candidates}
    included: dict[str, str] = {}
    for name, text in texts.items():
        for inc in INCLUDES_C.findall(text):
            included[Path(inc).name] = name
    result = SourceSet(compiled=[])
    for p in candidates:
        if NOT_ADT.match(p.name):
            result.ignored[p.name] = "a test driver or player, not part of the ADT"
        elif DEFINES_MAIN.search(texts[p.name]):
            result.ignored[p.name] = "defines main(), so it is a program, not part of the ADT"
        elif p.name in included:
            result.ignored[p.name] = f"#included by {included[p.name]}"
            result.notes.append(f"{included[p.name]} #includes {p.name}, so {p.name} is compiled only "
                                f"as part of {included[p.name]}.")
        else:
            result.compiled.append(p)
    all_text = "".join(texts[p.name] for p in candidates if p.name not in result.ignored or p.name in included)
    for course_file, (function, definition) in game.course_sources.items():
        if not re.search(definition, all_text):
            result.compiled.append(game.include_dir / course_file)
            result.course_sources_used.append(course_file)
            result.notes.append(f"No {course_file} (no {function}) was handed in: "
                                f"built with the course's {course_file}.")
    for header in game.course_headers:
        mine = folder / header
        if mine.exists() and mine.read_text(errors="replace") != (game.include_dir / header).read_text():
            result.notes.append(f"Your {header} differs from the course's; the course's {header} was used.")
    return result


def build(folder: Path, game: GameSpec, *, extra_flags: list[str] | None = None,
          timeout: float = COMPILE_SECONDS) -> BuildResult:
    """Compile ``folder`` into ``libgame-<hash>.so``, in the sandbox, under limits.

    Everything happens in a fresh folder of the system's temporary directory that
    the sandbox user can reach (``BuildResult.work_dir``; ``cleanup()`` removes it).
    """
    folder = Path(folder).resolve()
    out_dir = Path(tempfile.mkdtemp(prefix="fcd-build-"))
    out_dir.chmod(0o755)
    sources = find_sources(folder, game)
    start = time.monotonic()
    if not any(p.parent == folder for p in sources.compiled):
        return BuildResult(False, None, sources, [], "", 0.0, work_dir=out_dir,
                           problem="No C source of the Game ADT was found (looked for .c files such as Game.c).")
    stage = out_dir / "src"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    # Copy the submission's own files (headers and included .c files too), then the course headers over them.
    for p in folder.iterdir():
        if p.is_file() and p.suffix in (".c", ".h"):
            shutil.copyfile(p, stage / p.name)
    for header in game.course_headers:
        shutil.copyfile(game.include_dir / header, stage / header)
    names = []
    for p in sources.compiled:
        if p.parent != folder:
            shutil.copyfile(p, stage / ("course_" + p.name))
            names.append("course_" + p.name)
        else:
            names.append(p.name)
    flags = CFLAGS + (extra_flags or [])
    digest = hashlib.sha256()
    for name in names + [" ".join(flags)]:
        digest.update(name.encode())
        if (stage / name).exists():
            digest.update((stage / name).read_bytes())
    name = f"libgame-{digest.hexdigest()[:16]}.so"
    command = [CC, *flags, "-I.", *LINK_FLAGS, "-o", name, *names]
    prepare_dir(stage)
    proc = run_limited(command, stage, timeout, output_cap=COMPILE_OUTPUT_CAP)
    output = trim(proc.stdout + proc.stderr)
    seconds = time.monotonic() - start
    built = stage / name
    if proc.timed_out:
        return BuildResult(False, None, sources, command, output, seconds, work_dir=out_dir,
                           problem=f"The compiler did not finish within {timeout:.0f} seconds.")
    if proc.output_capped:
        return BuildResult(False, None, sources, command, output, seconds, work_dir=out_dir,
                           problem="The compiler printed too much (over 1 MiB of messages) and was stopped.")
    if proc.returncode != 0 or not built.is_file():
        missing = MISSING_HEADER.findall(proc.stdout + proc.stderr)
        problem = "Your code did not compile. The compiler said:"
        if missing:
            problem = (f"Your code includes {', '.join(dict.fromkeys(missing))}, which is not in your submission "
                       f"and is not a course header ({', '.join(game.course_headers)}). Hand in every file your code "
                       f"needs, and do not depend on files you do not hand in. The compiler said:")
        return BuildResult(False, None, sources, command, output, seconds, work_dir=out_dir, problem=problem)
    lib_dir = prepare_dir(out_dir / "lib")  # only the library: this folder is mounted for the worker
    library = lib_dir / name
    shutil.copyfile(built, library)
    os.chmod(library, 0o755)
    return BuildResult(True, library, sources, command, output, seconds,
                       missing=missing_symbols(library, game.api_functions),
                       stage=stage, compiled_names=names, work_dir=out_dir)


def missing_symbols(library: Path, functions: tuple[str, ...]) -> list[str]:
    """API functions the library does not define (``nm -D --defined-only``)."""
    try:
        proc = subprocess.run(["nm", "-D", "--defined-only", str(library)], capture_output=True,
                              text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    defined = {line.split()[-1] for line in proc.stdout.splitlines() if line.strip()}
    return [name for name in functions if name not in defined]

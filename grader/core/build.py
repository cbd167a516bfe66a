"""Build a submission's C into a shared library, the way real submissions need.

Which sources make the ADT: every ``.c`` file at the top of the submission
folder, except test drivers and AIs (testGame.c, player.c, runGame.c, ...),
files that define ``main``, and files that a compiled source ``#include``s,
directly or down a chain (students write ``#include "Card.c"`` in Game.c:
compiling both would define every card function twice).  Only a compiled file's
includes count: a player.c that includes Game.c leaves Game.c compiled.  What
is compiled and what is left out, with why, is the first note of the build
(``fcd-grade`` prints it before building).  A source the course handed out
(Final Card-Down's Card.c: ``GameSpec.course_sources``) that no file of the
submission provides is compiled from the course's copy, and the report says
so.  The course headers always replace any the student kept, so the library
has the interface the grader calls.

A submission that looks written for another registered game (its headers, its functions: 2017's SAY_UNO,
Palace's Palace.h) is told so first, with the flag that grades it as that game (``lookalike``): in the
build's problem when it fails, as a note when it compiles anyway.

A library is loaded into the sandbox's Python worker, so before it is, every symbol it leaves undefined is
checked against what a C solution may call (``foreign_symbols``): the C library and libm, less the dynamic
loader's ``dlopen``/``dlsym`` family.  A library that reaches for anything else (the Python runtime's
``PyRun_SimpleString``, declared weak so that it links) is refused: a build failure naming the symbols and
the rule, with a status of its own ("refused").  A course widens the list with ``[build] allowed_symbols``.

A source saved in UTF-16 (or holding NUL bytes) fails the build with one line
saying so, before the compiler turns it into pages of ``stray '\377'``; any
other bytes are the compiler's to judge (Latin-1 comments compile).

The compiler runs with an argv list, never a shell; CC and CFLAGS may be
overridden from the environment; its output is captured, its errors put
first (they are what stops the build, and warnings often come before them),
trimmed (head and tail) and kept for the report.  The library gets a file name
unique to its contents: dlopen of a path that is already loaded returns the
old code.
"""

from __future__ import annotations

import functools
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
from grader.core.isolation import prepare_dir, run_limited

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
# gcc's diagnostics: a context line (the function a group of messages is in), the include chain before one,
# a message (file:line:col: kind: text, or a tool's "collect2: error: ..."), and its source lines indented.
DIAGNOSTIC_CONTEXT = re.compile(r"^\S.*: (?:In (?:function|member function|constructor|destructor)\b.*|At top level):$")
INCLUDED_FROM = re.compile(r"^In file included from ")
DIAGNOSTIC_NOTE = re.compile(r"^\S[^:]*:(?:\d+:){0,2} note: ")
DIAGNOSTIC_ERROR = re.compile(r"(?:^|: )(?:fatal )?error: ")
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
INCLUDED = re.compile(r'^\s*#\s*include\s*["<]([^">]+)[">]', re.M)
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*")
# Left undefined by every gcc shared object (crt's weak references), whatever the source.
TOOLCHAIN_SYMBOLS = frozenset({"_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable", "__gmon_start__",
                               "__cxa_finalize"})
# The C library's own door to other code: a library that may open libraries may call anything loaded.
LOADER_SYMBOLS = re.compile(
    r"^(?:dl(?:open|mopen|sym|vsym|info|addr|addr1|error|close|iterate_phdr)|_dl_.*|__libc_dl.*)$")
C_LIBRARIES = ("libc.so.6", "libm.so.6")
LOOKALIKE_READ = 1 << 20  # bytes of each file read for the hint (a huge file is the compiler's business)
LOOKALIKE_SHOWN = 3  # marks the hint names


@dataclass
class SourceSet:
    """The files that make the ADT, and what the grader decided about the rest."""

    compiled: list[Path]
    ignored: dict[str, str] = field(default_factory=dict)  # file name -> why
    part_of: dict[str, str] = field(default_factory=dict)  # an #included .c file -> the compiled file it is in
    files_note: str = ""  # the files compiled and left out, with why (also in ``notes``, first but for a hint)
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
    refused: list[str] = field(default_factory=list)  # symbols it needs from outside the C library (never loaded)
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


def errors_first(output: str) -> str:
    """The compiler's messages with its errors first (each with its context and source lines), then the
    rest in the compiler's order under a line saying so; unchanged when no error comes after another message."""
    blocks: list[tuple[bool, list[str], list[str]]] = []  # (an error?, its context, its lines)
    context: list[str] = []
    chain: list[str] = []  # "In file included from" lines, waiting for what they lead to
    for line in output.splitlines():
        if INCLUDED_FROM.match(line):
            chain = [line]
        elif line[:1].isspace() or not line:  # a source line, a caret, a "from" line of an include chain
            if chain:
                chain.append(line)
            elif blocks:
                blocks[-1][2].append(line)
            else:
                blocks.append((False, [], [line]))
        elif DIAGNOSTIC_CONTEXT.match(line):
            context, chain = [*chain, line], []
        elif DIAGNOSTIC_NOTE.match(line) and blocks and not chain:
            blocks[-1][2].append(line)
        else:
            blocks.append((bool(DIAGNOSTIC_ERROR.search(line)), context, [*chain, line]))
            chain = []
    if chain:
        blocks.append((False, [], chain))
    flags = [error for error, _, _ in blocks]
    if flags == sorted(flags, reverse=True):  # no error after another message: nothing to move
        return output
    lines: list[str] = []
    for part in (True, False):
        if not part:
            lines.append("--- the compiler's other messages (it printed some of them before its errors) ---")
        shown: list[str] = []
        for _, context, block in (b for b in blocks if b[0] is part):
            if context != shown:
                lines.extend(context)
                shown = context
            lines.extend(block)
    return "\n".join(lines) + ("\n" if output.endswith("\n") else "")


def _includes(texts: dict[str, str]) -> dict[str, list[str]]:
    """Each source's ``#include``d ``.c`` files that are in the submission, by name."""
    return {name: [inc for inc in (Path(i).name for i in INCLUDES_C.findall(text)) if inc in texts and inc != name]
            for name, text in texts.items()}


def find_sources(folder: Path, game: GameSpec) -> SourceSet:
    candidates = sorted(p for p in folder.iterdir() if p.suffix == ".c" and p.is_file())
    texts = {p.name: p.read_text(errors="replace") for p in candidates}
    includes = _includes(texts)
    result = SourceSet(compiled=[])
    adt = []
    for p in candidates:
        if NOT_ADT.match(p.name):
            result.ignored[p.name] = "a test driver or player, not part of the ADT"
        elif DEFINES_MAIN.search(texts[p.name]):
            result.ignored[p.name] = "defines main(), so it is a program, not part of the ADT"
        else:
            adt.append(p)
    # A file is compiled unless a compiled file includes it, directly or down a chain: the files no other
    # part of the ADT includes come first, and each takes in what it includes.
    included_by_adt = {inc for p in adt for inc in includes[p.name]}
    part_of = result.part_of
    for p in sorted(adt, key=lambda p: p.name in included_by_adt):
        if p.name in part_of:
            continue
        result.compiled.append(p)
        reach = [p.name]
        while reach:
            including = reach.pop()
            for inc in includes[including]:
                if inc != p.name and inc not in part_of:
                    part_of[inc] = p.name
                    reach.append(inc)
                    result.ignored[inc] = (f"#included by {including}, which is compiled" if including == p.name
                                           else f"#included by {including}, compiled as part of {p.name}")
    result.compiled.sort(key=lambda p: p.name)
    all_text = "".join(texts[name] for name in [*(p.name for p in result.compiled), *part_of])
    for course_file, (function, definition) in game.course_sources.items():
        if not re.search(definition, all_text):
            result.compiled.append(game.include_dir / course_file)
            result.course_sources_used.append(course_file)
            result.notes.append(f"No {course_file} (no {function}) was handed in: "
                                f"built with the course's {course_file}.")
    result.files_note = _files_note(result, folder)
    result.notes.insert(0, result.files_note)
    for header in game.course_headers:
        mine = folder / header
        if mine.exists() and mine.read_text(errors="replace") != (game.include_dir / header).read_text():
            result.notes.append(f"Your {header} differs from the course's; the course's {header} was used.")
    return result


def _files_note(sources: SourceSet, folder: Path) -> str:
    """What is compiled and what is left out, with why, in one line."""
    compiled = [p.name if p.parent == folder else f"the course's {p.name}" for p in sources.compiled]
    said = f"Compiled: {', '.join(compiled)}." if compiled else "Nothing to compile."
    if sources.ignored:
        said += " Left out: " + "; ".join(f"{name} ({why})" for name, why in sorted(sources.ignored.items())) + "."
    return said


def lookalike(folder: Path, game: GameSpec) -> str:
    """One line for a submission that looks written for another registered game than ``game``: which, by what,
    and the flag that grades it as that game; '' when ``game`` fits it as well as any other.

    A game's marks are its API headers and its ``hallmarks`` (file names, identifiers); those found in the
    submission's .c and .h files (a file handed in or ``#include``d, an identifier anywhere) are counted, and
    another game with more of them than ``game`` is named, by the marks ``game`` does not share."""
    from grader.games import GAMES, get  # noqa: PLC0415 - the registry, by name: no game is imported here

    files = sorted(p for p in folder.iterdir() if p.suffix in (".c", ".h") and p.is_file())
    text = "\n".join(_head(p) for p in files)
    names = {p.name for p in files} | {Path(i).name for i in INCLUDED.findall(text)}
    words = set(IDENTIFIER.findall(text))

    def found(spec: GameSpec) -> list[str]:
        marks = [*spec.api_headers, *spec.hallmarks.files]
        return [m for m in marks if m in names] + [w for w in spec.hallmarks.words if w in words]

    best, best_found = game, found(game)
    for name in GAMES:
        other = get(name)
        if other.name != game.name and other.hallmarks.flag and len(theirs := found(other)) > len(best_found):
            best, best_found = other, theirs
    if best is game:
        return ""
    own = {*game.api_headers, *game.hallmarks.files, *game.hallmarks.words}
    shown = [m for m in best_found if m not in own][:LOOKALIKE_SHOWN]
    return (f"This looks like a {best.title} submission (it uses {', '.join(shown)}), not {game.title}: "
            f"grade it with {best.hallmarks.flag}.")


def _head(path: Path) -> str:
    """The start of a file as text, for ``lookalike`` ('' if it cannot be read: the build says why, not the hint)."""
    try:
        with path.open("rb") as f:
            return f.read(LOOKALIKE_READ).decode(errors="replace")
    except OSError:
        return ""


def utf16_sources(folder: Path, sources: SourceSet, game: GameSpec) -> list[str]:
    """The files of the build that are in UTF-16 or hold NUL bytes (the compiler cannot read them as text)."""
    files = [p for p in sources.compiled if p.parent == folder]
    files += [folder / name for name in sources.part_of]
    files += [p for p in sorted(folder.glob("*.h")) if p.name not in game.course_headers]
    bad = []
    for p in files:
        data = p.read_bytes() if p.is_file() else b""
        if data.startswith(UTF16_BOMS) or b"\0" in data:
            bad.append(p.name)
    return bad


def encoding_problem(names: list[str]) -> str:
    """One line in place of the compiler's pages of ``stray '\\377'``: what to do about it."""
    one = len(names) == 1
    return (f"{', '.join(names)} {'is' if one else 'are'} in UTF-16 (or {'has' if one else 'have'} NUL bytes): "
            f"save {'it' if one else 'them'} as UTF-8 (plain text) and hand {'it' if one else 'them'} in again.")


def build(folder: Path, game: GameSpec, *, extra_flags: list[str] | None = None,
          timeout: float = COMPILE_SECONDS, allowed_symbols: frozenset[str] = frozenset()) -> BuildResult:
    """Compile ``folder`` into ``libgame-<hash>.so``, in the sandbox, under limits.

    Everything happens in a fresh folder of the system's temporary directory that
    the sandbox user can reach (``BuildResult.work_dir``; ``cleanup()`` removes it).
    """
    folder = Path(folder).resolve()
    out_dir = Path(tempfile.mkdtemp(prefix="fcd-build-"))
    out_dir.chmod(0o755)
    sources = find_sources(folder, game)
    start = time.monotonic()
    hint = lookalike(folder, game)

    def failed(problem: str, command: list[str], output: str = "", seconds: float = 0.0) -> BuildResult:
        """A build that failed: the hint to another game first, then why."""
        return BuildResult(False, None, sources, command, output, seconds, work_dir=out_dir,
                           problem=f"{hint}\n{problem}" if hint else problem)

    if not any(p.parent == folder for p in sources.compiled):
        return failed("No C source of the Game ADT was found (looked for .c files such as Game.c).", [])
    if bad := utf16_sources(folder, sources, game):
        return failed(encoding_problem(bad), [])
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
    digest = hashlib.sha256()  # every file of the stage: an included Card.c changes the library too
    for name in names + [" ".join(flags)] + sorted(p.name for p in stage.iterdir()):
        digest.update(name.encode())
        if (stage / name).is_file():
            digest.update((stage / name).read_bytes())
    name = f"libgame-{digest.hexdigest()[:16]}.so"
    command = [CC, *flags, "-I.", *LINK_FLAGS, "-o", name, *as_paths(names)]
    prepare_dir(stage)
    proc = run_limited(command, stage, timeout, output_cap=COMPILE_OUTPUT_CAP)
    output = trim(errors_first(ANSI.sub("", proc.stdout + proc.stderr)))
    seconds = time.monotonic() - start
    built = stage / name
    if proc.timed_out:
        return failed(f"The compiler did not finish within {timeout:.0f} seconds.", command, output, seconds)
    if proc.output_capped:
        return failed("The compiler printed too much (over 1 MiB of messages) and was stopped.", command, output,
                      seconds)
    if proc.returncode != 0 or not built.is_file():
        missing = MISSING_HEADER.findall(proc.stdout + proc.stderr)
        problem = "Your code did not compile. The compiler said:"
        if missing:
            problem = (f"Your code includes {', '.join(dict.fromkeys(missing))}, which is not in your submission "
                       f"and is not a course header ({', '.join(game.course_headers)}). Hand in every file your code "
                       f"needs, and do not depend on files you do not hand in. The compiler said:")
        return failed(problem, command, output, seconds)
    if refused := foreign_symbols(built, allowed_symbols):
        result = failed(refusal(refused), command, output, seconds)
        result.refused = refused
        return result
    if hint:  # it compiled all the same: still the first thing to read
        sources.notes.insert(0, hint)
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


def as_paths(names: list[str]) -> list[str]:
    """File names as a tool must read them: ``./--help.c``, never the option ``--help.c`` (a name that does not
    start with a dash is left as it is, so the compiler's messages name the file as the student does)."""
    return [f"./{n}" if n.startswith("-") else n for n in names]


def _symbols(library: Path, *which: str) -> list[str]:
    """The dynamic symbols ``nm -D`` lists (``--defined-only`` or ``--undefined-only``), without versions."""
    proc = subprocess.run(["nm", "-D", *which, str(library)], capture_output=True, text=True, timeout=30,
                          check=True)
    return [line.split()[-1].split("@")[0] for line in proc.stdout.splitlines() if line.strip()]


@functools.cache
def c_library_symbols() -> frozenset[str]:
    """What the C library and libm export (this machine's, as the library would be linked against them), less
    the dynamic loader's functions."""
    found: set[str] = set()
    for name in C_LIBRARIES:
        path = next((Path(d) / name for d in ("/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/lib64", "/lib",
                                                "/usr/lib64", "/usr/lib") if (Path(d) / name).is_file()), None)
        if path is None:
            raise RuntimeError(f"{name} was not found: the build cannot check what a library calls")
        found.update(_symbols(path, "--defined-only"))
    return frozenset(s for s in found if not LOADER_SYMBOLS.match(s))


def foreign_symbols(library: Path, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The symbols ``library`` needs from outside the C library and libm (its undefined ones, weak or not),
    beyond ``allowed`` (a course's ``[build] allowed_symbols``): [] for a C solution."""
    needed = _symbols(library, "--undefined-only")
    ok = c_library_symbols() | TOOLCHAIN_SYMBOLS | allowed
    return sorted({s for s in needed if s not in ok})


def refusal(symbols: list[str]) -> str:
    """Why a library is refused, in a student's words."""
    shown = ", ".join(symbols[:8]) + (f" and {len(symbols) - 8} more" if len(symbols) > 8 else "")
    return (f"Refused: your library calls {shown}, which {'is' if len(symbols) == 1 else 'are'} not part of the C "
            f"library. A Game ADT may use only the C standard library and the maths library (libm); the "
            f"grader does not load a library that calls anything else (the Python runtime, dlopen or dlsym, "
            f"another program's functions). Remove those calls and hand it in again.")

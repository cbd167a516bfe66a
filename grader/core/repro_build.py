"""How a repro folder is built against the student's own folder: what every C game's repro programs need.

A repro program replays one failing test.  It is built with one command, ``sh build.sh YOUR_FOLDER repro_x.c``,
that does what the grader's build did: the student's ``.c`` and ``.h`` files copied as they are (a ``Game.c``
that ``#include``s ``player.c`` finds it beside it), the course's headers over theirs, the course's files the
build compiled in place of missing ones (shipped in the folder), and a stub for each API function the
submission does not define, which stops with a message if the repro calls it, so every repro links.  The
README names every file the build used, the ``#include``d ones too.  (Each game writes its programs; this
module writes what builds them.)
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from grader.core.results import SubmissionResult

BUILD_SCRIPT = "build.sh"
STUBS = "repro_stubs.c"
COURSE_PREFIX = "course_"  # how the build names a course file compiled in place of the student's (``build.py``)
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


@dataclass(frozen=True)
class ReproSources:
    """What the submission's build compiled, as a repro needs it."""

    own: tuple[str, ...]  # the student's files compiled, by name in their folder
    course: tuple[str, ...]  # the course's files compiled in place of missing ones (shipped beside the repros)
    included: Mapping[str, str]  # a .c file #included by a compiled one -> that file
    missing: tuple[str, ...]  # API functions the submission does not define (stubbed)

    @classmethod
    def of(cls, result: SubmissionResult | object, fallback: Sequence[str]) -> ReproSources:
        """From a result's build; ``fallback``: the files to name when the result holds none (an old result, or
        a test's result made of tests alone)."""
        names = list(getattr(result, "build_sources", ())) or list(fallback)
        return cls(own=tuple(n for n in names if not n.startswith(COURSE_PREFIX)),
                   course=tuple(n.removeprefix(COURSE_PREFIX) for n in names if n.startswith(COURSE_PREFIX)),
                   included=dict(getattr(result, "build_included", {})),
                   missing=tuple(getattr(result, "build_missing", ())))

    def files_used(self) -> str:
        """The build's files in words: ``Game.c, Card.c and player.c (#included by Game.c)``."""
        words = list(self.own) + [f"{name} (#included by {by})" for name, by in sorted(self.included.items())]
        words += [f"the course's {name} (you handed in none)" for name in self.course]
        return ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1] if words else "no file"


def command(repro: str) -> str:
    """The one command that builds ``repro`` with the student's folder and runs it."""
    return f"sh {BUILD_SCRIPT} YOUR_FOLDER {repro}"


def declaration(header_text: str, function: str) -> str | None:
    """``function``'s declaration in a header, without its ``;`` (``Card newCard(value v, color c, suit s)``)."""
    text = _COMMENT.sub(" ", header_text)
    m = re.search(rf"(?:^|[;}}])\s*([A-Za-z_][\w \t\*]*?\b{re.escape(function)}\s*\([^;{{]*\))\s*;", text,
                  re.MULTILINE)
    return " ".join(m[1].split()) if m else None


def stub_source(headers: Mapping[str, str], missing: Sequence[str]) -> str:
    """A C file defining each of ``missing`` (declared in one of ``headers``: name -> text) to stop, saying so."""
    lines = ["/* What your code does not define, so that the repro links: each stops with a message if called. */",
             "#include <stdio.h>", "#include <stdlib.h>", *(f'#include "{h}"' for h in headers), ""]
    for function in missing:
        decl = next((d for text in headers.values() if (d := declaration(text, function))), None)
        if decl is None:
            continue
        lines += [f"{decl} {{",
                  f'    fprintf(stderr, "repro: your code does not define {function}(), which this test calls\\n");',
                  "    abort();", "}", ""]
    return "\n".join(lines)


def build_script(sources: ReproSources, course_headers: Sequence[str]) -> str:
    """``build.sh``: the grader's build of the student's folder, then the repro linked with it, then run."""
    own = " ".join(f'"$stage/{n}"' for n in sources.own)
    course = " ".join(f'"$here/{n}"' for n in sources.course)
    stubs = f' "$here/{STUBS}"' if sources.missing else ""
    holds = sources.own[0] if sources.own else "sources"
    theirs = f", the course's {', '.join(sources.course)}" if sources.course else ""
    return f"""#!/bin/sh
# Builds one repro with your own files and runs it:  sh {BUILD_SCRIPT} YOUR_FOLDER repro_NAME.c
# (YOUR_FOLDER: the folder that holds your {holds}.)  As the grader built your code: your .c and .h
# files copied together, the course's headers over yours{theirs}.
if [ $# -ne 2 ]; then echo "usage: sh {BUILD_SCRIPT} YOUR_FOLDER repro_NAME.c" >&2; exit 2; fi
sub=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
stage=$(mktemp -d) || exit 2
trap 'rm -rf "$stage"' EXIT
for f in "$sub"/*.c "$sub"/*.h; do [ -f "$f" ] && cp "$f" "$stage"/; done
for h in {" ".join(course_headers)}; do cp "$here/$h" "$stage/$h"; done
gcc -std=gnu11 -g -I"$stage" -o "$here/repro" "$here/$2" {own} {course}{stubs} -lm || exit 1
cd "$here" && ./repro
"""


def write_build_files(folder: Path, sources: ReproSources, repros: Sequence[str], include_dir: Path,
                      course_headers: Sequence[str], what: str) -> None:
    """Beside the repro programs: the course's headers and files, ``build.sh``, the stubs (of functions the
    course's headers declare), and the README (``what``: what a repro does, in the game's words)."""
    for name in (*course_headers, *sources.course):
        shutil.copyfile(include_dir / name, folder / name)
    if sources.missing:
        texts = {h: (include_dir / h).read_text() for h in course_headers}
        (folder / STUBS).write_text(stub_source(texts, sources.missing))
    (folder / BUILD_SCRIPT).write_text(build_script(sources, course_headers))
    stubbed = (f"Your code does not define {', '.join(sources.missing)}: {STUBS} defines each to stop with a "
               f"message if a repro calls it, so every repro builds.\n") if sources.missing else ""
    (folder / "README.txt").write_text(
        f"{what}\n\nYour build used {sources.files_used()}.\n{stubbed}"
        f"Build and run one with your own files, where they are (YOUR_FOLDER: the folder that holds them):\n\n"
        + "\n".join(command(n) for n in repros) + "\n")

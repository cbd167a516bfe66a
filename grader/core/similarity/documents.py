"""What is compared: each submission's documents, one per kind of file, and the course's boilerplate.

A kind is compared only with the same kind of another submission:

- ``implementation``: the game's implementation, the files the build compiles from the submission (and the
  ``.c`` files they ``#include``), as ``grader.core.build.find_sources`` finds them: ``Game.c``, ``Palace.c``, a
  helper file; the course's own sources (``Card.c``) are left out;
- ``tests``: the student's test program (the game's ``Targets.test_file``: ``testGame.c``);
- ``player``: ``player.c``.

The boilerplate is code every student was given: the game's headers, its card file (``course_sources``),
and the files and folders the staff name (``[similarity] boilerplate``: last year's solutions, a starter
file).  A document is text: its files' bytes as UTF-8 (others shown as U+FFFD), newlines as ``\\n``, joined in
name order; its hash (of that text) keys its fingerprints and its pairs in the store.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from grader.core.build import find_sources
from grader.core.gamespec import GameSpec

IMPLEMENTATION, TESTS, PLAYER = "implementation", "tests", "player"
KINDS = (IMPLEMENTATION, TESTS, PLAYER)
PLAYER_FILE = "player.c"
MAX_CHARS = 1 << 20  # characters of a document compared and shown (a student's file is rarely a tenth of it)
BOILERPLATE_SUFFIXES = (".c", ".h")  # what a boilerplate folder's files are compared as


@dataclass(frozen=True)
class Document:
    kind: str
    submission: str
    files: tuple[tuple[str, int], ...]  # (file name, where its text starts in ``text``)
    text: str
    cut: bool = False  # longer than MAX_CHARS: only the start is compared

    @property
    def hash(self) -> str:
        return text_hash(self.text)

    @property
    def names(self) -> str:
        return " + ".join(name for name, _ in self.files)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()[:24]


def read_text(path: Path) -> str:
    """A source file as text: UTF-8 (anything else replaced), newlines as ``\\n``."""
    return path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


def _document(kind: str, submission: str, paths: list[Path]) -> Document | None:
    if not paths:
        return None
    parts: list[tuple[str, int]] = []
    text = ""
    for p in sorted(paths, key=lambda p: p.name):
        body = read_text(p)
        parts.append((p.name, len(text)))
        text += body if body.endswith("\n") or not body else body + "\n"
    cut = len(text) > MAX_CHARS
    return Document(kind, submission, tuple(parts), text[:MAX_CHARS], cut)


def test_program(game: GameSpec) -> str | None:
    """The name of the game's students' test program (None: the game grades none here)."""
    targets = game.suite_targets() if game.suite_targets is not None else None
    return targets.test_file if targets is not None else None


def documents(submission: str, folder: Path, game: GameSpec, tests: str | None) -> Iterator[Document]:
    """The documents of one submission (its sources in ``folder``), a kind at a time; a kind it lacks is left out."""
    sources = find_sources(folder, game)
    own = [p for p in sources.compiled if p.parent == folder] + [folder / name for name in sources.part_of]
    kinds = {IMPLEMENTATION: [p for p in own if p.name not in game.course_sources],
             TESTS: [folder / tests] if tests else [], PLAYER: [folder / PLAYER_FILE]}
    for kind, paths in kinds.items():
        # a link is not followed: in a folder on the staff's disk it could name any file of theirs
        doc = _document(kind, submission, [p for p in paths if p.is_file() and not p.is_symlink()])
        if doc is not None:
            yield doc


def boilerplate_files(game: GameSpec, named: Iterable[Path]) -> list[Path]:
    """The course's code: the game's headers and card file, then every file the staff named (a folder: its .c
    and .h files, all the way down)."""
    files = [game.include_dir / h for h in game.course_headers] + [game.include_dir / s for s in game.course_sources]
    for path in named:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.suffix in BOILERPLATE_SUFFIXES and p.is_file())
        elif path.is_file():
            files.append(path)
    return [p for p in files if p.is_file()]

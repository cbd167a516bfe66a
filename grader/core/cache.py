"""A content-addressed store for what the grader computes the same way for every submission.

The reference's traces of the scenarios and of the grading profile's random
games do not depend on the submission: they are computed once per version of
the code that computes them and kept here, as JSON (never pickle: nothing read
back from disk can run code).  A value's key is a hash of everything it depends
on, the version included, so a stale entry is never read, only left behind.

Where: ``$FCD_CACHE_DIR``, else ``$XDG_CACHE_HOME/fcd-grader``, else
``~/.cache/fcd-grader``; ``FCD_CACHE_DIR=off`` turns the disk off (the
in-process memory still serves a batch worker's later submissions).  Only the
trusted grader reads and writes it; the sandbox does not mount it (in the
documented degraded mode without bubblewrap it is as readable as the grader's
own files, the reference included).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar, cast

import orjson

from grader.core.digest import digest

Value = TypeVar("Value")

_MEMORY: dict[str, object] = {}
_MEMORY_ENTRIES = 4096  # enough for every scenario and random game of a profile, bounded for a long batch


def cache_dir() -> Path | None:
    """Where entries are kept on disk; None when the disk cache is off or cannot be made."""
    where = os.environ.get("FCD_CACHE_DIR")
    if where == "off":
        return None
    base = Path(where) if where else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "fcd-grader"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return base


def source_version(paths: Iterable[Path]) -> str:
    """A hash of the source files that compute a value: change one, and every key changes."""
    return digest(((p.name, p.read_bytes()) for p in sorted(paths)), 16)


def key_of(*parts: object) -> str:
    return hashlib.sha256(orjson.dumps(parts)).hexdigest()[:32]


def cached(kind: str, key: str, compute: Callable[[], Value], encode: Callable[[Value], object],
           decode: Callable[[Any], Value]) -> Value:
    """``compute()``, or what it gave before for the same ``key`` (in this process, or on disk).  ``decode`` is
    given the JSON a file holds, of whatever shape it was written in (an older layout: it raises)."""
    memo = f"{kind}/{key}"
    if memo in _MEMORY:
        return cast(Value, _MEMORY[memo])  # what a ``compute`` of this kind gave for this key
    base = cache_dir()
    path = base / kind / f"{key}.json" if base else None
    value: Value | None = None
    if path is not None and path.is_file():
        try:
            value = decode(orjson.loads(path.read_bytes()))
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            value = None  # unreadable or from an older layout: computed again and replaced
    if value is None:
        value = compute()
        if path is not None:
            _write(path, orjson.dumps(encode(value)))
    if len(_MEMORY) >= _MEMORY_ENTRIES:
        _MEMORY.clear()
    _MEMORY[memo] = value
    return value


def _write(path: Path, data: bytes) -> None:
    """Whole or not at all: two graders filling the same entry never leave half a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass

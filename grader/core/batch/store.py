"""Results stored by content: a rerun grades only what changed, and says what changed.

A result's key is made of three hashes: the submission's sources
(``grade.source_hash``), the grader's version (its own code, templates and
headers: ``grader_version``) and the marking (the effective configuration and
the options that change a mark: ``marking_hash``).  The same three give the same
marks (principle 5), so a key found in the store is never graded again; change
any of them and the key changes with it.

A result with a grader error in some of its tests (a fault of ours, not the
submission's) is stored too, so its other results are kept, but *flagged*: it is
provisional, and a rerun grades that submission again (``get`` does not return
it; ``provisional`` does).

On disk, under ``OUT/store/``: ``<key>.json`` per result (written to a
temporary name, then renamed: whole or absent; ``"regrade": true`` when flagged), ``index.json`` (each
submission's latest key and its three parts, which is how a rerun tells a
new submission from changed sources, a new configuration or a new grader), and
``journal.jsonl``, one line per grading that finished (what staff read to see
what was graded when; a test reads it to prove nothing was graded twice).
Only the batch client writes here; the scheduler and the workers hold nothing
that matters, so a killed client or scheduler is resumed by the same command.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Mapping

from grader.core.digest import digest
from grader.core.results import SubmissionResult, result_from_json
from grader.core.sandbox.values import Table

_VERSIONED = (".py", ".toml", ".h", ".c", ".html", ".css", ".js", ".xsd")  # what a result can follow from
_CODE_ROOTS = ("grader", "reference")
PROJECT = Path(__file__).resolve().parents[3]


def versioned_files() -> list[Path]:
    """The files a mark can follow from: the grader's code, templates, course headers and default marking, and
    of ``fixtures/`` only what each game marks with (``GameSpec.marking_fixtures``: its scenarios, the targets
    of students' tests), so that a fixture only the tests read (a hostile submission, a class) regrades no one."""
    from grader.games import GAMES, get  # noqa: PLC0415 - the games are what the store versions

    tops = [PROJECT / top for top in _CODE_ROOTS]
    tops += [p for name in sorted(GAMES) for p in get(name).marking_fixtures()]
    found = {p for top in tops for p in ([top] if top.is_file() else top.rglob("*"))
             if p.suffix in _VERSIONED and p.is_file() and "__pycache__" not in p.parts}
    return sorted(found)


@cache
def grader_version() -> str:
    """A hash of ``versioned_files``, names and bytes: a worker with another version would give other marks, so
    it is part of every key."""
    return digest(((p.resolve().relative_to(PROJECT).as_posix(), p.read_bytes()) for p in versioned_files()), 16)


def marking_hash(config_raw: Table, options: Mapping[str, object]) -> str:
    """A hash of the effective marking configuration and the batch options that change a mark."""
    blob = json.dumps({"config": config_raw, "options": options}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class ResultKey:
    source: str  # the submission's source hash
    grader: str  # grader_version()
    marking: str  # marking_hash(...)

    @property
    def key(self) -> str:
        return hashlib.sha256(f"{self.source}/{self.grader}/{self.marking}".encode()).hexdigest()[:24]

    def why_new(self, before: ResultKey | None) -> str:
        """Why a submission with this key is graded, given the key it had before (None: never graded)."""
        if before is None:
            return "new"
        changed = [what for what, a, b in (("sources", self.source, before.source),
                                           ("grader", self.grader, before.grader),
                                           ("marking", self.marking, before.marking)) if a != b]
        return "changed " + " and ".join(changed) if changed else "not stored"


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class ResultStore:
    """``OUT/store``: results by key, each submission's latest key, and the journal of gradings."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._index: dict[str, dict[str, str]] = self._read_index()

    def _read_index(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads((self.folder / "index.json").read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def previous(self, name: str) -> ResultKey | None:
        entry = self._index.get(name)
        try:
            return ResultKey(entry["source"], entry["grader"], entry["marking"]) if entry else None
        except (KeyError, TypeError):
            return None

    def _read(self, name: str, key: ResultKey) -> tuple[SubmissionResult, bool] | None:
        """The stored result for this key (under ``name``) and whether it is flagged for regrading."""
        path = self.folder / f"{key.key}.json"
        try:
            record = json.loads(path.read_bytes())
            result = result_from_json(record["result"])
            flagged = record.get("regrade") is True
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None  # absent, or from another layout: graded again and replaced
        # Two students with the same sources share a key: the result is theirs under their own name.
        return (result if result.submission == name else dataclasses.replace(result, submission=name)), flagged

    def get(self, name: str, key: ResultKey) -> SubmissionResult | None:
        """The stored result for these sources, grader and marking (under ``name``), or None -- also when the
        stored one is flagged for regrading (a grader error in some test): it is graded again."""
        found = self._read(name, key)
        return found[0] if found is not None and not found[1] else None

    def provisional(self, name: str, key: ResultKey) -> SubmissionResult | None:
        """The stored result flagged for regrading, if that is what the store holds for this key: what the
        class is shown while its regrading cannot finish."""
        found = self._read(name, key)
        return found[0] if found is not None and found[1] else None

    def put(self, name: str, key: ResultKey, result: SubmissionResult, *, worker: str = "",
            regrade: bool = False) -> None:
        """Store one finished grading: the result, then the index, then a journal line.  ``regrade``: a grader
        error in some test made it provisional; the next run grades the submission again.  A partial grading
        (``--only``) is never a result."""
        if result.only:
            raise ValueError(f"{name}: a partial grading (--only {' '.join(result.only)}) is not stored")
        record = {"key": key.key, **dataclasses.asdict(key), "regrade": regrade, "result": result.to_json()}
        _write_atomic(self.folder / f"{key.key}.json", json.dumps(record).encode())
        self.remember(name, key)
        line = {"submission": name, "key": key.key, "worker": worker, "seconds": round(result.seconds, 3),
                "at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        if regrade:
            line["regrade"] = True
        with (self.folder / "journal.jsonl").open("a") as f:
            f.write(json.dumps(line) + "\n")

    def remember(self, name: str, key: ResultKey) -> None:
        """Record ``key`` as ``name``'s latest (also when its result came from the store)."""
        if self.previous(name) == key:
            return
        self._index[name] = dataclasses.asdict(key)
        _write_atomic(self.folder / "index.json", json.dumps(self._index, indent=0, sort_keys=True).encode())

    def journal(self) -> list[dict[str, object]]:
        try:
            lines = (self.folder / "journal.jsonl").read_text().splitlines()
        except OSError:
            return []
        out = []
        for line in lines:
            try:
                out.append(json.loads(line))
            except ValueError:
                continue  # a line cut short by a kill: the result it names is stored or graded again
        return out

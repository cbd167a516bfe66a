"""The similarity check of a class: every submission's documents fingerprinted once (or read from the store),
indexed by kind, and every pair that shares a fingerprint scored once (or read from the store).

The work that takes time runs on ``jobs`` processes: the fingerprinting (copydetect's tokeniser is
Pygments' C lexer: tens of milliseconds a file) and the scoring of new pairs (a few microseconds each,
but a class of near copies has hundreds of thousands).  The result is a value: the listed pairs, ranked,
and the counts of what was done; ``report`` writes it.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Sequence

import numpy as np
import numpy.typing as npt

from grader.core.gamespec import GameSpec
from grader.core.similarity.compare import Index, Score
from grader.core.similarity.documents import (
    KINDS,
    Document,
    boilerplate_files,
    documents,
    read_text,
    test_program,
    text_hash,
)
from grader.core.similarity.fingerprint import Fingerprint, Ints, Winnowing, fingerprint
from grader.core.similarity.settings import SimilaritySettings
from grader.core.similarity.store import Floats, SimilarityStore, doc_key

PARALLEL_FROM = 2000  # pairs to score (or files to fingerprint, a tenth of it) before other processes are worth it
TASK_PAIRS = 4000  # pairs one scoring task holds


@dataclass(frozen=True, slots=True)
class Pair:
    """Two submissions' documents of one kind, ``a`` before ``b`` by name, and their score (``sim_a``: the share
    of a's code matched in b)."""

    a: Document
    b: Document
    score: Score

    @property
    def kind(self) -> str:
        return self.a.kind


@dataclass
class SimilarityReport:
    settings: SimilaritySettings
    pairs: list[Pair]  # those at or over the threshold, most similar first
    documents: dict[str, int]  # kind -> submissions that have one
    submissions: int
    fingerprinted: int = 0  # documents fingerprinted in this run (the rest were stored)
    scored: int = 0  # pairs of documents scored in this run
    from_store: int = 0  # pairs of documents whose score was stored
    boilerplate: list[str] = field(default_factory=list)  # the files taken as boilerplate
    skipped: list[str] = field(default_factory=list)  # submissions that could not be read, and why
    seconds: float = 0.0
    # what the side-by-side pages are drawn from: each document's fingerprints (by its hash), the boilerplate's
    prints: dict[str, Fingerprint] = field(default_factory=dict, repr=False)
    course: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)

    @property
    def candidates(self) -> int:
        return self.scored + self.from_store


def _pool(jobs: int, indexes: dict[str, Index] | None = None) -> ProcessPoolExecutor:
    """``jobs`` processes, each holding ``indexes`` (to score pairs) if given.  Spawned, not forked: the batch
    runs the check in a thread beside others, and a fork could copy a lock some other thread holds."""
    context = multiprocessing.get_context("spawn")
    if indexes is None:
        return ProcessPoolExecutor(jobs, mp_context=context)
    return ProcessPoolExecutor(jobs, mp_context=context, initializer=_hold, initargs=(indexes,))


def _fingerprint_all(texts: list[str], winnowing: Winnowing, window: int | None = None) -> list[Fingerprint]:
    return [fingerprint(t, winnowing, window) for t in texts]


def _fingerprints(texts: dict[str, str], winnowing: Winnowing, store: SimilarityStore, jobs: int,
                  window: int | None = None) -> tuple[dict[str, Fingerprint], int]:
    """The fingerprints of ``texts`` (by hash): from the store, the others made (on ``jobs`` processes) and
    stored; and how many were made."""
    made = winnowing.key(window)
    found = store.fingerprints(texts, made)
    missing = [h for h in texts if h not in found]
    if not missing:
        return found, 0
    if jobs > 1 and len(missing) * 10 >= PARALLEL_FROM:
        share = -(-len(missing) // (jobs * 4))
        parts = [missing[i:i + share] for i in range(0, len(missing), share)]
        with _pool(jobs) as pool:
            done = list(pool.map(_fingerprint_all, [[texts[h] for h in part] for part in parts],
                                 [winnowing] * len(parts), [window] * len(parts)))
        new = {h: fp for part, prints in zip(parts, done) for h, fp in zip(part, prints)}
    else:
        new = dict(zip(missing, _fingerprint_all([texts[h] for h in missing], winnowing, window)))
    store.put_fingerprints(made, new)
    return {**found, **new}, len(new)


_INDEXES: dict[str, Index] = {}  # a scoring process's indexes, given once when it starts
Rows = list[tuple[int, Ints]]  # (a document, the documents to score it with)


def _hold(indexes: dict[str, Index]) -> None:
    _INDEXES.update(indexes)


def _score_rows(kind: str, rows: Rows) -> Floats:
    index = _INDEXES[kind]
    parts = [index.score_row(i, js) for i, js in rows]
    return np.concatenate(parts) if parts else np.zeros((0, 4))


def _tasks(rows: Rows) -> list[Rows]:
    tasks: list[Rows] = [[]]
    size = 0
    for row in rows:
        if size >= TASK_PAIRS:
            tasks.append([])
            size = 0
        tasks[-1].append(row)
        size += row[1].size
    return tasks


def _score(indexes: dict[str, Index], todo: dict[str, Rows], jobs: int) -> dict[str, Floats]:
    """The pairs of ``todo`` (kind -> rows of (document, others)) scored, in order, on ``jobs`` processes if many."""
    total = sum(js.size for rows in todo.values() for _, js in rows)
    if jobs <= 1 or total < PARALLEL_FROM:
        _hold(indexes)
        try:
            return {kind: _score_rows(kind, rows) for kind, rows in todo.items()}
        finally:
            _INDEXES.clear()
    with _pool(jobs, indexes) as pool:
        futures = {kind: [pool.submit(_score_rows, kind, task) for task in _tasks(rows) if task]
                   for kind, rows in todo.items()}
        return {kind: np.concatenate([f.result() for f in fs]) if fs else np.zeros((0, 4))
                for kind, fs in futures.items()}


def boilerplate(game: GameSpec, settings: SimilaritySettings, store: SimilarityStore,
                jobs: int) -> tuple[Ints, list[Path]]:
    """Every k-gram hash of the course's code (sorted, unique; as copydetect takes boilerplate), and its files."""
    files = boilerplate_files(game, settings.boilerplate)
    texts = {text_hash(text): text for text in map(read_text, files)}
    prints, _ = _fingerprints(texts, settings.winnowing, store, jobs, window=1)
    hashes = [fp.hashes for fp in prints.values()]
    return (np.unique(np.concatenate(hashes)) if hashes else np.zeros(0, dtype=np.int64)), files


def _no_ints() -> Ints:
    return np.zeros(0, dtype=np.int64)


@dataclass
class _Kind:
    """One kind's documents in the check: their hashes in order (the index's numbering), the documents that
    have each, the candidate pairs (``first`` <= ``second``, by number) and their scores as they are found."""

    hashes: list[str] = field(default_factory=list)
    holders: dict[str, list[Document]] = field(default_factory=dict)
    first: Ints = field(default_factory=_no_ints)
    second: Ints = field(default_factory=_no_ints)
    values: Floats = field(default_factory=lambda: np.zeros((0, 4)))  # (sims of first and second, their covers)
    new: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))  # not in the store


def _candidates(index: Index, kind: _Kind) -> None:
    """Every pair of the kind's documents that shares a fingerprint, and a document with itself when two
    submissions handed in the same one."""
    firsts, seconds = [], []
    for i, h in enumerate(kind.hashes):
        others = index.candidates(i)
        if len(kind.holders[h]) > 1:
            others = np.append(others, i)
        firsts.append(np.full(others.size, i, dtype=np.int64))
        seconds.append(others)
    kind.first = np.concatenate(firsts) if firsts else np.zeros(0, dtype=np.int64)
    kind.second = np.concatenate(seconds) if seconds else np.zeros(0, dtype=np.int64)


def _from_store(kind: _Kind, stored: tuple[Ints, Ints, Floats]) -> None:
    """The kind's pairs' stored scores, and which are new."""
    n = len(kind.hashes)
    keys = np.array([doc_key(h) for h in kind.hashes], dtype=np.int64)  # ascending, as the hashes
    pairs = kind.first * n + kind.second
    kind.values = np.zeros((pairs.size, 4))
    kind.new = np.ones(pairs.size, dtype=bool)
    first, second, numbers = stored
    if first.size == 0 or n == 0:
        return
    at_a = np.clip(np.searchsorted(keys, first), 0, n - 1)
    at_b = np.clip(np.searchsorted(keys, second), 0, n - 1)
    ours = (keys[at_a] == first) & (keys[at_b] == second)  # both documents are in this class
    known, where = np.unique(at_a[ours] * n + at_b[ours], return_index=True)
    if known.size == 0:
        return
    at = np.clip(np.searchsorted(known, pairs), 0, known.size - 1)
    found = known[at] == pairs
    kind.values[found] = numbers[ours][where[at[found]]]
    kind.new = ~found


def _listed(kind: _Kind, threshold: float) -> list[Pair]:
    """The kind's pairs at or over the threshold, a pair of submissions each (two who handed in the same
    document are a pair of their own, with the score of the document with itself)."""
    out = []
    top = kind.values[:, :2].max(axis=1) if kind.values.size else np.zeros(0)
    for i, j, (sa, sb, ca, cb) in zip(kind.first[top >= threshold].tolist(), kind.second[top >= threshold].tolist(),
                                      kind.values[top >= threshold].tolist()):
        score = Score(sa, sb, int(ca), int(cb))
        ha, hb = kind.hashes[i], kind.hashes[j]
        if i == j:
            couples = list(combinations(kind.holders[ha], 2))
        else:
            couples = [(a, b) for a in kind.holders[ha] for b in kind.holders[hb]]
        for a, b in couples:
            out.append(Pair(a, b, score) if a.submission < b.submission else Pair(b, a, score.swapped()))
    return out


def check(submissions: Sequence[tuple[str, Path]], game: GameSpec, settings: SimilaritySettings,
          store: SimilarityStore, jobs: int = 1) -> SimilarityReport:
    """Compare every pair of ``submissions`` ((name, folder of its sources)), a kind at a time."""
    start = time.monotonic()
    tests = test_program(game)
    docs: list[Document] = []
    skipped = []
    for name, folder in submissions:
        try:
            docs.extend(documents(name, folder, game, tests))
        except OSError as err:
            skipped.append(f"{name}: {err}")
    course, course_files = boilerplate(game, settings, store, jobs)
    prints, fingerprinted = _fingerprints({d.hash: d.text for d in docs}, settings.winnowing, store, jobs)
    scoring = hashlib.sha256(f"{settings.winnowing.key()}/{course.tobytes().hex()}".encode()).hexdigest()[:16]
    stored = store.scores(scoring)
    report = SimilarityReport(settings, [], {kind: sum(d.kind == kind for d in docs) for kind in KINDS},
                              len(submissions), fingerprinted=fingerprinted, skipped=skipped,
                              boilerplate=[str(p) for p in course_files], prints=prints, course=course)
    kinds: dict[str, _Kind] = {}
    for d in docs:
        kinds.setdefault(d.kind, _Kind()).holders.setdefault(d.hash, []).append(d)
    indexes: dict[str, Index] = {}
    todo: dict[str, Rows] = {}
    for name, kind in kinds.items():
        kind.hashes = sorted(kind.holders)
        index = indexes[name] = Index([prints[h].without(course) for h in kind.hashes], settings.winnowing.noise)
        _candidates(index, kind)
        _from_store(kind, stored)
        first, second = kind.first[kind.new], kind.second[kind.new]
        cuts = np.flatnonzero(np.diff(first)) + 1
        todo[name] = [(int(a[0]), b) for a, b in zip(np.split(first, cuts), np.split(second, cuts)) if a.size]
        report.from_store += int((~kind.new).sum())
    for name, values in _score(indexes, todo, jobs).items():
        kind = kinds[name]
        kind.values[kind.new] = values
        keys = np.array([doc_key(h) for h in kind.hashes], dtype=np.int64)
        store.put_scores(scoring, keys[kind.first[kind.new]], keys[kind.second[kind.new]], values)
        report.scored += len(values)
    for kind in kinds.values():
        report.pairs.extend(_listed(kind, settings.threshold))
    report.pairs.sort(key=lambda p: (-p.score.top, -max(p.score.cover_a, p.score.cover_b), KINDS.index(p.kind),
                                     p.a.submission, p.b.submission))
    report.seconds = time.monotonic() - start
    return report

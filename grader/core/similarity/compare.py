"""Every pair of documents that shares a fingerprint, scored; no other pair is looked at.

copydetect's ``CopyDetector`` compares every pair (n² of them: a class of 1,000 is half a million
comparisons a kind, about 1.7 ms each).  Here each document is fingerprinted once and indexed
(fingerprint -> the documents holding it); a document's candidates are the documents its fingerprints'
postings name, and only those pairs are scored.

A pair's score is copydetect's (``compare_files``): A's similarity to B is the share of A's normalised
code covered by the fingerprints it shares with B (``coverage`` of those k-grams over the coverage of
all A's fingerprints, after the boilerplate's are taken out); B's likewise.  ``cover_a``/``cover_b``: the
matched code itself, in normalised characters (copydetect's "token overlap").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import numpy.typing as npt

from grader.core.similarity.fingerprint import Fingerprint, Ints, coverage


@dataclass(frozen=True, slots=True)
class Score:
    sim_a: float
    sim_b: float
    cover_a: int
    cover_b: int

    def swapped(self) -> Score:
        return Score(self.sim_b, self.sim_a, self.cover_b, self.cover_a)

    @property
    def top(self) -> float:
        return max(self.sim_a, self.sim_b)


class Index:
    """The fingerprints of a kind's documents (each once), numbered, with their postings."""

    def __init__(self, prints: Sequence[Fingerprint], k: int) -> None:
        self.k = k
        counts = [p.hashes.size for p in prints]
        every = np.concatenate([p.hashes for p in prints]) if prints else np.zeros(0, dtype=np.int64)
        _values, numbered = np.unique(every, return_inverse=True)
        bounds = np.cumsum([0, *counts])
        self.ids: list[Ints] = [numbered[bounds[i]:bounds[i + 1]].astype(np.int64) for i in range(len(prints))]
        self.positions: list[Ints] = [p.positions for p in prints]
        self.distinct: list[Ints] = [np.unique(ids) for ids in self.ids]
        self.covers = [coverage(p.positions, k) for p in prints]
        size = int(_values.size)
        owners = np.repeat(np.arange(len(prints), dtype=np.int64), [d.size for d in self.distinct])
        flat = np.concatenate(self.distinct) if prints else np.zeros(0, dtype=np.int64)
        order = np.argsort(flat, kind="stable")
        self.postings = owners[order]  # the documents of fingerprint f: postings[start[f]:start[f + 1]]
        self.start = np.concatenate([[0], np.cumsum(np.bincount(flat, minlength=size))]).astype(np.int64)
        self._mark = np.zeros(size, dtype=bool)
        self._other = np.zeros(size, dtype=bool)

    def __len__(self) -> int:
        return len(self.ids)

    def candidates(self, i: int) -> Ints:
        """The documents after ``i`` that share at least one fingerprint with it."""
        ids = self.distinct[i]
        if ids.size == 0:
            return np.zeros(0, dtype=np.int64)
        starts, ends = self.start[ids], self.start[ids + 1]
        lengths = ends - starts
        total = int(lengths.sum())
        # every posting of every fingerprint of i, gathered at once
        offsets = np.repeat(starts - np.cumsum(np.concatenate([[0], lengths[:-1]])), lengths)
        found = self.postings[offsets + np.arange(total)]
        hits = np.bincount(found, minlength=len(self))
        hits[: i + 1] = 0
        return np.flatnonzero(hits).astype(np.int64)

    def score_row(self, i: int, others: Ints) -> npt.NDArray[np.float64]:
        """``i`` scored against each of ``others``: a row (sim_a, sim_b, cover_a, cover_b) each, ``i`` as a."""
        mark, other = self._mark, self._other
        mark[self.distinct[i]] = True
        out = np.zeros((others.size, 4), dtype=np.float64)
        try:
            for row, j in enumerate(others.tolist()):
                matched_j = mark[self.ids[j]]
                other[self.distinct[j]] = True
                matched_i = other[self.ids[i]]
                other[self.distinct[j]] = False
                cover_i = coverage(self.positions[i][matched_i], self.k)
                cover_j = coverage(self.positions[j][matched_j], self.k)
                out[row] = (cover_i / self.covers[i] if self.covers[i] else 0.0,
                            cover_j / self.covers[j] if self.covers[j] else 0.0, cover_i, cover_j)
        finally:
            mark[self.distinct[i]] = False
        return out


@dataclass(frozen=True)
class Region:
    """One matched region: ``a`` and ``b`` are spans of the two normalised texts ([start, end)), the same length."""

    a: tuple[int, int]
    b: tuple[int, int]


def regions(first: Fingerprint, second: Fingerprint, k: int, gap: int) -> list[Region]:
    """The matched regions of two documents, for the side-by-side page.  The fingerprints they share are paired
    (each position of a hash in one with each in the other) and joined along each diagonal (copied code is the
    same normalised text, so its matches keep one offset) while no two are more than ``gap`` apart.  Then the
    longest first: each keeps what no region kept before covers on either side, so every character is in at
    most one region and a region is the same code on both sides."""
    shared = np.intersect1d(first.hashes, second.hashes)
    if shared.size == 0:
        return []
    in_a, in_b = np.isin(first.hashes, shared), np.isin(second.hashes, shared)
    at_b: dict[int, list[int]] = {}
    for h, q in zip(second.hashes[in_b].tolist(), second.positions[in_b].tolist()):
        at_b.setdefault(h, []).append(q)
    diagonals: dict[int, list[int]] = {}
    for h, p in zip(first.hashes[in_a].tolist(), first.positions[in_a].tolist()):
        for q in at_b[h]:
            diagonals.setdefault(q - p, []).append(p)
    runs: list[tuple[int, int, int]] = []  # (start in a, end in a, offset to b)
    for offset, starts in diagonals.items():
        starts.sort()
        run = starts[0]
        for before, here in zip(starts, [*starts[1:], None]):
            if here is None or here - before > gap:
                runs.append((run, before + k, offset))
                run = here if here is not None else run
    kept: list[tuple[int, int, int]] = []
    for start, end, offset in sorted(runs, key=lambda r: (r[0] - r[1], r[0], r[2])):
        taken = [(s, e) for s, e, _ in kept] + [(s + o - offset, e + o - offset) for s, e, o in kept]
        for s, e in _free(start, end, taken):
            if e - s >= max(1, k // 2):
                kept.append((s, e, offset))
    return [Region((s, e), (s + o, e + o)) for s, e, o in sorted(kept)]


def _free(start: int, end: int, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of [start, end) outside every span of ``taken``."""
    parts = [(start, end)]
    for s, e in taken:
        parts = [piece for a, b in parts for piece in ((a, min(b, s)), (max(a, e), b)) if piece[0] < piece[1]]
    return parts

"""The check's store: fingerprints by the document's hash, scores by the pair's, so a rerun computes only
what is new.

One SQLite file (``OUT/store/similarity.sqlite``, beside the batch's results).  A fingerprint is keyed by
its document's hash and how it was made (``Winnowing.key``: copydetect's version, the hash, k, the
window).  Scores are kept under the settings that make them (the winnowing and the boilerplate's
fingerprints), each run's new ones as one row of arrays: the two documents (``doc_key`` of each hash, the
first before the second by hash) and the four numbers of the score; a class of a thousand has half a million
pairs, read back at once.  The threshold is not in the key: a score is a score, and the threshold only
picks which are listed.  Every pair scored is kept, also those under the threshold, so a rerun with nothing
new scores nothing.  Only the process running the check writes here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterable

import numpy as np
import numpy.typing as npt

from grader.core.similarity.fingerprint import Fingerprint, Ints

_SCHEMA = """
CREATE TABLE IF NOT EXISTS fingerprints (
    document TEXT NOT NULL, made TEXT NOT NULL, hashes BLOB NOT NULL, positions BLOB NOT NULL,
    length INTEGER NOT NULL, PRIMARY KEY (document, made));
CREATE TABLE IF NOT EXISTS scores (
    settings TEXT NOT NULL, first BLOB NOT NULL, second BLOB NOT NULL, numbers BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS scores_by_settings ON scores (settings);
"""
Floats = npt.NDArray[np.float64]


def doc_key(document: str) -> int:
    """A document's hash (hex) as a number for the score arrays: its first 60 bits (no two documents of a
    class share them but by a chance of one in 10**11)."""
    return int(document[:15], 16)


class SimilarityStore:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path)
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SimilarityStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def fingerprints(self, documents: Iterable[str], made: str) -> dict[str, Fingerprint]:
        """The stored fingerprints of these documents (by hash), made so; the others are absent."""
        wanted = set(documents)
        found = {}
        for doc, hashes, positions, length in self._db.execute(
                "SELECT document, hashes, positions, length FROM fingerprints WHERE made = ?", (made,)):
            if doc in wanted:
                found[doc] = Fingerprint.from_bytes(hashes, positions, length)
        return found

    def put_fingerprints(self, made: str, prints: dict[str, Fingerprint]) -> None:
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO fingerprints VALUES (?, ?, ?, ?, ?)",
                                 ((doc, made, *fp.to_bytes(), fp.length) for doc, fp in prints.items()))

    def scores(self, settings: str) -> tuple[Ints, Ints, Floats]:
        """Every stored score under these settings: the first and second documents' keys, and per pair
        (sim_a, sim_b, cover_a, cover_b)."""
        firsts, seconds, numbers = [], [], []
        for first, second, values in self._db.execute(
                "SELECT first, second, numbers FROM scores WHERE settings = ?", (settings,)):
            firsts.append(np.frombuffer(first, dtype="<i8"))
            seconds.append(np.frombuffer(second, dtype="<i8"))
            numbers.append(np.frombuffer(values, dtype="<f8").reshape(-1, 4))
        if not firsts:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros((0, 4))
        return (np.concatenate(firsts).astype(np.int64), np.concatenate(seconds).astype(np.int64),
                np.concatenate(numbers).astype(np.float64))

    def put_scores(self, settings: str, first: Ints, second: Ints, numbers: Floats) -> None:
        """New scores under these settings (``numbers``: a row of (sim_a, sim_b, cover_a, cover_b) a pair)."""
        if first.size == 0:
            return
        with self._db:
            self._db.execute("INSERT INTO scores VALUES (?, ?, ?, ?)",
                             (settings, first.astype("<i8").tobytes(), second.astype("<i8").tobytes(),
                              np.ascontiguousarray(numbers, dtype="<f8").tobytes()))

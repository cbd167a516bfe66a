"""The class CSV: one row per submission, marks per group."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any


def write_class_csv(results: list[Any], path: Path) -> None:
    groups: list[str] = []
    for r in results:
        for g in r.groups:
            if g.group not in groups:
                groups.append(g.group)
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["submission", "source_hash", "status", *groups, "total", "max", "seconds"])
        for r in results:
            marks = {g.group: g.marks for g in r.groups}
            out.writerow([r.submission, r.source_hash, r.status, *(f"{marks.get(g, 0):g}" for g in groups),
                          f"{r.score:g}", f"{r.max_score:g}", f"{r.seconds:.1f}"])

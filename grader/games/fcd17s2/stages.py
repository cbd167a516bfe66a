"""The 2017 edition's stages after the scenarios: the 2018 ones (``grader.games.fcd18s2.stages``:
random games over the 2017 table and engine, one deduction per rule family), with the memory stage
in 2017's C (``grader.games.fcd17s2.memcheck``)."""

from __future__ import annotations

from typing import Any, Iterator

from grader.core.results import TestResult
from grader.games.fcd18s2 import stages


def later_stages(*args: Any, **kwargs: Any) -> Iterator[TestResult]:
    from grader.games.fcd17s2.memcheck import run_memory_stage17  # noqa: PLC0415 - optional stage

    return stages.later_stages(*args, memory_stage=run_memory_stage17, **kwargs)

"""The 2017 edition's stages after the scenarios: the family's (``grader.games.fcd.stages``:
random games over the 2017 table and engine, one deduction per rule family), with the memory stage
in 2017's C (``grader.games.fcd17s2.memcheck``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from grader.core.config import MarkingConfig
from grader.core.results import TestResult
from grader.games.fcd import stages
from grader.games.fcd.stages import Played

if TYPE_CHECKING:
    from grader.games.fcd17s2.session import Fcd17Session


def later_stages(session: Fcd17Session, config: MarkingConfig, played: Played, *, random_games: int | None = None,
                 memory: bool = True) -> Iterator[TestResult]:
    from grader.games.fcd17s2.memcheck import run_memory_stage17  # noqa: PLC0415 - optional stage

    return stages.later_stages(session, config, played, memory_stage=run_memory_stage17, random_games=random_games,
                               memory=memory)

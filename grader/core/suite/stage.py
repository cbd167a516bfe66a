"""The testing stage: a submission's test program graded against every target (``grade_tests``)."""


from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from grader.core.build import find_sources
from grader.core.config import MarkingConfig

from .judge import SuiteResult, judge, not_compiled
from .run import SuiteBuild
from .targets import OWN, Target

if TYPE_CHECKING:
    from grader.core.gamespec import GameSpec


def grade_tests(folder: Path, game: GameSpec, config: MarkingConfig, jobs: int = 2) -> SuiteResult | None:
    """The marks of ``folder``'s test program; None when the game or the configuration does not grade one, or
    the submission has none."""
    marking = config.suite_marking
    if marking is None or game.suite_targets is None:
        return None
    targets = game.suite_targets()
    if targets is None:
        return None
    targets = targets.hiding(marking.hidden_mutants)
    if not (Path(folder) / targets.test_file).is_file():
        return None
    start = time.monotonic()
    with SuiteBuild(folder, game, targets, run_seconds=marking.run_seconds, memory_mb=config.limits.memory_mb,
                    cpu_seconds=config.limits.cpu) as build:
        if not build.program.ok:
            result = not_compiled(targets.test_file, marking, build.program.problem, build.program.output)
        else:
            runs = build.run_all(list(targets.all()), jobs)
            again = build.run(targets.model)
            own = build.run(Target("own", OWN, Path(folder).resolve())) if _has_own(folder, game) else None
            result = judge(targets, runs, marking, game.rulings, model_again=again, own=own)
    result.seconds = time.monotonic() - start
    return result


def _has_own(folder: Path, game: GameSpec) -> bool:
    """Does the submission compile a .c file of its own (Game.c, Palace.c), not only the course's?  Its test
    program is then run on it too, for the student's information."""
    folder = Path(folder).resolve()
    try:
        return any(p.parent == folder for p in find_sources(folder, game).compiled)
    except OSError:
        return False

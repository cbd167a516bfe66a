"""Final Card-Down, 2018 edition (rules.md): the game as the core grades it (``GAME``).

This package is imported inside the sandbox too (the worker runs ``play``),
so it imports only what the ``GameSpec`` value itself needs; the trusted-side
parts (sessions, stages, repro programs) are imported when first called.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.core.gamespec import GameSpec
from grader.games.fcd18s2.engine import ENGINE
from grader.games.fcd18s2.loader import API_FUNCTIONS, COURSE_HEADERS, HEADERS, INCLUDE_DIR
from reference.rulings import BY_ID


def _scenarios() -> Any:
    from grader.games.fcd18s2.scenarios import load_scenarios  # noqa: PLC0415

    return load_scenarios()


def _open_session(folder: Path, **kwargs: Any) -> Any:
    from grader.games.fcd18s2.session import FcdSession  # noqa: PLC0415

    return FcdSession.open(folder, **kwargs)


def _owners(scenarios: Any) -> Any:
    from grader.games.fcd18s2.focus import owners  # noqa: PLC0415

    return owners(scenarios)


def _later_stages(*args: Any, **kwargs: Any) -> Any:
    from grader.games.fcd18s2.stages import later_stages  # noqa: PLC0415

    return later_stages(*args, **kwargs)


def _write_repros(result: Any, folder: Path) -> dict[str, str]:
    """The C repro programs of a result's failed tests, compiled with the sources the build used."""
    from grader.games.fcd18s2.repro import write_repros  # noqa: PLC0415

    own = [n for n in result.build_sources if not n.startswith("course_")]
    course_card = "course_Card.c" in result.build_sources
    sources = own + (["Card.c"] if course_card else [])
    return write_repros(result, folder, sources or ["Game.c", "Card.c"], course_card)


def _replay_frames(deck: str, moves: str) -> Any:
    """The replay of a test's game (its deck and moves as the result wrote them)."""
    from grader.games.fcd18s2.replay import frames  # noqa: PLC0415

    return frames(ENGINE.parse_deck(deck), ENGINE.parse_moves(moves))


def _suite_targets() -> Any:
    from grader.games.fcd18s2.suite import SUBMISSIONS, suite_targets  # noqa: PLC0415

    return suite_targets() if (SUBMISSIONS / "mutants.py").is_file() else None  # (a checkout has them)


def _arena() -> Any:
    from grader.games.fcd18s2.arena import ARENA  # noqa: PLC0415

    return ARENA


GAME = GameSpec(
    name="fcd18s2",
    title="Final Card-Down (2018)",
    engine=ENGINE,
    include_dir=INCLUDE_DIR,
    api_headers=HEADERS,
    course_headers=COURSE_HEADERS,
    api_functions=API_FUNCTIONS,
    course_sources={"Card.c": ("newCard", r"\bCard\s+newCard\s*\([^;{)]*\)\s*\{")},
    build_rules=("R17",),
    marking_file=Path(__file__).resolve().parent / "marking.toml",
    rulings=BY_ID,
    sandbox_job="grader.games.fcd18s2.play",
    sandbox_packages=("reference",),
    load_scenarios=_scenarios,
    open_session=_open_session,
    owners=_owners,
    later_stages=_later_stages,
    write_repros=_write_repros,
    replay_frames=_replay_frames,
    suite_targets=_suite_targets,
    arena=_arena,
)

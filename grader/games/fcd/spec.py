"""A Final Card-Down edition as the core grades it: one ``GameSpec`` made the same way for every edition.

An edition's package holds its values (interface, engine, rulings, ``marking.toml``) and, beside them,
modules of the same names (``scenarios``, ``session``, ``observations``, ``stages``, ``repro``, ``replay``)
that bind the family's pipeline to it.  Those are the trusted side: the package is imported inside the
sandbox too (its ``play`` job), so they are imported when the core first calls for them, by the package's
name -- the way the registry finds a game.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Mapping

from grader.core.gamespec import GameSpec, Ruling
from grader.core.native import Api
from grader.games.fcd.engine import FcdEngine
from grader.games.fcd.focus import owners

if TYPE_CHECKING:
    from grader.core.arena.game import Seating
    from grader.core.suite.targets import Targets


def repro_sources(build_sources: list[str], card: str) -> tuple[list[str], bool]:
    """The files a repro program compiles with (the student's own, and the course's ``card`` file where the
    build used it), and whether the course's was used (it is then shipped beside the repro)."""
    own = [n for n in build_sources if not n.startswith("course_")]
    course_card = f"course_{card}" in build_sources
    sources = own + ([card] if course_card else [])
    return sources or ["Game.c", card], course_card


def edition_spec(package: str, *, engine: FcdEngine, interface: Api, course_headers: tuple[str, ...],
                 build_rules: tuple[str, ...], rulings: Mapping[str, Ruling],
                 suite_targets: Callable[[], Targets | None] | None = None,
                 arena: Callable[[], Seating] | None = None) -> GameSpec:
    """The ``GameSpec`` of the edition whose package is ``package`` (``grader.games.fcd18s2``)."""
    def part(name: str) -> ModuleType:
        return importlib.import_module(f"{package}.{name}")

    def write_repros(result: Any, folder: Path) -> dict[str, str]:
        """The C repro programs of a result's failed tests, compiled with the sources the build used."""
        sources, course_card = repro_sources(list(result.build_sources), "Card.c")
        return part("repro").write_repros(result, folder, sources, course_card)

    name = package.rsplit(".", 1)[1]
    return GameSpec(
        name=name,
        title=engine.title,
        engine=engine,
        include_dir=interface.include_dir,
        api_headers=interface.headers,
        course_headers=course_headers,
        api_functions=interface.functions,
        course_sources={"Card.c": ("newCard", r"\bCard\s+newCard\s*\([^;{)]*\)\s*\{")},
        build_rules=build_rules,
        marking_file=interface.include_dir.parent / "marking.toml",  # beside the edition's include/
        rulings=rulings,
        sandbox_job=f"{package}.play",
        sandbox_packages=("reference", "grader.games.fcd"),  # the family holds the shared job
        load_scenarios=lambda: part("scenarios").load_scenarios(),
        open_session=lambda folder, **kwargs: part("session").SESSION.open(folder, **kwargs),
        owners=lambda scenarios: owners(scenarios, part("observations").TABLE),
        later_stages=lambda *args, **kwargs: part("stages").later_stages(*args, **kwargs),
        write_repros=write_repros,
        replay_frames=lambda deck, moves: part("replay").frames(engine.parse_deck(deck), engine.parse_moves(moves)),
        suite_targets=suite_targets,
        arena=arena,
    )

"""Palace (seed 004, rules-palace.md): the game as the core grades it (``GAME``).

This package is imported inside the sandbox too (the worker runs ``play``), so only what the
``GameSpec`` value itself needs is imported here; the trusted-side parts (the session, the later
stages, the scenarios, the replay and the repro programs) are imported when first called.

The build's tests are marked under "§1": the headers of rules-palace.md §1 (PalaceCard.h, Palace.h)
are normative for this edition ("STRICT (header)"), and "it compiles and defines every function
they declare" is exactly what §1 asks.  No C-ruling is about that: C7 is about newGame's
preconditions (decks and player counts outside the contract), a run-time matter the build never sees.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.core.gamespec import GameSpec
from grader.games.palace.engine import ENGINE
from grader.games.palace.interface import API_FUNCTIONS, COURSE_HEADERS, HEADERS, INCLUDE_DIR
from reference.palace import BY_ID

BUILD_RULES = ("§1",)  # the Palace headers: see the module docstring


def _scenarios() -> Any:
    from grader.games.palace.scenarios import load_scenarios  # noqa: PLC0415

    return load_scenarios()


def _open_session(folder: Path, **kwargs: Any) -> Any:
    from grader.games.palace.session import PalaceSession  # noqa: PLC0415

    return PalaceSession.open(folder, **kwargs)


def _owners(scenarios: Any) -> Any:
    """Which scenario owns what: Palace judges each scenario only on the values its file expects, so
    there are no observations to share out (nothing seen outside a scenario's expectations is charged)."""
    return {}


def _later_stages(*args: Any, **kwargs: Any) -> Any:
    from grader.games.palace.stages import later_stages  # noqa: PLC0415

    return later_stages(*args, **kwargs)


def _write_repros(result: Any, folder: Path) -> dict[str, str]:
    """The C repro programs of a result's failed scenarios (``grader.games.palace.repro.write_repros``)."""
    from grader.games.palace.repro import write_repros  # noqa: PLC0415

    return write_repros(result, folder)


def _replay_frames(deck: str, moves: str) -> Any:
    """The replay of a test's game (its setup and moves as the result wrote them), on the reference
    (``grader.games.palace.replay``); a random game played under other readings of the LENIENT switches
    (the readings a submission was held to) is replayed under the first readings that allow every move."""
    from grader.games.palace.replay import describe, frames  # noqa: PLC0415
    from reference.palace import Game, GameError, Readings  # noqa: PLC0415

    setup, specs = ENGINE.parse_deck(deck), ENGINE.parse_moves(moves)
    try:
        return frames(setup, specs)
    except GameError:
        pass
    for readings in Readings.every():
        game = Game(setup, readings)
        out = [describe(game, 0, "")]
        try:
            for k, spec in enumerate(specs, 1):
                move = game.resolve(spec)
                written = str(game.written(move))
                game.play_move(move)
                out.append(describe(game, k, written))
        except GameError:
            continue
        return tuple(out)
    raise GameError(f"no reading of the LENIENT switches allows every move of {moves[:80]!r}")


def _arena() -> Any:
    from grader.games.palace.arena import PalaceArena  # noqa: PLC0415

    return PalaceArena()


GAME = GameSpec(
    name="palace",
    title="Palace",
    engine=ENGINE,
    include_dir=INCLUDE_DIR,
    api_headers=HEADERS,
    course_headers=COURSE_HEADERS,
    api_functions=API_FUNCTIONS,
    course_sources={"PalaceCard.c": ("newCard", r"\bCard\s+newCard\s*\([^;{)]*\)\s*\{")},
    build_rules=BUILD_RULES,
    marking_file=Path(__file__).resolve().parent / "marking.toml",
    rulings=BY_ID,
    sandbox_job="grader.games.palace.play",
    sandbox_packages=("reference",),
    load_scenarios=_scenarios,
    open_session=_open_session,
    owners=_owners,
    later_stages=_later_stages,
    write_repros=_write_repros,
    replay_frames=_replay_frames,
    suite_targets=None,
    arena=_arena,
)

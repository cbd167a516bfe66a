"""A Final Card-Down edition as the core grades it: one ``GameSpec`` made the same way for every edition.

An edition's package holds its values (interface, engine, rulings, ``marking.toml``) and, beside them,
modules of the same names (``scenarios``, ``session``, ``observations``, ``stages``, ``repro``, ``replay``)
that bind the family's pipeline to it.  Those are the trusted side: the package is imported inside the
sandbox too (its ``play`` job), so they are imported when the core first calls for them, by the package's
name -- the way the registry finds a game.  The spec also says how an edition explains itself: its hallmarks
(what a submission written for it uses) and its notation in words (``notation``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, cast

from grader.core.gamespec import GameSpec, Hallmarks, Ruling
from grader.core.sandbox.native import Api
from grader.core.suite.targets import marking_fixtures
from grader.games.fcd.engine import FcdEngine
from grader.games.fcd.focus import owners
from reference.cards import COLOR_LETTERS, COLOR_NAMES, SUIT_LETTERS, SUIT_NAMES, VALUE_DIGITS

if TYPE_CHECKING:
    from grader.core.arena.game import Seating
    from grader.core.suite.targets import Targets


def notation(value_names: Sequence[str], words: Mapping[str, str], players: int) -> str:
    """How to read the cards and moves of an edition's messages (``GameSpec.notation``): the family's notation
    (``reference.cards``, ``reference.moves``) in words, with the edition's names of the values (``value_names``,
    index = number), its move words (word -> the action it stands for) and its number of players."""
    renamed = [f"{VALUE_DIGITS[n]} is {value_names[n]}" for n in range(10, len(value_names))
               if value_names[n] != VALUE_DIGITS[n]]
    colours = ", ".join(f"{letter} {name}" for letter, name in zip(COLOR_LETTERS, COLOR_NAMES))
    suits = ", ".join(f"{letter} {name}" for letter, name in zip(SUIT_LETTERS, SUIT_NAMES))
    said = ", ".join(f"{word} ({action})" for word, action in words.items())
    declare = value_names[13]
    return "\n".join((
        "A card is three characters: its value, its colour and its suit. 5RH is value 5, red, hearts.",
        f"Values: 0-9, then A-F for 10-15; 2 is DRAW_TWO{''.join('; ' + r for r in renamed)}.",
        f"Colours: {colours}. Suits: {suits}.",
        f"A move is {said}, or the card played (PLAY_CARD). A {declare} played names the colour it declares after "
        f"a slash: DRH/B plays the red {declare} of hearts and declares blue.",
        f"Players are numbered 0 to {players - 1}; turns are numbered from 0.",
    ))


def edition_spec(package: str, *, engine: FcdEngine, interface: Api, course_headers: tuple[str, ...],
                 build_rules: tuple[str, ...], rulings: Mapping[str, Ruling], hallmarks: tuple[str, ...],
                 value_names: Sequence[str], words: Mapping[str, str],
                 suite_targets: Callable[[], Targets | None] | None = None,
                 arena: Callable[[], Seating] | None = None) -> GameSpec:
    """The ``GameSpec`` of the edition whose package is ``package`` (``grader.games.fcd18s2``); ``hallmarks``: the
    identifiers only its submissions use; ``value_names`` and ``words``: its notation's words (``notation``)."""
    def part(name: str) -> ModuleType:
        return importlib.import_module(f"{package}.{name}")

    def write_repros(result: Any, folder: Path) -> dict[str, str]:
        """The C repro programs of a result's failed tests, built with the sources the build used."""
        return cast(dict[str, str], part("repro").write_repros(result, folder))

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
        marking_file=interface.include_dir.parent.parent / "marking.toml",  # the package's (headers: sandbox/include/)
        rulings=rulings,
        sandbox_job=f"{package}.sandbox.play",
        sandbox_packages=("grader.games.fcd.sandbox",),  # the family's sandbox side holds the shared job
        load_scenarios=lambda: part("scenarios").load_scenarios(),
        open_session=lambda folder, **kwargs: part("session").SESSION.open(folder, **kwargs),
        owners=lambda scenarios: owners(scenarios, part("observations").TABLE),
        later_stages=lambda *args, **kwargs: part("stages").later_stages(*args, **kwargs),
        write_repros=write_repros,
        replay_frames=lambda deck, moves: part("replay").frames(engine.parse_deck(deck), engine.parse_moves(moves)),
        suite_targets=suite_targets,
        arena=arena,
        hallmarks=Hallmarks(flag=f"--edition {name.removeprefix('fcd')}", words=hallmarks),
        notation=notation(value_names, words, interface.header_constants()["NUM_PLAYERS"]),
        marking_fixtures=lambda: marking_fixtures(part("scenarios").SCENARIO_DIR, suite_targets),
    )

"""The games the grader knows, by name: each a package here whose ``GAME`` is a ``GameSpec``.

The core finds a game only through ``get`` (by name, imported on demand) or ``titled`` (by the title a
result names), so no core module imports a game package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.core.gamespec import GameSpec

GAMES = {  # name -> package
    "fcd18s2": "grader.games.fcd18s2",
    "fcd17s2": "grader.games.fcd17s2",
    "palace": "grader.games.palace",
}
DEFAULT_GAME = "fcd18s2"


def get(name: str = DEFAULT_GAME) -> GameSpec:
    """The ``GameSpec`` of a game known by that name."""
    if name not in GAMES:
        raise KeyError(f"no game called {name!r}; the grader knows {', '.join(sorted(GAMES))}")
    return importlib.import_module(GAMES[name]).GAME


def titled(title: str) -> GameSpec | None:
    """The game a result was graded against, by its title (``SubmissionResult.game``): the reports, which have
    only the result, read the game's notation from it.  None for a title no game has (a result made before
    results named their game)."""
    return next((game for game in map(get, GAMES) if game.title == title), None) if title else None

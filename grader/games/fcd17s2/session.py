"""A 2017 game played on both sides and judged: the 2018 session (``grader.games.fcd18s2.session``)
with the 2017 edition, its scenarios for the notes, and no C observer (every game takes the full run)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.observations import TABLE
from grader.games.fcd17s2.scenarios import load_scenarios
from grader.games.fcd18s2.focus import owners
from grader.games.fcd18s2.session import FcdSession


@functools.cache
def default_owners() -> dict[tuple[str, bool], str]:
    """Which scenario of the shipped 2017 suite owns each observation (for notes)."""
    return owners(load_scenarios(), TABLE)


class Fcd17Session(FcdSession):
    edition = FCD17
    native_observer = False

    @staticmethod
    def shipped_owners() -> dict[tuple[str, bool], str]:
        return default_owners()

    @classmethod
    def open(cls, folder: Path, **kwargs: Any) -> Fcd17Session:
        from grader.games.fcd17s2 import GAME  # noqa: PLC0415 - the package imports this module

        return cls.open_game(folder, GAME, **kwargs)

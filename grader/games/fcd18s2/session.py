"""A 2018 game played on both sides and judged: the family's session (``grader.games.fcd.session``)
with the 2018 edition (its C observer included) and its scenarios for the notes."""

from __future__ import annotations

import functools

from grader.games.fcd.focus import owners
from grader.games.fcd.session import FcdSession
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.observations import TABLE
from grader.games.fcd18s2.scenarios import load_scenarios
from reference import Game


@functools.cache
def default_owners() -> dict[tuple[str, bool], str]:
    """Which scenario of the shipped 2018 suite owns each observation (for notes)."""
    return owners(load_scenarios(), TABLE)


class Fcd18Session(FcdSession[Game]):
    edition = FCD18

    @staticmethod
    def shipped_owners() -> dict[tuple[str, bool], str]:
        return default_owners()


SESSION = Fcd18Session

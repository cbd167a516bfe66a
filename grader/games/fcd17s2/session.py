"""A 2017 game played on both sides and judged: the family's session (``grader.games.fcd.session``)
with the 2017 edition (its C observer included), and its scenarios for the notes."""

from __future__ import annotations

import functools

from grader.games.fcd.focus import owners
from grader.games.fcd.session import FcdSession
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.observations import TABLE
from grader.games.fcd17s2.scenarios import load_scenarios
from reference.fcd17s2 import Game


@functools.cache
def default_owners() -> dict[tuple[str, bool], str]:
    """Which scenario of the shipped 2017 suite owns each observation (for notes)."""
    return owners(load_scenarios(), TABLE)


class Fcd17Session(FcdSession[Game]):
    edition = FCD17

    @staticmethod
    def shipped_owners() -> dict[tuple[str, bool], str]:
        return default_owners()


SESSION = Fcd17Session

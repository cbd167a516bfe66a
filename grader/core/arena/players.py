"""Players: each answers "your move" with a ``Decision``.  A baseline bot runs on the trusted side and only
ever picks one of the legal moves; a student's player runs in the sandbox (the game's ``student_player``),
and its answer is checked against the reference before anything is applied."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence


@dataclass(frozen=True)
class Decision:
    move: str | None  # in the game's notation; None when the player forfeits
    forfeit: str = ""  # why it forfeits: "crashed (SIGSEGV)", "called playMove inside decideMove", ...
    notes: tuple[str, ...] = ()  # what else it did, not held against it (what it printed, ...)


@dataclass(frozen=True)
class Table:
    """What a player is told when asked to move: the game so far, in notation."""

    deck: str
    moves: tuple[str, ...]
    seat: int


class Player(Protocol):
    """A seat's player: the game's state (the game's own value) and its legal moves in, a decision out."""

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...  # "bot" or "student"

    def decide(self, state: object, legal: Sequence[str], table: Table) -> Decision: ...

    def close(self) -> None: ...


@dataclass
class BotPlayer:
    """A baseline: ``policy(state, legal moves, rng) -> move``, with its own seeded random numbers."""

    name: str
    policy: Callable[[object, Sequence[str], random.Random], str]  # (``game.Policy``)
    seed: int = 0
    kind: str = "bot"
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def decide(self, state: object, legal: Sequence[str], table: Table) -> Decision:
        return Decision(self.policy(state, legal, self.rng))

    def close(self) -> None:
        pass

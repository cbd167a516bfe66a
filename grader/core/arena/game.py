"""The game at the table (``ArenaGame``): a game's engine, the core's one state contract, with its seating
(``Seating``: baselines, students' players, the stand-in move), which a game registers with ``GameSpec.arena``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Protocol, Sequence

from grader.core.engine import Engine

if TYPE_CHECKING:
    from grader.core.limits import Limits

    from .players import Player

# A baseline: (state, legal moves, its own random numbers) -> one of the legal moves.
Policy = Callable[[object, Sequence[str], random.Random], str]


class StudentPlayerFactory(Protocol):
    """A game's student player: (the student's folder, the entrant's name, the limits of one decideMove call,
    "allowed" or "forbidden" to look at the other hands) -> the player."""

    def __call__(self, folder: str | Path, name: str, limits: Limits, other_hands: str) -> Player: ...


class Seating(Protocol):
    """A game at the table (``GameSpec.arena``): the engine it plays there (the game's own, or a variant of it
    bound once: Palace seats four), its baselines, its students' players, and the move a seat that forfeited
    makes."""

    @property
    def engine(self) -> Engine: ...

    @property
    def bots(self) -> Mapping[str, Policy]: ...  # baseline name -> policy

    @property
    def student_player(self) -> StudentPlayerFactory | None: ...  # None if students cannot play

    def stand_in(self, state: object, legal: Sequence[str]) -> str: ...  # the move of a seat that forfeited


@dataclass(frozen=True)
class ArenaGame:
    """The game at the table: its engine (``grader.core.engine``: the one state contract), with moves as the
    engine's notation -- so a student's player, running elsewhere, answers in the same words as a baseline --
    and its seating."""

    engine: Engine
    seating: Seating

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def seats(self) -> int:
        return self.engine.seats

    @property
    def bots(self) -> Mapping[str, Policy]:
        return self.seating.bots

    @property
    def student_player(self) -> StudentPlayerFactory | None:
        return self.seating.student_player

    def random_deck(self, rng: random.Random) -> object:
        return self.engine.random_deck(rng)

    def format_deck(self, deck: object) -> str:
        return self.engine.format_deck(deck)

    def new_state(self, deck: object) -> object:
        return self.engine.new_game(deck)

    def to_move(self, state: object) -> int:
        return self.engine.to_move(state)

    def legal(self, state: object) -> list[str]:
        """The legal moves, in notation."""
        return [self.engine.format_move(m) for m in self.engine.legal_moves(state)]

    def apply(self, state: object, move: str) -> None:
        self.engine.apply(state, self.engine.parse_move(move))

    def finished(self, state: object) -> bool:
        return self.engine.outcome(state) is not None

    def winner(self, state: object) -> int | None:
        return self.engine.winner(state)

    def scores(self, state: object) -> list[int]:
        return self.engine.scores(state)

    def stand_in(self, state: object, legal: Sequence[str]) -> str:
        return self.seating.stand_in(state, legal)

"""The game at the table (``ArenaGame``): a game's engine, the core's one state contract, with its seating
(``Seating``: baselines, students' players, the stand-in move, who may see which cards), which a game registers
with ``GameSpec.arena``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Literal, Mapping, Protocol, Sequence

from grader.core.engine import Engine

from .players import Player

if TYPE_CHECKING:
    from grader.core.sandbox.limits import Limits

# A baseline: (state, legal moves, its own random numbers) -> one of the legal moves.
Policy = Callable[[object, Sequence[str], random.Random], str]


# Who sees a part of the table's cards while the game is on: everyone, only the seat it belongs to, or no one
# (a face-down card).  Its size is always seen; everything is seen once the game is over.
Seen = Literal["all", "owner", "none"]


@dataclass(frozen=True)
class Row:
    """One row of a game's replay frame (``Frame.seats``): the seat it belongs to, which of that seat's rows it is
    ("" when a seat has one row), and who sees its cards in play."""

    seat: int
    part: str
    seen: Seen


@dataclass(frozen=True)
class Privacy:
    """What a person at one seat may see of a replay frame (``fcd-play --web``): a rule for each row of
    ``Frame.seats`` and each pile of ``Frame.piles``, in order.  A row or pile without a rule is not seen."""

    rows: tuple[Row, ...]
    piles: tuple[Literal["all", "none"], ...]  # a pile belongs to no seat: everyone sees its cards, or no one


class BuiltPlayer(Player, Protocol):
    """A student's player, built before its first move: ``problem`` says why it could not be built ('' when it
    was) and ``build_output`` what the compiler said."""

    @property
    def problem(self) -> str: ...

    @property
    def build_output(self) -> str: ...


class StudentPlayerFactory(Protocol):
    """A game's student player: (the student's folder, the entrant's name, the limits of one decideMove call,
    "allowed" or "forbidden" to look at the other hands) -> the player."""

    def __call__(self, folder: str | Path, name: str, limits: Limits, other_hands: str) -> BuiltPlayer: ...


class Seating(Protocol):
    """A game at the table (``GameSpec.arena``): the engine it plays there (the game's own, or a variant of it
    bound once: Palace seats four), its baselines, its students' players, the move a seat that forfeited
    makes, and who sees which cards while the game is on."""

    @property
    def engine(self) -> Engine: ...

    @property
    def bots(self) -> Mapping[str, Policy]: ...  # baseline name -> policy

    @property
    def student_player(self) -> StudentPlayerFactory | None: ...  # None if students cannot play

    def stand_in(self, state: object, legal: Sequence[str]) -> str: ...  # the move of a seat that forfeited

    @property
    def privacy(self) -> Privacy: ...  # who sees which cards of the game's replay frames while it is on


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

    @property
    def privacy(self) -> Privacy:
        return self.seating.privacy

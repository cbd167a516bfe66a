"""The engine contract: a game's reference rules as every generic algorithm takes them.

One contract, OpenSpiel's state contract in this project's words: a game's reference engine is passed as a
value to the random playouts (``random_playout``), the arena's matches, tournaments and web page
(``grader.core.arena``), and the contract tests -- a new state from a deck, whose turn it is, the legal
moves, a move applied, the outcome (None while the game goes on), who won and what each seat holds at the
end, and a one-line notation for decks and moves whose round trip is exact.
"""

from __future__ import annotations

import random
from typing import Protocol, Sequence


class Engine(Protocol):
    """A game's rules.  A deck, a state, a move and an outcome are the game's own values: the core hands them
    back to the engine that made them and never looks inside (hence ``object``); the notation is how they
    travel (to a player in the sandbox, into a report)."""

    @property
    def title(self) -> str: ...

    @property
    def seats(self) -> int: ...  # the most players a game of it seats (the arena's tables: all of them)

    def random_deck(self, rng: random.Random) -> object: ...

    def new_game(self, deck: object) -> object: ...  # the initial state

    def to_move(self, state: object) -> int: ...  # the seat whose move it is

    def legal_moves(self, state: object) -> Sequence[object]: ...

    def apply(self, state: object, move: object) -> None: ...  # a legal move (checked by the caller)

    def outcome(self, state: object) -> object | None: ...  # None while the game goes on: terminal otherwise

    def winner(self, state: object) -> int | None: ...  # the seat that won, or None (no winner, or not over)

    def scores(self, state: object) -> list[int]: ...  # what each seat of the state holds: fewer is better

    def format_deck(self, deck: object) -> str: ...

    def parse_deck(self, text: str) -> object: ...

    def format_move(self, move: object) -> str: ...

    def parse_move(self, text: str) -> object: ...

    def format_moves(self, moves: Sequence[object]) -> str: ...

    def parse_moves(self, text: str) -> list[object]: ...


def random_playout(engine: Engine, deck: object, rng: random.Random,
                   max_moves: int) -> tuple[list[object], object | None]:
    """Play uniformly random legal moves from a new game on ``deck``: the moves made and the
    outcome (None if the game was still going after ``max_moves``)."""
    state = engine.new_game(deck)
    moves: list[object] = []
    while len(moves) < max_moves and engine.outcome(state) is None:
        legal = engine.legal_moves(state)
        if not legal:
            break
        move = rng.choice(list(legal))
        engine.apply(state, move)
        moves.append(move)
    return moves, engine.outcome(state)

"""The engine contract: what generic algorithms (random play, tournaments) need of a game's rules.

A game's reference engine is passed to them as a value, the way OpenSpiel
passes a game: a new state from a deck, the legal moves of a state, a move
applied, the outcome (None while the game goes on), and a one-line notation for
decks and moves whose round trip is exact.  ``random_playout`` is the first
such algorithm; it is what the contract test runs on every registered game.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, Sequence


class Engine(Protocol):
    def new_game(self, deck: Any) -> Any: ...

    def legal_moves(self, state: Any) -> Sequence[Any]: ...

    def apply(self, state: Any, move: Any) -> None: ...

    def outcome(self, state: Any) -> Any | None: ...

    def random_deck(self, rng: random.Random) -> Any: ...

    def format_deck(self, deck: Any) -> str: ...

    def parse_deck(self, text: str) -> Any: ...

    def format_moves(self, moves: Sequence[Any]) -> str: ...

    def parse_moves(self, text: str) -> list[Any]: ...


def random_playout(engine: Engine, deck: Any, rng: random.Random, max_moves: int) -> tuple[list[Any], Any | None]:
    """Play uniformly random legal moves from a new game on ``deck``: the moves made and the
    outcome (None if the game was still going after ``max_moves``)."""
    state = engine.new_game(deck)
    moves: list[Any] = []
    while len(moves) < max_moves and engine.outcome(state) is None:
        legal = engine.legal_moves(state)
        if not legal:
            break
        move = rng.choice(list(legal))
        engine.apply(state, move)
        moves.append(move)
    return moves, engine.outcome(state)

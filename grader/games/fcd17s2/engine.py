"""The 2017 reference engine (``reference.fcd17s2``) behind the core's engine contract (``grader.core.engine``).

Moves are the written kind (``MoveSpec``: ``5RH``, ``DRH/B``, ``draw``, ``uno``,
``end``), so a move list is its notation; a state is the 2017 ``Game``.
"""

from __future__ import annotations

import random
from typing import Sequence

from reference.cards import traditional_deck
from reference.fcd17s2 import Deck, Game, MoveSpec, Outcome, format_moves, parse_moves

SMALLEST_DECK, LARGEST_RANDOM_DECK = 30, 120  # the grader's games use at least 30 cards (B10)


class Fcd17Engine:
    def new_game(self, deck: Deck) -> Game:
        return Game(deck)

    def legal_moves(self, state: Game) -> list[MoveSpec]:
        return [m.spec() for m in state.legal_moves()]

    def apply(self, state: Game, move: MoveSpec) -> None:
        state.play_move(state.resolve(move))

    def outcome(self, state: Game) -> Outcome | None:
        return state.outcome()

    def random_deck(self, rng: random.Random) -> Deck:
        """A shuffled part of the 800-card deck, 30 to 120 cards."""
        keys = traditional_deck().keys
        rng.shuffle(keys)
        return Deck.from_keys(keys[:rng.randint(SMALLEST_DECK, LARGEST_RANDOM_DECK)])

    def format_deck(self, deck: Deck) -> str:
        return str(deck)

    def parse_deck(self, text: str) -> Deck:
        return Deck.parse(text)

    def format_moves(self, moves: Sequence[MoveSpec]) -> str:
        return format_moves(list(moves))

    def parse_moves(self, text: str) -> list[MoveSpec]:
        return parse_moves(text)


ENGINE = Fcd17Engine()

"""What the arena needs of a game: its reference rules seen from the table (``ArenaGame``).

Moves travel as the game's notation (strings), so a student's player, running elsewhere, answers in
the same words as a baseline.  A game registers one with ``GameSpec.arena``.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Protocol, Sequence


class ArenaGame(Protocol):
    title: str
    seats: int  # players at the table

    def random_deck(self, rng: random.Random) -> Any: ...

    def format_deck(self, deck: Any) -> str: ...

    def new_state(self, deck: Any) -> Any: ...

    def to_move(self, state: Any) -> int: ...  # the seat whose move it is

    def legal(self, state: Any) -> list[str]: ...  # the legal moves, in notation

    def apply(self, state: Any, move: str) -> None: ...  # a legal move (checked by the caller)

    def finished(self, state: Any) -> bool: ...

    def winner(self, state: Any) -> int | None: ...  # the seat that won, or None (no winner, or not over)

    def scores(self, state: Any) -> list[int]: ...  # what each seat holds at the end: fewer is better

    def stand_in(self, state: Any, legal: Sequence[str]) -> str: ...  # the move of a seat that forfeited

    bots: dict[str, Callable[..., str]]  # baseline name -> policy(state, legal, rng) -> move
    student_player: Callable[..., Any] | None  # (folder, limits) -> a Player; None if students cannot play

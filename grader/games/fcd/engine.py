"""A Final Card-Down edition's reference engine behind the core's engine contract (``grader.core.engine``).

Moves are the written kind (``MoveSpec``: ``5RH``, ``DRH/B``, ``draw``, ``end``, 2017's ``uno``),
so a move list is its notation; a state is the edition's reference ``Game``.  An edition binds its
rules (``grader.games.fcd18s2.engine``, ``grader.games.fcd17s2.engine``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence, cast

from grader.games.fcd.edition import LegalMove, WrittenMove
from reference.cards import Deck, traditional_deck

SMALLEST_DECK, LARGEST_RANDOM_DECK = 30, 120  # random decks: at least 30 cards (2018's A51, 2017's B10)
SEATS = 4


class Ending(Protocol):
    """How an edition's game ended (its ``Outcome``)."""

    @property
    def winner(self) -> int | None: ...


class PlayedGame(Protocol):
    """What the engine asks of an edition's reference ``Game`` (``reference.Game``, ``reference.fcd17s2.Game``)."""

    def legal_moves(self) -> Sequence[LegalMove]: ...

    # Each edition's own MoveSpec and PlayerMove (Python's types cannot tie a game to its move types).
    def resolve(self, spec: Any) -> object: ...

    def play_move(self, move: Any) -> None: ...

    def outcome(self) -> Ending | None: ...

    def current_player(self) -> int: ...

    def player_points(self, player: int) -> int: ...


@dataclass(frozen=True)
class FcdEngine:
    """The contract over an edition's reference.  Its parameters are ``object``: the core hands back only what
    this engine made (a ``Deck``, the edition's ``Game``, its ``MoveSpec``), so each is that, as cast."""

    title: str
    new_state: Callable[[Deck], PlayedGame]  # deck -> the edition's reference Game
    spec_of: Callable[[LegalMove], WrittenMove]  # a legal move of the reference -> its written kind (MoveSpec)
    read_move: Callable[[str], WrittenMove]  # one token of the edition's notation
    write_moves: Callable[[list[Any]], str]  # the edition's notation of a move list (of its own MoveSpecs)
    read_moves: Callable[[str], list[Any]]
    seats: int = SEATS

    def new_game(self, deck: object) -> PlayedGame:
        return self.new_state(cast(Deck, deck))

    def to_move(self, state: object) -> int:
        return cast(PlayedGame, state).current_player()

    def legal_moves(self, state: object) -> list[WrittenMove]:
        return [self.spec_of(m) for m in cast(PlayedGame, state).legal_moves()]

    def apply(self, state: object, move: object) -> None:
        game = cast(PlayedGame, state)
        game.play_move(game.resolve(move))

    def outcome(self, state: object) -> Ending | None:
        return cast(PlayedGame, state).outcome()

    def winner(self, state: object) -> int | None:
        ending = cast(PlayedGame, state).outcome()
        return ending.winner if ending is not None else None

    def scores(self, state: object) -> list[int]:
        game = cast(PlayedGame, state)
        return [game.player_points(p) for p in range(self.seats)]

    def random_deck(self, rng: random.Random) -> Deck:
        """A shuffled part of the 800-card deck, 30 to 120 cards."""
        keys = traditional_deck().keys
        rng.shuffle(keys)
        return Deck.from_keys(keys[:rng.randint(SMALLEST_DECK, LARGEST_RANDOM_DECK)])

    def format_deck(self, deck: object) -> str:
        return str(deck)

    def parse_deck(self, text: str) -> Deck:
        return Deck.parse(text)

    def format_move(self, move: object) -> str:
        return str(move)

    def parse_move(self, text: str) -> WrittenMove:
        return self.read_move(text)

    def format_moves(self, moves: Sequence[object]) -> str:
        return self.write_moves(list(moves))

    def parse_moves(self, text: str) -> list[object]:
        return list(self.read_moves(text))

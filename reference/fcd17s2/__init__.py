"""The reference engine for Final Card-Down, 2017 edition (17s2): the 2017 grader's oracle.

Cards are ``reference.cards`` (the numbers of Card.h are the same in 2017; only
the C names of values 10-13 differ, see ``header.VALUE_NAMES``).

    >>> from reference.fcd17s2 import Deck, Direction, new_game
    >>> deck = Deck.parse(" ".join(["1RH"] * 40))
    >>> game = new_game(deck.values, deck.colors, deck.suits)
    >>> game.current_player(), game.play_direction() is Direction.CLOCKWISE, game.turn_moves(0)
    (0, True, 0)
"""

from ..cards import Card, Color, Deck, Suit, Value
from ..game import Outcome, Termination
from .errors import DeckError, GameError, HistoryError, IllegalMoveError, InvalidMoveError
from .game import Game, new_game
from .header import (
    DEALT,
    GAME_H_FUNCTIONS,
    MIN_DECK,
    NO_WINNER,
    NOT_FINISHED,
    NUM_PLAYERS,
    VALUE_NAMES,
    Direction,
)
from .moves import SAYS, Action, MoveSpec, PlayerMove, format_moves, parse_moves
from .rulings import BY_ID, RULINGS, STRICT_IDS, Ruling, leniency

__all__ = [
    "BY_ID", "DEALT", "GAME_H_FUNCTIONS", "MIN_DECK", "NOT_FINISHED", "NO_WINNER", "NUM_PLAYERS", "RULINGS",
    "SAYS", "STRICT_IDS", "VALUE_NAMES", "Action", "Card", "Color", "Deck", "DeckError", "Direction", "Game",
    "GameError", "HistoryError", "IllegalMoveError", "InvalidMoveError", "MoveSpec", "Outcome", "PlayerMove",
    "Ruling", "Suit", "Termination", "Value", "format_moves", "leniency", "new_game", "parse_moves",
]

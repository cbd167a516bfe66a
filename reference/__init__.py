"""The reference engine for Final Card-Down (18s2 rules): the grader's oracle.

    >>> from reference import new_game, Deck, PlayerMove, Action
    >>> deck = Deck.parse(" ".join(["1RH"] * 40))
    >>> game = new_game(deck.values, deck.colors, deck.suits)
    >>> game.current_player(), game.hand_card_count()
    (0, 7)
"""

from .cards import Card, CardKey, Color, Deck, NotationError, Suit, Value, traditional_deck
from .errors import DeckError, GameError, IllegalMoveError, InvalidMoveError
from .game import (
    DEALT,
    MIN_DECK,
    NO_WINNER,
    NOT_FINISHED,
    NUM_PLAYERS,
    Game,
    Outcome,
    Termination,
    new_game,
)
from .moves import Action, MoveSpec, PlayerMove, format_moves, parse_moves
from .rulings import RULINGS, Leniency, Ruling, leniency

__all__ = [
    "DEALT", "MIN_DECK", "NOT_FINISHED", "NO_WINNER", "NUM_PLAYERS", "RULINGS",
    "Action", "Card", "CardKey", "Color", "Deck", "DeckError", "Game", "GameError",
    "IllegalMoveError", "InvalidMoveError", "Leniency", "MoveSpec", "NotationError", "Outcome",
    "PlayerMove", "Ruling", "Suit", "Termination", "Value", "format_moves", "leniency",
    "new_game", "parse_moves", "traditional_deck",
]

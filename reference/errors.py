"""Errors the reference engine raises, split by cause (as python-chess does)."""


class GameError(Exception):
    """Base class for everything the engine refuses."""


class InvalidMoveError(GameError, ValueError):
    """The move is malformed: a card missing for PLAY_CARD, an unknown action."""


class IllegalMoveError(GameError, ValueError):
    """The move is well formed but the rules do not allow it now.

    ``playMove`` with an invalid move is undefined in C (A28); the oracle
    refuses it rather than guess.
    """


class DeckError(GameError, ValueError):
    """newGame was given a deck the rules do not define (A36, A51)."""

"""Errors of the Palace reference engine, split by cause."""


class GameError(Exception):
    """Base class for everything the Palace engine refuses."""


class NotationError(GameError, ValueError):
    """Text in a notation this package cannot read (a card, a setup, a move, readings)."""


class DeckError(GameError, ValueError):
    """newGame was given players, a deck or rules outside the contract (C7: undefined in C)."""


class IllegalMoveError(GameError, ValueError):
    """The move is not valid now, or a written move names a card the mover does not have.

    ``playMove`` with an invalid move is undefined in C (C41); the oracle refuses it rather than guess.
    """


class MalformedMoveError(IllegalMoveError):
    """The move is malformed in one of the ways C40 lists (action outside the enum, a bad count, NULL or
    repeated cards): isValidMove is FALSE for it, and playMove refuses it like any invalid move."""


__all__ = ["DeckError", "GameError", "IllegalMoveError", "MalformedMoveError", "NotationError"]

"""Errors of the 2017 engine: the 2018 ones (same causes), plus questions about a past that does not exist."""

from ..errors import DeckError, GameError, IllegalMoveError, InvalidMoveError


class HistoryError(GameError, IndexError):
    """``turnMoves``/``pastMove`` asked about a turn or move that has not happened (B52: undefined in C)."""


__all__ = ["DeckError", "GameError", "HistoryError", "IllegalMoveError", "InvalidMoveError"]

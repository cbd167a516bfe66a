"""The frames a Final Card-Down game sends from the sandbox: what both sides of the worker agree on.

The sandbox side (``play``) writes them; the trusted side (``session``, ``compare``) reads them; so this
module, not the job that loads a student's library, is what the trusted side imports.
"""

from __future__ import annotations

from enum import Enum

from grader.core.sandbox.protocol import ERROR_TAG


class Event(Enum):
    """The tag ``t`` of each frame a game sends."""

    OBS = "obs"  # the observations after newGame (i = 0) or after move i - 1
    PACKED = "packed"  # a whole game observed by the C observer: how it ended, where, the packed steps
    MOVED = "moved"  # move i was made
    REFUSED = "refused"  # the submission's own isValidMove refused move i; it is made anyway (A28: undefined after)
    NO_CARD = "no_card"  # the card of move i is not in the current hand: the game stops there
    DONE = "done"  # every move made and the game destroyed
    ERROR = ERROR_TAG  # the game could not start: ``what`` is load, missing or null_game


OVER = (Event.DONE, Event.NO_CARD, Event.PACKED)  # the child got to the end of what it could play
# How a packed run ended (the C observer's return value, sent back by the worker; ``packed`` reads the steps).
DONE, REFUSED, NO_CARD, NULL_GAME, OVERFLOW = range(5)
OUTCOMES = ("done", "refused", "no_card", "null_game", "overflow")
PACKED_CAPACITY = 8 << 20  # int32s a packed game may fill (32 MiB of address space, touched only as written)


def max_frames(moves: int) -> int:
    """The most frames a game of this many moves sends (an observation, a refusal and an event a move)."""
    return 3 * moves + 4

"""The frames a Palace game sends from the sandbox and the questions it is asked: what both sides of the
worker agree on.  The sandbox side (``play``) writes them; the trusted side (``session``, ``compare``,
``explain``, ``stages``) reads them; so this module, not the job that loads a student's library, is what the
trusted side imports."""

from __future__ import annotations

from enum import Enum
from typing import TypedDict

from grader.core.sandbox.protocol import ERROR_TAG

ASK = -8  # the call-in-progress probe number of an asked question: (step, ASK, C call, entry, 0)
RECHECK = -9  # ... of the counters read again after an observation: (step, RECHECK, C call, a, 0)
INDEX_RANGES = "index_ranges"  # the asked entry that is not a move


class AskedMove(TypedDict, total=False):
    """A move of ``ask`` (see the module's docstring): cards written, ``None`` for NULL, or an int j for the
    same pointer as entry j."""

    action: int
    cards: list[str | int | None]
    count: int
    index: int


AskEntry = AskedMove | str  # a move, or ``INDEX_RANGES``


class Event(Enum):
    """The tag ``t`` of each frame a game sends."""

    OBS = "obs"
    MOVED = "moved"
    REFUSED = "refused"
    NO_CARD = "no_card"
    ASKED = "asked"
    RECHECK = "recheck"
    DONE = "done"
    PACKED = "packed"  # a whole game played by the C observer: how the call ended, and its frames packed
    ERROR = ERROR_TAG


OVER = (Event.DONE, Event.REFUSED, Event.NO_CARD)  # the child got to the end of what it could play


def max_frames(moves: int) -> int:
    """The most frames a game of this many moves sends (an observation and an event a move)."""
    return 2 * moves + 4

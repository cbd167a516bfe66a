"""Final Card-Down (2017) at the table: the family's seating (``grader.games.fcd.arena``) with the 2017 engine,
its baselines (``bots``) and a student's 2017 ``player.c`` as a player (``StudentPlayer``): built with the course's
2017 model ``Game.c`` behind the family's guard and asked through the 2017 ``decide`` job.  The 2017 Game.h cannot
show another player's hand (``arena_c/fcd_guard_flags.h``: the guard counts no looks), so the marking
configuration's ``other_hands`` has nothing to allow or forbid here.
"""

from __future__ import annotations

from pathlib import Path

from grader.games.fcd.arena import FcdPlayer, FcdSeating, player_kit
from grader.games.fcd17s2.bots import BOTS
from grader.games.fcd17s2.engine import ENGINE
from grader.games.fcd17s2.sandbox.interface import INCLUDE_DIR

MODEL = Path(__file__).resolve().parents[3] / "fixtures" / "fcd17s2" / "submissions" / "model"
GUARD_FLAGS = Path(__file__).resolve().parent / "arena_c" / "fcd_guard_flags.h"
RENAMED = ("newGame", "destroyGame", "playMove")  # the model's, behind the guard


class StudentPlayer(FcdPlayer):
    """A student's 2017 ``player.c``, built with the 2017 model and the guard, asked for moves in the sandbox."""

    kit = player_kit(include_dir=INCLUDE_DIR, model=MODEL, guard_flags=GUARD_FLAGS, renamed=RENAMED,
                     job="grader.games.fcd17s2.sandbox.decide", work_prefix="fcd17-player-")


SEATING = FcdSeating(ENGINE, BOTS, StudentPlayer)

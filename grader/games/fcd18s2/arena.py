"""Final Card-Down (2018) at the table: the family's seating (``grader.games.fcd.arena``) with the 2018 engine,
its baselines (``bots``) and a student's 2018 ``player.c`` as a player (``StudentPlayer``): built with the course's
2018 model ``Game.c`` behind the family's guard, whose 2018 settings (``arena_c/fcd_guard_flags.h``) count the
looks at another player's hand through ``getHandCard`` (a course may forbid them: ``other_hands``), and asked
through the 2018 ``decide`` job.
"""

from __future__ import annotations

from pathlib import Path

from grader.games.fcd.arena import FcdPlayer, FcdSeating, player_kit
from grader.games.fcd18s2.bots import BOTS
from grader.games.fcd18s2.engine import ENGINE
from grader.games.fcd18s2.sandbox.interface import INCLUDE_DIR

MODEL = Path(__file__).resolve().parents[3] / "fixtures" / "submissions" / "model"
GUARD_FLAGS = Path(__file__).resolve().parent / "arena_c" / "fcd_guard_flags.h"
RENAMED = ("newGame", "destroyGame", "playMove", "getHandCard")  # the model's, behind the guard


class StudentPlayer(FcdPlayer):
    """A student's 2018 ``player.c``, built with the 2018 model and the guard, asked for moves in the sandbox."""

    kit = player_kit(include_dir=INCLUDE_DIR, model=MODEL, guard_flags=GUARD_FLAGS, renamed=RENAMED,
                     job="grader.games.fcd18s2.sandbox.decide", work_prefix="fcd-player-")


SEATING = FcdSeating(ENGINE, BOTS, StudentPlayer)

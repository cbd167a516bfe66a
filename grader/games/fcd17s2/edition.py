"""The 2017 edition as the shared trusted-side pipeline takes it (``grader.games.fcd.edition``)."""

from __future__ import annotations

from pathlib import Path

import reference
import reference.fcd17s2
from grader.games.fcd.edition import Edition, RefusalRulings, folder_of
from grader.games.fcd17s2 import c_observer
from grader.games.fcd17s2.observations import TABLE
from grader.games.fcd17s2.sandbox.observe import Observer, describe_call, probe_name
from reference.fcd17s2 import BY_ID, Game, IllegalMoveError, MoveSpec, Value, leniency

HERE = Path(__file__).resolve().parent  # the edition's values (its table, its observer) are part of a trace's version


def no_piles(_game: Game, _full: bool) -> tuple[int, int]:
    """2017 shows no pile beyond its top: nothing to read deep."""
    return 0, 0


FCD17 = Edition(name="fcd17s2", table=TABLE, new_game=Game, parse_move=MoveSpec.parse,
                illegal_move=IllegalMoveError, leniency=leniency, rulings=BY_ID, observer=Observer,
                depths=no_piles, sources=(folder_of(reference), folder_of(reference.fcd17s2), HERE),
                describe_call=describe_call, probe_name=probe_name,
                refusal=RefusalRulings(undefined="B58", strict_after={}), rules_span="S1-S26",
                random_specials=(Value.DRAW_TWO, Value.A, Value.B, Value.C, Value.D),
                random_prefers_plays=True, native_observer=c_observer.install)

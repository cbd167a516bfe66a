"""The 2018 edition as the family's trusted-side pipeline takes it (``grader.games.fcd.edition``)."""

from __future__ import annotations

from pathlib import Path

import reference
from grader.games.fcd.edition import Edition, RefusalRulings, folder_of
from grader.games.fcd.sandbox.observe import pile_depths
from grader.games.fcd18s2 import c_observer
from grader.games.fcd18s2.observations import TABLE
from grader.games.fcd18s2.sandbox.observe import Observer, describe_call, probe_name
from reference.rulings import BY_ID

HERE = Path(__file__).resolve().parent  # the edition's values (its table, its observer) are part of a trace's version

FCD18 = Edition(name="fcd18s2", table=TABLE, new_game=reference.Game, parse_move=reference.MoveSpec.parse,
                illegal_move=reference.IllegalMoveError, leniency=reference.leniency, rulings=BY_ID,
                observer=Observer, depths=pile_depths, sources=(folder_of(reference), HERE),
                describe_call=describe_call, probe_name=probe_name,
                refusal=RefusalRulings(undefined="A28", strict_after={"valid_draw": "A23"}), rules_span="R1-R18",
                random_specials=(reference.Value.DRAW_TWO, reference.Value.A, reference.Value.D),
                random_prefers_plays=False, rearranges_deals=True, eager_recycling_reading=True,
                native_observer=c_observer.install)

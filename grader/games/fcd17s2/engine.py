"""The 2017 reference engine (``reference.fcd17s2``) behind the core's engine contract, as the family binds it."""

from __future__ import annotations

from typing import cast

from grader.games.fcd.edition import LegalMove
from grader.games.fcd.engine import FcdEngine
from reference.fcd17s2 import Game, MoveSpec, PlayerMove, format_moves, parse_moves


def spec_of(move: LegalMove) -> MoveSpec:
    return cast(PlayerMove, move).spec()  # 2017's PlayerMove writes itself


ENGINE = FcdEngine("Final Card-Down (2017)", Game, spec_of, MoveSpec.parse, format_moves,
                   parse_moves)

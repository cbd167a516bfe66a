"""The 2018 reference engine (``reference``) behind the core's engine contract, as the family binds it."""

from __future__ import annotations

from grader.games.fcd.edition import LegalMove
from grader.games.fcd.engine import FcdEngine
from reference import Game, MoveSpec, format_moves, parse_moves


def spec_of(move: LegalMove) -> MoveSpec:
    return MoveSpec.parse(str(move))


ENGINE = FcdEngine("Final Card-Down (2018)", Game, spec_of, MoveSpec.parse, format_moves,
                   parse_moves)

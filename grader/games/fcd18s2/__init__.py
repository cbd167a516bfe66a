"""Final Card-Down, 2018 edition (rules.md): the game as the core grades it (``GAME``).

The family's pipeline (``grader.games.fcd``) with the 2018 values: the interface, the observation table,
the edition, the scenarios, ``marking.toml``, the C dialect and observer, and the game at the table.
This package is imported inside the sandbox too (the worker runs ``play``), so it imports only what the
``GameSpec`` value itself needs; the trusted-side parts are imported when first called (``edition_spec``).
"""

from __future__ import annotations

from typing import Any

from grader.games.fcd.spec import edition_spec
from grader.games.fcd18s2.engine import ENGINE
from grader.games.fcd18s2.sandbox.interface import API, COURSE_HEADERS
from reference.cards import Value
from reference.moves import Action, MoveSpec
from reference.rulings import BY_ID

# What only a 2018 submission uses (2017's Game.h has none of these functions)
HALLMARKS = ("getActiveDrawTwos", "getCurrentColor", "getNumberOfTwoCardsAtTop", "getPreviousTurnPlayer",
             "getTopDiscardTurnNumber", "currentTurnMoves")


def _suite_targets() -> Any:
    from grader.games.fcd18s2.suite import SUBMISSIONS, suite_targets  # noqa: PLC0415

    return suite_targets() if (SUBMISSIONS / "mutants.py").is_file() else None  # (a checkout has them)


def _arena() -> Any:
    from grader.games.fcd18s2.arena import SEATING  # noqa: PLC0415

    return SEATING


GAME = edition_spec("grader.games.fcd18s2", engine=ENGINE, interface=API,
                    course_headers=COURSE_HEADERS, build_rules=("R17",), rulings=BY_ID, hallmarks=HALLMARKS,
                    value_names=[v.name for v in Value],
                    words={str(MoveSpec(a)): a.name for a in Action if a != Action.PLAY_CARD},
                    suite_targets=_suite_targets, arena=_arena)

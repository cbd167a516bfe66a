"""Final Card-Down, 2017 edition (rules-17s2.md): the game as the core grades it (``GAME``).

The family's pipeline (``grader.games.fcd``) with the 2017 engine, interface, notation, rulings,
observation table and scenarios; beside them, as for 2018, what a student's ``testGame.c`` is run
against (``suite``) and the game at the table (``arena``).  Imported inside the sandbox too (the worker
runs ``play``), so the trusted-side parts are imported when first called (``edition_spec``).
"""

from __future__ import annotations

from typing import Any

from grader.games.fcd.spec import edition_spec
from grader.games.fcd17s2.engine import ENGINE
from grader.games.fcd17s2.sandbox.interface import API, COURSE_HEADERS
from reference.fcd17s2 import BY_ID, VALUE_NAMES, Action, MoveSpec

# What only a 2017 submission uses (2018's Game.h has no SAY_*, no direction, no pastMove; its values 10-13 are A-D)
HALLMARKS = ("SAY_UNO", "SAY_DUO", "SAY_TRIO", "playDirection", "pastMove", "ANTICLOCKWISE", "ADVANCE", "DECLARE")


def _suite_targets() -> Any:
    from grader.games.fcd17s2.suite import SUBMISSIONS, suite_targets  # noqa: PLC0415

    return suite_targets() if (SUBMISSIONS / "mutants.py").is_file() else None  # (a checkout has them)


def _arena() -> Any:
    from grader.games.fcd17s2.arena import SEATING  # noqa: PLC0415

    return SEATING


GAME = edition_spec("grader.games.fcd17s2", engine=ENGINE, interface=API,
                    course_headers=COURSE_HEADERS, build_rules=("B1",), rulings=BY_ID, hallmarks=HALLMARKS,
                    value_names=VALUE_NAMES,
                    words={str(MoveSpec(a)): a.name for a in Action if a != Action.PLAY_CARD},
                    suite_targets=_suite_targets, arena=_arena)

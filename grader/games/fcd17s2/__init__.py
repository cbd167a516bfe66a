"""Final Card-Down, 2017 edition (rules-17s2.md): the game as the core grades it (``GAME``).

The family's pipeline (``grader.games.fcd``) with the 2017 engine, interface, notation, rulings,
observation table and scenarios; imported inside the sandbox too (the worker runs ``play``), so the
trusted-side parts are imported when first called (``edition_spec``).
"""

from __future__ import annotations

from grader.games.fcd.spec import edition_spec
from grader.games.fcd17s2.engine import ENGINE
from grader.games.fcd17s2.interface import API, COURSE_HEADERS
from reference.fcd17s2 import BY_ID

GAME = edition_spec("grader.games.fcd17s2", engine=ENGINE, interface=API,
                    course_headers=COURSE_HEADERS, build_rules=("B1",), rulings=BY_ID)

"""What a Palace student's ``testPalace.c`` is run against: the Palace model, the accepted readings and the
mutants bundled in ``fixtures/palace/submissions`` (its tables ``readings.py`` and ``mutants.py``, the one place
of each one's name, rules and words; each is written to its folder by ``make_readings.py``/``make_mutants.py``).
A mutant only the memory stage can see (a leak, a use after free) is left out: no test program can fail on it.

Every folder holds ``Palace.c`` and ``PalaceCard.c`` (the model's also its own ``testPalace.c``, which the
build leaves out as a test driver), built as a submission is (``grader.core.build.find_sources``).  The tables
take their ``Mutant`` dataclass from the 2018 generator (``GENERATOR``), lent to them by ``grader.core.suite.tables``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from grader.core.suite import tables
from grader.core.suite.targets import Targets

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
SUBMISSIONS = FIXTURES / "palace" / "submissions"
GENERATOR = FIXTURES / "submissions" / "variants.py"  # the 2018 generator, whose Mutant the Palace tables use
TEST_FILE = "testPalace.c"


def table_files(root: Path = SUBMISSIONS, generator: Path = GENERATOR) -> tuple[Path, Path, Path]:
    """(generator, mutants' table, readings' table): the 2018 ``variants.py``, ``root``'s ``mutants.py`` and
    ``readings.py``."""
    return generator, root / "mutants.py", root / "readings.py"


def variant_lists(root: Path = SUBMISSIONS, generator: Path = GENERATOR) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(mutants, readings) as ``root``'s ``mutants.py`` and ``readings.py`` list them."""
    return tables.variant_lists(*table_files(root, generator), "palace")


@functools.cache
def suite_targets(root: Path = SUBMISSIONS) -> Targets:
    return tables.targets(root, TEST_FILE, *variant_lists(root), tables=table_files(root))

"""What a Final Card-Down (2017) student's ``testGame.c`` is run against (``grader.core.suite.tables``): the 2017
model, the accepted readings and the mutants bundled in ``fixtures/fcd17s2/submissions`` (its tables
``mutants.py`` and ``readings.py``, the one place of each one's name, rules and words; each is written to its
folder by ``make_mutants.py``/``make_readings.py``).  The tables take their ``Mutant`` dataclass from the 2018
generator (``GENERATOR``)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from grader.core.suite import tables
from grader.core.suite.targets import Targets

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
SUBMISSIONS = FIXTURES / "fcd17s2" / "submissions"
GENERATOR = FIXTURES / "submissions" / "variants.py"  # the 2018 generator, whose Mutant the 2017 tables use


def table_files(root: Path = SUBMISSIONS, generator: Path = GENERATOR) -> tuple[Path, Path, Path]:
    """(generator, mutants' table, readings' table): the 2018 ``variants.py``, ``root``'s ``mutants.py`` and
    ``readings.py``."""
    return generator, root / "mutants.py", root / "readings.py"


def variant_lists(root: Path = SUBMISSIONS, generator: Path = GENERATOR) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(mutants, readings) as ``root``'s ``mutants.py`` and ``readings.py`` list them."""
    return tables.variant_lists(*table_files(root, generator), "fcd17s2")


@functools.cache
def suite_targets(root: Path = SUBMISSIONS) -> Targets:
    return tables.targets(root, "testGame.c", *variant_lists(root), tables=table_files(root))

"""What a Final Card-Down (2018) student's ``testGame.c`` is run against (``grader.core.suite.tables``): the model,
the accepted readings and the mutants bundled in ``fixtures/submissions`` (made from the model by ``variants.py``,
the one place of each one's name, rules and words: read from ``mutants.py`` beside it)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from grader.core.suite import tables
from grader.core.suite.targets import Targets

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "submissions"


def table_files(root: Path = SUBMISSIONS) -> tuple[Path, Path, Path]:
    """(generator, mutants' table, readings' table): ``variants.py`` and, for both, ``mutants.py``."""
    return root / "variants.py", root / "mutants.py", root / "mutants.py"


def variant_lists(root: Path = SUBMISSIONS) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(mutants, readings) as ``mutants.py`` lists them (it imports ``variants``, lent to it for the import)."""
    return tables.variant_lists(*table_files(root), "fcd")


@functools.cache
def suite_targets(root: Path = SUBMISSIONS) -> Targets:
    return tables.targets(root, "testGame.c", *variant_lists(root), tables=table_files(root))

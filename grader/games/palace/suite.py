"""What a Palace student's ``testPalace.c`` is run against: the Palace model, the accepted readings and the
mutants bundled in ``fixtures/palace/submissions`` (its tables ``readings.py`` and ``mutants.py``, the one place
of each one's name, rules and words; each is written to its folder by ``make_readings.py``/``make_mutants.py``).
A mutant only the memory stage can see (a leak, a use after free) is left out: no test program can fail on it.

Every folder holds ``Palace.c`` and ``PalaceCard.c`` (the model's also its own ``testPalace.c``, which the
build leaves out as a test driver), built as a submission is (``grader.core.build.find_sources``).

The tables take their ``Mutant`` dataclass from the 2018 generator (``fixtures/submissions/variants.py``) by
putting its folder on ``sys.path`` and importing ``variants``: here the generator is lent to them under that name
for the import, and ``sys.path`` and ``sys.modules`` are left as they were.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

from grader.core.suite.targets import MODEL, MUTANT, READING, Target, Targets

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
SUBMISSIONS = FIXTURES / "palace" / "submissions"
GENERATOR = FIXTURES / "submissions" / "variants.py"  # the 2018 generator, whose Mutant the Palace tables use
TEST_FILE = "testPalace.c"
_LOADING = threading.Lock()  # the tables are imported with "variants" lent to sys.modules: one thread at a time


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (dataclasses look their module up while the class is made)
    spec.loader.exec_module(module)
    return module


def variant_lists(root: Path = SUBMISSIONS, generator: Path = GENERATOR) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(mutants, readings) as ``root``'s ``mutants.py`` and ``readings.py`` list them."""
    with _LOADING:
        variants = _module("palace_fixture_variants", generator)
        saved_path, saved_variants = list(sys.path), sys.modules.get("variants")
        sys.modules["variants"] = variants
        try:
            mutants = _module("palace_fixture_mutants", root / "mutants.py").MUTANTS
            readings = _module("palace_fixture_readings", root / "readings.py").READINGS
        finally:
            sys.path[:] = saved_path  # (each table puts the generator's folder first on the path)
            if saved_variants is None:
                sys.modules.pop("variants", None)
            else:
                sys.modules["variants"] = saved_variants
    return tuple(mutants), tuple(readings)


@functools.cache
def suite_targets(root: Path = SUBMISSIONS) -> Targets:
    mutants, readings = variant_lists(root)
    return Targets(
        test_file=TEST_FILE,
        model=Target("model", MODEL, root / "model", (), "the course's model"),
        readings=tuple(Target(r.name, READING, root / "readings" / r.name, tuple(r.rules), r.says) for r in readings),
        mutants=tuple(Target(m.name, MUTANT, root / "mutants" / m.name, tuple(m.rules), m.says)
                      for m in mutants if m.caught_by != "memory"),
    )

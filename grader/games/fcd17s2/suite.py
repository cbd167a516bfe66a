"""What a Final Card-Down (2017) student's ``testGame.c`` is run against: the 2017 model, the accepted
readings and the mutants bundled in ``fixtures/fcd17s2/submissions`` (its tables ``mutants.py`` and
``readings.py``, the one place of each one's name, rules and words; each is written to its folder by
``make_mutants.py``/``make_readings.py``).  A mutant only the memory stage can see (a leak, a copied card) is
left out: no test program can fail on it.

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
SUBMISSIONS = FIXTURES / "fcd17s2" / "submissions"
GENERATOR = FIXTURES / "submissions" / "variants.py"  # the 2018 generator, whose Mutant the 2017 tables use
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
        variants = _module("fcd_fixture_variants", generator)
        saved_path, saved_variants = list(sys.path), sys.modules.get("variants")
        sys.modules["variants"] = variants
        try:
            mutants = _module("fcd17s2_fixture_mutants", root / "mutants.py").MUTANTS
            readings = _module("fcd17s2_fixture_readings", root / "readings.py").READINGS
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
        test_file="testGame.c",
        model=Target("model", MODEL, root / "model", (), "the course's model"),
        readings=tuple(Target(r.name, READING, root / "readings" / r.name, tuple(r.rules), r.says) for r in readings),
        mutants=tuple(Target(m.name, MUTANT, root / "mutants" / m.name, tuple(m.rules), m.says)
                      for m in mutants if m.caught_by != "memory"),
    )

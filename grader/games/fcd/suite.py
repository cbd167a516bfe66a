"""What a Final Card-Down student's ``testGame.c`` is run against, for either edition (its ``suite`` names its
fixtures): the model, the accepted readings and the mutants, as the edition's fixture tables list them.

The tables take their ``Mutant`` dataclass from the 2018 generator (``fixtures/submissions/variants.py``) by
importing ``variants`` (2017's put the generator's folder on ``sys.path`` first): here the generator is lent to
them under that name for the import, and ``sys.path`` and ``sys.modules`` are left as they were.  A mutant only
the memory stage can see (a leak, a copied card) is left out: no test program can fail on it.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

from grader.core.suite.targets import MODEL, MUTANT, READING, Target, Targets

TEST_FILE = "testGame.c"
# The tables are imported with "variants" lent to sys.modules, which every edition shares: one thread at a time.
_LOADING = threading.Lock()


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (dataclasses look their module up while the class is made)
    spec.loader.exec_module(module)
    return module


def variant_lists(generator: Path, mutants: Path, readings: Path,
                  edition: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(mutants, readings): the ``MUTANTS`` of the ``mutants`` table and the ``READINGS`` of the ``readings`` one
    (the same file for 2018), each imported as ``<edition>_fixture_<its name>``."""
    with _LOADING:
        variants = _module("fcd_fixture_variants", generator)
        saved_path, saved_variants = list(sys.path), sys.modules.get("variants")
        sys.modules["variants"] = variants
        try:
            tables = {path: _module(f"{edition}_fixture_{path.stem}", path)
                      for path in dict.fromkeys((mutants, readings))}
        finally:
            sys.path[:] = saved_path  # (a table may put the generator's folder first on the path)
            if saved_variants is None:
                sys.modules.pop("variants", None)
            else:
                sys.modules["variants"] = saved_variants
    return tuple(tables[mutants].MUTANTS), tuple(tables[readings].READINGS)


def targets(root: Path, mutants: tuple[Any, ...], readings: tuple[Any, ...]) -> Targets:
    """The suite's targets: ``root``'s model, and its folders of the ``readings`` and of the ``mutants`` a test
    program can fail on."""
    return Targets(
        test_file=TEST_FILE,
        model=Target("model", MODEL, root / "model", (), "the course's model"),
        readings=tuple(Target(r.name, READING, root / "readings" / r.name, tuple(r.rules), r.says) for r in readings),
        mutants=tuple(Target(m.name, MUTANT, root / "mutants" / m.name, tuple(m.rules), m.says)
                      for m in mutants if m.caught_by != "memory"),
    )

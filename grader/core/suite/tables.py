"""A game's ``Targets`` from its fixture tables: the model, the accepted readings and the mutants as the game's
``mutants.py`` / ``readings.py`` list them (every game's suite: Final Card-Down's editions, Palace).

The tables take their ``Mutant`` dataclass from the 2018 generator (``fixtures/submissions/variants.py``) by
importing ``variants`` (some put the generator's folder on ``sys.path`` first): here the generator is lent to
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

# The tables are imported with "variants" lent to sys.modules, which every game shares: one thread at a time.
_LOADING = threading.Lock()


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (dataclasses look their module up while the class is made)
    spec.loader.exec_module(module)
    return module


def variant_lists(generator: Path, mutants: Path, readings: Path,
                  game: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(mutants, readings): the ``MUTANTS`` of the ``mutants`` table and the ``READINGS`` of the ``readings`` one
    (the same file for 2018), each imported as ``<game>_fixture_<its name>``."""
    with _LOADING:
        variants = _module("fcd_fixture_variants", generator)
        saved_path, saved_variants = list(sys.path), sys.modules.get("variants")
        sys.modules["variants"] = variants
        try:
            tables = {path: _module(f"{game}_fixture_{path.stem}", path)
                      for path in dict.fromkeys((mutants, readings))}
        finally:
            sys.path[:] = saved_path  # (a table may put the generator's folder first on the path)
            if saved_variants is None:
                sys.modules.pop("variants", None)
            else:
                sys.modules["variants"] = saved_variants
    return tuple(tables[mutants].MUTANTS), tuple(tables[readings].READINGS)


def targets(root: Path, test_file: str, mutants: tuple[Any, ...], readings: tuple[Any, ...], *,
            tables: tuple[Path, ...] = ()) -> Targets:
    """The targets of a ``test_file``: ``root``'s model, and its folders of the ``readings`` and of the ``mutants`` a
    test program can fail on; ``tables``: the files they were read from (``variant_lists``' arguments)."""
    return Targets(
        test_file=test_file, tables=tuple(dict.fromkeys(tables)),
        model=Target("model", MODEL, root / "model", (), "the course's model"),
        readings=tuple(Target(r.name, READING, root / "readings" / r.name, tuple(r.rules), r.says) for r in readings),
        mutants=tuple(Target(m.name, MUTANT, root / "mutants" / m.name, tuple(m.rules), m.says)
                      for m in mutants if m.caught_by != "memory"),
    )

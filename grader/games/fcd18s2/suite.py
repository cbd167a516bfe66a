"""What a Final Card-Down (2018) student's ``testGame.c`` is run against: the model, the accepted readings
and the mutants bundled in ``fixtures/submissions`` (made from the model by ``variants.py``, the one
place of each one's name, rules and words: read from ``mutants.py`` beside it).  A mutant only the
memory stage can see (a leak) is left out: no test program can fail on it."""

from __future__ import annotations

import functools
import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType

from grader.core.suite.targets import MODEL, MUTANT, READING, Target, Targets

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "submissions"
_LOADING = threading.Lock()  # mutants.py is imported with "variants" lent to sys.modules: one thread at a time


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (dataclasses look their module up while the class is made)
    spec.loader.exec_module(module)
    return module


def variant_lists(root: Path = SUBMISSIONS) -> tuple[tuple, tuple]:
    """(mutants, readings) as ``mutants.py`` lists them (it imports ``variants``, lent to it for the import)."""
    with _LOADING:
        return _variant_lists(root)


def _variant_lists(root: Path) -> tuple[tuple, tuple]:
    variants = _module("fcd_fixture_variants", root / "variants.py")
    before = sys.modules.get("variants")
    sys.modules["variants"] = variants
    try:
        lists = _module("fcd_fixture_mutants", root / "mutants.py")
    finally:
        if before is None:
            sys.modules.pop("variants", None)
        else:
            sys.modules["variants"] = before
    return lists.MUTANTS, lists.READINGS


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

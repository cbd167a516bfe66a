"""The implementations a student's test program is run against: their own, the course's model, every
accepted reading (correct too: a test must pass on each) and every mutant (one bug each: a good test
program fails on it).  A game gives its ``Targets`` (``GameSpec.suite_targets``); the core knows no game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

OWN, MODEL, READING, MUTANT = "own", "model", "reading", "mutant"


@dataclass(frozen=True)
class Target:
    name: str  # "model", a reading's or a mutant's name, "own"
    kind: str  # OWN, MODEL, READING or MUTANT
    folder: Path  # its sources (Game.c; Card.c, or the course's is used)
    rules: tuple[str, ...] = ()  # a reading: the ruling whose other reading it takes; a mutant: the rules it breaks
    says: str = ""  # the same in plain words: "may play a matching card after drawing", "ignores an A"
    hidden: bool = False  # a mutant held back from students' reports (the marking configuration says which)

    @property
    def correct(self) -> bool:
        """Does every valid test pass on it? (The model and the readings; not a mutant, and not the
        student's own, which is graded elsewhere.)"""
        return self.kind in (MODEL, READING)


@dataclass(frozen=True)
class Targets:
    test_file: str  # the student's test program: "testGame.c"
    model: Target
    readings: tuple[Target, ...]
    mutants: tuple[Target, ...]
    tables: tuple[Path, ...] = ()  # the files the readings' and mutants' names, rules and words were read from

    def all(self) -> tuple[Target, ...]:
        return (self.model, *self.readings, *self.mutants)

    def fixture_paths(self) -> tuple[Path, ...]:
        """What a mark of a student's tests is read from: each target's folder and the tables naming them."""
        return (*(t.folder for t in self.all()), *self.tables)

    def hiding(self, names: frozenset[str]) -> Targets:
        """The same targets with the mutants named in ``names`` hidden from students."""
        return replace(self, mutants=tuple(replace(m, hidden=m.name in names) for m in self.mutants))


def marking_fixtures(scenarios: Path, suite_targets: Callable[[], Targets | None] | None) -> tuple[Path, ...]:
    """A game's ``GameSpec.marking_fixtures``: its scenarios' folder and its students' tests' targets."""
    targets = suite_targets() if suite_targets is not None else None
    return (scenarios, *(targets.fixture_paths() if targets is not None else ()))

"""Marks for evidence, Palace: a submission with two independent bugs loses what its two bugs lose apart.

A *pair* (fixtures/palace/submissions/pairs/, PAIRS of its mutants.py, written by its make_mutants.py with
variants.make_pair) is the Palace model with the edits of two single-bug mutants of Palace.c whose bugs sit in
different marks groups.  Graded as bench/additivity.py --game palace grades it (the Palace marking, its own
default number of random games, the memory stage on), a pair loses lost(a) + lost(b) within 2 marks: one bug
neither excuses the other nor makes it cost twice.  ``lost`` is 100 minus the implementation's score, read
from the grades.

The default run grades the model and the first DEFAULT_PAIRS pairs with their mutants, two at a time (one of
them pairs a memory-stage bug with a scenario one, deliberately); every other pair is a ``slow`` test of its own.
No pair holds a mutant that stops every game before the play (STOPS_EVERY_GAME): its other bug could not be
driven at all.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from grader.core.config import MarkingConfig
from grader.core.grade import grade
from grader.games import get

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "palace" / "submissions"
GAME = get("palace")


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_mutants = _load("palace_make_mutants", SUBMISSIONS / "make_mutants.py")
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))
from variants import Mutant, pair_name  # noqa: E402

TOLERANCE = 2.0  # marks between lost(pair) and lost(a) + lost(b)
DEFAULT_PAIRS = 2  # graded in the default run; the rest of PAIRS are marked slow
PAIRS = make_mutants.load_pairs()
SCENARIOS = GAME.load_scenarios()
STOPS_EVERY_GAME = {"setup_never_ends", "play_starts_at_dealer", "next_seat_wraps_at_max"}


def home_group(m: Mutant) -> str:
    """The marks group a mutant's bug belongs to: the scenario group with the largest share of its
    scenarios naming the mutant's clauses (the memory group for a bug only the memory stage sees)."""
    if m.caught_by == "memory":
        return "memory"
    naming = Counter(s.group for s in SCENARIOS if set(m.rules) & set(s.rules))
    size = Counter(s.group for s in SCENARIOS)
    return max(sorted(naming), key=lambda g: naming[g] / size[g])


def summary(name: str) -> tuple[str, dict[str, Any]]:
    """One submission graded as bench/additivity.py --game palace grades it: every stage on."""
    result = grade(SUBMISSIONS / name, MarkingConfig.load(game=GAME), game=GAME, random_games=None, memory=True,
                   own_tests=False)
    return name, {"score": result.score,
                  "lost": {g.group: round(g.max_marks - g.marks, 2) for g in result.groups if g.marks < g.max_marks}}


def grade_all(names: list[str]) -> dict[str, dict[str, Any]]:
    """Graded two at a time (2 cores): each grade is a separate process with its own sandbox."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(summary, names))


def folders_for(chosen: list[tuple[Mutant, Mutant]]) -> list[str]:
    singles = sorted({m.name for p in chosen for m in p})
    return [f"mutants/{n}" for n in singles] + [f"pairs/{pair_name(a, b)}" for a, b in chosen]


@pytest.fixture(scope="module")
def graded() -> dict[str, dict[str, Any]]:
    """The model, the default pairs and their mutants."""
    return grade_all(["model", *folders_for(PAIRS[:DEFAULT_PAIRS])])


def lost(row: dict[str, Any]) -> float:
    return round(100 - row["score"], 2)


def where(row: dict[str, Any]) -> str:
    return ", ".join(f"{g}: {v:g}" for g, v in sorted(row["lost"].items())) or "nothing"


def check_pair(a: Mutant, b: Mutant, rows: dict[str, dict[str, Any]]) -> None:
    ra, rb, rp = rows[f"mutants/{a.name}"], rows[f"mutants/{b.name}"], rows[f"pairs/{pair_name(a, b)}"]
    for m, row in ((a, ra), (b, rb)):  # each bug alone costs something: otherwise the pair shows nothing
        assert lost(row) > 0, f"{m.name} loses nothing"
    diff = round(lost(rp) - (lost(ra) + lost(rb)), 2)
    assert abs(diff) <= TOLERANCE, (
        f"{pair_name(a, b)}: lost {lost(rp):g}, its two bugs apart {lost(ra):g} + {lost(rb):g} (difference "
        f"{diff:+g})\n  {a.name}: {where(ra)}\n  {b.name}: {where(rb)}\n  pair: {where(rp)}")


# ---- the fixtures ------------------------------------------------------------------------------------


def test_the_pairs_are_two_bugs_of_different_groups() -> None:
    """About six pairs, each of two different mutants in different marks groups, at most one of them a
    memory-stage bug and none a bug that stops every game; the pairs across many groups, a memory bug among the
    default ones."""
    assert len(PAIRS) >= 6 and len({pair_name(a, b) for a, b in PAIRS}) == len(PAIRS)
    for a, b in PAIRS:
        assert home_group(a) != home_group(b), (pair_name(a, b), home_group(a))
        assert not (a.caught_by == b.caught_by == "memory"), pair_name(a, b)
        assert not {a.name, b.name} & STOPS_EVERY_GAME, pair_name(a, b)
        assert a.file == b.file == "Palace.c"
    assert len({home_group(m) for p in PAIRS for m in p}) >= 10
    assert any(m.caught_by == "memory" for p in PAIRS[:DEFAULT_PAIRS] for m in p)


def test_the_pair_folders_are_what_make_mutants_py_makes(tmp_path: Path) -> None:
    made = make_mutants.write_pairs(tmp_path / "pairs")
    committed = SUBMISSIONS / "pairs"
    assert sorted(p.name for p in committed.iterdir()) == sorted(p.name for p in made), (
        "pairs/ is stale: run python fixtures/palace/submissions/make_mutants.py")
    for folder in made:
        assert sorted(f.name for f in folder.iterdir()) == sorted(make_mutants.SOURCES)
        for f in folder.iterdir():
            assert f.read_text() == (committed / folder.name / f.name).read_text(), (
                f"pairs/{folder.name} is stale: run python fixtures/palace/submissions/make_mutants.py")


# ---- the marks ---------------------------------------------------------------------------------------


def test_the_model_gets_full_marks(graded: dict[str, dict[str, Any]]) -> None:
    """What every ``lost`` is measured from."""
    assert graded["model"]["score"] == 100, where(graded["model"])


@pytest.mark.parametrize("pair", PAIRS[:DEFAULT_PAIRS], ids=lambda p: pair_name(*p))
def test_a_pair_of_bugs_loses_what_its_two_bugs_lose_apart(pair: tuple[Mutant, Mutant],
                                                           graded: dict[str, dict[str, Any]]) -> None:
    check_pair(*pair, graded)


@pytest.mark.slow
@pytest.mark.parametrize("pair", PAIRS[DEFAULT_PAIRS:], ids=lambda p: pair_name(*p))
def test_every_other_pair_loses_what_its_two_bugs_lose_apart(pair: tuple[Mutant, Mutant]) -> None:
    """The pairs after the default ones, each graded with its mutants (-m slow)."""
    check_pair(*pair, grade_all(folders_for([pair])))

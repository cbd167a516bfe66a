"""Marks for evidence in the other games: a submission with two independent bugs loses what its two bugs lose apart.

For the 2017 edition and Palace alike (the 2018 game's own: tests/games/fcd18s2/test_additivity.py): a *pair*
(fixtures/GAME/submissions/pairs/, PAIRS of its mutants.py, written by its make_mutants.py with
variants.make_pair) is the game's model with the edits of two single-bug mutants whose bugs sit in different
marks groups.  Graded as bench/additivity.py --game GAME grades it (the game's marking, its own default number
of random games, the memory stage on), a pair loses lost(a) + lost(b) within 2 marks: one bug neither excuses
the other nor makes it cost twice.  ``lost`` is 100 minus the implementation's score.

The default run grades each game's model and its first DEFAULT_PAIRS pairs with their mutants, two at a time
(one of them pairs a memory-stage bug with a scenario one, deliberately); every other pair is a ``slow`` test
of its own.  No Palace pair holds a mutant that stops every game before the play (STOPS_EVERY_GAME): its other
bug could not be driven at all.
"""

from __future__ import annotations

import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from grader.core.config import MarkingConfig
from grader.core.grade import grade
from grader.games import get

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fixtures" / "submissions"))
from variants import Mutant, generator_of, pair_name  # noqa: E402

GAMES = ("fcd17s2", "palace")
TOLERANCE = 2.0  # marks between lost(pair) and lost(a) + lost(b)
DEFAULT_PAIRS = 2  # graded in the default run; the rest of PAIRS are marked slow
STOPS_EVERY_GAME = {"palace": {"setup_never_ends", "play_starts_at_dealer", "next_seat_wraps_at_max"}}


def submissions(game: str) -> Path:
    return ROOT / "fixtures" / game / "submissions"


MAKE = {game: generator_of(game, submissions(game)) for game in GAMES}
PAIRS = {game: MAKE[game].load_pairs() for game in GAMES}


def home_group(game: str, m: Mutant) -> str:
    """The marks group a mutant's bug belongs to: the scenario group with the largest share of its
    scenarios naming the mutant's clauses (the memory group for a bug only the memory stage sees)."""
    if m.caught_by == "memory":
        return "memory"
    scenarios = get(game).load_scenarios()
    naming = Counter(s.group for s in scenarios if set(m.rules) & set(s.rules))
    size = Counter(s.group for s in scenarios)
    return max(sorted(naming), key=lambda g: naming[g] / size[g])


def summary(job: tuple[str, str]) -> tuple[tuple[str, str], dict[str, Any]]:
    """One submission (game, folder under its submissions/) graded as bench/additivity.py --game grades it."""
    game_name, name = job
    game = get(game_name)
    result = grade(submissions(game_name) / name, MarkingConfig.load(game=game), game=game, random_games=None,
                   memory=True, own_tests=False)
    return job, {"score": result.score,
                 "lost": {g.group: round(g.max_marks - g.marks, 2) for g in result.groups if g.marks < g.max_marks}}


def grade_all(jobs: list[tuple[str, str]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Graded two at a time (2 cores): each grade is a separate process with its own sandbox."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(summary, jobs))


def jobs_for(game: str, chosen: list[tuple[Mutant, Mutant]]) -> list[tuple[str, str]]:
    singles = sorted({m.name for p in chosen for m in p})
    return [(game, f"mutants/{n}") for n in singles] + [(game, f"pairs/{pair_name(a, b)}") for a, b in chosen]


@pytest.fixture(scope="module")
def graded() -> dict[tuple[str, str], dict[str, Any]]:
    """Each game's model, its default pairs and their mutants."""
    return grade_all([job for game in GAMES for job in [(game, "model"), *jobs_for(game, PAIRS[game][:DEFAULT_PAIRS])]])


def lost(row: dict[str, Any]) -> float:
    return round(100 - row["score"], 2)


def where(row: dict[str, Any]) -> str:
    return ", ".join(f"{g}: {v:g}" for g, v in sorted(row["lost"].items())) or "nothing"


def check_pair(game: str, a: Mutant, b: Mutant, rows: dict[tuple[str, str], dict[str, Any]]) -> None:
    ra, rb = rows[(game, f"mutants/{a.name}")], rows[(game, f"mutants/{b.name}")]
    rp = rows[(game, f"pairs/{pair_name(a, b)}")]
    for m, row in ((a, ra), (b, rb)):  # each bug alone costs something: otherwise the pair shows nothing
        assert lost(row) > 0, f"{m.name} loses nothing"
    diff = round(lost(rp) - (lost(ra) + lost(rb)), 2)
    assert abs(diff) <= TOLERANCE, (
        f"{game} {pair_name(a, b)}: lost {lost(rp):g}, its two bugs apart {lost(ra):g} + {lost(rb):g} (difference "
        f"{diff:+g})\n  {a.name}: {where(ra)}\n  {b.name}: {where(rb)}\n  pair: {where(rp)}")


def default_pairs() -> list[Any]:
    return [pytest.param(g, p, id=f"{g}:{pair_name(*p)}") for g in GAMES for p in PAIRS[g][:DEFAULT_PAIRS]]


def other_pairs() -> list[Any]:
    return [pytest.param(g, p, id=f"{g}:{pair_name(*p)}") for g in GAMES for p in PAIRS[g][DEFAULT_PAIRS:]]


# ---- the fixtures ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_pairs_are_two_bugs_of_different_groups(game: str) -> None:
    """About six pairs, each of two different mutants in different marks groups editing the same source file, at
    most one of them a memory-stage bug and none a bug that stops every game; the pairs across many groups, a
    memory bug among the default ones."""
    pairs = PAIRS[game]
    assert len(pairs) >= 6 and len({pair_name(a, b) for a, b in pairs}) == len(pairs)
    for a, b in pairs:
        assert home_group(game, a) != home_group(game, b), (pair_name(a, b), home_group(game, a))
        assert not (a.caught_by == b.caught_by == "memory"), pair_name(a, b)
        assert not {a.name, b.name} & STOPS_EVERY_GAME.get(game, set()), pair_name(a, b)
        assert a.file == b.file == MAKE[game].SOURCES[0]
    assert len({home_group(game, m) for p in pairs for m in p}) >= 10
    assert any(m.caught_by == "memory" for p in pairs[:DEFAULT_PAIRS] for m in p)


@pytest.mark.parametrize("game", GAMES)
def test_the_pair_folders_are_what_make_mutants_py_makes(game: str, tmp_path: Path) -> None:
    made = MAKE[game].write_pairs(tmp_path / "pairs")
    committed = submissions(game) / "pairs"
    stale = f"pairs/ is stale: run python fixtures/{game}/submissions/make_mutants.py"
    assert sorted(p.name for p in committed.iterdir()) == sorted(p.name for p in made), stale
    for folder in made:
        assert sorted(f.name for f in folder.iterdir()) == sorted(MAKE[game].SOURCES)
        for f in folder.iterdir():
            assert f.read_text() == (committed / folder.name / f.name).read_text(), f"{folder.name}: {stale}"


# ---- the marks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_model_gets_full_marks(game: str, graded: dict[tuple[str, str], dict[str, Any]]) -> None:
    """What every ``lost`` is measured from."""
    assert graded[(game, "model")]["score"] == 100, where(graded[(game, "model")])


@pytest.mark.parametrize(("game", "pair"), default_pairs())
def test_a_pair_of_bugs_loses_what_its_two_bugs_lose_apart(game: str, pair: tuple[Mutant, Mutant],
                                                           graded: dict[tuple[str, str], dict[str, Any]]) -> None:
    check_pair(game, *pair, graded)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "pair"), other_pairs())
def test_every_other_pair_loses_what_its_two_bugs_lose_apart(game: str, pair: tuple[Mutant, Mutant]) -> None:
    """The pairs after the default ones, each graded with its mutants (-m slow)."""
    check_pair(game, *pair, grade_all(jobs_for(game, [pair])))

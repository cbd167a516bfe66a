"""Marks for evidence: a mark is earned by evidence that the rule holds, and lost once for each bug.

Two halves, checked on whole grades (every stage on: scenarios, random games, the memory stage):

- *additivity*: a submission with two independent bugs (a pair of fixtures/submissions/pairs/, the model
  with the edits of two single-bug mutants: PAIRS in mutants.py, made by variants.py) loses what its
  two bugs lose apart, within 2 marks.  One bug must neither excuse the other (a pair losing about
  what its worse half loses) nor make it cost twice;
- *no marks without evidence*: a Game.c that defines every function and does nothing (newGame returns
  NULL) and a folder with Card.c alone earn nothing beyond the build group's marks; a submission
  whose game never starts earns no random-game and no memory marks.

``lost`` is 100 minus the implementation's score, read from the grades, never written down here.
The default run grades the first DEFAULT_PAIRS pairs, their mutants, the model and the stubs, two
at a time; the other pairs are ``slow``.
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
from grader.core.results import Verdict
from grader.core.sandbox.native import Api
from grader.games.fcd18s2.sandbox.interface import INCLUDE_DIR
from grader.games.fcd18s2.scenarios import load_scenarios

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "submissions"
sys.path.insert(0, str(SUBMISSIONS))
from variants import STUBS, Mutant, make_pair, make_stub, pair_name, pairs  # noqa: E402

TOLERANCE = 2.0  # marks between lost(pair) and lost(a) + lost(b)
RANDOM_GAMES = 12  # fewer than the grading profile's, for time; enough for every family to be played
DEFAULT_PAIRS = 10  # graded in the default run; the rest of PAIRS are marked slow
PAIRS = pairs()
SCENARIOS = load_scenarios()
CRASH_ON_A_TWO = "play_move_crashes_on_a_two"
WINNER_AT_MOVE_0 = "winner_zero_at_start"
NULL_GAME = "game_stub"  # its newGame returns NULL


def home_group(m: Mutant) -> str:
    """The marks group a mutant's bug belongs to: the scenario group with the largest share of its
    scenarios naming the mutant's clauses (the memory group for a bug only the memory stage sees)."""
    if m.caught_by == "memory":
        return "memory"
    naming = Counter(s.group for s in SCENARIOS if set(m.rules) & set(s.rules))
    size = Counter(s.group for s in SCENARIOS)
    return max(sorted(naming), key=lambda g: naming[g] / size[g])


def summary(name: str) -> tuple[str, dict[str, Any]]:
    """One submission graded with the default marking (fewer random games), every stage on."""
    result = grade(SUBMISSIONS / name, MarkingConfig.load(), random_games=RANDOM_GAMES, memory=True,
                   own_tests=False)
    return name, {
        "score": result.score,
        "build_ok": result.build_ok,
        "marks": {g.group: g.marks for g in result.groups},
        "lost": {g.group: round(g.max_marks - g.marks, 2) for g in result.groups if g.marks < g.max_marks},
        "not_passed": [(t.id, t.verdict.value, t.message[:300]) for t in result.tests
                       if t.verdict is not Verdict.PASSED],
    }


def grade_all(names: list[str]) -> dict[str, dict[str, Any]]:
    """Graded two at a time (2 cores): each grade is a separate process with its own sandbox."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(summary, names))


def folders_for(chosen: list[tuple[Mutant, Mutant]]) -> list[str]:
    singles = sorted({m.name for p in chosen for m in p})
    return [f"mutants/{n}" for n in singles] + [f"pairs/{pair_name(a, b)}" for a, b in chosen]


@pytest.fixture(scope="module")
def graded() -> dict[str, dict[str, Any]]:
    """The model, the stubs, the default pairs and their mutants."""
    return grade_all(["model", *(f"stubs/{s}" for s in STUBS), *folders_for(PAIRS[:DEFAULT_PAIRS])])


def lost(row: dict[str, Any]) -> float:
    return round(100 - row["score"], 2)


def where(row: dict[str, Any]) -> str:
    return ", ".join(f"{g}: {v:g}" for g, v in sorted(row["lost"].items())) or "nothing"


def additivity_failure(a: Mutant, b: Mutant, rows: dict[str, dict[str, Any]]) -> str | None:
    ra, rb, rp = rows[f"mutants/{a.name}"], rows[f"mutants/{b.name}"], rows[f"pairs/{pair_name(a, b)}"]
    diff = round(lost(rp) - (lost(ra) + lost(rb)), 2)
    if abs(diff) <= TOLERANCE:
        return None
    return (f"{pair_name(a, b)}: lost {lost(rp):g}, its two bugs apart {lost(ra):g} + {lost(rb):g} "
            f"(difference {diff:+g})\n  {a.name}: {where(ra)}\n  {b.name}: {where(rb)}\n  pair: {where(rp)}\n"
            + "\n".join(f"  pair's {t}: {v}" for t, v, _ in rp["not_passed"][:12]))


# ---- the fixtures ------------------------------------------------------------------------------------


def test_the_pairs_cover_the_groups_and_the_cases_of_the_issue() -> None:
    """At least 10 pairs; the two bugs of each in different marks groups, the pairs across many groups;
    a mutant that crashes whenever a 2 is played and one that reports a winner at move 0 among them."""
    assert len(PAIRS) >= 10 and len(PAIRS[:DEFAULT_PAIRS]) >= 10
    names = {pair_name(a, b) for a, b in PAIRS}
    assert len(names) == len(PAIRS)
    for a, b in PAIRS:
        assert home_group(a) != home_group(b), (pair_name(a, b), home_group(a))
    groups = {home_group(m) for p in PAIRS[:DEFAULT_PAIRS] for m in p}
    assert len(groups) >= 8, groups
    default = {m.name for p in PAIRS[:DEFAULT_PAIRS] for m in p}
    assert CRASH_ON_A_TWO in default and WINNER_AT_MOVE_0 in default


def test_the_pair_and_stub_folders_are_what_variants_py_makes(tmp_path: Path) -> None:
    for a, b in PAIRS:
        make_pair(a, b, tmp_path / "pairs" / pair_name(a, b))
    for s in STUBS:
        make_stub(s, tmp_path / "stubs" / s)
    for kind in ("pairs", "stubs"):
        made = sorted(p.name for p in (tmp_path / kind).iterdir())
        assert made == sorted(p.name for p in (SUBMISSIONS / kind).iterdir()), (
            f"{kind}/ is stale: run python fixtures/submissions/variants.py")
        for folder in (tmp_path / kind).iterdir():
            for f in folder.iterdir():
                assert f.read_text() == (SUBMISSIONS / kind / folder.name / f.name).read_text(), (
                    f"{kind}/{folder.name} is stale: run python fixtures/submissions/variants.py")
            assert sorted(f.name for f in folder.iterdir()) == sorted(
                f.name for f in (SUBMISSIONS / kind / folder.name).iterdir())


def test_a_pair_that_cannot_be_made_stops_the_generator(tmp_path: Path) -> None:
    by_name = {m.name: m for p in PAIRS for m in p}
    overlapping = Mutant("moves_the_same_line", ("R8",), "edits the line skip_ignored edits",
                         "        game->skipNext = TRUE;", "        game->skipNext = 2;")
    with pytest.raises(SystemExit, match="overlap"):
        make_pair(by_name["skip_ignored"], overlapping, tmp_path / "overlap")
    missing = Mutant("edits_nothing_there", ("R8",), "edits text the model lacks", "no such text", "")
    with pytest.raises(SystemExit, match="occurs 0 times"):
        make_pair(by_name["skip_ignored"], missing, tmp_path / "missing")
    assert not (tmp_path / "overlap").exists() and not (tmp_path / "missing").exists()


def test_the_stub_defines_every_function_of_game_h_and_the_other_folder_has_card_c_alone() -> None:
    stub = (SUBMISSIONS / "stubs" / NULL_GAME / "Game.c").read_text()
    game_h = Api(INCLUDE_DIR, ("Game.h",)).functions
    undefined = [name for name in game_h if f" {name}(" not in stub]
    assert len(game_h) > 20 and not undefined, undefined
    assert "Game newGame(int deckSize, value values[], color colors[], suit suits[]) {\n    return NULL;\n}" in stub
    assert sorted(p.name for p in (SUBMISSIONS / "stubs" / "card_c_only").iterdir()) == ["Card.c"]
    model_card = (SUBMISSIONS / "model" / "Card.c").read_text()
    assert (SUBMISSIONS / "stubs" / "card_c_only" / "Card.c").read_text() == model_card
    assert (SUBMISSIONS / "stubs" / NULL_GAME / "Card.c").read_text() == model_card


# ---- the marks ---------------------------------------------------------------------------------------


def test_the_model_gets_full_marks(graded: dict[str, dict[str, Any]]) -> None:
    """What every ``lost`` is measured from."""
    assert graded["model"]["score"] == 100, where(graded["model"])


@pytest.mark.parametrize("pair", PAIRS[:DEFAULT_PAIRS], ids=lambda p: pair_name(*p))
def test_a_pair_of_bugs_loses_what_its_two_bugs_lose_apart(pair: tuple[Mutant, Mutant],
                                                           graded: dict[str, dict[str, Any]]) -> None:
    a, b = pair
    for m in pair:  # each bug alone costs something: otherwise the pair shows nothing
        assert lost(graded[f"mutants/{m.name}"]) > 0, f"{m.name} loses nothing"
    failure = additivity_failure(a, b, graded)
    assert failure is None, failure


@pytest.mark.slow
def test_every_pair_loses_what_its_two_bugs_lose_apart(request: pytest.FixtureRequest) -> None:
    """The pairs after the default ones, graded with their mutants (-m slow)."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the pairs beyond the default ones: run with -m slow, or python bench/additivity.py")
    rest = PAIRS[DEFAULT_PAIRS:]
    if not rest:
        pytest.skip("every pair is in the default run")
    rows = grade_all(folders_for(rest))
    failures = [f for f in (additivity_failure(a, b, rows) for a, b in rest) if f]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("stub", STUBS)
def test_a_stub_earns_at_most_the_build_marks(stub: str, graded: dict[str, dict[str, Any]]) -> None:
    """A Game.c of empty functions compiles and defines them all: the build marks (5) and nothing else.
    Card.c alone: at most what the build group gives it."""
    row = graded[f"stubs/{stub}"]
    build = row["marks"].get("build", 0.0)
    assert build <= MarkingConfig.load().marks("build")
    beyond = {g: m for g, m in row["marks"].items() if g != "build" and m > 0}
    assert row["score"] <= build and not beyond, (f"stubs/{stub}: {row['score']:g}/100, build {build:g}; "
                                                  f"earned beyond the build: {beyond}")
    if stub == NULL_GAME:
        assert build == MarkingConfig.load().marks("build"), row["not_passed"]


def test_a_game_that_never_starts_earns_no_random_game_or_memory_marks(graded: dict[str, dict[str, Any]]) -> None:
    """newGame returns NULL: no game started, so no game and no replay is evidence of anything."""
    row = graded[f"stubs/{NULL_GAME}"]
    assert row["build_ok"]
    earned = {g: row["marks"].get(g, 0.0) for g in ("random_games", "memory")}
    assert earned == {"random_games": 0.0, "memory": 0.0}, earned

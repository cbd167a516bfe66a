"""2017 edition: random games played several to a child, verdicts from games played alone (issue 35), as
tests/games/fcd18s2/test_games_per_child.py checks for 2018.

2017's random games go through the family's ``InBatches`` and ``FcdSession.play_batch`` with the 2017 C
observer: the model's are all proven in one batch, and a submission that keeps state from one game to the
next (fixtures/fcd17s2/submissions/hostile/keeps_state_between_games, written by keeps_state.py there)
gets the model's marks and one note naming the first game that showed it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, Iterator

import pytest

from grader.core.batched_games import BatchedGames, Shown
from grader.games.fcd.random_games import FAMILIES, InBatches, Numbered, generated_games, run_random_games
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.session import Fcd17Session

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "fcd17s2" / "submissions"
_spec = importlib.util.spec_from_file_location("fcd17s2_keeps_state", SUBMISSIONS / "keeps_state.py")
assert _spec is not None and _spec.loader is not None
keeps_state_py: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(keeps_state_py)

GAMES = 12  # the stage's games here: 4 a deck family, one batch
LIMITS = {"cpu": 2, "wall": 4.0}


def stage_games() -> list[Numbered]:
    """The stage's games in the order it plays them (``run_random_games``)."""
    per = GAMES // len(FAMILIES)
    return [Numbered(n, f, g) for n, (f, g) in enumerate(
        ((f, g) for f in FAMILIES for g in generated_games(f, per, FCD17)), 1)]


@pytest.fixture(scope="module")
def model() -> Iterator[Fcd17Session]:
    with Fcd17Session.open(SUBMISSIONS / "model", limits=LIMITS) as session:
        assert session.build.ok, session.build.output
        yield session


@pytest.fixture(scope="module")
def keeps_state() -> Iterator[Fcd17Session]:
    with Fcd17Session.open(keeps_state_py.KEEPS_STATE_DIR, limits=LIMITS) as session:
        assert session.build.ok, session.build.output
        yield session


def test_the_committed_fixture_is_what_keeps_state_py_makes(tmp_path: Path) -> None:
    made = keeps_state_py.make_keeps_state(tmp_path / "made")
    for f in made.iterdir():
        assert f.read_text() == (keeps_state_py.KEEPS_STATE_DIR / f.name).read_text(), \
            "stale: run python fixtures/fcd17s2/submissions/keeps_state.py"


def test_the_models_games_are_all_proven_in_one_batch(model: Fcd17Session) -> None:
    games = stage_games()
    batched = BatchedGames(InBatches(model, set(), {}))
    results = [r for _game, r in batched.play(games)]
    assert [r.verdict.value for r in results] == ["passed"] * GAMES
    assert (batched.batches, batched.proven, batched.alone, batched.kept_state) == (1, GAMES, 0, [])


def test_a_batch_of_the_fixture_shows_every_game_after_an_ended_turn_differ(keeps_state: Fcd17Session) -> None:
    """Its first game of a process is right; a game after one that ended a turn starts at currentTurn() > 0."""
    games = stage_games()
    ends = [sum(str(m) == "end" for m in n.game.moves) for n in games]
    run = keeps_state.play_batch([(n.game.deck, n.game.moves) for n in games])
    assert run.shown == [Shown.DIFFERED if sum(ends[:i]) else Shown.EQUAL for i in range(len(games))]


def test_state_kept_between_games_is_a_note_and_no_deduction(model: Fcd17Session,
                                                               keeps_state: Fcd17Session) -> None:
    """Each game the batch shows differing passes alone: the random games earn what the model's do, with one
    note, on the turn order's test (currentTurn is of that family), naming the first such game."""
    games = stage_games()
    ends = [sum(str(m) == "end" for m in n.game.moves) for n in games]
    differing = [i for i in range(len(games)) if sum(ends[:i])]
    first = games[differing[0]]

    expected = run_random_games(model, GAMES)
    kept = run_random_games(keeps_state, GAMES)
    assert [(r.id, r.verdict, r.earned) for r in kept] == [(r.id, r.verdict, r.earned) for r in expected]
    assert all(r.earned == 1.0 for r in kept)
    assert not any("keep state" in n for r in expected for n in r.notes)
    [(owner, note)] = [(r.id, n) for r in kept for n in r.notes if "keep state" in n]
    assert owner == "random/turn_order"
    others = f" ({len(differing) - 1} other game(s) did the same)" if len(differing) > 1 else ""
    assert note.startswith(f"Your code seems to keep state from one game to the next: random game {first.number} "
                           f"({first.family.name}, {len(first.game.moves)} moves on a {len(first.game.deck)}-card "
                           f"deck), played in the same process right after {differing[0]} other game(s), differed "
                           f"from the reference right after newGame() in currentTurn() (the turn number)"
                           f"{others}; played alone, in a fresh process, it agreed with the reference at every step")
    assert "this costs nothing" in note

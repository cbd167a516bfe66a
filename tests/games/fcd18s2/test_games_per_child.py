"""Random games played several to a child, verdicts from games played alone (issue 35; ``grader.core.batched_games``).

A batch proves only the games whose observations came back exactly the reference's; every other game is
played again alone, by the path every game took before, and that run gives its verdict.  So a submission
is charged exactly as when every game had a child of its own -- the random-game tests of a mutant that
differs, and of one that crashes in the middle of a batch, are compared whole with the all-alone path --
and a submission that keeps state from one game to the next (fixtures/submissions/hostile/
keeps_state_between_games, written by planted.py) gets the model's marks and a note.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from grader.core.batched_games import BatchedGames, Shown
from grader.games.fcd import random_games
from grader.games.fcd.random_games import FAMILIES, InBatches, Numbered, generated_games, run_random_games
from grader.games.fcd.reference_trace import move_codes
from grader.games.fcd.sandbox.play import move_ints
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.session import Fcd18Session

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "submissions"
sys.path.insert(0, str(SUBMISSIONS))
import planted  # noqa: E402
from variants import HOSTILE, make_hostile  # noqa: E402

GAMES = 12  # the stage's games here: 4 a deck family, one batch
LIMITS = {"cpu": 2, "wall": 4.0}


def stage_games() -> list[Numbered]:
    """The stage's games in the order it plays them (``run_random_games``)."""
    per = GAMES // len(FAMILIES)
    return [Numbered(n, f, g) for n, (f, g) in enumerate(
        ((f, g) for f in FAMILIES for g in generated_games(f, per, FCD18)), 1)]


@pytest.fixture(scope="module")
def keeps_state() -> Iterator[Fcd18Session]:
    with Fcd18Session.open(planted.KEEPS_STATE_DIR, limits=LIMITS) as session:
        assert session.build.ok, session.build.output
        yield session


def as_judged(results: list[Any]) -> list[dict[str, Any]]:
    """The stage's tests as a report shows them, timings left out."""
    out = []
    for r in results:
        data = dict(r.to_json())
        data.pop("seconds", None)
        out.append(data)
    return out


def alone_and_batched(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any], list[Any]]:
    """The stage on ``folder`` with every game alone (as before batches), then batched (each in a fresh
    session); and what each game showed in the batched stage's batches."""
    shown: list[Shown] = []
    real = Fcd18Session.play_batch

    def recording(self: Fcd18Session, games: Any, data_of: int = -1) -> Any:
        run = real(self, games, data_of)
        shown.extend(run.shown)
        return run

    with monkeypatch.context() as alone:
        alone.setattr(random_games, "BatchedGames", lambda batching: BatchedGames(batching, size=1))
        with Fcd18Session.open(folder, limits=LIMITS) as session:
            before = run_random_games(session, GAMES)
    monkeypatch.setattr(Fcd18Session, "play_batch", recording)
    with Fcd18Session.open(folder, limits=LIMITS) as session:
        after = run_random_games(session, GAMES)
    return before, after, shown


def test_the_committed_fixture_is_what_planted_py_makes(tmp_path: Path) -> None:
    made = planted.make_keeps_state(tmp_path / "made")
    for f in made.iterdir():
        assert f.read_text() == (planted.KEEPS_STATE_DIR / f.name).read_text(), \
            "stale: run python fixtures/submissions/planted.py"


def test_a_batch_sends_the_moves_as_the_child_of_one_game_reads_them() -> None:
    """The two forms of a move for the C observer (a batch's, made by the grader; one game's, in the child)."""
    for numbered in stage_games():
        assert [move_codes(m) for m in numbered.game.moves] == [list(move_ints(m)) for m in numbered.game.moves]


def test_the_models_games_are_all_proven_in_one_batch(model_session: Fcd18Session) -> None:
    games = stage_games()
    batched = BatchedGames(InBatches(model_session, set(), {}))
    results = [r for _game, r in batched.play(games)]
    assert [r.verdict.value for r in results] == ["passed"] * GAMES
    assert (batched.batches, batched.proven, batched.alone, batched.kept_state) == (1, GAMES, 0, [])


def test_state_kept_between_games_is_a_note_and_no_deduction(model_session: Fcd18Session,
                                                               keeps_state: Fcd18Session) -> None:
    """The fixture counts turns in a static variable: the first game of its process is right, and a game
    after one that ended a turn numbers its turns on from there -- currentTurn() differs after its first
    END_TURN.  Each such game passes alone: the random games earn what the model's do, with one note."""
    games = stage_games()
    ends = [sum(str(m) == "end" for m in n.game.moves) for n in games]
    differing = [i for i in range(len(games)) if ends[i] and sum(ends[:i])]  # one batch: turns go on from game 1
    first = games[differing[0]]
    first_end = next(k for k, m in enumerate(first.game.moves, 1) if str(m) == "end")

    model = run_random_games(model_session, GAMES)
    kept = run_random_games(keeps_state, GAMES)
    assert [(r.id, r.verdict, r.earned) for r in kept] == [(r.id, r.verdict, r.earned) for r in model]
    assert all(r.earned == 1.0 for r in kept)
    notes = [(r.id, n) for r in kept for n in r.notes if "keep state" in n]
    assert not any("keep state" in n for r in model for n in r.notes)
    [(owner, note)] = notes
    assert owner == "random/turn_order"  # currentTurn is of the turn order's family
    assert note.startswith(f"Your code seems to keep state from one game to the next: random game {first.number} "
                           f"({first.family.name}, {len(first.game.moves)} moves on a {len(first.game.deck)}-card "
                           f"deck), played in the same process right after {differing[0]} other game(s), differed "
                           f"from the reference after move {first_end} (end) in currentTurn() (the turn number) "
                           f"({len(differing) - 1} other game(s) did the same); played alone, in a fresh process, "
                           f"it agreed with the reference at every step")
    assert "this costs nothing" in note


def test_a_batch_of_the_fixture_shows_the_games_after_a_turn_differ(keeps_state: Fcd18Session) -> None:
    games = stage_games()
    ends = [sum(str(m) == "end" for m in n.game.moves) for n in games]
    run = keeps_state.play_batch([(n.game.deck, n.game.moves) for n in games])
    assert run.shown == [Shown.DIFFERED if ends[i] and sum(ends[:i]) else Shown.EQUAL for i in range(len(games))]


def test_a_mutant_that_differs_is_charged_as_when_every_game_was_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """skip_skips_two: an A skips two players; its random games differ from the first A played on."""
    before, after, shown = alone_and_batched(SUBMISSIONS / "mutants" / "skip_skips_two", monkeypatch)
    assert as_judged(after) == as_judged(before)
    # a batch proves equal exactly the games in which no A is played or turned up first (R10)
    plain = [n for n in stage_games() if not any(str(m)[0] == "A" for m in n.game.moves)
             and n.game.deck.keys[28][0] != 10]
    assert any(not r.passed for r in after) and Shown.DIFFERED in shown
    assert shown.count(Shown.EQUAL) <= len(plain)


def test_a_crash_in_a_batch_leaves_it_and_the_games_after_it_to_be_played_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """play_move_crashes_on_a_two: a game that plays a 2 crashes.  The stage is judged as when every game
    was alone; and in a batch whose fourth game is the first to play a 2, the three before it are proven
    there, and it and the two after it are played alone, each judged as alone."""
    folder = SUBMISSIONS / "mutants" / "play_move_crashes_on_a_two"
    before, after, shown = alone_and_batched(folder, monkeypatch)
    assert as_judged(after) == as_judged(before)
    assert Shown.CRASHED in shown and not next(r for r in after if r.id == "random/crashes").passed

    games = [Numbered(n, f, g) for n, (f, g) in enumerate(  # (more than the stage's: three without a 2)
        ((f, g) for f in FAMILIES for g in generated_games(f, 4 * GAMES, FCD18)), 1)]
    with_two = [n for n in games if any(str(m)[0] == "2" for m in n.game.moves)]
    without = [n for n in games if n not in with_two and n.game.deck.keys[28][0] != 2]  # nor a 2 turned up (R10)
    chosen = without[:3] + with_two[:3]
    judged = []
    for size in (len(chosen), 1):  # batched, then every game alone
        with Fcd18Session.open(folder, limits=LIMITS) as session:
            if size > 1:
                assert session.play_batch([(n.game.deck, n.game.moves) for n in chosen]).shown == \
                    [Shown.EQUAL] * 3 + [Shown.CRASHED] + [Shown.NOT_RUN] * 2
            batched = BatchedGames(InBatches(session, set(), {}), size=size)
            judged.append([(r.verdict, r.message) for _game, r in batched.play(chosen)])
            assert (batched.proven, batched.alone) == ((3, 3) if size > 1 else (0, 6))
    assert judged[0] == judged[1]
    assert [verdict.value for verdict, _message in judged[0]] == ["passed"] * 3 + ["crashed"] * 3


@pytest.mark.slow
@pytest.mark.parametrize("variant", [v for v in HOSTILE if not v.compile_fails], ids=lambda v: v.name)
def test_a_hostile_library_is_judged_as_when_every_game_was_alone(variant: Any, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Crashes, hangs, floods, forged frames, a library that kills its supervisor...: the random games judged
    the same with batches as without (what was printed is cut at a moment that varies from run to run)."""
    make_hostile(variant, tmp_path / variant.name)
    before, after, _shown = alone_and_batched(tmp_path / variant.name, monkeypatch)
    printed = ("stdout", "stderr")
    assert [{k: v for k, v in t.items() if k not in printed} for t in as_judged(after)] == \
        [{k: v for k, v in t.items() if k not in printed} for t in as_judged(before)]

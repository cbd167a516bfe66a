"""Palace's random games several to a child, verdicts from games played alone (issue 35; ``grader.core.batched_games``).

A batch proves only the games whose packed frames came back exactly the reference's; every other game is played
again alone, by the path every game took before, and that run gives its verdict.  So a submission is charged exactly
as when every game had a child of its own -- a mutant that differs, and an edit of the model that crashes in newGame
for five players on 104 cards (game 9 of the profile: in the middle of the batch), are compared whole with the
all-alone path -- and a submission that keeps state from one game to the next (fixtures/palace/submissions/hostile/
keeps_state_between_games, written by keeps_state.py) gets the model's marks and a note.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from grader.core.batched_games import BatchedGames, Shown
from grader.games.palace import random_games
from grader.games.palace.random_games import InBatches, random_plan, run_random_games, variant_readings
from grader.games.palace.session import PalaceSession, Probed, play_request
from reference.palace import REFERENCE, SWITCHES

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "palace" / "submissions"
MODEL = SUBMISSIONS / "model"
GAMES = 10  # the profile's first ten games: five players and 104 cards in game 9 only
FOUND = {ruling: frozenset({REFERENCE.of(ruling)}) for ruling in SWITCHES}  # the model's readings: the reference's
READINGS = variant_readings(FOUND)
ABORT_IN_GAME_9 = ("    int dealt = (HAND_DEAL + TABLE_CARDS) * nPlayers;  /* the pile starts with card `dealt` */",
                      "    int dealt = (HAND_DEAL + TABLE_CARDS) * nPlayers;  /* the pile starts with card `dealt` */\n"
                      "    if (nPlayers == 5 && nCards == 104) {\n        abort();\n    }")


def _keeps_state() -> Any:
    spec = importlib.util.spec_from_file_location("palace_keeps_state", SUBMISSIONS / "keeps_state.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KEEPS_STATE = _keeps_state()


def held_to_the_reference(session: PalaceSession) -> PalaceSession:
    """The session holding the library to the model's readings, as the probes find them in a grade."""
    session.probed += [Probed(ruling, "test", readings) for ruling, readings in FOUND.items()]
    return session


@pytest.fixture(scope="module")
def model() -> Iterator[PalaceSession]:
    with PalaceSession.open(MODEL) as session:
        yield held_to_the_reference(session)


@pytest.fixture(scope="module")
def keeps_state() -> Iterator[PalaceSession]:
    with PalaceSession.open(KEEPS_STATE.DEST) as session:
        assert session.build.ok, session.build.output
        yield held_to_the_reference(session)


def as_judged(results: list[Any]) -> list[dict[str, Any]]:
    """The stage's tests as a report shows them, timings left out."""
    out = []
    for r in results:
        data = dict(r.to_json())
        data.pop("seconds", None)
        out.append(data)
    return out


def alone_and_batched(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any], list[Shown]]:
    """The stage on ``folder`` with every game alone, then batched (each in a fresh session); and what each game
    showed in the batched stage's batches."""
    shown: list[Shown] = []
    real = PalaceSession.play_batch

    def recording(self: PalaceSession, requests: Any) -> list[Shown]:
        each = real(self, requests)
        shown.extend(each)
        return each

    with monkeypatch.context() as alone:
        alone.setattr(random_games, "BatchedGames", lambda batching: BatchedGames(batching, size=1))
        with PalaceSession.open(folder) as session:
            before = run_random_games(held_to_the_reference(session), GAMES, FOUND, {})
    monkeypatch.setattr(PalaceSession, "play_batch", recording)
    with PalaceSession.open(folder) as session:
        after = run_random_games(held_to_the_reference(session), GAMES, FOUND, {})
    return before, after, shown


def test_the_committed_fixture_is_what_keeps_state_py_makes(tmp_path: Path) -> None:
    made = KEEPS_STATE.make(tmp_path / "made")
    for f in made.iterdir():
        assert f.read_text() == (KEEPS_STATE.DEST / f.name).read_text(), \
            "stale: run python fixtures/palace/submissions/keeps_state.py"


def test_the_models_games_are_all_proven_in_one_batch(model: PalaceSession) -> None:
    batched = BatchedGames(InBatches(model, READINGS, set()))
    shown = [s for _index, s in batched.play(range(GAMES))]
    assert (batched.batches, batched.proven, batched.alone, batched.kept_state) == (1, GAMES, 0, [])
    assert all(s.charged == {} and s.hidden == {} and sum(s.agreed.values()) > 0 for s in shown)


def test_a_batch_of_the_fixture_shows_every_game_after_the_first_differ(keeps_state: PalaceSession) -> None:
    requests = [play_request(g.setup, g.moves, blind_cards=g.blind_cards, recheck=True)
                for g in (random_plan(i, READINGS) for i in range(GAMES))]
    assert keeps_state.play_batch(requests) == [Shown.EQUAL] + [Shown.DIFFERED] * (GAMES - 1)


def test_state_kept_between_games_is_a_note_and_no_deduction(model: PalaceSession, keeps_state: PalaceSession) -> None:
    """The fixture counts accepted moves in a static variable: the first game of its process is right, and every
    later one counts on from where the one before ended -- currentTurn() after its first move is one more than
    the moves of the games before it.  Each game passes alone: the random games earn what the model's do."""
    first = random_plan(0, READINGS)
    ours = run_random_games(model, GAMES, FOUND, {})
    kept = run_random_games(keeps_state, GAMES, FOUND, {})
    assert [(r.id, r.verdict, r.earned) for r in kept] == [(r.id, r.verdict, r.earned) for r in ours]
    assert all(r.earned == 1.0 for r in kept)
    assert not any("keep state" in n for r in ours for n in r.notes)
    [(owner, note)] = [(r.id, n) for r in kept for n in r.notes if "keep state" in n]
    assert owner == "random/turn_order"  # currentTurn is the turn order's
    second = random_plan(1, READINGS)
    assert note.startswith(
        f"Your code seems to keep state from one game to the next: random game 2 ({second.setup.n_players} players, "
        f"{len(second.moves)} moves), played in the same process right after 1 other game(s), differed after move "
        f"1 in currentTurn(): expected 1, got {len(first.moves) + 1} ({GAMES - 2} other game(s) did the same); "
        f"played alone, in a fresh process, it agreed with the reference at every step"), note


def test_a_mutant_that_differs_is_charged_as_when_every_game_was_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """seven_lasts_two_plays: a seven restricts the next two plays; games with the rule on differ."""
    before, after, shown = alone_and_batched(SUBMISSIONS / "mutants" / "seven_lasts_two_plays", monkeypatch)
    assert as_judged(after) == as_judged(before)
    assert Shown.EQUAL in shown and Shown.DIFFERED in shown
    assert any(r.verdict.family == "fail" for r in after)


def test_a_crash_in_a_batch_is_judged_as_when_every_game_was_alone(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    folder = tmp_path / "abort_in_game_9"
    shutil.copytree(MODEL, folder)
    source = (folder / "Palace.c").read_text()
    assert source.count(ABORT_IN_GAME_9[0]) == 1
    (folder / "Palace.c").write_text(source.replace(*ABORT_IN_GAME_9))
    setups = [random_plan(i, READINGS).setup for i in range(GAMES)]
    assert [i for i, s in enumerate(setups) if (s.n_players, s.n_cards) == (5, 104)] == [8]
    before, after, shown = alone_and_batched(folder, monkeypatch)
    assert as_judged(after) == as_judged(before)
    # the batch proves games 1-8 and stops in game 9; games 9 and 10 are played alone
    assert shown == [Shown.EQUAL] * 8 + [Shown.CRASHED, Shown.NOT_RUN]
    crashes = next(r for r in after if r.id == "random/crashes")
    assert crashes.verdict.family == "fail", crashes.message

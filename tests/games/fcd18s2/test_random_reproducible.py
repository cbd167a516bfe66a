"""The grading profile's random games are the same on every machine, whatever the process did before
(principle 5: same submission, same marks).  Hypothesis's derandomized generation of full-deck games once
depended on the state of the process that made them (made after a grading, they were other games than in a
fresh interpreter); the games now come from a seeded generator (``random_generation``): game ``i`` is a function
of the edition, the family, the seed and ``i`` alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.core.grade import grade
from grader.games.fcd.random_games import FAMILIES, generated_games
from grader.games.fcd.random_generation import generate, random_game
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd18s2.edition import FCD18

ROOT = Path(__file__).resolve().parents[3]
FRESH = ("import json, sys\n"
         "from grader.games.fcd.random_games import FAMILIES\n"
         "from grader.games.fcd.random_generation import generate\n"
         "from grader.games.fcd18s2.edition import FCD18\n"
         "family = next(f for f in FAMILIES if f.name == sys.argv[1])\n"
         "print(json.dumps([[str(g.deck), [str(m) for m in g.moves]] for g in generate(family, 6, FCD18)]))\n")


def _written(games: list) -> list:
    return [[str(g.deck), [str(m) for m in g.moves]] for g in games]


def test_the_grading_profile_makes_the_same_full_deck_games_after_a_grading_and_in_another_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FCD_CACHE_DIR", "off")
    family = next(f for f in FAMILIES if f.name == "full_deck")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}  # another hash seed: nothing may follow from it
    fresh = subprocess.run([sys.executable, "-c", FRESH, family.name], cwd=ROOT, capture_output=True, text=True,
                           check=True, timeout=600, env=env)
    expected = json.loads(fresh.stdout)
    grade(ROOT / "fixtures" / "submissions" / "model", random_games=0, memory=False, own_tests=False)
    made = _written(generated_games(family, 6, FCD18))
    assert len(made) == 6 and made == expected


def test_a_game_is_its_index_alone_and_every_move_is_legal_for_the_reference() -> None:
    """Game 3 is the same made alone or fourth of a batch; another seed or edition makes another game; and the
    reference accepts every move of every family's games (the generator asks it for the legal moves)."""
    for edition in (FCD18, FCD17):
        for family in FAMILIES:
            batch = generate(family, 4, edition)
            assert _written([random_game(family, 3, edition)]) == _written(batch[3:])
            assert _written([random_game(family, 3, edition, seed=1)]) != _written(batch[3:])
            for game in batch:
                assert family.min_cards <= len(game.deck) <= family.max_cards and len(game.moves) <= family.max_moves
                state = edition.new_game(game.deck)
                for move in game.moves:
                    state.play_move(state.resolve(move))  # raises for a move the reference refuses
    assert _written(generate(FAMILIES[0], 2, FCD18)) != _written(generate(FAMILIES[0], 2, FCD17))


def test_the_explore_profile_draws_fresh_games() -> None:
    family = FAMILIES[1]
    assert _written(generate(family, 3, FCD18, "explore")) != _written(generate(family, 3, FCD18, "explore"))

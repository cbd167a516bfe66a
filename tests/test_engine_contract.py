"""Every registered game's reference engine keeps the engine contract (``grader.core.engine``).

Generic algorithms (random play now; tournaments later) rely on it: a new
state from a deck, legal moves that apply without error, an outcome once the
game is over, and a notation whose round trip is exact.
"""

from __future__ import annotations

import random

import pytest

from grader.core.engine import random_playout
from grader.games import GAMES, get


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_end_with_an_outcome_and_round_trip(name: str) -> None:
    engine = get(name).engine
    rng = random.Random(2018)
    ended = 0
    for _ in range(20):
        deck = engine.random_deck(rng)
        assert engine.parse_deck(engine.format_deck(deck)) == deck
        moves, outcome = random_playout(engine, deck, rng, max_moves=5000)
        ended += outcome is not None
        assert engine.parse_moves(engine.format_moves(moves)) == moves
        replay = engine.new_game(engine.parse_deck(engine.format_deck(deck)))
        for move in moves:  # every move was legal where it was made, and replays the same
            assert move in engine.legal_moves(replay)
            engine.apply(replay, move)
        assert engine.outcome(replay) == outcome
    assert ended == 20


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_are_the_same_for_the_same_seed(name: str) -> None:
    engine = get(name).engine
    runs = []
    for _ in range(2):
        rng = random.Random(7)
        runs.append(random_playout(engine, engine.random_deck(rng), rng, max_moves=400)[0])
    assert runs[0] == runs[1] and runs[0]


def test_an_illegal_move_is_refused_by_the_engine() -> None:
    engine = get("fcd18s2").engine
    state = engine.new_game(engine.parse_deck(" ".join(["1RH"] * 7 * 4 + ["5GC"] + ["9PQ"] * 10)))
    (end,) = engine.parse_moves("end")
    assert end not in engine.legal_moves(state)  # A5: END_TURN before any play or draw
    with pytest.raises(ValueError):
        engine.apply(state, end)

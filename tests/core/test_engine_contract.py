"""Every registered game's reference engine keeps the engine contract (``grader.core.engine``).

Generic algorithms (random playouts, the arena's matches, tournaments and web page) rely on it: a new
state from a deck, whose turn it is, legal moves that apply without error, an outcome once the game is
over with its winner and each seat's score, and a notation whose round trip is exact, move by move too.
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
def test_the_contract_seen_from_the_table(name: str) -> None:
    """What the arena reads: whose turn it is (a seat), each legal move's own notation (its round trip), and
    at the end the winner (a seat, or None) and a score for every seat."""
    engine = get(name).engine
    assert engine.title and engine.seats >= 2
    rng = random.Random(33)
    for _ in range(5):
        state = engine.new_game(engine.random_deck(rng))
        while engine.outcome(state) is None:
            assert 0 <= engine.to_move(state) < engine.seats
            legal = engine.legal_moves(state)
            written = [engine.format_move(m) for m in legal]
            assert [engine.parse_move(w) for w in written] == list(legal)
            assert engine.format_moves(legal) == " ".join(written)
            engine.apply(state, rng.choice(list(legal)))
            assert engine.winner(state) is None or engine.outcome(state) is not None
        scores = engine.scores(state)  # a seat each (a game of Palace may seat fewer than its most)
        assert 2 <= len(scores) <= engine.seats and all(isinstance(s, int) for s in scores)
        winner = engine.winner(state)
        assert winner is None or 0 <= winner < len(scores)


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

"""The 2017 engine keeps the engine contract (``grader.core.engine``): random playouts end and replay exactly."""

from __future__ import annotations

import random

import pytest

from grader.core.engine import random_playout
from grader.games.fcd.engine import LARGEST_RANDOM_DECK, SMALLEST_DECK
from grader.games.fcd17s2.engine import ENGINE
from reference.fcd17s2 import NO_WINNER, MoveSpec


def test_random_playouts_on_many_decks_end_and_round_trip() -> None:
    """Uniform random play on 60 random decks of 30-120 cards ends every time (B10, S19, S21); the deck and
    move notations round-trip, and replaying the moves gives the same outcome."""
    rng = random.Random(2017)
    outcomes = []
    for _ in range(60):
        deck = ENGINE.random_deck(rng)
        assert SMALLEST_DECK <= len(deck) <= LARGEST_RANDOM_DECK
        assert ENGINE.parse_deck(ENGINE.format_deck(deck)) == deck
        moves, outcome = random_playout(ENGINE, deck, rng, max_moves=10_000)
        assert outcome is not None
        outcomes.append(outcome.game_winner)
        assert ENGINE.parse_moves(ENGINE.format_moves(moves)) == moves
        replay = ENGINE.new_game(ENGINE.parse_deck(ENGINE.format_deck(deck)))
        for move in moves:
            assert move in ENGINE.legal_moves(replay)
            ENGINE.apply(replay, move)
        assert ENGINE.outcome(replay) == outcome
    assert set(outcomes) <= {0, 1, 2, 3, NO_WINNER}


def test_random_playouts_use_every_kind_of_move() -> None:
    """Across a few playouts every action of 2017 is made at least once (the words included)."""
    rng = random.Random(5)
    seen = set()
    for _ in range(10):
        moves, _outcome = random_playout(ENGINE, ENGINE.random_deck(rng), rng, max_moves=10_000)
        seen |= {str(m) for m in moves if m.card_key is None}
        seen |= {"card" for m in moves if m.card_key is not None}
    assert seen == {"draw", "end", "uno", "duo", "trio", "card"}


def test_random_playouts_are_the_same_for_the_same_seed() -> None:
    runs = []
    for _ in range(2):
        rng = random.Random(7)
        runs.append(random_playout(ENGINE, ENGINE.random_deck(rng), rng, max_moves=400)[0])
    assert runs[0] == runs[1] and runs[0]


def test_S6_B13_an_illegal_move_is_refused_by_the_engine() -> None:
    """S6/B13: END_TURN first is not legal, and applying it raises a ValueError."""
    state = ENGINE.new_game(ENGINE.parse_deck(" ".join(["1RH"] * 28 + ["5GC"] + ["9PQ"] * 10)))
    (end,) = ENGINE.parse_moves("end")
    assert end == MoveSpec.parse("end") and end not in ENGINE.legal_moves(state)
    with pytest.raises(ValueError):
        ENGINE.apply(state, end)

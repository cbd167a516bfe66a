"""The Palace reference engine behind the core's engine contract (``grader.games.palace.engine``).

Generic algorithms rely on it: a new state from a deck, legal moves that apply without error, an
outcome once the game is over (or the playout's cap), and notations whose round trips are exact.
The random decks keep newGame's contract and C31's rule for the starting card.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from grader.core.engine import random_playout
from grader.games.palace.engine import ENGINE, forbidden_start, spec_of
from reference.palace import (
    MAX_PLAYERS,
    MAX_SET,
    MIN_PLAYERS,
    RULE_SEVEN_LOWER,
    Game,
    IllegalMoveError,
    Setup,
    min_deck,
    parse_cards,
)

SETUPS = 200
CAP = 150  # moves per playout: uniformly random Palace games can run for thousands (C34)
REPLAYED = 40  # playouts replayed move by move against legal_moves


@cache
def playouts() -> list[tuple[Setup, list, object]]:
    rng = random.Random(2004)
    out = []
    for _ in range(SETUPS):
        deck = ENGINE.random_deck(rng)
        moves, outcome = random_playout(ENGINE, deck, rng, max_moves=CAP)
        out.append((deck, moves, outcome))
    return out


def test_random_decks_keep_the_contract_of_new_game_and_c31() -> None:
    players, rules, sizes = Counter(), Counter(), Counter()
    for deck, _moves, _outcome in playouts():
        n = deck.n_players
        assert MIN_PLAYERS <= n <= MAX_PLAYERS and deck.n_cards >= min_deck(n)
        assert max(Counter(r for r, _s in deck.deck).values()) <= MAX_SET
        assert max(Counter(deck.deck).values()) <= 2 and deck.n_cards <= 104  # one or two standard decks
        start = deck.start[0]
        assert not forbidden_start(start, deck.rules)
        assert start != 10 and not (deck.rules & RULE_SEVEN_LOWER and start == 7)
        players[n] += 1
        rules[deck.rules] += 1
        sizes["two decks" if deck.n_cards > 52 else "one deck"] += 1
    assert set(players) == {2, 3, 4, 5} and set(rules) == {0, 1, 2, 3}
    assert sizes["two decks"] >= 40 and sizes["one deck"] >= 40, sizes


def test_random_playouts_make_only_legal_moves_and_end_or_hit_the_cap() -> None:
    ended = 0
    for _deck, moves, outcome in playouts():
        assert outcome is not None or len(moves) == CAP
        ended += outcome is not None
    assert ended >= SETUPS // 10  # some games end within the cap; the others stop there (C34)
    for deck, moves, outcome in playouts()[:REPLAYED]:
        replay = ENGINE.new_game(ENGINE.parse_deck(ENGINE.format_deck(deck)))
        for move in moves:
            assert move in ENGINE.legal_moves(replay)
            ENGINE.apply(replay, move)
        assert ENGINE.outcome(replay) == outcome


def test_deck_and_move_notations_round_trip_exactly() -> None:
    for deck, moves, _outcome in playouts():
        text = ENGINE.format_deck(deck)
        assert ENGINE.parse_deck(text) == deck and ENGINE.format_deck(ENGINE.parse_deck(text)) == text
        written = ENGINE.format_moves(moves)
        assert ENGINE.parse_moves(written) == moves and ENGINE.format_moves(ENGINE.parse_moves(written)) == written


def test_same_seed_same_playout() -> None:
    runs = []
    for _ in range(2):
        rng = random.Random(7)
        runs.append(random_playout(ENGINE, ENGINE.random_deck(rng), rng, max_moves=200)[0])
    assert runs[0] == runs[1] and runs[0]


def test_moves_name_an_identity_exactly_when_the_zone_holds_a_twin() -> None:
    """Two fives of hearts in seat 0's hand (deck indexes 0 and 2): each is written with its identity,
    every other card plainly."""
    hands = [parse_cards("5H 5H 9C KD QS JH"), parse_cards("4C 4D 6S 7H 8D AS")]
    down = [parse_cards("JC JC JC"), parse_cards("QD QD QD")]
    setup = Setup.dealt(2, 0, hands, down, parse_cards("4S")[0], parse_cards("KH"))
    game = ENGINE.new_game(setup)
    tokens = [str(m) for m in ENGINE.legal_moves(game)]
    assert tokens[0] == "up:5H@0,5H@2,9C" and "up:9C,KD,QS" in tokens and "up:5H@2,KD,JH" in tokens
    assert all(part.startswith("5H@") for t in tokens for part in t[3:].split(",") if "@" in part)
    for token in tokens:  # each resolves to the move it was written from
        ENGINE.apply(ENGINE.new_game(setup), ENGINE.parse_moves(token)[0])
    move = game.legal_moves()[0]
    assert str(spec_of(game, move)) == "up:5H@0,5H@2,9C"


def test_an_illegal_move_is_refused_by_the_engine() -> None:
    game = ENGINE.new_game(ENGINE.random_deck(random.Random(1)))
    (pickup,) = ENGINE.parse_moves("pickup")
    assert pickup not in ENGINE.legal_moves(game)  # the setup phase: face-up choices only (C5)
    with pytest.raises(IllegalMoveError):
        ENGINE.apply(game, pickup)
    assert isinstance(game, Game) and game.current_turn() == 0

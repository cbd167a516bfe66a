"""The reference engine as an API: every Game.h / Card.h function, C conventions, notation.

Rule-by-rule behaviour is checked by the 122 hand-worked scenarios of
fixtures/scenarios (run on the reference by ``pytest spec_tests``); this module
checks the engine's surface and the properties every game must keep.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from grader.core.sandbox.native import snake
from grader.games.fcd18s2.sandbox.interface import API, API_FUNCTIONS
from reference import (
    NO_WINNER,
    NOT_FINISHED,
    Action,
    Card,
    Color,
    Deck,
    DeckError,
    Game,
    IllegalMoveError,
    MoveSpec,
    PlayerMove,
    Suit,
    Value,
    new_game,
    traditional_deck,
)

NEUTRAL = Deck.parse(" ".join(["5RH", "5RD", "7YS", "7YS", "5BD"] + ["7YS"] * 23 + ["5GC"] + ["9PQ"] * 10))


def test_every_game_h_function_has_a_snake_case_counterpart() -> None:
    game = Game(NEUTRAL)
    missing = [name for name in API_FUNCTIONS
               if name not in ("newCard", "destroyCard", "cardSuit", "cardValue", "cardColor", "newGame")
               and not callable(getattr(game, snake(name), None))]
    assert missing == []
    card = game.hand_card(0)
    assert (card.value, card.color, card.suit) == (Value.FIVE, Color.RED, Suit.HEARTS)


def test_enums_and_constants_equal_the_c_header() -> None:
    consts = API.header_constants()
    assert (consts["NOT_FINISHED"], consts["NO_WINNER"], consts["NUM_PLAYERS"]) == (NOT_FINISHED, NO_WINNER, 4)
    assert [int(a) for a in (Action.DRAW_CARD, Action.PLAY_CARD, Action.END_TURN)] == [0, 1, 2]
    assert [int(c) for c in Color] == list(range(5)) and Color.PURPLE == 4
    assert [int(s) for s in Suit] == list(range(5)) and Suit.QUESTIONS == 4
    assert Value.DRAW_TWO == 2 and Value.A == 10 and Value.D == 13 and Value.F == 15


def test_null_conventions_at_the_end_of_every_sequence_A27() -> None:
    game = new_game(NEUTRAL.values, NEUTRAL.colors, NEUTRAL.suits)
    assert game.hand_card(7) is None and game.get_hand_card(1, 7) is None
    assert game.get_deck_card(10) is None and game.get_deck_card(9) is not None
    assert game.get_discard_pile_card(1) is None and game.get_discard_pile_card(0) is game.top_discard()
    assert game.get_hand_card(4, 0) is None and game.player_card_count(-1) == 0


def test_cards_compare_by_identity_and_round_trip_their_notation() -> None:
    a, b = Card.parse("DPQ"), Card.parse("DPQ")
    assert a != b and a.key == b.key == (13, 4, 4)
    assert str(a) == "DPQ" and repr(a) == "Card.parse('DPQ')" and a.describe() == "D purple questions"
    with pytest.raises(reference.NotationError):
        Card.parse("GRH")


@given(st.lists(st.tuples(st.integers(0, 15), st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=50))
def test_deck_notation_round_trip(keys: list[tuple[int, int, int]]) -> None:
    deck = Deck.from_keys(keys)
    assert Deck.parse(str(deck)).keys == deck.keys


def test_move_notation_round_trip() -> None:
    for text in ("draw", "end", "3RH", "DRQ/G"):
        assert str(MoveSpec.parse(text)) == text
    with pytest.raises(reference.NotationError):
        MoveSpec.parse("DRQ")  # a D needs a declared colour


def test_too_small_a_deck_is_refused_A51() -> None:
    with pytest.raises(DeckError):
        Game(Deck.parse("1RH " * 28))


def test_an_illegal_move_raises_instead_of_guessing_A28() -> None:
    game = Game(NEUTRAL)
    with pytest.raises(IllegalMoveError):
        game.play_move(PlayerMove(Action.END_TURN))
    with pytest.raises(reference.InvalidMoveError):
        game.play_move(PlayerMove(Action.PLAY_CARD))


def test_outcome_is_an_object() -> None:
    game = Game(Deck.parse("7YS " * 28 + "5GC"))
    assert game.outcome() is None
    game.play_move(PlayerMove(Action.DRAW_CARD))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None and outcome.game_winner == NO_WINNER
    assert outcome.termination is reference.Termination.NOTHING_TO_DRAW


def snapshot(game: Game) -> tuple:
    hands = tuple(tuple(map(id, (game.get_hand_card(p, i) for i in range(game.player_card_count(p)))))
                  for p in range(4))
    return (game.current_player(), game.current_turn(), game.current_turn_moves(), game.get_active_draw_twos(),
            game.get_current_color(), game.game_winner(), game.get_previous_turn_player(), hands,
            game.draw_pile_size(), game.discard_pile_size(), id(game.top_discard()))


decks = st.one_of(
    st.lists(st.tuples(st.sampled_from([0, 1, 2, 2, 5, 10, 13, 15]), st.integers(0, 4), st.integers(0, 4)),
             min_size=29, max_size=60).map(Deck.from_keys),
    st.randoms(use_true_random=False).map(lambda r: Deck.from_keys(r.sample(traditional_deck().keys, 800))),
)


@settings(max_examples=40, deadline=None)
@given(decks, st.randoms(use_true_random=False))
def test_properties_of_every_random_game(deck: Deck, rng: random.Random) -> None:
    """Conservation, points, numTurns, isValidMove without side effects, termination."""
    game = Game(deck)
    all_ids = None
    for _ in range(3000):
        ids = [id(c) for p in range(4) for c in (game.get_hand_card(p, i) for i in range(game.player_card_count(p)))]
        ids += [id(game.get_deck_card(i)) for i in range(game.draw_pile_size())]
        ids += [id(game.get_discard_pile_card(i)) for i in range(game.discard_pile_size())]
        assert len(ids) == len(set(ids)) == len(deck)  # every card in exactly one place
        all_ids = all_ids or set(ids)
        assert set(ids) == all_ids
        for p in range(4):
            assert game.player_points(p) == sum(int(game.get_hand_card(p, i).value)
                                                for i in range(game.player_card_count(p)))
        assert game.num_turns() == game.current_turn() + 1
        before = snapshot(game)
        legal = game.legal_moves()
        probes = legal + [PlayerMove(Action.END_TURN), PlayerMove(Action.DRAW_CARD)]
        probes += [PlayerMove(Action.PLAY_CARD, game.get_hand_card(p, 0), Color.RED) for p in range(4)
                   if game.get_hand_card(p, 0) is not None]
        verdicts = [game.is_valid_move(m) for m in probes]
        assert snapshot(game) == before
        assert all(verdicts[: len(legal)])
        if game.game_winner() != NOT_FINISHED:
            assert legal == []
            break
        assert legal, "a game that is not over always has a legal move"
        game.play_move(rng.choice(legal))
    else:
        pytest.fail("the game did not end within 3000 moves")

"""S1-S4, S22, S24, B2, B3, B5, B10, B11, B12: the deck, the deal, the start and the hand queries."""

from __future__ import annotations

import pytest
from decks17 import current_hand, game, hand, play, tokens

from reference.cards import traditional_deck
from reference.fcd17s2 import NOT_FINISHED, Deck, DeckError, Direction, Game, new_game

# Card i of the first 28 is value i//4 and colour "RBGY"[i % 4], all hearts: so
# player p, dealt cards p, p+4, ..., p+24, holds 0..6 in one colour.
DEALT = ("0RH 0BH 0GH 0YH 1RH 1BH 1GH 1YH 2RH 2BH 2GH 2YH 3RH 3BH 3GH 3YH "
         "4RH 4BH 4GH 4YH 5RH 5BH 5GH 5YH 6RH 6BH 6GH 6YH")
DECK = Deck.parse(DEALT + " 8PS 9PD EPC FPQ BRD")  # 33 cards


def test_S2_B2_card_i_goes_to_player_i_mod_4() -> None:
    """S2/B2: dealt round-robin from index 0, player 0 first; 7 cards each."""
    g = Game(DECK)
    assert hand(g, 0) == tokens("0RH 1RH 2RH 3RH 4RH 5RH 6RH")
    assert hand(g, 1) == tokens("0BH 1BH 2BH 3BH 4BH 5BH 6BH")
    assert hand(g, 2) == tokens("0GH 1GH 2GH 3GH 4GH 5GH 6GH")
    assert hand(g, 3) == tokens("0YH 1YH 2YH 3YH 4YH 5YH 6YH")
    assert [g.player_card_count(p) for p in range(4)] == [7, 7, 7, 7]


def test_S2_newGame_takes_three_parallel_arrays() -> None:
    """S2/B2: new_game(values, colors, suits) deals exactly as Game(deck)."""
    g = new_game(DECK.values, DECK.colors, DECK.suits)
    assert g.num_cards() == 33
    assert hand(g, 3) == tokens("0YH 1YH 2YH 3YH 4YH 5YH 6YH")
    assert str(g.top_discard()) == "8PS"


def test_S3_B2_B3_card_28_is_the_first_discard_and_card_29_is_drawn_first() -> None:
    """S3/B2: top 8PS; player 0's draw brings 9PD, the very Card the draw pile held (B3)."""
    g = Game(DECK)
    assert str(g.top_discard()) == "8PS"
    next_card = g.draw_pile()[0]
    assert str(next_card) == "9PD"
    play(g, "draw")
    assert any(c is next_card for c in current_hand(g))
    assert hand(g, 0) == tokens("0RH 1RH 2RH 3RH 4RH 5RH 6RH 9PD")
    assert [str(c) for c in g.draw_pile()] == ["EPC", "FPQ", "BRD"]


def test_S4_B5_start_state() -> None:
    """S4/B5: player 0, turn 0, numTurns 1, CLOCKWISE, no moves, not finished, 7 cards each."""
    g = Game(DECK)
    assert g.current_player() == 0
    assert g.current_turn() == 0 and g.num_turns() == 1
    assert g.play_direction() is Direction.CLOCKWISE and int(g.play_direction()) == 0
    assert g.turn_moves(0) == 0
    assert g.game_winner() == NOT_FINISHED
    assert g.hand_card_count() == 7


def test_S1_B11_counts_are_over_the_whole_initial_deck_and_never_change() -> None:
    """S1/B11: numOf* count the 33 cards, dealt ones included, before and after a discard."""
    g = Game(DECK)
    for moves in ("", "0RH end draw"):  # a ZERO is always a legal discard
        play(g, moves)
        assert g.num_cards() == 33
        assert [g.num_of_value(v) for v in range(16)] == [4, 4, 4, 4, 4, 4, 4, 0, 1, 1, 0, 1, 0, 0, 1, 1]
        assert [g.num_of_color(c) for c in range(5)] == [8, 7, 7, 7, 4]
        assert [g.num_of_suit(s) for s in range(5)] == [28, 2, 1, 1, 1]


def test_S1_B10_B11_the_traditional_800_card_deck() -> None:
    """S1/B10/B11: 800 cards, 50 of each value, 160 of each colour and suit; the deal is value-major."""
    g = Game(traditional_deck())
    assert g.num_cards() == 800
    assert {g.num_of_value(v) for v in range(16)} == {50}
    assert {g.num_of_color(c) for c in range(5)} == {160}
    assert {g.num_of_suit(s) for s in range(5)} == {160}
    # cards 0..24 are the 25 ZEROs; 25, 26, 27 are 1RH 1RD 1RC (players 1, 2, 3); card 28 is 1RS
    assert [g.player_points(p) for p in range(4)] == [0, 1, 1, 1]
    assert str(g.top_discard()) == "1RS" and str(g.draw_pile()[0]) == "1RQ"


def test_B10_a_game_of_800_cards_and_1000_turns() -> None:
    """B10 (STRICT up to 800 cards and 1,000 turns): 800 x 5RH; players alternate playing and drawing.

    Even rounds: players 0 and 2 play, 1 and 3 draw; odd rounds the other way round, so after an
    even number of rounds every hand is back to 7 cards and no hand ever gets down to 3.
    """
    g = Game(Deck.parse("5RH " * 800))
    for r in range(250):
        play(g, "5RH end draw end 5RH end draw end" if r % 2 == 0 else "draw end 5RH end draw end 5RH end")
    assert g.current_turn() == 1000 and g.num_turns() == 1001 and g.current_player() == 0
    assert [g.player_card_count(p) for p in range(4)] == [7, 7, 7, 7]
    assert len(g.draw_pile()) == 771 - 500 and len(g.discard_pile()) == 1 + 500
    assert [str(g.past_move(999, m)) for m in range(g.turn_moves(999))] == ["5RH", "end"]


@pytest.mark.parametrize("size", [0, 28])
def test_B10_a_deck_too_small_to_deal_is_refused(size: int) -> None:
    """B10 (LENIENT under 30; the reference refuses what it cannot deal, 28 cards or fewer)."""
    with pytest.raises(DeckError):
        Game(Deck.parse("1RH " * size))


def test_S22_B12_points_are_the_sum_of_hex_values() -> None:
    """S22/B12: A..F count 10..15 and ZERO 0, for every player."""
    g = game("FRH ERH DRH ARH BRH CRH 0RH", "1BH 2BH 3BH 4BH 5BH 6BH 7BH", "8GH*7", top="5RC",
             draw="FYS EYS 1YS 2YS")
    assert [g.player_points(p) for p in range(4)] == [75, 28, 56, 63]


def test_S22_B12_points_follow_discards_and_draws_at_any_time() -> None:
    """S22/B12: FRH played -15 (mid-turn); FYS drawn +15; EYS drawn +14."""
    g = game("FRH ERH DRH ARH BRH CRH 0RH", "1BH 2BH 3BH 4BH 5BH 6BH 7BH", "8GH*7", top="5RC",
             draw="FYS EYS 1YS 2YS")
    play(g, "FRH")
    assert g.player_points(0) == 60
    play(g, "end draw")
    assert g.player_points(1) == 43
    play(g, "end draw end")
    assert [g.player_points(p) for p in range(4)] == [60, 43, 70, 63]


def test_B12_a_hand_of_zeros_is_worth_nothing() -> None:
    """B12: seven ZEROs are 0 points (not 7: points are not the hand size)."""
    g = game("0RH*7", top="5RC")
    assert g.player_points(0) == 0


def test_S24_handCard_is_the_current_players_hand_by_reference() -> None:
    """S24: handCard(i), i < handCardCount, returns the existing Cards of the current player."""
    g = Game(DECK)
    assert sorted(str(c) for c in current_hand(g)) == hand(g, 0)
    assert all(any(c is h for h in g.player_hand(0)) for c in current_hand(g))
    play(g, "draw end")
    assert g.current_player() == 1 and g.hand_card_count() == 7
    assert sorted(str(c) for c in current_hand(g)) == tokens("0BH 1BH 2BH 3BH 4BH 5BH 6BH")
    assert g.player_card_count(0) == 8

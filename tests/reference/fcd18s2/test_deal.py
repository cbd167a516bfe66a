"""R1-R3, A36, A37, A51: the deck, the deal, the first discard and the initial state."""

from __future__ import annotations

from collections import Counter

import pytest
from decks import DRAW, END, deck_pile, discard_pile, hand, tokens

from reference import (
    NOT_FINISHED,
    Color,
    Deck,
    DeckError,
    Game,
    Suit,
    Value,
    new_game,
    traditional_deck,
)

# Card i of the first 28 is value i//4 and colour "RBGY"[i % 4], all hearts: so
# player p, who is dealt cards p, p+4, ..., p+24, holds 0..6 in one colour.
DEALT = ("0RH 0BH 0GH 0YH 1RH 1BH 1GH 1YH 2RH 2BH 2GH 2YH 3RH 3BH 3GH 3YH "
         "4RH 4BH 4GH 4YH 5RH 5BH 5GH 5YH 6RH 6BH 6GH 6YH")
DECK = Deck.parse(DEALT + " 8PS" + " 9PD EPC FPQ BRD")  # 33 cards


def test_R2_card_i_goes_to_player_i_mod_4() -> None:
    """R2: dealt round-robin, player 0 first; each player holds 7 cards."""
    g = Game(DECK)
    assert hand(g, 0) == tokens("0RH 1RH 2RH 3RH 4RH 5RH 6RH")
    assert hand(g, 1) == tokens("0BH 1BH 2BH 3BH 4BH 5BH 6BH")
    assert hand(g, 2) == tokens("0GH 1GH 2GH 3GH 4GH 5GH 6GH")
    assert hand(g, 3) == tokens("0YH 1YH 2YH 3YH 4YH 5YH 6YH")
    assert [g.player_card_count(p) for p in range(4)] == [7, 7, 7, 7]
    assert g.hand_card_count() == 7


def test_R2_new_game_takes_three_parallel_arrays() -> None:
    """R2, Game.h newGame: the C-style constructor with plain ints deals the same."""
    values = [int(v) for v in DECK.values]
    colors = [int(c) for c in DECK.colors]
    suits = [int(s) for s in DECK.suits]
    g = new_game(values, colors, suits)
    assert g.num_cards() == 33
    assert hand(g, 2) == tokens("0GH 1GH 2GH 3GH 4GH 5GH 6GH")
    assert str(g.top_discard()) == "8PS"


def test_R3_card_28_is_the_first_discard_and_29_on_the_draw_pile() -> None:
    """R3: index 28 is turned up, index 29.. is the draw pile with getDeckCard(0) = card 29."""
    g = Game(DECK)
    assert str(g.top_discard()) == "8PS"
    assert [str(c) for c in discard_pile(g)] == ["8PS"]
    assert g.get_discard_pile_card(1) is None
    assert [str(c) for c in deck_pile(g)] == ["9PD", "EPC", "FPQ", "BRD"]
    assert g.get_deck_card(4) is None


def test_R3_A15_A31_A32_initial_state() -> None:
    """R3: player 0, turn 0, numTurns 1, 0 moves, previous -1, top played in turn -1 (A15)."""
    g = Game(DECK)
    assert g.current_player() == 0
    assert g.current_turn() == 0
    assert g.num_turns() == 1
    assert g.current_turn_moves() == 0
    assert g.get_previous_turn_player() == -1
    assert g.get_top_discard_turn_number() == -1
    assert g.get_number_of_two_cards_at_top() == 0
    assert g.get_active_draw_twos() == 0
    assert g.get_current_color() == Color.PURPLE == 4
    assert g.game_winner() == NOT_FINISHED == -1


def test_A36_the_deck_is_not_shuffled() -> None:
    """A36 (STRICT part): the arrays' order is the deck order, every card in its place."""
    g = Game(DECK)
    order = DEALT.split() + ["8PS", "9PD", "EPC", "FPQ", "BRD"]
    dealt = [g.get_hand_card(i % 4, i // 4) for i in range(28)]
    # hand order is unspecified (A27), so look each card up in its player's hand
    for i in range(28):
        assert order[i] in hand(g, i % 4)
    assert sorted(str(c) for c in dealt) == sorted(order[:28])
    assert [str(c) for c in discard_pile(g) + deck_pile(g)] == order[28:]


def test_A37_num_of_counts_over_the_whole_initial_deck() -> None:
    """A37: numCards/numOfSuit/numOfColor/numOfValue count every card, dealt ones included."""
    g = Game(DECK)
    assert g.num_cards() == 33
    # colours: 7 per dealt colour, + BRD red; purple 8PS 9PD EPC FPQ
    assert [g.num_of_color(c) for c in Color] == [8, 7, 7, 7, 4]
    # suits: 28 dealt hearts; diamonds 9PD BRD; clubs EPC; spades 8PS; questions FPQ
    assert [g.num_of_suit(s) for s in Suit] == [28, 2, 1, 1, 1]
    # values: 0..6 four times each; 8, 9, B, E, F once; 7, A, C, D never
    assert [g.num_of_value(v) for v in Value] == [4, 4, 4, 4, 4, 4, 4, 0, 1, 1, 0, 1, 0, 0, 1, 1]


def test_A37_counts_are_fixed_for_the_game() -> None:
    """A37: drawing and playing cards does not change the initial-deck counts."""
    g = Game(DECK)
    g.play_move(DRAW)  # player 0 draws 9PD
    g.play_move(END)
    assert g.num_cards() == 33
    assert g.num_of_suit(Suit.DIAMONDS) == 2
    assert g.num_of_color(Color.PURPLE) == 4
    assert g.num_of_value(Value.NINE) == 1
    assert g.player_card_count(0) == 8


def test_R1_traditional_deck_has_800_cards_two_of_each() -> None:
    """R1: 16 values x 5 suits x 5 colours x 2 copies = 800."""
    deck = traditional_deck()
    assert len(deck) == 800
    counts = Counter(deck.keys)
    assert len(counts) == 400 and set(counts.values()) == {2}
    g = Game(deck)
    assert g.num_cards() == 800
    assert [g.num_of_value(v) for v in Value] == [50] * 16
    assert [g.num_of_color(c) for c in Color] == [160] * 5
    assert [g.num_of_suit(s) for s in Suit] == [160] * 5


def test_R1_A46_identical_cards_are_distinct_cards() -> None:
    """R1: duplicates are normal; 40 copies of 1RH are 40 different Card objects."""
    g = Game(Deck.parse("1RH " * 40))
    cards = ([g.get_hand_card(p, i) for p in range(4) for i in range(7)]
             + discard_pile(g) + deck_pile(g))
    assert len(cards) == 40
    assert len({id(c) for c in cards}) == 40
    assert len(deck_pile(g)) == 11
    assert g.num_of_value(Value.ONE) == 40


@pytest.mark.parametrize("size", [0, 1, 28])
def test_A36_A51_decks_under_29_cards_raise_DeckError(size: int) -> None:
    """A36/A51: fewer than 4 x 7 + 1 cards is undefined in C; the engine refuses it."""
    with pytest.raises(DeckError):
        Game(Deck.parse("1RH " * size))
    with pytest.raises(DeckError):
        new_game([1] * size, [0] * size, [0] * size)


def test_A51_a_29_card_deck_deals_with_an_empty_draw_pile() -> None:
    """A51: 29 is the smallest deck: 28 dealt, 1 discard, nothing to draw."""
    g = Game(Deck.parse("1RH " * 28 + "5GC"))
    assert [g.player_card_count(p) for p in range(4)] == [7, 7, 7, 7]
    assert str(g.top_discard()) == "5GC"
    assert g.get_deck_card(0) is None
    assert g.game_winner() == NOT_FINISHED

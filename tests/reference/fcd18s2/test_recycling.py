"""R11, A21, A22 (and A15 after a recycle): turning the discard pile over."""

from __future__ import annotations

from decks import deck_pile, discard_pile, game, hand, play, tokens

# Top 5RH, a single card 1YS to draw.  Players play red cards on red:
# p0 6RH 3RD, p2 7RC, p3 8RS.


def start():
    return game("6RH 3RD", "", "7RC", "8RS", top="5RH", draw="1YS")


def test_A22_the_reference_recycles_lazily() -> None:
    """A22 (LENIENT; reference reading (a)): an emptied draw pile stays empty until a draw needs a card."""
    g = start()
    play(g, "6RH end draw end")  # player 1 takes the last card, 1YS
    assert g.get_deck_card(0) is None
    assert [str(c) for c in discard_pile(g)] == ["6RH", "5RH"]
    assert hand(g, 1) == tokens("9PQ*7 1YS")


def test_R11_A21_the_oldest_discard_is_drawn_first_and_the_top_stays() -> None:
    """R11/A21 (STRICT): the next card drawn is the oldest non-top discard (the turned-up 5RH); 7RC stays on top.

    The rest of the piles (6RH left to draw, 7RC alone on the discard pile) is the reference's reading of A21.
    """
    g = start()
    play(g, "6RH end draw end 7RC end")
    top = g.top_discard()
    initial = g.get_discard_pile_card(2)
    assert str(top) == "7RC" and str(initial) == "5RH"
    assert g.current_player() == 3
    play(g, "draw")
    assert any(g.hand_card(i) is initial for i in range(8))  # the same card object
    assert hand(g, 3) == tokens("8RS 9PQ*6 5RH")
    assert g.top_discard() is top
    assert [str(c) for c in discard_pile(g)] == ["7RC"]
    assert g.get_discard_pile_card(1) is None
    assert [str(c) for c in deck_pile(g)] == ["6RH"]
    assert g.game_winner() == -1


def test_A15_the_top_keeps_its_turn_number_through_a_recycle() -> None:
    """A15 (LENIENT after recycling; the reference keeps it): 7RC was played in turn 2."""
    g = start()
    play(g, "6RH end draw end 7RC end draw")
    assert g.get_top_discard_turn_number() == 2


def test_R11_A21_the_recycled_pile_is_the_discard_pile_turned_over() -> None:
    """R11/A21 (reference reading (a)): no shuffle; drawn in the order the cards were discarded."""
    g = start()
    play(g, "6RH end draw end 7RC end 8RS end 3RD end")
    assert g.current_turn() == 5 and g.current_player() == 1
    assert [str(c) for c in discard_pile(g)] == ["3RD", "8RS", "7RC", "6RH", "5RH"]
    play(g, "draw")
    assert hand(g, 1) == tokens("9PQ*7 1YS 5RH")
    assert [str(c) for c in deck_pile(g)] == ["6RH", "7RC", "8RS"]
    assert [str(c) for c in discard_pile(g)] == ["3RD"]
    play(g, "end draw end draw end draw end")  # players 2, 3, 0 draw 6RH, 7RC, 8RS
    assert hand(g, 2) == tokens("9PQ*6 6RH")
    assert hand(g, 3) == tokens("9PQ*6 7RC")
    assert hand(g, 0) == tokens("9PQ*5 8RS")
    assert g.get_deck_card(0) is None


def test_R11_A21_recycling_in_the_middle_of_a_penalty() -> None:
    """R11/A21/R7: player 1 owes 2, draws 1YS, then the second draw recycles and gives 5RH."""
    g = game("2RH", top="5RH", draw="1YS")
    play(g, "2RH end draw draw")
    assert hand(g, 1) == tokens("9PQ*7 1YS 5RH")
    assert [str(c) for c in discard_pile(g)] == ["2RH"]
    assert g.get_deck_card(0) is None
    play(g, "end")
    assert g.current_player() == 2 and g.get_active_draw_twos() == 0


def test_R11_R13_two_cards_on_the_discard_pile_are_enough_to_recycle() -> None:
    """R11/R13/A21: 29-card deck; after 6RH covers 5RH, player 1's draw recycles 5RH, the oldest non-top discard."""
    g = game("6RH", top="5RH")
    assert g.get_deck_card(0) is None
    play(g, "6RH end draw")
    assert g.game_winner() == -1
    assert hand(g, 1) == tokens("9PQ*7 5RH")
    assert [str(c) for c in discard_pile(g)] == ["6RH"]
    assert g.get_deck_card(0) is None

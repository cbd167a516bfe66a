"""R7, A6, A7, A9, A10, A11, A39, A49: the draw-two and stacking."""

from __future__ import annotations

import pytest
from decks import game, hand, play, tokens, valid

# Top 5GC.  Every player holds a 2; player 1 also holds cards that would match a
# 2GH in an ordinary turn (0YS ZERO, AGS/DGS/3GD green, 6RH hearts).  The 2s
# after 2GH match it only by value (2BD, 2YS, 2RC).  Draw pile: 12 distinct cards.
P0 = "2GH 2RD"
P1 = "2BD 0YS AGS DGS 3GD 6RH"
P2 = "2YS 4GD"
P3 = "2RC 4GH"
DRAW_PILE = "1BS 3BS 4BS 6BS 7BS 8BS 1YD 3YD 4YD 6YD 7YD 8YD"


def start():
    return game(P0, P1, P2, P3, top="5GC", draw=DRAW_PILE)


def test_R7_after_a_two_the_next_player_faces_one_active_two() -> None:
    """R7: after 2GH the turn passes to player 1 with one active 2 on top."""
    g = start()
    play(g, "2GH end")
    assert g.current_player() == 1 and g.current_turn() == 1
    assert g.get_previous_turn_player() == 0
    assert str(g.top_discard()) == "2GH" and g.get_top_discard_turn_number() == 0
    assert g.get_active_draw_twos() == 1
    assert g.get_number_of_two_cards_at_top() == 1
    assert g.get_current_color() == 2  # green


def test_R7_A10_a_two_of_any_colour_and_suit_may_be_stacked() -> None:
    """A10 (STRICT): 2BD on an active 2GH is valid although it matches only by value."""
    g = start()
    play(g, "2GH end")
    assert valid(g, "2BD")


@pytest.mark.parametrize("token", ["0YS", "3GD", "6RH"])
def test_R7_A11_only_a_two_answers_an_active_two(token: str) -> None:
    """A11: ZERO, a same-colour card and a same-suit card are all invalid on an active 2."""
    g = start()
    play(g, "2GH end")
    assert not valid(g, token)


@pytest.mark.parametrize("token", ["AGS", "DGS/B"])
def test_R7_A39_an_A_or_a_D_cannot_interrupt_a_draw_two(token: str) -> None:
    """A39: the green A and D would match 2GH normally, but only a 2 may be played."""
    g = start()
    play(g, "2GH end")
    assert not valid(g, token)


def test_R7_A6_one_two_means_exactly_two_draws() -> None:
    """R7/A6: END_TURN is invalid after 1 of 2 draws and valid after both; no third draw."""
    g = start()
    play(g, "2GH end")
    assert not valid(g, "end")  # A5/A6: nothing done yet
    assert valid(g, "draw")
    play(g, "draw")
    assert g.current_turn_moves() == 1
    assert g.hand_card_count() == 8
    assert not valid(g, "end")  # A6: 1 of 2
    assert valid(g, "draw")
    play(g, "draw")
    assert g.current_turn_moves() == 2
    assert valid(g, "end")  # A6: 2 of 2
    assert not valid(g, "draw")  # no third card
    assert hand(g, 1) == tokens("2BD 0YS AGS DGS 3GD 6RH 9PQ 1BS 3BS")


def test_R7_A1_having_drawn_the_penalty_the_player_cannot_play() -> None:
    """R7 ('followed by end of the turn'): after paying, even the 2 and ZERO are invalid.

    A1 is LENIENT in general; this is the reference's reading (a).
    """
    g = start()
    play(g, "2GH end draw draw")
    assert not valid(g, "2BD")
    assert not valid(g, "0YS")


def test_R7_A9_after_the_penalty_the_twos_are_inactive_but_still_on_top() -> None:
    """R7/A9: at the next turn getActiveDrawTwos is 0 and getNumberOfTwoCardsAtTop still 1."""
    g = start()
    play(g, "2GH end draw draw end")
    assert g.current_player() == 2 and g.current_turn() == 2
    assert g.get_previous_turn_player() == 1
    assert g.get_active_draw_twos() == 0
    assert g.get_number_of_two_cards_at_top() == 1
    assert str(g.top_discard()) == "2GH"
    # an ordinary turn again: green 4GD matches, one draw only
    assert valid(g, "4GD") and valid(g, "2YS") and valid(g, "draw")
    assert not valid(g, "end")
    play(g, "draw")
    assert not valid(g, "draw")  # A4
    assert valid(g, "end")
    assert [g.player_card_count(p) for p in range(4)] == [6, 9, 8, 7]


def test_R7_A9_a_card_on_the_paid_two_ends_the_run() -> None:
    """A9: once 4GD covers the 2GH, getNumberOfTwoCardsAtTop is 0."""
    g = start()
    play(g, "2GH end draw draw end 4GD")
    assert g.get_number_of_two_cards_at_top() == 0
    assert g.get_active_draw_twos() == 0


def test_R7_A3_after_stacking_a_two_only_END_TURN_is_valid() -> None:
    """R7/A2/A3: the player who stacks a 2 has played; draw and a second play are invalid."""
    g = start()
    play(g, "2GH end 2BD")
    assert g.current_turn_moves() == 1
    assert valid(g, "end")
    assert not valid(g, "draw")  # A3, the reference's reading
    assert not valid(g, "3GD")  # A2


def test_R7_A7_two_stacked_twos_require_four_draws() -> None:
    """A7 (STRICT chain): 2 active 2s -> player 2 draws exactly 4."""
    g = start()
    play(g, "2GH end 2BD end")
    assert g.current_player() == 2
    assert g.get_active_draw_twos() == 2
    assert g.get_number_of_two_cards_at_top() == 2
    for drawn in range(1, 4):
        play(g, "draw")
        assert not valid(g, "end"), f"END_TURN after {drawn} of 4 draws"
    play(g, "draw")
    assert valid(g, "end")
    assert not valid(g, "draw")
    assert hand(g, 2) == tokens("2YS 4GD 9PQ*5 1BS 3BS 4BS 6BS")
    play(g, "end")
    assert g.current_player() == 3 and g.current_turn() == 3
    assert g.get_active_draw_twos() == 0
    assert g.get_number_of_two_cards_at_top() == 2


def test_R7_A7_three_stacked_twos_require_six_draws() -> None:
    """A7 (STRICT chain): 3 active 2s -> player 3 draws exactly 6."""
    g = start()
    play(g, "2GH end 2BD end 2YS end")
    assert g.current_player() == 3
    assert g.get_active_draw_twos() == 3
    assert g.get_number_of_two_cards_at_top() == 3
    for drawn in range(1, 6):
        play(g, "draw")
        assert not valid(g, "end"), f"END_TURN after {drawn} of 6 draws"
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")
    assert g.player_card_count(3) == 13
    assert hand(g, 3) == tokens("2RC 4GH 9PQ*5 1BS 3BS 4BS 6BS 7BS 8BS")


def test_R7_A7_four_stacked_twos_require_eight_draws() -> None:
    """R7 (2, 4, 6, ...): the fourth 2 in a row passes 8 cards back to player 0."""
    g = start()
    play(g, "2GH end 2BD end 2YS end 2RC end")
    assert g.current_player() == 0 and g.current_turn() == 4
    assert g.get_active_draw_twos() == 4
    assert g.get_number_of_two_cards_at_top() == 4
    play(g, "draw " * 7)
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")
    assert g.player_card_count(0) == 6 + 8


def test_A7_a_two_on_a_paid_two_owes_two_in_the_reference() -> None:
    """A7 (LENIENT case; reference reading (a)): run 2, active 1 -> 2 x active = 2 cards."""
    g = start()
    play(g, "2GH end draw draw end 2YS end")  # player 2 plays 2YS on the paid 2GH
    assert g.current_player() == 3
    assert g.get_number_of_two_cards_at_top() == 2
    assert g.get_active_draw_twos() == 1
    play(g, "draw draw")
    assert valid(g, "end") and not valid(g, "draw")


def test_A49_playing_a_two_part_way_through_the_penalty_is_invalid_in_the_reference() -> None:
    """A49 (LENIENT; reference reading (a)): one card drawn commits player 1 to the penalty."""
    g = start()
    play(g, "2GH end draw")
    assert not valid(g, "2BD")
    assert valid(g, "draw")

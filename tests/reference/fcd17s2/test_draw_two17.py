"""S11, B20-B25, B48: the draw-two, stacking, paying, and call-outs on the way."""

from __future__ import annotations

import pytest
from decks17 import game, hand, play, tokens, valid

# Top 5GC.  Every player holds a 2; player 1 also holds cards that would match a
# 2GH in an ordinary turn (0YS ZERO; AGS, DGS, 3GD, CGD, BGS green).  The 2s
# after 2GH match it only by value (2BD, 2YS, 2RC).  Draw pile: 12 distinct cards.
P0 = "2GH 2RD"
P1 = "2BD 0YS AGS DGS 3GD CGD BGS"
P2 = "2YS 4GD"
P3 = "2RC 4GH"
DRAW_PILE = "1BS 3BS 4BS 6BS 7BS 8BS 1YD 3YD 4YD 6YD 7YD 8YD"


def start():
    return game(P0, P1, P2, P3, top="5GC", draw=DRAW_PILE)


def test_S11_B25_after_a_two_the_next_player_owes_two_cards() -> None:
    """S11/B25: after 2GH, player 1 may not end the turn before drawing; drawing is valid."""
    g = start()
    play(g, "2GH end")
    assert g.current_player() == 1
    assert g.owed_cards() == 2
    assert not valid(g, "end")
    assert valid(g, "draw")


def test_S11_B20_a_two_of_any_colour_and_suit_may_be_stacked() -> None:
    """B20 (STRICT): 2BD on the pending 2GH is valid although it matches only by value."""
    g = start()
    play(g, "2GH end")
    assert valid(g, "2BD")


@pytest.mark.parametrize("token", ["0YS", "3GD", "AGS", "DGS/B", "CGD", "BGS"])
def test_B21_only_a_two_answers_a_pending_two(token: str) -> None:
    """B21: a ZERO, and green A, B, C, D and 3 that would match 2GH otherwise, are all invalid."""
    g = start()
    play(g, "2GH end")
    assert not valid(g, token)


def test_S11_B23_one_two_means_exactly_two_draws() -> None:
    """S11/B23: END_TURN invalid after 1 of 2 draws and valid after both; no third draw."""
    g = start()
    play(g, "2GH end draw")
    assert not valid(g, "end") and valid(g, "draw")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")
    assert hand(g, 1) == tokens(P1 + " 1BS 3BS")


def test_B24_having_drawn_the_player_cannot_discard_in_the_reference() -> None:
    """B24 (LENIENT; reference reading (a)): after one draw the 2BD is refused; after both, 2BD and 0YS too."""
    g = start()
    play(g, "2GH end draw")
    assert not valid(g, "2BD")
    play(g, "draw")
    assert not valid(g, "2BD") and not valid(g, "0YS")


def test_B25_once_paid_the_two_is_inert() -> None:
    """B25: player 2 owes nothing: nothing done means no END_TURN; one draw; green 4GD and 2YS match 2GH."""
    g = start()
    play(g, "2GH end draw draw end")
    assert (g.current_turn(), g.current_player()) == (2, 2)
    assert str(g.top_discard()) == "2GH"
    assert not valid(g, "end")
    assert valid(g, "4GD") and valid(g, "2YS")
    play(g, "draw")
    assert not valid(g, "draw")
    assert valid(g, "end")
    assert [g.player_card_count(p) for p in range(4)] == [6, 9, 8, 7]


def test_B25_B17_after_stacking_only_END_TURN() -> None:
    """B25/B14/B17: player 1 stacks 2BD and owes nothing now; no draw, no second discard."""
    g = start()
    play(g, "2GH end 2BD")
    assert valid(g, "end")
    assert not valid(g, "draw")
    assert not valid(g, "0YS")


def test_B22_two_stacked_twos_owe_four() -> None:
    """B22 (STRICT chain): 2GH, 2BD -> player 2 draws exactly 4; then player 3 owes nothing."""
    g = start()
    play(g, "2GH end 2BD end")
    assert g.current_player() == 2
    for drawn in range(1, 4):
        play(g, "draw")
        assert not valid(g, "end"), f"END_TURN after {drawn} of 4 draws"
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")
    assert hand(g, 2) == tokens("2YS 4GD 9PQ*5 1BS 3BS 4BS 6BS")
    play(g, "end")
    assert g.current_player() == 3
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")


def test_B22_three_stacked_twos_owe_six() -> None:
    """B22 (STRICT chain): 2GH, 2BD, 2YS -> player 3 draws exactly 6."""
    g = start()
    play(g, "2GH end 2BD end 2YS end")
    play(g, "draw " * 5)
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")
    assert hand(g, 3) == tokens("2RC 4GH 9PQ*5 1BS 3BS 4BS 6BS 7BS 8BS")


def test_S11_B22_four_stacked_twos_owe_eight_back_to_player_0() -> None:
    """S11 (2, 4, 6, ... cards): the fourth 2 in a row passes 8 cards to player 0."""
    g = start()
    play(g, "2GH end 2BD end 2YS end 2RC end")
    assert (g.current_turn(), g.current_player()) == (4, 0)
    play(g, "draw " * 7)
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")
    assert g.player_card_count(0) == 6 + 8


def test_B22_a_two_on_a_paid_two_starts_a_new_chain_in_the_reference() -> None:
    """B22 (LENIENT case; reference reading (a)): 2YS on the paid 2GH owes 2 cards, not 4."""
    g = start()
    play(g, "2GH end draw draw end 2YS end")
    assert g.current_player() == 3
    assert g.twos_on_top() == 2 and g.owed_twos() == 1
    play(g, "draw draw")
    assert valid(g, "end") and not valid(g, "draw")


# ---- call-outs and a pending 2 (B48) ----------------------------------------------
# Top 5GC.  Player 0 discards CGH CGD CGS 2GS (green, then Cs by value, then a green
# 2 on a C) and is left with 3 cards, unclaimed.  Player 1 holds 2BD.

def chain_to_a_two():
    g = game("CGH CGD CGS 2GS", "2BD", top="5GC", draw=DRAW_PILE)
    play(g, "CGH CGD CGS 2GS end")
    return g


def test_B48_B43_call_out_first_then_pay_the_two_in_full() -> None:
    """B48: player 1's right TRIO gives player 0 the next 2 cards (1BS 3BS); player 1 still owes 2."""
    g = chain_to_a_two()
    play(g, "trio")
    assert hand(g, 0) == tokens("9PQ*3 1BS 3BS")
    assert g.player_card_count(1) == 7
    assert not valid(g, "end")
    play(g, "draw")
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end")
    assert hand(g, 1) == tokens("2BD 9PQ*6 4BS 6BS")


def test_B48_call_out_first_then_stack() -> None:
    """B48/B20: after the call-out player 1 may still stack 2BD; player 2 then owes 4."""
    g = chain_to_a_two()
    play(g, "trio 2BD end")
    assert g.current_player() == 2 and g.owed_cards() == 4

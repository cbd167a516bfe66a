"""S4, B6-B9: an A, B, 2, C or D turned up as the first discard (the reference's readings)."""

from __future__ import annotations

import pytest
from decks17 import game, hand, play, seats, tokens, valid

from reference.fcd17s2 import Direction

DRAW_PILE = "1BS 3BS 4BS 6BS 7BS 8BS 1YD 3YD"


# ---- ADVANCE (B6) -------------------------------------------------------------
# Top ARH.  Player 1: 1RD (red), 3BH (hearts), ABS (an A).

def initial_advance():
    return game("5RH", "1RD 3BH ABS", top="ARH", draw=DRAW_PILE)


def test_B6_player_0_is_skipped_and_player_1_holds_turn_0() -> None:
    """B6 (LENIENT; reference reading (a)): currentPlayer 1 on turn 0, numTurns 1, 7 cards in hand."""
    g = initial_advance()
    assert (g.current_player(), g.current_turn(), g.num_turns()) == (1, 0, 1)
    assert g.turn_player(0) == 1 and g.turn_moves(0) == 0
    assert valid(g, "1RD") and valid(g, "3BH")


def test_B6_turns_1_2_3_belong_to_players_2_3_0() -> None:
    """B6 (reference (a)): player 0 first plays on turn 3, with the 7 cards it was dealt (8 once it draws)."""
    g = initial_advance()
    play(g, "1RD end")
    assert seats(g, 3) == [2, 3, 0]
    assert g.player_card_count(0) == 8  # 7 dealt, 1 drawn on turn 3


def test_B6_an_advance_on_the_turned_up_advance_skips_player_2() -> None:
    """B6/S12: player 1's ABS on ARH: turn 1 belongs to player 3."""
    g = initial_advance()
    play(g, "ABS end")
    assert (g.current_turn(), g.current_player()) == (1, 3)


# ---- BACKWARDS (B7) -------------------------------------------------------------

def test_B7_anticlockwise_from_the_start_with_player_0_first() -> None:
    """B7 (LENIENT; reference reading (a)): ANTICLOCKWISE, player 0 first, then 3, 2, 1."""
    g = game(top="BRH", draw=DRAW_PILE)
    assert g.play_direction() is Direction.ANTICLOCKWISE and g.current_player() == 0
    assert seats(g, 4) == [0, 3, 2, 1]


def test_B7_B28_a_backwards_on_the_turned_up_backwards_restores_clockwise() -> None:
    """B7/B28: player 0's BBH on BRH: CLOCKWISE again, player 1 next."""
    g = game("BBH", top="BRH", draw=DRAW_PILE)
    play(g, "BBH end")
    assert g.play_direction() is Direction.CLOCKWISE and g.current_player() == 1


# ---- DRAW_TWO (B8) ---------------------------------------------------------------
# Top 2GC.  Player 0: 2RH (a 2), 0GC (ZERO), 5GS (green).  Player 1: 2BD.

def initial_two():
    return game("2RH 0GC 5GS", "2BD", top="2GC", draw=DRAW_PILE)


def test_B8_B21_player_0_must_stack_or_draw() -> None:
    """B8 (LENIENT; reference reading (a)): only 2RH or a draw; the ZERO, green 5GS and END_TURN are invalid."""
    g = initial_two()
    assert valid(g, "2RH") and valid(g, "draw")
    assert not valid(g, "0GC") and not valid(g, "5GS") and not valid(g, "end")


def test_B8_B23_player_0_draws_two_and_player_1_owes_nothing() -> None:
    """B8/B23: END_TURN only after both cards; player 1 then starts with nothing owed."""
    g = initial_two()
    play(g, "draw")
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")
    assert hand(g, 0) == tokens("2RH 0GC 5GS 9PQ*4 1BS 3BS")
    play(g, "end")
    assert g.current_player() == 1 and g.owed_cards() == 0


def test_B8_B22_stacking_on_the_turned_up_two_owes_four_in_the_reference() -> None:
    """B8/B22 (reference: the turned-up 2 counts as the chain's first): 2RH on it -> player 1 draws 4."""
    g = initial_two()
    play(g, "2RH end")
    play(g, "draw draw draw")
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")


# ---- CONTINUE, DECLARE and the rest (B9) ------------------------------------------

def test_B9_a_turned_up_continue_gives_nobody_an_extra_discard() -> None:
    """B9 (reference): player 0 puts 5RH on CRH; 6RH (hearts) may not follow."""
    g = game("5RH 6RH", top="CRH", draw=DRAW_PILE)
    play(g, "5RH")
    assert not valid(g, "6RH")


@pytest.mark.parametrize("token, expected", [
    ("7GC", True), ("3BH", True), ("DBS/R", True), ("0YS", True),
    ("7RC", False), ("1YC", False),
])
def test_B9_a_turned_up_declare_is_matched_by_its_printed_colour(token: str, expected: bool) -> None:
    """B9 (reference): nothing was declared; DGH's green, hearts or value D, or a ZERO."""
    g = game("7GC 3BH DBS 0YS 7RC 1YC", top="DGH", draw=DRAW_PILE)
    assert g.declared_color() is None
    assert valid(g, token) is expected


@pytest.mark.parametrize("top", ["ERH", "FRH", "0RH", "7RH"])
def test_S4_B5_other_first_discards_have_no_effect(top: str) -> None:
    """S4/B5: player 0 first, CLOCKWISE, nothing owed; seats 0, 1, 2, 3."""
    g = game(top=top, draw=DRAW_PILE)
    assert g.current_player() == 0 and g.play_direction() is Direction.CLOCKWISE
    assert g.owed_cards() == 0 and not valid(g, "end")
    assert seats(g, 4) == [0, 1, 2, 3]

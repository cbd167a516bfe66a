"""R10, A12, A13, A18: a 2, an A or a D turned up as the first discard."""

from __future__ import annotations

import pytest
from decks import game, hand, play, tokens, valid

DRAW_PILE = "1BS 3BS 4BS 6BS 7BS 8BS 1YD 3YD"


# ---- initial 2 (A12) ---------------------------------------------------------
# Top 2GC.  Player 0: 2RH (a 2), 0GC (ZERO), 5GS (green).  Player 1: 2BD.

def initial_two():
    return game("2RH 0GC 5GS", "2BD", top="2GC", draw=DRAW_PILE)


def test_R10_A12_initial_two_counters() -> None:
    """A12 (STRICT counters): player 0 to move, 1 active 2, run 1, turned up in turn -1."""
    g = initial_two()
    assert g.current_player() == 0 and g.current_turn() == 0
    assert g.get_active_draw_twos() == 1
    assert g.get_number_of_two_cards_at_top() == 1
    assert g.get_top_discard_turn_number() == -1
    assert g.get_previous_turn_player() == -1


def test_R10_A12_A11_player_0_must_play_a_two_or_draw() -> None:
    """R10/A12: only 2RH or a draw; ZERO (A11) and green 5GS are invalid, so is END_TURN."""
    g = initial_two()
    assert valid(g, "2RH")
    assert valid(g, "draw")
    assert not valid(g, "0GC")
    assert not valid(g, "5GS")
    assert not valid(g, "end")


def test_R10_A12_A6_player_0_draws_two() -> None:
    """R10/A12/A6: END_TURN only after both cards; player 1 then starts with no active 2."""
    g = initial_two()
    play(g, "draw")
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")
    assert hand(g, 0) == tokens("2RH 0GC 5GS 9PQ*4 1BS 3BS")
    play(g, "end")
    assert g.current_player() == 1 and g.current_turn() == 1
    assert g.get_previous_turn_player() == 0
    assert g.get_active_draw_twos() == 0
    assert g.get_number_of_two_cards_at_top() == 1
    assert g.get_top_discard_turn_number() == -1


def test_A12_stacking_on_the_initial_two_owes_four_in_the_reference() -> None:
    """A12 (LENIENT active count; reference counts the turned-up 2): 2RH on it -> player 1 draws 4."""
    g = initial_two()
    play(g, "2RH end")
    assert g.current_player() == 1
    assert g.get_number_of_two_cards_at_top() == 2
    assert g.get_active_draw_twos() == 2
    play(g, "draw draw draw")
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end")


# ---- initial A (A13) ---------------------------------------------------------
# Top ARH.  Player 1: 1RD (red), 3BH (hearts), ABS (an A).

def initial_a():
    return game("5RH", "1RD 3BH ABS", top="ARH", draw=DRAW_PILE)


def test_R10_A13_player_0_is_skipped_and_player_1_holds_turn_0() -> None:
    """A13: currentPlayer 1, currentTurn 0, numTurns 1, previous -1 at the start."""
    g = initial_a()
    assert g.current_player() == 1
    assert g.current_turn() == 0
    assert g.num_turns() == 1
    assert g.current_turn_moves() == 0
    assert g.get_previous_turn_player() == -1
    assert g.get_top_discard_turn_number() == -1
    assert g.hand_card_count() == 7
    assert valid(g, "1RD") and valid(g, "3BH")


def test_R10_A13_turns_1_2_3_belong_to_players_2_3_0() -> None:
    """A13: turn 1 is player 2 (previous 1), turn 2 player 3, player 0 next plays on turn 3."""
    g = initial_a()
    play(g, "1RD end")
    assert (g.current_turn(), g.current_player(), g.get_previous_turn_player()) == (1, 2, 1)
    play(g, "draw end")
    assert (g.current_turn(), g.current_player(), g.get_previous_turn_player()) == (2, 3, 2)
    play(g, "draw end")
    assert (g.current_turn(), g.current_player(), g.get_previous_turn_player()) == (3, 0, 3)
    assert g.player_card_count(0) == 7


def test_R10_A13_the_initial_A_skips_only_player_0() -> None:
    """R10/R8: if player 1 only draws, player 2 still gets turn 1."""
    g = initial_a()
    play(g, "draw end")
    assert g.current_turn() == 1 and g.current_player() == 2


def test_R10_A13_an_A_on_the_initial_A_skips_player_2() -> None:
    """R8 on R10: player 1 plays ABS on the turned-up A: turn 1 belongs to player 3."""
    g = initial_a()
    play(g, "ABS end")
    assert g.current_turn() == 1 and g.current_player() == 3
    assert g.get_previous_turn_player() == 1


# ---- initial D (A18) ---------------------------------------------------------
# Top DGH, no declaration.  Player 0: 7GC (green), 3BH (hearts), DBS (value D),
# 0YS (ZERO), 7RC and 1YC (nothing).

def initial_d():
    return game("7GC 3BH DBS 0YS 7RC 1YC", top="DGH", draw=DRAW_PILE)


def test_R10_A18_initial_D_colour_is_its_printed_colour() -> None:
    """A18: getCurrentColor is the D's own green; nothing was declared."""
    g = initial_d()
    assert g.get_current_color() == 2
    assert g.declared_color() is None
    assert g.current_player() == 0


@pytest.mark.parametrize("token, expected", [
    ("7GC", True), ("3BH", True), ("DBS/R", True), ("0YS", True),
    ("7RC", False), ("1YC", False),
])
def test_R10_A18_initial_D_is_matched_as_an_ordinary_card(token: str, expected: bool) -> None:
    """A18: match the D's printed colour, suit or value, or play a ZERO."""
    g = initial_d()
    assert valid(g, token) is expected


def test_R10_A18_initial_D_still_green_after_a_draw_only_turn() -> None:
    """A18: player 0 draws; for player 1 the colour is still the printed green."""
    g = initial_d()
    play(g, "draw end")
    assert g.current_player() == 1
    assert g.get_current_color() == 2


# ---- other initial values: no effect ----------------------------------------

@pytest.mark.parametrize("top", ["BRH", "CRH", "ERH", "FRH", "0RH", "7RH"])
def test_R10_other_initial_values_have_no_effect(top: str) -> None:
    """R10: B, C, E, F (and plain values) turned up: player 0 starts, no 2 active, turn 1 is player 1."""
    g = game(top=top, draw=DRAW_PILE)
    assert g.current_player() == 0
    assert g.get_active_draw_twos() == 0
    assert g.get_number_of_two_cards_at_top() == 0
    assert g.get_current_color() == 0
    play(g, "draw end")
    assert g.current_turn() == 1 and g.current_player() == 1
    assert g.get_previous_turn_player() == 0


def test_R10_B_and_C_played_have_no_18s2_effect() -> None:
    """R10 ('no effects in 18s2 at all'): B does not reverse, C gives no second play."""
    g = game("BRH", "CRH 5RS", top="7RH", draw=DRAW_PILE)
    play(g, "BRH end")
    assert g.current_player() == 1  # not reversed to player 3
    play(g, "CRH")
    assert not valid(g, "5RS")  # no 'continue'
    assert not valid(g, "draw")
    play(g, "end")
    assert g.current_player() == 2 and g.current_turn() == 2

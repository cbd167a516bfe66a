"""S5, S12, S13, B26-B30: direction of play, BACKWARDS reversing it, ADVANCE skipping either way."""

from __future__ import annotations

import pytest
from decks17 import game, play, seats

from reference.fcd17s2 import Direction

# Top 5RH.  Each player's B matches it: BRS by colour, the others by suit; any B
# matches any other B by value.  The draw pile is plain yellow Es.
BACKWARDS = ("BRS", "BBH", "BGH", "BYH")


def test_S5_B5_play_goes_clockwise_without_specials() -> None:
    """S5/B5: seats 0, 1, 2, 3, 0, 1 in turns 0..5, CLOCKWISE throughout."""
    g = game(top="5RH", draw="EYD*8")
    assert seats(g, 6) == [0, 1, 2, 3, 0, 1]
    assert g.play_direction() is Direction.CLOCKWISE


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_S13_B28_B29_B30_backwards_turns_play_round_at_once(seat: int) -> None:
    """S13/B28: after seat s's B the order is s-1, s-2, s-3, s; B29 (reference (a)): reversed already
    before END_TURN; B30: the seat on the other side plays next, nobody is skipped."""
    g = game(*BACKWARDS, top="5RH", draw="EYD*12")
    play(g, "draw end " * seat)
    assert g.current_player() == seat
    play(g, BACKWARDS[seat])
    assert g.play_direction() is Direction.ANTICLOCKWISE
    play(g, "end")
    assert g.current_turn() == seat + 1
    assert seats(g, 4) == [(seat - 1) % 4, (seat - 2) % 4, (seat - 3) % 4, seat]
    assert g.play_direction() is Direction.ANTICLOCKWISE  # a B on top reverses only once


def test_B28_two_backwards_on_consecutive_turns_restore_the_direction() -> None:
    """B28: player 0's BRS sends play to 3; player 3's BYH (a B on a B) sends it back to 0, clockwise."""
    g = game(*BACKWARDS, top="5RH", draw="EYD*12")
    play(g, "BRS end")
    assert g.current_player() == 3
    play(g, "BYH end")
    assert g.play_direction() is Direction.CLOCKWISE
    assert (g.current_turn(), g.current_player()) == (2, 0)
    assert seats(g, 3) == [0, 1, 2]


def test_S12_B26_B27_advance_clockwise_skips_the_next_seat_without_a_turn_number() -> None:
    """S12/B26/B27: player 0's ARS: turn 1 is player 2's; player 1 gets no turn and keeps 7 cards."""
    g = game("ARS", top="5RH", draw="EYD*8")
    play(g, "ARS end")
    assert (g.current_turn(), g.current_player()) == (1, 2)
    assert g.turn_player(1) == 2 and g.turn_moves(1) == 0
    assert g.player_card_count(1) == 7
    assert seats(g, 4) == [2, 3, 0, 1]  # the A on top skips only once


def test_S12_B27_advance_anticlockwise_skips_the_next_seat_the_other_way() -> None:
    """S12/B27/B28: 0 plays BRS (to 3); 3 plays AYS (spades, on BRS): seat 2 is skipped, turn 2 is player 1's."""
    g = game("BRS", p3="AYS", top="5RH", draw="EYD*8")
    play(g, "BRS end AYS end")
    assert g.play_direction() is Direction.ANTICLOCKWISE
    assert (g.current_turn(), g.current_player()) == (2, 1)
    assert [g.turn_player(t) for t in range(3)] == [0, 3, 1]
    assert g.player_card_count(2) == 7
    assert seats(g, 3) == [1, 0, 3]


def test_S12_B26_header_example_advance_on_turn_12() -> None:
    """B26 (Game.h's example): player 1's ADVANCE on turn 12, clockwise, and player 3 plays turn 13.

    Player 0's ARS on turn 0 skips player 1, so turn t >= 1 belongs to player (t + 1) % 4; player 1
    plays ABH (an A on the A) on turn 12.
    """
    g = game("ARS", "ABH", top="5RH", draw="EYD*12")
    play(g, "ARS end")
    play(g, "draw end " * 11)
    assert (g.current_turn(), g.current_player()) == (12, 1)
    play(g, "ABH end")
    assert (g.current_turn(), g.num_turns(), g.current_player()) == (13, 14, 3)

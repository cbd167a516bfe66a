"""R8, A13, A14, A33: the A skips the next player; skipped players hold no turn."""

from __future__ import annotations

import pytest
from decks import game, play

# Top 5RH.  Each player holds one A that matches 5RH (ARS by colour, the others
# by suit) and so also matches any other A by value.  The draw pile is 16 x EYD.
HANDS = ("ARS", "ABH", "AGH", "AYH")
A_OF = dict(enumerate(HANDS))


def start():
    return game(*HANDS, top="5RH", draw="EYD*16")


@pytest.mark.parametrize("seat, turn_after, player_after, skipped, skipped_cards, next_player", [
    # seat plays A on turn `seat`; turn seat+1 belongs to seat+2; that player draws;
    # turn seat+2 belongs to seat+3 and its previous-turn player is seat+2.
    # the skipped player still holds 7 cards, or 8 if it drew before the A (seat 3 case)
    (0, 1, 2, 1, 7, 3),
    (1, 2, 3, 2, 7, 0),
    (2, 3, 0, 3, 7, 1),
    (3, 4, 1, 0, 8, 2),
])
def test_R8_A33_A14_skip_lands_on_each_seat(seat: int, turn_after: int, player_after: int,
                                            skipped: int, skipped_cards: int, next_player: int) -> None:
    """R8/A33: the seat after the A is skipped without a turn number; A14: previous = the A's player."""
    g = start()
    play(g, "draw end " * seat)
    assert g.current_player() == seat and g.current_turn() == seat
    play(g, A_OF[seat] + " end")
    assert g.current_turn() == turn_after
    assert g.current_player() == player_after
    assert g.get_previous_turn_player() == seat
    assert g.current_turn_moves() == 0
    assert g.player_card_count(skipped) == skipped_cards
    play(g, "draw end")
    assert g.current_turn() == turn_after + 1
    assert g.current_player() == next_player
    assert g.get_previous_turn_player() == player_after


def test_R8_A33_header_example_turn_12_and_13() -> None:
    """A33/A14, Game.h example: P1 plays A on turn 12, P3 plays turn 13, previous player 1."""
    g = start()
    play(g, "ARS end")  # turn 0, player 0 skips player 1: turn t >= 1 is player (t + 1) % 4
    play(g, "draw end " * 11)  # turns 1..11
    assert g.current_turn() == 12 and g.current_player() == 1
    play(g, "ABH end")  # A on A: same value
    assert g.current_turn() == 13
    assert g.num_turns() == 14
    assert g.current_player() == 3
    assert g.get_previous_turn_player() == 1
    assert g.get_top_discard_turn_number() == 12


def test_R8_the_A_on_top_skips_only_once() -> None:
    """R8: the skip belongs to the play; a draw-only turn on top of the A skips nobody."""
    g = start()
    play(g, "ARS end")
    assert g.current_player() == 2
    play(g, "draw end")
    assert g.current_turn() == 2 and g.current_player() == 3
    assert g.get_previous_turn_player() == 2
    assert str(g.top_discard()) == "ARS" and g.get_top_discard_turn_number() == 0


def test_R8_A14_two_As_in_a_row_skip_twice() -> None:
    """R8/A14: ARS skips 1, AGH (same value) skips 3; turns go 0:p0, 1:p2, 2:p0, 3:p1."""
    g = start()
    play(g, "ARS end AGH end")
    assert g.current_turn() == 2 and g.current_player() == 0
    assert g.get_previous_turn_player() == 2
    play(g, "draw end")
    assert g.current_turn() == 3 and g.current_player() == 1
    assert g.get_previous_turn_player() == 0
    assert [g.player_card_count(p) for p in range(4)] == [7, 7, 6, 7]


def test_A14_previous_turn_player_without_skips_is_the_seat_before() -> None:
    """A14: without skips the previous-turn player is the one who just ended; -1 on turn 0."""
    g = start()
    assert g.get_previous_turn_player() == -1
    seen = []
    for _ in range(5):
        play(g, "draw end")
        seen.append((g.current_turn(), g.current_player(), g.get_previous_turn_player()))
    assert seen == [(1, 1, 0), (2, 2, 1), (3, 3, 2), (4, 0, 3), (5, 1, 0)]


def test_R8_A14_previous_turn_player_is_the_A_player_not_the_seat_before() -> None:
    """A14: during turn 1 (player 2) the previous-turn player is 0, not the skipped seat 1."""
    g = start()
    play(g, "ARS end")
    assert g.get_previous_turn_player() == 0
    assert g.get_previous_turn_player() != 1

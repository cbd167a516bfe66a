"""S23, B26, B50-B52, B60: the move history (turnMoves, pastMove) and the turn counters."""

from __future__ import annotations

import pytest
from decks17 import game, history, move, play

from reference.fcd17s2 import Action, HistoryError

# Top 5RH.  Player 0: 5BD, ARD (red diamonds, matches 5BD by suit) and four Cs;
# player 2: DGD (matches ARD by suit).  Draw pile: plain yellow Es.
P0 = "5BD ARD CRH CBH CGH CYH"
P2 = "DGD"


def start():
    return game(P0, p2=P2, top="5RH", draw="EYD*12")


def test_S23_B51_B60_the_current_turn_has_no_moves_at_its_start() -> None:
    """S23/B51/B60: turn 0, numTurns 1, turnMoves(0) 0; a play counts at once; the turn number waits for END_TURN."""
    g = start()
    assert (g.current_turn(), g.num_turns(), g.turn_moves(0)) == (0, 1, 0)
    m = move(g, "5BD")
    play(g, "5BD")
    assert g.turn_moves(0) == 1 and g.current_turn() == 0 and g.num_turns() == 1
    past = g.past_move(0, 0)
    assert past.action == Action.PLAY_CARD and past.card is m.card  # B52, B3


def test_S23_B50_a_finished_turn_ends_with_its_END_TURN() -> None:
    """B50: turn 0 holds the discard and the END_TURN; turn 1 starts empty."""
    g = start()
    play(g, "5BD end")
    assert g.turn_moves(0) == 2
    assert g.past_move(0, 1).action == Action.END_TURN
    assert (g.current_turn(), g.num_turns(), g.turn_moves(1)) == (1, 2, 0)


def test_B50_calls_are_moves_and_penalty_draws_are_not() -> None:
    """B50: player 1's wrong UNO (4 penalty cards) then a draw and END_TURN: three moves, nothing more."""
    g = start()
    play(g, "5BD end uno draw end")
    assert history(g, 1) == ["uno", "draw", "end"]
    assert [g.past_move(1, i).action for i in range(3)] == [Action.SAY_UNO, Action.DRAW_CARD, Action.END_TURN]
    assert g.player_card_count(1) == 7 + 4 + 1


def test_B26_B50_a_skipped_seat_has_no_turn_and_no_record() -> None:
    """B26/B50: player 0's ARD skips player 1: turn 1 is player 2's DGD, turn 2 player 3's draw."""
    g = start()
    play(g, "5BD end draw end draw end draw end")  # turns 0-3: back to player 0
    play(g, "ARD end DGD/R end draw end")
    assert [g.turn_player(t) for t in range(g.num_turns())] == [0, 1, 2, 3, 0, 2, 3, 0]
    assert history(g, 4) == ["ARD", "end"]
    assert history(g, 5) == ["DGD/R", "end"]
    assert history(g, 6) == ["draw", "end"]
    assert (g.current_turn(), g.num_turns()) == (7, 8)


def test_S23_B50_B52_a_whole_game_history_read_back_turn_by_turn() -> None:
    """S23/B50/B52: every turn so far, the current one included, through turnMoves and pastMove.

    Turn 0: player 0 discards 5BD.  Turn 1: player 1 draws.  Turn 2: player 2 draws.  Turn 3:
    player 3 draws.  Turn 4: player 0 plays CBH (blue, on 5BD), CRH, CGH, CYH (Cs), is left with
    ARD and a filler, says DUO and ends.  Turn 5 (player 1) has no moves yet.
    """
    g = start()
    play(g, "5BD end draw end draw end draw end CBH CRH CGH CYH")
    assert g.hand_card_count() == 2
    play(g, "duo")
    assert g.turn_moves(4) == 5
    play(g, "end")
    assert [history(g, t) for t in range(g.num_turns())] == [
        ["5BD", "end"], ["draw", "end"], ["draw", "end"], ["draw", "end"],
        ["CBH", "CRH", "CGH", "CYH", "duo", "end"], [],
    ]


def test_B52_the_reference_refuses_turns_and_moves_that_do_not_exist() -> None:
    """B52 (LENIENT: undefined in C, never tested): the reference raises HistoryError."""
    g = start()
    play(g, "5BD end")
    for bad in (-1, 2):
        with pytest.raises(HistoryError):
            g.turn_moves(bad)
    with pytest.raises(HistoryError):
        g.past_move(0, 2)
    with pytest.raises(HistoryError):
        g.past_move(1, 0)


def test_B60_numTurns_is_currentTurn_plus_one_at_every_moment() -> None:
    """B60: checked after every move of a few turns."""
    g = start()
    for token in "5BD end uno draw end draw end draw end".split():
        turn = g.current_turn()
        play(g, token)
        assert g.num_turns() == g.current_turn() + 1
        assert g.current_turn() == turn + (token == "end")

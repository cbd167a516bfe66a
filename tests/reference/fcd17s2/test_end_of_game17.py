"""S19, S21, B49, B53, B55, B56: how a game ends."""

from __future__ import annotations

import pytest
from decks17 import DRAW, END, game, hand, history, play, tokens, valid

from reference.fcd17s2 import NO_WINNER, NOT_FINISHED, SAYS, Action, Color, IllegalMoveError, PlayerMove, Termination

# Top 5RH.  The seat's six Cs go down in one turn (CRH on 5RH, then C on C), leaving the
# seat's last card alone; CBD, blue diamonds, is then on top.
CHAIN = "CRH CBH CGH CYH CRD CBD"


def down_to_one_card(seat: int, last: str):
    """The seat plays its six Cs and says UNO on turn ``seat``; the others only draw; on turn
    ``seat + 4`` the seat holds only ``last``."""
    hands = [""] * 4
    hands[seat] = f"{CHAIN} {last.split('/')[0]}"
    g = game(*hands, top="5RH", draw="EYD*12")
    play(g, "draw end " * seat)
    play(g, f"{CHAIN} uno end")
    play(g, "draw end " * 3)
    assert (g.current_turn(), g.current_player(), g.hand_card_count()) == (seat + 4, seat, 1)
    assert g.game_winner() == NOT_FINISHED
    return g


def assert_over(g, winner: int) -> None:
    """B53: gameWinner keeps its value and every move is invalid; the reference refuses to play one."""
    for _ in range(2):
        assert g.game_winner() == winner
    assert not g.is_valid_move(DRAW) and not g.is_valid_move(END)
    assert not any(g.is_valid_move(PlayerMove(word)) for word in SAYS)
    for p in range(4):
        for card in g.player_hand(p):
            assert not any(g.is_valid_move(PlayerMove(Action.PLAY_CARD, card, c)) for c in Color)
    assert g.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        g.play_move(DRAW)
    assert g.game_winner() == winner


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_S19_B53_the_game_ends_the_instant_the_last_card_is_down(seat: int) -> None:
    """S19: no END_TURN needed; gameWinner is the seat; B53: nothing is valid afterwards."""
    g = down_to_one_card(seat, "5BD")
    play(g, "5BD")
    assert g.game_winner() == seat
    assert g.player_card_count(seat) == 0
    assert str(g.top_discard()) == "5BD"
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == seat and outcome.termination is Termination.LAST_CARD
    assert history(g, seat + 4) == ["5BD"]
    assert_over(g, seat)


@pytest.mark.parametrize("last", ["2BD", "ABD", "BBD", "CGS", "DBS/G"])
def test_B56_winning_with_a_special_card(last: str) -> None:
    """B56: a last card that is a 2, A, B, C or D ends the game at once; a C allows no further move."""
    g = down_to_one_card(0, last)
    play(g, last)
    assert g.game_winner() == 0
    assert_over(g, 0)


def test_B49_no_uno_is_needed_and_the_win_can_come_in_a_continue_chain() -> None:
    """B49/S19: player 0 plays six Cs and then 5BD in turn 0 without any claim: the game is over at once."""
    g = game(f"{CHAIN} 5BD", top="5RH", draw="EYD*4")
    play(g, f"{CHAIN} 5BD")
    assert g.game_winner() == 0 and g.current_turn() == 0
    assert not valid_any_call(g)
    assert_over(g, 0)


def valid_any_call(g) -> bool:
    return any(g.is_valid_move(PlayerMove(word)) for word in SAYS)


def test_S21_B55_a_draw_with_nothing_left_to_draw_ends_with_no_winner() -> None:
    """S21/B55 (LENIENT; reference reading (a)): a 29-card deck has no draw pile and one discard."""
    g = game(top="5RH")
    assert g.draw_pile() == () and len(g.discard_pile()) == 1
    assert valid(g, "draw")
    play(g, "draw")
    assert g.game_winner() == NO_WINNER
    outcome = g.outcome()
    assert outcome is not None and outcome.winner is None and outcome.termination is Termination.NOTHING_TO_DRAW
    assert history(g, 0) == ["draw"]
    assert_over(g, NO_WINNER)


def test_B55_an_owed_draw_two_card_with_nothing_left_ends_with_no_winner() -> None:
    """B55/S20: player 1 owes 2; the first draw recycles 5RH (2RH stays on top), the second finds nothing."""
    g = game("2RH", top="5RH")
    play(g, "2RH end draw")
    assert hand(g, 1) == tokens("9PQ*7 5RH")
    assert g.game_winner() == NOT_FINISHED
    play(g, "draw")
    assert g.game_winner() == NO_WINNER


def test_B55_B43_B44_a_penalty_card_with_nothing_left_ends_with_no_winner() -> None:
    """B55: 29 cards.  Player 0 leaves 3 cards unclaimed; player 1's right TRIO recycles the four cards under
    CRS and gives player 0 the oldest two (5RH CRH); player 1's wrong DUO takes CRD and CRC, then nothing is
    left: NO_WINNER, with player 1 holding 9 cards."""
    g = game("CRH CRD CRC CRS", top="5RH")
    play(g, "CRH CRD CRC CRS end trio")
    assert hand(g, 0) == tokens("9PQ*3 5RH CRH")
    play(g, "duo")
    assert g.game_winner() == NO_WINNER
    assert hand(g, 1) == tokens("9PQ*7 CRD CRC")
    assert history(g, 1) == ["trio", "duo"]

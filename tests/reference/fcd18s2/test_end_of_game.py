"""R12, R13, A23, A24, A29, A30, A50: how a game ends."""

from __future__ import annotations

import pytest
from decks import DRAW, END, game, play, valid

from reference import NO_WINNER, NOT_FINISHED, Action, IllegalMoveError, PlayerMove, Termination

SIX_RED = ["1RH", "3RH", "4RH", "5RH", "6RH", "7RH"]


def down_to_one_card(seat: int, last: str):
    """Player `seat` holds six red hearts and `last`; the others only draw.

    Top 8RC (red).  The seat plays one red card a round; after six rounds, on
    turn 24 + seat, it holds only `last`.
    """
    hands = [""] * 4
    hands[seat] = " ".join(SIX_RED + [last.split("/")[0]])
    g = game(*hands, top="8RC", draw="EYD*24")
    play(g, "draw end " * seat)
    for card in SIX_RED:
        play(g, f"{card} end" + " draw end" * 3)
    assert g.current_turn() == 24 + seat and g.current_player() == seat
    assert g.hand_card_count() == 1
    assert g.game_winner() == NOT_FINISHED
    return g


def assert_over(g, winner: int) -> None:
    """A29: gameWinner keeps its value; every move is invalid (R15.5, the reference's reading in 18s2)."""
    for _ in range(2):
        assert g.game_winner() == winner
    assert not g.is_valid_move(DRAW)
    assert not g.is_valid_move(END)
    for p in range(4):
        for i in range(g.player_card_count(p)):
            assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, g.get_hand_card(p, i)))
    assert g.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        g.play_move(DRAW)
    assert g.game_winner() == winner


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_R12_the_game_ends_the_instant_the_last_card_is_down(seat: int) -> None:
    """R12: no END_TURN needed; gameWinner is the player who emptied their hand."""
    g = down_to_one_card(seat, "8RH")
    play(g, "8RH")
    assert g.game_winner() == seat
    assert g.player_card_count(seat) == 0
    assert str(g.top_discard()) == "8RH"
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == seat
    assert outcome.termination is Termination.LAST_CARD
    assert_over(g, seat)


@pytest.mark.parametrize("last", ["2RH", "ARH", "DRH/G"])
def test_R12_A30_winning_with_a_2_an_A_or_a_D(last: str) -> None:
    """R12/A30: a last card that is a 2, an A or a D ends the game at once, its effect irrelevant."""
    g = down_to_one_card(0, last)
    play(g, last)
    assert g.game_winner() == 0
    assert g.player_card_count(0) == 0
    assert_over(g, 0)


def test_R13_A23_a_draw_with_nothing_to_draw_ends_with_no_winner() -> None:
    """R13/A23 (STRICT: NOT_FINISHED before, NO_WINNER after; valid draw is the reference's reading)."""
    g = game(top="5RH")  # 29 cards: nothing to draw, one card on the discard pile
    assert g.get_deck_card(0) is None
    assert g.game_winner() == NOT_FINISHED
    assert valid(g, "draw")
    g.play_move(DRAW)
    assert g.game_winner() == NO_WINNER == 4
    outcome = g.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination is Termination.NOTHING_TO_DRAW
    assert_over(g, NO_WINNER)


def test_R13_an_empty_draw_pile_alone_does_not_end_the_game() -> None:
    """R13: with nothing to draw and one discard, players may still play cards."""
    g = game("6RH", "7RC", "8RS", top="5RH")
    play(g, "6RH")
    assert g.game_winner() == NOT_FINISHED
    play(g, "end 7RC end 8RS end")
    assert g.game_winner() == NOT_FINISHED
    assert g.current_turn() == 3 and g.current_player() == 3


def test_R13_A24_the_piles_run_out_in_the_middle_of_a_penalty() -> None:
    """A24: initial 2GC, one card to draw; player 0's second penalty draw is impossible -> NO_WINNER."""
    g = game(top="2GC", draw="1YS")
    play(g, "draw")
    assert g.game_winner() == NOT_FINISHED
    g.play_move(DRAW)
    assert g.game_winner() == NO_WINNER


def test_A50_no_winner_only_once_the_draw_is_attempted_in_the_reference() -> None:
    """A50 (LENIENT; reference reading (a)): player 0 cannot play, end, or draw anything; still NOT_FINISHED."""
    g = game(top="5RH")  # player 0 holds only 9PQ: nothing matches 5RH
    assert not valid(g, "9PQ")
    assert not valid(g, "end")
    assert g.game_winner() == NOT_FINISHED
    g.play_move(DRAW)
    assert g.game_winner() == NO_WINNER


def test_R12_a_player_with_cards_left_has_not_won() -> None:
    """R12: ending a turn with cards in hand never ends the game."""
    g = down_to_one_card(0, "8RH")
    play(g, "draw end")
    assert g.game_winner() == NOT_FINISHED
    assert g.player_card_count(0) == 2

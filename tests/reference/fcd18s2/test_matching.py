"""R5, A19, A25, A26: which cards may be played, and cards as identities."""

from __future__ import annotations

import pytest
from decks import END, deck_pile, game, hand, play, tokens, valid

from reference import Action, Card, IllegalMoveError, InvalidMoveError, PlayerMove

# Top 5RH.  Player 0: 5BD (value), 7GH (suit), 8RC (colour), 0YS (ZERO),
# 6BD (nothing), DBC (a D matching nothing), DRS (a D matching by colour).
# Player 1: 7YS 1GS 3BH 5RD 1BC, fillers 9PQ.
P0 = "5BD 7GH 8RC 0YS 6BD DBC DRS"
P1 = "7YS 1GS 3BH 5RD 1BC"


def start():
    return game(P0, P1, top="5RH", draw="EPQ*4")


@pytest.mark.parametrize("token, expected", [
    ("5BD", True),   # same value
    ("7GH", True),   # same suit
    ("8RC", True),   # same colour
    ("0YS", True),   # ZERO
    ("6BD", False),  # nothing in common
    ("DBC", False),  # A19: a D is not wild
    ("DRS/G", True),  # A19: a D that matches by colour is an ordinary play
])
def test_R5_A19_value_suit_colour_or_zero(token: str, expected: bool) -> None:
    """R5: a card must be ZERO or match the top discard on value, suit or colour; A19: D is not wild."""
    g = start()
    if token.startswith("D"):
        token = token if "/" in token else token + "/G"
    assert valid(g, token) is expected


def test_R5_A19_a_D_matches_by_suit_or_by_value_like_any_card() -> None:
    """A19: a D is playable when it matches the top by suit, or on another D by value."""
    g = game("DBH DYS", top="5RH", draw="EPQ*4")
    assert valid(g, "DBH/Y")  # hearts on hearts
    assert not valid(g, "DYS/B")  # nothing in common with 5RH
    g = game("DYS", top="DGC", draw="EPQ*4")
    assert valid(g, "DYS/R")  # D on D


def test_R5_playing_moves_the_card_to_the_top() -> None:
    """R5: the card leaves the hand and becomes the top discard, played in turn 0."""
    g = start()
    play(g, "7GH")
    assert str(g.top_discard()) == "7GH"
    assert str(g.get_discard_pile_card(1)) == "5RH"
    assert g.get_discard_pile_card(2) is None
    assert g.get_top_discard_turn_number() == 0
    assert g.player_card_count(0) == 6
    assert hand(g, 0) == tokens("5BD 8RC 0YS 6BD DBC DRS")
    assert g.get_current_color() == 2  # green, the colour of 7GH


def test_R5_the_next_player_matches_the_new_top() -> None:
    """R5: after 7GH covers 5RH, player 1 matches 7GH, not 5RH."""
    g = start()
    play(g, "7GH end")
    assert g.current_player() == 1
    assert valid(g, "7YS")  # value 7
    assert valid(g, "1GS")  # green
    assert valid(g, "3BH")  # hearts
    assert not valid(g, "5RD")  # matched only the covered 5RH
    assert not valid(g, "1BC")


def test_R5_zero_is_playable_on_anything_but_an_active_two() -> None:
    """R5: ZERO is always playable (A11 covers the active-2 exception)."""
    g = game("0RH 1BD", top="FPQ", draw="EGS*4", fill="7YS")
    assert valid(g, "0RH")
    assert not valid(g, "1BD")
    assert not valid(g, "7YS")


def test_R5_A2_only_one_card_per_turn() -> None:
    """R5/A2: after a play a second matching card is invalid."""
    g = start()
    play(g, "5BD")
    assert not valid(g, "6BD")  # would match 5BD by colour and suit
    assert not valid(g, "0YS")


def test_A25_a_card_from_another_hand_is_not_playable() -> None:
    """A25: 5RD matches 5RH but is in player 1's hand, not player 0's (and playMove refuses it, A28)."""
    g = start()
    foreign = next(c for c in (g.get_hand_card(1, i) for i in range(7)) if str(c) == "5RD")
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, foreign))
    with pytest.raises(IllegalMoveError):
        g.play_move(PlayerMove(Action.PLAY_CARD, foreign))
    assert g.player_card_count(1) == 7 and g.player_card_count(0) == 7


def test_A25_cards_in_the_piles_are_not_playable() -> None:
    """A25: neither the top discard itself nor a draw-pile card is in the hand."""
    g = start()
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, g.top_discard()))
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, deck_pile(g)[0]))


def test_A26_a_look_alike_card_is_not_the_card_in_the_hand() -> None:
    """A26 (LENIENT; the reference's reading (a)): cards compare by identity."""
    g = game("5BD", "5BD", top="5RH", draw="EPQ*4")
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, Card.parse("5BD")))
    twin_of_player_1 = next(c for c in (g.get_hand_card(1, i) for i in range(7)) if str(c) == "5BD")
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, twin_of_player_1))
    own = next(c for c in (g.hand_card(i) for i in range(7)) if str(c) == "5BD")
    assert g.is_valid_move(PlayerMove(Action.PLAY_CARD, own))


def test_A26_A46_playing_one_twin_leaves_the_other() -> None:
    """A26/A46: with two 5BD in hand, the one played is on top and the other stays in the hand."""
    g = game("5BD 5BD", top="5RH", draw="EPQ*4")
    twins = [c for c in (g.hand_card(i) for i in range(7)) if str(c) == "5BD"]
    assert len(twins) == 2 and twins[0] is not twins[1]
    g.play_move(PlayerMove(Action.PLAY_CARD, twins[1]))
    assert g.top_discard() is twins[1]
    left = [g.hand_card(i) for i in range(6)]
    assert any(c is twins[0] for c in left)
    assert not any(c is twins[1] for c in left)
    g.play_move(END)


def test_R15_play_without_a_card_is_malformed() -> None:
    """R15.1: PLAY_CARD needs a card in the hand; the engine rejects a missing card."""
    g = start()
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, None))
    with pytest.raises(InvalidMoveError):
        g.play_move(PlayerMove(Action.PLAY_CARD, None))

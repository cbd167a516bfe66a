"""S6-S10, S25, S26, B3, B13-B19, B57, B58: what a turn is made of."""

from __future__ import annotations

import pytest
from decks17 import DRAW, END, TRIO, current_hand, game, hand, move, play, snapshot, tokens, valid

from reference.fcd17s2 import Action, Card, Color, IllegalMoveError, InvalidMoveError, PlayerMove, Suit, Value

# Top 5RH.  Player 0: 5BD (value), 0YD (ZERO), 4RS (red), 3GH (hearts) match;
# 8BC and 7GS do not (8BC matches once 5BD is down).  Player 1 holds 5GC, which
# would match 5RH.  The draw pile starts with 1RS, which matches 5RH too.
P0 = "5BD 8BC 7GS 0YD 4RS 3GH"
P1 = "6BS 5GC"
DRAW_PILE = "1RS 3GC 4GD 6YS EYD*8"


def start():
    return game(P0, P1, top="5RH", draw=DRAW_PILE)


def test_S6_B13_END_TURN_is_not_a_first_move() -> None:
    """S6/B13: END_TURN at the start of a turn is invalid, and the engine refuses to apply it."""
    g = start()
    assert not valid(g, "end")
    with pytest.raises(IllegalMoveError):
        g.play_move(END)
    assert (g.current_player(), g.current_turn(), g.turn_moves(0)) == (0, 0, 0)


def test_S6_S7_B13_B45_END_TURN_after_call_outs_only_is_invalid() -> None:
    """B13/B45: player 1's wrong call-outs cost 4 cards each but are not draws: END_TURN stays invalid."""
    g = start()
    play(g, "draw end")  # player 0 draws 1RS: nothing to call out
    play(g, "duo")
    assert g.player_card_count(1) == 7 + 4
    assert not valid(g, "end")
    play(g, "trio")
    assert g.player_card_count(1) == 7 + 8
    assert not valid(g, "end")
    assert valid(g, "draw") and valid(g, "5GC")
    play(g, "draw")
    assert valid(g, "end")


@pytest.mark.parametrize("token, expected", [
    ("5BD", True),   # same value
    ("4RS", True),   # same colour
    ("3GH", True),   # same suit
    ("0YD", True),   # ZERO
    ("8BC", False),  # nothing in common
    ("7GS", False),
])
def test_S8_B19_a_legal_discard_shares_value_colour_or_suit_or_is_a_zero(token: str, expected: bool) -> None:
    """S8/B19: against 5RH."""
    assert valid(start(), token) is expected


def test_B19_a_card_not_in_the_hand_is_invalid() -> None:
    """B19: player 1's 5GC would match 5RH, but player 0 does not hold it; nor the top card; nor NULL."""
    g = start()
    (other,) = [c for c in g.player_hand(1) if str(c) == "5GC"]
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, other))
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, g.top_discard()))
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, None))
    with pytest.raises(InvalidMoveError):
        g.play_move(PlayerMove(Action.PLAY_CARD, None))


def test_S9_B3_the_discarded_card_becomes_topDiscard() -> None:
    """S9/B3: the same Card object leaves the hand and is on top."""
    g = start()
    m = move(g, "5BD")
    play(g, "5BD")
    assert g.top_discard() is m.card
    assert g.hand_card_count() == 6 and not any(c is m.card for c in current_hand(g))


def test_S9_B14_a_second_discard_without_a_continue_is_invalid() -> None:
    """S9/B14: after 5BD, 8BC matches (blue) and 0YD is a ZERO, yet neither may follow; END_TURN may."""
    g = start()
    play(g, "5BD")
    assert not valid(g, "8BC")
    assert not valid(g, "0YD")
    assert valid(g, "end")


def test_S10_B15_one_draw_a_turn() -> None:
    """S10/B15: one DRAW_CARD, then only END_TURN; the drawn 1RS is in the hand."""
    g = start()
    play(g, "draw")
    assert not valid(g, "draw")
    assert valid(g, "end")
    assert hand(g, 0) == tokens(P0 + " 9PQ 1RS")


def test_B16_a_discard_after_drawing_is_invalid_in_the_reference() -> None:
    """B16 (LENIENT; reference reading (a)): after the draw, 5BD, 0YD and the matching 1RS are all refused."""
    g = start()
    play(g, "draw")
    for token in ("5BD", "0YD", "1RS"):
        assert not valid(g, token), token


def test_B17_a_draw_after_a_discard_is_invalid_in_the_reference() -> None:
    """B17 (LENIENT; reference reading (a)): 5BD is not a CONTINUE, so no draw may follow it."""
    g = start()
    play(g, "5BD")
    assert not valid(g, "draw")


def test_S10_B18_drawing_while_holding_a_playable_card_is_valid() -> None:
    """S10/B18: four of player 0's cards match, and the draw is still valid."""
    g = start()
    assert valid(g, "5BD") and valid(g, "draw")
    play(g, "draw end")
    assert g.current_player() == 1 and g.player_card_count(0) == 8


def test_S6_B60_END_TURN_passes_play_on() -> None:
    """S6/B60: after 5BD and END_TURN: turn 1, player 1, numTurns 2, no moves yet in turn 1."""
    g = start()
    play(g, "5BD")
    assert g.current_turn() == 0 and g.num_turns() == 1  # only END_TURN moves the turn on
    play(g, "end")
    assert (g.current_turn(), g.num_turns(), g.current_player(), g.turn_moves(1)) == (1, 2, 1, 0)


def test_S7_a_whole_turn_of_call_out_discard_and_end() -> None:
    """S7/S17: call-outs first (here wrong: player 0 only drew), then a discard, then END_TURN."""
    g = start()
    play(g, "draw end uno 5GC end")
    assert g.current_player() == 2 and g.player_card_count(1) == 7 + 4 - 1
    assert str(g.top_discard()) == "5GC"


# ---- isValidMove has no side effects (S25, B57) ---------------------------------

def all_probes(g) -> list[PlayerMove]:
    probes = [PlayerMove(a) for a in Action if a != Action.PLAY_CARD]
    for p in range(4):
        for card in g.player_hand(p):
            colours = list(Color) if card.value == Value.D else [None]
            probes += [PlayerMove(Action.PLAY_CARD, card, c) for c in colours]
    probes.append(PlayerMove(Action.PLAY_CARD, Card(Value.FIVE, Color.RED, Suit.HEARTS)))
    return probes


def test_S25_B57_isValidMove_changes_nothing_even_where_a_call_out_would_penalise() -> None:
    """S25/B57: player 0 leaves 3 cards unclaimed; probing TRIO (right) and UNO (wrong) moves no card."""
    g = game("CRH CRD CRC CRS", top="5RH", draw="1YS 3YS 4YS 6YS 7YS 8YS")
    play(g, "CRH CRD CRC CRS end")
    before = snapshot(g)
    verdicts = [g.is_valid_move(m) for m in all_probes(g)]
    assert g.is_valid_move(TRIO) and g.is_valid_move(DRAW)
    assert snapshot(g) == before
    assert [g.player_card_count(p) for p in range(4)] == [3, 7, 7, 7]
    assert verdicts == [g.is_valid_move(m) for m in all_probes(g)]  # and the answers do not drift


def test_S26_B58_playMove_refuses_an_invalid_move_in_the_reference() -> None:
    """B58 (LENIENT: undefined in C): the reference raises rather than guess, and changes nothing."""
    g = start()
    before = snapshot(g)
    with pytest.raises(IllegalMoveError):
        g.play_move(move(g, "8BC"))
    assert snapshot(g) == before

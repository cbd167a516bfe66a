"""R4, R6, A1-A5, A31, A32, A34, A47: what a turn is made of."""

from __future__ import annotations

import pytest
from decks import DRAW, END, game, hand, move, play, snapshot, tokens, valid

from reference import Action, Card, Color, IllegalMoveError, PlayerMove

# Top 5RH.  Player 0: 5BD and 8RC both match.  Player 1: 6BS matches nothing
# until 5BD is down.  Draw pile: 1GS 3GC 4GD 6YS then EYD.
P0 = "5BD 8RC"
P1 = "6BS"
DRAW_PILE = "1GS 3GC 4GD 6YS EYD*8"


def start():
    return game(P0, P1, top="5RH", draw=DRAW_PILE)


def test_A5_A35_END_TURN_is_not_a_first_action() -> None:
    """A5/A35: END_TURN at the start of a turn is invalid (and the engine refuses to apply it)."""
    g = start()
    assert not valid(g, "end")
    with pytest.raises(IllegalMoveError):
        g.play_move(END)
    assert g.current_player() == 0 and g.current_turn() == 0 and g.current_turn_moves() == 0


def test_R4_A32_only_END_TURN_passes_the_turn() -> None:
    """R4/A32: a play leaves player and turn as they are; END_TURN moves on with 0 moves."""
    g = start()
    play(g, "5BD")
    assert g.current_player() == 0 and g.current_turn() == 0
    assert g.current_turn_moves() == 1
    assert valid(g, "end")
    play(g, "end")
    assert g.current_player() == 1 and g.current_turn() == 1
    assert g.num_turns() == 2
    assert g.current_turn_moves() == 0
    assert valid(g, "6BS")  # 6BS matches the new top 5BD by colour (blue)


def test_R4_R6_a_draw_then_END_TURN_is_a_whole_turn() -> None:
    """R4/R6: draw one card, then END_TURN is valid."""
    g = start()
    play(g, "draw")
    assert g.current_turn_moves() == 1
    assert valid(g, "end")
    play(g, "end")
    assert g.current_player() == 1 and g.current_turn() == 1


def test_A2_a_second_play_is_invalid() -> None:
    """A2 (STRICT): after 5BD, 5RS (matching 5BD by value) is invalid: one card a turn."""
    g = game("5BD 5RS", top="5RH", draw=DRAW_PILE)
    play(g, "5BD")
    assert not valid(g, "5RS")


def test_A3_drawing_after_a_play_is_invalid_in_the_reference() -> None:
    """A3 (LENIENT; reference reading (a)): after a play only END_TURN."""
    g = start()
    play(g, "5BD")
    assert not valid(g, "draw")


def test_A4_a_second_draw_is_invalid() -> None:
    """A4 (STRICT): without an active 2, one draw per turn."""
    g = start()
    play(g, "draw")
    assert not valid(g, "draw")


def test_A1_playing_after_a_draw_is_invalid_in_the_reference() -> None:
    """A1 (LENIENT; reference reading (a)) / R6: after drawing, 5BD (a match) is no longer valid."""
    g = start()
    play(g, "draw")
    assert not valid(g, "5BD")
    assert not valid(g, "8RC")


def test_A34_a_player_holding_a_playable_card_may_draw() -> None:
    """A34 (STRICT): player 0 holds 5BD and 8RC, both playable, and may still draw."""
    g = start()
    assert valid(g, "5BD")
    assert valid(g, "draw")


def test_R6_the_drawn_card_is_the_top_of_the_draw_pile() -> None:
    """R6/A46: the same Card object moves from getDeckCard(0) into the hand; the pile moves up."""
    g = start()
    top_of_pile, second = g.get_deck_card(0), g.get_deck_card(1)
    assert str(top_of_pile) == "1GS" and str(second) == "3GC"
    play(g, "draw")
    assert g.hand_card_count() == 8
    assert any(g.hand_card(i) is top_of_pile for i in range(8))
    assert g.get_deck_card(0) is second
    assert hand(g, 0) == tokens("5BD 8RC 9PQ*5 1GS")


def test_A31_numTurns_is_currentTurn_plus_one_throughout() -> None:
    """A31: 1 at turn 0, and currentTurn + 1 after every move of nine turns."""
    g = start()
    seen = [(g.current_turn(), g.num_turns())]
    for token in ("draw end " * 9).split():
        play(g, token)
        seen.append((g.current_turn(), g.num_turns()))
    # after each draw the turn is unchanged, after each end it is one more
    expected = [(0, 1)]
    for t in range(9):
        expected += [(t, t + 1), (t + 1, t + 2)]
    assert seen == expected
    assert g.current_turn() == 9 and g.num_turns() == 10


def test_R4_A32_current_turn_moves_counts_plays_and_draws() -> None:
    """A32: 0 at every turn start, 1 after a play or a draw; END_TURN is never seen."""
    g = start()
    counts = [g.current_turn_moves()]
    for token in "5BD end draw end".split():
        play(g, token)
        counts.append(g.current_turn_moves())
    assert counts == [0, 1, 0, 1, 0]


def test_R4_four_turns_go_round_the_table() -> None:
    """R4: players 0, 1, 2, 3 then 0 again on turn 4 (18s2 has no direction)."""
    g = start()
    players = []
    for _ in range(5):
        players.append((g.current_turn(), g.current_player()))
        play(g, "draw end")
    assert players == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 0)]


def probes(g) -> list[PlayerMove]:
    """Legal and illegal moves to ask isValidMove about."""
    out = [DRAW, END, PlayerMove(Action.PLAY_CARD, None), PlayerMove(Action.PLAY_CARD, Card.parse("5BD"))]
    for p in range(4):
        for i in range(g.player_card_count(p)):
            card = g.get_hand_card(p, i)
            out.append(PlayerMove(Action.PLAY_CARD, card, Color.GREEN))
            out.append(PlayerMove(Action.PLAY_CARD, card, None))
    out.append(PlayerMove(Action.PLAY_CARD, g.top_discard()))
    if g.get_deck_card(0) is not None:
        out.append(PlayerMove(Action.PLAY_CARD, g.get_deck_card(0)))
    return out


@pytest.mark.parametrize("moves", ["", "draw", "5BD", "5BD end", "5BD end 6BS end"])
def test_A47_isValidMove_changes_nothing(moves: str) -> None:
    """A47/R15.4/R18: probing every kind of move leaves every query result as it was."""
    g = start()
    play(g, moves)
    before = snapshot(g)
    verdicts = [g.is_valid_move(m) for m in probes(g)]
    assert snapshot(g) == before
    assert any(verdicts) and not all(verdicts)


def test_A47_isValidMove_changes_nothing_during_a_penalty() -> None:
    """A47: same, with a 2 active and one of two cards drawn."""
    g = game("2RH", top="5RH", draw=DRAW_PILE)
    play(g, "2RH end draw")
    before = snapshot(g)
    for m in probes(g):
        g.is_valid_move(m)
    assert snapshot(g) == before
    assert g.is_valid_move(move(g, "draw")) and not g.is_valid_move(END)

"""S14, B14, B31-B34: CONTINUE lets the player discard again; only the last discard has an effect."""

from __future__ import annotations

from decks17 import game, history, play, valid

from reference.fcd17s2 import Direction

# Top 5RH.  Player 0: four Cs (CRS matches 5RH by colour, the rest match a C by
# value), 7BS (spades), 0YD (ZERO), 8GD (matches no C of spades or red).
P0 = "CRS CBS CGS CYS 7BS 0YD 8GD"


def start():
    return game(P0, "7GC 7RC", top="5RH", draw="EYD*8")


def test_S14_B31_after_a_continue_another_legal_discard_or_END_TURN() -> None:
    """S14/B31: on CRS, 7BS (suit), CBS (value) and 0YD (ZERO) are valid, 8GD is not; END_TURN is valid."""
    g = start()
    play(g, "CRS")
    assert valid(g, "7BS") and valid(g, "CBS") and valid(g, "0YD")
    assert not valid(g, "8GD")
    assert valid(g, "end")


def test_B32_no_draw_after_a_continue_in_the_reference() -> None:
    """B32 (LENIENT; reference reading (a)): the Valid Moves page names only 'end turn' and 'play another card'."""
    g = start()
    play(g, "CRS")
    assert not valid(g, "draw")


def test_S14_B31_B33_a_chain_of_continues_with_claims_between() -> None:
    """B31: C after C after C; B33: TRIO right after the fourth C (3 cards left), then a discard is still valid
    because the card before it was a C; after 7BS (not a C) no more discards (B14)."""
    g = start()
    play(g, "CRS CBS CGS CYS")
    assert g.hand_card_count() == 3
    play(g, "trio")
    assert valid(g, "7BS")
    play(g, "7BS duo")
    assert not valid(g, "0YD")  # B14: 7BS is not a CONTINUE
    assert not valid(g, "draw")
    play(g, "end")
    assert history(g, 0) == ["CRS", "CBS", "CGS", "CYS", "trio", "7BS", "duo", "end"]
    assert g.player_card_count(0) == 2 and g.current_player() == 1


def test_S14_B14_a_zero_after_a_continue_ends_the_chain() -> None:
    """S14/B14: CRS then the ZERO 0YD is fine; after the ZERO, CBS may not follow."""
    g = start()
    play(g, "CRS 0YD")
    assert not valid(g, "CBS")
    assert valid(g, "end")


def test_S14_B34_a_chain_ending_in_a_continue_has_no_other_effect() -> None:
    """B34: CRS CBS and END_TURN: player 1 is next, clockwise, owing nothing."""
    g = start()
    play(g, "CRS CBS end")
    assert (g.current_player(), g.play_direction()) == (1, Direction.CLOCKWISE)
    assert not valid(g, "end") and valid(g, "draw")
    play(g, "draw")
    assert not valid(g, "draw")  # B15: one card only, nothing owed


def test_B34_continue_then_advance_skips_once() -> None:
    """B34/S12: CRH then ARH (red hearts, on CRH): the turn passes to player 2."""
    g = game("CRH ARH", top="5RH", draw="EYD*8")
    play(g, "CRH ARH end")
    assert (g.current_turn(), g.current_player()) == (1, 2)


def test_B34_two_continues_then_advance_still_skip_once() -> None:
    """B34: CRH CBH ABH: the As effect is applied once, as if it were the turn's only discard."""
    g = game("CRH CBH ABH", top="5RH", draw="EYD*8")
    play(g, "CRH CBH ABH end")
    assert (g.current_turn(), g.current_player()) == (1, 2)
    assert g.player_card_count(0) == 4


def test_B34_continue_then_backwards_reverses() -> None:
    """B34/S13: CRH then BRH: ANTICLOCKWISE, player 3 next."""
    g = game("CRH BRH", top="5RH", draw="EYD*8")
    play(g, "CRH BRH end")
    assert (g.current_player(), g.play_direction()) == (3, Direction.ANTICLOCKWISE)


def test_B34_B25_continue_then_two_leaves_the_next_player_owing_two() -> None:
    """B34/B25: CRH then 2RH: player 1 must draw 2 before ending the turn."""
    g = game("CRH 2RH", top="5RH", draw="EYD*8")
    play(g, "CRH 2RH end")
    assert g.current_player() == 1
    play(g, "draw")
    assert not valid(g, "end")
    play(g, "draw")
    assert valid(g, "end") and not valid(g, "draw")


def test_B34_continue_then_declare_declares() -> None:
    """B34/S15: CRH then DRH declaring green: player 1's 7GC is valid, 7RC (red, the D's colour) is not."""
    g = game("CRH DRH", "7GC 7RC", top="5RH", draw="EYD*8")
    play(g, "CRH DRH/G end")
    assert valid(g, "7GC") and not valid(g, "7RC")

"""S15, B35, B36, B37: the DECLARE and its declared colour."""

from __future__ import annotations

import pytest
from decks17 import game, move, play, valid

from reference.fcd17s2 import Action, Color

# Top 5RH.  Player 0 plays DRS (red, so it matches 5RH) and declares a colour;
# DGC (green clubs) matches nothing on 5RH.
# Player 1: 7GC (green), 7RC (only the D's printed red), 0YS (ZERO), 3BH (only the
# covered 5RH's hearts), DBD (value D), 1YC (nothing), 8BS (the D's suit, spades).
# Player 2: 4GD (green diamonds), 1YD (yellow diamonds), 4RD (red diamonds).
P0 = "DRS 6RD DGC"
P1 = "7GC 7RC 0YS 3BH DBD 1YC 8BS"
P2 = "4GD 1YD 4RD"


def start():
    return game(P0, P1, P2, top="5RH", draw="EYD*8")


@pytest.mark.parametrize("token, expected", [
    ("7GC", True),    # the declared colour (B35, STRICT)
    ("0YS", True),    # ZERO (B35, STRICT)
    ("3BH", False),   # matched only the covered 5RH
    ("1YC", False),   # nothing
])
def test_S15_B35_after_a_declare_the_declared_colour_or_a_zero(token: str, expected: bool) -> None:
    """S15/B35: after DRS declaring green."""
    g = start()
    play(g, "DRS/G end")
    assert valid(g, token) is expected


def test_B35_the_printed_colour_no_longer_matches_in_the_reference() -> None:
    """B35 (LENIENT; reference reading (a)): 7RC shares only the D's printed red: 'instead of' replaces it."""
    g = start()
    play(g, "DRS/G end")
    assert not valid(g, "7RC")


@pytest.mark.parametrize("token", ["8BS", "DBD/R"])
def test_B35_suit_or_value_of_the_declare_still_match_in_the_reference(token: str) -> None:
    """B35 (LENIENT; reference reading (a)): only the colour is replaced; spades and value D still match."""
    g = start()
    play(g, "DRS/G end")
    assert valid(g, token)


def test_B37_pastMove_of_a_declare_returns_the_declared_colour_and_the_card() -> None:
    """B37/B52: pastMove(0, 0) is PLAY_CARD with the DRS Card itself and nextColor GREEN."""
    g = start()
    m = move(g, "DRS/G")
    play(g, "DRS/G end")
    past = g.past_move(0, 0)
    assert past.action == Action.PLAY_CARD
    assert past.card is m.card
    assert past.next_color == Color.GREEN == 2


def test_B37_a_declare_is_not_wild() -> None:
    """B37: DGC matches neither 5RH's colour, suit nor value, whatever it would declare."""
    g = start()
    for colour in "RBGYP":
        assert not valid(g, f"DGC/{colour}")


def test_B37_declaring_the_declares_own_colour_changes_nothing() -> None:
    """B37: DRS declaring red: 7RC (red) is valid, 7GC (green) is not."""
    g = start()
    play(g, "DRS/R end")
    assert valid(g, "7RC") and not valid(g, "7GC")


def test_B36_the_declaration_lasts_through_a_draw_only_turn_in_the_reference() -> None:
    """B36 (LENIENT across draw-only turns; reference reading (a)): player 1 draws; for player 2
    green 4GD is valid, yellow 1YD and red 4RD (the D's printed colour) are not."""
    g = start()
    play(g, "DRS/G end draw end")
    assert g.current_player() == 2
    assert g.declared_color() == Color.GREEN
    assert valid(g, "4GD")
    assert not valid(g, "1YD") and not valid(g, "4RD")


def test_B36_a_card_on_the_declare_ends_the_declaration() -> None:
    """B36 (STRICT part): once player 1's 0YS covers the D, yellow counts: 1YD valid, 4GD not."""
    g = start()
    play(g, "DRS/G end 0YS end")
    assert g.declared_color() is None
    assert valid(g, "1YD")
    assert not valid(g, "4GD")

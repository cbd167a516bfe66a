"""R9, A16, A17, A18, A19, A20: the D and its declared colour."""

from __future__ import annotations

import pytest
from decks import game, play, valid

from reference import Action, Color, PlayerMove

# Top 5RH.  Player 0 plays DRS (red, so it matches 5RH) and declares a colour.
# Player 1: 7GC (green), 7RC (only D's printed red), 0YS (ZERO), 3BH (only the
# covered 5RH's hearts), DBD (value D), 1YC (nothing), 8BS (D's suit, spades).
# Player 2: 4GD (green diamonds), 1YD (yellow diamonds), 4GC (green clubs).
P0 = "DRS 6RD"
P1 = "7GC 7RC 0YS 3BH DBD 1YC 8BS"
P2 = "4GD 1YD 4GC"


def start():
    return game(P0, P1, P2, top="5RH", draw="EYD*8")


def test_R9_A16_the_declared_colour_is_current_right_after_the_D() -> None:
    """R9/A16 (STRICT part): getCurrentColor is the declared green, in the D's turn and the next."""
    g = start()
    play(g, "DRS/G")
    assert str(g.top_discard()) == "DRS"
    assert g.get_current_color() == Color.GREEN == 2
    play(g, "end")
    assert g.current_player() == 1
    assert g.get_current_color() == 2


@pytest.mark.parametrize("token, expected", [
    ("7GC", True),   # the declared colour
    ("0YS", True),   # ZERO
    ("7RC", False),  # R9: the D's printed colour no longer counts
    ("3BH", False),  # matched only the covered 5RH
    ("1YC", False),  # nothing
])
def test_R9_the_next_card_matches_the_declared_colour(token: str, expected: bool) -> None:
    """R9: after DRS/G the next card must be green (or ZERO), not red."""
    g = start()
    play(g, "DRS/G end")
    assert valid(g, token) is expected


@pytest.mark.parametrize("token", ["8BS", "DBD/R"])
def test_A17_a_card_matching_the_D_by_suit_or_value_is_valid_in_the_reference(token: str) -> None:
    """A17 (LENIENT; reference reading (a)): D's suit (spades) or value D still match."""
    g = start()
    play(g, "DRS/G end")
    assert valid(g, token)


def test_R9_A16_a_card_on_the_D_brings_back_its_printed_colour() -> None:
    """A16 (STRICT part): once 0YS covers the D, the colour is yellow; green no longer counts."""
    g = start()
    play(g, "DRS/G end 0YS")
    assert g.get_current_color() == Color.YELLOW == 3
    play(g, "end")
    assert g.current_player() == 2
    assert g.get_current_color() == 3
    assert valid(g, "1YD")  # yellow
    assert not valid(g, "4GD")  # green was the old declaration


def test_A16_the_declaration_lasts_through_a_draw_only_turn_in_the_reference() -> None:
    """A16 (LENIENT; reference reading (a)): player 1 only draws, green still holds for player 2."""
    g = start()
    play(g, "DRS/G end draw end")
    assert g.current_turn() == 2 and g.current_player() == 2
    assert g.get_current_color() == 2
    assert valid(g, "4GD")
    assert not valid(g, "1YD")


@pytest.mark.parametrize("letter, colour", [("R", 0), ("B", 1), ("G", 2), ("Y", 3), ("P", 4)])
def test_R9_every_colour_can_be_declared(letter: str, colour: int) -> None:
    """R9: getCurrentColor returns whichever colour was declared, as an int (A38)."""
    g = start()
    play(g, f"DRS/{letter}")
    result = g.get_current_color()
    assert result == colour
    assert type(result) is int


def test_R9_a_D_on_a_D_declares_again() -> None:
    """R9/A17: DBD on the declaring DRS (same value) declares yellow; green 4GC no longer matches."""
    g = start()
    play(g, "DRS/G end DBD/Y end")
    assert g.get_current_color() == 3
    assert valid(g, "1YD")  # yellow (and diamonds)
    assert not valid(g, "4GC")  # green clubs 4 vs DBD declared yellow


def test_R9_declaring_the_printed_colour() -> None:
    """R9: DRS declaring red: red cards match again (7RC)."""
    g = start()
    play(g, "DRS/R end")
    assert g.get_current_color() == 0
    assert valid(g, "7RC")
    assert not valid(g, "7GC")  # green clubs 7 vs red-declared DRS: no match


def test_A20_next_color_is_ignored_for_a_card_that_is_not_a_D() -> None:
    """A20: 6RD played with nextColor BLUE: the current colour is its printed red."""
    g = start()
    card = next(c for c in (g.hand_card(i) for i in range(7)) if str(c) == "6RD")
    m = PlayerMove(Action.PLAY_CARD, card, Color.BLUE)
    assert g.is_valid_move(m)
    g.play_move(m)
    assert g.get_current_color() == Color.RED == 0


def test_A20_a_D_without_a_colour_is_refused_by_the_reference() -> None:
    """A20 (LENIENT; reference): a D must come with a real colour to be valid."""
    g = start()
    card = next(c for c in (g.hand_card(i) for i in range(7)) if str(c) == "DRS")
    assert not g.is_valid_move(PlayerMove(Action.PLAY_CARD, card, None))
    assert g.is_valid_move(PlayerMove(Action.PLAY_CARD, card, Color.PURPLE))


def test_A19_D_is_not_wild_even_with_a_declaration_on_top() -> None:
    """A19: player 1's DBD matches a D by value; without that it would need colour/suit."""
    g = game("DRS", "DBC", top="5GH", draw="EYD*8")
    assert not valid(g, "DRS/B")  # red spades D on green hearts 5: no match
    g = game("DGS", "DBC", top="5GH", draw="EYD*8")
    play(g, "DGS/Y end")
    assert valid(g, "DBC/R")  # value D on a D


def test_A18_R9_a_turned_up_D_declares_nothing_but_a_played_D_does() -> None:
    """A18: initial DGH leaves green current; R9: DRH played on it with a declaration of blue makes blue current."""
    g = game("DRH", top="DGH", draw="EYD*8")
    assert g.get_current_color() == 2
    play(g, "DRH/B")
    assert g.get_current_color() == 1

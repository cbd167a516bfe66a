"""S20, B54 (and B36, B23 across a recycle): turning the discard pile over."""

from __future__ import annotations

from decks17 import current_hand, game, hand, play, tokens, valid

# Top 5RH, a single card 1YS to draw.  Players put red cards on red:
# player 0 6RH and 3RD, player 2 7RC, player 3 8RS.


def start():
    return game("6RH 3RD", "", "7RC", "8RS", top="5RH", draw="1YS")


def test_B54_the_reference_recycles_lazily() -> None:
    """B54 (LENIENT timing; reference reading (a)): the emptied draw pile stays empty until a draw needs a card."""
    g = start()
    play(g, "6RH end draw end")  # player 1 takes the last card, 1YS
    assert g.draw_pile() == ()
    assert [str(c) for c in g.discard_pile()] == ["6RH", "5RH"]
    assert g.recycles() == 0 and g.game_winner() == -1


def test_S20_B54_the_oldest_discard_is_drawn_first_and_the_top_stays() -> None:
    """S20/B54 (STRICT): player 3's draw brings the turned-up 5RH, the same Card; 7RC stays on top.

    The rest (6RH left to draw, 7RC alone on the discard pile) is the reference's reading (a).
    """
    g = start()
    play(g, "6RH end draw end 7RC end")
    top, oldest = g.top_discard(), g.discard_pile()[-1]
    assert str(top) == "7RC" and str(oldest) == "5RH"
    assert g.current_player() == 3
    play(g, "draw")
    assert any(c is oldest for c in current_hand(g))
    assert hand(g, 3) == tokens("8RS 9PQ*6 5RH")
    assert g.top_discard() is top
    assert [str(c) for c in g.discard_pile()] == ["7RC"]
    assert [str(c) for c in g.draw_pile()] == ["6RH"]


def test_S20_B54_the_recycled_pile_is_the_discard_pile_turned_over() -> None:
    """S20/B54 (reference reading (a)): no shuffle; drawn in the order the cards were discarded."""
    g = start()
    play(g, "6RH end draw end 7RC end 8RS end 3RD end")
    assert (g.current_turn(), g.current_player()) == (5, 1)
    assert [str(c) for c in g.discard_pile()] == ["3RD", "8RS", "7RC", "6RH", "5RH"]
    play(g, "draw")
    assert hand(g, 1) == tokens("9PQ*7 1YS 5RH")
    assert [str(c) for c in g.draw_pile()] == ["6RH", "7RC", "8RS"]
    play(g, "end draw end draw end draw end")  # players 2, 3, 0 draw 6RH, 7RC, 8RS
    assert hand(g, 2) == tokens("9PQ*6 6RH")
    assert hand(g, 3) == tokens("9PQ*6 7RC")
    assert hand(g, 0) == tokens("9PQ*5 8RS")


def test_S20_B23_recycling_in_the_middle_of_paying_a_two() -> None:
    """S20/B23: player 1 owes 2, draws 1YS, then the second draw recycles and brings 5RH; the 2 is paid."""
    g = game("2RH", top="5RH", draw="1YS")
    play(g, "2RH end draw draw")
    assert hand(g, 1) == tokens("9PQ*7 1YS 5RH")
    assert [str(c) for c in g.discard_pile()] == ["2RH"]
    assert valid(g, "end")
    play(g, "end")
    assert g.current_player() == 2 and g.owed_twos() == 0


def test_B54_B36_a_declaration_outlives_a_recycle_because_the_top_stays() -> None:
    """B54/B36 (reference readings): player 2's draw recycles 5RH; DRH, declared green, is still on top,
    so for player 3 green 4GC is valid and red 4RC (the D's printed colour) is not."""
    g = game("DRH", "", "", "4GC 4RC", top="5RH", draw="1YS")
    play(g, "DRH/G end draw end draw end")
    assert hand(g, 2) == tokens("9PQ*7 5RH")
    assert g.recycles() == 1
    assert valid(g, "4GC") and not valid(g, "4RC")

"""R14, A27, A31, A46, R18: the query functions, NULL conventions and card identity."""

from __future__ import annotations

from decks import game, play

from reference import Game, traditional_deck

# Top 5RC.  Hands chosen for their points (R14, hex values):
#   p0 F E D A B C 0 (red hearts) = 15+14+13+10+11+12+0 = 75
#   p1 1..7 (blue hearts)         = 28
#   p2 8GH x 7                    = 56
#   p3 9PQ x 7 (fillers)          = 63
# Draw pile: FYS EYS 1YS 2YS.
P0 = "FRH ERH DRH ARH BRH CRH 0RH"
P1 = "1BH 2BH 3BH 4BH 5BH 6BH 7BH"
P2 = "8GH*7"


def start():
    return game(P0, P1, P2, top="5RC", draw="FYS EYS 1YS 2YS")


def test_R14_points_are_the_sum_of_hex_values() -> None:
    """R14: playerPoints counts A..F as 10..15 and ZERO as 0."""
    g = start()
    assert [g.player_points(p) for p in range(4)] == [75, 28, 56, 63]


def test_R14_points_follow_plays_and_draws() -> None:
    """R14: valid at any time: F played -15; FYS drawn +15; EYS drawn +14."""
    g = start()
    play(g, "FRH")
    assert g.player_points(0) == 60
    play(g, "end draw")
    assert g.player_points(1) == 43
    play(g, "end draw end")
    assert [g.player_points(p) for p in range(4)] == [60, 43, 70, 63]


def test_R14_points_of_the_traditional_deal() -> None:
    """R14/R1: the unshuffled 800-card deck deals 25 ZEROs and three 1s: 3 points in all."""
    g = Game(traditional_deck())
    # value-major order: cards 0..24 are the 25 ZEROs (5 colours x 5 suits), 25..27 are 1s
    assert sum(g.player_points(p) for p in range(4)) == 3
    assert g.num_of_value(15) == 50


def test_A31_numTurns_after_a_few_turns() -> None:
    """A31: numTurns is 1 at turn 0 and 4 at turn 3."""
    g = start()
    assert g.num_turns() == 1
    play(g, "FRH end draw end draw end")
    assert g.current_turn() == 3 and g.num_turns() == 4


def test_A27_handCard_is_NULL_at_index_hand_size() -> None:
    """A27 (STRICT n == size): handCard(7) of a 7-card hand is NULL; handCard(6) is a card."""
    g = start()
    assert g.hand_card(7) is None
    assert g.hand_card(6) is not None
    for p in range(4):
        assert g.get_hand_card(p, 7) is None
        assert g.get_hand_card(p, 6) is not None


def test_A27_NULL_follows_the_hand_size_as_it_changes() -> None:
    """A27: after a play the hand has 6 (index 6 NULL); player 1 after a draw has 8 (index 8 NULL)."""
    g = start()
    play(g, "FRH")
    assert g.hand_card_count() == 6
    assert g.hand_card(6) is None and g.hand_card(5) is not None
    play(g, "end draw")
    assert g.hand_card_count() == 8
    assert g.hand_card(8) is None and g.hand_card(7) is not None
    assert g.get_hand_card(0, 6) is None and g.get_hand_card(1, 8) is None


def test_A27_getDeckCard_and_getDiscardPileCard_are_NULL_at_pile_size() -> None:
    """A27: the draw pile has 4 cards (index 4 NULL), the discard pile 1 then 2."""
    g = start()
    assert [str(g.get_deck_card(i)) for i in range(4)] == ["FYS", "EYS", "1YS", "2YS"]
    assert g.get_deck_card(4) is None
    assert str(g.get_discard_pile_card(0)) == "5RC"
    assert g.get_discard_pile_card(1) is None
    play(g, "FRH end")
    assert [str(g.get_discard_pile_card(i)) for i in range(2)] == ["FRH", "5RC"]
    assert g.get_discard_pile_card(2) is None


def test_A46_the_played_card_is_the_top_discard() -> None:
    """A46/R5: the Card object played is topDiscard and getDiscardPileCard(0)."""
    g = start()
    card = next(c for c in (g.hand_card(i) for i in range(7)) if str(c) == "ERH")
    play(g, "ERH")
    assert g.top_discard() is card
    assert g.get_discard_pile_card(0) is card


def test_A46_the_drawn_card_is_the_former_getDeckCard_0() -> None:
    """A46/R6: the drawn Card object is the one getDeckCard(0) returned before the draw."""
    g = start()
    before = g.get_deck_card(0)
    assert str(before) == "FYS"
    play(g, "draw")
    assert any(g.hand_card(i) is before for i in range(8))
    assert any(g.get_hand_card(0, i) is before for i in range(8))
    assert str(g.get_deck_card(0)) == "EYS"


def test_R18_handCard_returns_references_into_the_hand() -> None:
    """R18: handCard(i) and getHandCard(current, i) are the same objects, call after call."""
    g = start()
    for i in range(7):
        assert g.hand_card(i) is g.get_hand_card(0, i)
        assert g.hand_card(i) is g.hand_card(i)
    play(g, "FRH end")
    for i in range(7):
        assert g.hand_card(i) is g.get_hand_card(1, i)


def test_A27_hands_checked_by_membership() -> None:
    """A27: hand order is unspecified; player 1's hand after drawing EYS is checked as a multiset."""
    g = start()
    play(g, "draw end draw")  # player 0 draws FYS, player 1 draws EYS
    assert sorted(str(g.get_hand_card(1, i)) for i in range(8)) == sorted(P1.split() + ["EYS"])
    assert g.player_card_count(1) == 8 and g.hand_card_count() == 8

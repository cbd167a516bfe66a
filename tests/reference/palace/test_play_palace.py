"""Beating the pile (P6, C3, C8), sets (P7), drawing (P8, C9, C10, C11), taking the pile (P9, C12, C13, C14,
C36), stages (P10, P12, C15, C16) and blind play (P13, C17, C18, C19); the canonical move list."""

from __future__ import annotations

import pytest
from decks_palace import names, play, seated, valid

from reference.palace import Action, Game, Phase, PlayerMove, Readings

ONE, REFILL, PER_CARD = (Readings(draw=d) for d in ("one", "refill", "per_card"))


@pytest.mark.parametrize(("start", "card", "rules", "ok"), [
    ("8D", "7C", 0, False), ("8D", "8C", 0, True), ("8D", "9C", 0, True), ("8D", "AC", 0, True),
    ("8D", "2C", 0, True), ("8D", "TC", 0, True), ("8D", "3C", 0, False), ("8D", "4C", 0, False),
    ("8D", "3C", 1, True), ("AD", "KC", 0, False), ("AD", "AC", 0, True), ("AD", "2C", 0, True),
    ("AD", "TC", 0, True), ("2D", "3C", 0, True), ("2D", "2C", 0, True), ("5D", "4C", 2, False),
    ("5D", "7C", 2, True), ("7D", "8C", 2, True),
])
def test_P6_C3_C8_beating_the_pile(start: str, card: str, rules: int, ok: bool) -> None:
    """P6: equal or higher (C8: equal is enough; C3: aces high); P16/P17 ten and two on anything; P18 a mirror
    three on anything; P20 threes and sevens are plain ranks in the basic game (C31: a turned seven is just
    a rank, so an eight may follow it)."""
    g = seated(f"{card} 5S 5H", "6H 6D 6C", start=start, rules=rules)
    assert valid(g, card) is ok
    assert g.can_play_rank(int(g.resolve(card).cards[0].rank)) is ok  # type: ignore[union-attr]


def test_P7_sets_of_one_rank() -> None:
    """P7: any number of cards of one playable rank together; a mixed set is FALSE (C40); all k cards land on
    top (C37: their order is free); one card is drawn (C9 reference)."""
    g = seated("6H 6D 9C", "7H 7D 7C", start="5S", draw="4H 4D 4C")
    assert valid(g, "6H") and valid(g, "6H,6D") and valid(g, "6D,6H")
    assert not valid(g, "6H,9C") and not valid(g, "6H,6D,9C")
    h, d = g.resolve("6H").cards[0], g.resolve("6D").cards[0]
    play(g, "6H,6D")
    assert g.discard_pile_size() == 3 and {g.get_discard_pile_card(0), g.get_discard_pile_card(1)} == {h, d}
    assert names(g.hand(0)) == ["4H", "9C"] and g.current_player() == 1


def test_P7_C40_a_set_of_an_unplayable_rank() -> None:
    g = seated("4H 4D 6C", "7H 7D 7C", start="5S")
    assert not valid(g, "4H,4D") and not valid(g, "4H") and valid(g, "6C")


@pytest.mark.parametrize(("readings", "hand_after", "drawn"), [(ONE, 2, 1), (REFILL, 3, 2), (PER_CARD, 3, 2)])
def test_P8_C9_probe_1_play_a_pair_from_three(readings: Readings, hand_after: int, drawn: int) -> None:
    """C9 probe (1) of §4.3: a pair plus one card, draw pile non-empty; play the pair: hand 2 (one), 3 (refill,
    per card).  The drawn cards are the former getDeckCard(0), (1) pointers (C4)."""
    g = seated("6H 6D 9C", "7H 7D 7C", start="5S", draw="4H 4D 4C 4S", readings=readings)
    next_two = [g.get_deck_card(0), g.get_deck_card(1)]
    play(g, "6H,6D")
    assert g.player_card_count(0) == hand_after and g.draw_pile_size() == 4 - drawn
    assert set(next_two[:drawn]) <= set(g.hand(0)) and g.get_deck_card(0).ident == 19 + drawn  # type: ignore[union-attr]


@pytest.mark.parametrize(("readings", "hand_after"), [(ONE, 7), (REFILL, 6), (PER_CARD, 7)])
def test_P8_C9_probe_2_take_four_then_play_one(readings: Readings, hand_after: int) -> None:
    """C9 probe (2) of §4.3: take a pile of four, then play one card: the hand stays 7 (one, per card) or
    drops to 6 (refill: no draw above three).  C10: no draw after the pick-up itself."""
    g = seated("6H 8D 8C | JH JD JC", "7H 9D 9C | QH QD QC", start="5S",
               draw="4H 4D 4C 4S 3H 3D 3C 3S", readings=readings)
    play(g, "6H 7H 8D")  # singles from three-card hands: one card each in every reading
    assert g.discard_pile_size() == 4 and g.draw_pile_size() == 5
    play(g, "pickup")
    assert g.player_card_count(1) == 7 and names(g.hand(1)) == ["4D", "5S", "6H", "7H", "8D", "9C", "9D"]
    assert g.draw_pile_size() == 5  # C10: no draw after a pick-up
    play(g, "4H")  # seat 0 leads on the empty pile (C12), draws 4S
    play(g, "9D")
    assert g.player_card_count(1) == hand_after


@pytest.mark.parametrize(("readings", "hand_after"), [(ONE, 1), (REFILL, 3), (PER_CARD, 3)])
def test_C9_a_set_of_three_from_three(readings: Readings, hand_after: int) -> None:
    """C9: after a set of three from a three-card hand: one card (a), three (b: refill), three (c: per card)."""
    g = seated("6H 6D 6C", "7H 7D 7C", start="5S", draw="4H 4D 4C 4S", readings=readings)
    play(g, "6H,6D,6C")
    assert g.player_card_count(0) == hand_after and g.draw_pile_size() == 4 - hand_after


@pytest.mark.parametrize(("readings", "hand_after"), [(ONE, 2), (REFILL, 2), (PER_CARD, 2)])
def test_C9_C11_the_draw_pile_runs_out(readings: Readings, hand_after: int) -> None:
    """C9: never more than the draw pile holds; C11: once empty it stays empty (nothing is recycled)."""
    g = seated("6H 6D 9C", "7H 7D 7C", start="5S", draw="4H", readings=readings)
    play(g, "6H,6D")
    assert g.player_card_count(0) == hand_after and g.draw_pile_size() == 0
    play(g, "7H")
    assert g.draw_pile_size() == 0 and g.player_card_count(1) == 2


def test_C10_draw_before_the_bomb_free_play() -> None:
    """C10: a seat that bombs with its last hand cards draws first, so it holds a card for its free play;
    C22, C23: the same seat moves again on an empty pile."""
    g = seated("TH TD TC", "7H 7D 7C", start="5S", draw="4H 4D")
    drawn = g.get_deck_card(0)
    play(g, "TH,TD,TC")
    assert g.hand(0) == (drawn,) and g.draw_pile_size() == 1
    assert (g.discard_pile_size(), g.burnt_count(), g.current_player(), g.current_turn()) == (0, 4, 0, 3)


def test_C10_no_draw_in_the_face_up_stage_or_after_a_pick_up() -> None:
    """C10: draws happen only after plays from the hand (the draw pile is empty in the later stages)."""
    g = seated("4H 4D 4C | 9H 9D 9C", "5S 8S KS", start="2S")
    play(g, "4H,4D,4C 5S")
    assert g.stage(0) == "face_up" and g.draw_pile_size() == 0
    play(g, "9H")
    assert g.player_card_count(0) == 0 and g.face_up_count(0) == 2


def test_P9_C12_C36_taking_the_pile_with_playable_cards() -> None:
    """P9, C36: a seat that could play may take the pile; C12: exactly the pile's pointers go to its hand,
    nothing from its face-up row; the pile is empty; the next seat leads anything; C13: not the empty pile."""
    g = seated("6H 7H 8H", "7D 9D JD", start="5S", draw="2C 2D 2H 2S")
    play(g, "6H 7D")
    pile = set(g.pile())
    assert valid(g, "7H") and valid(g, "pickup")
    up = g.face_up(0)
    play(g, "pickup")
    assert set(g.hand(0)) == pile | {g.card(2), g.card(4), g.card(19)}  # 7H, 8H and the 2C drawn after 6H
    assert names(g.hand(0)) == ["2C", "5S", "6H", "7D", "7H", "8H"]
    assert g.face_up(0) == up and g.discard_pile_size() == 0 and g.top_discard() is None
    assert g.draw_pile_size() == 2 and g.current_player() == 1 and g.effective_top_rank() == 0
    assert valid(g, "2D") and valid(g, "9D") and valid(g, "JD")  # C12: the next seat leads anything
    assert not valid(g, "pickup")  # C13 (a): nothing to take


def _face_down_stage(readings: Readings = ONE) -> Game:
    """Seat 0 empties hand and face-up row; the pile is 2S 4H 4D 4C 5S 9H 9D 9C JS when it is in the
    face-down stage (19 cards: no draw pile)."""
    g = seated("4H 4D 4C | 9H 9D 9C | 6H 6D 6C", "5S JS QS", start="2S", readings=readings)
    play(g, "4H,4D,4C 5S 9H,9D,9C JS")
    return g


def test_P10_P12_C16_stage_order() -> None:
    """C16: face-up cards only with an empty hand, face-down only with both empty; P10, P12."""
    g = seated("4H 4D 4C | 9H 9D 9C | 6H 6D 6C", "5S JS QS", start="2S")
    up9 = g.face_up(0)[0]
    assert g.stage(0) == "hand" and not g.is_valid_move(PlayerMove.play(up9))
    assert not valid(g, "blind:0")
    play(g, "4H,4D,4C")
    assert g.stage(0) == "face_up"
    play(g, "5S")
    assert valid(g, "9H") and not valid(g, "blind:0")
    play(g, "9H,9D,9C JS")
    assert g.stage(0) == "face_down" and valid(g, "blind:0")
    assert not g.is_valid_move(PlayerMove.play(g.face_down(0)[0]))  # a face-down card is never a PLAY_CARDS


def test_C16_a_set_never_mixes_hand_and_face_up_cards() -> None:
    """C16: a set of one rank taken partly from the hand and partly from the face-up row is FALSE."""
    g = seated("8H 8D 4C | 8C KH KD", "5S 6S 7S", start="2S")
    assert valid(g, "8H,8D") and not valid(g, "8H,8D,8C@6")
    assert not g.is_valid_move(PlayerMove.play(g.hand(0)[0], g.face_up(0)[0]))


def test_C16_a_pick_up_returns_the_seat_to_the_hand_stage() -> None:
    g = seated("4H 4D 4C | 9H 9D 9C", "5S JS QS", start="2S")
    play(g, "4H,4D,4C 5S")
    assert g.stage(0) == "face_up"
    play(g, "pickup")
    assert g.stage(0) == "hand" and names(g.hand(0)) == ["2S", "4C", "4D", "4H", "5S"]
    play(g, "JS")
    assert not valid(g, "9H@6") and valid(g, "pickup")


@pytest.mark.parametrize(("readings", "ok"), [(Readings(), True), (Readings(face_up_sets="singles"), False)])
def test_C15_face_up_sets_switch(readings: Readings, ok: bool) -> None:
    """C15 switch: a face-up pair is TRUE (a) or FALSE (b: singles only); a single is TRUE in both (STRICT)."""
    g = seated("4H 4D 4C | 9H 9D 9C", "5S JS QS", start="2S", readings=readings)
    play(g, "4H,4D,4C 5S")
    assert valid(g, "9H,9D") is ok and valid(g, "9H,9D,9C") is ok and valid(g, "9H")
    sizes = sorted(len(m.cards) for m in g.legal_moves() if m.action == Action.PLAY_CARDS)
    assert sizes == ([1, 2, 3] if ok else [1])


@pytest.mark.parametrize(("readings", "ok"), [(Readings(), True), (Readings(face_down_pickup="not"), False)])
def test_C14_pick_up_in_the_face_down_stage_switch(readings: Readings, ok: bool) -> None:
    """C14 switch: isValidMove(PICK_UP_PILE) for a seat with only face-down cards and a non-empty pile."""
    g = _face_down_stage(readings)
    assert g.stage(0) == "face_down" and g.discard_pile_size() == 9
    assert valid(g, "pickup") is ok
    assert any(m.action == Action.PICK_UP_PILE for m in g.legal_moves()) is ok


def test_P12_C17_every_face_down_position_is_valid_whatever_the_card() -> None:
    """C17: TRUE for positions 0..faceDownCount-1 (the 6s would all fail on the jack), FALSE for -1 and 3."""
    g = _face_down_stage()
    assert [valid(g, f"blind:{i}") for i in (-1, 0, 1, 2, 3)] == [False, True, True, True, False]
    assert [str(m) for m in g.legal_moves()] == ["blind:0", "blind:1", "blind:2", "pickup"]


def test_P13_C18_failed_blind_card() -> None:
    """C18: the turned 6H cannot go on the jack: it and the whole pile go into the hand, the pile is empty,
    nothing is burnt, the next seat moves; C38: the other positions move down."""
    g = _face_down_stage()
    turned = g.get_face_down_card(0, 0)
    pile = set(g.pile())
    turn = g.current_turn()
    play(g, "blind:0")
    assert str(turned) == "6H" and set(g.hand(0)) == pile | {turned} and g.player_card_count(0) == 10
    assert (g.discard_pile_size(), g.burnt_count(), g.current_player(), g.current_turn()) == (0, 0, 1, turn + 1)
    assert [str(c) for c in g.face_down(0)] == ["6D", "6C"] and g.face_down_count(0) == 2
    assert g.stage(0) == "hand"  # C16: back in the hand stage


def test_P13_C19_C22_C23_C32_successful_blind_cards() -> None:
    """C19: a blind card that fits is played with every effect -- a blind ten bombs and gives a free play
    (C22, C23), any blind card succeeds on the empty pile, and a blind two can be the winning card (C32)."""
    g = seated("4H 4D 4C | 7H 7D 7C | 6H TD 2C", "5S 8S KS", start="2S")
    play(g, "4H,4D,4C 5S 7H,7D,7C 8S")
    assert g.stage(0) == "face_down" and g.discard_pile_size() == 9
    assert all(valid(g, f"blind:{i}") for i in range(3))  # C17
    play(g, "blind:1")  # TD on 8S: ten, bomb
    assert (g.discard_pile_size(), g.burnt_count(), g.current_player()) == (0, 10, 0)
    play(g, "blind:0")  # 6H on the empty pile: succeeds
    assert [str(c) for c in g.pile()] == ["6H"] and g.current_player() == 1
    play(g, "KS blind:0")  # 2C on the king: a two fits anything; seat 0 is out
    assert g.game_winner() == 0 and g.current_phase() == Phase.GAME_OVER


def test_legal_moves_are_canonical() -> None:
    """legal_moves: per playable rank one set per size, lowest idents first; then PICK_UP_PILE (P9, C36)."""
    g = seated("6H 6D 9C", "7H 7D 7C", start="5S", draw="4H")
    assert [str(m) for m in g.legal_moves()] == ["6H@0", "6H@0,6D@2", "9C@4", "pickup"]
    assert all(g.is_valid_move(m) for m in g.legal_moves())
    g = seated("4H 4D 6C", "7H 7D 7C", start="5S")
    assert [str(m) for m in g.legal_moves()] == ["6C@4", "pickup"]

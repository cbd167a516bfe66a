"""S16-S18, B38-B47: claims (TRIO/DUO/UNO after one's own discard) and call-outs of the previous player."""

from __future__ import annotations

from decks17 import game, hand, history, play, tokens, valid

# Top 5RH.  Player 0 holds six Cs and a filler: CRH matches 5RH, each further C matches
# by value, so one turn can take the hand from 7 to 6, 5, 4, 3, 2, 1 cards.
# The draw pile is 12 distinct cards, so penalty cards can be told apart.
CHAIN = "CRH CBH CGH CYH CRD CBD"
DRAW_PILE = "1YS 3YS 4YS 6YS 7YS 8YS 1GS 3GS 4GS 6GS 7GS 8GS"
WORDS = ("uno", "duo", "trio")


def start():
    return game(CHAIN, top="5RH", draw=DRAW_PILE)


def valid_words(g) -> list[str]:
    return [w for w in WORDS if valid(g, w)]


def test_S16_B38_B33_each_claim_fits_the_hand_size_right_after_the_discard() -> None:
    """S16/B38: at 4 cards no word; at 3 only TRIO, at 2 only DUO, at 1 only UNO; B33: after each claim the
    next C may follow; B38: no second claim of the same discard."""
    g = start()
    play(g, "CRH CBH CGH")
    assert g.hand_card_count() == 4 and valid_words(g) == []
    play(g, "CYH")
    assert valid_words(g) == ["trio"]
    play(g, "trio")
    assert valid_words(g) == []  # a claim after a claim
    play(g, "CRD")
    assert valid_words(g) == ["duo"]
    play(g, "duo CBD")
    assert valid_words(g) == ["uno"]
    play(g, "uno end")
    assert history(g, 0) == ["CRH", "CBH", "CGH", "CYH", "trio", "CRD", "duo", "CBD", "uno", "end"]
    assert hand(g, 0) == tokens("9PQ")


def test_S16_B39_claims_are_optional() -> None:
    """S16/B39: END_TURN straight after the discard that leaves 3 cards."""
    g = start()
    play(g, "CRH CBH CGH CYH")
    assert valid(g, "end")


def test_S18_B38_B40_no_word_after_a_draw_or_after_a_discard_that_leaves_more_than_3() -> None:
    """S18/B38/B40: after player 0's draw (8 cards) and after a discard leaving 6, every SAY_* is invalid."""
    g = start()
    play(g, "draw")
    assert valid_words(g) == []
    g = start()
    play(g, "CRH")
    assert valid_words(g) == []


def test_S17_B40_B41_B44_wrong_call_outs_are_valid_once_per_word_and_cost_the_caller_4() -> None:
    """B41: player 0 only drew, so every call-out is wrong, and valid; B44 (reference (a)): each costs
    player 1 four cards from the top of the draw pile; player 0 is unchanged (STRICT); B40: each word once."""
    g = start()
    play(g, "draw end")  # player 0 takes 1YS
    assert valid_words(g) == ["uno", "duo", "trio"]
    play(g, "uno")
    assert hand(g, 1) == tokens("9PQ*7 3YS 4YS 6YS 7YS")
    assert g.player_card_count(0) == 8
    assert valid_words(g) == ["duo", "trio"]
    play(g, "duo")
    assert g.player_card_count(1) == 15
    assert valid_words(g) == ["trio"]
    assert g.turn_moves(1) == 2  # B50: the penalty draws are not moves


def test_S17_B42_B43_a_right_call_out_costs_the_previous_player_2() -> None:
    """B42/B43: player 0 is left with 3 cards and says nothing; player 1's TRIO is right: player 0 draws the
    next 2 cards (1YS 3YS), player 1's hand is unchanged, and the call-out is the only move recorded."""
    g = start()
    play(g, "CRH CBH CGH CYH end")
    play(g, "trio")
    assert hand(g, 0) == tokens("CRD CBD 9PQ 1YS 3YS")
    assert g.player_card_count(1) == 7
    assert history(g, 1) == ["trio"]
    assert valid_words(g) == ["uno", "duo"]  # B40: TRIO was said this turn
    assert not valid(g, "end")  # B45: a call-out is not a draw or a discard
    play(g, "duo")  # wrong: player 0 never had 2 cards
    assert g.player_card_count(1) == 11 and g.player_card_count(0) == 5


def test_S17_B43_B45_penalty_cards_do_not_count_as_the_callers_draw() -> None:
    """B43/B45: after a right call-out player 1 still has one draw to make, then may end the turn."""
    g = start()
    play(g, "CRH CBH CGH CYH end trio draw")
    assert hand(g, 1) == tokens("9PQ*7 4YS")
    assert not valid(g, "draw") and valid(g, "end")


def test_B42_every_count_a_chain_passed_can_be_called_in_the_reference() -> None:
    """B42 (LENIENT for chains; reference reading (a)): six Cs pass 3, 2 and 1 unclaimed; TRIO, DUO and
    UNO are each right, and player 0 draws 2 cards for each."""
    g = start()
    play(g, "CRH CBH CGH CYH CRD CBD end")
    assert g.player_card_count(0) == 1
    play(g, "trio duo uno")
    assert hand(g, 0) == tokens("9PQ 1YS 3YS 4YS 6YS 7YS 8YS")
    assert g.player_card_count(1) == 7


def test_B42_a_claimed_count_cannot_be_called() -> None:
    """B42: player 0 claims TRIO but not DUO: player 1's TRIO is wrong (+4 to player 1), DUO right (+2 to 0)."""
    g = start()
    play(g, "CRH CBH CGH CYH trio CRD end")
    play(g, "trio")
    assert (g.player_card_count(0), g.player_card_count(1)) == (2, 11)
    play(g, "duo")
    assert (g.player_card_count(0), g.player_card_count(1)) == (4, 11)


def test_B46_B45_a_call_out_on_turn_0_is_valid_and_wrong_in_the_reference() -> None:
    """B46 (LENIENT; reference reading (a)): player 0's UNO on turn 0 costs 4 cards; B45: END_TURN is
    still invalid and player 0 may still discard."""
    g = start()
    assert valid_words(g) == ["uno", "duo", "trio"]
    play(g, "uno")
    assert hand(g, 0) == tokens(CHAIN + " 9PQ 1YS 3YS 4YS 6YS")
    assert not valid(g, "end")
    assert valid(g, "CRH") and valid(g, "draw")


def test_B47_an_older_omission_cannot_be_called() -> None:
    """B47: player 0 leaves 3 unclaimed, player 1 only draws; player 2's TRIO is about player 1, so it is
    wrong: player 2 draws 4, player 0 keeps 3 cards."""
    g = start()
    play(g, "CRH CBH CGH CYH end draw end")
    play(g, "trio")
    assert g.player_card_count(0) == 3
    assert hand(g, 2) == tokens("9PQ*7 3YS 4YS 6YS 7YS")


def test_B42_S12_after_a_skip_the_previous_player_is_the_one_who_skipped() -> None:
    """B42 (§3.7's previous player): player 0 ends on ARH with 3 cards; player 2 plays next and calls out right."""
    g = game("CRH CBH CGH ARH", top="5RH", draw=DRAW_PILE)
    play(g, "CRH CBH CGH ARH end")
    assert g.current_player() == 2
    play(g, "trio")
    assert g.player_card_count(0) == 5
    assert g.player_card_count(1) == 7 and g.player_card_count(2) == 7


def test_B42_S13_after_a_reverse_the_previous_player_is_on_the_other_side() -> None:
    """B42/S13: player 0 ends on BRH with 3 cards; player 3 plays next and calls out right."""
    g = game("CRH CBH CGH BRH", top="5RH", draw=DRAW_PILE)
    play(g, "CRH CBH CGH BRH end")
    assert g.current_player() == 3
    play(g, "trio")
    assert g.player_card_count(0) == 5 and g.player_card_count(3) == 7

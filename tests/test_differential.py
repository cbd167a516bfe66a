"""The comparison: strict where the rules are clear, lenient exactly where a ruling says.

Each test takes the reference's own trace of a small game, changes what a
submission taking another reading (or having a bug) would have reported, and
checks the verdict.  Expected verdicts come from rules.md, not from the code.
"""

from __future__ import annotations

import copy

from grader.differential import compare, contested_moves, explain
from grader.reference_trace import reference_trace
from grader.scenarios import deal_to_deck
from reference import parse_moves

# Player 0 plays a 2; player 1 pays the penalty (2 draws) and ends; player 2 plays on.
DEAL = {"p0": "2RH 5GC*6", "p1": "9YS*7", "p2": "3RH 7YS*6", "p3": "7YS*7", "discard": "4RH", "draw": "8PQ*12"}
DECK = deal_to_deck(DEAL)
MOVES = parse_moves("2RH end draw draw end 3RH end")


def traces():
    ref = reference_trace(DECK, MOVES)
    return ref, [copy.deepcopy(step.obs) for step in ref]


def test_identical_traces_pass_without_notes() -> None:
    ref, got = traces()
    result = compare(MOVES, ref, got)
    assert result.passed and result.notes == []


def test_hands_are_compared_as_multisets_R2() -> None:
    ref, got = traces()
    for obs in got:
        obs["hand"].reverse()
        for hand in obs["hands"]:
            hand.reverse()
    assert compare(MOVES, ref, got).passed


def test_a8_active_twos_may_drop_at_once_after_the_last_owed_draw() -> None:
    ref, got = traces()
    # After move 4 (second draw) the penalty is paid; the reference keeps 1 until END_TURN (A8).
    assert got[4]["active_draw_twos"] == 1
    got[4]["active_draw_twos"] = 0
    result = compare(MOVES, ref, got)
    assert result.passed
    assert any("A8" in n for n in result.notes)


def test_active_twos_wrong_after_one_of_two_draws_fails_R7_A6() -> None:
    ref, got = traces()
    got[3]["active_draw_twos"] = 0  # after only one of the two owed draws: strict
    result = compare(MOVES, ref, got)
    assert not result.passed
    assert (result.divergence.step, result.divergence.field) == (3, "active_draw_twos")


def test_end_turn_allowed_before_the_penalty_is_paid_fails_A6() -> None:
    ref, got = traces()
    got[3]["valid_end"] = True
    result = compare(MOVES, ref, got)
    assert result.divergence is not None and result.divergence.field == "valid_end"


def test_a3_draw_after_play_is_accepted_either_way() -> None:
    ref, got = traces()
    assert got[1]["valid_draw"] is False  # player 0 has played: the reference says no draw
    got[1]["valid_draw"] = True
    result = compare(MOVES, ref, got)
    assert result.passed and any("A3" in n for n in result.notes)


def test_a1_a_matching_card_after_a_draw_is_accepted_a_non_matching_one_is_not() -> None:
    moves = parse_moves("2RH end draw draw end draw end")  # player 2 draws, holding 3RH (red, like the top)
    ref = reference_trace(DECK, moves)
    got = [copy.deepcopy(step.obs) for step in ref]
    assert got[6]["valid_play"] == {"3RH": False, "7YS": False, "8PQ": False}  # 8PQ: the card drawn
    got[6]["valid_play"]["3RH"] = True  # reading (b) of A1: may play a matching card after drawing
    result = compare(moves, ref, got)
    assert result.passed and any("A1" in n for n in result.notes)
    got[6]["valid_play"]["7YS"] = True  # matches nothing: wrong under every reading
    result = compare(moves, ref, got)
    assert not result.passed and result.divergence.label == "7YS"


def test_a_wrong_winner_is_never_lenient_before_the_end_R12() -> None:
    ref, got = traces()
    got[2]["winner"] = 0
    result = compare(MOVES, ref, got)
    assert result.divergence is not None and result.divergence.field == "winner"


def test_a_copied_card_breaks_identity_A46() -> None:
    ref, got = traces()
    got[1]["top_discard"][3] += 1  # same look, different pointer
    result = compare(MOVES, ref, got)
    assert not result.passed and "A46" in result.identity_problem


def test_contested_moves_are_those_a_ruling_leaves_open() -> None:
    ref, _ = traces()
    assert contested_moves(MOVES, ref) == []  # every move here is valid under every reading
    deal = dict(DEAL, p1="2BH 9YS*6")
    moves = parse_moves("2RH end 2BH end draw draw draw draw end")
    deck = deal_to_deck(deal)
    assert contested_moves(moves, reference_trace(deck, moves)) == []


def test_failure_message_names_rule_moves_expected_and_got() -> None:
    ref, got = traces()
    got[3]["active_draw_twos"] = 0
    result = compare(MOVES, ref, got)
    text = explain("A 2 makes the next player draw two cards.", ["R7"], DECK, MOVES, result)
    assert "Rule (R7): A 2 makes the next player draw two cards." in text
    assert "turn 0, player 0: 2RH end" in text and "turn 1, player 1: draw" in text
    assert "getActiveDrawTwos()" in text and "expected: 1" in text and "got:      0" in text
    assert "player 1: 9YS" in text  # the state picture


def test_a_malformed_observation_fails_and_never_passes() -> None:
    ref, got = traces()
    got[2]["hand"] = "all good"
    assert not compare(MOVES, ref, got).passed


def test_cards_no_deck_has_are_reported_not_fatal() -> None:
    """A freed card read back gives garbage values: the comparison says so, it does not break."""
    ref, got = traces()
    got[1]["top_discard"][:3] = [485398752, 0, 482980096]
    got[2]["hand"][0][:3] = [99, -1, 7]
    result = compare(MOVES, ref, got)
    assert not result.passed
    text = explain("A 2 makes the next player draw two cards.", ["R7"], DECK, MOVES, result)
    assert "<485398752,0,482980096>" in text and "expected: 2RH" in text

"""The comparison: strict where the rules are clear, lenient exactly where a ruling says.

Each test takes the reference's own trace of a small game, changes what a
submission taking another reading (or having a bug) would have reported, and
checks the verdict.  Expected verdicts come from rules.md, not from the code.
"""

from __future__ import annotations

from grader.games.fcd.compare import compare
from grader.games.fcd.explain import explain
from grader.games.fcd.focus import Focus, focus_of
from grader.games.fcd.reference_trace import as_reported, reference_trace
from grader.games.fcd.scenarios import deal_to_deck
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.observations import TABLE
from reference import parse_moves

# Player 0 plays a 2; player 1 pays the penalty (2 draws) and ends; player 2 plays on.
DEAL = {"p0": "2RH 5GC*6", "p1": "9YS*7", "p2": "3RH 7YS*6", "p3": "7YS*7", "discard": "4RH", "draw": "8PQ*12"}
DECK = deal_to_deck(DEAL)
MOVES = parse_moves("2RH end draw draw end 3RH end")


def traces():
    ref = reference_trace(DECK, MOVES, edition=FCD18)
    return ref, [as_reported(step.obs) for step in ref]


def test_identical_traces_pass_without_notes() -> None:
    ref, got = traces()
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert result.passed and result.notes == []


def test_hands_are_compared_as_multisets_R2() -> None:
    ref, got = traces()
    for obs in got:
        obs["hand"].reverse()
        for hand in obs["hands"]:
            hand.reverse()
    assert compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal).passed


def test_a8_active_twos_may_drop_at_once_after_the_last_owed_draw() -> None:
    ref, got = traces()
    # After move 4 (second draw) the penalty is paid; the reference keeps 1 until END_TURN (A8).
    assert got[4]["active_draw_twos"] == 1
    got[4]["active_draw_twos"] = 0
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert result.passed
    assert any("A8" in n for n in result.notes)


def test_active_twos_inside_the_penalised_turn_are_lenient_but_not_at_the_next_turn_A8() -> None:
    ref, got = traces()
    got[3]["active_draw_twos"] = 0  # after one of the two owed draws: A8 leaves the count open
    assert compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal).passed
    got[5]["active_draw_twos"] = 1  # at the start of the next turn every reading says 0
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert not result.passed
    assert (result.divergence.step, result.divergence.field) == (5, "active_draw_twos")


def test_a52_the_new_two_may_count_only_from_the_next_turn() -> None:
    ref, got = traces()
    assert got[1]["active_draw_twos"] == 1  # player 0 has just played 2RH
    got[1]["active_draw_twos"] = 0  # reading (b) of A52: counted once END_TURN passes the turn
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert result.passed and any("A52" in n for n in result.notes)


def test_end_turn_allowed_before_the_penalty_is_paid_fails_A6() -> None:
    ref, got = traces()
    got[3]["valid_end"] = True
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert result.divergence is not None and result.divergence.field == "valid_end"


def test_a3_draw_after_play_is_accepted_either_way() -> None:
    ref, got = traces()
    assert got[1]["valid_draw"] is False  # player 0 has played: the reference says no draw
    got[1]["valid_draw"] = True
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert result.passed and any("A3" in n for n in result.notes)


def test_a1_a_matching_card_after_a_draw_is_accepted_a_non_matching_one_is_not() -> None:
    moves = parse_moves("2RH end draw draw end draw end")  # player 2 draws, holding 3RH (red, like the top)
    ref = reference_trace(DECK, moves, edition=FCD18)
    got = [as_reported(step.obs) for step in ref]
    assert got[6]["valid_play"] == {"3RH": False, "7YS": False, "8PQ": False}  # 8PQ: the card drawn
    got[6]["valid_play"]["3RH"] = True  # reading (b) of A1: may play a matching card after drawing
    result = compare(moves, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert result.passed and any("A1" in n for n in result.notes)
    got[6]["valid_play"]["7YS"] = True  # matches nothing: wrong under every reading
    result = compare(moves, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert not result.passed and result.divergence.label == "7YS"


def test_a_wrong_winner_is_never_lenient_before_the_end_R12() -> None:
    ref, got = traces()
    got[2]["winner"] = 0
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert result.divergence is not None and result.divergence.field == "winner"


def test_a_copied_card_breaks_identity_A46() -> None:
    ref, got = traces()
    got[1]["top_discard"][3] += 1  # same look, different pointer
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert not result.passed and "A46" in result.identity_problem


# ---- focus: each test judges its own rule (one bug, one deduction) --------------------------

SKIP_FOCUS = focus_of(["R8"], TABLE)  # a test of the skip: whose turn it is, not the points
OWNERS = {("points", False): "queries/points_count_hex_values", ("points", True): "queries/points_count_hex_values",
          ("num_turns", True): "turns/num_turns_is_current_turn_plus_one"}


def test_a_difference_outside_the_focus_is_a_note_naming_its_owner() -> None:
    ref, got = traces()
    for obs in got:
        obs["points"] = [p + 1 for p in obs["points"]]  # points wrong everywhere (R14)
    assert not compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal).passed  # a test of everything fails
    result = compare(MOVES, ref, got, focus=SKIP_FOCUS, owners=OWNERS, table=TABLE, refusal=FCD18.refusal)
    assert result.passed and not result.not_shown and result.hidden == 0 and result.agreed > 0
    assert sum("playerPoints" in n for n in result.notes) == 1  # said once, not after every move
    assert any("queries/points_count_hex_values" in n for n in result.notes)


def test_an_observation_that_differed_is_then_judged_on_what_each_move_changed() -> None:
    ref, got = traces()
    turns_focus = Focus({}, {"num_turns": ("A31",)})  # judged after moves only
    for obs in got:
        obs["num_turns"] -= 1  # numTurns() == currentTurn(): wrong from newGame on, but it moves right
    result = compare(MOVES, ref, got, focus=turns_focus, owners=OWNERS, table=TABLE, refusal=FCD18.refusal)
    assert result.passed  # the first difference (right after newGame) is not this test's
    for obs in got[4:]:
        obs["num_turns"] += 2  # ... and now it also moves when no turn ended (move 4 is a draw)
    result = compare(MOVES, ref, got, focus=turns_focus, owners=OWNERS, table=TABLE, refusal=FCD18.refusal)
    assert not result.passed and result.divergence.step == 4 and result.divergence.change
    assert "expected: +0" in result.divergence.describe() and "got:      +2" in result.divergence.describe()


def test_a_move_refused_outside_the_focus_is_made_anyway_and_what_agrees_after_it_is_evidence_A28() -> None:
    ref, got = traces()
    got[5]["valid_play"]["3RH"] = False  # player 2 refuses 3RH, which matches the red 2 on top (R5)
    events = [{"t": "refused", "i": 5}]
    result = compare(MOVES, ref, got, events, focus=SKIP_FOCUS, owners=OWNERS, table=TABLE, refusal=FCD18.refusal)
    assert result.passed and result.forced_at == 5 and "refused move 6 (3RH)" in result.not_shown[0]
    # Every move of the game judges the skip test's rule (whose turn it is; R8 does not judge the deal):
    # all 7 agreed, nothing hidden.
    assert (result.agreed, result.hidden) == (7, 0)


def test_after_a_forced_move_a_difference_is_never_charged_but_hidden_A28() -> None:
    ref, got = traces()
    got[5]["valid_play"]["3RH"] = False
    for obs in got[6:]:
        obs["current_player"] = (obs["current_player"] + 1) % 4  # the forced move left the game elsewhere
    result = compare(MOVES, ref, got, [{"t": "refused", "i": 5}], focus=SKIP_FOCUS, owners=OWNERS, table=TABLE,
                     refusal=FCD18.refusal)
    assert result.passed  # not charged: playMove of a move the submission called invalid is undefined
    # R8 judges three observations after a move (currentPlayer, currentTurn, getPreviousTurnPlayer): after
    # move 6 one of the three is hidden; after move 7 currentPlayer, having differed, is judged on what the
    # move changed (one seat on, as the reference): seen.
    assert result.hidden == 1 / 3 and result.agreed == 7 - 1 / 3


def test_the_words_of_a_forced_move_cite_the_editions_own_ruling() -> None:
    """Issue 45: 2017 students were told 2018's A28; each edition's messages cite its own ruling (2017's B58)."""
    ref, got = traces()
    got[5]["valid_play"]["3RH"] = False
    for obs in got[6:]:
        obs["current_player"] = (obs["current_player"] + 1) % 4
    for edition, cited, other in ((FCD18, "(A28)", "(B58)"), (FCD17, "(B58)", "(A28)")):
        result = compare(MOVES, ref, got, [{"t": "refused", "i": 5}], focus=SKIP_FOCUS, owners=OWNERS, table=TABLE,
                         refusal=edition.refusal)
        words = " ".join(result.not_shown)
        assert cited in words and other not in words, edition.name
        assert set(edition.refusal.strict_after.values()) <= set(edition.rulings)
    assert "B58" in FCD17.rulings
    assert FCD17.refusal.strict_after == {}  # B55 leaves the attempted draw's outcome open: nothing judged on


def test_a_game_that_stops_for_want_of_a_card_hides_the_rest_of_the_rule() -> None:
    ref, got = traces()
    result = compare(MOVES, ref, got[:6], [{"t": "no_card", "i": 5}], focus=SKIP_FOCUS, owners=OWNERS, table=TABLE,
                     refusal=FCD18.refusal)
    assert result.passed and (result.agreed, result.hidden) == (5, 2)  # moves 1-5 seen, 6-7 never made


def test_a_winner_at_move_0_hides_only_the_answers_it_explains_A29() -> None:
    """The submission says the game is won right after newGame (owned by the end tests); its isValidMove
    answers are still judged on the reference's state: FALSE is what its own game-over state says
    (hidden), TRUE for a card that does not match is a second bug, charged."""
    ref, got = traces()
    valid = Focus({"valid_play": ("R5",)}, {"valid_play": ("R5",)})
    got[0]["winner"] = 0
    got[0]["valid_play"] = {label: False for label in got[0]["valid_play"]}
    result = compare(MOVES, ref, got, focus=valid, owners=OWNERS, table=TABLE, refusal=FCD18.refusal)
    # Move 0's battery has two answers: 2RH (TRUE: red on the red 4RH, R5), hidden by the claimed end, and
    # 5GC (FALSE, as the reference says), agreed: half of move 0 is hidden.  Later, R5 judges only the
    # answers the matching rule decided: after move 5 (player 2 may play 3RH on 2RH) and move 7 (player 3's
    # 7YSs do not match 3RH); after a play (A2), facing the 2 (R7) or after a draw (A1) it judges nothing.
    assert result.passed and result.hidden == 0.5 and result.agreed == 2.5
    assert "gameWinner() differed before" in result.not_shown[0]
    got[0]["valid_play"]["5GC"] = True  # 5GC matches neither the 4RH on top nor red: wrong in every state
    result = compare(MOVES, ref, got, focus=valid, owners=OWNERS, table=TABLE, refusal=FCD18.refusal)
    assert not result.passed and (result.divergence.step, result.divergence.label) == (0, "5GC")


def test_failure_message_names_rule_moves_expected_and_got() -> None:
    ref, got = traces()
    got[5]["active_draw_twos"] = 1
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    text = explain("A 2 makes the next player draw two cards.", ["R7"], DECK, MOVES, result, FCD18)
    assert "Rule (R7): A 2 makes the next player draw two cards." in text
    assert "turn 0, player 0: 2RH end" in text and "turn 1, player 1: draw draw end" in text
    assert "getActiveDrawTwos()" in text and "expected: 0" in text and "got:      1" in text
    assert "player 1: 9YS" in text  # the state picture


def test_a_malformed_observation_fails_and_never_passes() -> None:
    ref, got = traces()
    got[2]["hand"] = "all good"
    assert not compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal).passed


def test_cards_no_deck_has_are_reported_not_fatal() -> None:
    """A freed card read back gives garbage values: the comparison says so, it does not break."""
    ref, got = traces()
    got[1]["top_discard"][:3] = [485398752, 0, 482980096]
    got[2]["hand"][0][:3] = [99, -1, 7]
    result = compare(MOVES, ref, got, table=TABLE, refusal=FCD18.refusal)
    assert not result.passed
    text = explain("A 2 makes the next player draw two cards.", ["R7"], DECK, MOVES, result, FCD18)
    assert "<485398752,0,482980096>" in text and "expected: 2RH" in text

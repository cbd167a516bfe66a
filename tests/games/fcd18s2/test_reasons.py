"""The reference says why: every isValidMove answer names the clause of rules.md that decided it.

A refusal names its first failing condition, an acceptance the route by which the card was allowed
(``reference.Game.why_valid``).  The grader files the reasons with the reference's observations
(``grader.games.fcd.focus.REASONS``) and charges a difference to the tests that hold a named clause.
"""

from __future__ import annotations

from grader.games.fcd.focus import REASONS, focus_of
from grader.games.fcd.reference_trace import reference_trace
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.observations import TABLE
from grader.games.fcd18s2.scenarios import load_scenarios
from reference import Action, Deck, Game, PlayerMove

# Player 0: 5RH 5RD 5RS, then 8PQ; the others alike in their colours; the first discard 5GQ; draw pile 1PQ...
DECK = Deck.parse(" ".join(
    ["5RH", "5BH", "5YH", "9GH", "5RD", "5BD", "5YD", "9GD", "5RS", "5BS", "5YS", "9GS"]
    + ["8PQ", "8PQ", "8PQ", "9GC"] * 4 + ["5GQ"] + ["1PQ"] * 10))


def card(game: Game, label: str):  # noqa: ANN201 - a reference Card of the current hand
    return next(game.hand_card(i) for i in range(game.hand_card_count()) if str(game.hand_card(i)) == label)


def why(game: Game, action: Action, label: str = "") -> tuple[bool, tuple[str, ...]]:
    move = PlayerMove(action, card(game, label)) if label else PlayerMove(action)
    answer = game.why_valid(move)
    assert answer.value == game.is_valid_move(move)
    return answer.value, answer.clauses


def test_refusals_name_their_first_failing_condition() -> None:
    game = Game(DECK)
    assert why(game, Action.END_TURN) == (False, ("R4", "A5"))  # nothing done yet this turn
    # 5RH matches the card turned up (5GQ) on value, 8PQ on suit: R10 names the turned-up card as context.
    assert why(game, Action.PLAY_CARD, "5RH") == (True, ("R5", "R10"))
    assert why(game, Action.PLAY_CARD, "8PQ") == (True, ("R5", "R10"))
    assert why(game, Action.DRAW_CARD) == (True, ("R6", "A34"))
    game.play_move(PlayerMove(Action.PLAY_CARD, card(game, "5RH")))
    # 5RD matches the new top 5RH, but a card was played this turn: A2, not the matching rule, decides.
    assert why(game, Action.PLAY_CARD, "5RD") == (False, ("A2",))
    assert why(game, Action.DRAW_CARD) == (False, ("A3",))
    assert why(game, Action.END_TURN) == (True, ("R4",))
    game.play_move(PlayerMove(Action.END_TURN))
    game.play_move(PlayerMove(Action.DRAW_CARD))
    assert why(game, Action.PLAY_CARD, "5BD") == (False, ("A1",))  # drawn this turn
    assert why(game, Action.DRAW_CARD) == (False, ("A4",))
    assert why(game, Action.END_TURN) == (True, ("R4",))


def test_a_card_of_another_hand_is_refused_for_not_being_in_the_hand() -> None:
    game = Game(DECK)
    other = game.get_hand_card(1, 0)  # 5BH: it would match 5GQ on value
    assert game.why_valid(PlayerMove(Action.PLAY_CARD, other)).clauses == ("A25",)


def test_facing_a_two_the_reason_is_the_draw_two_rule() -> None:
    deck = Deck.parse(" ".join(["2RH", "5BH", "5YH", "9GH"] + ["7RD", "0BD", "5YD", "2GD"] * 6 + ["5RQ"]
                               + ["1PQ"] * 10))
    game = Game(deck)
    game.play_move(PlayerMove(Action.PLAY_CARD, card(game, "2RH")))
    game.play_move(PlayerMove(Action.END_TURN))
    assert why(game, Action.PLAY_CARD, "0BD") == (False, ("R7", "A11", "A39"))  # not even a ZERO
    assert why(game, Action.PLAY_CARD, "5BH") == (False, ("R7", "A11", "A39"))
    assert why(game, Action.END_TURN) == (False, ("R7", "A6"))
    game.play_move(PlayerMove(Action.DRAW_CARD))
    assert why(game, Action.DRAW_CARD) == (True, ("R7",))  # one of the two owed
    assert why(game, Action.END_TURN) == (False, ("R7", "A6"))
    game.play_move(PlayerMove(Action.DRAW_CARD))
    assert why(game, Action.END_TURN) == (True, ("R7", "A6"))
    assert why(game, Action.PLAY_CARD, "0BD") == (False, ("A1", "A49"))  # having drawn, the penalised player ends


def _named_over_the_scenarios() -> dict[str, set[str]]:
    named: dict[str, set[str]] = {}
    for s in load_scenarios():
        for step in reference_trace(s.deck, s.moves, edition=FCD18):
            for name, answers in step.obs[REASONS].items():
                named.setdefault(name, set()).update(c for clauses in answers.values() for c in clauses)
    return named


def test_every_clause_a_reason_names_is_one_its_row_holds_and_the_scenarios_name_them_all() -> None:
    """A clause a reason names must be one of its row's (or a test holding it could never judge the answer);
    and the scenarios' answers name every clause of the validity rows but those no answer can rest on."""
    named = _named_over_the_scenarios()
    assert set(named) == {"valid_play", "valid_foreign", "valid_draw", "valid_end"}
    for name, clauses in named.items():
        assert clauses <= set(TABLE.by_name[name].clauses), (name, clauses - set(TABLE.by_name[name].clauses))
    every = set().union(*named.values())
    rows = set().union(*(TABLE.by_name[n].clauses for n in named))
    # A35 (must a player draw when they cannot play?) has no check to make: no answer rests on it.
    assert rows - every == {"A35"}, rows - every


def test_a_test_judges_only_the_answers_its_clauses_decided() -> None:
    """After a play, matching's tests (R5) no longer judge the refusal of a second card: A2's test does."""
    game_steps = reference_trace(DECK, [FCD18.parse_move("5RH")], edition=FCD18)
    after = game_steps[1].obs
    matching, one_card = focus_of(("R5",), TABLE), focus_of(("A2", "R4"), TABLE)
    assert after[REASONS]["valid_play"]["5RD"] == ["A2"]
    assert not matching.covers("valid_play", 1, after, "5RD")
    assert one_card.covers("valid_play", 1, after, "5RD")
    assert matching.covers("valid_play", 0, game_steps[0].obs, "5RH")  # before it, R5 decided: matching judges
    assert not one_card.covers("valid_play", 0, game_steps[0].obs, "5RH")

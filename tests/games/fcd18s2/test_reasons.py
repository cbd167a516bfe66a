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
from reference import Action, Color, Deck, Game, PlayerMove

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
    # 5RH matches the card turned up (5GQ) on value, 8PQ on suit: R5 alone (an ordinary card turned up changes
    # nothing, so R10 is not named)
    assert why(game, Action.PLAY_CARD, "5RH") == (True, ("R5",))
    assert why(game, Action.PLAY_CARD, "8PQ") == (True, ("R5",))
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


def _dealt(hands: list[str], discard: str, draw: str) -> Deck:
    """A deck dealing ``hands`` (seven cards each, one at a time round the table), then the discard, then the draw."""
    cards = [h.split() for h in hands]
    return Deck.parse(" ".join([cards[p][i] for i in range(7) for p in range(4)] + [discard, draw]))


def test_a_declaration_is_named_only_where_it_changed_the_answer() -> None:
    """After DGH declaring red (rules.md R9, A16, A17): the declared colour is named where it, not a match by
    value or suit, decided; A17 where the card matches the D only by suit or value (reading (b) refuses it);
    A16 once a turn of draws only came between (reading (b) takes the printed colour back)."""
    deck = _dealt(["DGH DBS DRC 8YS 8YS 8YS 8YS", "3RD 4GC 4GH DBS 0PQ 7PS 9YQ", "6RS 6GS 6PS 6BS 8YS 8YS 8YS",
                   "8YS 8YS 8YS 8YS 8YS 8YS 8YS"], "5GC", " ".join(["9PQ"] * 8))
    game = Game(deck)
    game.play_move(PlayerMove(Action.PLAY_CARD, card(game, "DGH"), Color.RED))
    game.play_move(PlayerMove(Action.END_TURN))
    assert why(game, Action.PLAY_CARD, "3RD") == (True, ("R5", "R9"))  # red: the declared colour
    assert why(game, Action.PLAY_CARD, "4GC") == (False, ("R5", "R9"))  # green: the printed colour no longer
    assert why(game, Action.PLAY_CARD, "4GH") == (True, ("R5", "R9", "A17"))  # the D's suit
    d_on_d = game.why_valid(PlayerMove(Action.PLAY_CARD, card(game, "DBS"), Color.BLUE))
    assert (d_on_d.value, d_on_d.clauses) == (True, ("R5", "R9", "A17"))  # the D's value
    assert why(game, Action.PLAY_CARD, "0PQ") == (True, ("R5", "A19"))  # a ZERO, whatever is declared
    assert why(game, Action.PLAY_CARD, "7PS") == (False, ("R5",))  # no colour would have let it match
    game.play_move(PlayerMove(Action.DRAW_CARD))
    game.play_move(PlayerMove(Action.END_TURN))
    assert why(game, Action.PLAY_CARD, "6RS") == (True, ("R5", "R9", "A16"))  # a turn of draws came between
    assert why(game, Action.PLAY_CARD, "6GS") == (False, ("R5", "R9", "A16"))
    # Having drawn, a play is A1's (reading (b) still asks for a match: R5); what the match is against is not named
    game.play_move(PlayerMove(Action.DRAW_CARD))
    assert why(game, Action.PLAY_CARD, "6RS") == (False, ("A1",))
    assert why(game, Action.PLAY_CARD, "6GS") == (False, ("A1", "R5"))


def test_a_turned_up_card_is_named_only_where_it_is_special() -> None:
    """R10: a D turned up declares nothing (A18): its printed colour matches; a 2 turned up is active (A12)."""
    game = Game(_dealt(["4GC 9YS 7PC 8YS 8YS 8YS 8YS"] + ["8YS 8YS 8YS 8YS 8YS 8YS 8YS"] * 3, "DGH",
                       " ".join(["9PQ"] * 8)))
    assert why(game, Action.PLAY_CARD, "4GC") == (True, ("R5", "R10", "A18"))  # green, the D's printed colour
    assert why(game, Action.PLAY_CARD, "7PC") == (False, ("R5", "R10", "A18"))
    game = Game(_dealt(["2GC 9YS 7PC 8YS 8YS 8YS 8YS"] + ["8YS 8YS 8YS 8YS 8YS 8YS 8YS"] * 3, "2RH",
                       " ".join(["9PQ"] * 8)))
    assert why(game, Action.PLAY_CARD, "2GC") == (True, ("R7", "A10", "R10", "A12"))
    assert why(game, Action.PLAY_CARD, "9YS") == (False, ("R7", "A11", "A39", "R10", "A12"))


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

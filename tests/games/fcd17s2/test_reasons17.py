"""The 2017 reference says why: every isValidMove answer names the clauses of rules-17s2.md that decided it.

A refusal names its first failing condition, an acceptance its route, with the context it was decided in
(``reference.fcd17s2.Game.why_valid``).  The grader files the reasons with the reference's observations
(``grader.games.fcd.focus.REASONS``, under ``fcd17s2.edition.answer_key``) and charges a difference to the tests
that hold a named clause; 2017's hand-written scopes are gone (``grader.games.fcd17s2.observations``).
"""

from __future__ import annotations

from typing import cast

from grader.games.fcd.focus import REASONS, focus_of, reason_of
from grader.games.fcd.reference_trace import reference_trace
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.observations import ANSWER_SCOPES, SCOPES, TABLE
from grader.games.fcd17s2.scenarios import load_scenarios
from reference.fcd17s2 import Action, Color, Deck, Game, PlayerMove


def deal(p0: str, p1: str, p2: str, p3: str, discard: str, draw: str) -> Deck:
    """A deck dealing these hands (card i to player i mod 4, S2), then the first discard and the draw pile (S3)."""
    hands = [h.split() for h in (p0, p1, p2, p3)]
    return Deck.parse(" ".join([hands[i % 4][i // 4] for i in range(28)] + [discard, draw]))


# matching.toml's deal: on 5GC, 5RH matches by value, 7GS by colour, 3BC by suit, 0YD is a ZERO; 8PQ 9RD 6BH nothing.
MATCHING = deal("5RH 7GS 3BC 0YD 8PQ 9RD 6BH", "5BD 5BD 5BD 5BD 5BD 5BD 5BD", "5YH 7YS 3RD 0BQ 8PQ 8PQ 8PQ",
                "1GH 8PQ 8PQ 8PQ 8PQ 8PQ 8PQ", "5GC", " ".join(["9PQ"] * 10))
# call_outs.toml's deal: player 0 plays CGH CBH BBH (turn 0), player 3 BYH, player 0 7YH (3 cards left, no TRIO).
CALLS = deal("CGH CBH BBH 7YH 2YH 8PQ 8PQ", "BYD 2BD 7BS 8PQ 8PQ 8PQ 8PQ", "7RD 8PQ 8PQ 8PQ 8PQ 8PQ 8PQ",
             "BYH 7GD 8PQ 8PQ 8PQ 8PQ 8PQ", "5GC", "1GS 3GS 4GS 6GS 9GS 1GD 3GD 4GD 6GD 9GD 1GQ 3GQ")


def card(game: Game, label: str):  # noqa: ANN201 - a reference Card of the current hand
    return next(c for c in game.player_hand(game.current_player()) if str(c) == label)


def move(game: Game, token: str) -> PlayerMove:
    return game.resolve(FCD17.parse_move(token))  # type: ignore[arg-type]


def why(game: Game, token: str) -> tuple[bool, tuple[str, ...]]:
    m = move(game, token)
    answer = game.why_valid(m)
    assert answer.value == game.is_valid_move(m)  # the bool is the why_ method's value
    return answer.value, answer.clauses


def play(game: Game, tokens: str) -> Game:
    for t in tokens.split():
        game.play_move(move(game, t))
    return game


def test_a_first_discard_names_the_matching_rule_and_the_start_of_the_turn() -> None:
    game = Game(MATCHING)
    start = ("B57", "S25")  # nothing done yet: isValidMove answers for now and changes nothing (S25, B57)
    assert why(game, "5RH") == (True, ("S8", "B19", *start))  # S8: same value as 5GC
    assert why(game, "3BC") == (True, ("S8", "B19", *start))  # S8: same suit
    assert why(game, "0YD") == (True, ("S8", "B19", *start))  # S8, B19: a ZERO always
    assert why(game, "8PQ") == (False, ("S8", "B19", *start))  # shares nothing with 5GC
    assert why(game, "draw") == (True, ("S10", "B18", *start))  # S10; B18: though holding a playable card
    assert why(game, "end") == (False, ("S6", "B13", *start))  # S6, B13: nothing played or drawn yet
    # S18 / B40: at the start of turn 0 a word is a call-out (S17, B40, B41, B47), wrong on turn 0 (B46)
    assert why(game, "uno") == (True, ("S17", "B40", "B41", "B47", "B46"))


def test_after_a_discard_a_second_one_is_s9s_and_a_draw_b17s() -> None:
    game = play(Game(MATCHING), "5RH")
    assert why(game, "6BH") == (False, ("S9", "B14"))  # S9, B14: 6BH matches 5RH, but no CONTINUE came before
    assert why(game, "0YD") == (False, ("S9", "B14"))  # a ZERO too: it is refused for being a second discard
    assert why(game, "draw") == (False, ("B17",))  # B17 (a): draw or discard, not both (its (b) would allow it)
    assert why(game, "end") == (True, ("S6",))  # S6: a card was discarded
    assert why(game, "duo") == (False, ("S16", "B38", "B39"))  # B38: the hand holds 6 cards, not 2


def test_after_a_draw_a_discard_is_b16s_and_its_other_reading_still_asks_for_a_match() -> None:
    game = play(Game(MATCHING), "draw")
    assert why(game, "5RH") == (False, ("B16",))  # B16 (a); under (b) 5RH would be valid: B16 alone decides
    assert why(game, "8PQ") == (False, ("B16", "S8", "B19"))  # under (b) it does not match 5GC either (S8)
    assert why(game, "draw") == (False, ("S10", "B15"))  # S10, B15: one draw a turn
    assert why(game, "end") == (True, ("S6",))
    assert why(game, "trio") == (False, ("S18", "B38", "B40"))  # B38: no claim after a draw; B40: nor call-out


def test_a_card_of_another_hand_is_refused_for_not_being_in_the_hand() -> None:
    game = Game(MATCHING)
    other = game.player_hand(1)[0]  # 5BD: it would match 5GC on value
    assert game.why_valid(PlayerMove(Action.PLAY_CARD, other)).clauses == ("B19",)


def test_after_a_continue_the_extra_discard_is_s14s_for_a_plain_match() -> None:
    deck = deal("CGC CBC CYC 7YC 0RD 7YS 8PQ", "4BC 7BS 1RD 8PQ 8PQ 8PQ 8PQ", " ".join(["8PQ"] * 7),
                " ".join(["8PQ"] * 7), "5GC", " ".join(["9PQ"] * 10))
    game = play(Game(deck), "CGC")
    assert why(game, "CBC") == (True, ("S8", "B19", "S14", "B31"))  # S14, B31: one more discard, C on C by value
    assert why(game, "7YC") == (True, ("S8", "B19"))  # by suit alone: S8's route, not the CONTINUE's tests
    assert why(game, "0RD") == (True, ("S8", "B19"))  # a ZERO: S8's
    assert why(game, "7YS") == (False, ("S8", "B19"))  # does not match CGC
    assert why(game, "draw") == (False, ("B32",))  # B32 (a): only END_TURN or another discard after a C
    assert why(game, "end") == (True, ("S6",))


def test_a_declaration_names_s15_and_b35_until_covered() -> None:
    deck = deal("DGH DRS 7GS 8PQ 8PQ 8PQ 8PQ", "7BS 0YD 7YD 4RC 3GS 8PQ 8PQ", "1BH 7YS 8PQ 8PQ 8PQ 8PQ 8PQ",
                " ".join(["8PQ"] * 7), "5GC", " ".join(["9PQ"] * 10))
    game = play(Game(deck), "DGH/B end")
    assert why(game, "7BS") == (True, ("S8", "B19", "S15", "B35", "B57", "S25"))  # S15: blue was declared
    assert why(game, "7YD") == (False, ("S8", "B19", "S15", "B35", "B57", "S25"))  # not blue (nor green, hearts)
    assert why(game, "0YD") == (True, ("S8", "B19", "B35", "B57", "S25"))  # B35: a ZERO is valid on a DECLARE
    play(game, "0YD end")
    assert game.declared_color() is None
    # S15: the declaration ended when 0YD covered the DECLARE; 7YS matches 0YD's colour, 1BH (blue) no longer does
    assert why(game, "7YS") == (True, ("S8", "B19", "S15", "B57", "S25"))
    assert why(game, "1BH") == (False, ("S8", "B19", "S15", "B57", "S25"))
    assert game.why_valid(PlayerMove(Action.PLAY_CARD, card(game, "7YS"), Color.RED)).value  # nextColor ignored


def test_facing_a_two_the_reasons_are_the_draw_two_rules() -> None:
    deck = deal("2GH 8PQ 8PQ 8PQ 8PQ 8PQ 8PQ", "2BH 0YS 3GD 8PQ 8PQ 8PQ 8PQ", " ".join(["8PQ"] * 7),
                " ".join(["8PQ"] * 7), "5GH", " ".join(["9PQ"] * 10))
    game = play(Game(deck), "2GH end")
    start = ("B57", "S25")
    assert why(game, "2BH") == (True, ("S11", "B20", "B25", *start))  # B20: a 2 stacks; B25: this player owes
    assert why(game, "0YS") == (False, ("S11", "B21", "B25", *start))  # B21: not even a ZERO
    assert why(game, "3GD") == (False, ("S11", "B21", "B25", *start))  # matches 2GH by colour: still refused
    assert why(game, "draw") == (True, ("S11", "B22", "B23", "B25", *start))  # B22: 2 cards owed for one 2
    assert why(game, "end") == (False, ("S6", "B13", "B23", *start))  # nothing drawn, and 2 cards owed
    play(game, "draw")
    assert why(game, "draw") == (True, ("S11", "B22", "B23"))  # one of the two owed
    assert why(game, "end") == (False, ("B23",))  # B23: not until all are drawn
    assert why(game, "2BH") == (False, ("B24",))  # B24 (a); its (b) would allow a 2 part-way through paying
    assert why(game, "0YS") == (False, ("B24", "S11", "B21"))  # under (b) only a 2: B21 refuses it too
    play(game, "draw")
    assert why(game, "end") == (True, ("S6", "B23"))
    assert why(game, "draw") == (False, ("S11", "B22", "B23"))
    play(game, "end")  # player 2 does not owe for the 2 on top: it is inert (B25)
    assert why(game, "draw") == (True, ("S10", "B18", "B25", *start))
    assert why(game, "8PQ") == (False, ("S8", "B19", "B25", *start))
    play(game, "draw")
    assert why(game, "draw") == (False, ("S10", "B15"))  # B15 decides a second draw, the 2 on top aside


def test_call_outs_and_claims() -> None:
    game = play(Game(CALLS), "CGH CBH")
    assert why(game, "trio") == (False, ("S16", "B38", "B39"))  # 5 cards left after a C: not a TRIO (B38's)
    play(game, "BBH end BYH end 7YH end")
    assert game.current_player() == 1
    start = ("S17", "B40", "B41", "B47")
    assert why(game, "trio") == (True, start)  # S17, B41: valid whether right or wrong
    play(game, "trio")
    assert why(game, "trio") == (False, ("S17", "B40"))  # B40: each word once per turn
    assert why(game, "duo") == (True, start)
    assert why(game, "end") == (False, ("S6", "B13", "B57", "S25", "B45"))  # B45: the penalty is no draw
    assert why(game, "draw") == (True, ("S10", "B18", "B57", "S25", "B45"))


def test_after_the_end_no_move_is_valid() -> None:
    deck = deal("CGC CBC CRC CYC CYH CBH 1BH", " ".join(["8PQ"] * 7), " ".join(["8PQ"] * 7),
                " ".join(["8PQ"] * 7), "5GC", " ".join(["9PQ"] * 10))
    game = play(Game(deck), "CGC CBC CRC CYC CYH CBH")
    assert why(game, "uno") == (True, ("S16", "B38", "B39", "B33"))  # S16: one card left after a C
    play(game, "1BH")
    assert game.game_winner() == 0
    assert why(game, "end") == (False, ("B53",))  # B53: nothing is valid once the game is over
    assert why(game, "draw") == (False, ("B53",))
    assert why(game, "uno") == (False, ("B53", "B49"))  # B49: no word follows the last card


def _named_over_the_scenarios() -> dict[str, set[str]]:
    named: dict[str, set[str]] = {}
    for s in load_scenarios():
        for step in reference_trace(s.deck, s.moves, edition=FCD17):
            for name, answers in cast("dict[str, dict[str, list[str]]]", step.obs[REASONS]).items():
                named.setdefault(name, set()).update(c for clauses in answers.values() for c in clauses)
    return named


def test_every_clause_a_reason_names_is_one_its_row_holds_and_the_scenarios_name_them_all() -> None:
    """A clause a reason names must be one of its row's (``meaning``/``at_start``/``on_moves``), or a test holding it
    could never judge the answer; and the scenarios' answers name every clause of the validity rows but those no
    scenario's state reaches."""
    named = _named_over_the_scenarios()
    assert set(named) == {"valid_play", "valid_foreign", "valid_draw", "valid_say", "valid_end"}
    for name, clauses in named.items():
        assert clauses <= set(TABLE.by_name[name].clauses), (name, clauses - set(TABLE.by_name[name].clauses))
    every = set().union(*named.values())
    rows = set().union(*(TABLE.by_name[n].clauses for n in named))
    # B36 (a declaration across draw-only turns) is named only where no scenario goes: LENIENT, never tested.
    assert rows - every == {"B36"}, rows - every
    assert not SCOPES and not ANSWER_SCOPES  # the reasons say it all


def test_a_test_judges_only_the_answers_its_clauses_decided() -> None:
    """After a discard, matching's tests (S8) no longer judge the refusal of a second card: S9's test does."""
    steps = reference_trace(MATCHING, [FCD17.parse_move("5RH")], edition=FCD17)
    before, after = steps[0].obs, steps[1].obs
    matching, one_discard = focus_of(("S8", "B19"), TABLE), focus_of(("S9", "B14"), TABLE)
    assert reason_of(after, "valid_play", "6BH") == ("S9", "B14")
    assert not matching.covers("valid_play", 1, after, "6BH")
    assert one_discard.covers("valid_play", 1, after, "6BH")
    assert one_discard.covers("valid_play", 1, after, "0YD")  # a ZERO refused as a second discard: S9's too
    assert matching.covers("valid_play", 0, before, "5RH")  # before it, S8 decided: matching judges
    assert not one_discard.covers("valid_play", 0, before, "5RH")
    assert reason_of(after, "valid_say", "duo") == ("S16", "B38", "B39")
    claims, call_outs = focus_of(("S16", "B38"), TABLE), focus_of(("B40",), TABLE)
    assert claims.covers("valid_say", 1, after, "duo") and not call_outs.covers("valid_say", 1, after, "duo")
    assert call_outs.covers("valid_say", 0, before, "uno") and not claims.covers("valid_say", 0, before, "uno")


def test_after_the_discard_a_continue_allowed_another_is_s14s_too() -> None:
    """continue.toml's one_more_discard_only: after CGC then 7YC, a third discard is refused by S9 and B14, and
    by S14 (a CONTINUE allows one more discard, not more), so the CONTINUE's test judges it as well."""
    game = play(Game(deal("CGC CBC CYC 7YC 0RD 7YS 8PQ", "4BC 7BS 1RD 8PQ 8PQ 8PQ 8PQ", " ".join(["8PQ"] * 7),
                          " ".join(["8PQ"] * 7), "5GC", " ".join(["9PQ"] * 10))), "CGC")
    assert why(game, "7YC")[0] is True  # the discard the CONTINUE allows, on CGC by suit
    play(game, "7YC")
    assert why(game, "7YS") == (False, ("S9", "B14", "S14"))  # matches 7YC, but the one more discard is made
    assert why(game, "0RD") == (False, ("S9", "B14", "S14"))

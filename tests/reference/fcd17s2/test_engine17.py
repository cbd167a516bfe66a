"""B1, S23-S26: the 2017 engine as an API -- every Game.h v1.2.1 (2017) function, the enums, the errors."""

from __future__ import annotations

import pytest
from decks17 import DRAW, END, game, play

from reference.cards import Value
from reference.fcd17s2 import (
    DEALT,
    GAME_H_FUNCTIONS,
    MIN_DECK,
    NO_WINNER,
    NOT_FINISHED,
    NUM_PLAYERS,
    VALUE_NAMES,
    Action,
    Deck,
    Direction,
    IllegalMoveError,
    InvalidMoveError,
    MoveSpec,
    PlayerMove,
    new_game,
)

# rules-17s2.md §1.3: the 20 functions of Game.h v1.2.1 (2017 text), in declaration order.
DECLARED = ["newGame", "destroyGame", "numCards", "numOfSuit", "numOfColor", "numOfValue", "currentPlayer",
            "currentTurn", "playerPoints", "playDirection", "topDiscard", "numTurns", "turnMoves", "pastMove",
            "playerCardCount", "handCardCount", "handCard", "isValidMove", "playMove", "gameWinner"]


def snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() else ch for ch in name)


def test_B1_the_2017_header_functions_in_declaration_order() -> None:
    """B1: grade against Game.h v1.2.1 (2017): 20 functions, topDiscard after playDirection."""
    assert list(GAME_H_FUNCTIONS) == DECLARED


def test_B1_every_function_has_a_snake_case_counterpart() -> None:
    """B1/S23-S26: newGame is ``new_game``; the other 19 are methods of Game."""
    g = game(top="5RH")
    assert callable(new_game)
    missing = [name for name in GAME_H_FUNCTIONS[1:] if not callable(getattr(g, snake(name), None))]
    assert missing == []


def test_B1_enums_and_constants_of_the_2017_headers() -> None:
    """B1 (§1.1, §1.2): action 0..5 with END_TURN 5; direction 0, 1; values 10-13 named ADVANCE..DECLARE."""
    assert [(a.name, int(a)) for a in Action] == [
        ("DRAW_CARD", 0), ("PLAY_CARD", 1), ("SAY_UNO", 2), ("SAY_DUO", 3), ("SAY_TRIO", 4), ("END_TURN", 5)]
    assert (int(Direction.CLOCKWISE), int(Direction.ANTICLOCKWISE)) == (0, 1)
    assert (NUM_PLAYERS, NOT_FINISHED, NO_WINNER) == (4, -1, 4)
    assert VALUE_NAMES[10:14] == ("ADVANCE", "BACKWARDS", "CONTINUE", "DECLARE")
    assert VALUE_NAMES.index("DRAW_TWO") == Value.DRAW_TWO and len(VALUE_NAMES) == len(Value) == 16
    assert (DEALT, MIN_DECK) == (28, 29)


def test_S23_new_game_from_arrays_equals_game_from_a_deck() -> None:
    """S2/S23: the module function takes the three parallel arrays of newGame."""
    deck = Deck.parse("1RH " * 28 + "5GC 9PQ")
    g = new_game(deck.values, deck.colors, deck.suits)
    assert g.num_cards() == 30 and str(g.top_discard()) == "5GC"
    assert g.destroy_game() is None


def test_S26_B58_errors_split_by_cause() -> None:
    """B58 (reference): an unknown action or a PLAY_CARD without a card is malformed (InvalidMoveError);
    a well-formed move the rules refuse is illegal (IllegalMoveError); both are ValueErrors."""
    g = game(top="5RH", draw="EYD")
    with pytest.raises(InvalidMoveError):
        g.play_move(PlayerMove(9))  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        g.play_move(PlayerMove(Action.PLAY_CARD))
    with pytest.raises(IllegalMoveError):
        g.play_move(END)
    with pytest.raises(IllegalMoveError):
        g.resolve(MoveSpec.parse("5RH"))  # player 0 holds no 5RH
    assert issubclass(InvalidMoveError, ValueError) and issubclass(IllegalMoveError, ValueError)
    assert not g.is_valid_move(PlayerMove(9))  # type: ignore[arg-type]


def test_S24_B59_handCard_past_the_end_is_None_in_the_reference() -> None:
    """B59 (LENIENT: undefined in C): the reference answers None, and 0 for a player that does not exist."""
    g = game(top="5RH")
    assert g.hand_card(7) is None and g.hand_card(-1) is None
    assert g.player_card_count(4) == 0 and g.player_points(-1) == 0


def test_S21_outcome_is_None_until_the_game_ends() -> None:
    """S21: outcome() is None while gameWinner is NOT_FINISHED."""
    g = game(top="5RH", draw="EYD")
    assert g.outcome() is None
    play(g, "draw end")
    assert g.outcome() is None and g.game_winner() == NOT_FINISHED
    g.play_move(DRAW)  # player 1 finds nothing to draw (B55)
    assert g.outcome() is not None and g.outcome().game_winner == NO_WINNER


def test_describe_names_the_direction_the_top_and_the_moves_so_far() -> None:
    """The failure-message picture (not a rule): one line per fact."""
    g = game("DRH", top="5RH", draw="EYD")
    play(g, "DRH/G")
    text = g.describe()
    assert "turn 0, player 0 to move, clockwise, moves so far: DRH/G" in text
    assert "top discard DRH, declared G" in text

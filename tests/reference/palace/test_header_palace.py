"""PalaceCard.h and Palace.h constants, enums and function lists (rules-palace.md §1.1, §1.2)."""

from __future__ import annotations

import reference.palace as palace
from reference.palace import (
    CARD_H_FUNCTIONS,
    HAND_DEAL,
    MAX_PLAYERS,
    MAX_SET,
    MIN_PLAYERS,
    NOT_FINISHED,
    PALACE_H_FUNCTIONS,
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    RULES_BASIC,
    TABLE_CARDS,
    Action,
    Phase,
    Rank,
    Suit,
    min_deck,
)
from reference.palace.header import PLAYER_CALLABLE, RUNNER_ONLY


def test_C3_rank_enum_values_two_to_ace() -> None:
    """C3: TWO=2 ... TEN=10, JACK=11, QUEEN=12, KING=13, ACE=14, compared by number."""
    assert [r.value for r in Rank] == list(range(2, 15))
    assert (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE) == (10, 11, 12, 13, 14)
    assert Rank.TWO < Rank.THREE < Rank.KING < Rank.ACE


def test_C3_suit_phase_action_enum_values() -> None:
    """§1.1, §1.2: HEARTS..SPADES = 0..3; SETUP_PHASE, PLAY_PHASE, GAME_OVER = 0..2; actions 0..3."""
    assert [(s.name, s.value) for s in Suit] == [("HEARTS", 0), ("DIAMONDS", 1), ("CLUBS", 2), ("SPADES", 3)]
    assert [(p.name, p.value) for p in Phase] == [("SETUP_PHASE", 0), ("PLAY_PHASE", 1), ("GAME_OVER", 2)]
    assert [(a.name, a.value) for a in Action] == [
        ("CHOOSE_FACE_UP", 0), ("PLAY_CARDS", 1), ("PLAY_FACE_DOWN", 2), ("PICK_UP_PILE", 3)]


def test_C2_C7_macros() -> None:
    """§1.2 macros; C7: a deck needs 9·nPlayers + 1 cards."""
    assert (MIN_PLAYERS, MAX_PLAYERS, HAND_DEAL, TABLE_CARDS, MAX_SET, NOT_FINISHED) == (2, 5, 6, 3, 8, -1)
    assert (RULES_BASIC, RULE_MIRROR_THREE, RULE_SEVEN_LOWER) == (0, 1, 2)
    assert (palace.FALSE, palace.TRUE) == (0, 1)
    assert [min_deck(n) for n in range(2, 6)] == [19, 28, 37, 46]


def test_C44_function_lists_in_header_order() -> None:
    """§1.6 sizes: PalaceCard.h 4 functions; Palace.h 28 = 2 lifecycle + 21 player-callable + 5 runner/test (C44)."""
    assert CARD_H_FUNCTIONS == ("newCard", "destroyCard", "cardRank", "cardSuit")
    assert len(PALACE_H_FUNCTIONS) == len(set(PALACE_H_FUNCTIONS)) == 28
    assert PALACE_H_FUNCTIONS[:3] == ("newGame", "destroyGame", "numPlayers")
    assert len(PLAYER_CALLABLE) == 21 and PLAYER_CALLABLE[-1] == "isValidMove"
    assert RUNNER_ONLY == ("playMove", "gameWinner", "getHandCard", "getFaceDownCard", "getDeckCard")


def test_C44_every_palace_h_function_has_a_method() -> None:
    """One method per Palace.h function, in snake_case (newGame is the constructor / new_game)."""
    import re

    for name in PALACE_H_FUNCTIONS[1:]:
        snake = re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()
        assert callable(getattr(palace.Game, snake)), snake
    assert callable(palace.new_game)

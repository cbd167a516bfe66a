"""PalaceCard.h and Palace.h (rules-palace.md §1.1, §1.2): the interface facts, exactly.

Enum values and macro values are those of the C headers; the function tuples
list the C names in declaration order.  Nothing here depends on a game.
"""

from __future__ import annotations

from enum import IntEnum

# ---- Palace.h macros (§1.2) ----------------------------------------------------------
MIN_PLAYERS = 2
MAX_PLAYERS = 5
HAND_DEAL = 6  # cards dealt to each hand (P2, C2)
TABLE_CARDS = 3  # face-down cards per seat, and face-up cards chosen (P2, P3)
MAX_SET = 8  # the most cards one move may name; no rank more often in a deck (C7)
NOT_FINISHED = -1

RULES_BASIC = 0
RULE_MIRROR_THREE = 1
RULE_SEVEN_LOWER = 2

FALSE = 0
TRUE = 1

# Derived, not in the header: what one seat is dealt, and the smallest deck newGame accepts (§1.3).
DEALT_PER_SEAT = HAND_DEAL + TABLE_CARDS  # 9


def min_deck(n_players: int) -> int:
    """``9·nPlayers + 1``: the deal plus the starting card (§1.3, C7)."""
    return DEALT_PER_SEAT * n_players + 1


# ---- PalaceCard.h enums (§1.1) ---------------------------------------------------------
class Rank(IntEnum):
    """``rank``: TWO=2 … ACE=14; ranks compare by this number (C3)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14


class Suit(IntEnum):
    """``suit``: never affects play; tells twins apart for people."""

    HEARTS = 0
    DIAMONDS = 1
    CLUBS = 2
    SPADES = 3


# ---- Palace.h enums (§1.2) ---------------------------------------------------------------
class Phase(IntEnum):
    """``phase``."""

    SETUP_PHASE = 0
    PLAY_PHASE = 1
    GAME_OVER = 2


class Action(IntEnum):
    """``action`` of a ``playerMove``."""

    CHOOSE_FACE_UP = 0
    PLAY_CARDS = 1
    PLAY_FACE_DOWN = 2
    PICK_UP_PILE = 3


# ---- the functions, in declaration order -------------------------------------------------
CARD_H_FUNCTIONS = ("newCard", "destroyCard", "cardRank", "cardSuit")

PALACE_H_FUNCTIONS = (
    # lifecycle
    "newGame", "destroyGame",
    # player-callable (decideMove and tests)
    "numPlayers", "numCards", "gameRules", "currentPhase", "currentPlayer", "currentTurn",
    "handCardCount", "handCard", "playerCardCount", "faceUpCount", "faceUpCard", "faceDownCount",
    "drawPileSize", "discardPileSize", "topDiscard", "getDiscardPileCard", "burntCount", "getBurntCard",
    "effectiveTopRank", "sevenRestriction", "isValidMove",
    # runner and tests only (C44)
    "playMove", "gameWinner", "getHandCard", "getFaceDownCard", "getDeckCard",
)
PLAYER_CALLABLE = PALACE_H_FUNCTIONS[2:23]
RUNNER_ONLY = PALACE_H_FUNCTIONS[23:]

__all__ = [
    "CARD_H_FUNCTIONS", "DEALT_PER_SEAT", "FALSE", "HAND_DEAL", "MAX_PLAYERS", "MAX_SET", "MIN_PLAYERS",
    "NOT_FINISHED", "PALACE_H_FUNCTIONS", "PLAYER_CALLABLE", "RULES_BASIC", "RULE_MIRROR_THREE",
    "RULE_SEVEN_LOWER", "RUNNER_ONLY", "TABLE_CARDS", "TRUE", "Action", "Phase", "Rank", "Suit", "min_deck",
]

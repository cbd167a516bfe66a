"""The reference engine for Palace (seed 004, rules-palace.md): the oracle of the Palace edition.

    >>> from reference.palace import Game, Setup
    >>> game = Game(Setup.parse("2p basic: " + "5H 6D 7C " * 6 + "4C 9S*3"))
    >>> game.current_phase().name, game.hand_card_count(), repr(game.top_discard()), game.draw_pile_size()
    ('SETUP_PHASE', 6, '4C@18', 3)
    >>> game.play_move(game.resolve("up:5H,6D,7C"))
    >>> game.current_player(), game.current_turn(), [repr(c) for c in game.face_up(0)]
    (1, 1, ['5H@0', '6D@4', '7C@2'])

Modules: ``header`` (PalaceCard.h, Palace.h), ``cards`` (Card, Setup and their notation), ``moves``
(PlayerMove, MoveSpec and the move notation), ``readings`` (the four LENIENT switches), ``game`` (the
state machine), ``rulings`` (the C1-C47 table), ``errors``.
"""

from ..game import Outcome, Termination
from .cards import NO_IDENT, Card, CardKey, Setup, format_cards, parse_cards, standard_deck
from .errors import DeckError, GameError, IllegalMoveError, MalformedMoveError, NotationError
from .game import Game, new_game
from .header import (
    CARD_H_FUNCTIONS,
    DEALT_PER_SEAT,
    FALSE,
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
    TRUE,
    Action,
    Phase,
    Rank,
    Suit,
    min_deck,
)
from .moves import CardRef, Move, MoveSpec, PlayerMove, format_moves, parse_moves
from .readings import REFERENCE, SWITCHES, Readings
from .rulings import BY_ID, LENIENT_IDS, OBSERVATIONS, RULINGS, STRICT_IDS, SWITCH_IDS, Ruling, switch_matters_now

__all__ = [
    "BY_ID", "CARD_H_FUNCTIONS", "DEALT_PER_SEAT", "FALSE", "HAND_DEAL", "LENIENT_IDS", "MAX_PLAYERS", "MAX_SET",
    "MIN_PLAYERS", "NOT_FINISHED", "NO_IDENT", "OBSERVATIONS", "PALACE_H_FUNCTIONS", "REFERENCE", "RULES_BASIC",
    "RULE_MIRROR_THREE", "RULE_SEVEN_LOWER", "RULINGS", "STRICT_IDS", "SWITCHES", "SWITCH_IDS", "TABLE_CARDS",
    "TRUE", "Action", "Card", "CardKey", "CardRef", "DeckError", "Game", "GameError", "IllegalMoveError",
    "MalformedMoveError", "Move", "MoveSpec", "NotationError", "Outcome", "Phase", "PlayerMove", "Rank",
    "Readings", "Ruling", "Setup", "Suit", "Termination", "format_cards", "format_moves", "min_deck", "new_game",
    "parse_cards", "parse_moves", "standard_deck", "switch_matters_now",
]

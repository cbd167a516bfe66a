"""Observations of a 2018 game: the family's observer (``grader.games.fcd.sandbox.observe``) over the 2018
table and interface, and the call in progress in a student's words."""

from __future__ import annotations

from typing import Sequence

from grader.games.fcd.sandbox import observe as family
from grader.games.fcd.sandbox.notation import PlayerMove, actions
from grader.games.fcd18s2.sandbox.interface import API, API_FUNCTIONS
from grader.games.fcd18s2.sandbox.observations import ORDER, ROWS

Action = actions(API)  # DRAW_CARD, PLAY_CARD, END_TURN: Game.h's
PROBE_IDS = {name: i for i, name in enumerate(ORDER)}
CALL_IDS = {name: i for i, name in enumerate(API_FUNCTIONS)}
INT_PROBES = family.int_probes(ROWS)
DECK_COUNT_PROBES = family.deck_count_probes(ROWS)
PILE_PROBES = family.pile_probes(ROWS)


class Observer(family.Observer):
    """Observes one 2018 game (the family's observer with 2018's probes)."""

    probe_ids = PROBE_IDS
    call_ids = CALL_IDS
    int_probes = INT_PROBES
    deck_count_probes = DECK_COUNT_PROBES
    pile_probes = PILE_PROBES
    player_move = PlayerMove
    actions = Action


def describe_call(probe: int, call: int, a: int, b: int, moves: Sequence[object] = (), step: int = 0) -> str:
    """The call in progress, as a student would write it: ``handCard(7) with 7 cards in hand``."""
    name = family.call_outside_the_probes(probe, call, a, b, moves, API_FUNCTIONS)
    if name is None or not name.isidentifier():
        return name or "an API call"
    if name == "handCard":
        return f"handCard({a})" + (f" with {b} cards in hand" if probe == PROBE_IDS["hand_end_null"] else "")
    if name == "getHandCard":
        return f"getHandCard({a}, {b})"
    if name in ("getDeckCard", "getDiscardPileCard"):
        return f"{name}({a})"
    if name == "isValidMove":
        if a < 0:
            return f"isValidMove({('DRAW_CARD', 'PLAY_CARD', 'END_TURN')[-1 - a] if -4 < a < 0 else a})"
        if a >= 100:
            return f"isValidMove(PLAY_CARD with the first card of player {a - 100})"
        return f"isValidMove(PLAY_CARD handCard({a}))"
    if name in ("numOfSuit", "numOfColor", "numOfValue", "playerCardCount", "playerPoints"):
        return f"{name}({a})"
    return f"{name}()"


def probe_name(probe: int) -> str | None:
    """The observation a probe number stands for; None for newGame, playMove and the like."""
    return family.probe_name(probe, ORDER)

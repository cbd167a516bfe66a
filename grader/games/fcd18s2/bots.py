"""Baseline players of Final Card-Down (2018), on the trusted side: each a policy choosing one of the
reference's legal moves (the game runner never lets a baseline make an illegal one).

- ``random``: any legal move, uniformly.
- ``greedy``: attacked by 2s, answers with a 2 if it can; otherwise plays its highest-value playable card
  (a D declaring the colour it holds most of); with nothing to play, draws, then ends the turn.
- ``cautious``: keeps its 2s for defence and its Ds for when nothing else plays; plays its lowest-value
  playable card, so the high cards go last only if the game is long; draws, then ends the turn.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable

from reference import Game
from reference.cards import Color, Value
from reference.moves import Action, PlayerMove

Policy = Callable[[Game, list[PlayerMove], random.Random], PlayerMove]


def _plays(legal: list[PlayerMove]) -> list[PlayerMove]:
    return [m for m in legal if m.action == Action.PLAY_CARD]


def _pass(legal: list[PlayerMove]) -> PlayerMove:
    """Draw if it may, else end the turn (the only other moves there are)."""
    for action in (Action.DRAW_CARD, Action.END_TURN):
        for m in legal:
            if m.action == action:
                return m
    return legal[0]


def _colour_held_most(game: Game, played: PlayerMove) -> Color:
    hand = [game.hand_card(i) for i in range(game.hand_card_count())]
    counts = Counter(c.color for c in hand if c is not None and c is not played.card)
    return max(Color, key=lambda col: (counts[col], -int(col)))


def _declaring_best(game: Game, legal: list[PlayerMove], card_move: PlayerMove) -> PlayerMove:
    if card_move.card is not None and card_move.card.value == Value.D:
        best = _colour_held_most(game, card_move)
        return next(m for m in legal if m.card is card_move.card and m.next_color == best)
    return card_move


def random_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    return rng.choice(legal)


def _two_answering(game: Game, plays: list[PlayerMove]) -> PlayerMove | None:
    """A 2 to play on the 2s the player faces, if it faces any and holds one."""
    if game.get_active_draw_twos() > 0:
        return next((m for m in plays if m.card is not None and m.card.value == Value.DRAW_TWO), None)
    return None


def greedy_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    plays = _plays(legal)
    if (two := _two_answering(game, plays)) is not None:
        return two
    if plays:
        best = max(plays, key=lambda m: int(m.card.value) if m.card is not None else -1)
        return _declaring_best(game, legal, best)
    return _pass(legal)


def cautious_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    plays = _plays(legal)
    if (two := _two_answering(game, plays)) is not None:
        return two
    plain = [m for m in plays if m.card is not None and m.card.value not in (Value.DRAW_TWO, Value.D)]
    if plain:
        return min(plain, key=lambda m: int(m.card.value) if m.card is not None else 99)
    wild = [m for m in plays if m.card is not None and m.card.value == Value.D]
    if wild:
        return _declaring_best(game, legal, wild[0])
    return _pass(legal) if any(m.action != Action.PLAY_CARD for m in legal) else plays[0]


BOTS: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "cautious": cautious_policy}

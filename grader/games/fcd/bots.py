"""What the baselines of both Final Card-Down editions do alike (each edition's ``bots`` holds its policies, and
what only its turn has: 2017's claims and call-outs): answer 2s with a 2; discard greedily (the highest value) or
cautiously (the lowest, keeping 2s and Ds), a D declaring the colour held most; else draw, then end the turn.

Written over either edition's reference ``Game`` and ``PlayerMove``: their cards' values and colours are the
family's (``reference.cards``); the actions are each edition's own enum (2017's END_TURN is 5, 2018's 2), so a
helper that picks by action is given the edition's ``Action`` (``Actions``).  On the trusted side.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Protocol, TypeVar

from grader.games.fcd.sandbox.observe import Actions
from reference.cards import Card, Color, Value


class BotMove(Protocol):
    """A legal move of either edition's reference (its ``PlayerMove``), as the baselines read it."""

    @property
    def action(self) -> int: ...

    @property
    def card(self) -> Card | None: ...

    @property
    def next_color(self) -> Color | None: ...


class BotGame(Protocol):
    """What the shared helpers read of either edition's reference ``Game``: the current hand."""

    def hand_card(self, index: int) -> Card | None: ...

    def hand_card_count(self) -> int: ...


M = TypeVar("M", bound=BotMove)


def plays(legal: list[M], actions: Actions) -> list[M]:
    """The legal moves that play a card."""
    return [m for m in legal if m.action == actions.PLAY_CARD]


def card_value(move: BotMove) -> int:
    """The value of the card a move plays (-1 for none), to rank plays by."""
    return int(move.card.value) if move.card is not None else -1


def pass_move(legal: list[M], actions: Actions) -> M:
    """Draw if it may, else end the turn; a player who may do neither (facing a 2 it must pay, in 2017) has a draw,
    the first legal move."""
    for action in (actions.DRAW_CARD, actions.END_TURN):
        for m in legal:
            if m.action == action:
                return m
    return legal[0]


def two_answering(plays: list[M], attacked: bool) -> M | None:
    """A 2 to play on the 2s the player faces (``attacked``: it faces some), if it holds one."""
    if attacked:
        return next((m for m in plays if m.card is not None and m.card.value == Value.DRAW_TWO), None)
    return None


def colour_held_most(game: BotGame, played: BotMove) -> Color:
    """The colour the hand holds most of, but for the card played (the lowest such colour on a tie)."""
    hand = [game.hand_card(i) for i in range(game.hand_card_count())]
    counts = Counter(c.color for c in hand if c is not None and c is not played.card)
    return max(Color, key=lambda col: (counts[col], -int(col)))


def declaring_best(game: BotGame, legal: list[M], card_move: M) -> M:
    """``card_move``, declaring the colour held most if its card is a D."""
    if card_move.card is not None and card_move.card.value == Value.D:
        best = colour_held_most(game, card_move)
        return next(m for m in legal if m.card is card_move.card and m.next_color == best)
    return card_move


def greedy_discard(game: BotGame, legal: list[M], actions: Actions) -> M:
    """The highest-value play (a D declaring the colour held most), else a pass."""
    playing = plays(legal, actions)
    if playing:
        return declaring_best(game, legal, max(playing, key=card_value))
    return pass_move(legal, actions)


def cautious_discard(game: BotGame, legal: list[M], actions: Actions) -> M:
    """The lowest-value play that is neither a 2 nor a D, else a D (declaring the colour held most), else a pass;
    with no pass, a play of a 2 (or the first legal move)."""
    playing = plays(legal, actions)
    plain = [m for m in playing if m.card is not None and m.card.value not in (Value.DRAW_TWO, Value.D)]
    if plain:
        return min(plain, key=card_value)
    wild = [m for m in playing if m.card is not None and m.card.value == Value.D]
    if wild:
        return declaring_best(game, legal, wild[0])
    moves = [m for m in legal if m.action in (actions.DRAW_CARD, actions.END_TURN)]
    return pass_move(moves, actions) if moves else (playing or legal)[0]


def random_policy(game: object, legal: list[M], rng: random.Random) -> M:
    """Any legal move, uniformly."""
    return rng.choice(legal)

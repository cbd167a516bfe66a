"""Baseline players of Final Card-Down (2017), on the trusted side: each a policy choosing one of the 2017
reference's legal moves (the game runner never lets a baseline make an illegal one).

The 2017 turn has more to it than 2018's (rules-17s2.md S7): call-outs at its start, a claim after a discard, a
further discard after a CONTINUE.  The baselines differ in how much of it they use:

- ``random``: any legal move, uniformly -- wrong call-outs (and their penalty) included.
- ``greedy``: claims its own count after a discard, calls the previous player out when the call is right
  (what that player's turn showed: ``unclaimed_counts``); attacked by 2s, answers with a 2 if it can; otherwise
  plays its highest-value playable card (a D declaring the colour it holds most of), and after a C goes on
  discarding while it can; with nothing to play, draws, then ends the turn.
- ``cautious``: claims its own count but never calls anyone out; keeps its 2s for defence and its Ds for when
  nothing else plays; plays its lowest-value playable card, and after a C ends the turn rather than discard
  again; draws, then ends the turn.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable

from reference.fcd17s2 import SAYS, Action, Color, Game, PlayerMove, Value
from reference.fcd17s2.moves import SAID_COUNT

Policy = Callable[[Game, list[PlayerMove], random.Random], PlayerMove]


def _plays(legal: list[PlayerMove]) -> list[PlayerMove]:
    return [m for m in legal if m.action == Action.PLAY_CARD]


def _value(move: PlayerMove) -> int:
    return int(move.card.value) if move.card is not None else -1


def _pass(legal: list[PlayerMove]) -> PlayerMove:
    """Draw if it may, else end the turn; a player who may do neither (facing a 2 it must pay) has a draw."""
    for action in (Action.DRAW_CARD, Action.END_TURN):
        for m in legal:
            if m.action == action:
                return m
    return legal[0]


def _claim(game: Game, legal: list[PlayerMove]) -> PlayerMove | None:
    """The claim of its own count, right after its discard (the only SAY_* legal there is the right one)."""
    if game.calls_only_so_far():
        return None
    return next((m for m in legal if m.action in SAYS), None)


def _right_call_out(game: Game, legal: list[PlayerMove]) -> PlayerMove | None:
    """A call-out of the previous player that is right: a count their turn's discards left unclaimed (B42)."""
    turn = game.current_turn()
    if turn == 0 or not game.calls_only_so_far():
        return None
    missed = game.unclaimed_counts(turn - 1)
    return next((m for m in legal if m.action in SAYS and SAID_COUNT[m.action] in missed), None)


def _colour_held_most(game: Game, played: PlayerMove) -> Color:
    hand = [game.hand_card(i) for i in range(game.hand_card_count())]
    counts = Counter(c.color for c in hand if c is not None and c is not played.card)
    return max(Color, key=lambda col: (counts[col], -int(col)))


def _declaring_best(game: Game, legal: list[PlayerMove], card_move: PlayerMove) -> PlayerMove:
    if card_move.card is not None and card_move.card.value == Value.D:
        best = _colour_held_most(game, card_move)
        return next(m for m in legal if m.card is card_move.card and m.next_color == best)
    return card_move


def _two_answering(game: Game, plays: list[PlayerMove]) -> PlayerMove | None:
    """A 2 to play on the 2s the player faces, if it faces any and holds one."""
    if game.owed_cards() > 0:
        return next((m for m in plays if m.card is not None and m.card.value == Value.DRAW_TWO), None)
    return None


def random_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    return rng.choice(legal)


def greedy_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    said = _claim(game, legal) or _right_call_out(game, legal)
    if said is not None:
        return said
    plays = _plays(legal)
    if (two := _two_answering(game, plays)) is not None:
        return two
    if plays:
        return _declaring_best(game, legal, max(plays, key=_value))
    return _pass(legal)


def cautious_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    if (claim := _claim(game, legal)) is not None:
        return claim
    plays = _plays(legal)
    if (two := _two_answering(game, plays)) is not None:
        return two
    if game.discards_this_turn() and any(m.action == Action.END_TURN for m in legal):
        return next(m for m in legal if m.action == Action.END_TURN)  # one discard a turn, even after a C
    plain = [m for m in plays if m.card is not None and m.card.value not in (Value.DRAW_TWO, Value.D)]
    if plain:
        return min(plain, key=_value)
    wild = [m for m in plays if m.card is not None and m.card.value == Value.D]
    if wild:
        return _declaring_best(game, legal, wild[0])
    moves = [m for m in legal if m.action in (Action.DRAW_CARD, Action.END_TURN)]
    return _pass(moves) if moves else (plays or legal)[0]


BOTS: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "cautious": cautious_policy}

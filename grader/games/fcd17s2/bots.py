"""Baseline players of Final Card-Down (2017), on the trusted side: each a policy choosing one of the 2017
reference's legal moves (the game runner never lets a baseline make an illegal one); how they discard and pass
is the family's (``grader.games.fcd.bots``), as 2018's do.

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
from typing import Callable

from grader.games.fcd.bots import cautious_discard, greedy_discard, plays, random_policy, two_answering
from reference.fcd17s2 import SAYS, Action, Game, PlayerMove
from reference.fcd17s2.moves import SAID_COUNT

Policy = Callable[[Game, list[PlayerMove], random.Random], PlayerMove]


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


def _two_answering(game: Game, legal: list[PlayerMove]) -> PlayerMove | None:
    """A 2 to play on the 2s the player faces, if it faces any and holds one."""
    return two_answering(plays(legal, Action), game.owed_cards() > 0)


def greedy_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    return (_claim(game, legal) or _right_call_out(game, legal) or _two_answering(game, legal)
            or greedy_discard(game, legal, Action))


def cautious_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    if (said := _claim(game, legal) or _two_answering(game, legal)) is not None:
        return said
    if game.discards_this_turn() and any(m.action == Action.END_TURN for m in legal):
        return next(m for m in legal if m.action == Action.END_TURN)  # one discard a turn, even after a C
    return cautious_discard(game, legal, Action)


BOTS: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "cautious": cautious_policy}

"""Baseline players of Final Card-Down (2018), on the trusted side: each a policy choosing one of the
reference's legal moves (the game runner never lets a baseline make an illegal one); how they discard and pass
is the family's (``grader.games.fcd.bots``), as 2017's do.

- ``random``: any legal move, uniformly.
- ``greedy``: attacked by 2s, answers with a 2 if it can; otherwise plays its highest-value playable card
  (a D declaring the colour it holds most of); with nothing to play, draws, then ends the turn.
- ``cautious``: keeps its 2s for defence and its Ds for when nothing else plays; plays its lowest-value
  playable card, so the high cards go last only if the game is long; draws, then ends the turn.
"""

from __future__ import annotations

import random
from typing import Callable

from grader.games.fcd.bots import cautious_discard, greedy_discard, plays, random_policy, two_answering
from reference import Game
from reference.moves import Action, PlayerMove

Policy = Callable[[Game, list[PlayerMove], random.Random], PlayerMove]


def _two_answering(game: Game, legal: list[PlayerMove]) -> PlayerMove | None:
    """A 2 to play on the 2s the player faces, if it faces any and holds one."""
    return two_answering(plays(legal, Action), game.get_active_draw_twos() > 0)


def greedy_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    return _two_answering(game, legal) or greedy_discard(game, legal, Action)


def cautious_policy(game: Game, legal: list[PlayerMove], rng: random.Random) -> PlayerMove:
    return _two_answering(game, legal) or cautious_discard(game, legal, Action)


BOTS: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "cautious": cautious_policy}

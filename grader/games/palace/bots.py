"""Palace baselines: the players a student's decideMove is measured against.

- ``random``: any legal move, but a play four times in five when one is possible (uniform play picks
  up the pile so often that games run to thousands of moves, rules-palace.md §4.4).
- ``greedy``: the common strategy: lay the strongest cards face up (tens, twos, then the highest),
  play the lowest playable ordinary rank with every copy held, keep twos and tens for when nothing
  else goes, turn face-down cards left to right, pick the pile up only when nothing can be played.

Each is ``policy(game, legal moves, rng) -> move`` over the reference game (``reference.palace``).
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from reference.palace import Action, Game, PlayerMove, Rank

_SPECIAL = {Rank.TWO: 20, Rank.TEN: 21}  # how much a card is worth keeping for later
Policy = Callable[[Game, Sequence[PlayerMove], random.Random], PlayerMove]


def _strength(rank: int) -> int:
    return _SPECIAL.get(Rank(rank), rank)


def _ranks(move: PlayerMove) -> list[int]:
    """The ranks of a legal move's cards (a legal move names no NULL entry)."""
    return [c.rank for c in move.cards if c is not None]


def random_policy(game: Game, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
    plays = [m for m in legal if m.action != Action.PICK_UP_PILE]
    if plays and (len(plays) == len(legal) or rng.random() < 0.8):
        return rng.choice(plays)
    return rng.choice(list(legal))


def greedy_policy(game: Game, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:  # noqa: ARG001
    first = legal[0]
    if first.action == Action.CHOOSE_FACE_UP:  # the three strongest face up, for the end of the game
        return max(legal, key=lambda m: sorted((_strength(r) for r in _ranks(m)), reverse=True))
    sets = [m for m in legal if m.action == Action.PLAY_CARDS]
    if sets:
        # the weakest rank that goes, with as many copies as allowed (a bigger set sheds more cards)
        return min(sets, key=lambda m: (_strength(_ranks(m)[0]), -len(m.cards)))
    blind = [m for m in legal if m.action == Action.PLAY_FACE_DOWN]
    if blind:
        return blind[0]
    return first  # only the pile is left to take


BOTS: dict[str, Policy] = {
    "random": random_policy, "greedy": greedy_policy,
}

"""Several games in one sandboxed child, where a verdict still comes from a game played alone.

A fresh child per game is the isolation principle, but a fork, a library load and a round trip per
game cost far more than a game itself.  So games can be played several to a child (a *batch*), each
from its own newGame, and a batch is trusted for one thing only: a game whose observations came back
exactly the reference's, to its end, passes.  Every other game of the batch -- one that differed,
crashed or hung, and every game after a crash or a hang, which never ran -- is played again ALONE in
a fresh child, by the game's usual path, and that run gives its verdict.  A batch can spare work; it
never decides against a submission.

A game that passes alone after it did not in a batch depends on what an earlier game left in the
process (a static or global variable that newGame does not set again, memory read after it was freed
or before it was set, memory never freed).  The rules say nothing of several games in one process, so
that is a note (``kept_state_note``), never a deduction.  A game that hung in a batch is not noted: a
hang there is timed, and a note must not depend on the machine's load.

This module knows no game.  A game says how to play a batch, whether a batch may stand for a game
when its turn comes (``Batching.ready``: what a game of its own would be played like may have changed
since the batch ran), and how to play a game alone; ``BatchedGames.play`` yields the results in the
games' order, each game's produced when its turn comes, so a caller can keep state from one game to
the next (``grader.games.fcd.random_games``).
"""

from __future__ import annotations

import signal
from dataclasses import dataclass
from enum import Enum
from typing import Generic, Iterator, Protocol, Sequence, TypeVar

from grader.core.sandbox.limits import Limits

# Games per child: enough that a child's start and its round trip (a few milliseconds: the fork, loading
# the library, the request and the answer) are a small share of a batch.  bench/bench_random_games.py,
# the differential's moves per second against the reference engine's: 16 a child about 0.25x, 32
# 0.25-0.32x, 64 0.31-0.34x.  The grading profile's 60 games are then one batch; a batch stopped early
# leaves the games after it to be played alone, as every game was before batches.
BATCH_GAMES = 64
# A batch is cut when this long passes without a frame (a game takes milliseconds): a hang in a batch is
# played again alone, where it is judged, so here it only has to cost little.
BATCH_STALL = 1.0
TIMED_SIGNALS = frozenset({signal.SIGALRM})  # a batch's game cut at its own wall limit (``sandbox.clocks.each_game``)


class Shown(Enum):
    """What one game of a batch showed."""

    EQUAL = "equal"  # every observation the reference's, played to its end
    DIFFERED = "differed"  # played to its end (or to where the game stops it), not all as the reference's
    CRASHED = "crashed"  # the child stopped in it: a crash, an exit, a limit other than time
    HUNG = "hung"  # the child was cut in it for time (a hang, or a slow machine)
    NOT_RUN = "not run"  # a game before it stopped the batch, or the batch as a whole is not to be read


NOTED = frozenset({Shown.DIFFERED, Shown.CRASHED})  # what a game alone can be seen to contradict


T = TypeVar("T")  # a game, as the caller names one
R = TypeVar("R")  # the result of one game
T_contra = TypeVar("T_contra", contravariant=True)
R_co = TypeVar("R_co", covariant=True)


class Batching(Protocol[T_contra, R_co]):
    """What a game supplies: how to play a batch and a game alone."""

    def ready(self, game: T_contra) -> bool:
        """May a batch prove ``game`` now (its own game, played now, would be proven the same way)?"""
        ...

    def play_batch(self, games: Sequence[T_contra]) -> Sequence[Shown]:
        """The games in one fresh child, in order: what each showed (as many as ``games``)."""
        ...

    def passed(self, game: T_contra) -> R_co:
        """The result of a game a batch proved equal to the reference."""
        ...

    def alone(self, game: T_contra) -> tuple[R_co, bool]:
        """The game in a fresh child of its own, by the game's usual path: its result, and whether that run
        proved it equal to the reference the way a batch would have."""
        ...


@dataclass(frozen=True)
class KeptState(Generic[T]):
    """A game that passed alone but not in its batch: the batch's games up to it, and what it showed there."""

    batch: tuple[T, ...]  # the batch's games, this one last: the games played before it in that process
    shown: Shown

    @property
    def game(self) -> T:
        return self.batch[-1]


class BatchedGames(Generic[T, R]):
    """Games played in batches of ``size``, every game a batch does not prove played alone."""

    def __init__(self, batching: Batching[T, R], size: int = BATCH_GAMES) -> None:
        self.batching = batching
        self.size = size
        self.kept_state: list[KeptState[T]] = []  # in the games' order
        self.batches = 0
        self.proven = 0  # games a batch proved
        self.alone = 0  # games played alone

    def play(self, games: Sequence[T]) -> Iterator[tuple[T, R]]:
        """Each game and its result, in order.  A batch is played when a game comes up that no batch has
        played yet and that may be batched: it and the next games that may be, up to ``size``.  A game
        a batch proved passes if it still may when its turn comes; any other is played alone."""
        ready = self.batching.ready
        shown_of: dict[int, tuple[Shown, tuple[T, ...]]] = {}  # index -> what it showed, its batch up to it
        for i, game in enumerate(games):
            if i not in shown_of and ready(game):
                chosen = [i]
                for j in range(i + 1, len(games)):
                    if len(chosen) == self.size:
                        break
                    if j not in shown_of and ready(games[j]):
                        chosen.append(j)
                if len(chosen) > 1:  # a batch of one would be the game alone, with another verdict path
                    batch = [games[j] for j in chosen]
                    each = list(self.batching.play_batch(batch))
                    self.batches += 1
                    if len(each) != len(batch):
                        raise ValueError(f"a batch of {len(batch)} games showed {len(each)}")
                    for k, j in enumerate(chosen):
                        shown_of[j] = (each[k], tuple(batch[:k + 1]))
            shown, played_before = shown_of.pop(i, (Shown.NOT_RUN, ()))
            if shown is Shown.EQUAL and ready(game):
                self.proven += 1
                yield game, self.batching.passed(game)
                continue
            self.alone += 1
            result, proven_alone = self.batching.alone(game)
            if proven_alone and shown in NOTED:
                self.kept_state.append(KeptState(played_before, shown))
            yield game, result


def kept_state_note(game: str, before: int, what: str, more: int) -> str:
    """The note on a game that passed alone but not in a batch, after ``before`` other games in the same
    process; ``what``: what it did there; ``more``: other games like it."""
    others = f" ({more} other game(s) did the same)" if more else ""
    return (f"Your code seems to keep state from one game to the next: {game}, played in the same process "
            f"right after {before} other game(s), {what}{others}; played alone, in a fresh process, it agreed "
            f"with the reference at every step, and that is what counts.  The rules say nothing about several "
            f"games in one process, so this costs nothing, but a program that plays two games would see it: "
            f"look for a static or global variable that newGame() does not set again, memory read after it "
            f"was freed or before it was set, or memory never freed.")


# ---- the limits of a batch, and of each game in it -----------------------------------------------------------
def batch_limits(limits: Limits) -> Limits:
    """A batch's limits: each game's CPU and wall time for every game a batch may hold (the same for every
    batch, so the worker's child forked ahead fits the next batch), and a stall limit.  Inside, each game
    is held to its own (``sandbox.clocks.each_game``); output, memory and processes are the batch's as a game's."""
    return limits.with_(cpu=limits.cpu * BATCH_GAMES, wall=limits.wall * BATCH_GAMES,
                        stall=min(limits.stall, BATCH_STALL) if limits.stall else BATCH_STALL)

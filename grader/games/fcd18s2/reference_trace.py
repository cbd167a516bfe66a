"""Expected traces: play a scenario's moves on the reference engine and observe.

Lives only in the trusted grader process: the worker never sees any of this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.games.fcd18s2.observe import Observer, pile_depths
from reference import Deck, Game, IllegalMoveError, MoveSpec, leniency
from reference.rulings import Leniency


@dataclass(frozen=True, slots=True)
class Step:
    """The reference's observation after a move (step 0: after newGame)."""

    obs: dict[str, Any]
    lenient: Leniency
    depths: tuple[int, int]  # how deep the piles were read (the worker reads as deep)


class ScenarioMoveError(ValueError):
    """A scenario move that the reference rejects: a bug in our scenario data."""


def play(deck: Deck, moves: tuple[MoveSpec, ...] | list[MoveSpec], upto: int | None = None) -> Game:
    """The reference game after the first ``upto`` moves."""
    game = Game(deck)
    for i, spec in enumerate(moves[:upto]):
        try:
            game.play_move(game.resolve(spec))
        except IllegalMoveError as err:
            raise ScenarioMoveError(f"move {i + 1} ({spec}): {err}") from err
    return game


def reference_trace(
    deck: Deck, moves: tuple[MoveSpec, ...] | list[MoveSpec], strict: frozenset[str] = frozenset(),
    *, full_piles: bool = False,
) -> list[Step]:
    """The observation after newGame and after each move, with what is lenient in each.

    ``full_piles`` observes the whole piles after every move (for checking hand-worked
    expectations); the differential uses the same depth as the worker.
    """
    game = Game(deck)
    observer = Observer(game, len(deck), ident=id)
    depths = pile_depths(game, True)
    first = observer.observe(depths)
    first.update(observer.deck_counts())
    steps = [Step(first, leniency(game, strict), depths)]
    for i, spec in enumerate(moves):
        try:
            game.play_move(game.resolve(spec))
        except IllegalMoveError as err:
            raise ScenarioMoveError(f"move {i + 1} ({spec}): {err}") from err
        depths = pile_depths(game, full_piles or i == len(moves) - 1)
        steps.append(Step(observer.observe(depths), leniency(game, strict), depths))
    return steps

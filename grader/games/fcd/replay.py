"""A Final Card-Down game as replay frames (``grader.core.replay``), made from the reference engine.

``frames`` plays the moves on the reference and describes the game after each
one with the edition's ``describe`` (``grader.games.fcd18s2.replay``,
``grader.games.fcd17s2.replay``): every hand, the next cards of the draw pile
and the top of the discard pile, the counters and colours a student checks,
and the moves valid there -- all in the notation of the failure messages.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from grader.core.replay import Frame
from grader.games.fcd.edition import Edition, G, WrittenMove
from reference.cards import Card, Deck

PILE_SHOWN = 8  # cards of each pile a frame shows (the sizes say the rest)
NUM_PLAYERS = 4


def card_names(cards: Iterable[Card | None]) -> tuple[str, ...]:
    return tuple(str(c) for c in cards if c is not None)


def winner_words(value: int) -> str:
    return {-1: "not finished", 4: "no winner"}.get(value, f"player {value}")


def frames(deck: Deck, moves: Sequence[WrittenMove], edition: Edition[G],
           describe: Callable[[G, int, str], Frame]) -> tuple[Frame, ...]:
    """The game as dealt and after each move, played on the reference."""
    game = edition.new_game(deck)
    out = [describe(game, 0, "")]
    for k, spec in enumerate(moves, 1):
        game.play_move(game.resolve(spec))
        out.append(describe(game, k, str(spec)))
    return tuple(out)

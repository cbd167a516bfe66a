"""[sandbox side] Ask a student's 2017 player for one move: the family's job (``grader.games.fcd.sandbox.decide``) with
the 2017 player API, notation and moves, what the 2017 API shows of a game (``snapshot``: the counters, the
direction, every hand's size and points, the current hand, the top discard, the whole history) and its words
(``draw``, ``uno``, ``DRH/G``, ...).

The 2017 Game.h cannot show another player's hand, so its guard counts no looks (``arena_c/fcd_guard_flags.h``).
"""

from __future__ import annotations

from typing import Any

from grader.games.fcd.sandbox import loader
from grader.games.fcd.sandbox.decide import Decider, GameView, Words, decide, player_api
from grader.games.fcd17s2.sandbox.interface import API, INCLUDE_DIR
from grader.games.fcd17s2.sandbox.observe import WORDS as WORD_OF
from grader.games.fcd17s2.sandbox.observe import Action
from grader.games.fcd17s2.sandbox.play import JOB

NUM_PLAYERS = API.header_constants()["NUM_PLAYERS"]

INT_QUERIES = ("numCards", "currentPlayer", "currentTurn", "numTurns", "playDirection", "handCardCount",
               "gameWinner")
COUNTED = ("numOfSuit", "numOfColor", "numOfValue")  # (kinds: 5 suits, 5 colours, 16 values)
KINDS = {"numOfSuit": 5, "numOfColor": 5, "numOfValue": 16}


def snapshot(game: GameView, cards: int) -> tuple[Any, ...]:
    """Everything the 2017 API shows of the game: the counters, each seat's hand size and points, the deck's
    counts, the current hand and the top discard card by card, and every move of the history."""
    fn, handle = game.fn, game.handle
    ints = tuple(int(fn[q](handle)) for q in INT_QUERIES)
    seats = tuple((int(fn["playerCardCount"](handle, p)), int(fn["playerPoints"](handle, p)))
                  for p in range(NUM_PLAYERS))
    counts = tuple(tuple(int(fn[q](handle, k)) for k in range(KINDS[q])) for q in COUNTED)
    hand = tuple(game.card(fn["handCard"](handle, i)) for i in range(int(fn["handCardCount"](handle))))
    history = []
    for turn in range(int(fn["numTurns"](handle))):
        moves = []
        for m in range(int(fn["turnMoves"](handle, turn))):
            move = fn["pastMove"](handle, turn, m)
            moves.append((int(move.action), int(move.nextColor), game.card(move.card)))
        history.append(tuple(moves))
    return ints, seats, counts, hand, game.card(fn["topDiscard"](handle)), tuple(history)


# A card's notation for a PLAY_CARD (NULL for none), 0 draw, 2 uno, 3 duo, 4 trio, 5 end; "<action n>" for others.
WORDS = Words(play_card=int(Action.PLAY_CARD), of_action={int(action): word for action, word in WORD_OF.items()},
              unknown="<action {action}>", null_card="NULL")
DECIDER = Decider(player_api(INCLUDE_DIR), JOB, snapshot, WORDS)


def warm_up() -> None:
    loader.warm_up(DECIDER.api, native_observer=False)


def run(request: dict[str, Any], results: Any) -> None:
    decide(request, results, DECIDER)

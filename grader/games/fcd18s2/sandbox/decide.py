"""[sandbox side] Ask a student's 2018 player for one move: the family's job (``grader.games.fcd.sandbox.decide``) with
the 2018 player API, notation and moves, what the 2018 API shows of a game (``snapshot``) and its words.

Its guard counts the looks at another player's hand (``getHandCard``: ``arena_c/fcd_guard_flags.h``); the
trusted side (``arena.StudentPlayer``) allows or forbids them.
"""

from __future__ import annotations

from typing import Any

from grader.games.fcd.sandbox import loader
from grader.games.fcd.sandbox.decide import Decider, GameView, Words, decide, player_api
from grader.games.fcd.sandbox.notation import WORD_OF_ACTION
from grader.games.fcd18s2.sandbox.interface import INCLUDE_DIR
from grader.games.fcd18s2.sandbox.observe import Action
from grader.games.fcd18s2.sandbox.play import JOB

INT_QUERIES = ("numCards", "currentPlayer", "currentTurn", "numTurns", "currentTurnMoves",
               "getNumberOfTwoCardsAtTop", "getCurrentColor", "getPreviousTurnPlayer", "getTopDiscardTurnNumber",
               "getActiveDrawTwos", "handCardCount", "gameWinner")
PILES = ("getDeckCard", "getDiscardPileCard")


def snapshot(game: GameView, cards: int) -> tuple[Any, ...]:
    """Everything the API shows of the game: the counters, every hand, both piles, card by card."""
    fn, handle = game.fn, game.handle
    ints = tuple(int(fn[q](handle)) for q in INT_QUERIES)
    hands = tuple(tuple(game.card(fn["getHandCard"](handle, p, i))
                        for i in range(int(fn["playerCardCount"](handle, p)))) for p in range(4))
    piles = []
    for q in PILES:
        pile = []
        for i in range(cards + 1):
            c = game.card(fn[q](handle, i))
            if c is None:
                break
            pile.append(c)
        piles.append(tuple(pile))
    return ints, hands, tuple(piles)


# A card's notation for a PLAY_CARD, "draw" and "end"; an action 2018 does not have, or a NULL card, is "".
WORDS = Words(play_card=int(Action.PLAY_CARD),
              of_action={int(a): WORD_OF_ACTION[a.name] for a in Action if a != Action.PLAY_CARD},
              unknown="", null_card="")
DECIDER = Decider(player_api(INCLUDE_DIR), JOB, snapshot, WORDS)


def warm_up() -> None:
    loader.warm_up(DECIDER.api, native_observer=False)


def run(request: dict[str, Any], results: Any) -> None:
    decide(request, results, DECIDER)

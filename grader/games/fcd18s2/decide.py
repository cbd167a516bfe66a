"""[sandbox side] Ask a student's player for one move: the game runner's job (``players.StudentPlayer``).

The library is the student's ``player.c`` linked with the course's model ``Game.c`` and the guard
(``arena_c/fcd_guard.c``).  A fresh child replays the game so far on the model (every move already
checked by the reference on the trusted side), then calls ``decideMove`` with the guard on, so that
``playMove``, ``newGame`` and ``destroyGame`` are refused and counted, and on the decision clock, which
stops it once it has used the request's CPU budget (``grader.core.arena.decision_clock``).  Everything
the API shows is read before and after the call: a difference means the player wrote into the game.
The answer is the move in the game's notation, whether its card is one of the current hand's, what was
refused or changed, and the CPU seconds the call used; the trusted side judges it against the reference.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.core.arena.decision_clock import timed_decision
from grader.core.native import Api, open_library
from grader.games.fcd.loader import CLibrary
from grader.games.fcd.observe import card_label
from grader.games.fcd.play import resolve
from grader.games.fcd18s2.interface import INCLUDE_DIR
from grader.games.fcd18s2.play import JOB
from reference.cards import COLOR_LETTERS
from reference.moves import MoveSpec

GUARD_DIR = Path(__file__).resolve().parent / "arena_c"
INT_QUERIES = ("numCards", "currentPlayer", "currentTurn", "numTurns", "currentTurnMoves",
               "getNumberOfTwoCardsAtTop", "getCurrentColor", "getPreviousTurnPlayer", "getTopDiscardTurnNumber",
               "getActiveDrawTwos", "handCardCount", "gameWinner")
PILES = ("getDeckCard", "getDiscardPileCard")


# The course's headers and player.h, and the guard's three functions.
PLAYER_API = Api(INCLUDE_DIR, ("Card.h", "Game.h", "player.h", "fcd_guard.h"),
                 {"fcd_guard.h": GUARD_DIR / "fcd_guard.h"})


def warm_up() -> None:
    from grader.games.fcd.loader import warm_up as load_warm_up  # noqa: PLC0415

    load_warm_up(PLAYER_API, native_observer=False)


def _card(fn: dict[str, Any], ptr: Any) -> tuple[int, int, int, int] | None:
    f = PLAYER_API.ffi()
    if ptr == f.NULL:
        return None
    return (int(f.cast("uintptr_t", ptr)), int(fn["cardValue"](ptr)), int(fn["cardColor"](ptr)),
            int(fn["cardSuit"](ptr)))


def snapshot(fn: dict[str, Any], handle: Any, cards: int) -> tuple[Any, ...]:
    """Everything the API shows of the game: the counters, every hand, both piles, card by card."""
    ints = tuple(int(fn[q](handle)) for q in INT_QUERIES)
    hands = tuple(tuple(_card(fn, fn["getHandCard"](handle, p, i))
                        for i in range(int(fn["playerCardCount"](handle, p)))) for p in range(4))
    piles = []
    for q in PILES:
        pile = []
        for i in range(cards + 1):
            c = _card(fn, fn[q](handle, i))
            if c is None:
                break
            pile.append(c)
        piles.append(tuple(pile))
    return ints, hands, tuple(piles)


def run(request: dict[str, Any], results: Any) -> None:
    send = results.send
    lib = open_library(lambda: CLibrary(request["lib"], PLAYER_API), send, "error")
    if lib is None:
        return
    deck = request["deck"]
    game = lib.new_game([c[0] for c in deck], [c[1] for c in deck], [c[2] for c in deck])
    if game is None:
        send({"t": "error", "what": "null_game", "detail": "the model's newGame returned NULL"})
        return
    for token in request["moves"]:
        move = resolve(game, MoveSpec.parse(token), len(deck) + 1, JOB)
        if move is None:
            send({"t": "error", "what": "replay", "detail": f"the model could not replay {token}"})
            return
        game.play_move(move)
    fn, handle = lib.functions, game._handle
    hand = {_card(fn, fn["handCard"](handle, i)) for i in range(int(fn["handCardCount"](handle)))}
    before = snapshot(fn, handle, len(deck))
    fn["fcd_deciding"](1)
    chosen, cpu = timed_decision(lambda: fn["decideMove"](handle), request, send)
    fn["fcd_deciding"](0)
    after = snapshot(fn, handle, len(deck))
    action = int(chosen.action)
    card = _card(fn, chosen.card) if action == 1 else None
    words = {0: "draw", 2: "end"}.get(action, "")
    if action == 1 and card is not None:
        words = card_label(card[1:])  # a card's notation, or <v,c,s> for values no card has
        if card[1] == 0xD:
            words += "/" + (COLOR_LETTERS[int(chosen.nextColor)] if 0 <= int(chosen.nextColor) < 5 else "?")
    send({"t": "decided", "move": words, "action": action, "in_hand": card in hand if card is not None else None,
          "refused": int(fn["fcd_refusals"]()), "refused_what": int(fn["fcd_refused_what"]()),
          "other_hands": int(fn["fcd_other_hands"]()),
          "changed": before != after, "cpu": cpu})

"""[sandbox side] Ask a student's Palace player for one move: the game runner's job (``arena.StudentPlayer``).

The library is the student's ``player.c`` linked with the course's model ``Palace.c`` and the guard
(``arena_c/palace_guard.c``).  A fresh child replays the game so far on the model (every move already
checked by the reference on the trusted side), then calls ``decideMove`` with the guard on, so that the
runner and test functions (playMove, newGame, destroyGame, gameWinner, getHandCard, getFaceDownCard,
getDeckCard: C44) are refused and counted, and on the decision clock, which stops it once it has used
the request's CPU budget (``grader.core.arena.decision_clock``).  Everything the API shows is read
before and after the call: a difference means the player wrote into the game.  The answer is the move
in the reference's notation, each card named by its deck index (``5H@12``) when the model's deal shows
where it came from, with the CPU seconds the call used; the trusted side judges it against the reference.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict, cast

from grader.core.sandbox.clocks import timed_decision
from grader.core.sandbox.native import open_library
from grader.games.palace.sandbox.interface import INCLUDE_DIR, PalaceApi
from grader.games.palace.sandbox.library import PalaceGame, PalaceLibrary
from grader.games.palace.sandbox.library import warm_up as _warm_up
from grader.games.palace.sandbox.notation import Action, CardRef, MoveSpec, Setup
from grader.games.palace.sandbox.observe import Observer
from grader.games.palace.sandbox.playing import PlayedGame, Results, deck_map, resolve

GUARD_DIR = Path(__file__).resolve().parent / "arena_c"  # palace_guard.h (its .c is the trusted side's)


# The course's headers and player.h, and the guard's functions.
PLAYER_API = PalaceApi(INCLUDE_DIR, ("PalaceCard.h", "Palace.h", "player.h", "palace_guard.h"),
                       {"palace_guard.h": GUARD_DIR / "palace_guard.h"})


def warm_up() -> None:
    _warm_up(PLAYER_API)


class DecideRequest(TypedDict):
    """What the trusted side asks (``arena.StudentPlayer``): the game so far; ``lib`` is the worker's, the
    CPU budget (``decide_cpu``) the decision clock's."""

    lib: str
    setup: str
    moves: list[str]
    decide_cpu: float


def _written(game: PalaceGame, chosen: Any, where: dict[int, int]) -> tuple[str, bool]:
    """The move ``decideMove`` returned (``chosen``, a cffi ``playerMove``), in the notation, and whether every
    card it names exists."""
    action = int(chosen.action)
    if action == Action.PICK_UP_PILE:
        return str(MoveSpec(Action.PICK_UP_PILE)), True
    if action == Action.PLAY_FACE_DOWN:
        return str(MoveSpec(Action.PLAY_FACE_DOWN, (), int(chosen.faceDownIndex))), True
    count = int(chosen.numCards)
    if action not in (Action.CHOOSE_FACE_UP, Action.PLAY_CARDS) or not 1 <= count <= len(chosen.cards):
        return f"<action {action}, {count} cards>", False
    refs = []
    for k in range(count):
        card = game.card(chosen.cards[k])
        if card is None:
            return f"<a NULL card among {count}>", False
        refs.append(CardRef(card.rank, card.suit, where.get(card.ident)))
    return str(MoveSpec(Action(action), tuple(refs))), True


def run(request: DecideRequest, results: Results) -> None:
    send = results.send
    lib = open_library(lambda: PalaceLibrary(request["lib"], PLAYER_API), send, "error")
    if lib is None:
        return
    setup = Setup.parse(request["setup"])
    game = lib.new_game(setup.n_players, setup.ranks, setup.suits, setup.rules)
    if game is None:
        send({"t": "error", "what": "null_game", "detail": "the model's newGame returned NULL"})
        return
    playing = cast(PlayedGame, game)  # nothing is missing (above): the game has every method
    found = deck_map(playing, setup)
    where = {card.ident: index for index, card in found.items()}
    for token in request["moves"]:
        move = resolve(playing, MoveSpec.parse(token), setup.n_cards, found.get)
        if move is None:
            send({"t": "error", "what": "replay", "detail": f"the model could not replay {token}"})
            return
        playing.play_move(move)
    fn, handle = lib.functions, game._handle
    observer = Observer(game, setup.n_players, setup.n_cards)
    before = observer.observe()
    fn["palace_deciding"](1)
    chosen, cpu = timed_decision(lambda: fn["decideMove"](handle), request, send)
    fn["palace_deciding"](0)
    after = observer.observe()
    written, whole = _written(game, chosen, where)
    send({"t": "decided", "move": written, "whole": whole, "refused_what": int(fn["palace_refused_what"]()),
          "changed": before != after, "cpu": cpu})

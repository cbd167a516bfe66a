"""[sandbox side] Ask a student's player for one move: the game runner's job, which each edition's ``decide``
binds to its values (``Decider``: its player API, its play job's notation and moves, its snapshot, its words).

The library is the student's ``player.c`` linked with the course's model ``Game.c`` of the edition and the
family's guard (``arena_c/fcd_guard.c``).  A fresh child replays the game so far on the model (every move
already checked by the reference on the trusted side), then calls ``decideMove`` with the guard on, so that
``playMove``, ``newGame`` and ``destroyGame`` are refused and counted, and on the decision clock, which stops
it once it has used the request's CPU budget (``grader.core.arena.decision_clock``).  Everything the edition's
API shows is read before and after the call (``Decider.snapshot``): a difference means the player wrote into
the game.  The answer is the move in the edition's notation, whether its card is one of the current hand's,
what was refused, looked at (another player's hand, where the API can show one) or changed, and the CPU
seconds the call used; the trusted side judges it against the reference (``grader.games.fcd.arena``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from grader.core.sandbox.clocks import timed_decision
from grader.core.sandbox.native import Api, open_library
from grader.games.fcd.sandbox.loader import CLibrary
from grader.games.fcd.sandbox.notation import COLOR_LETTERS
from grader.games.fcd.sandbox.observe import card_label
from grader.games.fcd.sandbox.play import Job, resolve

GUARD_HEADER = Path(__file__).resolve().parent / "arena_c" / "fcd_guard.h"
DECLARE = 0xD  # the value whose card declares a colour (2018's D, 2017's DECLARE)

SeenCard = tuple[int, int, int, int]  # a card as the API shows it: (its pointer, value, colour, suit)


def player_api(include_dir: Path) -> Api:
    """An edition's player API: the course's headers and player.h (in ``include_dir``), and the guard's functions."""
    return Api(include_dir, ("Card.h", "Game.h", "player.h", "fcd_guard.h"), {"fcd_guard.h": GUARD_HEADER})


class GameView:
    """A game of the player's library as the job reads it: the library's functions, the game, and its cards."""

    def __init__(self, api: Api, functions: dict[str, Any], handle: Any) -> None:
        self.fn, self.handle, self._ffi = functions, handle, api.ffi()

    def card(self, ptr: Any) -> SeenCard | None:
        """A card the API returned, or None for NULL."""
        if ptr == self._ffi.NULL:
            return None
        fn = self.fn
        return (int(self._ffi.cast("uintptr_t", ptr)), int(fn["cardValue"](ptr)), int(fn["cardColor"](ptr)),
                int(fn["cardSuit"](ptr)))


@dataclass(frozen=True)
class Words:
    """How an edition words a player's decision: ``play_card`` is the action that plays a card; ``of_action`` the
    word of every other action it has; ``unknown`` the word of an action it does not have (``{action}``: its
    number); ``null_card`` the word of a NULL card played."""

    play_card: int
    of_action: Mapping[int, str]
    unknown: str
    null_card: str

    def of(self, action: int, card: SeenCard | None, next_color: int) -> str:
        """The move in the edition's notation: a card as ``card_label`` writes it (``<v,c,s>`` for values no card
        has), a declaring card with its colour after a slash (``?`` for no colour)."""
        if action != self.play_card:
            return self.of_action.get(action, self.unknown.format(action=action))
        if card is None:
            return self.null_card
        words = card_label(card[1:])
        if card[1] == DECLARE:
            words += "/" + (COLOR_LETTERS[next_color] if 0 <= next_color < 5 else "?")
        return words


@dataclass(frozen=True)
class Decider:
    """What asking a player needs of an edition: its player API (``player_api``), its play job (the notation and
    moves the replay resolves), what its API shows of a game (``snapshot``: (the game, the deck's size) -> a value
    compared before and after decideMove) and its words."""

    api: Api
    job: Job
    snapshot: Callable[[GameView, int], object]
    words: Words


def decide(request: dict[str, Any], results: Any, edition: Decider) -> None:
    """The job's ``run``: replay ``request``'s game on the model, ask decideMove once, send the answer (``decided``)
    or why there is none (``error``)."""
    send = results.send
    lib = open_library(lambda: CLibrary(request["lib"], edition.api), send, "error")
    if lib is None:
        return
    deck = request["deck"]
    game = lib.new_game([c[0] for c in deck], [c[1] for c in deck], [c[2] for c in deck])
    if game is None:
        send({"t": "error", "what": "null_game", "detail": "the model's newGame returned NULL"})
        return
    for token in request["moves"]:
        move = resolve(game, edition.job.parse_move(token), len(deck) + 1, edition.job)
        if move is None:
            send({"t": "error", "what": "replay", "detail": f"the model could not replay {token}"})
            return
        game.play_move(move)
    fn = lib.functions
    view = GameView(edition.api, fn, game._handle)
    hand = {view.card(fn["handCard"](view.handle, i)) for i in range(int(fn["handCardCount"](view.handle)))}
    before = edition.snapshot(view, len(deck))
    fn["fcd_deciding"](1)
    chosen, cpu = timed_decision(lambda: fn["decideMove"](view.handle), request, send)
    fn["fcd_deciding"](0)
    after = edition.snapshot(view, len(deck))
    action = int(chosen.action)
    card = view.card(chosen.card) if action == edition.words.play_card else None
    send({"t": "decided", "move": edition.words.of(action, card, int(chosen.nextColor)), "action": action,
          "in_hand": card in hand if card is not None else None,
          "refused": int(fn["fcd_refusals"]()), "refused_what": int(fn["fcd_refused_what"]()),
          "other_hands": int(fn["fcd_other_hands"]()), "changed": before != after, "cpu": cpu})

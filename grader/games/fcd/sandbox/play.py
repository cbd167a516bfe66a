"""The sandbox side of a Final Card-Down game: play a move list on the student library in a child.

An edition's job module (``grader.games.fcd18s2.sandbox.play``, ``grader.games.fcd17s2.sandbox.play``)
binds its ``Job`` here: the worker (``grader.core.sandbox.worker``) imports it by name, calls
``warm_up`` once before forking, and ``run`` (``play_game`` with the edition's job) in
each fresh child with the grader's request and the shared results area.  Two ways to play: through the
C observer of the edition (``grader.games.fcd.c_observer``), the whole game in one call and
one frame of packed steps, when the request names it; or through the Python
``Observer``, every step a frame.  Either way the call in progress is written
before every call into student code, so a crash or hang can be pinned on it.
A request may also carry a batch of games (``play_batch``: several games in one child,
``grader.core.batched_games``), each played through the C observer and answered with a
digest of its packed steps.  Nothing here sees an expected result.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Callable, Mapping, Protocol, Required, TypedDict

from grader.core.sandbox.clocks import each_game
from grader.core.sandbox.native import Api, open_library
from grader.games.fcd.sandbox.frames import OUTCOMES, PACKED_CAPACITY, Event
from grader.games.fcd.sandbox.loader import CGame, CLibrary
from grader.games.fcd.sandbox.notation import WrittenMove, validity_field
from grader.games.fcd.sandbox.observe import (
    DESTROY_GAME,
    FIND_CARD,
    NEW_GAME,
    PLAY_MOVE,
    MadeMove,
    Obs,
    Observer,
    Trace,
)

__all__ = ["Job", "play_request", "play_game", "play_batch", "resolve", "refused", "move_ints"]



class BatchedGame(TypedDict):
    """One game of a batch, in the C observer's terms: nothing to parse in the child."""

    deck: list[list[int]]  # the cards' (value, colour, suit), index 0 on top
    codes: list[list[int]]  # action, value, colour, suit, declared colour, per move
    depths: list[list[int]]  # per step, how deep to read the draw and discard piles


class EachGame(TypedDict):
    """The limits of one game of a batch (the request's own cover the whole batch)."""

    cpu: int
    wall: float


class Request(TypedDict, total=False):
    """A game (``session.play``), or a batch of games (``session.FcdSession.play_batch``), as the grader asks
    for it (JSON), with the library the worker adds: a game has a deck, moves and depths; a batch, games."""

    lib: Required[str]  # the student's library, as the sandbox sees it
    deck: list[list[int]]  # the cards' (value, colour, suit), index 0 on top
    moves: list[str]  # in the edition's notation
    depths: list[list[int]]  # per step, how deep to read the draw and discard piles
    skip: list[str]  # probes to leave out
    destroy: bool  # call destroyGame at the end
    observer: str  # the C observer's path: play the whole game through it
    batch: list[BatchedGame]  # several games, one after the other in this child (``play_batch``)
    each: EachGame  # a batch's limits per game
    data_of: int  # the game of the batch whose packed steps are sent whole, besides their digest (-1: none)


class Results(Protocol):
    """The child's shared results area (``core.sandbox.worker.Results``): frames, the call in progress, the step."""

    step: int

    def send(self, obj: object) -> None: ...

    def at(self, probe: int, call: int, a: int, b: int) -> None: ...

    def call_slot(self) -> memoryview: ...


class MakeObserver(Protocol):
    """``Job.observer``: the edition's observer class, made for a library's game."""

    def __call__(self, game: object, deck_size: int, *, skip: frozenset[str], trace: Trace) -> Observer: ...


@dataclass(frozen=True)
class Job:
    """What playing a game needs of an edition: its C interface, its observer and the call numbers
    it traces, its notation and its moves (the 2017 edition plays with its own, ``fcd17s2.sandbox.play``)."""

    api: Api
    observer: MakeObserver
    call_ids: Mapping[str, int]
    parse_move: Callable[[str], WrittenMove]
    player_move: Callable[..., MadeMove]  # (action, card, colour): the edition's PlayerMove, holding a library's card
    native: bool  # a C observer exists for it (``c_observer``)


def resolve(game: CGame, spec: WrittenMove, cap: int, job: Job, trace: Trace | None = None,
            i: int = 0) -> MadeMove | None:
    """The move with the card of that look from the current hand, read by ``handCardCount()``."""
    if spec.card_key is None:
        return job.player_move(spec.action)
    count = game.hand_card_count() if hasattr(game, "hand_card_count") else cap
    for index in range(max(0, min(count, cap))):
        if trace is not None:
            trace(FIND_CARD, job.call_ids["handCard"], i, index)
        card = game.hand_card(index)
        if card is not None and (card.value, card.color, card.suit) == spec.card_key:
            return job.player_move(spec.action, card, spec.next_color)
    return None


def refused(obs: Obs, spec: WrittenMove) -> bool:
    """Did the submission's own isValidMove, in this observation, refuse ``spec``?"""
    label = str(spec)
    name = validity_field(label)
    answer = obs.get(name)
    if isinstance(answer, dict):
        return answer.get(label) is False
    return answer is False


def play_request(request: Request, results: Results, job: Job) -> None:
    """The job of one child: a batch of games (``play_batch``) or one game (``play_game``)."""
    if "batch" in request:
        play_batch(request, results, job)
    else:
        play_game(request, results, job)


def play_game(request: Request, results: Results, job: Job) -> None:
    """Play one game on the student library; every step is a frame sent to ``results``.

    A move the submission's own isValidMove refused is said (a ``refused`` event) and made
    anyway, so the rest of the game can still show agreement; since playMove of a move the
    submission calls invalid is undefined (A28), nothing after it is charged.
    """
    send, trace = results.send, results.at
    call_ids = job.call_ids
    lib = open_library(lambda: CLibrary(request["lib"], job.api), send, Event.ERROR.value,
                       ("newGame", "playMove", "handCard", "isValidMove", "cardValue", "cardColor", "cardSuit"))
    if lib is None:
        return
    deck = request["deck"]
    size = len(deck)
    depths = request["depths"]
    if job.native and request.get("observer") and not lib.missing and not request.get("skip"):
        _run_packed(lib, request, results, job)
        return
    trace(NEW_GAME, call_ids["newGame"], 0, 0)
    game = lib.new_game([c[0] for c in deck], [c[1] for c in deck], [c[2] for c in deck])
    if game is None:
        send({"t": Event.ERROR.value, "what": "null_game", "detail": "newGame returned NULL"})
        return
    observer = job.observer(game, size, skip=frozenset(request.get("skip", ())), trace=trace)
    obs = observer.observe(tuple(depths[0]))
    obs.update(observer.deck_counts())
    send({"t": Event.OBS.value, "i": 0, "obs": obs})
    for i, token in enumerate(request["moves"]):
        spec = job.parse_move(token)
        if refused(obs, spec):  # made anyway: the grader judges on (A28: nothing after it is charged)
            send({"t": Event.REFUSED.value, "i": i})
        move = resolve(game, spec, size + 1, job, trace, i)
        if move is None:
            send({"t": Event.NO_CARD.value, "i": i})
            return
        trace(PLAY_MOVE, call_ids["playMove"], i, 0)
        game.play_move(move)
        send({"t": Event.MOVED.value, "i": i})
        results.step = i + 1
        obs = observer.observe(tuple(depths[i + 1]))
        send({"t": Event.OBS.value, "i": i + 1, "obs": obs})
    if request.get("destroy", True) and hasattr(game, "destroy_game"):
        trace(DESTROY_GAME, call_ids["destroyGame"], 0, 0)
        game.destroy_game()
    send({"t": Event.DONE.value})


def play_batch(request: Request, results: Results, job: Job) -> None:
    """Play a batch's games one after the other on one load of the library, each from its own newGame,
    through the C observer; after each, one frame: how it ended, where, and the SHA-256 of its packed
    steps (the grader compares it with the reference's: ``grader.games.fcd.session``).

    Each game gets its own limits (``grader.core.batched_games.each_game``), so a game that would be cut
    alone is cut here too.  A library the C observer cannot play (it lacks an API function) sends an error
    frame instead: its games are all played alone.
    """
    lib = open_library(lambda: CLibrary(request["lib"], job.api), results.send, Event.ERROR.value)
    if lib is None:
        return
    observer = request.get("observer", "")
    if not job.native or not observer:
        results.send({"t": Event.ERROR.value, "what": "batch", "detail": "no C observer to play a batch with"})
        return
    each, data_of, destroy = request["each"], request.get("data_of", -1), request.get("destroy", True)
    for i, game in enumerate(request["batch"]):
        with each_game(each["cpu"], each["wall"]):
            outcome, stopped, data = lib.play_packed(observer, game["deck"], game["codes"], game["depths"],
                                                     results.call_slot(), PACKED_CAPACITY, destroy)
        frame: dict[str, object] = {"t": Event.PACKED.value, "game": i, "outcome": OUTCOMES[outcome], "at": stopped,
                                    "digest": hashlib.sha256(data).hexdigest()}
        if i == data_of:
            frame["data"] = base64.b64encode(data).decode("ascii")
        results.send(frame)


def move_ints(spec: WrittenMove) -> tuple[int, int, int, int, int]:
    """A move for the C observer: action, the card's value, colour and suit, the colour declared (a request
    that names its moves by their notation; a batch's come in this form, ``reference_trace.move_codes``)."""
    v, c, s = spec.card_key if spec.card_key is not None else (-1, -1, -1)
    return int(spec.action), v, c, s, int(spec.next_color or 0)


def _run_packed(lib: CLibrary, request: Request, results: Results, job: Job) -> None:
    """The whole game in one call into the C observer; one frame back with every step packed."""
    moves = [move_ints(job.parse_move(token)) for token in request["moves"]]
    outcome, stopped, data = lib.play_packed(request["observer"], request["deck"], moves, request["depths"],
                                             results.call_slot(), PACKED_CAPACITY, request.get("destroy", True))
    results.send({"t": Event.PACKED.value, "outcome": OUTCOMES[outcome], "at": stopped,
                  "data": base64.b64encode(data).decode("ascii")})

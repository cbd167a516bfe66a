"""The sandbox side of a Final Card-Down game: play a move list on the student library in a child.

An edition's job module (``grader.games.fcd18s2.play``, ``grader.games.fcd17s2.play``)
binds its ``Job`` here: the worker (``grader.core.worker``) imports it by name, calls
``warm_up`` once before forking, and ``run`` (``play_game`` with the edition's job) in
each fresh child with the grader's request and the shared results area.  Two ways to play: through the
C observer of the edition (2018's ``c_observer``), the whole game in one call and
one frame of packed steps, when the request names it; or through the Python
``Observer``, every step a frame.  Either way the call in progress is written
before every call into student code, so a crash or hang can be pinned on it.
Nothing here sees an expected result.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping, Protocol, Required, TypedDict

from grader.core.native import Api, open_library
from grader.games.fcd.focus import validity_field
from grader.games.fcd.frames import PACKED_CAPACITY, Event
from grader.games.fcd.loader import CGame, CLibrary
from grader.games.fcd.observe import DESTROY_GAME, FIND_CARD, NEW_GAME, PLAY_MOVE, MadeMove, Obs, Observer, Trace
from grader.games.fcd.packed import OUTCOMES

if TYPE_CHECKING:
    from grader.games.fcd.edition import WrittenMove

__all__ = ["Job", "play_game", "resolve", "refused", "move_ints"]


class Request(TypedDict, total=False):
    """A game as the grader asks for it (``session.play``: JSON), with the library the worker adds."""

    lib: Required[str]  # the student's library, as the sandbox sees it
    deck: Required[list[list[int]]]  # the cards' (value, colour, suit), index 0 on top
    moves: Required[list[str]]  # in the edition's notation
    depths: Required[list[list[int]]]  # per step, how deep to read the draw and discard piles
    skip: list[str]  # probes to leave out
    destroy: bool  # call destroyGame at the end
    observer: str  # the C observer's path: play the whole game through it


class Results(Protocol):
    """The child's shared results area (``grader.core.worker.Results``): frames, the call in progress, the step."""

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
    it traces, its notation and its moves (the 2017 edition plays with its own, ``grader.games.fcd17s2.play``)."""

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


def move_ints(spec: WrittenMove) -> tuple[int, int, int, int, int]:
    """A move for the C observer: action, the card's value, colour and suit, the colour declared."""
    v, c, s = spec.card_key if spec.card_key is not None else (-1, -1, -1)
    return int(spec.action), v, c, s, int(spec.next_color or 0)


def _run_packed(lib: CLibrary, request: Request, results: Results, job: Job) -> None:
    """The whole game in one call into the C observer; one frame back with every step packed."""
    moves = [move_ints(job.parse_move(token)) for token in request["moves"]]
    outcome, stopped, data = lib.play_packed(request["observer"], request["deck"], moves, request["depths"],
                                             results.call_slot(), PACKED_CAPACITY, request.get("destroy", True))
    results.send({"t": Event.PACKED.value, "outcome": OUTCOMES[outcome], "at": stopped,
                  "data": base64.b64encode(data).decode("ascii")})

"""The sandbox side of a Final Card-Down game: play a move list on the student library in a child.

The worker (``grader.core.worker``) imports this module by name, calls
``warm_up`` once before forking, and ``run`` in each fresh child with the
grader's request and the shared results area.  Two ways to play: through the
C observer (``grader.games.fcd18s2.c_observer``), the whole game in one call and
one frame of packed steps, when the request names it; or through the Python
``Observer``, every step a frame.  Either way the call in progress is written
before every call into student code, so a crash or hang can be pinned on it.
Nothing here sees an expected result.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Mapping

from grader.core.native import Api, LoadError
from grader.core.run_report import ERROR_TAG
from grader.games.fcd18s2.focus import validity_field
from grader.games.fcd18s2.loader import API, CLibrary, warm_up
from grader.games.fcd18s2.observe import CALL_IDS, DESTROY_GAME, FIND_CARD, NEW_GAME, PLAY_MOVE, Observer
from grader.games.fcd18s2.packed import OUTCOMES
from reference.moves import MoveSpec, PlayerMove

__all__ = ["Event", "Job", "run", "play_game", "warm_up", "refused", "max_frames"]


class Event(Enum):
    """The tag ``t`` of each frame a game sends."""

    OBS = "obs"  # the observations after newGame (i = 0) or after move i - 1
    PACKED = "packed"  # a whole game observed by the C observer: how it ended, where, the packed steps
    MOVED = "moved"  # move i was made
    REFUSED = "refused"  # the submission's own isValidMove refused move i; it is made anyway (A28: undefined after)
    NO_CARD = "no_card"  # the card of move i is not in the current hand: the game stops there
    DONE = "done"  # every move made and the game destroyed
    ERROR = ERROR_TAG  # the game could not start: ``what`` is load, missing or null_game


OVER = (Event.DONE, Event.NO_CARD, Event.PACKED)  # the child got to the end of what it could play
PACKED_CAPACITY = 8 << 20  # int32s a packed game may fill (32 MiB of address space, touched only as written)


def max_frames(moves: int) -> int:
    """The most frames a game of this many moves sends (an observation, a refusal and an event a move)."""
    return 3 * moves + 4


@dataclass(frozen=True)
class Job:
    """What playing a game needs of an edition: its C interface, its observer and the call numbers
    it traces, its notation and its moves (the 2017 edition plays with its own, ``grader.games.fcd17s2.play``)."""

    api: Api
    observer: Callable[..., Any]
    call_ids: Mapping[str, int]
    parse_move: Callable[[str], Any]
    player_move: Callable[..., Any]
    native: bool  # a C observer exists for it (``c_observer``)


JOB = Job(API, Observer, CALL_IDS, MoveSpec.parse, PlayerMove, native=True)


def _resolve(game: Any, spec: Any, cap: int, trace: Any = None, i: int = 0, job: Job = JOB) -> Any:
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


def refused(obs: dict[str, Any], spec: Any) -> bool:
    """Did the submission's own isValidMove, in this observation, refuse ``spec``?"""
    label = str(spec)
    name = validity_field(label)
    answer = obs.get(name)
    if isinstance(answer, dict):
        return answer.get(label) is False
    return answer is False


def run(request: dict[str, Any], results: Any) -> None:
    """Play one 2018 game on the student library (``play_game``)."""
    play_game(request, results, JOB)


def play_game(request: dict[str, Any], results: Any, job: Job) -> None:
    """Play one game on the student library; every step is a frame sent to ``results``.

    A move the submission's own isValidMove refused is said (a ``refused`` event) and made
    anyway, so the rest of the game can still show agreement; since playMove of a move the
    submission calls invalid is undefined (A28), nothing after it is charged.
    """
    send, trace = results.send, results.at
    call_ids = job.call_ids
    try:
        lib = CLibrary(request["lib"], job.api)
    except LoadError as err:
        send({"t": Event.ERROR.value, "what": "load", "detail": str(err)[:2000]})
        return
    for needed in ("newGame", "playMove", "handCard", "isValidMove", "cardValue", "cardColor", "cardSuit"):
        if not lib.has(needed):
            send({"t": Event.ERROR.value, "what": "missing", "detail": needed})
            return
    deck = request["deck"]
    size = len(deck)
    depths = request["depths"]
    if job.native and request.get("observer") and not lib.missing and not request.get("skip"):
        _run_packed(lib, request, results)
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
        move = _resolve(game, spec, size + 1, trace, i, job)
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


def move_ints(spec: MoveSpec) -> tuple[int, int, int, int, int]:
    """A move for the C observer: action, the card's value, colour and suit, the colour declared."""
    v, c, s = spec.card_key if spec.card_key is not None else (-1, -1, -1)
    return int(spec.action), v, c, s, int(spec.next_color or 0)


def _run_packed(lib: CLibrary, request: dict[str, Any], results: Any) -> None:
    """The whole game in one call into the C observer; one frame back with every step packed."""
    moves = [move_ints(MoveSpec.parse(token)) for token in request["moves"]]
    outcome, stopped, data = lib.play_packed(request["observer"], request["deck"], moves, request["depths"],
                                             results.call_slot(), PACKED_CAPACITY, request.get("destroy", True))
    results.send({"t": Event.PACKED.value, "outcome": OUTCOMES[outcome], "at": stopped,
                  "data": base64.b64encode(data).decode("ascii")})

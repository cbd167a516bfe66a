"""The sandbox side of a Palace game: play a move list on the student library in a child.

The worker (``grader.core.worker``) imports this module by name, calls ``warm_up`` once before forking,
and ``run`` in each fresh child with the grader's request and the shared results area.  The request:
``lib`` (the library's path), ``setup`` (Setup notation, ``2p mirror: 5H 6D ...``), ``moves`` (move
tokens: ``up:5H,6D,KS``, ``5H,5D``, ``blind:1``, ``pickup``) and optionally ``destroy`` (default true).

Frames, as Final Card-Down's (``grader.games.fcd18s2.play``): ``{"t": "obs", "i": i, "obs": ...}`` after
newGame (i = 0) and after move i - 1 (``observe.Observer``); ``{"t": "moved", "i": i}`` once move i is
made; ``{"t": "refused", "i": i}`` when the library's own isValidMove refuses move i (playMove of an
invalid move is undefined, C41: the game stops there); ``{"t": "no_card", "i": i}`` when a card of move
i is not where the move says; ``{"t": "done"}`` after every move and destroyGame; ``{"t": "error",
"what": "load" | "missing" | "null_game", "detail": ...}`` when the game cannot start.  The call in
progress is written (``results.at``) before every call into student code, so a crash or a hang is
pinned on it.  Nothing here sees an expected result.

A written card is found in the mover's zone -- the hand (handCard) for CHOOSE_FACE_UP and while the
hand has cards, else the face-up row (faceUpCard) -- as the first card of that rank and suit, lowest
position first, that the same move has not named already.  A card written with its identity
(``5H@12``, its deck index: the engine writes one when the zone holds a twin) is the card the deal put
there (C2), found by reading the deal right after newGame (``deck_map``).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Callable, Sequence

from grader.core.run_report import ERROR_TAG
from grader.games.palace.interface import API
from grader.games.palace.library import LoadError, PalaceLibrary
from grader.games.palace.library import warm_up as _warm_up
from grader.games.palace.observe import (
    CALL_IDS,
    CHECK_MOVE,
    DECK_MAP,
    DESTROY_GAME,
    FIND_CARD,
    NEW_GAME,
    PLAY_MOVE,
    Observer,
)
from reference.palace import HAND_DEAL, TABLE_CARDS, Action, MoveSpec, PlayerMove, Setup

__all__ = ["NEEDED", "OVER", "Event", "deck_map", "max_frames", "resolve", "run", "warm_up"]

NEEDED = ("newGame", "playMove", "isValidMove", "cardRank", "cardSuit", "currentPlayer", "handCardCount",
          "handCard", "faceUpCount", "faceUpCard")  # what playing a move list needs at all


class Event(Enum):
    """The tag ``t`` of each frame a game sends."""

    OBS = "obs"
    MOVED = "moved"
    REFUSED = "refused"
    NO_CARD = "no_card"
    DONE = "done"
    ERROR = ERROR_TAG


OVER = (Event.DONE, Event.REFUSED, Event.NO_CARD)  # the child got to the end of what it could play


def max_frames(moves: int) -> int:
    """The most frames a game of this many moves sends (an observation and an event a move)."""
    return 2 * moves + 4


def warm_up() -> None:
    _warm_up(API)


Trace = Callable[[int, int, int, int], None]


def _no_trace(_probe: int, _call: int, _a: int, _b: int) -> None:
    return None


def _capped(value: Any, cap: int) -> int:
    return max(0, min(value, cap)) if isinstance(value, int) else 0


def resolve(game: Any, spec: MoveSpec, cap: int, by_index: Callable[[int], Any] | None = None,
            trace: Trace = _no_trace, i: int = 0) -> PlayerMove | None:
    """The move ``spec`` as a ``PlayerMove`` of ``game`` (the reference's or a library's: the same
    methods), or None when a card it names is not there.  ``cap``: the most cards a zone is read for."""
    if spec.action == Action.PICK_UP_PILE:
        return PlayerMove(Action.PICK_UP_PILE)
    if spec.action == Action.PLAY_FACE_DOWN:
        return PlayerMove(Action.PLAY_FACE_DOWN, (), spec.face_down_index)
    trace(FIND_CARD, CALL_IDS["handCardCount"], i, 0)
    zone = [("handCard", game.hand_card, ())]
    count = _capped(game.hand_card_count(), cap)
    if spec.action != Action.CHOOSE_FACE_UP and count == 0:
        trace(FIND_CARD, CALL_IDS["currentPlayer"], i, 0)
        seat = game.current_player()
        trace(FIND_CARD, CALL_IDS["faceUpCount"], i, seat)
        zone = [("faceUpCard", game.face_up_card, (seat,))]
        count = _capped(game.face_up_count(seat), cap)
    cname, getter, prefix = zone[0]
    cards: list[Any] = []
    for k in range(count):
        trace(FIND_CARD, CALL_IDS[cname], i, k)
        cards.append(getter(*prefix, k))
    taken: set[int] = set()
    chosen: list[Any] = []
    for ref in spec.cards:
        if ref.ident is not None:
            card = by_index(ref.ident) if by_index is not None else None
            if card is None or (int(card.rank), int(card.suit)) != (ref.rank, ref.suit):
                return None
        else:
            card = next((c for c in cards if c is not None and int(c.ident) not in taken
                         and (int(c.rank), int(c.suit)) == (ref.rank, ref.suit)), None)
            if card is None:
                return None
        taken.add(int(card.ident))
        chosen.append(card)
    return PlayerMove(spec.action, tuple(chosen))


def deck_map(game: Any, setup: Setup, trace: Trace = _no_trace) -> dict[int, Any]:
    """Deck index -> the game's card, right after newGame, by the deal of C2: face-down position j of
    seat s is card 6N + jN + s, the pile card 9N, getDeckCard(k) card 9N + 1 + k, and the hand of seat s
    the cards i < 6N with i mod N = s (matched by look, twins in hand order).  A card whose look is not
    where the deal puts it is left out (a move naming it finds no card)."""
    n, keys = setup.n_players, setup.deck
    out: dict[int, Any] = {}
    cap = len(keys)

    def put(index: int, card: Any) -> None:
        if card is not None and 0 <= index < cap and (int(card.rank), int(card.suit)) == keys[index]:
            out[index] = card

    for s in range(n):
        for j in range(TABLE_CARDS):
            trace(DECK_MAP, CALL_IDS["getFaceDownCard"], s, j)
            put(HAND_DEAL * n + j * n + s, game.get_face_down_card(s, j))
    trace(DECK_MAP, CALL_IDS["getDiscardPileCard"], 0, 0)
    put((HAND_DEAL + TABLE_CARDS) * n, game.get_discard_pile_card(0))
    trace(DECK_MAP, CALL_IDS["drawPileSize"], 0, 0)
    for k in range(_capped(game.draw_pile_size(), cap)):
        trace(DECK_MAP, CALL_IDS["getDeckCard"], k, 0)
        put((HAND_DEAL + TABLE_CARDS) * n + 1 + k, game.get_deck_card(k))
    for s in range(n):
        trace(DECK_MAP, CALL_IDS["playerCardCount"], s, 0)
        hand = []
        for k in range(_capped(game.player_card_count(s), cap)):
            trace(DECK_MAP, CALL_IDS["getHandCard"], s, k)
            hand.append(game.get_hand_card(s, k))
        used: set[int] = set()
        for index in range(s, HAND_DEAL * n, n):
            k = next((k for k, c in enumerate(hand) if c is not None and k not in used
                      and (int(c.rank), int(c.suit)) == keys[index]), None)
            if k is not None:
                used.add(k)
                put(index, hand[k])
    return out


def run(request: dict[str, Any], results: Any) -> None:
    """Play one Palace game on the student library; every step is a frame sent to ``results``."""
    send, trace = results.send, results.at
    try:
        lib = PalaceLibrary(request["lib"])
    except LoadError as err:
        send({"t": Event.ERROR.value, "what": "load", "detail": str(err)[:2000]})
        return
    for needed in NEEDED:
        if not lib.has(needed):
            send({"t": Event.ERROR.value, "what": "missing", "detail": needed})
            return
    setup = Setup.parse(request["setup"])
    tokens: Sequence[str] = request["moves"]
    specs = [MoveSpec.parse(t) for t in tokens]
    size = setup.n_cards
    trace(NEW_GAME, CALL_IDS["newGame"], 0, 0)
    game = lib.new_game(setup.n_players, setup.ranks, setup.suits, setup.rules)
    if game is None:
        send({"t": Event.ERROR.value, "what": "null_game", "detail": "newGame returned NULL"})
        return
    observer = Observer(game, setup.n_players, size, trace=trace)
    send({"t": Event.OBS.value, "i": 0, "obs": observer.observe()})
    by_index: Callable[[int], Any] | None = None
    if any(ref.ident is not None for spec in specs for ref in spec.cards):
        needs = ("getFaceDownCard", "getDiscardPileCard", "drawPileSize", "getDeckCard", "playerCardCount",
                 "getHandCard")
        found = deck_map(game, setup, trace) if all(lib.has(f) for f in needs) else {}
        by_index = found.get
    for i, spec in enumerate(specs):
        move = resolve(game, spec, size, by_index, trace, i)
        if move is None:
            send({"t": Event.NO_CARD.value, "i": i})
            return
        trace(CHECK_MOVE, CALL_IDS["isValidMove"], i, 0)
        if not game.is_valid_move(move):
            send({"t": Event.REFUSED.value, "i": i})
            return
        trace(PLAY_MOVE, CALL_IDS["playMove"], i, 0)
        game.play_move(move)
        send({"t": Event.MOVED.value, "i": i})
        results.step = i + 1
        send({"t": Event.OBS.value, "i": i + 1, "obs": observer.observe()})
    if request.get("destroy", True) and hasattr(game, "destroy_game"):
        trace(DESTROY_GAME, CALL_IDS["destroyGame"], 0, 0)
        game.destroy_game()
    send({"t": Event.DONE.value})

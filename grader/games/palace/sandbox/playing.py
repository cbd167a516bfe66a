"""How a Palace game is played and observed on a made game -- a student's library in the child (``play``), or the
reference on the trusted side, which packs the reference's frames with the very code the child runs
(``session``): ``play_game``, the request's keys and frames (see ``play``), and the moves' cards found in
the game (``resolve``, ``deck_map``, ``answer``).  It loads no library: both sides may import it.
"""

from __future__ import annotations

from typing import Callable, Mapping, NotRequired, Protocol, Required, Sequence, TypedDict, cast

from grader.games.palace.sandbox.frames import ASK, RECHECK, AskEntry, Event
from grader.games.palace.sandbox.notation import HAND_DEAL, TABLE_CARDS, Action, Dealt, MoveSpec, PlayerMove
from grader.games.palace.sandbox.observations import RECHECKED
from grader.games.palace.sandbox.observe import (
    CALL_IDS,
    CHECK_MOVE,
    DECK_MAP,
    DESTROY_GAME,
    FIND_CARD,
    PLAY_MOVE,
    SNAKE,
    CardLike,
    Observation,
    Observer,
    player_move,
)

NEEDED = ("newGame", "playMove", "isValidMove", "cardRank", "cardSuit", "currentPlayer", "handCardCount",
          "handCard", "faceUpCount", "faceUpCard")  # what playing a move list needs at all


class PlayRequest(TypedDict, total=False):
    """What the grader asks of a child (see the module's docstring); ``lib`` is the worker's."""

    lib: Required[str]
    setup: Required[str]
    moves: Required[list[str]]
    destroy: bool
    battery: bool
    recheck: bool
    ask: list[tuple[int, list[AskEntry]]]  # [step, entries], as JSON arrays
    blind_cards: list[tuple[int, int]]  # [move, deck index], as JSON arrays
    observer: str  # the C observer's path: play the whole game through it (one ``packed`` frame)
    dealt_as: str  # the deck newGame is given, when not ``setup``'s (``grader.games.palace.deal_map``)


class EachGame(TypedDict):
    """The limits of one game of a batch (the request's own cover the whole batch)."""

    cpu: float
    wall: float


class BatchRequest(TypedDict):
    """Several games in one child, one after the other, each through the C observer (``play.run``)."""

    lib: str
    observer: str
    batch: list[dict[str, object]]  # each a game's request, as ``PlayRequest`` without ``lib`` and ``observer``
    each: EachGame
    then: NotRequired[dict[str, object]]  # a game played after them through the Python observer, every frame sent


class Results(Protocol):
    """The shared results area of the child (``core.sandbox.worker.Results``): frames, and the call in progress."""

    step: int

    def send(self, obj: Mapping[str, object]) -> None: ...

    def at(self, probe: int, call: int, a: int, b: int) -> None: ...

    def call_slot(self) -> memoryview: ...


class ZoneGame(Protocol):
    """What finding a written card in the mover's zone reads, on either engine (``resolve``)."""

    def hand_card_count(self) -> int: ...

    def hand_card(self, n: int) -> CardLike | None: ...

    def current_player(self) -> int: ...

    def face_up_count(self, player: int) -> int: ...

    def face_up_card(self, player: int, n: int) -> CardLike | None: ...


class AskedGame(ZoneGame, Protocol):
    """What answering a question reads (``answer``)."""

    def is_valid_move(self, move: PlayerMove) -> bool: ...


class DealGame(Protocol):
    """What reading the deal right after newGame reads (``deck_map``)."""

    def get_face_down_card(self, player: int, n: int) -> CardLike | None: ...

    def get_discard_pile_card(self, n: int) -> CardLike | None: ...

    def draw_pile_size(self) -> int: ...

    def get_deck_card(self, n: int) -> CardLike | None: ...

    def player_card_count(self, player: int) -> int: ...

    def get_hand_card(self, player: int, n: int) -> CardLike | None: ...


class FaceDownGame(Protocol):
    """What finding a face-down card's position reads (``_blind_by_card``)."""

    def current_player(self) -> int: ...

    def face_down_count(self, player: int) -> int: ...

    def get_face_down_card(self, player: int, n: int) -> CardLike | None: ...


class PlayedGame(AskedGame, DealGame, FaceDownGame, Protocol):
    """A library's game as ``run`` plays it: every method used (each only once the library has it)."""

    def play_move(self, move: PlayerMove) -> None: ...

    def destroy_game(self) -> None: ...


Trace = Callable[[int, int, int, int], None]  # (probe, C call, two arguments): the call in progress

def _no_trace(_probe: int, _call: int, _a: int, _b: int) -> None:
    return None


def _capped(value: object, cap: int) -> int:
    return max(0, min(value, cap)) if isinstance(value, int) else 0


def mover_zone(game: ZoneGame, action: int, cap: int, trace: Trace, probe: int, i: int) -> list[CardLike | None]:
    """The cards a move's written card is looked for in: the mover's hand for CHOOSE_FACE_UP and while
    handCardCount() is not 0, else its face-up row (faceUpCard).  The hand is read as the game runner reads it,
    getHandCard(currentPlayer(), n) (handCard when the library has no getHandCard): a handCard that gives other
    Cards than the game holds breaks C4, the business of the tests that compare the two views, not of every
    move of every test (handCard's own cards are still what the observations show)."""
    ask = probe == ASK  # the questions' trace names no seat for faceUpCount (as the C observer's)
    trace(probe, CALL_IDS["handCardCount"], i, 0)
    count = _capped(game.hand_card_count(), cap)
    if action != Action.CHOOSE_FACE_UP and count == 0:
        trace(probe, CALL_IDS["currentPlayer"], i, 0)
        seat = game.current_player()
        trace(probe, CALL_IDS["faceUpCount"], i, 0 if ask else seat)
        return [_traced(trace, probe, "faceUpCard", i, n, game.face_up_card, seat, n)
                for n in range(_capped(game.face_up_count(seat), cap))]
    by_seat = getattr(game, "get_hand_card", None)
    if by_seat is None:
        return [_traced(trace, probe, "handCard", i, n, game.hand_card, n) for n in range(count)]
    trace(probe, CALL_IDS["currentPlayer"], i, 0)
    seat = game.current_player()
    return [_traced(trace, probe, "getHandCard", i, n, by_seat, seat, n) for n in range(count)]


def _traced(trace: Trace, probe: int, cname: str, i: int, n: int, getter: Callable[..., CardLike | None],
            *args: int) -> CardLike | None:
    trace(probe, CALL_IDS[cname], i, n)
    return getter(*args)


def resolve(game: ZoneGame, spec: MoveSpec, cap: int, by_index: Callable[[int], CardLike | None] | None = None,
            trace: Trace = _no_trace, i: int = 0) -> PlayerMove | None:
    """The move ``spec`` as a ``PlayerMove`` of ``game`` (the reference's or a library's: the same
    methods), or None when a card it names is not there.  ``cap``: the most cards a zone is read for."""
    if spec.action == Action.PICK_UP_PILE:
        return PlayerMove(Action.PICK_UP_PILE)
    if spec.action == Action.PLAY_FACE_DOWN:
        return PlayerMove(Action.PLAY_FACE_DOWN, (), spec.face_down_index)
    cards = mover_zone(game, int(spec.action), cap, trace, FIND_CARD, i)
    taken: set[int] = set()
    chosen: list[CardLike] = []
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
    return player_move(spec.action, chosen)


def deck_map(game: DealGame, setup: Dealt, trace: Trace = _no_trace) -> dict[int, CardLike]:
    """Deck index -> the game's card, right after newGame, by the deal of C2: face-down position j of
    seat s is card 6N + jN + s, the pile card 9N, getDeckCard(k) card 9N + 1 + k, and the hand of seat s
    the cards i < 6N with i mod N = s (matched by look, twins in hand order).  A card whose look is not
    where the deal puts it is left out (a move naming it finds no card)."""
    n, keys = setup.n_players, setup.deck
    out: dict[int, CardLike] = {}
    cap = len(keys)

    def put(index: int, card: CardLike | None) -> None:
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
        hand: list[CardLike | None] = []
        for k in range(_capped(game.player_card_count(s), cap)):
            trace(DECK_MAP, CALL_IDS["getHandCard"], s, k)
            hand.append(game.get_hand_card(s, k))
        used: set[int] = set()
        for index in range(s, HAND_DEAL * n, n):
            at = next((k for k, c in enumerate(hand) if c is not None and k not in used
                       and (int(c.rank), int(c.suit)) == keys[index]), None)
            if at is not None:
                used.add(at)
                put(index, hand[at])
    return out


def _ask_card(game: object, text: str, zone: list[CardLike | None], found: dict[int, CardLike],
              index_of: dict[int, int], taken: set[int]) -> CardLike | None:
    """A written card of an asked move: that very card (``5H@12``), else the mover's zone first (lowest
    deck index), then anywhere by the deal (lowest deck index); None when the library has no such card."""
    ref = MoveSpec.parse(text).cards[0]
    look = (ref.rank, ref.suit)
    if ref.ident is not None:
        card = found.get(ref.ident)
        return card if card is not None and (int(card.rank), int(card.suit)) == look else None
    near = [c for c in zone if c is not None and int(c.ident) not in taken and (int(c.rank), int(c.suit)) == look]
    if near:
        return min(near, key=lambda c: index_of.get(int(c.ident), len(index_of) + zone.index(c)))
    return next((found[i] for i in sorted(found) if int(found[i].ident) not in taken
                 and (int(found[i].rank), int(found[i].suit)) == look), None)


def answer(game: AskedGame, entry: AskEntry, cap: int, found: dict[int, CardLike], n_players: int,
           trace: Trace = _no_trace, k: int = 0) -> bool | str | dict[str, list[bool]]:
    """One asked entry (see the module's docstring): isValidMove's answer, ``"no_card"``, or the index ranges."""
    if isinstance(entry, str):  # INDEX_RANGES, the one entry that is not a move
        return _index_ranges(game, cap, n_players, trace, k)
    action = int(entry.get("action", 0))
    texts = list(entry.get("cards") or [])
    zone = mover_zone(game, action, cap, trace, ASK, k) if any(isinstance(t, str) for t in texts) else []
    index_of = {int(c.ident): i for i, c in found.items()}
    taken: set[int] = set()
    cards: list[CardLike | None] = []
    for t in texts:
        if t is None:
            cards.append(None)
        elif isinstance(t, int) and not isinstance(t, bool):
            cards.append(cards[t] if 0 <= t < len(cards) else None)
        else:
            card = _ask_card(game, str(t), zone, found, index_of, taken)
            if card is None:
                return "no_card"
            taken.add(int(card.ident))
            cards.append(card)
    move = player_move(action, cards, int(entry.get("index", 0) or 0), entry.get("count"))
    trace(ASK, CALL_IDS["isValidMove"], k, 0)
    return bool(game.is_valid_move(move))


def _index_ranges(game: object, cap: int, n_players: int, trace: Trace, k: int) -> dict[str, list[bool]]:
    """C43: for every Card getter (of every seat), [NULL at -1, NULL at size, a card at size - 1 or size 0]."""
    getters: list[tuple[str, str, tuple[int, ...], str, tuple[int, ...]]] = [
        ("handCard", "handCard", (), "handCardCount", ()),
        ("getDiscardPileCard", "getDiscardPileCard", (), "discardPileSize", ()),
        ("getBurntCard", "getBurntCard", (), "burntCount", ()),
        ("getDeckCard", "getDeckCard", (), "drawPileSize", ())]
    for s in range(n_players):
        getters += [(f"getHandCard({s}, n)", "getHandCard", (s,), "playerCardCount", (s,)),
                    (f"faceUpCard({s}, n)", "faceUpCard", (s,), "faceUpCount", (s,)),
                    (f"getFaceDownCard({s}, n)", "getFaceDownCard", (s,), "faceDownCount", (s,))]
    out: dict[str, list[bool]] = {}
    for label, cname, prefix, count_c, count_args in getters:
        get, size_of = getattr(game, SNAKE[cname], None), getattr(game, SNAKE[count_c], None)
        if get is None or size_of is None:
            continue
        trace(ASK, CALL_IDS[count_c], k, count_args[0] if count_args else 0)
        size = size_of(*count_args)
        size = size if isinstance(size, int) and 0 <= size <= cap else cap
        row = []
        for n in (-1, size):
            trace(ASK, CALL_IDS[cname], k, n)
            row.append(get(*prefix, n) is None)
        if size > 0:
            trace(ASK, CALL_IDS[cname], k, size - 1)
            row.append(get(*prefix, size - 1) is not None)
        else:
            row.append(True)
        out[label] = row
    return out


def _blind_by_card(game: FaceDownGame, move: PlayerMove, card: CardLike | None, cap: int, trace: Trace,
                   i: int) -> PlayerMove:
    """The blind move turning ``card`` (C38): its position in the mover's face-down row now, or ``move``'s."""
    if card is None or not (hasattr(game, "face_down_count") and hasattr(game, "get_face_down_card")):
        return move
    trace(FIND_CARD, CALL_IDS["currentPlayer"], i, 0)
    seat = game.current_player()
    trace(FIND_CARD, CALL_IDS["faceDownCount"], i, seat)
    for p in range(_capped(game.face_down_count(seat), cap)):
        trace(FIND_CARD, CALL_IDS["getFaceDownCard"], i, p)
        c = game.get_face_down_card(seat, p)
        if c is not None and int(c.ident) == int(card.ident):
            return PlayerMove(Action.PLAY_FACE_DOWN, (), p)
    return move


class _NoBattery(Observer):
    """An observer that leaves the isValidMove battery out (``battery`` false)."""

    def battery(self, obs: Observation) -> str:
        return "skipped"


def recheck(game: object, obs: Mapping[str, object], n_players: int, trace: Trace = _no_trace,
            step: int = 0) -> dict[str, object]:
    """The counters of ``RECHECKED`` read again, where they now differ from ``obs`` (the battery changed them)."""
    out: dict[str, object] = {}
    for field, cname, per_seat in RECHECKED:
        fn: Callable[..., int] | None = getattr(game, SNAKE[cname], None)
        if fn is None or field not in obs:
            continue
        now: int | list[int]
        if per_seat:
            seats: list[int] = []
            for seat in range(n_players):
                trace(RECHECK, CALL_IDS[cname], seat, 0)
                seats.append(int(fn(seat)))
            now = seats
        else:
            trace(RECHECK, CALL_IDS[cname], 0, 0)
            now = int(fn())
        if now != obs[field]:
            out[field] = now
    return out


def play_game(game: PlayedGame, setup: Dealt, request: Mapping[str, object], send: Callable[[dict[str, object]], None],
              trace: Trace, at_step: Callable[[int], None], has: Callable[[str], bool] = lambda _name: True) -> None:
    """Play the request's moves on a made game -- a library's, or the reference's (``session`` packs the
    reference's frames to compare with the C observer's) -- sending every frame; ``at_step``: the step reached."""
    specs = [MoveSpec.parse(str(t)) for t in cast("Sequence[object]", request["moves"])]
    size = setup.n_cards
    observer = (Observer if request.get("battery", True) else _NoBattery)(game, setup.n_players, size, trace=trace)
    rechecking = bool(request.get("recheck", False))

    def observe(step: int) -> None:
        obs = observer.observe()
        send({"t": Event.OBS.value, "i": step, "obs": obs})
        if rechecking:
            changed = recheck(game, obs, setup.n_players, trace, step)
            if changed:
                send({"t": Event.RECHECK.value, "i": step, "counts": changed})

    observe(0)
    asked = cast("Sequence[tuple[int, list[AskEntry]]]", request.get("ask") or [])
    asks: dict[int, list[AskEntry]] = {int(step): list(entries) for step, entries in asked}
    blinds = cast("Sequence[tuple[int, int]]", request.get("blind_cards") or [])
    by_index: Callable[[int], CardLike | None] | None = None
    found: dict[int, CardLike] = {}
    if asks or blinds or any(ref.ident is not None for spec in specs for ref in spec.cards):
        needs = ("getFaceDownCard", "getDiscardPileCard", "drawPileSize", "getDeckCard", "playerCardCount",
                 "getHandCard")
        found = deck_map(game, setup, trace) if all(has(f) for f in needs) else {}
        by_index = found.get

    def ask(step: int) -> None:
        if step in asks:
            answers = [answer(game, entry, size, found, setup.n_players, trace, k)
                       for k, entry in enumerate(asks[step])]
            send({"t": Event.ASKED.value, "i": step, "answers": answers, "obs": observer.observe()})

    blind_cards = {int(i): int(index) for i, index in blinds}
    ask(0)
    for i, spec in enumerate(specs):
        move = resolve(game, spec, size, by_index, trace, i)
        if move is not None and i in blind_cards:
            move = _blind_by_card(game, move, found.get(blind_cards[i]), size, trace, i)
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
        at_step(i + 1)
        observe(i + 1)
        ask(i + 1)
    if request.get("destroy", True) and hasattr(game, "destroy_game"):
        trace(DESTROY_GAME, CALL_IDS["destroyGame"], 0, 0)
        game.destroy_game()
    send({"t": Event.DONE.value})

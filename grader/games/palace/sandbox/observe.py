"""Observations of a Palace game: everything Palace.h lets a tester see (rules-palace.md §4.2), as plain data.

One ``Observer`` reads either engine -- the reference ``reference.palace.Game`` or a student library's
game behind ``grader.games.palace.sandbox.library.PalaceGame`` -- because both expose the C functions as the
same snake_case methods.  The worker observes the student's game after newGame and after each move and
sends the result back; the grader observes the reference the same way, and a correct library's
observations equal the reference's (after ``canonical``, which puts the orders C37 leaves free into
one order).

An observation is a flat dict:

- the game's ints: ``phase``, ``current_player``, ``current_turn``, ``winner`` (gameWinner),
  ``effective_top_rank``, ``seven_restriction`` (bool), ``num_players``, ``num_cards``, ``rules``;
- the current seat's hand through the player's view: ``hand_count`` (handCardCount) and ``hand``
  (handCard 0..count-1);
- every seat's zones through the test getters: ``hand_counts`` / ``hands`` (playerCardCount,
  getHandCard), ``face_up_counts`` / ``face_up`` (faceUpCount, faceUpCard), ``face_down_counts`` /
  ``face_down`` (faceDownCount, getFaceDownCard, by position);
- the shared piles: ``pile_size`` / ``top_discard`` / ``pile`` (discardPileSize, topDiscard,
  getDiscardPileCard, top first), ``draw_pile_size`` / ``draw_pile`` (drawPileSize, getDeckCard, next
  drawn first), ``burnt_count`` / ``burnt`` (burntCount, getBurntCard);
- ``out_of_range``: for each Card getter, whether n = -1 and n = size give NULL (C43);
- ``valid``: isValidMove for a battery of candidate moves, by label (``battery``).

A card is ``[rank, suit, ident]``; NULL where a card should be is ``[-1, -1, 0]``.  ``ident`` numbers
the card's identity (its pointer in C, ``Card.ident`` in the reference) 1, 2, ... in the order the
observer first met it.  Every card of the game is visible through the test getters right after
newGame, so all identities are fixed by the first observation, met in an order that does not depend on
the orders C37 leaves free: face-down rows by position (C2, C38), the pile, the draw pile (C2), the
burnt cards, then the face-up rows and the hands, each sorted by look (only twins -- two decks -- in one
hand are then numbered in the library's order).

What is read, in which order and how, is the observation table's (``observations``), which the C observer
(``c_observer``) is written from too: the two observers make the same calls and see the same.

Reads go by counts, never by walking until NULL, and every count a submission gives is capped by the
deck size (a hostile count never makes the grader loop).  Before each call into the game the observer
tells ``trace`` (probe, C call, two arguments), so a crash or hang is pinned on that call.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, islice
from typing import Callable, Iterable, Mapping, Protocol, Sequence, SupportsInt, cast

from grader.core.sandbox.native import snake
from grader.games.palace.sandbox.interface import API_FUNCTIONS
from grader.games.palace.sandbox.notation import MAX_SET, TABLE_CARDS, Action, PlayerMove, format_key
from grader.games.palace.sandbox.observations import (
    BOOL,
    EDGES,
    HAND,
    INT_FIELDS,
    MET_AS_READ,
    MET_BY_LOOK,
    PILES,
    PROBE_IDS,
    PROBES,
    SEAT_ZONES,
    TOP,
)

MISSING = "missing"  # an observation whose API function the submission lacks
NULL_CARD = [-1, -1, 0]
FOREIGN_PROBES = 3  # cards of other seats tried as the mover's
CHOICE_CAP = 20  # CHOOSE_FACE_UP trios tried in the setup phase (C(6,3) = 20: all of them)
PLAY_CAP = 120  # PLAY_CARDS sets tried from the current zone (13 ranks x MAX_SET sizes fit)
BAD_ACTIONS = (4, 99, -1)  # C40: actions outside the enum

CALL_IDS = {name: i for i, name in enumerate(API_FUNCTIONS)}
# Calls that are not probes (negative probe numbers; protocol.LOADING is -5).
NEW_GAME, PLAY_MOVE, DESTROY_GAME, FIND_CARD, CHECK_MOVE, DECK_MAP = -1, -2, -3, -4, -6, -7
SNAKE = {cname: snake(cname) for cname in API_FUNCTIONS}  # C function -> the method both engines have
FREE_ORDER = ("hand", "hands", "face_up", "burnt")  # C37: orders the implementation chooses

Trace = Callable[[int, int, int, int], None]  # (probe, call, a, b)
Observation = dict[str, object]  # field -> plain data (see the module's docstring)


class CardLike(Protocol):
    """A card of either engine: the reference's ``Card`` or a library's ``CCard`` (its ``ident`` the pointer)."""

    @property
    def rank(self) -> int: ...

    @property
    def suit(self) -> int: ...

    @property
    def ident(self) -> int: ...


Cards = list[CardLike | None] | str  # the cards a getter gave, 0..count-1, or MISSING


def player_move(action: int, cards: Iterable[CardLike | None] = (), index: int = 0,
                count: int | None = None) -> PlayerMove:
    """A ``PlayerMove`` of either engine's cards: a library's ``CCard`` stands where the reference's ``Card``
    stands (each engine reads only the cards it made: rank, suit, identity and, for a library, its pointer)."""
    return PlayerMove(action, tuple(cards), index, count)


def _no_trace(_probe: int, _call: int, _a: int, _b: int) -> None:
    return None


def look(rank: SupportsInt, suit: SupportsInt) -> str:
    """A card's notation (``5H``), or ``<r,s>`` for values no card has (garbage from a broken library)."""
    return _look(int(rank), int(suit))


@lru_cache(maxsize=4096)
def _look(r: int, s: int) -> str:
    return format_key((r, s)) if 2 <= r <= 14 and 0 <= s <= 3 else f"<{r},{s}>"


def card_label(data: list[int]) -> str:
    """``5H#3``: the look and the observer's identity (``NULL`` for a NULL card)."""
    return "NULL" if data == NULL_CARD else f"{look(data[0], data[1])}#{data[2]}"


class Observer:
    """Observes one game of ``n_players`` on a deck of ``deck_size`` cards, step after step."""

    def __init__(self, game: object, n_players: int, deck_size: int, *, trace: Trace = _no_trace) -> None:
        self.game = game  # either engine: its methods are looked up by name (``SNAKE``)
        self.n = n_players  # from the setup, never from the submission
        self.cap = max(0, deck_size)  # no zone holds more cards than the deck
        self.trace = trace
        self._idents: dict[int, int] = {}  # identity (pointer / Card.ident) -> 1, 2, ... as first met
        self._cards: dict[int, CardLike] = {}  # observer ident -> the game's own card object (for moves)
        self._fns: dict[str, Callable[..., object] | None] = {  # None: missing
            cname: getattr(game, SNAKE[cname], None) for cname in API_FUNCTIONS}

    # ---- reading -------------------------------------------------------------------------------
    def _call(self, probe: str, cname: str, *args: int) -> object:
        """One query; MISSING when the game lacks it."""
        fn = self._fns[cname]
        if fn is None:
            return MISSING
        self.trace(PROBE_IDS[probe], CALL_IDS[cname], args[0] if args else 0, args[1] if len(args) > 1 else 0)
        return fn(*args)

    def _is_null(self, cname: str, *args: int) -> bool:
        """Does a Card getter give NULL here (C43), asked without reading the card it may give instead?"""
        null = getattr(self.game, "returns_null", None)
        if null is None:  # the reference: its cards are always real
            return self._call("out_of_range", cname, *args) is None
        self.trace(PROBE_IDS["out_of_range"], CALL_IDS[cname], args[0] if args else 0, args[1] if len(args) > 1 else 0)
        return bool(null(cname, *args))

    def _count(self, value: object) -> int:
        """A count the submission gave, as a number of reads we are willing to make."""
        return max(0, min(value, self.cap)) if isinstance(value, int) else 0

    def _read(self, probe: str, cname: str, prefix: tuple[int, ...], count: object) -> Cards:
        """Raw cards 0..count-1 of a getter (``prefix``: the seat argument), MISSING if it is missing."""
        if count == MISSING or self._fns[cname] is None:
            return MISSING
        return [cast("CardLike | None", self._call(probe, cname, *prefix, i)) for i in range(self._count(count))]

    def _meet(self, cards: Cards, by_look: bool = False) -> None:
        """Number the identities not met yet, in this order (sorted by look when ``by_look``)."""
        if not isinstance(cards, list):
            return
        seq: Iterable[CardLike] = [c for c in cards if c is not None]
        if by_look:
            seq = sorted(seq, key=lambda c: (int(c.rank), int(c.suit)))
        for c in seq:
            raw = int(c.ident)
            if raw not in self._idents:
                self._idents[raw] = len(self._idents) + 1

    def _cd(self, card: CardLike | None) -> list[int]:
        if card is None:
            return NULL_CARD
        ident = self._idents[int(card.ident)]
        self._cards[ident] = card
        return [int(card.rank), int(card.suit), ident]

    def _cds(self, cards: Cards) -> list[list[int]] | str:
        return [self._cd(c) for c in cards] if isinstance(cards, list) else cards

    def observe(self) -> Observation:
        """Every observation of the game as it stands (§4.2), read in the table's order (``observations``)."""
        obs: Observation = {}
        for f in INT_FIELDS:
            value = cast("SupportsInt | str", self._call(f.name, f.cfunc))  # an int query's int, or MISSING
            obs[f.name] = value if value == MISSING else (bool(value) if f.read == BOOL else int(value))
        seats = range(self.n)
        read: dict[str, Cards] = {HAND[0]: self._read(HAND[0], HAND[1], (), obs["hand_count"])}
        rows: dict[str, list[Cards]] = {}  # a seat's zone -> its cards, seat by seat
        for z in SEAT_ZONES:
            counts = [cast("SupportsInt | str", self._call(z.counts, z.count_cfunc, s)) for s in seats]
            obs[z.counts] = [c if c == MISSING else int(c) for c in counts]
            rows[z.cards] = [self._read(z.cards, z.card_cfunc, (s,), counts[s]) for s in seats]
        top = cast("CardLike | None | str", self._call(*TOP))
        for p in PILES:
            read[p.cards] = self._read(p.cards, p.card_cfunc, (), obs[p.count])
        # identities, in an order C37 does not touch (see the module's docstring)
        for field in MET_AS_READ:
            for cards in rows.get(field, [read.get(field, [])]):
                self._meet(cards)
        for field in MET_BY_LOOK:
            for cards in rows.get(field, [read.get(field, [])]):
                self._meet(cards, by_look=True)
        self._meet([top] if top is not None and not isinstance(top, str) else [])
        obs[HAND[0]] = self._cds(read[HAND[0]])
        for z in SEAT_ZONES:
            obs[z.cards] = [self._cds(row) for row in rows[z.cards]]
        obs[TOP[0]] = top if isinstance(top, str) else self._cd(top)
        for p in PILES:
            obs[p.cards] = self._cds(read[p.cards])
        obs["out_of_range"] = self._out_of_range(obs)
        obs["valid"] = self.battery(obs)
        return obs

    def _out_of_range(self, obs: Observation) -> dict[str, object]:
        """C43: does each Card getter give NULL at n = -1 and n = size (the current seat's zones)?"""
        me = obs["current_player"]
        seat = me if isinstance(me, int) and 0 <= me < self.n else 0
        getters: list[tuple[str, tuple[int, ...], object]] = [  # (the getter, the seat argument, the size)
            (e.cfunc, (seat,), _at(obs[e.size], seat)) if e.per_seat else (e.cfunc, (), obs[e.size]) for e in EDGES]
        out: dict[str, object] = {}
        for cname, prefix, size in getters:
            if self._fns[cname] is None or not isinstance(size, int):
                out[cname] = MISSING
                continue
            ends = [-1] + ([size] if 0 <= size <= self.cap else [])
            out[cname] = [self._is_null(cname, *prefix, n) for n in ends]
        return out

    # ---- the isValidMove battery --------------------------------------------------------------------
    def battery(self, obs: Observation) -> dict[str, bool] | str:
        """isValidMove for every candidate of ``candidates``, by label; MISSING without isValidMove."""
        is_valid = self._fns["isValidMove"]
        if is_valid is None:
            return MISSING
        out: dict[str, bool] = {}
        call, probe, trace = CALL_IDS["isValidMove"], PROBE_IDS["valid"], self.trace
        for i, (label, move) in enumerate(self.candidates(obs)):
            if label not in out:
                trace(probe, call, i, int(move.action))
                out[label] = bool(is_valid(move))
        return out

    def candidates(self, obs: Mapping[str, object]) -> list[tuple[str, PlayerMove]]:
        """The candidate moves of §4.2, labelled, built from what was just observed (so the same on the
        reference and on a library that agrees with it so far)."""
        me = obs["current_player"]
        seat = me if isinstance(me, int) and 0 <= me < self.n else None
        hand = _cards_of(obs["hands"], seat)
        up = _cards_of(obs["face_up"], seat)
        down = _cards_of(obs["face_down"], seat)
        setup = obs["phase"] == 0
        zone = hand if setup or hand else up  # C16: the hand while it has cards, then the face-up row
        looks = {(c[0], c[1]) for c in zone}
        card = self._cards.get
        out: list[tuple[str, PlayerMove]] = []

        def add(label: str, action: int, cards: Iterable[list[int] | None] = (), index: int = 0,
                count: int | None = None) -> None:
            objs = tuple(None if c is None or c == NULL_CARD else card(c[2]) for c in cards)
            out.append((label, player_move(action, objs, index, count)))

        def names(cards: Iterable[list[int] | None]) -> str:
            return ",".join("NULL" if c is None else card_label(c) for c in cards)

        def foreign(c: list[int] | None) -> bool:  # C4: a look-alike of a card in the zone is not tested
            return c is not None and c != NULL_CARD and (c[0], c[1]) not in looks

        # CHOOSE_FACE_UP: every trio of the hand in the setup phase, one trio otherwise (wrong phase)
        trios = islice(combinations(hand, TABLE_CARDS), CHOICE_CAP if setup else 1)  # (never all of a big hand)
        for trio in trios:
            add(f"up:{names(trio)}", Action.CHOOSE_FACE_UP, trio)
        # PLAY_CARDS: every size of every rank held in the current zone (playable or not: below the bar)
        by_rank: dict[int, list[list[int]]] = {}
        for c in zone:
            by_rank.setdefault(c[0], []).append(c)
        sets = [same[:k] for _r, same in sorted(by_rank.items()) for k in range(1, min(len(same), MAX_SET) + 1)]
        for cards in sets[:PLAY_CAP]:
            add(f"play:{names(cards)}", Action.PLAY_CARDS, cards)
        firsts = [same[0] for _r, same in sorted(by_rank.items())]
        if len(firsts) >= 2:
            add(f"mixed:{names(firsts[:2])}", Action.PLAY_CARDS, firsts[:2])  # P7
        # a card of another seat (C4), a card from the wrong zone (C16), a hand card with a face-up one
        others = [(seat + k) % self.n for k in range(1, self.n)] if seat is not None else []
        tried = 0
        for s in others:
            theirs = next((c for c in _cards_of(obs["hands"], s) + _cards_of(obs["face_up"], s) if foreign(c)), None)
            if theirs is not None and tried < FOREIGN_PROBES:
                tried += 1
                add(f"foreign:{s}:{names([theirs])}", Action.PLAY_CARDS, [theirs])
        wrong: list[tuple[str, list[int] | None]] = []
        if zone is hand and not setup:
            wrong.append(("up", next((c for c in up if foreign(c)), None)))
        wrong.append(("down", next((c for c in down if foreign(c)), None)))
        for field in ("pile", "draw_pile", "burnt"):
            wrong.append((field, next((c for c in _list(obs[field]) if foreign(c)), None)))
        for where, bad in wrong:
            if bad is not None:
                add(f"wrong-zone:{where}:{names([bad])}", Action.PLAY_CARDS, [bad])
        if hand and up and not setup:
            pair = next(([h, u] for h in hand for u in up if h[0] == u[0]), None)
            if pair is not None:
                add(f"hand+up:{names(pair)}", Action.PLAY_CARDS, pair)  # C16: never a mix
        # PLAY_FACE_DOWN: every position, plus -1 and the count
        down_count = _at(obs["face_down_counts"], seat) if seat is not None else None
        count = self._count(down_count) if isinstance(down_count, int) else 0
        for index in range(-1, count + 1):
            add(f"blind:{index}", Action.PLAY_FACE_DOWN, (), index)
        add("pickup", Action.PICK_UP_PILE)
        # C40: malformed moves
        first = zone[:1]
        for action in BAD_ACTIONS:
            add(f"action:{action}:{names(first)}", action, first)
        for n in (0, -1, MAX_SET + 1):
            add(f"play-count:{n}:{names(first)}", Action.PLAY_CARDS, first, count=n)
        add("play:NULL", Action.PLAY_CARDS, [None])
        if first:
            add(f"play:{names(first)},NULL", Action.PLAY_CARDS, [first[0], None])
            add(f"play-twice:{names(first)}", Action.PLAY_CARDS, [first[0], first[0]])
        if len(hand) >= 2:
            add(f"up-count:2:{names(hand[:2])}", Action.CHOOSE_FACE_UP, hand[:2])
            add(f"up:{names(hand[:2])},NULL", Action.CHOOSE_FACE_UP, [hand[0], hand[1], None])
            add(f"up-twice:{names(hand[:2])}", Action.CHOOSE_FACE_UP, [hand[0], hand[0], hand[1]])
        if len(hand) >= 4:
            add(f"up-count:4:{names(hand[:4])}", Action.CHOOSE_FACE_UP, hand[:4])
        return out


def _at(values: object, i: object) -> object:
    return values[i] if isinstance(values, list) and isinstance(i, int) and 0 <= i < len(values) else None


def _list(cards: object) -> list[list[int]]:
    return [c for c in cards if c != NULL_CARD] if isinstance(cards, list) else []


def _cards_of(rows: object, seat: object) -> list[list[int]]:
    """A seat's observed cards, NULLs left out, in identity order (the battery must not depend on C37's orders)."""
    return sorted(_list(_at(rows, seat)), key=lambda c: c[2])


def canonical(obs: Mapping[str, object]) -> Observation:
    """The observation with the orders C37 leaves free (hands, face-up rows, burnt cards) put in identity
    order: two correct libraries (or a library and the reference) give equal canonical observations.
    Pile order is kept (only the order inside one played set is free: the grader's moves name it)."""
    out = dict(obs)
    for field in FREE_ORDER:
        value = obs.get(field)
        if field in ("hands", "face_up") and isinstance(value, list):
            out[field] = [sorted(row, key=lambda c: c[2]) if isinstance(row, list) else row for row in value]
        elif isinstance(value, list):
            out[field] = sorted(value, key=lambda c: c[2])
    return out


TWO_ARGS = ("getHandCard", "faceUpCard", "getFaceDownCard")
ONE_ARG = ("handCard", "playerCardCount", "faceUpCount", "faceDownCount", "getDiscardPileCard", "getBurntCard",
           "getDeckCard")


def describe_call(probe: int, call: int, a: int, b: int, moves: Sequence[object] = ()) -> str:
    """The call in progress, as a student would write it: ``getHandCard(1, 4)``, ``playMove(5H,5D) at move 3``."""
    if probe == NEW_GAME:
        return "newGame(...)"
    if probe == DESTROY_GAME:
        return "destroyGame(game)"
    if probe == DECK_MAP:
        return "reading the deal after newGame (to find the cards the moves name)"
    if probe in (PLAY_MOVE, CHECK_MOVE, FIND_CARD):
        move = moves[a] if 0 <= a < len(moves) else "?"
        what = {PLAY_MOVE: "playMove", CHECK_MOVE: "isValidMove", FIND_CARD: "looking for the cards of"}[probe]
        return f"{what} ({move}) at move {a + 1}"
    if not 0 <= call < len(API_FUNCTIONS):
        return "an API call"
    name = API_FUNCTIONS[call]
    if name == "isValidMove":
        return f"isValidMove of candidate {a} (action {b})"
    if name in TWO_ARGS:
        return f"{name}({a}, {b})"
    if name in ONE_ARG:
        return f"{name}({a})"
    return f"{name}()"


__all__ = ["CALL_IDS", "MISSING", "NULL_CARD", "CardLike", "Observation", "Observer", "PROBES", "PROBE_IDS",
           "canonical", "card_label", "describe_call", "player_move"]

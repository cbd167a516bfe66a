"""The Palace observation table, and the packed form of a game's frames.

The table says what ``observe.Observer`` reads (rules-palace.md §4.2), in its order: the Python observer takes
its fields, C functions and probe numbers from here, and ``c_observer`` writes the C observer from the same
rows, so one place says what a step is.  How each value is read matters as much as which: a C enum comes
back through cffi as an *unsigned* int (``ENUM``), so a garbage phase or rank is the same number on both paths.

The packed form (``pack_frames``) is one stream of 32-bit words for the frames a game sends (``frames.Event``):
the C observer writes it directly in the sandbox, and the trusted side writes the same stream from the Python
job's frames of the reference (``session``); two games sent the same frames exactly when their streams are equal,
byte for byte.  Orders are kept as read (the hands' order, the first-met identity numbers...): a stream equal to
the reference's is the reference's frames, and anything else is judged from the Python job's frames.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Iterable, Mapping

INT, BOOL, ENUM = "int", "bool", "enum"  # how an int query is read: as C's int, as TRUE/FALSE, as cffi's unsigned enum


@dataclass(frozen=True)
class IntField:
    """A game-wide int query: the observation's field, the C function, the method both engines have."""

    name: str
    cfunc: str
    method: str
    read: str = INT


@dataclass(frozen=True)
class SeatZone:
    """A zone every seat has: its count per seat, then its cards seat by seat (the test getters)."""

    counts: str
    cards: str
    count_cfunc: str
    card_cfunc: str


@dataclass(frozen=True)
class Pile:
    """A shared pile: its cards 0..count-1, the count being an int field."""

    cards: str
    count: str
    card_cfunc: str


@dataclass(frozen=True)
class Edge:
    """A Card getter asked at n = -1 and n = size (C43): the seat argument (the current seat's, or none) and
    where its size is (an int field, or a per-seat count)."""

    cfunc: str
    per_seat: bool
    size: str


INT_FIELDS = (
    IntField("num_players", "numPlayers", "num_players"),
    IntField("num_cards", "numCards", "num_cards"),
    IntField("rules", "gameRules", "game_rules"),
    IntField("phase", "currentPhase", "current_phase", ENUM),
    IntField("current_player", "currentPlayer", "current_player"),
    IntField("current_turn", "currentTurn", "current_turn"),
    IntField("winner", "gameWinner", "game_winner"),
    IntField("effective_top_rank", "effectiveTopRank", "effective_top_rank"),
    IntField("seven_restriction", "sevenRestriction", "seven_restriction", BOOL),
    IntField("hand_count", "handCardCount", "hand_card_count"),
    IntField("pile_size", "discardPileSize", "discard_pile_size"),
    IntField("draw_pile_size", "drawPileSize", "draw_pile_size"),
    IntField("burnt_count", "burntCount", "burnt_count"),
)
HAND = ("hand", "handCard")  # the current seat's hand through the player's view: handCard(0..hand_count-1)
SEAT_ZONES = (
    SeatZone("hand_counts", "hands", "playerCardCount", "getHandCard"),
    SeatZone("face_up_counts", "face_up", "faceUpCount", "faceUpCard"),
    SeatZone("face_down_counts", "face_down", "faceDownCount", "getFaceDownCard"),
)
TOP = ("top_discard", "topDiscard")
PILES = (
    Pile("pile", "pile_size", "getDiscardPileCard"),
    Pile("draw_pile", "draw_pile_size", "getDeckCard"),
    Pile("burnt", "burnt_count", "getBurntCard"),
)
EDGES = (  # out_of_range, in this order
    Edge("handCard", False, "hand_count"),
    Edge("getHandCard", True, "hand_counts"),
    Edge("faceUpCard", True, "face_up_counts"),
    Edge("getFaceDownCard", True, "face_down_counts"),
    Edge("getDiscardPileCard", False, "pile_size"),
    Edge("getDeckCard", False, "draw_pile_size"),
    Edge("getBurntCard", False, "burnt_count"),
)
# The order identities are first met in (C37 leaves the others free): the face-down rows by position, the piles,
# then the face-up rows and the hands sorted by look (so only twins in one row keep the library's order).
MET_AS_READ = ("face_down", "pile", "draw_pile", "burnt")
MET_BY_LOOK = ("face_up", "hands", "hand")
# The counters read again after an observation (C46: isValidMove must not change the game): (field, C, per seat).
RECHECKED = (("phase", "currentPhase", False), ("current_player", "currentPlayer", False),
             ("current_turn", "currentTurn", False), ("pile_size", "discardPileSize", False),
             ("draw_pile_size", "drawPileSize", False), ("burnt_count", "burntCount", False),
             ("hand_counts", "playerCardCount", True), ("face_up_counts", "faceUpCount", True),
             ("face_down_counts", "faceDownCount", True))
ENUM_RESULTS = ("currentPhase", "cardRank", "cardSuit")  # C functions whose enum cffi hands back unsigned

# Probe numbers (the call-in-progress record): the fields in the order they are read.
PROBES = (*(f.name for f in INT_FIELDS), HAND[0], *(z.counts for z in SEAT_ZONES), *(z.cards for z in SEAT_ZONES),
          TOP[0], *(p.cards for p in PILES), "out_of_range", "valid")
PROBE_IDS = {name: i for i, name in enumerate(PROBES)}

# ---- the packed form ------------------------------------------------------------------------------------------
# A frame: its tag, then (OBS, RECHECK, ASKED, MOVED, REFUSED, NO_CARD) its step, then its body.
TAG_OBS, TAG_RECHECK, TAG_ASKED, TAG_MOVED, TAG_REFUSED, TAG_NO_CARD, TAG_DONE, TAG_NULL_GAME = range(1, 9)
EVENT_TAGS = {"moved": TAG_MOVED, "refused": TAG_REFUSED, "no_card": TAG_NO_CARD}
ANSWER_FALSE, ANSWER_TRUE, ANSWER_NO_CARD, ANSWER_RANGES = 0, 1, 2, 3
NULL_WORDS = (0xFFFFFFFF, 0xFFFFFFFF, 0)  # a NULL card, [-1, -1, 0]
WORD = 0xFFFFFFFF


class Unpackable(Exception):
    """A frame the packed form has no words for (a missing function's value, a malformed frame)."""


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unpackable(repr(value)[:80])
    return value & WORD


def _card(out: list[int], card: object) -> None:
    if not (isinstance(card, list) and len(card) == 3):
        raise Unpackable(repr(card)[:80])
    out += (_int(card[0]), _int(card[1]), _int(card[2]))


def _cards(out: list[int], cards: object) -> None:
    if not isinstance(cards, list):
        raise Unpackable(repr(cards)[:80])
    out.append(len(cards))
    for c in cards:
        _card(out, c)


def _per_seat(value: object, n_players: int) -> list[object]:
    if not (isinstance(value, list) and len(value) == n_players):
        raise Unpackable(repr(value)[:80])
    return value


def pack_observation(out: list[int], obs: Mapping[str, object], n_players: int, battery: bool) -> None:
    """One observation's words, in the table's order (``Unpackable`` for a value the C observer cannot give)."""
    for f in INT_FIELDS:
        value = obs.get(f.name)
        out.append(int(value) if f.read == BOOL and isinstance(value, bool) else _int(value))
    _cards(out, obs.get(HAND[0]))
    for z in SEAT_ZONES:
        out += (_int(c) for c in _per_seat(obs.get(z.counts), n_players))
        for row in _per_seat(obs.get(z.cards), n_players):
            _cards(out, row)
    _card(out, obs.get(TOP[0]))
    for p in PILES:
        _cards(out, obs.get(p.cards))
    edges = obs.get("out_of_range")
    if not (isinstance(edges, dict) and list(edges) == [e.cfunc for e in EDGES]):
        raise Unpackable("out_of_range")
    for e in EDGES:
        ends = edges[e.cfunc]
        if not (isinstance(ends, list) and all(isinstance(b, bool) for b in ends)):
            raise Unpackable(e.cfunc)
        out.append(len(ends))
        out += (int(b) for b in ends)
    valid = obs.get("valid")
    if battery:
        if not (isinstance(valid, dict) and all(isinstance(b, bool) for b in valid.values())):
            raise Unpackable("valid")
        out.append(len(valid))
        out += (int(b) for b in valid.values())


def _answer(out: list[int], answer: object) -> None:
    if isinstance(answer, bool):
        out.append(int(answer))
    elif answer == "no_card":
        out.append(ANSWER_NO_CARD)
    elif isinstance(answer, dict):
        out += (ANSWER_RANGES, len(answer))
        for row in answer.values():
            if not (isinstance(row, list) and len(row) == 3 and all(isinstance(b, bool) for b in row)):
                raise Unpackable("index_ranges")
            out += (int(b) for b in row)
    else:
        raise Unpackable(repr(answer)[:80])


def pack_frames(frames: Iterable[Mapping[str, object]], n_players: int, battery: bool) -> bytes:
    """The packed stream of a game's frames (as ``play.play_game`` sends them); ``Unpackable`` for a frame the C
    observer never writes (an error other than a NULL game, a missing function's value)."""
    out: list[int] = []
    for f in frames:
        tag = f.get("t")
        if tag == "obs":
            out += (TAG_OBS, _int(f.get("i")))
            pack_observation(out, _mapping(f.get("obs")), n_players, battery)
        elif tag == "recheck":
            counts = _mapping(f.get("counts"))
            out += (TAG_RECHECK, _int(f.get("i")),
                    sum(1 << k for k, (name, _c, _s) in enumerate(RECHECKED) if name in counts))
            for name, _c, per_seat in RECHECKED:
                if name in counts:
                    value = counts[name]
                    out += (_int(v) for v in _per_seat(value, n_players)) if per_seat else (_int(value),)
        elif tag == "asked":
            answers = f.get("answers")
            if not isinstance(answers, list):
                raise Unpackable("answers")
            out += (TAG_ASKED, _int(f.get("i")), len(answers))
            for a in answers:
                _answer(out, a)
            pack_observation(out, _mapping(f.get("obs")), n_players, battery)
        elif isinstance(tag, str) and tag in EVENT_TAGS:
            out += (EVENT_TAGS[tag], _int(f.get("i")))
        elif tag == "done":
            out.append(TAG_DONE)
        elif tag == "error" and f.get("what") == "null_game":
            out.append(TAG_NULL_GAME)
        else:
            raise Unpackable(f"frame {tag!r}")
    return array("I", out).tobytes()


def _mapping(value: object) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise Unpackable(repr(value)[:80])
    return value


__all__ = ["BOOL", "EDGES", "ENUM", "ENUM_RESULTS", "HAND", "INT", "INT_FIELDS", "MET_AS_READ", "MET_BY_LOOK",
           "PILES", "PROBES", "PROBE_IDS", "RECHECKED", "SEAT_ZONES", "TOP", "Edge", "IntField", "Pile", "SeatZone",
           "Unpackable", "pack_frames", "pack_observation"]

"""Palace's places of a deal, and the decks that show a submission's deal (``grader.core.deal_map``).

A deal bug (hands dealt in blocks, the face-down row dealt first, the starting card taken from the bottom, the draw
pile upside down) fails the deal tests once; every other test is then given the deck rearranged so that the
submission's own deal puts each card where C2 puts it.  What a deal is made of here: the hands (a set: C37 leaves
their order free), each face-down position (C38), the pile, and the draw pile by getDeckCard position -- everything
the observation right after newGame shows (``observe.Observer``).

How the submission deals is learnt from games on *probe* decks, whose cards it can tell apart: one deck of distinct
cards up to 52 cards; beyond that (two decks), no deck of that size has every card once (MAX_SET of a rank), so
several probes each give 26 positions cards found nowhere else in the deck (hearts and diamonds, one of each) and fill
the rest with spades and clubs, repeated (at most MAX_SET of a rank).  A position's place is read from the probe
where its card is unique.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from reference.palace import DEALT_PER_SEAT, RULES_BASIC, Rank, Setup, Suit

Place = tuple[str, int] | tuple[str, int, int]  # ("hand", seat), ("up", seat), ("down", seat, j), ("pile", k),
#                                                 ("draw", k)
Look = tuple[int, int]
DISTINCT = [(int(r), int(s)) for s in Suit for r in Rank if r != Rank.TEN] + [(int(Rank.TEN), int(s)) for s in Suit]
WINDOW = 26  # the positions one probe of a two-deck size tells apart
UNIQUE = [(int(r), int(s)) for s in (Suit.HEARTS, Suit.DIAMONDS) for r in Rank]
FILLER = [(int(r), int(s)) for s in (Suit.SPADES, Suit.CLUBS) for r in Rank]
# The zones an observation after newGame shows cards in, and the kind of place each is.
ZONES = {"hands": "hand", "face_up": "up", "face_down": "down", "pile": "pile", "draw_pile": "draw"}
PARTIAL = ("draw",)  # a draw pile read in part (getDeckCard missing or short): its places may be named on one side


def probe_setups(n_players: int, size: int) -> list[Setup]:
    """The decks whose games show where the submission deals every position of a ``size``-card deck."""
    if size <= len(DISTINCT):
        return [_setup(n_players, DISTINCT[:size])]
    out = []
    for start in range(0, size, WINDOW):
        fill = iter(FILLER * (size // len(FILLER) + 1))
        out.append(_setup(n_players, [UNIQUE[i - start] if start <= i < start + WINDOW else next(fill)
                                      for i in range(size)]))
    return out


def _setup(n_players: int, deck: list[Look]) -> Setup:
    """A probe deck whose starting card is no TEN (C31: the grader's decks never start with one)."""
    start = DEALT_PER_SEAT * n_players
    if deck[start][0] == Rank.TEN:
        swap = next(i for i in range(start + 1, len(deck)) if deck[i][0] != Rank.TEN)
        deck[start], deck[swap] = deck[swap], deck[start]
    return Setup(n_players, RULES_BASIC, tuple(deck))


def places(obs: object, deck: Sequence[Look]) -> dict[int, Place] | None:
    """Where each card of ``deck`` found only once in it went, by deck position, as the observation after newGame
    shows (plain JSON, as a frame arrives); None when it cannot say (a zone not read, a card seen twice, a card the
    deck does not hold)."""
    if not isinstance(obs, Mapping):
        return None
    count = Counter(deck)
    position = {look: i for i, look in enumerate(deck) if count[look] == 1}
    out: dict[int, Place] = {}
    for place, card in _cards(obs):
        if not (isinstance(card, list) and len(card) == 3 and all(type(x) is int for x in card)):
            return None
        look = (card[0], card[1])
        if look not in count:
            return None
        i = position.get(look)
        if i is not None:
            if i in out:
                return None
            out[i] = place
    return out


def learnt(observed: Sequence[tuple[Mapping[int, Place] | None, Mapping[int, Place] | None]]) -> \
        tuple[dict[int, Place], dict[int, Place]] | None:
    """The probes' (reference, submission) places merged: every position from the probe where it is unique; None
    when a probe could not say, or two probes put one position in two places."""
    ref: dict[int, Place] = {}
    sub: dict[int, Place] = {}
    for want, got in observed:
        if want is None or got is None:
            return None
        for into, found in ((ref, want), (sub, got)):
            for i, place in found.items():
                if into.setdefault(i, place) != place:
                    return None
    return ref, sub


def same_deal(reference: object, library: object) -> bool:
    """Do two observations after newGame show the same deal, card by card where C2 fixes the place (the hands as
    sets)?  Only the zones both could read are compared (a missing function shows nothing of the deal)."""
    if not isinstance(reference, Mapping) or not isinstance(library, Mapping):
        return True
    read = tuple(z for z in ZONES if isinstance(reference.get(z), list) and isinstance(library.get(z), list))
    return _looks(reference, read) == _looks(library, read)


def _looks(obs: Mapping[str, object], zones: Sequence[str]) -> dict[Place, list[object]]:
    out: dict[Place, list[object]] = {}
    for place, card in _cards(obs, zones):
        out.setdefault(place, []).append(card[:2] if isinstance(card, list) else card)
    return {p: sorted(looks, key=repr) for p, looks in out.items()}


def _cards(obs: Mapping[str, object], zones: Sequence[str] = tuple(ZONES)) -> list[tuple[Place, object]]:
    """(place, card) for every card the observation after newGame shows in ``zones`` (a zone not read -- its
    function missing -- shows none)."""
    out: list[tuple[Place, object]] = []
    for zone in zones:
        rows = obs.get(zone)
        if not isinstance(rows, list):
            continue
        kind = ZONES[zone]
        if zone in ("pile", "draw_pile"):
            out += [((kind, k), card) for k, card in enumerate(rows)]
            continue
        for seat, row in enumerate(rows):
            if isinstance(row, list):
                out += [((kind, seat, j) if kind == "down" else (kind, seat), card) for j, card in enumerate(row)]
    return out

"""Deal builders and small drivers for the Palace reference-engine tests.

A test describes each seat the way a person sees the table once the face-up cards are chosen --
``"hand | face-up | face-down"``, three cards each -- plus the starting card and the draw pile.
``seated`` lays those cards out in the order newGame takes them (C2), with the seat's hand dealt as
its three kept cards then its three face-up cards, and plays the N face-up choices (C5), so the game
it returns is at the first play move (turn N, seat 0):

    card i < 6N           -> hand of seat i mod N   (kept cards at deal rounds 0-2, face-up at 3-5)
    card 6N + j           -> face-down position j div N of seat j mod N
    card 9N               -> the starting card
    card 9N + 1 ...       -> the draw pile, 9N + 1 drawn first

Cards are written as in ``reference.palace.cards`` (``TH`` = ten of hearts) and ``CARD*k`` repeats a
card.  A zone given with fewer than three cards is padded with fillers: kings, queens, jacks, aces and
nines (never more than MAX_SET of a rank in the deck).  Tests reason only about the cards they name
and never play a filler.

Every expected value in these tests is worked out by hand from the deal; the helpers only build
decks, apply written moves and read the API.
"""

from __future__ import annotations

from collections import Counter
from itertools import cycle

from reference.palace import (
    MAX_SET,
    REFERENCE,
    TABLE_CARDS,
    Card,
    Game,
    PlayerMove,
    Readings,
    Setup,
    format_cards,
    parse_cards,
)
from reference.palace.cards import CardKey, parse_key

FILLER_ORDER = [f"{r}{s}" for s in "CDHS" for r in "KQJA9"]


def _zones(seat: str) -> list[list[CardKey]]:
    parts = seat.split("|")
    if len(parts) > 3:
        raise ValueError(f"seat {seat!r}: at most 'hand | face-up | face-down'")
    parts += [""] * (3 - len(parts))
    zones = [parse_cards(p) for p in parts]
    for z in zones:
        if len(z) > TABLE_CARDS:
            raise ValueError(f"seat {seat!r}: three cards per zone")
    return zones


def table_setup(*seats: str, start: str, draw: str = "", rules: int = 0) -> Setup:
    """The Setup whose deal and face-up choices give these seats (see the module docstring)."""
    zones = [_zones(s) for s in seats]
    named: Counter[int] = Counter()
    for z in zones:
        for part in z:
            named.update(r for r, _s in part)
    start_key = parse_key(start)
    draw_keys = parse_cards(draw)
    named.update([int(start_key[0])] + [r for r, _s in draw_keys])
    fillers = cycle(FILLER_ORDER)

    def filler() -> CardKey:
        for _ in range(len(FILLER_ORDER) + 1):
            r, s = parse_key(next(fillers))
            if named[int(r)] < MAX_SET:
                named[int(r)] += 1
                return (int(r), int(s))
        raise ValueError("no filler rank left under MAX_SET")

    for z in zones:
        for part in z:
            part.extend(filler() for _ in range(TABLE_CARDS - len(part)))
    hands = [z[0] + z[1] for z in zones]
    return Setup.dealt(len(seats), rules, hands, [z[2] for z in zones], start_key, draw_keys)


def seated(*seats: str, start: str, draw: str = "", rules: int = 0, readings: Readings = REFERENCE) -> Game:
    """The game right after the face-up choices of these seats (turn N, seat 0 to play)."""
    g = Game(table_setup(*seats, start=start, draw=draw, rules=rules), readings=readings)
    n = len(seats)
    for s in range(n):
        up = tuple(g.card(s + k * n) for k in range(3, 6))  # deal rounds 3-5 are the face-up cards
        g.play_move(PlayerMove.choose(*up))
    return g


def play(g: Game, tokens: str) -> None:
    """Play written moves one after the other (``"5H pickup blind:0"``)."""
    for tok in tokens.split():
        g.play_move(g.resolve(tok))


def valid(g: Game, token: str) -> bool:
    return g.is_valid_move(g.resolve(token))


def names(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    """Cards as sorted rank+suit names (for comparing zones whose order C37 leaves free)."""
    return sorted(str(c) for c in cards)


def deck_text(keys: list[CardKey]) -> str:
    return format_cards(keys)

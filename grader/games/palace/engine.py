"""The Palace reference engine (``reference.palace``) behind the core's engine contract (``grader.core.engine``).

A deck is a ``Setup`` (players, rules flags, deck top first; notation ``2p mirror: 5H 6D ...``); a state
is the reference ``Game``; moves are the written kind (``MoveSpec``: ``up:5H,6D,KS``, ``5H,5D``,
``blind:1``, ``pickup``), so a move list is its notation.  A written card carries its identity
(``5H@12``, its deck index) exactly when the mover's zone holds a twin of it (two decks): then the
move names one physical card however the zone is ordered (C37), and a plain card is the only one of
its look there, so any resolution rule finds it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from reference.palace import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    Action,
    CardRef,
    Game,
    MoveSpec,
    Outcome,
    PlayerMove,
    Rank,
    Setup,
    format_moves,
    min_deck,
    parse_moves,
    standard_deck,
)
from reference.palace.header import DEALT_PER_SEAT

TWO_DECKS = 0.5  # chance of a two-deck (104-card) game: MAX_SET = 8 copies of each rank at most
SHORT_DECK = 0.3  # chance of cutting the deck short (down to 9N + 1 cards): the later stages come sooner


def spec_of(game: Game, move: PlayerMove) -> MoveSpec:
    """The written form of a move of ``game`` now: identities only on cards with a twin in the mover's zone."""
    if move.action not in (Action.CHOOSE_FACE_UP, Action.PLAY_CARDS):
        return move.spec()
    seat = game.current_player()
    zone = game.hand(seat) if move.action == Action.CHOOSE_FACE_UP or game.hand(seat) else game.face_up(seat)
    looks = Counter(c.key for c in zone)
    return MoveSpec(Action(move.action), tuple(CardRef.of(c, explicit=looks[c.key] > 1) for c in move.cards))


def forbidden_start(rank: int, rules: int) -> bool:
    """C31: the grader's decks never turn up a TEN, nor a SEVEN under RULE_SEVEN_LOWER, as the starting card."""
    return rank == Rank.TEN or (rank == Rank.SEVEN and bool(rules & RULE_SEVEN_LOWER))


def random_setup(rng: random.Random, *, players: int | None = None, rules: int | None = None) -> Setup:
    """2-5 players, a random option combination, one or two shuffled standard decks (sometimes cut short,
    never below 9N + 1 cards), and a starting card C31 allows (swapped in from elsewhere in the deck)."""
    n = rng.randint(MIN_PLAYERS, MAX_PLAYERS) if players is None else players
    flags = rng.randrange(RULE_MIRROR_THREE + RULE_SEVEN_LOWER + 1) if rules is None else rules
    decks = 2 if rng.random() < TWO_DECKS else 1
    keys = standard_deck() * decks  # 4 (one deck) or 8 (two decks) of each rank: never over MAX_SET
    rng.shuffle(keys)
    if rng.random() < SHORT_DECK:
        keys = keys[:rng.randint(min_deck(n), len(keys))]
    start = DEALT_PER_SEAT * n
    if forbidden_start(keys[start][0], flags):
        allowed = [i for i, (r, _s) in enumerate(keys) if i != start and not forbidden_start(r, flags)]
        j = rng.choice(allowed)
        keys[start], keys[j] = keys[j], keys[start]
    return Setup(n, flags, tuple(keys))


class PalaceEngine:
    def new_game(self, deck: Setup) -> Game:
        return Game(deck)

    def legal_moves(self, state: Game) -> list[MoveSpec]:
        return [spec_of(state, m) for m in state.legal_moves()]

    def apply(self, state: Game, move: MoveSpec) -> None:
        state.play_move(state.resolve(move))  # IllegalMoveError (a ValueError) for a move not valid now

    def outcome(self, state: Game) -> Outcome | None:
        return state.outcome()

    def random_deck(self, rng: random.Random) -> Setup:
        return random_setup(rng)

    def format_deck(self, deck: Setup) -> str:
        return str(deck)

    def parse_deck(self, text: str) -> Setup:
        return Setup.parse(text)

    def format_moves(self, moves: Sequence[MoveSpec]) -> str:
        return format_moves(moves)

    def parse_moves(self, text: str) -> list[MoveSpec]:
        return parse_moves(text)


ENGINE = PalaceEngine()

__all__ = ["ENGINE", "PalaceEngine", "forbidden_start", "random_setup", "spec_of"]
